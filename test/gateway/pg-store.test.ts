// The PostgreSQL store (gateway/pg-store.ts) on a real server (Debian's PostgreSQL, started by
// test/fixtures/postgres.ts): every operation gives what the SQLite store gives for the same
// writes, run side by side; migrations run once however many instances start together; a
// change notes the channel only once committed, and an instance never hears its own notes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Shape } from "../../src/codemode/shape.js";
import { ChangeFeed, CHANGE_CHANNEL, type StoreChange } from "../../src/gateway/change-feed.js";
import { PG_SCHEMA_VERSION } from "../../src/gateway/pg-migrations.js";
import { PgStore } from "../../src/gateway/pg-store.js";
import type { StateStore } from "../../src/gateway/state-store.js";
import { type NewLogEntry, Store, StoreError, type StoredSettings, type VirtualKey } from "../../src/gateway/store.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { type ClientConfig, parseClientConfig } from "../../src/upstream/config.js";
import { type RunningPostgres, startPostgres } from "../fixtures/postgres.js";

let server: RunningPostgres;
let databases = 0;
const opened: { close(): unknown }[] = [];
let dir: string;

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

afterEach(async () => {
  for (const s of opened.splice(0).reverse()) await s.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function freshUrl(): Promise<string> {
  return server.createDatabase(`t${++databases}`);
}

async function pgStore(url?: string, options: { maxLogRows?: number; instance?: string } = {}): Promise<PgStore> {
  const store = await PgStore.open({ url: url ?? (await freshUrl()), ...options });
  opened.push(store);
  return store;
}

function sqliteStore(options: { maxLogRows?: number } = {}): Store {
  dir = mkdtempSync(join(tmpdir(), "pg-store-test-"));
  const store = new Store(join(dir, "gateway.db"), options);
  opened.push(store);
  return store;
}

/** Runs `fn` on both stores and answers both outcomes (a value, or the error's class and message). */
async function both<T>(stores: readonly StateStore[], fn: (s: StateStore) => T | Promise<T>): Promise<unknown[]> {
  const outcomes: unknown[] = [];
  for (const s of stores) {
    try {
      outcomes.push({ value: await fn(s) });
    } catch (e) {
      outcomes.push({ error: (e as Error).constructor.name });
    }
  }
  return outcomes;
}

function client(name: string, extra: Record<string, unknown> = {}): ClientConfig {
  return parseClientConfig({ name, connection_type: "stdio", stdio_config: { command: "node", args: [`${name}.js`] }, ...extra });
}

function key(id: string, value: string, extra: Partial<VirtualKey> = {}): VirtualKey {
  return { id, name: `key ${id}`, value, is_active: true, mcp_configs: [{ client_name: "fs", tools_to_execute: ["read_file"] }], ...extra };
}

const settings: StoredSettings = {
  limits: { ...DEFAULT_LIMITS, max_steps: 5000 },
  bindingLevel: "tool",
  instructionsLimit: 100,
  directInstructionsLimit: 200,
  maxAgentDepth: 3,
};

/** The ISO time `s` seconds after a fixed start. */
function at(s: number): string {
  return new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
}

function log(i: number): NewLogEntry {
  const failed = i % 3 === 0;
  return {
    time: at(i * 17),
    key: i % 2 ? "alpha" : "-",
    tool: i % 4 ? "executeToolCode" : "fs.read_file",
    code_bytes: 10 + i,
    duration_seconds: ((i * 7919) % 1000) / 100,
    tool_calls: Array.from({ length: i % 3 }, (_, c) => ({
      server: c ? "github" : "fs",
      tool: c ? "search_repos" : "read_file",
      ok: !failed,
      error: failed ? "boom" : null,
      duration_seconds: c / 10,
    })),
    outcome: failed ? "error" : "ok",
    error: failed ? { type: i % 2 ? "ResourceLimitError" : "ValueError", message: i % 2 ? "max_steps exceeded (limit 10)" : "boom", line: 1 } : null,
  };
}

describe("the PostgreSQL store, side by side with SQLite", () => {
  it("keeps clients in order, renames in place, refuses case clashes and names what is wrong", async () => {
    const stores = [sqliteStore(), await pgStore()];
    for (const s of stores) {
      await s.putClient(client("fs"));
      await s.putClient(client("github"));
      await s.putClient(client("mem"));
      await s.putClient(client("fs", { tools_to_execute: ["read_file"] }));
      await s.putClient(client("gh"), "github");
    }
    expect(await both(stores, (s) => s.listClients())).toEqual(Array(2).fill({ value: [client("fs", { tools_to_execute: ["read_file"] }), client("gh"), client("mem")] }));
    expect(await both(stores, (s) => s.putClient(client("FS")))).toEqual(Array(2).fill({ error: "StoreError" }));
    expect(await both(stores, (s) => s.putClient(client("x"), "nobody"))).toEqual(Array(2).fill({ error: "StoreError" }));
    expect(await both(stores, (s) => s.deleteClient("mem"))).toEqual(Array(2).fill({ value: true }));
    expect(await both(stores, (s) => s.deleteClient("mem"))).toEqual(Array(2).fill({ value: false }));
    const clash = await (stores[1] as PgStore).putClient(client("FS")).catch((e: Error) => e.message);
    expect(clash).toBe("clients row 'fs': cannot add 'FS': client 'fs' already has that name");
  });

  it("keeps settings and virtual keys, refusing a value another key has", async () => {
    const stores = [sqliteStore(), await pgStore()];
    expect(await both(stores, (s) => s.getSettings())).toEqual(Array(2).fill({ value: null }));
    expect(await both(stores, (s) => s.isEmpty())).toEqual(Array(2).fill({ value: true }));
    for (const s of stores) {
      await s.putSettings(settings);
      await s.putKey(key("a", "sk-a"));
      await s.putKey(key("b", "sk-b"));
      await s.putKey(key("a", "sk-a2", { is_active: false }));
    }
    expect(await both(stores, (s) => s.getSettings())).toEqual(Array(2).fill({ value: settings }));
    expect(await both(stores, (s) => s.listKeys())).toEqual(Array(2).fill({ value: [key("a", "sk-a2", { is_active: false }), key("b", "sk-b")] }));
    expect(await both(stores, (s) => s.putKey(key("c", "sk-b")))).toEqual(Array(2).fill({ error: "StoreError" }));
    expect(await both(stores, (s) => s.deleteKey("a"))).toEqual(Array(2).fill({ value: true }));
    expect(await both(stores, (s) => s.isEmpty())).toEqual(Array(2).fill({ value: false }));
  });

  it("pages, filters and trims the log, and counts it for the overview, as SQLite does", async () => {
    const stores = [sqliteStore({ maxLogRows: 150 }), await pgStore(undefined, { maxLogRows: 150 })];
    for (let i = 1; i <= 200; i++) for (const s of stores) await s.appendLog(log(i));
    const queries = [
      {},
      { limit: 7, offset: 3 },
      { limit: 500, offset: 140 },
      { offset: 1000 },
      { key: "alpha", outcome: "error" as const },
      { tool: "fs.read_file" },
      { tool: "search_repos", limit: 10 },
      { tool: "github.search_repos", since: at(2000) },
      { since: at(3000), outcome: "ok" as const },
    ];
    for (const q of queries) {
      const [a, b] = await both(stores, async (s) => {
        const page = await s.queryLogs(q);
        // Ids are each store's own; the entries and the total are what must agree.
        return { total: page.total, logs: page.logs.map(({ id: _id, ...entry }) => entry) };
      });
      expect(b, JSON.stringify(q)).toEqual(a);
    }
    expect(((await stores[1]!.queryLogs({ limit: 1 })) as { total: number }).total).toBe(150);
    expect(await both(stores, (s) => s.queryLogs({ limit: 0 }))).toEqual(Array(2).fill({ error: "StoreError" }));

    const since = at(1000);
    const [ea, eb] = await both(stores, (s) => s.endingsPerMinute(since));
    expect(eb).toEqual(ea);
    expect((ea as { value: unknown[] }).value.length).toBeGreaterThan(10);
    for (const rank of [1, 40, 75, 150]) {
      const [da, db] = await both(stores, (s) => s.durationAt(since, at(5000), rank));
      expect(db).toEqual(da);
    }
    // Paged sums: the pages differ (ids), the totals per server do not.
    const totals = async (s: StateStore) => {
      const sum = new Map<string, number[]>();
      let after = null;
      do {
        const page: Awaited<ReturnType<StateStore["callsByServer"]>> = await s.callsByServer(since, after, 13);
        for (const row of page.servers) {
          const t = sum.get(row.server) ?? [0, 0, 0];
          sum.set(row.server, [t[0]! + row.calls, t[1]! + row.failures, Math.round((t[2]! + row.seconds) * 1000) / 1000]);
        }
        after = page.next;
      } while (after !== null);
      return Object.fromEntries([...sum].sort());
    };
    const [ta, tb] = await both(stores, totals);
    expect(tb).toEqual(ta);
    expect(Object.keys((ta as { value: object }).value)).toEqual(["fs", "github"]);
  });

  it("writes a burst of log entries in batches, each answered with its own id, trimmed to the newest", async () => {
    const s = await pgStore(undefined, { maxLogRows: 1000 });
    const answered = await Promise.all(Array.from({ length: 1200 }, (_, i) => s.appendLog(log(i + 1))));
    const ids = answered.map((e) => e.id);
    // Appended in order, numbered in order, each entry its own.
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(1200);
    expect(answered.map((e) => e.code_bytes)).toEqual(Array.from({ length: 1200 }, (_, i) => 11 + i));
    const page = await s.queryLogs({ limit: 500 });
    expect(page.total).toBe(1000);
    expect(page.logs[0]!.id).toBe(ids[1199]);
    // The oldest 200 went, with their calls.
    const all = await s.callsByServer(at(0), null, 100_000);
    const calls = all.servers.reduce((n, row) => n + row.calls, 0);
    expect(calls).toBe(Array.from({ length: 1000 }, (_, i) => (i + 201) % 3).reduce((n, c) => n + c, 0));
  });

  it("keeps observed shapes and moves them with a renamed client", async () => {
    const stores = [sqliteStore(), await pgStore()];
    const shape: Shape = { types: ["dict"], dicts: 1, keys: [{ name: "name", count: 1, shape: { types: ["str"] } }] };
    for (const s of stores) {
      await s.putShape("fs", "read_file", shape);
      await s.putShape("fs", "list_dir", shape);
      await s.putShape("gh", "search", shape);
      await s.moveShapes("fs", "files");
    }
    const listed = await both(stores, (s) => s.listShapes());
    expect(listed[1]).toEqual(listed[0]);
    expect((listed[0] as { value: { server: string; tool: string }[] }).value.map((t) => `${t.server}.${t.tool}`)).toEqual(["files.list_dir", "files.read_file", "gh.search"]);
    expect(await both(stores, (s) => s.deleteShapes("files"))).toEqual(Array(2).fill({ value: 2 }));
  });

  it("keeps MCP session records: touch moves forward only and says whether the record is there", async () => {
    const s = await pgStore();
    const record = { id: "sess-1", owner: "key:a", host: "127.0.0.1:1", hello: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } }, lastUsed: 1000 };
    await s.sessions.put(record);
    expect(await s.sessions.touch("sess-1", 2000)).toBe(true);
    expect(await s.sessions.touch("sess-1", 1500)).toBe(true);
    expect((await s.sessions.get("sess-1"))?.lastUsed).toBe(2000);
    expect(await s.sessions.touch("nobody", 3000)).toBe(false);
    await s.sessions.put({ ...record, id: "sess-2", lastUsed: 500 });
    expect(await s.sessions.expire(1000)).toBe(1);
    await s.sessions.delete("sess-1");
    expect(await s.sessions.get("sess-1")).toBeNull();
  });
});

