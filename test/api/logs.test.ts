// The execution log: ExecLog's rules (entries, cap, filters, pages, changes) and GET /api/logs
// against a real gateway whose code-mode client "edge" is the edge-case MCP server over stdio.
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { type ExecutionEvent, ExecLog } from "../../src/gateway/exec-log.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { Store } from "../../src/gateway/store.js";
import type { SandboxResult } from "../../src/interpreter/execute.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { loadSlack } from "../interpreter/stall.js";

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

describe("ExecLog", async () => {
  it("records who ran what, how big and how long, which tools it called and how it ended — not the code or the payloads", async () => {
    const log = new ExecLog();
    const entry = await log.record(event("team", { duration_seconds: 2, tool_calls: [call("edge", "add"), call("edge", "fail", false)], error: failure }, "print('é')"), Date.parse("2030-01-01T00:00:02Z"));
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
    // What it recorded is the store's entry, as a page shows it.
    expect((await log.list()).logs).toEqual([entry]);
  });

  it("keeps its entries in the store it is given", async () => {
    const store = new Store(":memory:");
    const log = new ExecLog(store);
    await Promise.all([log.record(event("a")), log.record(event("b"))]);
    expect(store.queryLogs().logs.map((e) => e.key)).toEqual(["b", "a"]);
    expect((await new ExecLog(store).list({ key: "a" })).total).toBe(1);
    store.close();
  });

  it("writes the entries of one turn in one call, after it, and lists them once written", async () => {
    const store = new Store(":memory:");
    const batches: number[] = [];
    const appendLogs = store.appendLogs.bind(store);
    store.appendLogs = (entries) => {
      batches.push(entries.length);
      return appendLogs(entries);
    };
    const log = new ExecLog(store);
    const recorded = ["a", "b", "c"].map((k) => log.record(event(k)));
    // Not yet: the turn that recorded them goes on first.
    expect(store.queryLogs().total).toBe(0);
    expect((await log.list()).logs.map((e) => e.key)).toEqual(["c", "b", "a"]);
    expect((await Promise.all(recorded)).map((e) => e?.id)).toEqual([1, 2, 3]);
    await log.record(event("d"));
    expect(batches).toEqual([3, 1]);
    // A busy turn's entries go 500 a write, a turn apart.
    await Promise.all(Array.from({ length: 1200 }, (_, i) => log.record(event(`k${i}`))));
    expect(batches.slice(2)).toEqual([500, 500, 200]);
    expect((await log.list({ limit: 1 })).total).toBe(1204);
    store.close();
  });

  it("settles once what it recorded is in the store, however slow the store (the gateway waits so before closing it)", async () => {
    const store = new Store(":memory:");
    const appendLogs = store.appendLogs.bind(store);
    const slow = Object.assign(Object.create(store) as Store, {
      appendLogs: (entries: Parameters<Store["appendLogs"]>[0]) => new Promise<ReturnType<Store["appendLogs"]>>((resolve) => setTimeout(() => resolve(appendLogs(entries)), 50)),
    });
    const log = new ExecLog(slow);
    void log.record(event("a"));
    await new Promise((r) => setImmediate(r));
    void log.record(event("b"));
    await log.settled();
    expect(store.queryLogs().logs.map((e) => e.key)).toEqual(["b", "a"]);
    store.close();
  });

  it("writes one by one when a batch is refused, so one bad entry costs only itself", async () => {
    const store = new Store(":memory:");
    const appendLogs = store.appendLogs.bind(store);
    store.appendLogs = () => {
      throw new Error("disk full");
    };
    const failures: string[] = [];
    let calls = 0;
    store.appendLog = (entry) => {
      if (++calls === 2) throw new Error("this one");
      return appendLogs([entry])[0]!;
    };
    const log = new ExecLog(store, (e) => failures.push(e.message));
    const saved = await Promise.all(["a", "b", "c"].map((k) => log.record(event(k))));
    expect(saved.map((e) => e?.key ?? null)).toEqual(["a", null, "c"]);
    expect(failures).toEqual(["this one"]);
    store.close();
  });

  it("lists newest first, a page at a time, with the total that matches", async () => {
    const log = new ExecLog();
    for (let i = 0; i < 7; i++) log.record(event("k"), Date.parse("2030-01-01T00:00:00Z") + i * 1000);
    expect(await log.list({ limit: 3 })).toMatchObject({ total: 7, logs: [{ id: 7 }, { id: 6 }, { id: 5 }] });
    expect(await log.list({ limit: 3, offset: 6 })).toMatchObject({ total: 7, logs: [{ id: 1 }] });
    expect(await log.list({ offset: 7 })).toEqual({ total: 7, logs: [] });
  });

  it("filters by key, outcome and tool (server.tool, a tool name, or the meta-tool)", async () => {
    const log = new ExecLog();
    const t0 = Date.parse("2030-01-01T00:00:00Z");
    log.record(event("a", { tool_calls: [call("edge", "add")] }), t0);
    log.record(event("b", { tool_calls: [call("other", "add"), call("edge", "echo")], error: failure }), t0 + 1000);
    log.record(event("a", { error: failure }), t0 + 2000);
    const ids = async (q: Parameters<ExecLog["list"]>[0]) => (await log.list(q)).logs.map((e) => e.id);
    expect(await ids({ key: "a" })).toEqual([3, 1]);
    expect(await ids({ outcome: "error" })).toEqual([3, 2]);
    expect(await ids({ outcome: "ok" })).toEqual([1]);
    expect(await ids({ tool: "edge.add" })).toEqual([1]);
    expect(await ids({ tool: "add" })).toEqual([2, 1]);
    expect(await ids({ tool: "executeToolCode" })).toEqual([3, 2, 1]);
    expect(await ids({ key: "a", outcome: "error" })).toEqual([3]);
    expect((await log.list({ key: "b", tool: "edge.echo" })).total).toBe(1);
  });

  it("reports an entry the store cannot take, and never throws into the execution", async () => {
    const store = new Store(":memory:");
    const failures: string[] = [];
    const log = new ExecLog(store, (e) => failures.push(e.message));
    store.close();
    expect(await log.record(event("k"))).toBeNull();
    expect(failures).toEqual([expect.stringMatching(/database connection is not open/)]);
  });

  it("records a gateway's executions while attached", async () => {
    const log = new ExecLog();
    const gateway = new Gateway();
    const detach = log.attach(gateway);
    gateway.emit("execution", event("k"));
    detach();
    gateway.emit("execution", event("k"));
    expect((await log.list()).total).toBe(1);
  });
});

