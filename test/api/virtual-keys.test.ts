// Virtual keys and the admin token: the KeyRing's rules, who a request is, what a key sees and
// calls on every route (/v1/mcp/tool/execute, /health, /mcp), the key CRUD routes, and /api/*
// behind the admin token. A real gateway: a code-mode client "edge" and a direct client "plain",
// both the edge-case MCP server over stdio.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callerFromHeaders } from "../../src/api/auth.js";
import { buildServer } from "../../src/api/server.js";
import { callerForKey, UNRESTRICTED } from "../../src/gateway/caller.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { KeyConflictError, KeyRing, parseVirtualKeys, type VirtualKey } from "../../src/gateway/virtual-keys.js";
import { ConfigError, parseClientConfig } from "../../src/upstream/config.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));

/** Grants edge.add and plain.echo only. */
const NARROW: VirtualKey = {
  id: "narrow",
  name: "narrow",
  value: "sk-bf-narrow",
  is_active: true,
  mcp_configs: [
    { client_name: "edge", tools_to_execute: ["add"] },
    { client_name: "plain", tools_to_execute: ["echo"] },
  ],
};
const WIDE: VirtualKey = {
  id: "wide",
  name: "wide",
  value: "sk-bf-wide",
  is_active: true,
  mcp_configs: [
    { client_name: "edge", tools_to_execute: ["*"] },
    { client_name: "plain", tools_to_execute: ["*"] },
  ],
};
const OFF: VirtualKey = { ...WIDE, id: "off", name: "off", value: "sk-bf-off", is_active: false };

let gateway: Gateway;
let keys: KeyRing;
let app: FastifyInstance;

beforeAll(async () => {
  gateway = new Gateway();
  const stdio = { command: process.execPath, args: [EDGE] };
  gateway.addClient(parseClientConfig({ name: "edge", connection_type: "stdio", stdio_config: stdio, tools_to_execute: ["*"], is_code_mode_client: true }));
  gateway.addClient(parseClientConfig({ name: "plain", connection_type: "stdio", stdio_config: stdio, tools_to_execute: ["*"] }));
  await gateway.manager.settled(15000);
  keys = gateway.keys;
  app = buildServer(gateway);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await gateway?.close();
});

// Every test starts from the same three keys, however the one before changed them.
beforeEach(() => {
  keys.load([NARROW, WIDE, OFF]);
});

function chatCall(name: string, args: unknown) {
  return { id: "call_1", type: "function", function: { name, arguments: JSON.stringify(args) } };
}

function execute(name: string, args: unknown, headers: Record<string, string> = {}, server = app) {
  return server.inject({ method: "POST", url: "/v1/mcp/tool/execute", headers, payload: chatCall(name, args) });
}

const asNarrow = { "x-bf-vk": NARROW.value };

