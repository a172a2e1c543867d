// The engines bench:interpreter runs inside its own process: ours (both tiers; both tiers as
// with shapes never seen; or closures only), Monty and Pyodide. Each run gives the script's RESULT as JSON, for the cross-check
// against CPython.
import { readFileSync } from "node:fs";
import { Monty } from "@pydantic/monty";
import { loadPyodide } from "pyodide";
import { setCodegen } from "../../src/interpreter/compile.js";
import { execute } from "../../src/interpreter/execute.js";
import { setTextSharing } from "../../src/interpreter/unit-texts.js";
import { plain } from "./plain.js";

/**
 * "new-shapes" is ours with no unit text shared (unit-texts.ts setTextSharing): no unit moves
 * early for a known shape, and every unit's code starts cold in V8, as for a script whose loops'
 * and functions' shapes no earlier script had.
 */
export type InProcessEngine = "ours" | "new-shapes" | "closures" | "monty" | "pyodide";

/**
 * CPU time of this process in milliseconds. The machine is shared: wall-clock time would charge
 * every engine for the other processes' use of the two cores, CPU time much less. (Node's
 * parallel GC and compiler threads count against ours.)
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * CPU time of this process's main thread in milliseconds (Linux: /proc/self/task/PID/schedstat,
 * in ns), or NaN where there is no such file. What a script holds the event loop for; the rest of
 * cpuMs is V8's other threads (TurboFan compiling, the collector's helpers).
 */
export function mainThreadMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

type PyodideApi = Awaited<ReturnType<typeof loadPyodide>>;
interface PyProxy {
  toJs(options?: { dict_converter?: (entries: Iterable<[unknown, unknown]>) => unknown }): unknown;
  destroy(): void;
}
let pyodideApi: PyodideApi | null = null;

/** Loads Pyodide's WebAssembly module once (some seconds: never timed). */
export async function loadEngines(): Promise<void> {
  pyodideApi ??= await loadPyodide();
}

/** Runs `source` once in `engine`; returns its RESULT as JSON. */
export async function runOnce(engine: InProcessEngine, source: string): Promise<string> {
  if (engine === "ours" || engine === "new-shapes" || engine === "closures") {
    if (engine === "closures") setCodegen("never");
    if (engine === "new-shapes") setTextSharing(false);
    try {
      const r = await execute(source);
      if (r.error) throw new Error(`${engine} failed: ${r.error.type}: ${r.error.message}`);
      return JSON.stringify(r.result);
    } finally {
      setCodegen("auto");
      setTextSharing(true);
    }
  }
  if (engine === "monty") return JSON.stringify(plain(new Monty(`${source}\nRESULT\n`).run()));
  const py = pyodideApi;
  if (!py) throw new Error("Pyodide is not loaded: call loadEngines() first");
  const globals = (py.globals.get("dict") as () => PyProxy & { get(k: string): unknown })();
  try {
    py.runPython(source, { globals: globals as never });
    const value = globals.get("RESULT");
    const proxy = value && typeof value === "object" && "toJs" in value ? (value as PyProxy) : null;
    const js = proxy ? proxy.toJs({ dict_converter: Object.fromEntries }) : value;
    proxy?.destroy();
    return JSON.stringify(js);
  } finally {
    globals.destroy();
  }
}

/** The trivial script, as each in-process engine runs it (for the per-execution cost). */
export function trivialRunner(engine: "monty" | "pyodide"): () => unknown {
  if (engine === "monty") return () => new Monty("1 + 1").run();
  const py = pyodideApi;
  if (!py) throw new Error("Pyodide is not loaded: call loadEngines() first");
  return () => py.runPython("1 + 1");
}
