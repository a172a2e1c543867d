// Interpreter speed in the scenarios a gateway meets, side by side in one run against CPython
// (python3), Monty (@pydantic/monty) and Pyodide (issue 21):
//   1. repeated script: the same text again and again (bench/interpreter/repeated.ts);
//   2. new script, run once, in a warm process: a text never seen before (new-script.ts);
//   3. fresh process per script: code-mode-exec FILE against python3 FILE and Monty's process;
//   4. start-up: each of them running -c 'RESULT=1' (both in processes.ts).
//
//   npm run bench:interpreter                      all four (about 4 minutes)
//   npm run bench:interpreter -- --quick           a smoke run (short rounds; its section says so)
//   npm run bench:interpreter -- --write           also record the section of bench/RESULTS.md
//   npm run bench:interpreter -- --only new,fresh  some scenarios (repeated, new, fresh, startup)
import { performance } from "node:perf_hooks";
import { loadText, median, writeSection } from "./results.js";
import { loadEngines } from "./interpreter/engines.js";
import { runNewScripts } from "./interpreter/new-script.js";
import { method, type Plans, REPEATED_HISTORY } from "./interpreter/notes.js";
import { type ProcessEngine, runFreshProcesses, runStartup, STARTUP_CODE } from "./interpreter/processes.js";
import { fmt, met, mismatches, ratio, scenarioTable } from "./interpreter/report.js";
import { runRepeated } from "./interpreter/repeated.js";
import { ALL_WORKLOADS, expectedResults, TUNED_WORKLOADS } from "./interpreter/workloads.js";

const SCENARIOS = ["repeated", "new", "fresh", "startup"] as const;
type Scenario = (typeof SCENARIOS)[number];

const quick = process.argv.includes("--quick");
const write = process.argv.includes("--write");
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? "").split(",") : [...SCENARIOS];
const unknown = only.filter((s) => !(SCENARIOS as readonly string[]).includes(s));
if (unknown.length || !only.length) {
  console.error(`--only takes a comma-separated list of ${SCENARIOS.join(", ")}; got ${unknown.join(", ") || "nothing"}`);
  process.exit(2);
}
const wanted = (s: Scenario) => only.includes(s);

const plans: Plans = quick
  ? {
      repeated: { rounds: 1, reps: 3, warmup: 1, warmupMs: 250, trivialBatches: 15, trivialBatch: 200 },
      newScript: { rounds: 1, warmFirst: 2, warm: 0, reps: 2 },
      freshRounds: 1,
      startup: { rounds: 2, pyodideRounds: 1 },
    }
  : {
      repeated: { rounds: 3, reps: 5, warmup: 2, warmupMs: 600, trivialBatches: 41, trivialBatch: 200 },
      newScript: { rounds: 3, warmFirst: 4, warm: 1, reps: 3 },
      freshRounds: 3,
      startup: { rounds: 7, pyodideRounds: 1 },
    };

// A smoke run takes two tuned and two unseen workloads into the new-script and process scenarios.
const QUICK_FILES = ["json_records.py", "fib.py", "word_stats.py", "graph_paths.py"];
const workloads = quick ? ALL_WORKLOADS.filter((w) => QUICK_FILES.includes(w.file)) : ALL_WORKLOADS;
const unseenCount = workloads.filter((w) => w.unseen).length;

const loadAtStart = loadText();
const started = performance.now();
const sections: string[] = [];
const summary: string[] = [];
const targets: string[] = [];
const problems: string[] = [];
const x = (n: number) => `${n.toFixed(2)}×`;
let lap = performance.now();
/** Seconds since the last call: each scenario's share of the run. */
const took = () => {
  const now = performance.now();
  const seconds = ((now - lap) / 1000).toFixed(0);
  lap = now;
  return seconds;
};

await loadEngines();
took();

