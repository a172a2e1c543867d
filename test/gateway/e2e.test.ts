// The built gateway as a real process on a free port: MCP over /mcp with the SDK client, the
// API with fetch, MCP over stdio, and the repository's default config.json.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listeningUrl } from "./listening.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GATEWAY = join(ROOT, "dist/src/cli/gateway.js");
const EDGE = join(ROOT, "dist/test/fixtures/edge-server.js");
const MEMORY = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

async function start(args: string[], data = mkdtempSync(join(tmpdir(), "cmg-data-"))): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [GATEWAY, ...args, "--data", data, "--port", "0"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  const url = await listeningUrl(child, 20_000);
  return { child, url };
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

async function waitForServers(url: string, names: string[]): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const health = (await (await fetch(`${url}/health`)).json()) as { servers: { name: string; state: string }[] };
    if (names.every((n) => health.servers.some((s) => s.name === n && s.state === "connected"))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`servers did not connect: ${names.join(", ")}`);
}

describe("the gateway process", () => {
  let gateway: { child: ChildProcess; url: string };
  const dir = mkdtempSync(join(tmpdir(), "cmg-e2e-"));

  beforeAll(async () => {
    const config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcp: {
          client_configs: [
            { name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true },
            { name: "memory", connection_type: "stdio", stdio_config: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } }, tools_to_execute: ["*"], is_code_mode_client: true },
            { name: "plain", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["echo", "add_tool", "fresh"] },
          ],
        },
      }),
    );
    gateway = await start(["--config", config]);
    await waitForServers(gateway.url, ["edge", "memory", "plain"]);
  }, 40_000);

  afterAll(async () => {
    expect(await stop(gateway.child)).toBe(0);
  });

  it("serves the meta-tools and the direct tools over /mcp, and runs a script calling two servers", async () => {
    const client = new Client({ name: "e2e", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`)));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["listToolFiles", "readToolFile", "getToolDocs", "searchTools", "executeToolCode", "plain-echo"]));
      expect(names).not.toContain("plain-big");
      const files = await client.callTool({ name: "listToolFiles", arguments: {} });
      expect((files.content as { text: string }[])[0]!.text).toContain("  edge.pyi  (has instructions)");
      const run = await client.callTool({
        name: "executeToolCode",
        arguments: {
          code: "memory.create_entities(entities=[{'name': 'Ada', 'entityType': 'person', 'observations': []}])\nRESULT = {'sum': edge.add(a=20, b=22), 'people': [e['name'] for e in memory.read_graph()['entities']]}",
        },
      });
      const text = (run.content as { text: string }[])[0]!.text;
      expect(text).toContain("Execution completed successfully.");
      expect(text).toContain('"sum": 42');
      expect(text).toContain('"people": [\n    "Ada"\n  ]');
      const direct = await client.callTool({ name: "plain-echo", arguments: { text: "direct" } });
      expect((direct.content as { text: string }[])[0]!.text).toBe("direct");
    } finally {
      await client.close();
    }
  });

  it("tells connected clients when the direct tool set changes", async () => {
    const client = new Client({ name: "e2e", version: "1" });
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`)));
    try {
      await client.callTool({ name: "plain-add_tool", arguments: { name: "fresh" } });
      for (let i = 0; i < 50 && notified === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(notified).toBeGreaterThan(0);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("plain-fresh");
    } finally {
      await client.close();
    }
  });

  it("answers /health", async () => {
    const health = (await (await fetch(`${gateway.url}/health`)).json()) as { status: string; servers: unknown[] };
    expect(health.status).toBe("ok");
    expect(health.servers).toHaveLength(3);
  });
});

