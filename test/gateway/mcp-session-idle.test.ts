// MCP sessions that no request uses for server.mcp_session_idle_seconds are closed (their
// transport too: the session map forgets a session only when its transport closes), and their id
// is then an unknown session (404); a session in use stays. A GET or DELETE with no session id at
// all is a 400.
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { Gateway } from "../../src/gateway/gateway.js";

let gateway: Gateway;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  gateway = new Gateway();
  app = buildServer(gateway, { mcpSessionIdleSeconds: 1 });
  await app.listen({ host: "127.0.0.1", port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await app?.close();
  await gateway?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function listTools(sessionId: string) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: {} }),
  });
}

it("closes a session idle for mcp_session_idle_seconds, and keeps one in use", async () => {
  const idle = new StreamableHTTPClientTransport(new URL(url));
  const idleClient = new Client({ name: "idle", version: "1" });
  await idleClient.connect(idle);
  const busy = new Client({ name: "busy", version: "1" });
  const busyTransport = new StreamableHTTPClientTransport(new URL(url));
  await busy.connect(busyTransport);
  const idleId = idle.sessionId!;
  expect(idleId).toMatch(/^[0-9a-f-]{36}$/);
  expect((await listTools(idleId)).status).toBe(200);
  // The SDK client keeps a GET event stream open, which counts as use: the client goes away
  // without ending its session (no DELETE), as a killed one would.
  await idle.close();
  // The busy session makes a request every 300 ms for 3 s; the idle one makes none.
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    expect(Array.isArray((await busy.listTools()).tools)).toBe(true);
    await sleep(300);
  }
  const res = await listTools(idleId);
  expect(res.status).toBe(404);
  expect(((await res.json()) as { error: { message: string } }).error.message).toBe("unknown or expired MCP session; initialize a new one");
  expect(Array.isArray((await busy.listTools()).tools)).toBe(true);
  await busy.close();
});

it("answers a GET or DELETE that names no session with 400, saying how a session starts", async () => {
  for (const method of ["GET", "DELETE"]) {
    const res = await fetch(url, { method, headers: { accept: "application/json, text/event-stream" } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toBe("no MCP session id: initialize a session first (POST an initialize request)");
  }
});
