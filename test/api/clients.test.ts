// Client CRUD over the HTTP API against a real gateway: every client is the edge-case MCP server
// over stdio, and a stdio child is found by an environment variable only it carries.
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { KeyRing } from "../../src/gateway/virtual-keys.js";
import { UNRESTRICTED } from "../../src/gateway/caller.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { processesMarked } from "../fixtures/marked-processes.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));

let gateway: Gateway;
let app: FastifyInstance;
const keys = new KeyRing();

beforeAll(async () => {
  gateway = new Gateway(undefined, keys);
  // These tests add stdio clients without an admin token; stdio-clients.test.ts shows the refusal.
  app = buildServer(gateway, { allowUnauthenticatedStdio: true });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await gateway?.close();
});

// Each test adds its own clients; none outlives it.
afterEach(async () => {
  await Promise.all(gateway.clientConfigs().map((c) => gateway.deleteClient(c.name)));
});

/** A client config for the edge server; `mark` goes into its environment to find its process. */
function edgeConfig(name: string, extra: Record<string, unknown> = {}, mark = randomUUID()) {
  return {
    name,
    connection_type: "stdio",
    stdio_config: { command: process.execPath, args: [EDGE], env: { EDGE_MARK: mark } },
    tools_to_execute: ["*"],
    is_code_mode_client: true,
    ...extra,
  };
}

function post(body: unknown) {
  return app.inject({ method: "POST", url: "/api/mcp/client", payload: body as object });
}

function put(id: string, body: unknown) {
  return app.inject({ method: "PUT", url: `/api/mcp/client/${id}`, payload: body as object });
}

async function listed(id: string) {
  const res = await app.inject({ method: "GET", url: "/api/mcp/clients" });
  return (res.json().clients as { id: string; state: string; tools: string[] }[]).find((c) => c.id === id);
}

async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const connected = (id: string) => until(`${id} to connect`, async () => (await listed(id))?.state === "connected");

describe("POST /api/mcp/client", () => {
  it("adds a client and answers at once, while it is still connecting", async () => {
    const res = await post(edgeConfig("fresh"));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: "fresh", name: "fresh", connection_type: "stdio", state: "connecting", tools: [] });
    expect(res.json().stdio_config).toEqual({ command: process.execPath, args: [EDGE], env_keys: ["EDGE_MARK"] });
    await connected("fresh");
    expect((await listed("fresh"))!.tools).toEqual(expect.arrayContaining(["echo", "add"]));
  });

  it("answers a disabled client as disabled, and starts nothing", async () => {
    const mark = randomUUID();
    const res = await post(edgeConfig("idle", { disabled: true }, mark));
    expect(res.json().state).toBe("disabled");
    expect(processesMarked(mark)).toEqual([]);
  });

  it.each([
    ["a hyphenated name", edgeConfig("my-server"), /^name: 'my-server' is not a valid client name.*use 'my_server'/],
    ["a stdio client without stdio_config", { name: "x", connection_type: "stdio" }, /^stdio_config: a stdio client needs stdio_config/],
    ["an http client without a URL", { name: "x", connection_type: "http" }, /^connection_string: an http client needs connection_string/],
    ["an empty command", { name: "x", connection_type: "stdio", stdio_config: { command: "" } }, /^stdio_config\.command: stdio_config\.command must not be empty/],
    ["'*' with other tools", edgeConfig("x", { tools_to_execute: ["*", "echo"] }), /^tools_to_execute: '\*' must be the only entry/],
    ["auto-execution beyond execution", edgeConfig("x", { tools_to_execute: ["echo"], tools_to_auto_execute: ["add"] }), /^tools_to_auto_execute: must be a subset of tools_to_execute; not in it: add$/],
    ["a field it does not know", edgeConfig("x", { tools_to_exec: ["*"] }), /^tools_to_exec: unknown field \(did you mean tools_to_execute\?\)$/],
    ["a nested field it does not know", { name: "x", connection_type: "stdio", stdio_config: { command: "node", env_keys: [] } }, /^stdio_config\.env_keys: unknown field \(the fields here are command, args, env, cwd\)$/],
    ["a wrong type", edgeConfig("x", { disabled: "no" }), /^disabled: /],
    ["a body that is not an object", [edgeConfig("x")], /^the body must be an object/],
  ])("refuses %s with 400 naming the field", async (_what, body, message) => {
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(message);
    expect(gateway.clientConfigs()).toEqual([]);
  });

  it("refuses a name that exists, in any case, with 409", async () => {
    expect((await post(edgeConfig("dup", { disabled: true }))).statusCode).toBe(200);
    const res = await post(edgeConfig("DUP", { disabled: true }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { message: "a client named 'dup' already exists" } });
  });

  it("refuses a client_id that is another client's name with 409", async () => {
    await post(edgeConfig("first", { disabled: true }));
    const res = await post(edgeConfig("second", { client_id: "first", disabled: true }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe("'first' is already the name or id of client 'first'");
  });
});