describe("MCP over stdio", () => {
  it("lets a desktop client launch the gateway and call it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cmg-stdio-"));
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify({ mcp: { client_configs: [{ name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true }] } }));
    const client = new Client({ name: "desktop", version: "1" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [GATEWAY, "--config", config, "--data", dir, "--stdio"], cwd: ROOT, stderr: "ignore" }),
    );
    try {
      let tools: string[] = [];
      for (let i = 0; i < 100 && !tools.includes("executeToolCode"); i++) {
        tools = (await client.listTools()).tools.map((t) => t.name);
        if (!tools.includes("executeToolCode")) await new Promise((r) => setTimeout(r, 100));
      }
      expect(tools).toContain("executeToolCode");
      const run = await client.callTool({ name: "executeToolCode", arguments: { code: "RESULT = edge.echo(text='over stdio')" } });
      expect((run.content as { text: string }[])[0]!.text).toContain('"over stdio"');
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("durable state", () => {
  it("keeps API changes across a restart; config.json only seeds an empty database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cmg-restart-"));
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify({ mcp: { client_configs: [] } }));
    const data = join(dir, "data");
    let gateway = await start(["--config", config], data);
    const put = await fetch(`${gateway.url}/api/config`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_config: { mcp_code_mode_limits: { max_steps: 1234 } } }),
    });
    expect(put.status).toBe(200);
    gateway.child.kill("SIGKILL");
    await new Promise((r) => gateway.child.once("exit", r));
    gateway = await start(["--config", config], data);
    try {
      const current = (await (await fetch(`${gateway.url}/api/config`)).json()) as { client_config: { mcp_code_mode_limits: { max_steps: number } } };
      expect(current.client_config.mcp_code_mode_limits.max_steps).toBe(1234);
    } finally {
      expect(await stop(gateway.child)).toBe(0);
    }
  }, 40_000);

  it("keeps virtual keys and the execution log across a restart, behind the admin token", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cmg-keys-"));
    const config = join(dir, "config.json");
    const memory = { name: "memory", connection_type: "stdio", stdio_config: { command: "node", args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, "m.jsonl") } }, tools_to_execute: ["*"], is_code_mode_client: true };
    const seeded = { name: "reader", value: "sk-reader", mcp_configs: [{ client_name: "memory", tools_to_execute: ["read_graph"] }] };
    writeFileSync(config, JSON.stringify({ server: { admin_token: "env.CMG_TEST_ADMIN" }, mcp: { client_configs: [memory] }, governance: { virtual_keys: [seeded] } }));
    process.env.CMG_TEST_ADMIN = "adm1n";
    const admin = { authorization: "Bearer adm1n", "content-type": "application/json" };
    const data = join(dir, "data");
    let gateway = await start(["--config", config], data);
    try {
      expect((await fetch(`${gateway.url}/api/governance/virtual-keys`)).status).toBe(401);
      const created = await fetch(`${gateway.url}/api/governance/virtual-keys`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ name: "writer", value: "sk-writer", mcp_configs: [{ client_name: "memory", tools_to_execute: ["*"] }] }),
      });
      expect(created.status).toBe(200);
      await waitForServers(gateway.url, ["memory"]);
      const run = (code: string) =>
        fetch(`${gateway.url}/v1/mcp/tool/execute`, {
          method: "POST",
          headers: { "x-bf-vk": "sk-reader", "content-type": "application/json" },
          body: JSON.stringify({ id: "c1", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code }) } }),
        }).then((r) => r.json() as Promise<{ content: string }>);
      expect((await run("len(memory.read_graph()['entities'])")).content).toContain("0");
      // The reader key was not granted create_entities: the call is refused, naming the tool.
      expect((await run("memory.create_entities(entities=[])")).content).toContain("PermissionError: tool 'memory.create_entities' is not granted to this virtual key");
    } finally {
      gateway.child.kill("SIGKILL");
      await new Promise((r) => gateway.child.once("exit", r));
    }
    gateway = await start(["--config", config], data);
    try {
      const listed = (await (await fetch(`${gateway.url}/api/governance/virtual-keys`, { headers: admin })).json()) as { virtual_keys: { name: string }[] };
      expect(listed.virtual_keys.map((k) => k.name)).toEqual(["reader", "writer"]);
      const logs = (await (await fetch(`${gateway.url}/api/logs`, { headers: admin })).json()) as {
        logs: { key: string; outcome: string; tool_calls: { tool: string }[]; error: { type: string } | null }[];
        total: number;
      };
      expect(logs.total).toBe(2);
      expect(logs.logs.map((l) => [l.key, l.outcome, l.error?.type ?? null])).toEqual([
        ["reader", "error", "PermissionError"],
        ["reader", "ok", null],
      ]);
      expect(logs.logs[1]!.tool_calls.map((c) => c.tool)).toEqual(["read_graph"]);
      // An unknown key is refused outright, even on /health.
      expect((await fetch(`${gateway.url}/health`, { headers: { "x-bf-vk": "sk-nope" } })).status).toBe(401);
    } finally {
      expect(await stop(gateway.child)).toBe(0);
    }
  }, 60_000);
});