describe("the PostgreSQL store's schema and change notes", () => {
  it("is migrated once when three instances start together, and refuses a newer schema", async () => {
    const url = await freshUrl();
    const three = await Promise.all([1, 2, 3].map(() => pgStore(url)));
    await three[0]!.putClient(client("fs"));
    expect(await three[2]!.listClients()).toEqual([client("fs")]);
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    try {
      expect((await raw.query("SELECT version FROM schema_version")).rows).toEqual([{ version: PG_SCHEMA_VERSION }]);
      await raw.query("UPDATE schema_version SET version = $1", [PG_SCHEMA_VERSION + 1]);
    } finally {
      await raw.end();
    }
    const newer = await PgStore.open({ url }).catch((e: Error) => e);
    expect(newer).toBeInstanceOf(StoreError);
    expect((newer as Error).message).toContain(`schema version ${PG_SCHEMA_VERSION + 1}, newer than this gateway's ${PG_SCHEMA_VERSION}`);
  });

  it("is seeded once when three instances seed it together", async () => {
    const url = await freshUrl();
    const three = await Promise.all([1, 2, 3].map(() => pgStore(url)));
    const seeded = await Promise.all(three.map((s, i) => s.seed({ clients: [client("fs"), client(`only${i}`)], keys: [key("k", `sk-${i}`)], settings })));
    expect(seeded.filter(Boolean)).toHaveLength(1);
    const winner = seeded.indexOf(true);
    expect((await three[0]!.listClients()).map((c) => c.name)).toEqual(["fs", `only${winner}`]);
    expect((await three[1]!.listKeys()).map((k) => k.value)).toEqual([`sk-${winner}`]);
    // A store that holds only log entries is still empty for seeding; SQLite says the same.
    const logged = await pgStore();
    await logged.appendLog(log(1));
    const sqlite = sqliteStore();
    sqlite.appendLog(log(1));
    expect([await logged.seed({ clients: [], keys: [], settings }), sqlite.seed({ clients: [], keys: [], settings })]).toEqual([true, true]);
    expect([await logged.seed({ clients: [], keys: [], settings }), sqlite.seed({ clients: [], keys: [], settings })]).toEqual([false, false]);
  });

  it("names an unreachable server without its password, within the connect timeout", async () => {
    const started = Date.now();
    const e = await PgStore.open({ url: "postgres://gw:hunter2@127.0.0.1:1/gw", connectTimeoutMs: 2000 }).catch((x: Error) => x);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(e).toBeInstanceOf(StoreError);
    expect((e as Error).message).toMatch(/^postgres:\/\/gw@127\.0\.0\.1:1\/gw: cannot connect to PostgreSQL within 2 s/);
    expect((e as Error).message).not.toContain("hunter2");
  });

  it("notes each committed change for the other instances, never for the one that wrote it", async () => {
    const url = await freshUrl();
    const a = await pgStore(url, { instance: "A" });
    const heard: Record<string, StoreChange[]> = { A: [], B: [] };
    for (const instance of ["A", "B"]) {
      const feed = await ChangeFeed.start({ url, instance, onChange: (c) => heard[instance]!.push(c), onResync: () => undefined, log: () => undefined });
      opened.push(feed);
    }
    await a.putClient(client("fs"));
    await a.putKey(key("k", "sk-k"));
    await a.putSettings(settings);
    // A refused write commits nothing, so it notes nothing.
    await a.putKey(key("k2", "sk-k")).catch(() => undefined);
    await a.deleteClient("fs");
    const until = Date.now() + 2000;
    while (heard.B!.length < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(heard.B).toEqual([
      { kind: "clients", id: "fs", instance: "A" },
      { kind: "keys", id: "k", instance: "A" },
      { kind: "settings", id: "settings", instance: "A" },
      { kind: "clients", id: "fs", instance: "A" },
    ]);
    expect(heard.A).toEqual([]);
    // A note that is not a change is reported, not applied.
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    await raw.query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, "not json"]);
    await raw.end();
    await new Promise((r) => setTimeout(r, 200));
    expect(heard.B).toHaveLength(4);
  });
});
