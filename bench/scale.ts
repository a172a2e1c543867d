// Scale-out: requests per second of one gateway instance against three on one PostgreSQL, and
// how long a change made on one takes to be in force on another.
//
// - Load: autocannon against POST /v1/mcp/tool/execute of the real gateway process
//   (dist/src/cli/gateway.js): one instance on its SQLite store, one instance on PostgreSQL,
//   and three instances on the same PostgreSQL with the connections spread evenly over them
//   (as a load balancer in front would). Scripts with 0 and 1 tool calls (the edge-server
//   fixture over stdio, one child per instance).
// - Propagation: a virtual key PUT on one instance, polled on another every 2 ms until its new
//   name shows there; the median and worst of the rounds.
//
// PostgreSQL is Debian's server, started as the tests start it (test/fixtures/postgres.ts).
//
//   npx tsc -p tsconfig.json && node dist/bench/scale.js [--quick] [--write]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Instance, startInstance } from "../test/gateway/instances.js";
import { startPostgres } from "../test/fixtures/postgres.js";
import { edgeClients, ms, postToolCall, QUICK, toolCallBody, WRITE } from "./harness.js";
import { loadText, median, writeSection } from "./results.js";

const LOAD_SECONDS = QUICK ? 2 : 10;
const WARMUP = QUICK ? 0.5 : 1;
const CONNECTIONS = 48;
const ROUNDS = QUICK ? 10 : 40;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)("autocannon") as (options: Record<string, unknown>) => Promise<AutocannonResult>;

interface Row {
  label: string;
  rps: number;
  total: number;
  p50: number;
  p99: number;
  errors: number;
}

const SCRIPTS: [string, string][] = [
  ["script, 0 tool calls", "RESULT = 1 + 1"],
  ["script, 1 tool call", "RESULT = edge.add(a=1, b=2)"],
];