describe("parseVirtualKeys (governance.virtual_keys)", () => {
  it("reads keys, the id defaulting to the name and a key being active unless it says not", () => {
    const [key] = parseVirtualKeys([{ name: "team", value: "sk-bf-1", mcp_configs: [{ client_name: "edge", tools_to_execute: ["add"] }] }]);
    expect(key).toEqual({ id: "team", name: "team", value: "sk-bf-1", is_active: true, mcp_configs: [{ client_name: "edge", tools_to_execute: ["add"] }] });
  });

  it("reads a missing list as no keys", () => {
    expect(parseVirtualKeys(undefined)).toEqual([]);
  });

  const K = "governance.virtual_keys";
  it.each([
    [{}, `${K}: must be a list of virtual keys`],
    [[{ name: "a" }], `${K}[0].value: Invalid input: expected string, received undefined`],
    [[{ name: "a", value: "" }], `${K}[0].value: must not be empty`],
    [[{ name: "a", value: "sk bf" }], `${K}[0].value: must not contain spaces`],
    [[{ name: "", value: "v" }], `${K}[0].name: must not be empty`],
    [[{ name: "a", value: "v", budget: 5 }], `${K}[0].budget: unknown field`],
    [[{ name: "a", value: "v", mcp_configs: [{ client_name: "edge", tools_to_execute: ["*", "add"] }] }], `${K}[0].mcp_configs[0].tools_to_execute: '*' must be the only entry when present`],
    [[{ name: "a", value: "v", mcp_configs: [{ client_name: "edge", tools_to_execute: ["add", "add"] }] }], `${K}[0].mcp_configs[0].tools_to_execute: 'add' is listed twice`],
    [[{ name: "a", value: "v", mcp_configs: [{ client_name: "edge", tools_to_execute: [""] }] }], `${K}[0].mcp_configs[0].tools_to_execute[0]: a tool name must not be empty`],
    [[{ name: "a", value: "v", mcp_configs: [{ client_name: "edge" }, { client_name: "edge" }] }], `${K}[0].mcp_configs[1].client_name: 'edge' is listed twice`],
    [[{ name: "a", value: "v" }, { name: "b", id: "a", value: "w" }], `${K}[1].id: 'a' is already the id of ${K}[0]`],
    [[{ name: "a", value: "v" }, { name: "a", id: "b", value: "w" }], `${K}[1].name: 'a' is already the name of ${K}[0]`],
    [[{ name: "a", value: "v" }, { name: "b", value: "v" }], `${K}[1].value: this value is already the value of ${K}[0]`],
  ])("refuses %j naming the field", (raw, message) => {
    expect(() => parseVirtualKeys(raw)).toThrow(ConfigError);
    expect(() => parseVirtualKeys(raw)).toThrow(message);
  });
});

describe("KeyRing", () => {
  it("finds a key by its value, active or not", () => {
    const ring = new KeyRing([NARROW, OFF]);
    expect(ring.find(NARROW.value)?.id).toBe("narrow");
    expect(ring.find(OFF.value)?.id).toBe("off");
    expect(ring.find("sk-bf-nothing")).toBeUndefined();
  });

  it("reports puts and deletes as changes, and loads silently", () => {
    const ring = new KeyRing();
    const changes: unknown[] = [];
    ring.on("change", (c) => changes.push(c));
    ring.load([NARROW]);
    ring.put({ ...NARROW, is_active: false });
    ring.delete("narrow");
    expect(changes).toEqual([
      { type: "put", key: { ...NARROW, is_active: false }, previous: NARROW },
      { type: "delete", key: { ...NARROW, is_active: false } },
    ]);
  });

  it("refuses a key whose name or value another key has", () => {
    const ring = new KeyRing([NARROW]);
    expect(() => ring.put({ ...WIDE, name: "narrow" })).toThrow(KeyConflictError);
    expect(() => ring.put({ ...WIDE, value: NARROW.value })).toThrow("value: this value is already the value of virtual key 'narrow'");
    expect(ring.list()).toEqual([NARROW]);
  });

  it("gives a caller whose grants follow the key as it changes", () => {
    const ring = new KeyRing([NARROW]);
    const caller = callerForKey(ring, NARROW);
    expect(caller.label).toBe("narrow");
    expect(caller.grants?.get("edge")).toEqual(["add"]);
    ring.put({ ...NARROW, mcp_configs: [{ client_name: "edge", tools_to_execute: ["echo"] }] });
    expect(caller.grants?.get("edge")).toEqual(["echo"]);
    ring.put({ ...NARROW, is_active: false });
    expect(caller.grants?.size).toBe(0);
    ring.delete("narrow");
    expect(caller.grants?.size).toBe(0);
  });
});

