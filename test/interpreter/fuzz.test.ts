// Fuzzing with a fixed seed: mutated programs of the corpora, and random calls of every built-in
// function, method and module function, at small limits. None may end in an InternalError (a bug
// of the interpreter showing), and every run ends within its time. FUZZ_COUNT and FUZZ_SEED run
// more (`npm run fuzz`; FUZZ_COUNT=20000 FUZZ_SEED=7 npm run fuzz).
import { afterAll, describe, expect, it } from "vitest";
import { setCodegen } from "../../src/interpreter/tiering.js";
import { execute, type Hosts } from "../../src/interpreter/execute.js";
import { Tensor } from "../../src/interpreter/tensor.js";
import { hasConformance, montyChunks, starlarkChunks } from "../grammar/corpus.js";
import { SNIPPETS } from "../grammar/snippets.js";
import { CASES } from "./cases.js";
import { programs, Rng } from "./generate.js";
import { callees, mutate, randomCall, randomOperations } from "./mutate.js";
import { measure } from "./stall.js";

const COUNT = Number(process.env.FUZZ_COUNT ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 18);
const LIMITS = { max_steps: 20_000, max_memory_bytes: 4 << 20, tool_execution_timeout: 2 };
/**
 * Each run's wall time bound: the 2 s execution timeout stops any run, and the rest is room for a
 * loaded machine (a run the timeout ended has ended; one that outlives this did not stop).
 */
const RUN_MS = 4000;
/** Per test: a few ms per run, with room for a loaded machine and large FUZZ_COUNTs. */
const TEST_MS = Math.max(120_000, COUNT * 25);

const hosts: Hosts = {
  srv: {
    tensor: async () => new Tensor("float32", [2, 3], [3, 1], 0, new Uint8Array(24)),
    echo: async (args) => args[0] ?? null,
  },
};

/** Scripts that once ended in an InternalError, found by this fuzzer or by hand. */
const REGRESSIONS = [
  "*print(1)",
  "b''.decode(len)",
  "frozenset({1}).issubset()",
  "d = {}\ndel d[1:2]",
  "d = {}\ndel d[({}, 1)]",
  "None(**42)",
  "None(*42)",
];

interface Finding {
  source: string;
  outcome: string;
}

/**
 * The longest the event loop may be held while a run goes on, sampled by a 5 ms timer: the
 * interpreter yields often enough (SPEC §2: ~20 ms), so a long gap is an operation that does not.
 * CI's bound is loose (a loaded machine and the garbage collector stall too); FUZZ_STALL_MS=50
 * hunts for the operations that hold it longest.
 */
const STALL_MS = Number(process.env.FUZZ_STALL_MS ?? 1000);

async function run(source: string): Promise<Finding | null> {
  const { result: r, wallMs: ms, stallMs: stall } = await measure(source, { hosts, limits: LIMITS }, 5);
  if (r.error?.type === "InternalError") return { source, outcome: `InternalError: ${r.error.message}` };
  if (ms > RUN_MS) return { source, outcome: `took ${ms.toFixed(0)} ms (${r.error?.type ?? "ok"})` };
  if (stall > STALL_MS) return { source, outcome: `held the event loop ${stall.toFixed(0)} ms (${r.error?.type ?? "ok"})` };
  return null;
}

async function findings(sources: Iterable<string>): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const s of sources) {
    const f = await run(s);
    if (f) out.push(f);
  }
  return out;
}

/** What codegen.test.ts compares across tiers: result, output, error (type, message, line) and steps. */
async function outcome(source: string, tier: "never" | "always"): Promise<string> {
  setCodegen(tier);
  const r = await execute(source, { hosts, limits: LIMITS });
  const error = r.error && `${r.error.type}: ${r.error.message} (line ${r.error.line})`;
  return JSON.stringify({ result: r.result, stdout: r.stdout, error, steps: r.stats.steps }, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
}

/** `count` mutated programs of the corpora (the conformance suites join when the shared checkout has them). */
function* mutatedPrograms(r: Rng, count: number): Generator<string> {
  const suites = hasConformance ? [...montyChunks(), ...starlarkChunks()].map((c) => c.source) : [];
  const corpus = [...Object.values(CASES).flat(), ...SNIPPETS, ...programs(SEED, 300), ...suites];
  for (let i = 0; i < count; i++) {
    let s = r.pick(corpus);
    for (let k = r.int(1, 3); k > 0; k--) s = mutate(r, s, corpus);
    yield s;
  }
}

afterAll(() => setCodegen(process.env.PY_CODEGEN === "always" ? "always" : "auto"));

describe(`fuzzing (seed ${SEED}, ${COUNT} of each kind)`, () => {
  it("the regressions stay fixed", async () => {
    expect(await findings(REGRESSIONS)).toEqual([]);
  });

  it("mutated programs of the corpora never end in an InternalError", async () => {
    const r = new Rng(SEED);
    const sources = () => mutatedPrograms(r, COUNT);
    expect(await findings(sources())).toEqual([]);
  }, TEST_MS);

  it("random calls of every builtin, method and module function never end in an InternalError", async () => {
    const r = new Rng(SEED + 1);
    const all = callees();
    const sources = function* () {
      // Every callee at least once, then random ones.
      for (let i = 0; i < Math.max(COUNT, all.length); i++) yield randomCall(r, i < all.length ? all[i]! : r.pick(all));
    };
    expect(await findings(sources())).toEqual([]);
  }, TEST_MS);

  it("random operations (operators, subscripts, unpacking, formatting...) on values of every kind never end in an InternalError", async () => {
    const r = new Rng(SEED + 2);
    const sources = function* () {
      for (let i = 0; i < COUNT; i++) yield randomOperations(r);
    };
    expect(await findings(sources())).toEqual([]);
  }, TEST_MS);

  it("mutated programs and random operations give the same outcome in both tiers", async () => {
    const r = new Rng(SEED + 3);
    const differ: string[] = [];
    const programsToo = mutatedPrograms(r, COUNT >> 3);
    for (const source of [...programsToo, ...Array.from({ length: COUNT >> 3 }, () => randomOperations(r))]) {
      const closures = await outcome(source, "never");
      const js = await outcome(source, "always");
      // A run the 2 s timeout ended may end at another step in each tier.
      if (closures !== js && !/tool_execution_timeout/.test(closures + js)) differ.push(`${source}\n  closures: ${closures}\n  js: ${js}`);
    }
    expect(differ).toEqual([]);
  }, TEST_MS);
});
