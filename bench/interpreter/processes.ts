// Scenarios 3 and 4 of bench:interpreter, whole processes timed by the wall clock from spawn to
// exit: a fresh process per script (code-mode-exec as users run it, python3, and a Node process
// that loads Monty), and start-up (each of them running `RESULT=1`, next to Pyodide's process
// and Node's own start-up). Needs the build in dist/.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Samples } from "./report.js";
import { benchFile, ROOT, type Workload } from "./workloads.js";

export type ProcessEngine = "ours" | "cpython" | "monty" | "pyodide" | "node";

/**
 * code-mode-exec as `npm run exec` runs it (read from package.json, to stay in step): either
 * `node [flags] file.js`, or `node [flags] --snapshot-blob <blob> --` (the start-up snapshot,
 * whose arguments follow the `--`). Paths are made absolute.
 */
function execCommand(): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const words = scripts.exec?.split(/\s+/) ?? [];
  const last = words.at(-1);
  if (words[0] !== "node" || !(last?.endsWith(".js") || (last === "--" && words.includes("--snapshot-blob")))) {
    throw new Error(`package.json's "exec" script is neither \`node [flags] file.js\` nor \`node [flags] --snapshot-blob <blob> --\`: ${scripts.exec}`);
  }
  const absolute = words.slice(1).map((w, i, all) => (w.endsWith(".js") || all[i - 1] === "--snapshot-blob" ? join(ROOT, w) : w));
  return [process.execPath, ...absolute];
}

const helper = (name: string) => join(ROOT, "dist", "bench", "interpreter", name);

/** The command line that runs `args` (a file, or -c CODE) in `engine`. */
export function commandFor(engine: ProcessEngine, args: string[]): string[] {
  switch (engine) {
    case "ours":
      return [...execCommand(), ...args];
    case "cpython":
      return ["python3", ...args];
    case "monty":
      return [process.execPath, helper("monty-process.js"), ...args];
    case "pyodide":
      return [process.execPath, helper("pyodide-process.js"), ...args];
    case "node":
      return [process.execPath, "-e", "1"];
  }
}

/** One process, timed from spawn to exit; its RESULT as JSON where the engine prints it. */
function runProcess(engine: ProcessEngine, args: string[]): { ms: number; result: string | null } {
  const [command, ...rest] = commandFor(engine, args);
  const started = performance.now();
  const run = spawnSync(command!, rest, { encoding: "utf8", maxBuffer: 1 << 24, timeout: 120_000 });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${[command, ...rest].join(" ")} failed (${run.error?.message ?? `exit ${run.status}`}): ${run.stderr.slice(0, 2000)}`);
  if (engine === "ours") return { ms, result: JSON.stringify((JSON.parse(run.stdout) as { result: unknown }).result) };
  if (engine === "monty" || engine === "pyodide") return { ms, result: run.stdout.trim() };
  return { ms, result: null };
}

export const FRESH_ENGINES = ["ours", "cpython", "monty"] as const satisfies ProcessEngine[];

export interface FreshFigures {
  /** Per engine, per workload: every process's wall time in ms. */
  samples: Samples;
  /** The RESULT that ours and Monty printed (python3 prints nothing). */
  results: Map<string, string[]>;
}

/** Each round runs every workload in each engine, the engines' order turning from round to round. */
export function runFreshProcesses(rounds: number, workloads: Workload[]): FreshFigures {
  const samples: Samples = new Map(FRESH_ENGINES.map((e) => [e, workloads.map(() => [])]));
  const results = new Map<string, string[]>([
    ["ours", []],
    ["monty", []],
  ]);
  for (let round = 0; round < rounds; round++) {
    for (const [i, w] of workloads.entries()) {
      for (let k = 0; k < FRESH_ENGINES.length; k++) {
        const engine = FRESH_ENGINES[(round + k) % FRESH_ENGINES.length]!;
        const run = runProcess(engine, [benchFile(w.file)]);
        samples.get(engine)![i]!.push(run.ms);
        if (run.result !== null) results.get(engine)![i] = run.result;
      }
    }
  }
  return { samples, results };
}

export const STARTUP_CODE = "RESULT=1";
export const STARTUP_ENGINES = ["ours", "cpython", "monty", "pyodide", "node"] as const satisfies ProcessEngine[];

export interface StartupPlan {
  rounds: number;
  /** Pyodide's process takes seconds to load its WebAssembly module: it runs in the first rounds only. */
  pyodideRounds: number;
}

/** Wall time of `-c 'RESULT=1'` per engine (and `node -e 1`), every run, rounds alternating. */
export function runStartup(plan: StartupPlan): Map<ProcessEngine, number[]> {
  const times = new Map<ProcessEngine, number[]>(STARTUP_ENGINES.map((e) => [e, []]));
  for (let round = 0; round < plan.rounds; round++) {
    const engines = STARTUP_ENGINES.filter((e) => e !== "pyodide" || round < plan.pyodideRounds);
    for (let k = 0; k < engines.length; k++) {
      const engine = engines[(round + k) % engines.length]!;
      const run = runProcess(engine, ["-c", STARTUP_CODE]);
      if (run.result !== null && run.result !== "1") throw new Error(`${engine} -c ${STARTUP_CODE} gave RESULT ${run.result}`);
      times.get(engine)!.push(run.ms);
    }
  }
  return times;
}