describe("callerFromHeaders", () => {
  const ring = new KeyRing([NARROW, OFF]);

  it("reads the key from x-bf-vk", () => {
    expect(callerFromHeaders({ "x-bf-vk": NARROW.value }, ring)).toMatchObject({ label: "narrow" });
  });

  it("reads the key from Authorization: Bearer", () => {
    expect(callerFromHeaders({ authorization: `Bearer ${NARROW.value}` }, ring)).toMatchObject({ label: "narrow" });
  });

  it("takes a request without a key as unrestricted", () => {
    expect(callerFromHeaders({}, ring)).toBe(UNRESTRICTED);
  });

  it("refuses a request without a key when keys are required", () => {
    expect(callerFromHeaders({}, ring, { requireKey: true })).toEqual({ status: 401, error: expect.stringContaining("a virtual key is required") });
  });

  it("refuses an unknown key, never taking it for no key", () => {
    expect(callerFromHeaders({ "x-bf-vk": "sk-bf-guess" }, ring)).toEqual({ status: 401, error: "unknown virtual key" });
  });

  it("refuses an inactive key", () => {
    expect(callerFromHeaders({ authorization: `Bearer ${OFF.value}` }, ring)).toEqual({ status: 401, error: "virtual key 'off' is not active" });
  });
});

describe("what a key sees and calls through /v1/mcp/tool/execute", () => {
  it("lists only the files of servers it has tools on", async () => {
    const onlyPlain = { ...NARROW, id: "p", name: "p", value: "sk-bf-p", mcp_configs: [{ client_name: "plain", tools_to_execute: ["*"] }] };
    keys.put(onlyPlain);
    expect((await execute("listToolFiles", {}, asNarrow)).json().content).toContain("edge.pyi");
    expect((await execute("listToolFiles", {}, { "x-bf-vk": onlyPlain.value })).json().content).not.toContain("edge.pyi");
  });

  it("shows only the granted tools in readToolFile", async () => {
    const stub = (await execute("readToolFile", { fileName: "servers/edge.pyi" }, asNarrow)).json().content as string;
    expect(stub).toContain("def add(");
    expect(stub).not.toContain("def echo(");
    const full = (await execute("readToolFile", { fileName: "servers/edge.pyi" })).json().content as string;
    expect(full).toContain("def echo(");
  });

  it("finds only the granted tools in searchTools", async () => {
    expect((await execute("searchTools", { query: "echo" }, asNarrow)).json().content).toMatch(/^No tools match 'echo'/);
    expect((await execute("searchTools", { query: "adds two integers" }, asNarrow)).json().content).toContain("edge.add");
    expect((await execute("searchTools", { query: "echo" })).json().content).toContain("edge.echo");
  });

  it("runs a script's granted calls and refuses the others", async () => {
    const ok = await execute("executeToolCode", { code: "RESULT = edge.add(a=2, b=3)" }, asNarrow);
    expect(ok.json().content).toContain("Return value:\n5");
    const refused = await execute("executeToolCode", { code: "edge.echo(text='x')" }, asNarrow);
    expect(refused.statusCode).toBe(200);
    expect(refused.json().content).toContain("PermissionError: tool 'edge.echo' is not granted to this virtual key");
  });

  it("refuses a script's call with PermissionError once the key stops granting it mid-run", async () => {
    keys.put({ ...NARROW, mcp_configs: [{ client_name: "edge", tools_to_execute: ["slow", "add"] }] });
    const code = "edge.slow(ms=800, id='s')\nRESULT = edge.add(a=1, b=1)";
    const running = execute("executeToolCode", { code }, asNarrow);
    await new Promise((resolve) => setTimeout(resolve, 250));
    keys.put({ ...NARROW, mcp_configs: [{ client_name: "edge", tools_to_execute: ["slow"] }] });
    const content = (await running).json().content as string;
    expect(content).toContain("PermissionError: tool 'edge.add' is not granted to this virtual key");
  });

  it("calls a granted direct tool", async () => {
    const res = await execute("plain-echo", { text: "hi" }, asNarrow);
    expect(res.json()).toEqual({ role: "tool", tool_call_id: "call_1", content: "hi" });
  });

  it("answers an ungranted direct tool with 403 naming it, and a missing one with 404", async () => {
    const ungranted = await execute("plain-add", { a: 1, b: 2 }, asNarrow);
    const missing = await execute("plain-nothing", {}, asNarrow);
    expect(ungranted.statusCode).toBe(403);
    expect(ungranted.json()).toEqual({ error: { message: "tool 'plain-add' is not granted to this virtual key" } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { message: "unknown tool 'plain-nothing'" } });
    expect((await execute("plain-add", { a: 1, b: 2 })).json().content).toContain("3");
  });

  it("grants nothing to a key without mcp_configs", async () => {
    keys.put({ id: "bare", name: "bare", value: "sk-bf-bare", is_active: true, mcp_configs: [] });
    expect((await execute("plain-echo", { text: "x" }, { "x-bf-vk": "sk-bf-bare" })).statusCode).toBe(403);
    expect((await execute("listToolFiles", {}, { "x-bf-vk": "sk-bf-bare" })).json().content).not.toContain("edge.pyi");
  });

  it("accepts the key as Authorization: Bearer", async () => {
    const res = await execute("plain-add", { a: 1, b: 2 }, { authorization: `Bearer ${NARROW.value}` });
    expect(res.statusCode).toBe(403);
  });

  it.each([
    ["an unknown key", { "x-bf-vk": "sk-bf-guess" }, "unknown virtual key"],
    ["an inactive key", { "x-bf-vk": OFF.value }, "virtual key 'off' is not active"],
    ["an unknown bearer key", { authorization: "Bearer sk-bf-guess" }, "unknown virtual key"],
  ])("refuses %s with 401", async (_what, headers, message) => {
    const res = await execute("listToolFiles", {}, headers);
    expect(res.statusCode).toBe(401);
    expect(res.headers["www-authenticate"]).toBe('Bearer realm="virtual key"');
    expect(res.json()).toEqual({ error: { message } });
  });

  it("applies a key's new grants to the next request", async () => {
    expect((await execute("plain-add", { a: 1, b: 2 }, asNarrow)).statusCode).toBe(403);
    keys.put({ ...NARROW, mcp_configs: [{ client_name: "plain", tools_to_execute: ["add"] }] });
    expect((await execute("plain-add", { a: 1, b: 2 }, asNarrow)).statusCode).toBe(200);
  });
});

