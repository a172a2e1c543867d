// bench:interpreter's scenario drivers, run on one or two workloads for one round: each gives a
// figure for every engine and the RESULT CPython gives, and the tables come out well formed.
// Not timed: the figures are checked for being there, not for their size. The process
// scenarios run the build in dist/ (npm test builds first).
import { beforeAll, describe, expect, it } from "vitest";
import { loadEngines } from "../../bench/interpreter/engines.js";
import { runNewScripts } from "../../bench/interpreter/new-script.js";
import { runFreshProcesses, runStartup } from "../../bench/interpreter/processes.js";
import { scenarioTable, type Samples } from "../../bench/interpreter/report.js";
import { runRepeated } from "../../bench/interpreter/repeated.js";
import { ALL_WORKLOADS, expectedResults, variants, type Workload } from "../../bench/interpreter/workloads.js";

const byFile = (file: string) => ALL_WORKLOADS.find((w) => w.file === file)!;
// One the interpreter was tuned on and one it was not, both short.
const PAIR = [byFile("json_records.py"), byFile("word_stats.py")];

function expectFigures(samples: Samples, engines: string[], workloads: Workload[], runs: number) {
  expect([...samples.keys()].sort()).toEqual([...engines].sort());
  for (const engine of engines) {
    expect(samples.get(engine)).toHaveLength(workloads.length);
    for (const times of samples.get(engine)!) {
      expect(times).toHaveLength(runs);
      for (const t of times) expect(Number.isFinite(t) && t > 0).toBe(true);
    }
  }
}

/** Every row of a markdown table has as many cells as its heading. */
function expectWellFormed(table: string, rows: number) {
  const lines = table.split("\n");
  expect(lines).toHaveLength(rows + 2);
  const cells = (line: string) => line.split("|").length;
  for (const line of lines) expect(cells(line)).toBe(cells(lines[0]!));
  expect(table).not.toMatch(/NaN|Infinity|undefined/);
}

beforeAll(loadEngines, 60_000);

describe("bench:interpreter's scenarios", () => {
  it("names every bound name anew in each variant, RESULT kept", () => {
    const texts = variants([byFile("fib.py")], 5, 2).get("fib.py")!;
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain("def fib_v5(n_v5):");
    expect(texts[1]).toContain("RESULT = fib_v6(25)");
    expect(texts[0]).not.toMatch(/\bfib\(|\bn\b/);
  });

  it("repeated script: a figure per engine and the RESULT CPython gives", async () => {
    const plan = { rounds: 1, reps: 1, warmup: 1, warmupMs: 0, trivialBatches: 1, trivialBatch: 1 };
    const f = await runRepeated(plan, [PAIR[0]!]);
    expectFigures(f.samples, ["ours", "closures", "cpython", "monty", "pyodide"], [PAIR[0]!], 1);
    for (const engine of ["ours", "closures", "monty", "pyodide"]) expect(f.results.get(engine)).toEqual(f.results.get("cpython"));
    expect([...f.trivial.keys()].sort()).toEqual(["cpython", "monty", "ours", "ours-uncached", "pyodide"]);
    expect(f.version).toMatch(/^3\.\d+/);
  }, 120_000);

  it("new script: a figure per engine and run, the RESULT CPython gives, a well-formed table", async () => {
    const f = await runNewScripts({ rounds: 1, warmFirst: 1, warm: 0, reps: 2 }, PAIR);
    const engines = ["ours", "new-shapes", "closures", "cpython", "monty", "pyodide"];
    // Ours is also timed on its main thread alone (Linux's schedstat), never more than the whole process.
    expectFigures(f.samples, [...engines, "ours-main"], PAIR, 2);
    PAIR.forEach((_, i) => f.samples.get("ours-main")![i]!.forEach((main, run) => expect(main).toBeLessThanOrEqual(f.samples.get("ours")![i]![run]! + 0.01)));
    const expected = expectedResults(PAIR);
    for (const engine of engines) expect(f.results.get(engine)).toEqual(expected);
    const table = scenarioTable("new script", PAIR, f.samples, [
      { engine: "ours", title: "ours" },
      { engine: "ours-main", title: "ours: main thread only" },
      { engine: "new-shapes", title: "shapes never seen" },
      { engine: "closures", title: "closures" },
      { engine: "cpython", title: "CPython" },
      { engine: "monty", title: "Monty" },
      { engine: "pyodide", title: "Pyodide" },
    ]);
    // Two workloads, then the geometric means over both, the tuned one and the unseen one.
    expectWellFormed(table, 5);
    expect(table).toContain("word statistics (str methods, sets) *");
  }, 120_000);

  it("fresh process: code-mode-exec, python3 and Monty's process each run the file", () => {
    const f = runFreshProcesses(1, [PAIR[0]!]);
    expectFigures(f.samples, ["ours", "cpython", "monty"], [PAIR[0]!], 1);
    const expected = expectedResults([PAIR[0]!]);
    expect(f.results.get("ours")).toEqual(expected);
    expect(f.results.get("monty")).toEqual(expected);
  }, 120_000);

  it("start-up: every process runs RESULT=1; Pyodide's only in its rounds", () => {
    const times = runStartup({ rounds: 1, pyodideRounds: 0 });
    for (const engine of ["ours", "cpython", "monty", "node"] as const) expect(times.get(engine)).toHaveLength(1);
    expect(times.get("pyodide")).toEqual([]);
  }, 60_000);
});
