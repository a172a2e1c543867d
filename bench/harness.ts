// What the end-to-end benches share: a real gateway (Gateway + buildServer) listening on
// 127.0.0.1 with the test fixture edge-server as a real stdio MCP server, twice: `edge` in code
// mode (its tools are called from scripts) and `plain` as a direct client (its tools are called
// one by one, `plain-add`, as a classic MCP client would). Plus the HTTP call of
// /v1/mcp/tool/execute and the small statistics the benches print.
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { buildServer, type ServerOptions } from "../src/api/server.js";
import { UNRESTRICTED } from "../src/gateway/caller.js";
import { DEFAULT_SETTINGS, Gateway } from "../src/gateway/gateway.js";
import { parseClientConfig } from "../src/upstream/config.js";

export const EDGE_SERVER = fileURLToPath(new URL("../test/fixtures/edge-server.js", import.meta.url));

/** True when the bench was started with --quick (a short run for `npm run bench:quick`). */
export const QUICK = process.argv.includes("--quick");
/** True when the bench should rewrite its section of bench/RESULTS.md. */
export const WRITE = process.argv.includes("--write");

/** The client configs of the bench gateway (also written to a config file by the load bench). */
export function edgeClients(): unknown[] {
  const stdio = { command: process.execPath, args: [EDGE_SERVER] };
  return [
    { name: "edge", connection_type: "stdio", stdio_config: stdio, tools_to_execute: ["*"], is_code_mode_client: true },
    { name: "plain", connection_type: "stdio", stdio_config: stdio, tools_to_execute: ["*"] },
  ];
}

export interface BenchGateway {
  gateway: Gateway;
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * A gateway with `edge` (code mode) and `plain` (direct) connected, listening on 127.0.0.1;
 * `serverOptions` may add to buildServer's options (bench/telemetry.ts adds telemetry's hooks).
 */
export async function startGateway(serverOptions: (gateway: Gateway) => ServerOptions = () => ({})): Promise<BenchGateway> {
  const gateway = new Gateway({ ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits } });
  for (const raw of edgeClients()) gateway.addClient(parseClientConfig(raw));
  const app = buildServer(gateway, serverOptions(gateway));
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const deadline = Date.now() + 30_000;
  while (!["edge", "plain"].every((n) => gateway.manager.get(n)?.state === "connected")) {
    if (Date.now() > deadline) throw new Error("the edge servers did not connect within 30 s");
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    gateway,
    app,
    url,
    async close() {
      gateway.cancelAll();
      await app.close();
      await gateway.close();
    },
  };
}

/** The body of one chat-style tool call for /v1/mcp/tool/execute. */
export function toolCallBody(name: string, args: Record<string, unknown>, id = "call_1"): string {
  return JSON.stringify({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
}

/** POSTs one tool call and returns the tool message's content; throws on an HTTP error. */
export async function postToolCall(url: string, name: string, args: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${url}/v1/mcp/tool/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: toolCallBody(name, args),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}: ${text}`);
  return (JSON.parse(text) as { content: string }).content;
}

/**
 * Runs a script in-process (no HTTP) and throws when it did not succeed. Each call gets its own
 * signal, as the HTTP and MCP faces give each request one.
 */
export async function runScript(gateway: Gateway, code: string): Promise<string> {
  const { text, isError } = await gateway.callTool("executeToolCode", { code }, UNRESTRICTED, new AbortController().signal);
  if (isError) throw new Error(`the script failed:\n${text}`);
  return text;
}

/** The value of the p-th percentile (0-100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Milliseconds with a precision that suits their size. */
export function ms(value: number): string {
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}