/** The longest the event loop went without turning while `run` ran. */
async function stallOf(run: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await run();
  await new Promise((resolve) => setTimeout(resolve, 3));
  clearInterval(timer);
  return Math.max(longest, performance.now() - last);
}

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
    gateway.keys.load([
      { id: "alpha", name: "alpha", value: "sk-bf-alpha", is_active: true, mcp_configs: grant },
      { id: "beta", name: "beta", value: "sk-bf-beta", is_active: true, mcp_configs: grant },
    ]);
    app = buildServer(gateway, { log });
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

  it("pages the store itself, past the newest 1,000 entries, a full page holding the event loop briefly", async () => {
    const store = new Store(":memory:");
    const t0 = Date.parse("2030-01-01T00:00:00Z");
    const calls = [call("edge", "add"), call("edge", "echo")];
    const deep = new ExecLog(store);
    for (let i = 0; i < 3000; i++) deep.record(event(i % 3 ? "alpha" : "beta", { tool_calls: i % 2 ? calls : [] }), t0 + i * 1000);
    const paged = buildServer(gateway, { log: deep });
    try {
      const page = async (query: string) => (await paged.inject({ method: "GET", url: `/api/logs${query}` })).json();
      const body = await page("?limit=500&offset=1900");
      expect(body.total).toBe(3000);
      expect(body.logs).toHaveLength(500);
      expect([body.logs[0].id, body.logs.at(-1).id]).toEqual([1100, 601]);
      const filtered = await page("?tool=edge.echo&key=beta&offset=400&limit=5");
      expect(filtered.total).toBe(500);
      expect(filtered.logs.map((e: { id: number }) => e.id)).toEqual([598, 592, 586, 580, 574]);
      // The longest stall of a full page, read from the store, checked and serialized: the best of five (warm).
      const stalls: number[] = [];
      for (let round = 0; round < 5; round++) stalls.push(await stallOf(() => page("?limit=500&offset=2400")));
      if (process.env.LOG_STALLS) console.log("stalls of a full page (ms):", stalls.map((ms) => ms.toFixed(1)).join(" "));
      expect(Math.min(...stalls)).toBeLessThan(20 * loadSlack());
    } finally {
      await paged.close();
      store.close();
    }
  });

  it.each([
    ["?limit=ten", 'querystring.limit must be a whole number (got "ten")'],
    ["?limit=0", "querystring.limit must be from 1 to 500 (got 0)"],
    ["?limit=501", "querystring.limit must be from 1 to 500 (got 501)"],
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
    expect((await other.list()).total).toBe(0);
  });
});
