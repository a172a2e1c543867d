// The gateway the SDK tests drive: a real Fastify server on 127.0.0.1 in front of the wire
// provider, with the real memory MCP server over stdio as a code-mode client whose read-only
// tools (by their annotations) run unattended. No virtual keys are configured.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { buildServer } from "../../src/api/server.js";
import { Gateway } from "../../src/gateway/gateway.js";
import type { VirtualKey } from "../../src/gateway/virtual-keys.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { startWireProvider, type WireProvider } from "./wire-provider.js";

const MEMORY = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));

export interface SdkGateway {
  provider: WireProvider;
  gateway: Gateway;
  app: FastifyInstance;
  /** The gateway's root URL (no /v1). */
  base: string;
  close(): Promise<void>;
}

export async function startSdkGateway(keys: VirtualKey[] = []): Promise<SdkGateway> {
  const provider = await startWireProvider();
  const gateway = new Gateway();
  const dir = mkdtempSync(join(tmpdir(), "cmg-sdk-"));
  gateway.addClient(
    parseClientConfig({
      name: "memory",
      connection_type: "stdio",
      stdio_config: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } },
      tools_to_execute: ["*"],
      tools_to_auto_execute: ["@read_only"],
      is_code_mode_client: true,
    }),
  );
  gateway.keys.load(keys);
  const app = buildServer(gateway, {
    providers: [
      { name: "wire", type: "openai", base_url: provider.url, api_key: "sk-gateway-own", headers: {}, timeout_seconds: 20 },
      { name: "own", type: "openai", base_url: provider.url, api_key: "passthrough", headers: {}, timeout_seconds: 20 },
      { name: "claude", type: "anthropic", base_url: provider.url, api_key: "passthrough", headers: {}, timeout_seconds: 20, anthropic_version: "2023-06-01" },
    ],
  });
  // Listening before the memory server has connected: the first request must wait for it.
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    provider,
    gateway,
    app,
    base,
    close: async () => {
      await app.close();
      await gateway.close();
      await provider.close();
    },
  };
}

/** The tool messages (chat) the provider received in request `i`, by tool_call_id. */
export function toolMessages(provider: WireProvider, i: number): Record<string, string> {
  const messages = provider.requests[i]!.body.messages as { role: string; tool_call_id?: string; content?: unknown }[];
  return Object.fromEntries(messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id!, String(m.content)]));
}