async function connected(instance: Instance): Promise<void> {
  for (let i = 0; ; i++) {
    const health = (await (await fetch(`${instance.url}/health`)).json()) as { servers: { name: string; state: string }[] };
    if (["edge", "plain"].every((n) => health.servers.some((s) => s.name === n && s.state === "connected"))) return;
    if (i > 300) throw new Error("the edge servers did not connect");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Loads `instances` at once, the connections split evenly; one row per script. */
async function load(where: string, instances: readonly Instance[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [label, code] of SCRIPTS) {
    for (const i of instances) {
      if (!(await postToolCall(i.url, "executeToolCode", { code })).includes("Execution completed successfully.")) throw new Error(`the script failed: ${code}`);
    }
    const options = (i: Instance) => ({
      url: `${i.url}/v1/mcp/tool/execute`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: toolCallBody("executeToolCode", { code }),
      connections: CONNECTIONS / instances.length,
    });
    await Promise.all(instances.map((i) => autocannon({ ...options(i), duration: WARMUP })));
    const results = await Promise.all(instances.map((i) => autocannon({ ...options(i), duration: LOAD_SECONDS })));
    rows.push({
      label: `${where}: ${label}`,
      rps: results.reduce((n, r) => n + r.requests.average, 0),
      total: results.reduce((n, r) => n + r.requests.total, 0),
      p50: median(results.map((r) => r.latency.p50)),
      p99: Math.max(...results.map((r) => r.latency.p99)),
      errors: results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
    });
  }
  return rows;
}

/** Milliseconds from a key's PUT on `a` answering to its new name showing on `b`, per round. */
async function propagation(a: Instance, b: Instance): Promise<number[]> {
  const json = { "content-type": "application/json" };
  await fetch(`${a.url}/api/governance/virtual-keys`, { method: "POST", headers: json, body: JSON.stringify({ id: "moving", name: "moving-0" }) });
  const times: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const name = `moving-${round}`;
    const res = await fetch(`${a.url}/api/governance/virtual-keys/moving`, { method: "PUT", headers: json, body: JSON.stringify({ name }) });
    if (res.status !== 200) throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
    const answered = performance.now();
    for (;;) {
      const seen = (await (await fetch(`${b.url}/api/governance/virtual-keys/moving`)).json()) as { virtual_key?: { name: string } };
      if (seen.virtual_key?.name === name) break;
      if (performance.now() - answered > 10_000) throw new Error(`${name} not seen on the other instance within 10 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
    times.push(performance.now() - answered);
  }
  return times;
}

async function main(): Promise<void> {
  const loadAtStart = loadText();
  const dir = mkdtempSync(join(tmpdir(), "cmg-bench-scale-"));
  const server = await startPostgres();
  const rows: Row[] = [];
  let moved: number[] = [];
  try {
    const sqliteConfig = join(dir, "sqlite.json");
    writeFileSync(sqliteConfig, JSON.stringify({ mcp: { client_configs: edgeClients() } }));
    const one = await startInstance(sqliteConfig);
    try {
      await connected(one);
      rows.push(...(await load("1 instance, SQLite", [one])));
    } finally {
      await one.stop();
    }

    const pgConfig = join(dir, "pg.json");
    writeFileSync(pgConfig, JSON.stringify({ store: { type: "postgres", url: "env.DATABASE_URL" }, mcp: { client_configs: edgeClients() } }));
    const env = { DATABASE_URL: await server.createDatabase("bench") };
    const instances = await Promise.all([0, 1, 2].map(() => startInstance(pgConfig, env)));
    try {
      await Promise.all(instances.map(connected));
      rows.push(...(await load("1 instance, PostgreSQL", instances.slice(0, 1))));
      rows.push(...(await load("3 instances, one PostgreSQL", instances)));
      moved = await propagation(instances[0]!, instances[1]!);
    } finally {
      await Promise.all(instances.map((i) => i.stop()));
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const table = [
    `| ${CONNECTIONS} connections, ${LOAD_SECONDS} s | requests/s | requests | latency p50 | latency p99 | errors |`,
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.label} | ${r.rps.toFixed(0)} | ${r.total} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors} |`),
  ].join("\n");
  const ratio = (script: number) => rows[4 + script]!.rps / rows[2 + script]!.rps;
  const body = [
    table,
    "",
    `Scripts as chat tool calls to POST /v1/mcp/tool/execute, after a ${WARMUP} s warm-up; autocannon in this process, ` +
      "each gateway a process of its own (`dist/src/cli/gateway.js`) on 127.0.0.1 with its own edge-server child. With three " +
      "instances the connections are split evenly over them, as a load balancer would; the requests/s are summed. " +
      `Three instances on one PostgreSQL give ${ratio(0).toFixed(2)}× one instance's requests/s for 0-call scripts and ` +
      `${ratio(1).toFixed(2)}× for 1-call scripts, on this machine's ${cpus().length} cores, which the three gateways, their ` +
      "edge-server children, PostgreSQL and autocannon all share: a machine with a core per instance is where three pay. " +
      `Target: zero errors: **${rows.every((r) => r.errors === 0) ? "met" : "missed"}**.`,
    "",
    `A virtual key PUT on one instance is in force on another (its GET shows the new name) after a median of ` +
      `**${ms(median(moved))}** (worst ${ms(Math.max(...moved))}, ${moved.length} rounds; polled every 2 ms from the PUT's answer). ` +
      `Target: within 1 s: **${Math.max(...moved) < 1000 ? "met" : "missed"}**. The change travels as a NOTIFY sent in the ` +
      "write's transaction; the other instance reads that kind back from the store and puts it in force.",
    "",
    `Load average (1, 5, 15 min) at the start: ${loadAtStart}; at the end: ${loadText()}. The machine is shared ` +
      "(other jobs running): read ratios and medians, not absolute figures.",
  ].join("\n");
  console.log(body);
  if (WRITE) writeSection("bench:scale", "Scale-out: one instance against three on one PostgreSQL", `node dist/bench/scale.js${QUICK ? " --quick" : ""} --write`, body);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
