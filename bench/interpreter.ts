// Interpreter speed: eight workloads (bench/interpreter/*.py) run by ours, CPython, Monty and
// Pyodide side by side in one run, plus the cost of one trivial execution. `npm run
// bench:interpreter` (add `-- --quick` for a short run, `-- --write` to record its section of
// bench/RESULTS.md).
//
// What is timed, per engine:
// - ours: the public `execute(source)` with the default budgets on: parse, compile, run, result
//   conversion, everything a caller pays; a repeated script, so on the JavaScript tier;
// - ours, closures only: the same with the JavaScript tier off (what a script's first run uses);
// - CPython: `exec` of code compiled beforehand, in-process (bench/interpreter/cpython.py);
// - Monty: `new Monty(source).run()` (its parse included, as ours);
// - Pyodide: `runPython(source)` in a fresh globals dict (its compile included; the ~3 s load
//   of the WebAssembly module is not timed).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Monty } from "@pydantic/monty";
import { loadPyodide } from "pyodide";
import { setCodegen } from "../src/interpreter/compile.js";
import { execute } from "../src/interpreter/execute.js";
import { median, writeSection } from "./results.js";

const quick = process.argv.includes("--quick");
const here = (path: string) => fileURLToPath(new URL(`../../bench/interpreter/${path}`, import.meta.url));

const WORKLOADS = [
  { file: "arithmetic.py", name: "arithmetic loop (300k iterations)" },
  { file: "string_building.py", name: "string building (join + +=)" },
  { file: "dict_counting.py", name: "dict counting (180k words)" },
  { file: "comprehension_sort.py", name: "list comprehension + sort with key" },
  { file: "fib.py", name: "recursive fib(25)" },
  { file: "json_records.py", name: "transform 1,000 JSON records" },
  { file: "fstrings.py", name: "f-string formatting (20k lines)" },
  { file: "string_parsing.py", name: "string-method parsing (8k log lines)" },
].map((w) => ({ ...w, source: readFileSync(here(w.file), "utf8") }));

const TRIVIAL = "RESULT = 1 + 1\n";
const rounds = quick ? 1 : 3;
const reps = quick ? 3 : 5;
const warmup = quick ? 1 : 2;
const warmupMs = quick ? 250 : 600;
const trivialBatches = quick ? 15 : 41;
const trivialBatch = 200;

type Engine = "ours" | "closures" | "cpython" | "monty" | "pyodide";
const ENGINES: Engine[] = ["ours", "closures", "cpython", "monty", "pyodide"];

// ---------------------------------------------------------------- the in-process engines

const pyodide = await loadPyodide();
const pyDict = pyodide.globals.get("dict") as () => { destroy(): void };

/** Runs `source` once in `engine`; returns its RESULT as JSON (for the cross-check). */
async function runOnce(engine: Exclude<Engine, "cpython">, source: string): Promise<string> {
  if (engine === "ours" || engine === "closures") {
    if (engine === "closures") setCodegen("never");
    try {
      const r = await execute(source);
      if (r.error) throw new Error(`${engine} failed: ${r.error.type}: ${r.error.message}`);
      return JSON.stringify(r.result);
    } finally {
      setCodegen("auto");
    }
  }
  if (engine === "monty") return JSON.stringify(new Monty(`${source}\nRESULT\n`).run());
  const globals = pyDict();
  try {
    pyodide.runPython(source, { globals: globals as never });
    const value = (globals as unknown as Map<string, unknown> & { get(k: string): unknown }).get("RESULT");
    const plain = value && typeof value === "object" && "toJs" in value ? (value as { toJs(): unknown; destroy(): void }) : null;
    const js = plain ? plain.toJs() : value;
    plain?.destroy();
    return JSON.stringify(js);
  } finally {
    globals.destroy();
  }
}

/**
 * CPU time of this process in milliseconds. The machine is shared: wall-clock time would charge
 * every engine for the other processes' use of the two cores, CPU time much less. (Node's
 * parallel GC threads count against ours.)
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Median milliseconds of `reps` runs, after at least `warmup` untimed runs and `warmupMs` of them:
 * V8 needs a few runs to optimize ours (the gateway is a long-lived process, so the steady state
 * is the one that matters), and a CPython or Monty run is as fast the first time as the tenth.
 */
