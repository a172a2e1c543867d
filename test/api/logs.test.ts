// The execution log: ExecLog's rules (entries, cap, filters, pages, changes) and GET /api/logs
// against a real gateway whose code-mode client "edge" is the edge-case MCP server over stdio.
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { type ExecutionEvent, ExecLog, type LogChange } from "../../src/gateway/exec-log.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { KeyRing } from "../../src/gateway/virtual-keys.js";
import type { SandboxResult } from "../../src/interpreter/execute.js";
import { parseClientConfig } from "../../src/upstream/config.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));

function result(partial: Partial<SandboxResult> = {}): SandboxResult {
  return {
    stdout: "",
    stderr: "",
    result: null,
    returncode: 0,
    duration_seconds: 0.5,
    tool_calls: [],
    error: null,
    stats: { steps: 1, memory_bytes: 0, log_bytes: 0 },
    ...partial,
  };
}

function event(caller: string, partial: Partial<SandboxResult> = {}, code = "pass"): ExecutionEvent {
  return { caller, code, result: result(partial) };
}

const call = (server: string, tool: string, ok = true) => ({ server, tool, arguments: { secret: "arg" }, ok, error: ok ? null : "boom", started_seconds: 0, duration_seconds: 0.1 });
const failure = { type: "ZeroDivisionError", message: "division by zero", line: 3, column: 5, traceback: "...", hints: [] };

describe("ExecLog", () => {
  it("records who ran what, how big and how long, which tools it called and how it ended — not the code or the payloads", () => {
    const log = new ExecLog();
    const entry = log.record(event("team", { duration_seconds: 2, tool_calls: [call("edge", "add"), call("edge", "fail", false)], error: failure }, "print('é')"), Date.parse("2030-01-01T00:00:02Z"));
    expect(entry).toEqual({
      id: 1,
      time: "2030-01-01T00:00:00.000Z",
      key: "team",
      tool: "executeToolCode",
      code_bytes: 11,
      duration_seconds: 2,
      tool_calls: [
        { server: "edge", tool: "add", ok: true, error: null, duration_seconds: 0.1 },
        { server: "edge", tool: "fail", ok: false, error: "boom", duration_seconds: 0.1 },
      ],
      outcome: "error",
      error: { type: "ZeroDivisionError", message: "division by zero", line: 3 },
    });
    expect(JSON.stringify(entry)).not.toContain("secret");
  });

  it("keeps only the newest entries beyond its capacity, and reports the ones it drops", () => {
    const log = new ExecLog(3);
    const changes: LogChange[] = [];
    log.on("change", (c: LogChange) => changes.push(c));
    for (let i = 0; i < 5; i++) log.record(event(`k${i}`));
    expect(log.list().logs.map((e) => e.id)).toEqual([5, 4, 3]);
    expect(changes.filter((c) => c.type === "delete")).toEqual([
      { type: "delete", id: 1 },
      { type: "delete", id: 2 },
    ]);
  });

  it("lists newest first, a page at a time, with the total that matches", () => {
    const log = new ExecLog();
    for (let i = 0; i < 7; i++) log.record(event("k"));
    expect(log.list({ limit: 3 })).toMatchObject({ total: 7, logs: [{ id: 7 }, { id: 6 }, { id: 5 }] });
    expect(log.list({ limit: 3, offset: 6 })).toMatchObject({ total: 7, logs: [{ id: 1 }] });
    expect(log.list({ offset: 7 })).toEqual({ total: 7, logs: [] });
  });

  it("filters by key, outcome and tool (server.tool, a tool name, or the meta-tool)", () => {
    const log = new ExecLog();
    log.record(event("a", { tool_calls: [call("edge", "add")] }));
    log.record(event("b", { tool_calls: [call("other", "add"), call("edge", "echo")], error: failure }));
    log.record(event("a", { error: failure }));
    const ids = (q: Parameters<ExecLog["list"]>[0]) => log.list(q).logs.map((e) => e.id);
    expect(ids({ key: "a" })).toEqual([3, 1]);
    expect(ids({ outcome: "error" })).toEqual([3, 2]);
    expect(ids({ outcome: "ok" })).toEqual([1]);
    expect(ids({ tool: "edge.add" })).toEqual([1]);
    expect(ids({ tool: "add" })).toEqual([2, 1]);
    expect(ids({ tool: "executeToolCode" })).toEqual([3, 2, 1]);
    expect(ids({ key: "a", outcome: "error" })).toEqual([3]);
    expect(log.list({ key: "b", tool: "edge.echo" }).total).toBe(1);
  });

  it("loads entries silently and numbers the next one after them", () => {
    const log = new ExecLog(2);
    const changes: LogChange[] = [];
    log.on("change", (c: LogChange) => changes.push(c));
    const old = new ExecLog().record(event("x"));
    log.load([{ ...old, id: 40 }, { ...old, id: 9 }, { ...old, id: 12 }]);
    expect(changes).toEqual([]);
    expect(log.list().logs.map((e) => e.id)).toEqual([40, 12]);
    expect(log.record(event("y")).id).toBe(41);
  });

  it("puts an entry in its place by id, replacing one with the same id", () => {
    const log = new ExecLog();
    log.record(event("a"));
    log.record(event("b"));
    const first = log.list({ key: "a" }).logs[0]!;
    log.put({ ...first, key: "renamed" });
    expect(log.list().logs.map((e) => [e.id, e.key])).toEqual([
      [2, "b"],
      [1, "renamed"],
    ]);
    expect(log.delete(1)).toBe(true);
    expect(log.delete(1)).toBe(false);
    expect(log.size).toBe(1);
  });

  it("records a gateway's executions while attached", () => {
    const log = new ExecLog();
    const gateway = new Gateway();
    const detach = log.attach(gateway);
    gateway.emit("execution", event("k"));
    detach();
    gateway.emit("execution", event("k"));
    expect(log.size).toBe(1);
  });
});