if (wanted("repeated")) {
  const f = await runRepeated(plans.repeated, TUNED_WORKLOADS);
  const s = f.samples;
  const table = scenarioTable("1. repeated script (ms CPU, median)", TUNED_WORKLOADS, s, [
    { engine: "ours", title: "ours" },
    { engine: "closures", title: "ours, closures only" },
    { engine: "cpython", title: `CPython ${f.version}` },
    { engine: "monty", title: "Monty" },
    { engine: "pyodide", title: "Pyodide" },
  ]);
  const us = (key: string) => median(f.trivial.get(key)!);
  const trivialTable = [
    "| 1. trivial execution, in process (µs CPU, median) | ours: repeated script | ours: new script | CPython | Monty | Pyodide |",
    "|---|---:|---:|---:|---:|---:|",
    `| \`RESULT = 1 + 1\`: parse + run + result | ${us("ours").toFixed(1)} | ${us("ours-uncached").toFixed(1)} | ${us("cpython").toFixed(1)} | ${us("monty").toFixed(1)} | ${us("pyodide").toFixed(1)} |`,
  ].join("\n");
  sections.push(`${table}\n\n${trivialTable}`);
  const vsC = ratio(s, TUNED_WORKLOADS, "ours", "cpython");
  summary.push(`| 1. repeated script (8 tuned workloads, CPU) | ${x(vsC)} | ${x(ratio(s, TUNED_WORKLOADS, "ours", "monty"))} | ${x(ratio(s, TUNED_WORKLOADS, "ours", "pyodide"))} | ${took()} |`);
  targets.push(`- repeated script: ours ÷ CPython ≤ 0.5: ${vsC.toFixed(2)}, ${met(vsC <= 0.5)}; a trivial execution under 10 µs: ${us("ours").toFixed(1)} µs, ${met(us("ours") < 10)} (${us("ours-uncached").toFixed(1)} µs when its parse is not cached, ${met(us("ours-uncached") < 10)}); closures only, ${x(ratio(s, TUNED_WORKLOADS, "closures", "cpython"))} CPython.`);
  problems.push(...mismatches(TUNED_WORKLOADS, f.results.get("cpython")!, new Map([...f.results].filter(([e]) => e !== "cpython"))));
}

const expected = wanted("new") || wanted("fresh") ? expectedResults(workloads) : [];

