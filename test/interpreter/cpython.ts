// The oracle: runs many programs in ONE python3 process (fast enough for CI) and reports, per
// program, what the sandbox reports: printed output, the uncaught error's type and message, and
// the result (RESULT, else result) serialized as SPEC §8 does.
import { spawnSync } from "node:child_process";
import { expect } from "vitest";
import { execute } from "../../src/interpreter/execute.js";

const DRIVER = String.raw`
import contextlib, io, json, signal, sys, traceback

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

class Fail(Exception):
    pass

class Timeout(BaseException):
    pass

def expire(signum, frame):
    raise Timeout("the program ran longer than 2 s under python3")

signal.signal(signal.SIGALRM, expire)

def fail(*args):
    raise Fail(" ".join(str(a) for a in args))

out = []
for source in json.load(sys.stdin):
    g = {"fail": fail}
    buf = io.StringIO()
    error = None
    try:
        signal.alarm(2)
        with contextlib.redirect_stdout(buf):
            exec(compile(source, "<script>", "exec"), g)
    except BaseException as e:
        # A SyntaxError's str() adds "(<script>, line N)"; the sandbox reports the position apart.
        message = e.msg if isinstance(e, SyntaxError) else str(e)
        error = {"type": type(e).__name__, "message": message, "text": "".join(traceback.format_exception_only(type(e), e))}
    signal.alarm(0)
    value = g.get("RESULT", g.get("result")) if error is None else None
    try:
        result = json.dumps(plain(value))
    except BaseException as e:
        result = json.dumps("<unserializable %s>" % type(e).__name__)
    out.append({"stdout": buf.getvalue(), "error": error, "result": result})
print(json.dumps(out))
`;

export interface CPythonOutcome {
  stdout: string;
  /** `text` is the last lines of CPython's traceback (`Type: message`). */
  error: { type: string; message: string; text: string } | null;
  /** JSON of the result, converted as the sandbox's boundary converts it. */
  result: string;
}

/** Runs every source in one python3 process; `fail(msg)` is defined (Starlark's builtin). */
export function cpython(sources: string[]): CPythonOutcome[] {
  const run = spawnSync("python3", ["-c", DRIVER], { input: JSON.stringify(sources), maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as CPythonOutcome[];
}

/** A result JSON with numbers compared by value (our results do not keep 1 and 1.0 apart). */
export function normalizeResult(json: string): unknown {
  return JSON.parse(json, (_k, v) => (typeof v === "number" ? Number(v) : v));
}

/** Our result in the same form (bigints as numbers, as JSON.parse reads CPython's). */
export function plainResult(result: unknown): unknown {
  return JSON.parse(JSON.stringify(result, (_k, v) => (typeof v === "bigint" ? Number(v) : v)) ?? "null");
}

/**
 * The cases where `ours` disagrees with CPython's outcomes `theirs` (in the same order), each as
 * "label: ours X, CPython Y"; empty when all agree. Outcomes compare as JSON.
 */
export function disagreements<C>(cases: readonly C[], theirs: readonly unknown[], ours: (c: C) => unknown, label: (c: C) => string): string[] {
  const out: string[] = [];
  cases.forEach((c, i) => {
    const mine = ours(c);
    if (JSON.stringify(mine) !== JSON.stringify(theirs[i])) out.push(`${label(c)}: ours ${JSON.stringify(mine)}, CPython ${JSON.stringify(theirs[i])}`);
  });
  return out;
}

/** Runs `source` in the sandbox and under CPython: both must complete, with the same result. */
export async function expectResultAsCPython(source: string): Promise<void> {
  const [theirs] = cpython([source]);
  const mine = await execute(source);
  expect(mine.error).toBeNull();
  expect(theirs!.error).toBeNull();
  expect(mine.result).toEqual(JSON.parse(theirs!.result));
}

/**
 * The programs whose output (or `Type: message` of their error) differs between the sandbox and
 * CPython, each with both outputs; empty when all agree.
 */
export async function outputDifferences(programs: readonly string[]): Promise<string[]> {
  const theirs = cpython([...programs]);
  const differences: string[] = [];
  for (let i = 0; i < programs.length; i++) {
    const ours = await execute(programs[i]!);
    const expected = theirs[i]!;
    const got = ours.error ? `${ours.error.type}: ${ours.error.message}` : ours.stdout;
    const want = expected.error ? `${expected.error.type}: ${expected.error.message}` : expected.stdout;
    if (got !== want) differences.push(`${programs[i]}\n--- ours\n${got}\n--- CPython\n${want}`);
  }
  return differences;
}