describe("GET /health with a key", () => {
  it("shows only the servers the key has a grant on", async () => {
    keys.put({ ...NARROW, mcp_configs: [{ client_name: "plain", tools_to_execute: ["echo"] }] });
    const res = await app.inject({ method: "GET", url: "/health", headers: asNarrow });
    expect(res.json().servers.map((s: { name: string }) => s.name)).toEqual(["plain"]);
    const all = await app.inject({ method: "GET", url: "/health" });
    expect(all.json().servers.map((s: { name: string }) => s.name)).toEqual(["edge", "plain"]);
  });
});

describe("requireKey", () => {
  let strict: FastifyInstance;
  beforeAll(async () => {
    strict = buildServer(gateway, { requireKey: true });
    await strict.ready();
  });
  afterAll(async () => {
    await strict?.close();
  });

  it("refuses a tool call without a key with 401", async () => {
    const res = await execute("listToolFiles", {}, {}, strict);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/^a virtual key is required/);
  });

  it("refuses /health without a key", async () => {
    expect((await strict.inject({ method: "GET", url: "/health" })).statusCode).toBe(401);
  });

  it("serves a request with a key", async () => {
    expect((await execute("plain-echo", { text: "ok" }, asNarrow, strict)).json().content).toBe("ok");
  });

  it("leaves /api/* to the admin token", async () => {
    expect((await strict.inject({ method: "GET", url: "/api/config" })).statusCode).toBe(200);
  });
});

