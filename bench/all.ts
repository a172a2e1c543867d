// Every benchmark, one after the other (never two at once: they would measure each other), each
// writing its own section of bench/RESULTS.md; then a section listing what ran, how long it took
// and what failed.
//
//   npm run bench          the full runs
//   npm run bench:quick    the same benches with --quick (short runs; their sections say so)
//
// A bench that fails does not stop the others; the runner exits with 1 when any failed.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { writeSection } from "./results.js";

const QUICK = process.argv.includes("--quick");

interface Bench {
  file: string;
  about: string;
}

const BENCHES: Bench[] = [
  { file: "parse.js", about: "parser against CPython's ast.parse" },
  { file: "meta-tools.js", about: "tokens of the meta-tool definitions" },
  { file: "stubs.js", about: "tokens of the stubs against classic definitions" },
  { file: "search.js", about: "searchTools ranking and speed" },
  { file: "tokens.js", about: "token footprint of whole tasks, classic vs code mode" },
  { file: "latency.js", about: "end-to-end latency through the gateway" },
  { file: "load.js", about: "load, fairness and memory" },
  { file: "scale.js", about: "one instance against three on one PostgreSQL" },
  { file: "interpreter.js", about: "interpreter speed against CPython, Monty and Pyodide" },
  { file: "tensor.js", about: "tensor payloads against the same numbers as zstd+json" },
  { file: "startup.js", about: "start-up of code-mode-exec and the gateway, step by step" },
  { file: "loop.js", about: "the longest event-loop stall of each hostile operation" },
];

interface Outcome {
  bench: Bench;
  command: string;
  status: string;
  seconds: number;
}

/** Node's flags as the gateway and code-mode-exec run with them (package.json, the bins' first line). */
const GATEWAY_NODE_FLAGS = ["--max-semi-space-size=32"];

const outcomes: Outcome[] = [];
for (const bench of BENCHES) {
  const path = fileURLToPath(new URL(`./${bench.file}`, import.meta.url));
  const args = [...(QUICK ? ["--quick"] : []), "--write"];
  const command = `node ${GATEWAY_NODE_FLAGS.join(" ")} dist/bench/${bench.file} ${args.join(" ")}`;
  console.log(`\n=== ${command}  (${bench.about})`);
  const start = performance.now();
  const run = spawnSync(process.execPath, [...GATEWAY_NODE_FLAGS, path, ...args], { stdio: "inherit" });
  const seconds = (performance.now() - start) / 1000;
  const status = run.status === 0 ? "ok" : `FAILED (${run.error ? run.error.message : run.signal ? `signal ${run.signal}` : `exit code ${run.status}`})`;
  outcomes.push({ bench, command, status, seconds });
}

const table = [
  "| bench | what | command | status | seconds |",
  "|---|---|---|---|---:|",
  ...outcomes.map((o) => `| ${o.bench.file.replace(/\.js$/, "")} | ${o.bench.about} | \`${o.command}\` | ${o.status} | ${o.seconds.toFixed(1)} |`),
].join("\n");
const total = outcomes.reduce((t, o) => t + o.seconds, 0);
writeSection(
  "bench:all",
  "Last run of every benchmark",
  QUICK ? "npm run bench:quick" : "npm run bench",
  `${table}\n\n${total.toFixed(0)} s in all, one bench at a time. Each bench's own section above or below has its figures, command and date.`,
);
console.log(`\n${table}`);
if (outcomes.some((o) => o.status.startsWith("FAILED"))) process.exitCode = 1;
