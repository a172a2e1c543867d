// GET /api/overview over HTTP, against a real gateway on 127.0.0.1 whose code-mode client is the
// real memory MCP server over stdio: after known work (scripts that end ok, raise, run out of
// max_steps, and call the server, once failing) the figures are that work's; the route is the
// admin's, and a bad window is refused naming it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import type { OverviewView } from "../../src/api/types.js";
import { ExecLog } from "../../src/gateway/exec-log.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { Store } from "../../src/gateway/store.js";
import { parseClientConfig } from "../../src/upstream/config.js";

const MEMORY = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));
const TOKEN = "admin-token-for-the-overview-test";

let dir: string;
let gateway: Gateway;
let app: FastifyInstance;
let base: string;

const admin = { authorization: `Bearer ${TOKEN}` };

async function get(path: string, headers: Record<string, string> = admin): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, body: await res.json() };
}

async function run(code: string): Promise<string> {
  const res = await fetch(`${base}/v1/mcp/tool/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: "c", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code }) } }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { content: string }).content;
}

async function putLimits(limits: Record<string, number>): Promise<void> {
  const res = await fetch(`${base}/api/config`, {
    method: "PUT",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify({ client_config: { mcp_code_mode_limits: limits } }),
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "overview-api-"));
  gateway = new Gateway();
  gateway.addClient(
    parseClientConfig({
      name: "memory",
      connection_type: "stdio",
      stdio_config: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } },
      tools_to_execute: ["*"],
      is_code_mode_client: true,
    }),
  );
  await gateway.manager.settled(15000);
  app = buildServer(gateway, { adminToken: TOKEN, log: new ExecLog(new Store(join(dir, "gateway.db"))) });
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}, 30_000);

afterAll(async () => {
  await app?.close();
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("GET /api/overview", () => {
  it("is the admin's: refused without the token", async () => {
    expect((await get("/api/overview", {})).status).toBe(401);
  });

  it("says no executions before any ran, and every upstream's state", async () => {
    const { status, body } = await get("/api/overview?minutes=5");
    expect(status).toBe(200);
    const o = body as OverviewView;
    expect(o.executions).toBe(0);
    expect(o.per_minute).toHaveLength(5);
    expect(o.upstreams).toEqual([{ name: "memory", state: "connected", tools: expect.any(Number), error: null }]);
    expect(o.upstreams[0]!.tools).toBeGreaterThan(5);
  });

  it("counts known work: outcomes, the limit hit, calls by server with failures, durations", async () => {
    await run("RESULT = memory.read_graph()");
    await run("memory.create_entities(entities=[{'name': 'a', 'entityType': 't', 'observations': []}])\nRESULT = memory.read_graph()");
    expect(await run("x = 1 // 0")).toContain("ZeroDivisionError");
    expect(await run("try:\n    memory.open_nodes(names=5)\nexcept Exception as e:\n    print(type(e).__name__)\nRESULT = 1")).toContain("1");
    await putLimits({ max_steps: 300 });
    try {
      expect(await run("total = 0\nfor i in range(100000):\n    total += i")).toContain("max_steps");
    } finally {
      await putLimits({});
    }

    const o = (await get("/api/overview")).body as OverviewView;
    expect(o.minutes).toBe(60);
    expect(o.executions).toBe(5);
    const count = (name: string) => o.outcomes.find((x) => x.outcome === name)?.count;
    expect([count("ok"), count("error"), count("max_steps_limit"), count("timeout"), count("cancelled")]).toEqual([3, 1, 1, 0, 0]);
    expect(o.limits).toEqual([{ limit: "max_steps_limit", count: 1 }]);
    const perMinute = o.per_minute.reduce((n, m) => n + Object.values(m.counts).reduce((a, b) => a + b, 0), 0);
    expect(perMinute).toBe(5);
    expect(o.servers).toEqual([{ server: "memory", calls: 4, failures: 1, error_rate: 0.25, mean_seconds: expect.any(Number) }]);
    expect(o.duration.p50_seconds).toBeGreaterThan(0);
    expect(o.duration.p95_seconds).toBeGreaterThanOrEqual(o.duration.p50_seconds!);
  });

  it("refuses a window that is not 1 to 1440 whole minutes, naming the parameter", async () => {
    for (const [query, message] of [
      ["minutes=0", "querystring.minutes must be from 1 to 1440 (got 0)"],
      ["minutes=1441", "querystring.minutes must be from 1 to 1440 (got 1441)"],
      ["minutes=ten", "querystring.minutes must be a whole number"],
      ["hours=1", "querystring"],
    ] as const) {
      const { status, body } = await get(`/api/overview?${query}`);
      expect(status, query).toBe(400);
      expect((body as { error: { message: string } }).error.message, query).toContain(message);
    }
  });
});
