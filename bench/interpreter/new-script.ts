// Scenario 2 of bench:interpreter, a new script run once in a warm process: what a gateway does
// with each model-written script. Every timed run is a text its engine has never run (the
// workload with its names renamed: variants.py), in a process warmed first on other such texts
// of every workload. CPython is timed as compile() + exec() of the new text in one warm python3
// process per round; ours (as it is, and with the JavaScript tier off), Monty and Pyodide in this
// process (each with its parse or compile); ours also as with shapes never seen (engines.ts).
import { cpuMs, type InProcessEngine, mainThreadMs, runOnce } from "./engines.js";
import type { Samples } from "./report.js";
import { asJsJson, python, variants, type Workload } from "./workloads.js";

export interface NewScriptPlan {
  rounds: number;
  /**
   * Untimed passes over every workload (new texts too) per engine before the timed runs: V8 takes
   * a few passes over many scripts to settle ours (the first runs of a process are 2-6× slower).
   */
  warmFirst: number;
  /** The same before each later round. */
  warm: number;
  /** Timed runs per workload, round and engine, each of a new text. */
  reps: number;
}

export const NEW_SCRIPT_ENGINES = ["ours", "new-shapes", "closures", "monty", "pyodide"] as const satisfies InProcessEngine[];

export interface NewScriptFigures {
  version: string;
  /**
   * Per engine (and cpython), per workload: every timed run, in ms of CPU time; "ours-main" is
   * ours' main thread alone (empty where the platform does not tell it).
   */
  samples: Samples;
  results: Map<string, string[]>;
}

interface CpythonNew {
  version: string;
  workloads: { samples: number[]; result: string }[];
}

export async function runNewScripts(plan: NewScriptPlan, workloads: Workload[]): Promise<NewScriptFigures> {
  // Round r's texts: its warm-up ones from starts[r], then its timed ones.
  const starts: number[] = [];
  let next = 0;
  for (let round = 0; round < plan.rounds; round++) {
    starts.push(next);
    next += (round === 0 ? plan.warmFirst : plan.warm) + plan.reps;
  }
  const texts = variants(workloads, 0, next);
  const textOf = (w: Workload, n: number) => texts.get(w.file)![n]!;
  const samples: Samples = new Map(["cpython", "ours-main", ...NEW_SCRIPT_ENGINES].map((e) => [e, workloads.map(() => [])]));
  const results = new Map<string, string[]>();
  let version = "";
  for (let round = 0; round < plan.rounds; round++) {
    const base = starts[round]!;
    const warm = round === 0 ? plan.warmFirst : plan.warm;
    for (const engine of NEW_SCRIPT_ENGINES) {
      for (let k = 0; k < warm; k++) for (const w of workloads) await runOnce(engine, textOf(w, base + k));
      const found: string[] = [];
      for (let k = 0; k < plan.reps; k++) {
        for (const [i, w] of workloads.entries()) {
          const text = textOf(w, base + warm + k);
          const started = cpuMs();
          const mainStarted = mainThreadMs();
          found[i] = await runOnce(engine, text);
          const main = mainThreadMs() - mainStarted;
          samples.get(engine)![i]!.push(cpuMs() - started);
          if (engine === "ours" && !Number.isNaN(main)) samples.get("ours-main")![i]!.push(main);
        }
      }
      results.set(engine, found);
    }
    const py = python<CpythonNew>("cpython.py", {
      mode: "new",
      workloads: workloads.map((w) => ({
        name: w.file,
        warm: Array.from({ length: warm }, (_, k) => textOf(w, base + k)),
        timed: Array.from({ length: plan.reps }, (_, k) => textOf(w, base + warm + k)),
      })),
    });
    version = py.version;
    py.workloads.forEach((w, i) => samples.get("cpython")![i]!.push(...w.samples));
    results.set("cpython", py.workloads.map((w) => asJsJson(w.result)));
  }
  return { version, samples, results };
}
