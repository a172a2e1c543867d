// What telemetry costs: the latency of executeToolCode through POST /v1/mcp/tool/execute (as
// bench:latency measures it) on three gateways side by side, each in its own process
// (telemetry-gateway.ts): telemetry off (the default: what bench:latency runs) twice, metrics only,
// and traces exported over OTLP/HTTP protobuf to a receiver in this process, plus metrics; then
// the event-loop time of telemetry's listeners per execution, in-process.
//
//   npx tsc -p tsconfig.json && node dist/bench/telemetry.js [--quick] [--write]
//
// Every variant runs once per round, in turn, so that the machine's noise hits them alike; the
// figures are medians over the rounds.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import type { ExecutionEvent } from "../src/gateway/exec-log.js";
import { Gateway } from "../src/gateway/gateway.js";
import type { SandboxResult } from "../src/interpreter/index.js";
import { resolveTelemetry, startTelemetry } from "../src/telemetry/index.js";
import { ms, percentile, postToolCall, QUICK, WRITE } from "./harness.js";
import { median, writeSection } from "./results.js";

const ROUNDS = QUICK ? 60 : 400;
const WARMUP = QUICK ? 20 : 100;
/** "off again" is a second gateway with telemetry off: the gap between the two offs is the noise floor. */
const MODES = ["off", "off again", "metrics", "traces"] as const;
type Mode = (typeof MODES)[number];
/** Executions per timing of the in-process figure. */
const EMITS = QUICK ? 2_000 : 20_000;

const SCRIPTS = {
  "0 tool calls": "RESULT = 1 + 1",
  "1 tool call": "RESULT = edge.add(a=1, b=2)",
  "10 tool calls": "total = 0\nfor i in range(10):\n    total += edge.add(a=i, b=1)\nRESULT = total",
};

const GATEWAY = fileURLToPath(new URL("./telemetry-gateway.js", import.meta.url));

/** An OTLP/HTTP endpoint that accepts every export and counts the bytes. */
async function sink(): Promise<{ base: string; bytes: () => number; close(): Promise<void> }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on("data", (c: Buffer) => (bytes += c.length));
    req.on("end", () => res.writeHead(200, { "content-type": "application/x-protobuf" }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: () => bytes, close: () => new Promise((r) => server.close(() => r())) };
}

function startChild(mode: Mode, otlp: string): Promise<{ child: ChildProcess; url: string }> {
  // With the real gateway's heap setting (the flag src/cli/gateway.ts starts with).
  const child = spawn(process.execPath, ["--max-semi-space-size=32", GATEWAY, mode === "off again" ? "off" : mode, otlp], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("exit", (code) => reject(new Error(`the ${mode} gateway exited with ${code}`)));
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n")) resolve({ child, url: (JSON.parse(line!) as { url: string }).url });
    });
  });
}

/** An execution's event as the gateway emits it: 10 tool calls, as the "10 tool calls" script makes. */
function tenCallEvent(): ExecutionEvent {
  const tool_calls = Array.from({ length: 10 }, (_, i) => ({
    server: "edge",
    tool: "add",
    arguments: { a: i, b: 1 },
    ok: true,
    error: null,
    started_seconds: i * 0.0004,
    duration_seconds: 0.0003,
  }));
  const result: SandboxResult = {
    stdout: "",
    stderr: "",
    result: 55,
    returncode: 0,
    duration_seconds: 0.005,
    tool_calls,
    error: null,
    stats: { steps: 120, memory_bytes: 4096, log_bytes: 0 },
  };
  return { caller: "-", code: SCRIPTS["10 tool calls"], result, tool: "executeToolCode" };
}

/**
 * Microseconds of the event loop's time telemetry takes per 10-call execution, in this process:
 * the listeners of "execution" (the spans and the metrics), timed around gateway.emit.
 */
async function listenerCost(otlpBase: string): Promise<{ metrics: number; traces: number }> {
  const event = tenCallEvent();
  const time = (gateway: Gateway) => {
    const start = performance.now();
    for (let i = 0; i < EMITS; i++) gateway.emit("execution", event);
    return ((performance.now() - start) * 1000) / EMITS;
  };
  const out = { metrics: 0, traces: 0 };
  for (const mode of ["metrics", "traces"] as const) {
    const gateway = new Gateway();
    const telemetry = startTelemetry(gateway, resolveTelemetry(mode === "traces" ? { endpoint: otlpBase } : {}, {})!);
    time(gateway);
    out[mode] = time(gateway);
    await telemetry.shutdown();
    await gateway.close();
  }
  return out;
}

