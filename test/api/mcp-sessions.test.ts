// MCP sessions that move (src/api/mcp.ts, mcp-resume.ts): two gateways, each its own Gateway and
// Fastify server on 127.0.0.1 with the same upstream (the edge-case MCP server over stdio), share
// one set of session records, as instances on one store do. A session opened on A continues on B
// with the official SDK client; the key binding, expiry, DELETE and a restart hold there too.
// (The same over PostgreSQL, with three gateway processes, is in test/scale/.)
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { MemorySessionRecords } from "../../src/gateway/mcp-sessions.js";
import type { VirtualKey } from "../../src/gateway/virtual-keys.js";
import { parseClientConfig } from "../../src/upstream/config.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));
const KEYS: VirtualKey[] = ["one", "two"].map((name) => ({
  id: name,
  name,
  value: `sk-bf-${name}`,
  is_active: true,
  mcp_configs: [{ client_name: "edge", tools_to_execute: ["*"] }],
}));

interface Instance {
  gateway: Gateway;
  app: FastifyInstance;
  url: string;
}

async function instance(records: MemorySessionRecords, idleSeconds = 3600): Promise<Instance> {
  const gateway = new Gateway();
  gateway.addClient(parseClientConfig({ name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true }));
  gateway.keys.load(KEYS);
  await gateway.manager.settled(15_000);
  const app = buildServer(gateway, { mcpSessions: records, mcpSessionIdleSeconds: idleSeconds });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { gateway, app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp` };
}

async function stop(i: Instance | undefined): Promise<void> {
  await i?.app.close();
  await i?.gateway.close();
}

/** An SDK client that opens a session on `url`, with `key` as its Bearer token. */
async function client(url: string, key: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  const c = new Client({ name: "mover", version: "1.0.0" });
  await c.connect(transport);
  return { client: c, transport };
}

/** A JSON-RPC request on `sessionId` with plain fetch: the status and the body. */
async function rpc(url: string, sessionId: string, key: string, method: string, params: unknown = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-06-18",
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  return { status: res.status, text: await res.text() };
}

describe("an MCP session on two instances sharing its record", () => {
  const records = new MemorySessionRecords();
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    [a, b] = await Promise.all([instance(records), instance(records)]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
  });

  it("opened on A, lists and calls tools on B", async () => {
    const { client: opened, transport } = await client(a.url, "sk-bf-one");
    const id = transport.sessionId!;
    expect(await records.get(id)).toMatchObject({ id, owner: "key:one", hello: { clientInfo: { name: "mover" } } });
    const list = await rpc(b.url, id, "sk-bf-one", "tools/list");
    expect(list.status).toBe(200);
    expect(list.text).toContain("executeToolCode");
    const call = await rpc(b.url, id, "sk-bf-one", "tools/call", { name: "executeToolCode", arguments: { code: "RESULT = edge.add(a=2, b=3)" } });
    expect(call.status).toBe(200);
    expect(call.text).toContain("5");
    // And back on A, which still holds it.
    expect((await rpc(a.url, id, "sk-bf-one", "tools/list")).status).toBe(200);
    await opened.close();
  });

  it("continues with the SDK client pointed at B", async () => {
    const { client: opened, transport } = await client(a.url, "sk-bf-one");
    const id = transport.sessionId!;
    const moved = new StreamableHTTPClientTransport(new URL(b.url), { sessionId: id, requestInit: { headers: { authorization: "Bearer sk-bf-one" } } });
    const onB = new Client({ name: "mover", version: "1.0.0" });
    // connect() on a transport that has a session id skips initialize (the SDK's own reconnect path).
    await onB.connect(moved);
    const result = await onB.callTool({ name: "executeToolCode", arguments: { code: "RESULT = edge.add(a=20, b=22)" } });
    expect(JSON.stringify(result.content)).toContain("42");
    await onB.close();
    await opened.close();
  });

  it("refuses the session to another key on B, and an unknown id", async () => {
    const { client: opened, transport } = await client(a.url, "sk-bf-one");
    const id = transport.sessionId!;
    const other = await rpc(b.url, id, "sk-bf-two", "tools/list");
    expect(other.status).toBe(403);
    expect(other.text).toContain("different virtual key");
    const unknown = await rpc(b.url, "00000000-0000-4000-8000-000000000000", "sk-bf-one", "tools/list");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("unknown or expired MCP session; initialize a new one");
    await opened.close();
  });

  it("ends the session everywhere on a DELETE to B", async () => {
    const { client: opened, transport } = await client(a.url, "sk-bf-one");
    const id = transport.sessionId!;
    expect((await rpc(b.url, id, "sk-bf-one", "tools/list")).status).toBe(200);
    const del = await fetch(b.url, { method: "DELETE", headers: { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18", authorization: "Bearer sk-bf-one" } });
    expect(del.status).toBe(200);
    expect(await records.get(id)).toBeNull();
    expect((await rpc(b.url, id, "sk-bf-one", "tools/list")).status).toBe(404);
    // A still holds its copy; it learns of the DELETE at its next look at the record (at most a second).
    await new Promise((r) => setTimeout(r, 1100));
    expect((await rpc(a.url, id, "sk-bf-one", "tools/list")).status).toBe(404);
    await opened.close();
  });
});

describe("an MCP session's record", () => {
  it("outlives a restart of the gateway", async () => {
    const records = new MemorySessionRecords();
    let first: Instance | undefined = await instance(records);
    let second: Instance | undefined;
    try {
      const { client: opened, transport } = await client(first.url, "sk-bf-two");
      const id = transport.sessionId!;
      // The process goes away with the client's event stream open.
      void opened.close().catch(() => undefined);
      await stop(first);
      first = undefined;
      second = await instance(records);
      const call = await rpc(second.url, id, "sk-bf-two", "tools/call", { name: "executeToolCode", arguments: { code: "RESULT = edge.add(a=1, b=1)" } });
      expect(call.status).toBe(200);
      expect(call.text).toContain("2");
    } finally {
      await stop(first);
      await stop(second);
    }
  }, 30_000);

  it("expires after mcp_session_idle_seconds unused, on any instance", async () => {
    const records = new MemorySessionRecords();
    const [a, b] = await Promise.all([instance(records, 1), instance(records, 1)]);
    try {
      const { transport } = await client(a.url, "sk-bf-one");
      const id = transport.sessionId!;
      await transport.close();
      await new Promise((r) => setTimeout(r, 1300));
      const late = await rpc(b.url, id, "sk-bf-one", "tools/list");
      expect(late.status).toBe(404);
      expect(await records.get(id)).toBeNull();
    } finally {
      await Promise.all([stop(a), stop(b)]);
    }
  }, 30_000);
});
