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

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GATEWAY = join(ROOT, "dist/src/cli/gateway.js");
const EDGE = join(ROOT, "dist/test/fixtures/edge-server.js");
const MEMORY = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

async function start(args: string[], data = mkdtempSync(join(tmpdir(), "cmg-data-"))): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [GATEWAY, ...args, "--data", data, "--port", "0"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`the gateway did not start: ${seen}`)), 20_000);
    child.stderr!.on("data", (d: Buffer) => {
      seen += d.toString();
      const m = /listening on (http:\/\/[^ ]+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on("exit", (code) => reject(new Error(`the gateway exited with ${code}: ${seen}`)));
  });
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