describe("/mcp", () => {
  let mcpApp: FastifyInstance;
  let url: URL;
  beforeAll(async () => {
    mcpApp = buildServer(gateway);
    await mcpApp.listen({ host: "127.0.0.1", port: 0 });
    url = new URL(`http://127.0.0.1:${(mcpApp.server.address() as { port: number }).port}/mcp`);
  });
  afterAll(async () => {
    await mcpApp?.close();
  });

  async function toolNames(headers: Record<string, string>): Promise<string[]> {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    try {
      return (await client.listTools()).tools.map((t) => t.name);
    } finally {
      await client.close();
    }
  }

  it("lists only the tools the key grants", async () => {
    const names = await toolNames(asNarrow);
    expect(names).toContain("executeToolCode");
    expect(names.filter((n) => n.startsWith("plain-"))).toEqual(["plain-echo"]);
    expect((await toolNames({})).filter((n) => n.startsWith("plain-")).length).toBeGreaterThan(1);
  });

  it("refuses a call to an ungranted tool, naming it", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: asNarrow } }));
    try {
      const granted = (await client.listTools()).tools.map((t) => t.name);
      const ungranted = (await toolNames({})).find((n) => n.startsWith("plain-") && !granted.includes(n))!;
      const refusal = async (name: string) => {
        try {
          const r = await client.callTool({ name, arguments: {} });
          return JSON.stringify(r.content);
        } catch (e) {
          return (e as Error).message;
        }
      };
      expect(await refusal(ungranted)).toContain(`tool '${ungranted}' is not granted to this virtual key`);
      expect(await refusal("plain-no_such_tool")).toContain("unknown tool 'plain-no_such_tool'");
    } finally {
      await client.close();
    }
  });

  it("refuses a session opened with one key when a request on it presents another, or none", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: asNarrow } });
    await client.connect(transport);
    try {
      const list = { jsonrpc: "2.0", id: 7, method: "tools/list", params: {} };
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": transport.sessionId! };
      for (const other of [{}, { "x-bf-vk": WIDE.value }] as Record<string, string>[]) {
        const res = await fetch(url, { method: "POST", headers: { ...headers, ...other }, body: JSON.stringify(list) });
        expect(res.status).toBe(403);
        expect(((await res.json()) as { error: { message: string } }).error.message).toBe("this MCP session was opened with a different virtual key");
      }
      const same = await fetch(url, { method: "POST", headers: { ...headers, ...asNarrow }, body: JSON.stringify(list) });
      expect(same.status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it("keeps a session bound to its key when the key is renamed", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: asNarrow } }));
    try {
      keys.put({ ...NARROW, name: "narrow-renamed" });
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("plain-echo");
    } finally {
      keys.put(NARROW);
      await client.close();
    }
  });

  it("refuses an unknown key with 401", async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-bf-vk": "sk-bf-guess" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { message: "unknown virtual key" } });
  });
});

describe("the virtual-key routes", () => {
  const base = "/api/governance/virtual-keys";

  it("lists the keys with their values", async () => {
    const res = await app.inject({ method: "GET", url: base });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ virtual_keys: [NARROW, WIDE, OFF], count: 3 });
  });

  it("shows one key", async () => {
    expect((await app.inject({ method: "GET", url: `${base}/wide` })).json()).toEqual({ virtual_key: WIDE });
  });

  it("creates a key with a generated value that works at once", async () => {
    const res = await app.inject({ method: "POST", url: base, payload: { name: "ci", mcp_configs: [{ client_name: "plain", tools_to_execute: ["echo"] }] } });
    expect(res.statusCode).toBe(200);
    const key = res.json().virtual_key;
    expect(key).toMatchObject({ id: "ci", name: "ci", is_active: true });
    expect(key.value).toMatch(/^sk-bf-[A-Za-z0-9_-]{43}$/);
    expect((await execute("plain-echo", { text: "via ci" }, { "x-bf-vk": key.value })).json().content).toBe("via ci");
  });

  it("updates the fields a PUT gives and keeps the others", async () => {
    const res = await app.inject({ method: "PUT", url: `${base}/narrow`, payload: { is_active: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json().virtual_key).toEqual({ ...NARROW, is_active: false });
    expect((await execute("listToolFiles", {}, asNarrow)).statusCode).toBe(401);
  });

  it("deletes a key, which then opens nothing", async () => {
    const res = await app.inject({ method: "DELETE", url: `${base}/narrow` });
    expect(res.json()).toEqual({ virtual_key: NARROW });
    expect(keys.get("narrow")).toBeUndefined();
    expect((await execute("listToolFiles", {}, asNarrow)).statusCode).toBe(401);
  });

  it.each([
    ["POST", base, { name: "narrow", id: "n2", value: "sk-bf-new" }, 409, "name: 'narrow' is already the name of virtual key 'narrow'"],
    ["POST", base, { name: "x", id: "wide" }, 409, "a virtual key with id 'wide' already exists"],
    ["POST", base, { name: "x", value: WIDE.value }, 409, "value: this value is already the value of virtual key 'wide'"],
    ["POST", base, { value: "sk-bf-x" }, 400, "name: Invalid input: expected string, received undefined"],
    ["POST", base, { name: "x", mcp_configs: [{ client_name: "edge", tools_to_execute: ["*", "add"] }] }, 400, "mcp_configs[0].tools_to_execute: '*' must be the only entry when present"],
    ["POST", base, { name: "x", budget: 10 }, 400, "budget: unknown field"],
    ["POST", base, [], 400, "the body must be an object (got [])"],
    ["PUT", `${base}/wide`, { id: "other" }, 400, "id cannot be changed (it is 'wide')"],
    ["PUT", `${base}/wide`, { is_active: "yes" }, 400, "is_active: Invalid input: expected boolean, received string"],
    ["PUT", `${base}/ghost`, { is_active: true }, 404, "no virtual key with id 'ghost'"],
    ["GET", `${base}/ghost`, undefined, 404, "no virtual key with id 'ghost'"],
    ["DELETE", `${base}/ghost`, undefined, 404, "no virtual key with id 'ghost'"],
  ] as const)("answers %s %s %j with %i", async (method, url, payload, status, message) => {
    const res = await app.inject({ method, url, ...(payload !== undefined ? { payload: payload as object } : {}) });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error: { message } });
    expect(keys.list()).toEqual([NARROW, WIDE, OFF]);
  });
});

