// A whole gateway with telemetry, as the CLI composes it: the everything server (stdio, from
// node_modules), the recording server (Streamable HTTP, recording-server.ts), buildServer with
// telemetry's hooks (it mounts the MCP endpoint /mcp) on 127.0.0.1, and an OTLP receiver when traces are on.
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { buildServer } from "../../src/api/server.js";
import type { ProviderConfig, TelemetrySection } from "../../src/gateway/config-file.js";
import { DEFAULT_SETTINGS, Gateway } from "../../src/gateway/gateway.js";
import { DEFAULT_LIMITS, type Limits } from "../../src/interpreter/index.js";
import { resolveTelemetry, startTelemetry, type Telemetry } from "../../src/telemetry/index.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { type ReceivedSpan, type Receiver, startReceiver } from "./otlp-receiver.js";
import { type RecordingServer, startRecordingServer } from "./recording-server.js";

const EVERYTHING = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));

export interface Stack {
  gateway: Gateway;
  app: FastifyInstance;
  url: string;
  telemetry: Telemetry;
  receiver: Receiver | null;
  rec: RecordingServer;
  close(): Promise<void>;
}

export interface StackOptions {
  /** config.json's telemetry section; `endpoint` is set to the receiver's when `traces` is on. */
  section?: TelemetrySection;
  traces?: boolean;
  limits?: Partial<Limits>;
  adminToken?: string;
  /** Agent mode's providers (a scripted one, test/fixtures/scripted-provider.ts). */
  providers?: ProviderConfig[];
  /** OTEL_* variables to resolve the settings with (none by default: the section alone decides). */
  env?: NodeJS.ProcessEnv;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const receiver = options.traces === false ? null : await startReceiver();
  const rec = await startRecordingServer();
  const gateway = new Gateway({ ...DEFAULT_SETTINGS, limits: { ...DEFAULT_LIMITS, ...options.limits } });
  gateway.addClient(
    parseClientConfig({ name: "everything", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EVERYTHING] }, tools_to_execute: ["*"], is_code_mode_client: true }),
  );
  gateway.addClient(parseClientConfig({ name: "rec", connection_type: "http", connection_string: rec.url, tools_to_execute: ["*"], is_code_mode_client: true }));
  await gateway.manager.settled(20_000);
  for (const name of ["everything", "rec"]) {
    if (gateway.manager.get(name)?.state !== "connected") throw new Error(`${name} did not connect: ${gateway.manager.get(name)?.lastError}`);
  }
  const section: TelemetrySection = { ...options.section, ...(receiver ? { endpoint: receiver.url.replace(/\/v1\/traces$/, "") } : {}) };
  const settings = resolveTelemetry(section, options.env ?? {})!;
  const telemetry = startTelemetry(gateway, settings);
  const app = buildServer(gateway, { instrument: telemetry.instrument, providers: options.providers ?? [], ...(options.adminToken ? { adminToken: options.adminToken } : {}) });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    gateway,
    app,
    url,
    telemetry,
    receiver,
    rec,
    async close() {
      await app.close();
      await gateway.close();
      await telemetry.shutdown();
      await rec.close();
      await receiver?.close();
    },
  };
}

/** Runs a script through POST /v1/mcp/tool/execute; the tool message's content. */
export async function runScript(url: string, code: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${url}/v1/mcp/tool/execute`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ id: "call_1", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code }) } }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${text}`);
  return (JSON.parse(text) as { content: string }).content;
}

/**
 * Flushes until a span matching `test` has arrived, and returns it (a request's span is made just
 * after its answer). `what` names it in the error when none comes within `deadlineMs`.
 */
export async function arrivedSpan(stack: Stack, what: string, test: (s: ReceivedSpan) => boolean, deadlineMs = 10_000): Promise<ReceivedSpan> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    await stack.telemetry.tracing!.flush();
    const found = stack.receiver!.spans.find(test);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no span ${what} arrived; got: ${stack.receiver!.spans.map((s) => s.name).join(", ")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