if (wanted("new")) {
  const f = await runNewScripts(plans.newScript, workloads);
  const s = f.samples;
  const n = plans.newScript.rounds * plans.newScript.reps;
  const mainKnown = s.get("ours-main")!.every((runs) => runs.length > 0);
  sections.push(
    scenarioTable(`2. new script, run once, warm process (ms CPU, median of ${n})`, workloads, s, [
      { engine: "ours", title: "ours" },
      ...(mainKnown ? [{ engine: "ours-main", title: "ours: main thread only" }] : []),
      { engine: "new-shapes", title: "ours, shapes never seen" },
      { engine: "closures", title: "ours, closures only" },
      { engine: "cpython", title: `CPython ${f.version}: compile + exec` },
      { engine: "monty", title: "Monty" },
      { engine: "pyodide", title: "Pyodide" },
    ]),
  );
  const vsC = ratio(s, workloads, "ours", "cpython");
  summary.push(`| 2. new script, run once, warm process (${workloads.length} workloads, CPU) | ${x(vsC)} | ${x(ratio(s, workloads, "ours", "monty"))} | ${x(ratio(s, workloads, "ours", "pyodide"))} | ${took()} |`);
  targets.push(`- new script, run once, warm process: ours ÷ CPython ≤ 1.0: ${vsC.toFixed(2)}, ${met(vsC <= 1)} (stretch ≤ 0.6: ${met(vsC <= 0.6)}; the ${unseenCount} unseen alone ${ratio(s, workloads, "ours", "cpython", (w) => w.unseen).toFixed(2)}; shapes never seen, ${x(ratio(s, workloads, "new-shapes", "cpython"))} CPython; closures only, ${x(ratio(s, workloads, "closures", "cpython"))}${mainKnown ? `; ours' main thread alone, the event loop the script holds, ${x(ratio(s, workloads, "ours-main", "cpython"))}` : ""}).`);
  problems.push(...mismatches(workloads, expected, f.results));
}

if (wanted("fresh")) {
  const f = runFreshProcesses(plans.freshRounds, workloads);
  const s = f.samples;
  sections.push(
    scenarioTable(`3. fresh process per script (ms wall, median of ${plans.freshRounds})`, workloads, s, [
      { engine: "ours", title: "code-mode-exec FILE" },
      { engine: "cpython", title: "python3 FILE" },
      { engine: "monty", title: "Monty's process" },
    ]),
  );
  const vsC = ratio(s, workloads, "ours", "cpython");
  const vsM = ratio(s, workloads, "ours", "monty");
  summary.push(`| 3. fresh process per script (${workloads.length} workloads, wall) | ${x(vsC)} | ${x(vsM)} | | ${took()} |`);
  targets.push(`- fresh process per script: ours ÷ Monty ≤ 1.0: ${vsM.toFixed(2)}, ${met(vsM <= 1)}; ours ÷ CPython ≤ 2.0: ${vsC.toFixed(2)}, ${met(vsC <= 2)}.`);
  problems.push(...mismatches(workloads, expected, f.results));
}

if (wanted("startup")) {
  const times = runStartup(plans.startup);
  const ms = (e: ProcessEngine) => median(times.get(e)!);
  const runs = (e: ProcessEngine) => times.get(e)!.length;
  sections.push(
    [
      `| 4. start-up: \`-c '${STARTUP_CODE}'\` (ms wall, median) | code-mode-exec | python3 | Monty's process | Pyodide's process | \`node -e 1\` | ours ÷ CPython | ours ÷ Monty |`,
      "|---|---:|---:|---:|---:|---:|---:|---:|",
      `| runs: ${runs("ours")} (Pyodide ${runs("pyodide")}) | ${(["ours", "cpython", "monty", "pyodide", "node"] as const).map((e) => fmt(ms(e))).join(" | ")} | ${(ms("ours") / ms("cpython")).toFixed(2)} | ${(ms("ours") / ms("monty")).toFixed(2)} |`,
    ].join("\n"),
  );
  const vsC = ms("ours") / ms("cpython");
  summary.push(`| 4. start-up, \`-c '${STARTUP_CODE}'\` (wall) | ${x(vsC)} | ${x(ms("ours") / ms("monty"))} | ${x(ms("ours") / ms("pyodide"))} | ${took()} |`);
  targets.push(`- start-up: code-mode-exec ÷ python3 ≤ 2.0: ${vsC.toFixed(2)} (${fmt(ms("ours"))} ms against ${fmt(ms("cpython"))} ms), ${met(vsC <= 2)}.`);
}

const seconds = (performance.now() - started) / 1000;
const summaryTable = [
  "| scenario (geometric mean of ours ÷ peer) | ÷ CPython | ÷ Monty | ÷ Pyodide | seconds of this run |",
  "|---|---:|---:|---:|---:|",
  ...summary,
].join("\n");
const body = [
  `Load average (1, 5, 15 min, as \`uptime\` prints it) at the start: ${loadAtStart}; at the end: ${loadText()}. ${seconds.toFixed(0)} s in all${quick ? " (--quick: short rounds, figures rough)" : ""}.`,
  summaryTable,
  `Targets (issue 21):\n${targets.join("\n")}`,
  ...sections,
  problems.length ? `Results that differ from CPython's:\n${problems.map((m) => `- ${m}`).join("\n")}` : "Every engine's RESULT matched CPython's.",
  method(plans),
  ...(wanted("repeated") ? [REPEATED_HISTORY] : []),
].join("\n\n");
console.log(body);
if (write) {
  const flags = [quick ? "--quick" : "", onlyAt >= 0 ? `--only ${only.join(",")}` : "", "--write"].filter(Boolean).join(" ");
  writeSection("bench:interpreter", "Interpreter speed", `npm run bench:interpreter -- ${flags}`, body);
}
process.exit(problems.length ? 1 : 0);
