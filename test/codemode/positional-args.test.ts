// Positional tool arguments (SPEC §3): `srv.tool(a, b, k=v)` binds as a def with the stub's
// signature would. The order is one function's (parameters.ts): the server stub, getToolDocs and
// the binding are checked against each other on real-16 and on real servers over stdio and HTTP
// (server-everything, server-memory, server-filesystem, and a recording server in this file
// whose tools answer with the arguments they received).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolSignature } from "../../src/codemode/binding.js";
import type { OutgoingCall } from "../../src/codemode/bridge.js";
import { buildCatalog, type Catalog, catalogOf } from "../../src/codemode/catalog.js";
import { defaultCodecs } from "../../src/codemode/media.js";
import { executeToolCode, getToolDocs, readToolFile } from "../../src/codemode/meta-tools.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { UpstreamManager } from "../../src/upstream/manager.js";
import { thrown } from "../interpreter/thrown.js";

const REAL16 = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));
const modules = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol", import.meta.url));

/** The parameter names of the first def in each text, as CPython's parser reads them. */
function defParams(texts: string[]): string[][] {
  const script = [
    "import ast, json, sys",
    "out = []",
    "for text in json.load(sys.stdin):",
    "    fn = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef))",
    "    out.append([a.arg for a in fn.args.args])",
    "print(json.dumps(out))",
  ].join("\n");
  const run = spawnSync("python3", ["-c", script], { input: JSON.stringify(texts), encoding: "utf8", maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[][];
}

/** For every tool of the catalog: its def's names in the server stub, in getToolDocs, and as bound. */
function threeOrders(catalog: Catalog): { tool: string; stub: string[]; docs: string[]; bound: string[] }[] {
  const tools = catalog.servers.flatMap((server) => server.tools.map((tool) => ({ server, tool })));
  const stubLines = tools.map(({ server, tool }) => {
    const stub = readToolFile(catalog, { fileName: `servers/${server.name}.pyi` });
    return stub.split("\n").find((l) => l.startsWith(`def ${tool.python}(`))!;
  });
  const docs = tools.map(({ server, tool }) => getToolDocs(catalog, { server: server.name, tool: tool.python }));
  const parsed = defParams([...stubLines, ...docs]);
  return tools.map(({ server, tool }, i) => {
    const signature = new ToolSignature(tool);
    // Every parameter by position, each value its own index: which name got which position.
    const values = signature.params.map((_, n) => n);
    const sent = signature.bind(`${server.name}.${tool.python}`, tool.python, values, {});
    const bound = Object.entries(sent)
      .sort(([, a], [, b]) => (a as number) - (b as number))
      .map(([upstream]) => signature.params.find((p) => p.upstream === upstream)!.python);
    return { tool: `${server.name}.${tool.python}`, stub: parsed[i]!, docs: parsed[tools.length + i]!, bound };
  });
}

describe.skipIf(!existsSync(REAL16))("the order of parameters on real-16", () => {
  it("is the same in the server stub, in getToolDocs and in the binding, for all 487 tools", () => {
    const catalog = buildCatalog(JSON.parse(readFileSync(REAL16, "utf8")).servers);
    const rows = threeOrders(catalog);
    expect(rows.length).toBe(487);
    const differing = rows.filter((r) => JSON.stringify(r.stub) !== JSON.stringify(r.bound) || JSON.stringify(r.docs) !== JSON.stringify(r.bound));
    expect(differing).toEqual([]);
    // Not a vacuous agreement: most tools take several parameters.
    expect(rows.filter((r) => r.bound.length >= 2).length).toBeGreaterThan(200);
  });
});

// ------------------------------------------------------------------ a recording server

/** Tools whose answer is the arguments they received, as JSON text. */
const RECORDING_TOOLS: Tool[] = [
  {
    name: "upsert",
    description: "Stores a record. Its first parameter is itself an object.",
    inputSchema: {
      type: "object",
      properties: { record: { type: "object" }, mode: { type: "string", enum: ["merge", "replace"], default: "merge" } },
      required: ["record"],
    },
  },
  {
    name: "route",
    description: "Parameter names that are not Python identifiers.",
    inputSchema: {
      type: "object",
      properties: { from: { type: "string" }, to: { type: "string" }, "max-hops": { type: "integer" } },
      required: ["from", "to"],
    },
  },
  {
    name: "ordered",
    description: "Required parameters come first, in the order of properties.",
    inputSchema: {
      type: "object",
      properties: { c: { type: "integer" }, b: { type: "integer" }, a: { type: "integer" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
  },
  {
    name: "maybe_dict",
    description: "A first parameter that is a dict or None.",
    inputSchema: { type: "object", properties: { filter: { anyOf: [{ type: "object" }, { type: "null" }] } } },
  },
];

function recordingServer(): Server {
  const server = new Server({ name: "recording", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: RECORDING_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: "text", text: JSON.stringify(request.params.arguments ?? {}) }],
  }));
  return server;
}

/** Streamable HTTP without sessions: a protocol server and a transport per request. */
async function listen(): Promise<{ http: HttpServer; url: string }> {
  const http = createServer((req, res) => {
    const server = recordingServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` };
}

// ------------------------------------------------------------------ scripts through executeToolCode

describe("positional tool arguments, through executeToolCode", () => {
  const manager = new UpstreamManager();
  const dir = mkdtempSync(join(tmpdir(), "cmg-positional-"));
  let recording: HttpServer;

  beforeAll(async () => {
    writeFileSync(join(dir, "notes.txt"), "first line\nsecond line\n");
    const stdio = (name: string, args: string[], env?: Record<string, string>) =>
      parseClientConfig({ name, connection_type: "stdio", stdio_config: { command: process.execPath, args, env }, tools_to_execute: ["*"], is_code_mode_client: true });
    manager.add(stdio("everything", [join(modules, "server-everything/dist/index.js")]));
    manager.add(stdio("memory", [join(modules, "server-memory/dist/index.js")], { MEMORY_FILE_PATH: join(dir, "memory.jsonl") }));
    manager.add(stdio("filesystem", [join(modules, "server-filesystem/dist/index.js"), dir]));
    const server = await listen();
    recording = server.http;
    manager.add(parseClientConfig({ name: "rec", connection_type: "http", connection_string: server.url, tools_to_execute: ["*"], is_code_mode_client: true }));
    await manager.settled(20_000);
    for (const c of manager.list()) expect(c.state, `${c.name}: ${c.lastError ?? ""}`).toBe("connected");
  }, 30_000);

  afterAll(async () => {
    await manager.closeAll();
    await new Promise((resolve) => recording.close(resolve));
  });

  function run(code: string, beforeCall?: (call: OutgoingCall) => Promise<OutgoingCall>) {
    return executeToolCode(code, {
      catalog: catalogOf(manager.list()),
      connections: manager.list(),
      authorize: () => null,
      limits: DEFAULT_LIMITS,
      codecs: defaultCodecs(),
      beforeCall,
    });
  }

  async function value(code: string): Promise<unknown> {
    const { text, result } = await run(code);
    expect(result.error, text).toBeNull();
    return result.result;
  }

  async function error(code: string): Promise<{ type: string; message: string; hints: string[]; text: string }> {
    const { text, result } = await run(code);
    expect(result.error, text).not.toBeNull();
    return { type: result.error!.type, message: result.error!.message, hints: result.error!.hints, text };
  }

  it("binds in the order the stubs and getToolDocs print, on every tool of the four servers", () => {
    const catalog = catalogOf(manager.list());
    const rows = threeOrders(catalog);
    expect(rows.length).toBeGreaterThan(30);
    for (const row of rows) {
      expect(row.stub, row.tool).toEqual(row.bound);
      expect(row.docs, row.tool).toEqual(row.bound);
    }
    const ordered = rows.find((r) => r.tool === "rec.ordered")!;
    expect(ordered.bound).toEqual(["b", "a", "c"]);
    expect(readToolFile(catalog, { fileName: "servers/rec.pyi" })).toContain("def ordered(b: int, a: int, c: int=None) -> Any:");
  });

  it("sends positional values under the names of the signature's parameters", async () => {
    expect(await value("RESULT = rec.ordered(1, 2, 3)")).toEqual({ b: 1, a: 2, c: 3 });
    expect(await value("RESULT = rec.ordered(1, 2)")).toEqual({ b: 1, a: 2 });
    expect(await value("RESULT = everything.get_sum(2, 40)")).toMatch(/42/);
  });

  it("mixes positional and keyword arguments", async () => {
    expect(await value("RESULT = rec.ordered(1, c=3, a=2)")).toEqual({ b: 1, c: 3, a: 2 });
    const head = await value(`RESULT = filesystem.read_text_file(${JSON.stringify(join(dir, "notes.txt"))}, head=1)`);
    expect(head).toEqual({ content: "first line" });
    const found = await value(`RESULT = filesystem.search_files(${JSON.stringify(dir)}, "*.txt")`);
    expect(JSON.stringify(found)).toContain("notes.txt");
  });

  it("keeps translating Python-safe names to the server's own, by position and by keyword", async () => {
    expect(await value("RESULT = rec.route('here', 'there', max_hops=3)")).toEqual({ from: "here", to: "there", "max-hops": 3 });
    expect(await value("RESULT = rec.route('here', to='there')")).toEqual({ from: "here", to: "there" });
    expect(await value("RESULT = rec.route(from_='here', to='there')")).toEqual({ from: "here", to: "there" });
  });

  it("writes and reads the memory graph with positional lists", async () => {
    const code = [
      "memory.create_entities([{'name': 'Ada', 'entityType': 'person', 'observations': ['wrote the first program']}])",
      "memory.add_observations([{'entityName': 'Ada', 'contents': ['born 1815']}])",
      "found = memory.search_nodes('Ada')",
      "RESULT = sorted(found['entities'][0]['observations'])",
    ].join("\n");
    expect(await value(code)).toEqual(["born 1815", "wrote the first program"]);
    expect(await value("RESULT = [e['name'] for e in memory.open_nodes(['Ada'])['entities']]")).toEqual(["Ada"]);
  });

  it("refuses too many positional arguments with CPython's wording and the signature as a hint", async () => {
    const sum = await error("everything.get_sum(1, 2, 3)");
    expect(sum.type).toBe("TypeError");
    expect(sum.message).toBe("everything.get_sum() takes 2 positional arguments but 3 were given");
    expect(sum.hints).toEqual(["Signature: def get_sum(a: float, b: float) -> Any (positional arguments bind in this order, or pass each by name)."]);
    expect(sum.text).toContain("Hints:\n  - Signature: def get_sum(a: float, b: float) -> Any");
    expect((await error("rec.ordered(1, 2, 3, 4)")).message).toBe("rec.ordered() takes from 2 to 3 positional arguments but 4 were given");
    expect((await error("everything.get_env(1)")).message).toBe("everything.get_env() takes 0 positional arguments but 1 was given");
    expect((await error("memory.search_nodes('a', 'b')")).message).toBe("memory.search_nodes() takes 1 positional argument but 2 were given");
  });

  it("refuses a parameter given by position and by keyword", async () => {
    const twice = await error("everything.get_sum(1, a=2)");
    expect(twice.message).toBe("everything.get_sum() got multiple values for argument 'a'");
    expect(twice.hints[0]).toContain("def get_sum(a: float, b: float)");
    expect((await error("rec.route('here', from_='there')")).message).toBe("rec.route() got multiple values for argument 'from_'");
    // Keywords are checked first, as CPython checks them: this names 'c', not the count.
    expect((await error("rec.ordered(1, 2, 3, 4, c=5)")).message).toBe("rec.ordered() got multiple values for argument 'c'");
    expect((await error("everything.get_sum({'a': 1, 'b': 2}, a=3)")).message).toBe("everything.get_sum() got multiple values for argument 'a'");
  });

  it("catches the TypeError like any other", async () => {
    expect(await value("try:\n    everything.get_sum(1, 2, 3)\nexcept TypeError as e:\n    RESULT = str(e)")).toBe("everything.get_sum() takes 2 positional arguments but 3 were given");
  });

  it("takes one positional dict as the arguments, unless the first parameter is a dict", async () => {
    expect(await value("RESULT = everything.get_sum({'a': 1, 'b': 2})")).toMatch(/\b3\b/);
    expect(await value("RESULT = rec.ordered({'a': 1, 'b': 2}, c=3)")).toEqual({ a: 1, b: 2, c: 3 });
    expect(await value("RESULT = everything.get_env({})")).toBeTypeOf("object");
    expect(await value("RESULT = rec.upsert({'id': 7})")).toEqual({ record: { id: 7 } });
    expect(await value("RESULT = rec.upsert({'id': 7}, 'replace')")).toEqual({ record: { id: 7 }, mode: "replace" });
    expect(await value("RESULT = rec.upsert(record={'id': 7})")).toEqual({ record: { id: 7 } });
    expect(await value("RESULT = rec.maybe_dict({'x': 1})")).toEqual({ filter: { x: 1 } });
  });

  it("validates what was bound, with the signature as a hint", async () => {
    const wrong = await error("rec.ordered('one', 2)");
    expect(wrong.message).toBe("rec.ordered() argument 'b' must be int, not str");
    expect(wrong.hints[0]).toContain("def ordered(b: int, a: int, c: int=None)");
    expect((await error("rec.ordered(1)")).message).toBe("rec.ordered() missing required argument: 'a'");
  });

  it("binds _async calls the same way, gathered", async () => {
    const code = [
      "import asyncio",
      "async def main():",
      "    return await asyncio.gather(rec.ordered_async(1, 2), rec.route_async('x', 'y', max_hops=1), everything.get_sum_async(20, 22))",
      "RESULT = asyncio.run(main())",
    ].join("\n");
    const [ordered, route, sum] = (await value(code)) as unknown[];
    expect(ordered).toEqual({ b: 1, a: 2 });
    expect(route).toEqual({ from: "x", to: "y", "max-hops": 1 });
    expect(String(sum)).toMatch(/42/);
    const tooMany = await error("import asyncio\nasync def main():\n    await rec.ordered_async(1, 2, 3, 4)\nasyncio.run(main())");
    expect(tooMany.message).toBe("rec.ordered() takes from 2 to 3 positional arguments but 4 were given");
    const twice = await error("import asyncio\nasync def main():\n    await asyncio.gather(rec.route_async('x', 'y', to='z'))\nasyncio.run(main())");
    expect(twice.message).toBe("rec.route() got multiple values for argument 'to'");
  });

  it("records the call and shows plugins the arguments by name", async () => {
    const seen: OutgoingCall[] = [];
    const { result } = await run("rec.route('a', 'b', max_hops=2)\neverything.get_sum(1, 2)", async (call) => {
      seen.push(structuredClone(call));
      return call;
    });
    expect(result.error).toBeNull();
    expect(seen).toEqual([
      { server: "rec", tool: "route", arguments: { from: "a", to: "b", "max-hops": 2 } },
      { server: "everything", tool: "get-sum", arguments: { a: 1, b: 2 } },
    ]);
    expect(result.tool_calls.map((c) => c.arguments)).toEqual([{ from: "a", to: "b", "max-hops": 2 }, { a: 1, b: 2 }]);
  });

  it("lets a plugin rewrite the bound arguments", async () => {
    const { result } = await run("RESULT = rec.ordered(1, 2)", async (call) => ({ ...call, arguments: { ...call.arguments, c: 9 } }));
    expect(result.result).toEqual({ b: 1, a: 2, c: 9 });
  });
});

describe("ToolSignature on its own", () => {

  it("binds a parameter named __proto__ as an argument, not a prototype", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"a b":{"type":"integer"}},"required":["a b"]}');
    const signature = new ToolSignature({ inputSchema: schema });
    expect(signature.params.map((p) => [p.python, p.upstream])).toEqual([["a_b", "a b"], ["__proto__", "__proto__"]]);
    const sent = signature.bind("demo.weird", "weird", [1, "x"], {});
    expect(Object.keys(sent)).toEqual(["a b", "__proto__"]);
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
  });

  it("treats a lone dict as the arguments of a tool without parameters", () => {
    const signature = new ToolSignature({ inputSchema: { type: "object" } });
    expect(signature.bind("demo.free", "free", [{ anything: 1 }], {})).toEqual({ anything: 1 });
    expect(thrown(() => signature.bind("demo.free", "free", [1], {}))).toBe("TypeError: demo.free() takes 0 positional arguments but 1 was given");
  });

  it("binds a lone dict to a first parameter typed object through a $ref", () => {
    const signature = new ToolSignature({
      inputSchema: { type: "object", $defs: { Query: { type: "object" } }, properties: { query: { $ref: "#/$defs/Query" } }, required: ["query"] },
    });
    expect(signature.firstTakesDict).toBe(true);
    expect(signature.bind("demo.find", "find", [{ q: 1 }], {})).toEqual({ query: { q: 1 } });
  });
});
