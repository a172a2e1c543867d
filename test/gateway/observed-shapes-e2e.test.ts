// Observed shapes in the built gateway process (dist/src/cli/gateway.js): learned from calls over
// /mcp and /v1/mcp/tool/execute, kept in <data>/gateway.db, loaded again after a restart and
// merged with what the restarted gateway learns; the setting, turned off through the API, stays
// off across the restart too.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { shapeText } from "../../src/codemode/shape.js";
import { Store } from "../../src/gateway/store.js";
import { listeningUrl } from "./listening.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GATEWAY = join(ROOT, "dist/src/cli/gateway.js");
const EDGE = join(ROOT, "dist/test/fixtures/edge-server.js");
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

async function start(config: string, data: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [GATEWAY, "--config", config, "--data", data, "--port", "0"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  const url = await listeningUrl(child, 20_000);
  for (let i = 0; i < 200; i++) {
    const health = (await (await fetch(`${url}/health`)).json()) as { servers: { state: string }[] };
    if (health.servers.length === 2 && health.servers.every((s) => s.state === "connected")) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the servers did not connect");
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

/** A meta-tool's answer through /v1/mcp/tool/execute. */
async function meta(url: string, name: string, args: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${url}/v1/mcp/tool/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: "c1", type: "function", function: { name, arguments: JSON.stringify(args) } }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { content: string }).content;
}

const execute = (url: string, code: string) => meta(url, "executeToolCode", { code });

/** The line of `tool` in a server's stub. */
async function stubLine(url: string, server: string, tool: string): Promise<string> {
  const stub = await meta(url, "readToolFile", { fileName: `servers/${server}.pyi` });
  return stub.split("\n").find((line) => line.startsWith(`def ${tool}(`)) ?? `(no line for ${tool} in)\n${stub}`;
}

/** The stored shapes, as text by `server.tool`. */
function storedShapes(data: string): Record<string, string> {
  const store = new Store(join(data, "gateway.db"));
  try {
    return Object.fromEntries(store.listShapes().map((r) => [`${r.server}.${r.tool}`, shapeText(r.shape)]));
  } finally {
    store.close();
  }
}

describe("observed shapes in the gateway process", () => {
  it("are stored, survive a restart, and merge with what is learned after it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cmg-observed-e2e-"));
    const data = join(dir, "data");
    const config = join(dir, "config.json");
    const stdio = (args: string[]) => ({ connection_type: "stdio", stdio_config: { command: process.execPath, args }, tools_to_execute: ["*"], is_code_mode_client: true });
    writeFileSync(config, JSON.stringify({ mcp: { client_configs: [{ name: "everything", ...stdio([EVERYTHING]) }, { name: "edge", ...stdio([EDGE]) }] } }));

    let gateway = await start(config, data);
    const client = new Client({ name: "observed-e2e", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`)));
    try {
      const run = await client.callTool({
        name: "executeToolCode",
        arguments: { code: `everything.echo(message='hi')\nRESULT = edge.echo(text='{"id": 1, "email": "ada@example.com"}')["id"]` },
      });
      expect((run.content as { text: string }[])[0]!.text).toContain("Execution completed successfully.");
    } finally {
      await client.close();
    }
    expect(await stop(gateway.child)).toBe(0);
    expect(storedShapes(data)).toEqual({ "edge.echo": '{"id": int, "email": str}', "everything.echo": "str" });

    gateway = await start(config, data);
    // Loaded from the store: the model reads the shape before any call of this process.
    expect(await stubLine(gateway.url, "edge", "echo")).toMatch(/^def echo\(.*\) -> dict: \.\.\. # .*Observed: \{"id": int, "email": str\}$/);
    expect(await stubLine(gateway.url, "everything", "echo")).toMatch(/ -> str: \.\.\. # .*Observed: str$/);
    expect(await meta(gateway.url, "getToolDocs", { server: "edge", tool: "echo" })).toContain('Returns: dict, observed in earlier results (no declared schema):\n        {"id": int, "email": str}');
    expect(await execute(gateway.url, `edge.echo(text='{"id": 2}')`)).toContain("Execution completed successfully.");
    expect(await stubLine(gateway.url, "edge", "echo")).toContain('Observed: {"id": int, "email"?: str}');
    const off = await fetch(`${gateway.url}/api/config`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_config: { mcp_code_mode_observed_shapes: false } }),
    });
    expect(off.status).toBe(200);
    expect(await stubLine(gateway.url, "edge", "echo")).not.toContain("Observed");
    expect(await execute(gateway.url, "everything.get_sum(a=1, b=2)")).toContain("Execution completed successfully.");
    expect(await stop(gateway.child)).toBe(0);
    // The restarted gateway merged into the shape it loaded (email became optional); with the
    // setting off, get-sum taught nothing.
    expect(storedShapes(data)).toEqual({ "edge.echo": '{"id": int, "email"?: str}', "everything.echo": "str" });

    gateway = await start(config, data);
    try {
      const view = (await (await fetch(`${gateway.url}/api/config`)).json()) as { client_config: { mcp_code_mode_observed_shapes: boolean } };
      expect(view.client_config.mcp_code_mode_observed_shapes).toBe(false);
    } finally {
      expect(await stop(gateway.child)).toBe(0);
    }
  }, 90_000);
});
