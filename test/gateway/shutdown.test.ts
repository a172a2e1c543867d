// The built gateway as a real process: every execution is answered and logged whatever the
// script raised, and SIGTERM makes it exit even while scripts sleep or wait on tools.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listeningUrl } from "./listening.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GATEWAY = join(ROOT, "dist/src/cli/gateway.js");
const EDGE = join(ROOT, "dist/test/fixtures/edge-server.js");

interface Gateway {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

async function start(): Promise<Gateway> {
  const dir = mkdtempSync(join(tmpdir(), "cmg-shutdown-"));
  const config = join(dir, "config.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcp: { client_configs: [{ name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true }] },
    }),
  );
  const child = spawn(process.execPath, [GATEWAY, "--config", config, "--data", join(dir, "data"), "--port", "0"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let seen = "";
  child.stderr!.on("data", (d: Buffer) => (seen += d.toString()));
  const url = await listeningUrl(child, 20_000);
  for (let i = 0; i < 200; i++) {
    const health = (await (await fetch(`${url}/health`)).json()) as { servers: { name: string; state: string }[] };
    if (health.servers.some((s) => s.name === "edge" && s.state === "connected")) return { child, url, stderr: () => seen };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the edge server did not connect");
}

function execute(url: string, code: string): Promise<Response> {
  return fetch(`${url}/v1/mcp/tool/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: "call_1", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code }) } }),
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("the gateway process", () => {
  it("answers and logs an execution whose error message is larger than its budgets", async () => {
    const gateway = await start();
    try {
      const response = await execute(gateway.url, "edge.echo(text='before')\ns = 'x'*10**7\nraise ValueError(s,s,s,s,s)");
      expect(response.status).toBe(200);
      const { content } = (await response.json()) as { content: string };
      expect(content).toContain("ValueError: ('xxxxxxxx");
      expect(content).toContain("… [truncated]");
      expect(content.length).toBeLessThan(10_000);
      const logs = (await (await fetch(`${gateway.url}/api/logs`)).json()) as { logs: { outcome: string; error: { type: string }; tool_calls: { tool: string; ok: boolean }[] }[] };
      expect(logs.logs[0]).toMatchObject({ outcome: "error", error: { type: "ValueError" }, tool_calls: [{ tool: "echo", ok: true }] });
    } finally {
      gateway.child.kill("SIGTERM");
      await exited(gateway.child);
    }
  }, 60_000);

  it("exits on SIGTERM while a script sleeps and waits on a tool, answering its caller", async () => {
    const gateway = await start();
    const answer = execute(gateway.url, "import asyncio\nasync def main():\n    await asyncio.gather(asyncio.sleep(2000000), edge.hang_async())\nasyncio.run(main())");
    // The script is in its sleep once its tool call shows up in flight; give it a moment.
    await new Promise((r) => setTimeout(r, 500));
    const started = performance.now();
    gateway.child.kill("SIGTERM");
    const code = await exited(gateway.child);
    const seconds = (performance.now() - started) / 1000;
    expect(code).toBe(0);
    // Measured: ~0.1 s. Before, it never exited (the sleep's timer kept the process alive).
    expect(seconds).toBeLessThan(5);
    // It exited on its own, not cut by the grace period for open handles.
    expect(gateway.stderr()).not.toContain("handles still open");
    const response = await answer;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { content: string }).content).toContain("CancelledError");
  }, 60_000);
});
