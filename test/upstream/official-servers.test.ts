// The gateway's upstream layer against official MCP servers from npm, over their own transports:
// server-everything (stdio, Streamable HTTP, SSE), server-memory and server-filesystem.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHosts } from "../../src/codemode/bridge.js";
import { defaultCodecs } from "../../src/codemode/media.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { execute } from "../../src/interpreter/execute.js";
import { type ClientConfig, listAllows, parseClientConfig } from "../../src/upstream/config.js";
import { UpstreamManager } from "../../src/upstream/manager.js";
import { runBridged } from "../codemode/run-bridged.js";

const modules = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol", import.meta.url));
const EVERYTHING = join(modules, "server-everything/dist/index.js");
const MEMORY = join(modules, "server-memory/dist/index.js");
const FILESYSTEM = join(modules, "server-filesystem/dist/index.js");

function stdio(name: string, args: string[], extra: Partial<ClientConfig> = {}): ClientConfig {
  return parseClientConfig({
    name,
    connection_type: "stdio",
    stdio_config: { command: process.execPath, args },
    tools_to_execute: ["*"],
    is_code_mode_client: true,
    ...extra,
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts server-everything with one of its own network transports; resolves once it listens. */
async function everythingOver(transport: "streamableHttp" | "sse"): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, transport], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server-everything did not start")), 15_000);
    child.stderr!.on("data", (d: Buffer) => {
      if (/listening|running/i.test(d.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { child, port };
}

function runWith(manager: UpstreamManager, source: string, deny: string[] = []) {
  const allowed = (server: string, tool: string) => !deny.includes(`${server}.${tool}`);
  return execute(source, {
    hosts: buildHosts({
      connections: manager.list().filter((c) => c.state === "connected"),
      visible: () => true,
      authorize: (server, tool) => (allowed(server, tool) ? null : `tool '${server}.${tool}' is not allowed`),
      limits: DEFAULT_LIMITS,
      codecs: defaultCodecs(),
    }),
  });
}

describe("server-everything", () => {
  const manager = new UpstreamManager();
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    manager.add(stdio("everything", [EVERYTHING]));
    const http = await everythingOver("streamableHttp");
    const sse = await everythingOver("sse");
    children.push(http.child, sse.child);
    manager.add(parseClientConfig({ name: "everything_http", connection_type: "http", connection_string: `http://127.0.0.1:${http.port}/mcp`, tools_to_execute: ["*"], is_code_mode_client: true }));
    manager.add(parseClientConfig({ name: "everything_sse", connection_type: "sse", connection_string: `http://127.0.0.1:${sse.port}/sse`, tools_to_execute: ["*"], is_code_mode_client: true }));
    await manager.settled(20_000);
  }, 60_000);

  afterAll(async () => {
    await manager.closeAll();
    for (const c of children) c.kill();
  });

  it("connects over stdio, Streamable HTTP and SSE and lists the tools with instructions", () => {
    for (const name of ["everything", "everything_http", "everything_sse"]) {
      const c = manager.get(name)!;
      expect(c.state, `${name}: ${c.lastError}`).toBe("connected");
      expect(c.tools.map((t) => t.name)).toContain("echo");
      expect(c.tools.map((t) => t.name)).toContain("get-sum");
    }
  });

  it("calls tools from a script over each transport, with canonical names", async () => {
    const r = await runWith(
      manager,
      [
        "a = everything.echo(message='hi')",
        "b = everything_http.get_sum(a=2, b=3)",
        "c = everything_sse.echo({'message': 'dict form'})",
        "RESULT = [a, b, c]",
      ].join("\n"),
    );
    expect(r.error).toBeNull();
    expect(r.result).toEqual(["Echo: hi", "The sum of 2 and 3 is 5.", "Echo: dict form"]);
    expect(r.tool_calls.map((c) => [c.server, c.tool, c.ok])).toEqual([
      ["everything", "echo", true],
      ["everything_http", "get_sum", true],
      ["everything_sse", "echo", true],
    ]);
  });

  it("checks arguments against the inputSchema before calling", async () => {
    const r = await runWith(manager, "everything.get_sum(a='two', b=3)");
    expect(r.error).toMatchObject({ type: "TypeError" });
    expect(r.error!.message).toBe("everything.get_sum() argument 'a' must be float, not str");
    const missing = await runWith(manager, "everything.echo()");
    expect(missing.error!.message).toBe("everything.echo() missing required argument: 'message'");
  });

  it("refuses a denied tool however the call is reached", async () => {
    for (const source of [
      "everything.echo(message='x')",
      "getattr(everything, 'echo')(message='x')",
      "f = everything.echo\ng = f\ng(message='x')",
      "table = {'say': everything.echo}\ntable['say'](message='x')",
    ]) {
      const r = await runWith(manager, source, ["everything.echo"]);
      expect(r.error, source).toMatchObject({ type: "PermissionError", message: "tool 'everything.echo' is not allowed" });
    }
  });
});

describe("server-memory and server-filesystem together", () => {
  const dir = mkdtempSync(join(tmpdir(), "cmg-fs-"));
  const manager = new UpstreamManager();

  beforeAll(async () => {
    writeFileSync(join(dir, "team.txt"), "Ada\nGrace\n");
    manager.add(stdio("memory", [MEMORY], { stdio_config: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } } }));
    manager.add(stdio("filesystem", [FILESYSTEM, dir]));
    await manager.settled(20_000);
  }, 40_000);

  afterAll(() => manager.closeAll());

  it("creates entities in memory, reads a file through filesystem and combines both", async () => {
    const source = [
      `file = filesystem.read_text_file(path=${JSON.stringify(join(dir, "team.txt"))})`,
      "text = file['content'] if isinstance(file, dict) else file",
      "names = [n for n in text.splitlines() if n]",
      "memory.create_entities(entities=[{'name': n, 'entityType': 'person', 'observations': ['on the team']} for n in names])",
      "graph = memory.read_graph()",
      "RESULT = {'from_file': names, 'in_memory': sorted(e['name'] for e in graph['entities'])}",
    ].join("\n");
    const r = await runWith(manager, source);
    expect(r.error).toBeNull();
    expect(r.result).toEqual({ from_file: ["Ada", "Grace"], in_memory: ["Ada", "Grace"] });
    expect(r.tool_calls).toHaveLength(3);
  });
});

describe("process hygiene", () => {
  function children(): number[] {
    try {
      return execFileSync("ps", ["-o", "pid=", "--ppid", String(process.pid)], { encoding: "utf8" })
        .split("\n")
        .map((s) => Number(s.trim()))
        .filter((n) => n > 0);
    } catch {
      return [];
    }
  }

  it("terminates stdio children of removed and replaced clients: none leaked", async () => {
    const before = children().length;
    const manager = new UpstreamManager();
    manager.add(stdio("one", [EVERYTHING]));
    manager.add(stdio("two", [MEMORY]));
    await manager.settled(20_000);
    expect(children().length).toBe(before + 2);
    await manager.replace(stdio("two", [MEMORY]));
    await manager.settled(20_000);
    await manager.remove("one");
    await manager.closeAll();
    await new Promise((r) => setTimeout(r, 300));
    expect(children().length).toBe(before);
  }, 40_000);

  it("never lets a server that is down block the others", async () => {
    const manager = new UpstreamManager({ connectTimeoutMs: 2000, backoffMs: { initial: 5000, max: 5000 } });
    manager.add(parseClientConfig({ name: "nowhere", connection_type: "http", connection_string: "http://127.0.0.1:9/mcp", tools_to_execute: ["*"] }));
    manager.add(stdio("everything", [EVERYTHING]));
    await manager.settled(20_000);
    expect(manager.get("everything")!.state).toBe("connected");
    expect(manager.get("nowhere")!.state).toBe("reconnecting");
    const r = await runBridged(manager, "nowhere.anything()");
    expect(r.error?.type).toBe("AttributeError");
    await manager.closeAll();
    void listAllows;
  }, 40_000);
});