async function main(): Promise<void> {
  const otlp = await sink();
  const gateways = new Map<Mode, { child: ChildProcess; url: string }>();
  for (const mode of MODES) gateways.set(mode, await startChild(mode, otlp.base));
  const samples = new Map<string, number[]>();
  const key = (script: string, mode: Mode) => `${script} | ${mode}`;
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [script, code] of Object.entries(SCRIPTS)) {
      // The order turns each round, so that no gateway always runs right after another.
      for (let m = 0; m < MODES.length; m++) {
        const mode = MODES[(m + round) % MODES.length]!;
        const start = performance.now();
        const text = await postToolCall(gateways.get(mode)!.url, "executeToolCode", { code });
        const t = performance.now() - start;
        if (round === 0 && !text.includes("Execution completed successfully.")) throw new Error(`${mode}: unexpected answer:\n${text}`);
        if (round >= WARMUP) (samples.get(key(script, mode)) ?? samples.set(key(script, mode), []).get(key(script, mode))!).push(t);
      }
    }
  }
  // One scrape of /metrics on a warm gateway: its size and time.
  const scrapeStart = performance.now();
  const metricsText = await (await fetch(`${gateways.get("metrics")!.url}/metrics`)).text();
  const scrapeMs = performance.now() - scrapeStart;
  for (const { child } of gateways.values()) {
    child.removeAllListeners("exit");
    child.stdin!.end();
  }
  await new Promise((r) => setTimeout(r, 500));
  const exported = otlp.bytes();
  // After the gateways: the telemetry started here must not slow the HTTP figures' client.
  const cost = await listenerCost(otlp.base);
  await otlp.close();

  const rows: string[] = [];
  const overheads: number[] = [];
  const floors: number[] = [];
  for (const script of Object.keys(SCRIPTS)) {
    const off = median(samples.get(key(script, "off"))!);
    for (const mode of MODES) {
      const values = samples.get(key(script, mode))!;
      const m = median(values);
      const delta = mode === "off" ? "" : `${m >= off ? "+" : ""}${(((m - off) / off) * 100).toFixed(1)} %`;
      if (mode === "off again") floors.push(Math.abs(m - off) / off);
      if (mode === "traces") overheads.push((m - off) / off);
      rows.push(`| ${script} | ${mode} | ${ms(m)} | ${ms(percentile(values, 90))} | ${delta} |`);
    }
  }
  const worst = Math.max(...overheads) * 100;
  const floor = Math.max(...floors) * 100;
  const tenOff = median(samples.get(key("10 tool calls", "off"))!) * 1000;
  const body = [
    "| script | telemetry | median | p90 | median vs off |",
    "|---|---|---:|---:|---:|",
    ...rows,
    "",
    `- Traces and metrics together cost at most **${worst.toFixed(1)} %** of the median (target: ≤ 5 % at p50: ` +
      `**${worst <= 5 ? "met" : "missed"}**). Off is the default and what bench:latency measures: no listener, hook or ` +
      "route is added then, so it runs the same code as before telemetry existed, less two events emitted to no one per execution. " +
      `Two gateways both off differ by up to **${floor.toFixed(1)} %** in this run: differences below that are noise.`,
    `- In-process, the listeners take **${cost.metrics.toFixed(1)} µs** (metrics) and **${cost.traces.toFixed(1)} µs** (spans and ` +
      `metrics) of the event loop per 10-call execution (${EMITS} executions timed), ` +
      `${((cost.traces / tenOff) * 100).toFixed(2)} % of that script's median; the spans are made and exported on the span thread, off the event loop.`,
    `- ${(exported / 1024).toFixed(0)} KB of OTLP protobuf were exported for ${WARMUP + ROUNDS} rounds; one scrape of /metrics ` +
      `(${(metricsText.length / 1024).toFixed(1)} KB of text) took ${ms(scrapeMs)}.`,
    "",
    `Method: four gateways as bench:latency's (harness.ts: \`edge\`, a stdio process of test/fixtures/edge-server.js), each in ` +
      "its own process (telemetry-gateway.ts, started with --max-semi-space-size=32 as the real gateway is), so that one's telemetry (its span thread, its metrics' timers) cannot slow the others; the client " +
      `is this process (Node's fetch, keep-alive), which also hosts the OTLP receiver. ${WARMUP} warm-up rounds, then ${ROUNDS} ` +
      "rounds in which every script runs once on each gateway in turn (the order turning each round). The machine is shared (2 cores, other jobs running): read " +
      "medians and ratios, not absolute times.",
  ].join("\n");
  console.log(body);
  if (WRITE) writeSection("bench:telemetry", "Telemetry on and off: executeToolCode latency", `node dist/bench/telemetry.js${QUICK ? " --quick" : ""} --write`, body);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
