// A new script, run once, in a warm process: what a gateway mostly runs. Each workload of
// bench/interpreter/ and bench/first-run/ is run as a text never seen before (the source with a
// unique `_nonce = <n>` line appended), after the process has run many other such texts, and
// timed against CPython's compile + exec of a new text in a warm python3. The repeated script
// (the same text again, on the JavaScript tier) and a trivial execution are measured alongside.
// `npm run build && node --max-semi-space-size=32 dist/bench/first-run.js [--rounds N]`.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compiledUnitCount } from "../src/interpreter/codegen.js";
import { execute } from "../src/interpreter/execute.js";
import { median } from "./results.js";

const roundsAt = process.argv.indexOf("--rounds");
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 7;
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1]! : null;
const dir = (d: string) => fileURLToPath(new URL(`../../bench/${d}/`, import.meta.url));

const WORKLOADS = ["interpreter", "first-run"].flatMap((d) =>
  readdirSync(dir(d))
    .filter((f) => f.endsWith(".py") && f !== "cpython.py" && (only === null || f.includes(only)))
    .sort()
    .map((f) => ({ name: f.replace(/\.py$/, ""), source: readFileSync(dir(d) + f, "utf8") })),
);

/** CPU time of this process in ms: the machine is shared, and wall time would charge the others' use. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

let nonce = 0;
const fresh = (source: string) => `${source}\n_nonce = ${++nonce}\n`;

async function timed(source: string): Promise<{ ms: number; result: string }> {
  const started = cpuMs();
  const r = await execute(source);
  const ms = cpuMs() - started;
  if (r.error) throw new Error(`${r.error.type}: ${r.error.message}`);
  return { ms, result: JSON.stringify(r.result) };
}

// Warm the process on other texts of the same workloads.
for (let i = 0; i < 3; i++) for (const w of WORKLOADS) await timed(fresh(w.source));

const ours = WORKLOADS.map(() => [] as number[]);
const repeated = WORKLOADS.map(() => [] as number[]);
const py = WORKLOADS.map(() => [] as number[]);
const pyRepeated = WORKLOADS.map(() => [] as number[]);
const answers: string[] = [];
let version = "";
const unitsBefore = compiledUnitCount();
// Rounds alternate the engines, so that noise from other processes falls on both alike.
for (let round = 0; round < rounds; round++) {
  for (const [i, w] of WORKLOADS.entries()) {
    const t = await timed(fresh(w.source));
    ours[i]!.push(t.ms);
    answers[i] = t.result;
    for (let k = 0; k < 3; k++) await timed(w.source);
    repeated[i]!.push((await timed(w.source)).ms);
  }
  const run = spawnSync("python3", [fileURLToPath(new URL("../../bench/first-run/cpython.py", import.meta.url))], {
    input: JSON.stringify({ workloads: WORKLOADS, warm: 2, nonce: 1e6 * (round + 1) }),
    maxBuffer: 1 << 24,
  });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr.toString()}`);
  const out = JSON.parse(run.stdout.toString()) as { version: string; first: number[]; repeated: number[]; results: string[] };
  version = out.version;
  out.first.forEach((ms, i) => py[i]!.push(ms));
  out.repeated.forEach((ms, i) => pyRepeated[i]!.push(ms));
  out.results.forEach((r, i) => {
    if (r !== answers[i]) throw new Error(`${WORKLOADS[i]!.name}: ours gave ${answers[i]}, CPython ${r}`);
  });
}

async function trivialUs(text: () => string): Promise<number> {
  for (let i = 0; i < 2000; i++) await execute(text());
  const samples: number[] = [];
  for (let b = 0; b < 21; b++) {
    const started = cpuMs();
    for (let i = 0; i < 200; i++) await execute(text());
    samples.push(((cpuMs() - started) * 1000) / 200);
  }
  return median(samples);
}

const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const fmt = (t: number) => (t >= 100 ? t.toFixed(0) : t >= 10 ? t.toFixed(1) : t.toFixed(2));
const firstRatios = WORKLOADS.map((_, i) => median(ours[i]!) / median(py[i]!));
const repeatedRatios = WORKLOADS.map((_, i) => median(repeated[i]!) / median(pyRepeated[i]!));
const lines = [
  `| workload (ms, median of ${rounds}) | ours: new script | CPython ${version}: compile + exec | ratio | ours: repeated | CPython: exec | ratio |`,
  "|---|---:|---:|---:|---:|---:|---:|",
  ...WORKLOADS.map(
    (w, i) => `| ${w.name} | ${fmt(median(ours[i]!))} | ${fmt(median(py[i]!))} | ${firstRatios[i]!.toFixed(2)} | ${fmt(median(repeated[i]!))} | ${fmt(median(pyRepeated[i]!))} | ${repeatedRatios[i]!.toFixed(2)} |`,
  ),
  `| **geometric mean** | | | **${geomean(firstRatios).toFixed(2)}** | | | **${geomean(repeatedRatios).toFixed(2)}** |`,
];
console.log(lines.join("\n"));
const trivial = "RESULT = 1 + 1\n";
console.log(`\ntrivial execution: ${(await trivialUs(() => trivial)).toFixed(1)} µs repeated, ${(await trivialUs(() => fresh(trivial))).toFixed(1)} µs new text`);
console.log(`units compiled to JavaScript while timing: ${compiledUnitCount() - unitsBefore}`);
