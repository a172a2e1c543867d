// The bridge against the edge-case server (test/fixtures/edge-server.ts, built to dist/ by
// `npm test`): errors, timeouts, crashes, big and exact values, media fields, a catalog that
// changes, and calls that really run in parallel.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Limits } from "../../src/interpreter/budget.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { UpstreamManager } from "../../src/upstream/manager.js";
import { runBridged } from "./run-bridged.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));

function edge(name: string) {
  return parseClientConfig({
    name,
    connection_type: "stdio",
    stdio_config: { command: process.execPath, args: [EDGE], env: { EDGE_GREETING: "hello from env" } },
    tools_to_execute: ["*"],
    is_code_mode_client: true,
  });
}

describe("the bridge", () => {
  const manager = new UpstreamManager({ connectTimeoutMs: 10_000, backoffMs: { initial: 100, max: 400 } });

  beforeAll(async () => {
    manager.add(edge("edge"));
    await manager.settled(20_000);
  }, 30_000);

  afterAll(() => manager.closeAll());

  const run = (source: string, limits: Partial<Limits> = {}) => runBridged(manager, source, limits);

  it("follows tools/list pages and keeps the server's instructions", () => {
    const c = manager.get("edge")!;
    expect(c.state, c.lastError ?? "").toBe("connected");
    expect(c.tools.length).toBeGreaterThan(8);
    expect(c.instructions).toContain("Edge server for gateway tests");
  });

  it("returns text, parsed JSON with exact big ints, and unwraps structuredContent {result}", async () => {
    const r = await run("RESULT = [edge.echo(text='plain'), edge.add(a=2, b=40), edge.bigint()['n'] + 1, edge.env(name='EDGE_GREETING')]");
    expect(r.error).toBeNull();
    expect(r.result).toEqual(["plain", 42, 123456789012345678901234567891n, "hello from env"]);
  });

  it("raises ToolError for an isError result", async () => {
    const r = await run("try:\n    edge.fail(message='no such repo')\nexcept ToolError as e:\n    RESULT = [e.tool, e.message]");
    expect(r.result).toEqual(["fail", "no such repo"]);
  });

  it("raises TimeoutError for a call that hangs past tool_execution_timeout", async () => {
    const r = await run("try:\n    edge.hang()\nexcept TimeoutError:\n    RESULT = 'timed out'", { tool_execution_timeout: 0.5 });
    expect(r.result).toBe("timed out");
  });

  it("refuses a result over max_value_bytes before it enters the sandbox", async () => {
    const r = await run("edge.big(bytes=2 * 1024 * 1024)");
    expect(r.error?.message).toContain("max_value_bytes");
  });

  it("decodes a zstd-compressed media field marked in the outputSchema", async () => {
    const r = await run("p = edge.zstd_payload()\nRESULT = [p['data']['rows'], p['data']['label'], p['note']]");
    expect(r.error).toBeNull();
    expect(r.result).toEqual([[[1, 2], [3, 4]], "compressed", "plain"]);
  });

  it("runs 10 gathered calls concurrently (the server counts them in flight)", async () => {
    const source = [
      "import asyncio",
      "edge.reset_inflight()",
      "async def main():",
      "    return await asyncio.gather(*[edge.slow_async(ms=200, id=str(i)) for i in range(10)])",
      "done = asyncio.run(main())",
      "RESULT = [len(done), edge.inflight_max()['max']]",
    ].join("\n");
    const r = await run(source);
    expect(r.error).toBeNull();
    expect(r.result).toEqual([10, 10]);
  });

  it("sees a tool added at runtime (notifications/tools/list_changed)", async () => {
    const r = await run("edge.add_tool(name='fresh')");
    expect(r.error).toBeNull();
    const c = manager.get("edge")!;
    for (let i = 0; i < 50 && !c.tools.some((t) => t.name === "fresh"); i++) await new Promise((res) => setTimeout(res, 50));
    const again = await run("RESULT = edge.fresh()");
    expect(again.result).toBe("I am fresh");
  });

  it("marks a crashed server, fails its calls fast, and reconnects it", async () => {
    manager.add(edge("fragile"));
    await manager.settled(10_000);
    const crashed = await run("try:\n    fragile.crash()\nexcept ToolError as e:\n    RESULT = e.message");
    expect(String(crashed.result)).toMatch(/went away|closed|not available/);
    const c = manager.get("fragile")!;
    const fast = performance.now();
    const during = await run("try:\n    fragile.echo(text='x')\nexcept ToolError as e:\n    RESULT = e.message");
    if (c.state !== "connected") {
      expect(String(during.result)).toContain("is not available");
      expect(performance.now() - fast).toBeLessThan(1000);
    }
    for (let i = 0; i < 100 && c.state !== "connected"; i++) await new Promise((res) => setTimeout(res, 50));
    expect(c.state).toBe("connected");
    const after = await run("RESULT = fragile.echo(text='back')");
    expect(after.result).toBe("back");
  }, 20_000);
});

describe("an HTTP upstream that goes away", () => {
  function startHttp(port: number): Promise<{ child: import("node:child_process").ChildProcess; port: number }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [EDGE, "--http", String(port)], { stdio: ["ignore", "pipe", "ignore"] });
      child.stdout!.on("data", (d: Buffer) => {
        const m = /listening (\d+)/.exec(d.toString());
        if (m) resolve({ child, port: Number(m[1]) });
      });
      child.on("error", reject);
    });
  }

  it("is marked, fails fast, and is reconnected when it comes back", async () => {
    const first = await startHttp(0);
    const manager = new UpstreamManager({ connectTimeoutMs: 5000, backoffMs: { initial: 100, max: 300 } });
    manager.add(parseClientConfig({ name: "web", connection_type: "http", connection_string: `http://127.0.0.1:${first.port}/mcp`, tools_to_execute: ["*"] }));
    await manager.settled(10_000);
    const run = (source: string) => runBridged(manager, source);
    try {
      expect((await run("RESULT = web.echo(text='up')")).result).toBe("up");
      first.child.kill("SIGKILL");
      await new Promise((r) => first.child.once("exit", r));
      const down = await run("try:\n    web.echo(text='x')\nexcept ToolError as e:\n    RESULT = e.message");
      expect(String(down.result)).toMatch(/went away|not available/);
      expect(manager.get("web")!.state).toBe("reconnecting");
      const second = await startHttp(first.port);
      try {
        const c = manager.get("web")!;
        for (let i = 0; i < 100 && c.state !== "connected"; i++) await new Promise((r) => setTimeout(r, 50));
        expect(c.state).toBe("connected");
        expect((await run("RESULT = web.echo(text='back')")).result).toBe("back");
      } finally {
        second.child.kill();
      }
    } finally {
      await manager.closeAll();
    }
  }, 30_000);
});
