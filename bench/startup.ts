// Start-up: wall time of a fresh process, from spawn to exit (or, for the gateway, to its first
// /health answer), for code-mode-exec as each start-up step left it, against python3 -c, node -e 1
// and a Monty process. `npm run bench:startup` (`-- --quick` for 5 rounds, `-- --write` to record
// its section of bench/RESULTS.md). Every command runs once per round, in the same order, so a
// change in the machine's load falls on all of them alike; the figures are medians over rounds.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, writeSection } from "./results.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const quick = process.argv.includes("--quick");
const write = process.argv.includes("--write");
const ROUNDS = quick ? 5 : 15;

const NODE = process.execPath;
/** The binaries' own flag (their first line passes it); a snapshot must be run under the flags it was built with. */
const SEMI = "--max-semi-space-size=32";
const TSC_EXEC = join(ROOT, "dist/src/cli/exec.js");
const BUNDLED_EXEC = join(ROOT, "dist/bin/code-mode-exec.js");
const BLOB = join(ROOT, "dist/snapshot/code-mode-exec.blob");

const TRIVIAL = "RESULT=1";
const IMPORTS = [
  "import json, re, datetime",
  'RESULT = json.dumps({"n": len(re.findall(r"\\d+", "a1 b22 c333")), "d": datetime.date(2024, 1, 2).isoformat()})',
].join("\n");

interface Command {
  name: string;
  argv: string[];
  /** What the command must print (a check that it really ran the script). */
  expect: string;
}

const execResult = (value: string) => `"result":${value}`;
const IMPORTS_VALUE = JSON.stringify('{"n": 3, "d": "2024-01-02"}');

/**
 * code-mode-exec at each step. "before": the upstream side (MCP SDK, zod, ajv, zstd) loaded
 * first, as the binary imported it statically until it became an import() behind --config
 * (exec-servers.ts is exactly those imports).
 */
const execSteps = (source: string) => ({
  before: [SEMI, "--import", join(ROOT, "dist/src/cli/exec-servers.js"), TSC_EXEC, "-c", source],
  lazy: [SEMI, TSC_EXEC, "-c", source],
  bundled: [SEMI, BUNDLED_EXEC, "-c", source],
  snapshot: [SEMI, "--snapshot-blob", BLOB, "--", "-c", source],
});

const COMMANDS: Command[] = [
  ...(["before", "lazy", "bundled", "snapshot"] as const).flatMap((step) => [
    { name: `exec ${step}: RESULT=1`, argv: [NODE, ...execSteps(TRIVIAL)[step]], expect: execResult("1") },
    { name: `exec ${step}: imports`, argv: [NODE, ...execSteps(IMPORTS)[step]], expect: execResult(IMPORTS_VALUE) },
  ]),
  { name: "python3: RESULT=1", argv: ["python3", "-c", TRIVIAL], expect: "" },
  { name: "python3: imports", argv: ["python3", "-c", `${IMPORTS}\nprint(RESULT)`], expect: '{"n": 3' },
  { name: "node -e 1", argv: [NODE, "-e", "1"], expect: "" },
  {
    name: "monty: RESULT=1",
    argv: [
      NODE,
      "--input-type=module",
      "-e",
      'import { Monty } from "@pydantic/monty"; process.stdout.write(JSON.stringify(new Monty("RESULT = 1\\nRESULT\\n").run()))',
    ],
    expect: "1",
  },
];

/** Milliseconds from spawn to exit. */
function timeCommand(c: Command): number {
  const started = performance.now();
  const run = spawnSync(c.argv[0]!, c.argv.slice(1), { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  const ms = performance.now() - started;
  if (run.status !== 0 || !run.stdout.includes(c.expect)) {
    throw new Error(`${c.name} failed (exit ${run.status}): ${run.stdout.slice(0, 300)} ${run.stderr.slice(0, 600)}`);
  }
  return ms;
}

const EMPTY_CONFIG = join(mkdtempSync(join(tmpdir(), "startup-bench-")), "config.json");
writeFileSync(EMPTY_CONFIG, JSON.stringify({ mcp: { client_configs: [] } }));

/** Milliseconds from spawn to the first /health answer of a gateway with no servers (port 0). */
async function timeGateway(entry: string): Promise<number> {
  const data = mkdtempSync(join(tmpdir(), "startup-bench-data-"));
  const started = performance.now();
  const child = spawn(NODE, [SEMI, entry, "--config", EMPTY_CONFIG, "--data", data, "--port", "0"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = "";
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (d: string) => {
        err += d;
        const m = /listening on (http:\/\/\S+)/.exec(err);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`gateway exited (${code}) before listening: ${err}`)));
    });
    const res = await fetch(`${url}/health`);
    await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
    return ms;
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(data, { recursive: true, force: true });
  }
}

const GATEWAYS = [
  { name: "gateway to /health: tsc output", entry: join(ROOT, "dist/src/cli/gateway.js") },
  { name: "gateway to /health: bundled", entry: join(ROOT, "dist/bin/code-mode-gateway.js") },
];