async function timeWorkload(engine: Exclude<Engine, "cpython">, source: string): Promise<{ ms: number; result: string }> {
  let result = "";
  const warmStart = cpuMs();
  for (let i = 0; i < warmup || cpuMs() - warmStart < warmupMs; i++) result = await runOnce(engine, source);
  const samples: number[] = [];
  for (let i = 0; i < reps; i++) {
    const started = cpuMs();
    result = await runOnce(engine, source);
    samples.push(cpuMs() - started);
  }
  return { ms: median(samples), result };
}

/** Median microseconds per trivial execution, over batches of back-to-back runs. */
async function timeTrivial(run: () => unknown): Promise<number> {
  // Long enough for V8 to optimize, and to pay off the collector's debt left by the workloads.
  const warmStart = cpuMs();
  for (let i = 0; i < 2000 || cpuMs() - warmStart < 2 * warmupMs; i++) await run();
  const samples: number[] = [];
  for (let b = 0; b < trivialBatches; b++) {
    const started = cpuMs();
    for (let i = 0; i < trivialBatch; i++) await run();
    samples.push(((cpuMs() - started) * 1000) / trivialBatch);
  }
  return median(samples);
}

function cpython(): { version: string; workloads: { ms: number; result: string }[]; trivial_us: number } {
  const spec = { workloads: WORKLOADS.map((w) => ({ name: w.file, source: w.source })), reps, warmup, warmupMs, trivial: TRIVIAL, trivialBatch, trivialBatches };
  const run = spawnSync("python3", [here("cpython.py")], { input: JSON.stringify(spec), maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString());
}

// ---------------------------------------------------------------- measuring

const times = new Map<Engine, number[][]>(ENGINES.map((e) => [e, WORKLOADS.map(() => [])]));
const results = new Map<Engine, string[]>();
const trivial = new Map<string, number[]>();
const addTrivial = (key: string, us: number) => trivial.set(key, [...(trivial.get(key) ?? []), us]);
let version = "";

// Rounds alternate the engines so that noise from other processes falls on all of them alike.
for (let round = 0; round < rounds; round++) {
  for (const engine of ["ours", "closures", "monty", "pyodide"] as const) {
    const found: string[] = [];
    for (const [i, w] of WORKLOADS.entries()) {
      const t = await timeWorkload(engine, w.source);
      times.get(engine)![i]!.push(t.ms);
      found.push(t.result);
    }
    results.set(engine, found);
  }
  const py = cpython();
  version = py.version;
  py.workloads.forEach((w, i) => times.get("cpython")![i]!.push(w.ms));
  results.set("cpython", py.workloads.map((w) => w.result));
  addTrivial("cpython", py.trivial_us);
  addTrivial("ours", await timeTrivial(() => execute(TRIVIAL)));
  // A source text never seen before misses the parse cache: the cost of a new script.
  let fresh = 0;
  addTrivial("ours-uncached", await timeTrivial(() => execute(`${TRIVIAL}# ${fresh++}\n`)));
  addTrivial("monty", await timeTrivial(() => new Monty("1 + 1").run()));
  addTrivial("pyodide", await timeTrivial(() => pyodide.runPython("1 + 1")));
}

// ---------------------------------------------------------------- the table

const ms = (engine: Engine, i: number) => median(times.get(engine)![i]!);
const fmt = (t: number) => (t >= 100 ? t.toFixed(0) : t >= 10 ? t.toFixed(1) : t.toFixed(2));
const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const ratio = (peer: Engine, engine: Engine = "ours") => geomean(WORKLOADS.map((_, i) => ms(engine, i) / ms(peer, i)));

const mismatches: string[] = [];
const rows = WORKLOADS.map((w, i) => {
  const expected = results.get("cpython")![i];
  for (const engine of ["ours", "closures", "monty", "pyodide"] as const) {
    if (results.get(engine)![i] !== expected) mismatches.push(`${w.file}: ${engine} gave ${results.get(engine)![i]}, CPython ${expected}`);
  }
  const o = ms("ours", i);
  return `| ${w.name} | ${fmt(o)} | ${fmt(ms("closures", i))} | ${fmt(ms("cpython", i))} | ${fmt(ms("monty", i))} | ${fmt(ms("pyodide", i))} | ${(o / ms("cpython", i)).toFixed(2)} | ${(o / ms("monty", i)).toFixed(2)} |`;
});
const vsCpython = ratio("cpython");
const vsMonty = ratio("monty");
const vsPyodide = ratio("pyodide");
const closuresVsCpython = ratio("cpython", "closures");
rows.push(`| **geometric mean of ours ÷ peer** | | (${closuresVsCpython.toFixed(2)} × CPython) | | | | **${vsCpython.toFixed(2)}** | **${vsMonty.toFixed(2)}** |`);
const table = [
  `| workload (ms, median) | ours | ours, closures only | CPython ${version} | Monty | Pyodide | ours ÷ CPython | ours ÷ Monty |`,
  "|---|---:|---:|---:|---:|---:|---:|---:|",
  ...rows,
].join("\n");

const us = (key: string) => median(trivial.get(key)!);
const trivialTable = [
  "| trivial execution (µs, median) | ours: repeated script | ours: new script | CPython | Monty | Pyodide |",
  "|---|---:|---:|---:|---:|---:|",
  `| \`RESULT = 1 + 1\`: parse + run + result | ${us("ours").toFixed(1)} | ${us("ours-uncached").toFixed(1)} | ${us("cpython").toFixed(1)} | ${us("monty").toFixed(1)} | ${us("pyodide").toFixed(1)} |`,
].join("\n");

const met = (ok: boolean) => (ok ? "**met**" : "**not met**");
const targets = [
  `- ours ÷ CPython, geometric mean ≤ 0.5: ${vsCpython.toFixed(2)}, ${met(vsCpython <= 0.5)}.`,
  `- ours ÷ Monty, geometric mean ≤ 1.0: ${vsMonty.toFixed(2)}, ${met(vsMonty <= 1)}.`,
  `- a trivial execution under 10 µs (median): ${us("ours").toFixed(1)} µs for a repeated script, ${met(us("ours") < 10)}; ${us("ours-uncached").toFixed(1)} µs for a new one (parse cache missed), ${met(us("ours-uncached") < 10)}.`,
  `- (for reference: ours ÷ Pyodide, geometric mean ${vsPyodide.toFixed(2)}.)`,
].join("\n");

const notes = `
Times are CPU time of the measuring process (\`process.cpuUsage\`, Python's \`time.process_time\`),
not wall-clock time: the machine is shared with other jobs, and wall-clock figures swung by 2×
from run to run. Each workload figure is the median of ${reps} runs × ${rounds} alternating round${rounds === 1 ? "" : "s"}, after
untimed warm-up runs (at least ${warmup} and ${warmupMs} ms per round, for every engine: V8 optimizes ours
over the first runs, and the gateway that runs scripts is a long-lived process), all four
engines in the same run (CPython in a \`python3\` subprocess started by it). Ours is the public \`execute(source)\` with the default budgets
on (1,000,000 steps and 64 MiB among them; every workload fits in them), so its figure includes
parsing, compiling and converting the result. CPython is \`exec\` of code compiled beforehand, timed
in-process. Monty is \`new Monty(source).run()\`, its parse included;
Pyodide is \`runPython(source)\` in a fresh globals dict, its compile included, its ~3 s start-up
not. Every engine's RESULT is checked against CPython's. The trivial execution is the median of
${trivialBatches} batches of ${trivialBatch} back-to-back executions (CPython: \`compile\` + \`exec\`). Ours keeps
the parse of a script that runs again (by source text, from its second run on), so a repeated
script skips parsing; "new script" runs a different text each time (a numbered comment) and
pays for parsing it. The workloads are repeated scripts, like CPython's precompiled code.
The machine is shared and noisy: compare the ratios within this run, not absolute times.

"Ours" runs each workload as a repeated script: from its third run on (its parse kept, its
runs over 10,000 steps), its module and function bodies are compiled to JavaScript functions
(src/interpreter/codegen.ts), shared by every later run, which V8 optimizes over the warm-up
runs. "Ours, closures only" is the same \`execute\` with that tier off: the closure tree of
compile.ts, what new and short scripts run on (a function of any run moves to the JavaScript
tier at its 1000th call).

Node runs with \`--max-semi-space-size=32\` (the machine line above says so), as the gateway and
code-mode-exec do: a 32 MiB young generation instead of V8's default 16. Without it (\`node
dist/bench/interpreter.js\`, one run on 2026-11-30) ours ÷ CPython was 0.61 instead of 0.49: the
workloads that keep tens of thousands of young values alive, which the collector copies at every
scavenge, were slower (string building 1.6×, comprehension + sort 1.6×, f-strings 1.4×).

Spread: before the shortcuts of 2026-11-30's second session (commit 0c85949), nine full runs
gave ours ÷ CPython 0.48 to 0.52 (fib at 1.02-1.06 and JSON records at 0.91-1.14 in each). With
them, runs of the builds along the way gave 0.47, 0.45 and 0.46, and of commit 8a56f48 0.47,
0.48 and 0.47. Later in the day, on a busier machine (CPython's own figures 2-5% slower, fib 8.2
against 7.7-8.0 ms), this build gave the table above and then 0.52, 0.48, 0.52, 0.48 and 0.51, and a build
in between 0.49 and 0.47; separate-process A/B runs of 8a56f48 and this build (fib, string
building, dict counting, JSON records) showed no difference between them. The target is met in
most runs, by a thin margin that this machine's load can erase.

History: before issue 7's speed work (commit 82f964d, \`--quick\`) ours ÷ CPython was 3.56, a
trivial execution 19.0 µs; with the closure tree tuned (commit 99e1cc0, full run) 1.66, and 0.71
of Monty's time; with the JavaScript tier (commit 0affa91) 0.66; with its calls and globals
tuned (commit 0c85949) 0.48-0.52.

What the second session of 2026-11-30 added: in the JavaScript tier, float arithmetic and
comparisons, \`k in d\` for str keys, dict.get and list.append at their call sites, negative
indexes, tuple unpacking and starred displays inline; in the built-ins, shortcuts for int() and float() of plain
decimal text, round(x, n), small int powers, sorting up to 16 ints, str.replace with a few
matches, str.title() of ASCII text, % templates (parsed once), dict copies and repr() of
containers. Each has a differential test against python3 (codegen.test.ts, int-text, float-text,
round, int-pow, dict-copy, repr-containers, sort-keys and str-methods test files).

Where the time goes now (\`node --cpu-prof\`, JavaScript tier): an iteration of the arithmetic
loop costs some 13 ns (CPython: 84 ns); a Python call some 30 ns (CPython: 32 ns): the frame and
its slots, which every call allocates, and three steps. Removing the steps from a throwaway build
saved a quarter of both, but most of that is the time slice (below), not the counting. JSON
records is mostly building dicts (a JavaScript Map each, about 130 ns for seven keys) and reading
them; string parsing, str methods called through their call sites. Garbage collection is 10-40%
of the allocation-heavy workloads' CPU time, most of it in the few runs a scavenge falls in,
which the medians mostly skip. What would remove most of the rest: Python calls without a heap
frame (locals in JavaScript variables, a frame made only when a traceback or a suspension needs
one), and a way to yield that leaves V8's code for the unit as fast as before its first yield.

Tried on 2026-11-30 and not kept (separate-process A/B runs, then this bench in alternating runs):
- Steps counted in a local of each JavaScript-tier unit, added to the budget before every call
  out and in a \`finally\`: no faster in either (the \`finally\`, and re-reading the budget after
  every call, cost what the memory ticks had).
- Much of what the steps seemed to cost is the time slice: a run that yields once (the first
  slice is 0.5 ms) ran the arithmetic loop at ~5.0 ms against ~3.7 ms with no yield, and fib at
  ~8.4 against ~7.4, though the time per step before and after the yield was the same: V8's code,
  compiled once the re-entry paths had run, is slower throughout. A unit split in two functions
  (one run from the start without the re-entry guards, one to resume in) made separate-process
  runs of the arithmetic loop ~20% faster, but this bench, with every workload in one process,
  slower (0.53, 0.54 and 0.53 against 0.51 and 0.49 for the build before, alternating).`;

const mismatchText = mismatches.length ? `\n\nResults that differ from CPython's:\n${mismatches.map((m) => `- ${m}`).join("\n")}` : "";
const body = `${table}\n\n${trivialTable}\n\nTargets:\n${targets}\n${notes}${mismatchText}`;
console.log(body);
if (process.argv.includes("--write")) writeSection("bench:interpreter", "Interpreter speed", `npm run bench:interpreter -- ${quick ? "--quick " : ""}--write`, body);
process.exit(0);
