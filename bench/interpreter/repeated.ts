// Scenario 1 of bench:interpreter, the repeated script: the same text run again and again in
// one process, so ours runs it on the JavaScript tier from its third run (what the bench
// measured before issue 21). Also the cost of one trivial execution.
import { execute } from "../../src/interpreter/execute.js";
import { median } from "../results.js";
import { cpuMs, type InProcessEngine, runOnce, trivialRunner } from "./engines.js";
import type { Samples } from "./report.js";
import { asJsJson, python, type Workload } from "./workloads.js";

export interface RepeatedPlan {
  rounds: number;
  reps: number;
  /** Untimed runs before the timed ones, at least this many and `warmupMs` of them. */
  warmup: number;
  warmupMs: number;
  trivialBatches: number;
  trivialBatch: number;
}

export const TRIVIAL = "RESULT = 1 + 1\n";
export const REPEATED_ENGINES = ["ours", "closures", "monty", "pyodide"] as const satisfies InProcessEngine[];

export interface RepeatedFigures {
  version: string;
  /** Per engine (the in-process ones and cpython), per workload: the median of each round. */
  samples: Samples;
  results: Map<string, string[]>;
  /** Microseconds per trivial execution, per round: ours, ours-uncached, cpython, monty, pyodide. */
  trivial: Map<string, number[]>;
}

/**
 * Median milliseconds of `reps` runs, after at least `warmup` untimed runs and `warmupMs` of them:
 * V8 needs a few runs to optimize ours (the gateway is a long-lived process), and a CPython or
 * Monty run is as fast the first time as the tenth.
 */
async function timeWorkload(plan: RepeatedPlan, engine: InProcessEngine, source: string): Promise<{ ms: number; result: string }> {
  let result = "";
  const warmStart = cpuMs();
  for (let i = 0; i < plan.warmup || cpuMs() - warmStart < plan.warmupMs; i++) result = await runOnce(engine, source);
  const samples: number[] = [];
  for (let i = 0; i < plan.reps; i++) {
    const started = cpuMs();
    result = await runOnce(engine, source);
    samples.push(cpuMs() - started);
  }
  return { ms: median(samples), result };
}

/** Median microseconds per trivial execution, over batches of back-to-back runs. */
async function timeTrivial(plan: RepeatedPlan, run: () => unknown): Promise<number> {
  // Long enough for V8 to optimize, and to pay off the collector's debt left by the workloads.
  const warmStart = cpuMs();
  for (let i = 0; i < 2000 || cpuMs() - warmStart < 2 * plan.warmupMs; i++) await run();
  const samples: number[] = [];
  for (let b = 0; b < plan.trivialBatches; b++) {
    const started = cpuMs();
    for (let i = 0; i < plan.trivialBatch; i++) await run();
    samples.push(((cpuMs() - started) * 1000) / plan.trivialBatch);
  }
  return median(samples);
}

interface CpythonRepeated {
  version: string;
  workloads: { ms: number; result: string }[];
  trivial_us: number;
}

/** Rounds alternate the engines so that noise from other processes falls on all of them alike. */
export async function runRepeated(plan: RepeatedPlan, workloads: Workload[]): Promise<RepeatedFigures> {
  const samples: Samples = new Map(["cpython", ...REPEATED_ENGINES].map((e) => [e, workloads.map(() => [])]));
  const results = new Map<string, string[]>();
  const trivial = new Map<string, number[]>();
  const addTrivial = (key: string, us: number) => trivial.set(key, [...(trivial.get(key) ?? []), us]);
  let version = "";
  for (let round = 0; round < plan.rounds; round++) {
    for (const engine of REPEATED_ENGINES) {
      const found: string[] = [];
      for (const [i, w] of workloads.entries()) {
        const t = await timeWorkload(plan, engine, w.source);
        samples.get(engine)![i]!.push(t.ms);
        found.push(t.result);
      }
      results.set(engine, found);
    }
    const py = python<CpythonRepeated>("cpython.py", {
      mode: "repeated",
      workloads: workloads.map((w) => ({ name: w.file, source: w.source })),
      ...plan,
      trivial: TRIVIAL,
    });
    version = py.version;
    py.workloads.forEach((w, i) => samples.get("cpython")![i]!.push(w.ms));
    results.set("cpython", py.workloads.map((w) => asJsJson(w.result)));
    addTrivial("cpython", py.trivial_us);
    addTrivial("ours", await timeTrivial(plan, () => execute(TRIVIAL)));
    // A source text never seen before misses the parse cache: the cost of a new script.
    let fresh = 0;
    addTrivial("ours-uncached", await timeTrivial(plan, () => execute(`${TRIVIAL}# ${fresh++}\n`)));
    addTrivial("monty", await timeTrivial(plan, trivialRunner("monty")));
    addTrivial("pyodide", await timeTrivial(plan, trivialRunner("pyodide")));
  }
  return { version, samples, results, trivial };
}