/** In a fresh process: ms to build the parser (Chevrotain's self-analysis), without and with its validations. */
function parserCost(validate: boolean): number {
  const script = `import { DialectParser } from ${JSON.stringify(join(ROOT, "dist/grammar/parser.js"))};
const t = performance.now(); new DialectParser({ validate: ${validate} }); process.stdout.write(String(performance.now() - t));`;
  const run = spawnSync(NODE, [SEMI, "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`parser timing failed: ${run.stderr}`);
  return Number(run.stdout);
}

const samples = new Map<string, number[]>();
const add = (name: string, ms: number) => samples.set(name, [...(samples.get(name) ?? []), ms]);
for (let round = 0; round < ROUNDS; round++) {
  for (const c of COMMANDS) add(c.name, timeCommand(c));
  for (const g of GATEWAYS) add(g.name, await timeGateway(g.entry));
  add("parser: self-analysis", parserCost(false));
  add("parser: self-analysis with validations", parserCost(true));
  process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
}
rmSync(join(EMPTY_CONFIG, ".."), { recursive: true, force: true });

const med = (name: string) => median(samples.get(name)!);
const ms = (v: number) => v.toFixed(0);
const python = med("python3: RESULT=1");
const pythonImports = med("python3: imports");
const monty = med("monty: RESULT=1");
const nodeBare = med("node -e 1");

const STEP_TITLES = {
  before: "before: upstream side (MCP SDK, zod, ajv, zstd) loaded at start",
  lazy: "upstream side loaded only with --config (`import()`)",
  bundled: "bundled binary, Chevrotain inside (`dist/bin`, `npm run build:bin`)",
  snapshot: "start-up snapshot (`npm run build:snapshot`, `npm run exec`)",
} as const;
const steps = Object.keys(STEP_TITLES) as (keyof typeof STEP_TITLES)[];
const stepRows = steps.map((step, i) => {
  const trivial = med(`exec ${step}: RESULT=1`);
  const imports = med(`exec ${step}: imports`);
  const saved = i === 0 ? "" : ms(med(`exec ${steps[i - 1]}: RESULT=1`) - trivial);
  return `| ${STEP_TITLES[step]} | ${ms(trivial)} | ${saved} | ${(trivial / python).toFixed(2)} | ${(trivial / monty).toFixed(2)} | ${ms(imports)} | ${(imports / pythonImports).toFixed(2)} |`;
});
const snapshotRatio = med("exec snapshot: RESULT=1") / python;
const bundledRatio = med("exec bundled: RESULT=1") / python;

const body = `
Wall time of one fresh process (ms, median of ${ROUNDS} rounds; each round runs every command
once, in turn): spawn to exit, or for the gateway spawn to its first \`/health\` answer (a config
without servers, a new data folder, port 0). The code-mode-exec rows are the steps of issue 21
in order, each measured on this build (the "before" row loads what the binary used to import
statically); "saved" is the previous row minus this one. Every Node process of ours runs under
\`${SEMI}\`, as the binaries do.

| code-mode-exec (\`-c\`) | \`RESULT=1\` | saved | ÷ python3 | ÷ Monty | json, re, datetime | ÷ python3 |
| --- | --- | --- | --- | --- | --- | --- |
${stepRows.join("\n")}

| peer | ms |
| --- | --- |
| \`python3 -c 'RESULT=1'\` | ${ms(python)} |
| python3, json, re, datetime | ${ms(pythonImports)} |
| \`node -e 1\` | ${ms(nodeBare)} |
| Monty process (\`new Monty("RESULT = 1").run()\` in \`node -e\`) | ${ms(monty)} |
| gateway to first \`/health\`: tsc output (\`dist/src/cli/gateway.js\`, \`npm start\`) | ${ms(med(GATEWAYS[0]!.name))} |
| gateway to first \`/health\`: bundled (\`dist/bin/code-mode-gateway.js\`) | ${ms(med(GATEWAYS[1]!.name))} |

Chevrotain's self-analysis of the grammar (\`new DialectParser()\` in a fresh process, after its
modules are loaded): ${med("parser: self-analysis").toFixed(1)} ms as the runtime builds it (validations skipped), ${med("parser: self-analysis with validations").toFixed(1)} ms with
the validations the grammar tests run. The snapshot holds the analysed parser, so a run from it
pays neither.

Target (issue 21): \`code-mode-exec -c 'RESULT=1'\` ≤ 2× \`python3 -c 'RESULT=1'\`: the snapshot
${snapshotRatio.toFixed(2)}× (${snapshotRatio <= 2 ? "met" : "not met"}); the bundled binary ${bundledRatio.toFixed(2)}× (${bundledRatio <= 2 ? "met" : "not met"}).
`;

console.log(body);
if (write) writeSection("startup", "Start-up: a fresh process per script", `npm run bench:startup -- ${quick ? "--quick " : ""}--write`, body);