describe("PUT /api/mcp/client/{id}", () => {
  it("updates tools_to_execute in place and reconnects", async () => {
    await post(edgeConfig("tuned"));
    await connected("tuned");
    const res = await put("tuned", { tools_to_execute: ["echo"] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: "tuned", tools_to_execute: ["echo"], is_code_mode_client: true });
    expect(gateway.permitted(UNRESTRICTED, "tuned", "echo")).toBe(true);
    expect(gateway.permitted(UNRESTRICTED, "tuned", "add")).toBe(false);
    await connected("tuned");
  });

  it("finds a client by its client_id", async () => {
    await post(edgeConfig("named", { client_id: "c-17", disabled: true }));
    const res = await put("c-17", { tools_to_execute: [] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: "c-17", name: "named", tools_to_execute: [] });
  });

  it("takes back the client's own view, as a read-modify-write sends it", async () => {
    await post(edgeConfig("roundtrip"));
    await connected("roundtrip");
    const current = await listed("roundtrip");
    const res = await put("roundtrip", { ...current, tools_to_auto_execute: ["echo"] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tools_to_auto_execute: ["echo"], stdio_config: { env_keys: ["EDGE_MARK"] } });
    // The environment's values, which the view never shows, are kept.
    expect(gateway.clientConfigs()[0]!.stdio_config!.env.EDGE_MARK).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ["connection_type", { connection_type: "http" }],
    ["connection_string", { connection_string: "http://127.0.0.1:9/mcp" }],
    ["stdio_config", { stdio_config: { command: "/bin/other", args: [EDGE] } }],
    ["stdio_config", { stdio_config: { command: process.execPath, args: [EDGE, "--http", "0"] } }],
    ["stdio_config", { stdio_config: { command: process.execPath, args: [EDGE], env: { EDGE_MARK: "another" } } }],
  ])("refuses to change %s with 400 saying it is fixed", async (field, change) => {
    await post(edgeConfig("fixed", { disabled: true }));
    const res = await put("fixed", change);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(new RegExp(`^${field} cannot be changed: .*delete the client and add it again$`));
    expect(gateway.clientConfigs()[0]!.stdio_config!.args).toEqual([EDGE]);
  });

  it("refuses to change client_id", async () => {
    await post(edgeConfig("stable", { disabled: true }));
    const res = await put("stable", { client_id: "other" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe("client_id cannot be changed (it is 'stable')");
  });

  it("refuses an invalid update with 400 naming the field, and keeps the client as it was", async () => {
    await post(edgeConfig("kept", { disabled: true }));
    const res = await put("kept", { tools_to_execute: ["echo", "echo"] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe("tools_to_execute: 'echo' is listed twice");
    expect(gateway.clientConfigs()[0]!.tools_to_execute).toEqual(["*"]);
  });

  it("renames a client, unless another has the name", async () => {
    await post(edgeConfig("old_name", { disabled: true }));
    await post(edgeConfig("taken", { disabled: true }));
    expect((await put("old_name", { name: "Taken" })).statusCode).toBe(409);
    const res = await put("old_name", { name: "new_name" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: "new_name", name: "new_name" });
    expect(gateway.clientConfigs().map((c) => c.name).sort()).toEqual(["new_name", "taken"]);
  });
});

describe("DELETE /api/mcp/client/{id}", () => {
  it("removes the client and terminates its stdio child", async () => {
    const mark = randomUUID();
    await post(edgeConfig("doomed", {}, mark));
    await connected("doomed");
    expect(processesMarked(mark)).toHaveLength(1);
    const res = await app.inject({ method: "DELETE", url: "/api/mcp/client/doomed" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: "doomed", state: "closed" });
    expect(gateway.manager.get("doomed")).toBeUndefined();
    expect(gateway.clientConfigs()).toEqual([]);
    await until("the child to exit", () => processesMarked(mark).length === 0, 5000);
  });
});

describe("virtual keys' grants", () => {
  it("follow a renamed client and go with a deleted one, so a new client of the old name inherits nothing", async () => {
    keys.load([
      { id: "k", name: "k", value: "sk-k", is_active: true, mcp_configs: [{ client_name: "old", tools_to_execute: ["echo"] }, { client_name: "other", tools_to_execute: ["*"] }] },
      // A stale grant naming the client's new name gives way to the moved one.
      { id: "s", name: "s", value: "sk-s", is_active: true, mcp_configs: [{ client_name: "new", tools_to_execute: ["add"] }, { client_name: "old", tools_to_execute: ["echo"] }] },
    ]);
    await post(edgeConfig("old", { disabled: true }));
    expect((await put("old", { name: "new" })).statusCode).toBe(200);
    expect(keys.get("k")!.mcp_configs).toEqual([{ client_name: "new", tools_to_execute: ["echo"] }, { client_name: "other", tools_to_execute: ["*"] }]);
    expect(keys.get("s")!.mcp_configs).toEqual([{ client_name: "new", tools_to_execute: ["echo"] }]);
    expect((await app.inject({ method: "DELETE", url: "/api/mcp/client/new" })).statusCode).toBe(200);
    expect(keys.get("k")!.mcp_configs).toEqual([{ client_name: "other", tools_to_execute: ["*"] }]);
    expect(keys.get("s")!.mcp_configs).toEqual([]);
  });
});

describe("POST /api/mcp/client/{id}/reconnect", () => {
  it("replaces the connection with a new one of the same config", async () => {
    const mark = randomUUID();
    await post(edgeConfig("flaky", {}, mark));
    await connected("flaky");
    const [before] = processesMarked(mark);
    const res = await app.inject({ method: "POST", url: "/api/mcp/client/flaky/reconnect" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: "flaky", state: "connecting" });
    await connected("flaky");
    const after = await until("one child again", () => {
      const pids = processesMarked(mark);
      return pids.length === 1 && pids[0] !== before ? pids : null;
    });
    expect(after).not.toContain(before);
  });
});

describe("unknown clients", () => {
  it.each([
    ["PUT", "/api/mcp/client/ghost", { tools_to_execute: [] }],
    ["DELETE", "/api/mcp/client/ghost", undefined],
    ["POST", "/api/mcp/client/ghost/reconnect", undefined],
  ] as const)("answers %s %s with 404", async (method, url, payload) => {
    const res = await app.inject({ method, url, ...(payload ? { payload } : {}) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { message: "no client with id 'ghost'" } });
  });
});