describe("a crash in the middle of a burst of writes", () => {
  it("keeps every change the API acknowledged when the server is SIGKILLed mid-burst", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cmg-burst-"));
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify({ mcp: { client_configs: [] } }));
    const data = join(dir, "data");
    const gateway = await start(["--config", config], data);
    const acked: string[] = [];
    // Limits writes race each other, so the one that lands last is any of those sent.
    const stepsSent = new Set<number>();
    let limitsAcked = 0;
    let killed = false;
    const writer = async (lane: number) => {
      for (let i = 0; !killed; i++) {
        const name = `k${lane}_${i}`;
        const steps = 1000 + lane * 100_000 + i;
        try {
          // Alternate two kinds of write: a new key, and the limits.
          const res =
            i % 2 === 0
              ? await fetch(`${gateway.url}/api/governance/virtual-keys`, {
                  method: "POST",
                  headers: { "content-type": "application/json" },
                  body: JSON.stringify({ name, value: `sk-${name}`, mcp_configs: [] }),
                })
              : await fetch(`${gateway.url}/api/config`, {
                  method: "PUT",
                  headers: { "content-type": "application/json" },
                  body: JSON.stringify({ client_config: { mcp_code_mode_limits: { max_steps: (stepsSent.add(steps), steps) } } }),
                });
          if (res.status !== 200) throw new Error(`write refused: ${res.status} ${await res.text()}`);
          if (i % 2 === 0) acked.push(name);
          else limitsAcked += 1;
        } catch (e) {
          if (killed) return;
          throw e;
        }
      }
    };
    const lanes = [0, 1, 2, 3].map(writer);
    await new Promise((r) => setTimeout(r, 700));
    killed = true;
    gateway.child.kill("SIGKILL");
    await new Promise((r) => gateway.child.once("exit", r));
    await Promise.all(lanes);
    expect(acked.length).toBeGreaterThan(10);
    expect(limitsAcked).toBeGreaterThan(10);

    const again = await start(["--config", config], data);
    try {
      const listed = (await (await fetch(`${again.url}/api/governance/virtual-keys`)).json()) as { virtual_keys: { name: string }[] };
      const names = new Set(listed.virtual_keys.map((k) => k.name));
      expect(acked.filter((n) => !names.has(n))).toEqual([]);
      const current = (await (await fetch(`${again.url}/api/config`)).json()) as { client_config: { mcp_code_mode_limits: { max_steps: number } } };
      expect(stepsSent.has(current.client_config.mcp_code_mode_limits.max_steps)).toBe(true);
    } finally {
      expect(await stop(again.child)).toBe(0);
    }
  }, 60_000);
});

describe("shutdown", () => {
  it("cancels a running script on SIGTERM instead of waiting for it, and exits cleanly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cmg-stop-"));
    const config = join(dir, "config.json");
    const edge = { name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true };
    writeFileSync(config, JSON.stringify({ mcp: { client_configs: [edge] } }));
    const gateway = await start(["--config", config]);
    await waitForServers(gateway.url, ["edge"]);
    const answer = fetch(`${gateway.url}/v1/mcp/tool/execute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "c1", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code: "edge.slow(ms=30000, id=\"a\")" }) } }),
    }).then((r) => r.json() as Promise<{ content: string }>);
    await new Promise((r) => setTimeout(r, 500));
    const began = Date.now();
    expect(await stop(gateway.child)).toBe(0);
    expect(Date.now() - began).toBeLessThan(10_000);
    const content = (await answer).content;
    expect(content).toContain("CancelledError");
    expect(content).toContain("edge.slow failed: unfinished: the execution ended first");
  }, 40_000);
});

describe("the repository's default config.json", () => {
  it("starts offline with memory, filesystem and everything in code mode, and runs a script across them", async () => {
    const gateway = await start([]);
    try {
      await waitForServers(gateway.url, ["memory", "filesystem", "everything"]);
      const code = [
        "readme = filesystem.read_text_file(path='README.md')",
        "text = readme['content'] if isinstance(readme, dict) else readme",
        "echo = everything.echo(message='hello')",
        "RESULT = {'first_line': text.splitlines()[0], 'echo': echo}",
      ].join("\n");
      const response = await fetch(`${gateway.url}/v1/mcp/tool/execute`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: "call_1", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code }) } }),
      });
      expect(response.status).toBe(200);
      const message = (await response.json()) as { role: string; tool_call_id: string; content: string };
      expect(message.role).toBe("tool");
      expect(message.content).toContain("Execution completed successfully.");
      expect(message.content).toContain('"first_line": "# workspace"');
      expect(message.content).toContain('"echo": "Echo: hello"');
    } finally {
      expect(await stop(gateway.child)).toBe(0);
    }
  }, 40_000);
});
