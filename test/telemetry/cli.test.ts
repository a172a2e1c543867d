// Telemetry in the built gateway process (dist/src/cli/gateway.js), configured as an operator
// would: OTEL_* variables and config.json's telemetry section. Spans reach an OTLP receiver on
// loopback, /metrics answers after known work, and without either nothing is added.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listeningUrl } from "../gateway/listening.js";
import { type Receiver, startReceiver } from "./otlp-receiver.js";
import { runScript } from "./stack.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GATEWAY = join(ROOT, "dist/src/cli/gateway.js");
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** The environment without any OTEL_* variable of the machine running the tests, plus `extra`. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const out = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_")));
  return { ...out, ...extra };
}

function writeConfig(extra: Record<string, unknown>): { config: string; data: string } {
  const dir = mkdtempSync(join(tmpdir(), "cmg-telemetry-cli-"));
  const config = join(dir, "config.json");
  const everything = { name: "everything", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EVERYTHING] }, tools_to_execute: ["*"], is_code_mode_client: true };
  writeFileSync(config, JSON.stringify({ mcp: { client_configs: [everything] }, ...extra }));
  return { config, data: join(dir, "data") };
}

function spawnGateway(files: { config: string; data: string }, extraEnv: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [GATEWAY, "--config", files.config, "--data", files.data, "--port", "0"], { cwd: ROOT, env: env(extraEnv), stdio: ["ignore", "ignore", "pipe"] });
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

describe("telemetry in the gateway process", () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it("exports spans to OTEL_EXPORTER_OTLP_ENDPOINT and serves /metrics, naming itself from config.json", async () => {
    const files = writeConfig({ telemetry: { service_name: "cli-gateway" } });
    const child = spawnGateway(files, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url.replace(/\/v1\/traces$/, ""),
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "50",
    });
    try {
      const url = await listeningUrl(child, 20_000);
      expect(await runScript(url, "RESULT = everything.echo(message='from the cli')")).toContain("Echo: from the cli");
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^codemode_executions_total\{outcome="ok"\} 1$/m);
      expect(metrics).toMatch(/^codemode_tool_calls_total\{server="everything",tool="echo",outcome="ok"\} 1$/m);
      expect(metrics).toMatch(/^codemode_upstream_connected\{server="everything"\} 1$/m);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !receiver.spans.some((s) => s.name === "everything.echo")) await new Promise((r) => setTimeout(r, 50));
      const echo = receiver.spans.find((s) => s.name === "everything.echo");
      const execution = receiver.spans.find((s) => s.name === "executeToolCode");
      expect(execution).toMatchObject({ service: "cli-gateway", attributes: { "codemode.outcome": "ok" } });
      expect(echo?.parentSpanId).toBe(execution?.spanId);
      expect(receiver.contentTypes[0]).toContain("application/json");
    } finally {
      expect(await stop(child)).toBe(0);
    }
  }, 40_000);

  it("refuses to start with an OTLP protocol it cannot speak, naming the variable", async () => {
    const child = spawnGateway(writeConfig({}), { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('invalid telemetry settings: OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported; use "http/json" or "http/protobuf"');
  }, 20_000);

  it("adds no /metrics route when neither the environment nor config.json asks for telemetry", async () => {
    const child = spawnGateway(writeConfig({}), {});
    try {
      const url = await listeningUrl(child, 20_000);
      expect((await fetch(`${url}/metrics`)).status).toBe(404);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  }, 40_000);
});