const TWO_CALLS = "edge.echo(text='a')\nRESULT = edge.add(a=2, b=2)";

describe("GET /api/logs", () => {
  let gateway: Gateway;
  let app: FastifyInstance;
  const log = new ExecLog();

  function run(code: string, key?: string) {
    return app.inject({
      method: "POST",
      url: "/v1/mcp/tool/execute",
      headers: key ? { "x-bf-vk": key } : {},
      payload: { id: "c", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code }) } },
    });
  }

  function logs(query = "") {
    return app.inject({ method: "GET", url: `/api/logs${query}` });
  }

  beforeAll(async () => {
    gateway = new Gateway();
    gateway.addClient(
      parseClientConfig({ name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true }),
    );
    await gateway.manager.settled(15000);
    const grant = [{ client_name: "edge", tools_to_execute: ["*"] }];
    const keys = new KeyRing([
      { id: "alpha", name: "alpha", value: "sk-bf-alpha", is_active: true, mcp_configs: grant },
      { id: "beta", name: "beta", value: "sk-bf-beta", is_active: true, mcp_configs: grant },
    ]);
    app = buildServer(gateway, { keys, log });
    await app.ready();
    // Oldest to newest: ids 1 to 4.
    await run("print('hello')");
    await run("RESULT = edge.add(a=1, b=2)", "sk-bf-alpha");
    await run("x = 1 // 0", "sk-bf-beta");
    await run(TWO_CALLS, "sk-bf-alpha");
  });

  afterAll(async () => {
    await app?.close();
    await gateway?.close();
  });

  it("lists every execution, newest first, with the total", async () => {
    const res = await logs();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(4);
    expect(body.logs.map((e: { key: string }) => e.key)).toEqual(["alpha", "beta", "alpha", "-"]);
    expect(body.logs[0]).toMatchObject({
      tool: "executeToolCode",
      code_bytes: Buffer.byteLength(TWO_CALLS),
      outcome: "ok",
      error: null,
      tool_calls: [
        { server: "edge", tool: "echo", ok: true, error: null },
        { server: "edge", tool: "add", ok: true, error: null },
      ],
    });
    expect(new Date(body.logs[0].time).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("filters by key", async () => {
    const body = (await logs("?key=alpha")).json();
    expect(body.total).toBe(2);
    expect(body.logs.every((e: { key: string }) => e.key === "alpha")).toBe(true);
  });

  it("filters by outcome, and shows the error", async () => {
    const body = (await logs("?outcome=error")).json();
    expect(body.total).toBe(1);
    expect(body.logs[0]).toMatchObject({ key: "beta", outcome: "error", error: { type: "ZeroDivisionError", line: 1 } });
  });

  it("filters by the tool a script called", async () => {
    expect((await logs("?tool=edge.add")).json().total).toBe(2);
    expect((await logs("?tool=echo")).json().total).toBe(1);
    expect((await logs("?tool=edge.hang")).json()).toEqual({ logs: [], total: 0 });
  });

  it("pages with limit and offset", async () => {
    const body = (await logs("?limit=2&offset=1")).json();
    expect(body.total).toBe(4);
    expect(body.logs.map((e: { key: string }) => e.key)).toEqual(["beta", "alpha"]);
  });

  it.each([
    ["?limit=ten", 'querystring.limit must be a whole number (got "ten")'],
    ["?limit=0", "querystring.limit must be from 1 to 1000 (got 0)"],
    ["?limit=1001", "querystring.limit must be from 1 to 1000 (got 1001)"],
    ["?offset=-1", 'querystring.offset must be a whole number (got "-1")'],
    ["?outcome=maybe", 'querystring.outcome must be one of ok, error (got "maybe")'],
    ["?page=2", "querystring.page is not a known field"],
  ])("refuses %s with 400", async (query, message) => {
    const res = await logs(query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { message } });
  });

  it("keeps a log of its own when none is given", async () => {
    const own = buildServer(gateway);
    await own.inject({
      method: "POST",
      url: "/v1/mcp/tool/execute",
      payload: { id: "c", type: "function", function: { name: "executeToolCode", arguments: '{"code": "pass"}' } },
    });
    const res = await own.inject({ method: "GET", url: "/api/logs" });
    await own.close();
    expect(res.json().total).toBeGreaterThanOrEqual(1);
  });

  it("stops recording when the server closes", async () => {
    const other = new ExecLog();
    const closed = buildServer(gateway, { log: other });
    await closed.ready();
    await closed.close();
    await run("pass");
    expect(other.size).toBe(0);
  });
});