describe("the admin token", () => {
  const TOKEN = "admin-s3cret";
  let guarded: FastifyInstance;
  beforeAll(async () => {
    guarded = buildServer(gateway, { adminToken: TOKEN });
    await guarded.ready();
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it.each([
    ["no token", {}],
    ["a wrong bearer token", { authorization: "Bearer nope" }],
    ["a wrong x-admin-token", { "x-admin-token": "nope" }],
    ["a virtual key", { "x-bf-vk": WIDE.value }],
  ])("refuses /api/* with %s (401)", async (_what, headers) => {
    for (const url of ["/api/config", "/api/mcp/clients", "/api/governance/virtual-keys", "/api/logs"]) {
      const res = await guarded.inject({ method: "GET", url, headers });
      expect(res.statusCode, url).toBe(401);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="admin"');
      expect(res.json().error.message).toMatch(/^this route needs the admin token/);
    }
  });

  it("refuses an unknown /api route with 401 before 404, so the routes cannot be probed", async () => {
    expect((await guarded.inject({ method: "GET", url: "/api/nothing" })).statusCode).toBe(401);
  });

  it("refuses a write without the token and changes nothing", async () => {
    const res = await guarded.inject({ method: "DELETE", url: "/api/governance/virtual-keys/wide" });
    expect(res.statusCode).toBe(401);
    expect(keys.get("wide")).toBeDefined();
  });

  it("serves /api/* with the token as a bearer token or in x-admin-token", async () => {
    expect((await guarded.inject({ method: "GET", url: "/api/config", headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
    expect((await guarded.inject({ method: "GET", url: "/api/config", headers: { "x-admin-token": TOKEN } })).statusCode).toBe(200);
  });

  it("leaves /health and /v1/* to the virtual keys", async () => {
    expect((await guarded.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
    expect((await execute("plain-echo", { text: "x" }, {}, guarded)).statusCode).toBe(200);
    expect((await execute("plain-add", { a: 1, b: 1 }, asNarrow, guarded)).statusCode).toBe(403);
  });

  it("does not take the admin token for a virtual key: without the key prefix the request is keyless", async () => {
    expect((await execute("plain-echo", { text: "x" }, { authorization: `Bearer ${TOKEN}` }, guarded)).statusCode).toBe(200);
    expect((await execute("plain-add", { a: 1, b: 1 }, { authorization: `Bearer ${TOKEN}`, "x-bf-vk": NARROW.value }, guarded)).statusCode).toBe(403);
  });
});
