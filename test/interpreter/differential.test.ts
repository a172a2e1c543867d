// Differential tests: every snippet of cases.ts runs under python3 and in the sandbox; printed
// output, the result (SPEC §8 serialization) and the type of an uncaught error must agree.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { CASES } from "./cases.js";

const RUNNER = String.raw`
import contextlib, io, json, sys

def plain(v, seen=()):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple, set, frozenset)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        def key(k):
            if isinstance(k, str): return k
            if k is True: return "true"
            if k is False: return "false"
            if k is None: return "null"
            return repr(k) if isinstance(k, float) else str(k)
        return {key(k): plain(x) for k, x in v.items()}
    return str(v)

out = []
for source in json.load(sys.stdin):
    g = {}
    buf = io.StringIO()
    error = None
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(source, "<script>", "exec"), g)
    except BaseException as e:
        error = type(e).__name__
    value = g.get("RESULT", g.get("result")) if error is None else None
    out.append({"stdout": buf.getvalue(), "error": error, "result": json.dumps(plain(value))})
print(json.dumps(out))
`;

interface Outcome {
  stdout: string;
  error: string | null;
  result: string;
}

function cpython(sources: string[]): Outcome[] {
  const run = spawnSync("python3", ["-c", RUNNER], { input: JSON.stringify(sources), maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString()) as Outcome[];
}

/** JSON with numbers compared by value (our results do not keep 1 and 1.0 apart). */
function normalizeResult(json: string): unknown {
  return JSON.parse(json, (_k, v) => (typeof v === "number" ? Number(v) : v));
}

const all = Object.entries(CASES).flatMap(([area, sources]) => sources.map((source) => ({ area, source })));
const expected = cpython(all.map((c) => c.source));

describe("the sandbox agrees with CPython", () => {
  it.each(all.map((c, i) => [c.area, c.source, i] as const))("%s: %j", async (_area, source, i) => {
    const theirs = expected[i]!;
    const ours = await execute(source);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(ours.error?.type ?? null).toBe(theirs.error);
    if (!theirs.error) {
      expect(ours.error).toBeNull();
      const plain = JSON.parse(JSON.stringify(ours.result, (_k, v) => (typeof v === "bigint" ? Number(v) : v)));
      expect(plain).toEqual(normalizeResult(theirs.result));
    }
  });
});
