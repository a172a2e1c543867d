// An MCP session outlives a restart of the built gateway process: its record is in the SQLite
// store (mcp_sessions, migration 5), so the SDK client carries on with the same session id
// against the new process, on the same data folder, and is served without initializing again.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, it } from "vitest";
import { listeningUrl } from "./listening.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GATEWAY = join(ROOT, "dist/src/cli/gateway.js");
const EDGE = join(ROOT, "dist/test/fixtures/edge-server.js");

async function start(config: string, data: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [GATEWAY, "--config", config, "--data", data, "--port", "0"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  return { child, url: await listeningUrl(child, 20_000) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

it("continues an MCP session on the restarted process", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cmg-restart-"));
  const config = join(dir, "config.json");
  const edge = { name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true };
  writeFileSync(config, JSON.stringify({ mcp: { client_configs: [edge] } }));
  const data = join(dir, "data");
  let first: { child: ChildProcess; url: string } | null = await start(config, data);
  let second: { child: ChildProcess; url: string } | null = null;
  try {
    const opened = new Client({ name: "restart", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${first.url}/mcp`));
    await opened.connect(transport);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await opened.close();
    await stop(first.child);
    first = null;

    second = await start(config, data);
    // The same session id, to the new process: connect() skips initialize when it has one.
    const again = new Client({ name: "restart", version: "1.0.0" });
    const moved = new StreamableHTTPClientTransport(new URL(`${second.url}/mcp`), { sessionId });
    await again.connect(moved);
    const result = await again.callTool({ name: "executeToolCode", arguments: { code: "RESULT = edge.add(a=40, b=2)" } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("42");
    expect(moved.sessionId).toBe(sessionId);
    await again.close();
  } finally {
    if (first) await stop(first.child);
    if (second) await stop(second.child);
  }
}, 60_000);
