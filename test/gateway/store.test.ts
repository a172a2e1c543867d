// The durable store (SPEC §6): each table round-trips through a real database file, reopening
// keeps everything, migrations run once, corrupt rows are named, logs filter, page and trim, and
// a writer killed mid-burst loses no acknowledged write and leaves a sound file.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/gateway/gateway.js";
import { type LogEntry, MAX_LOG_PAGE, type NewLogEntry, SCHEMA_VERSION, Store, StoreError, type StoredSettings, type VirtualKey } from "../../src/gateway/store.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { type ClientConfig, ConfigError, parseClientConfig } from "../../src/upstream/config.js";

const WRITER = fileURLToPath(new URL("../../dist/test/fixtures/store-writer.js", import.meta.url));

// Direct SQL access, to plant rows the store itself would refuse to write.
interface RawDb {
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
  close(): void;
}
const Raw = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => RawDb;

function client(name: string, extra: Record<string, unknown> = {}): ClientConfig {
  return parseClientConfig({ name, connection_type: "stdio", stdio_config: { command: "node", args: [`${name}.js`] }, ...extra });
}

const settings: StoredSettings = {
  limits: { ...DEFAULT_LIMITS, max_steps: 5000 },
  bindingLevel: "tool",
  instructionsLimit: 100,
  directInstructionsLimit: 200,
  maxAgentDepth: 3,
};

function key(id: string, value: string, extra: Partial<VirtualKey> = {}): VirtualKey {
  return { id, name: `key ${id}`, value, is_active: true, mcp_configs: [{ client_name: "fs", tools_to_execute: ["read_file"] }], ...extra };
}

function log(time: string, extra: Partial<NewLogEntry> = {}): NewLogEntry {
  return {
    time,
    key: "-",
    tool: "executeToolCode",
    code_bytes: 12,
    duration_seconds: 0.5,
    tool_calls: [{ server: "fs", tool: "read_file", ok: true, error: null, duration_seconds: 0.1 }],
    outcome: "ok",
    error: null,
    ...extra,
  };
}

/** A page's entries without their ids, to compare with what was appended. */
function unnumbered(entries: readonly LogEntry[]): NewLogEntry[] {
  return entries.map(({ id: _id, ...rest }) => rest);
}

const boom = { type: "ValueError", message: "boom", line: 2 };

/** The ISO time `s` seconds after a fixed start. */
function at(s: number): string {
  return new Date(Date.UTC(2025, 0, 1) + s * 1000).toISOString();
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

let dir: string;
let file: string;
const open: Store[] = [];

function openStore(path = file, options = {}): Store {
  const s = new Store(path, options);
  open.push(s);
  return s;
}

function reopen(s: Store): Store {
  s.close();
  return openStore(s.path);
}

function raw(sql: string, ...params: unknown[]): void {
  const db = new Raw(file);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

function rawAll(sql: string, ...params: unknown[]): unknown[] {
  const db = new Raw(file);
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-test-"));
  file = join(dir, "state", "gateway.db");
});

afterEach(() => {
  for (const s of open.splice(0)) {
    try {
      s.close();
    } catch {
      // Already closed by the test.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("clients", () => {
  it("round-trip in insertion order", () => {
    const s = openStore();
    s.putClient(client("fs"));
    s.putClient(client("web", { connection_type: "http", stdio_config: undefined, connection_string: "http://127.0.0.1:9/mcp", headers: { A: "b" } }));
    s.putClient(client("mem"));
    expect(s.listClients()).toEqual([client("fs"), client("web", { connection_type: "http", stdio_config: undefined, connection_string: "http://127.0.0.1:9/mcp", headers: { A: "b" } }), client("mem")]);
  });

  it("replace a client of the same name in place, keeping its position", () => {
    const s = openStore();
    for (const n of ["a", "b", "c"]) s.putClient(client(n));
    s.putClient(client("a", { tools_to_execute: ["*"] }));
    expect(s.listClients().map((c) => [c.name, c.tools_to_execute])).toEqual([["a", ["*"]], ["b", []], ["c", []]]);
  });

  it("rename a client in place when given its previous name", () => {
    const s = openStore();
    for (const n of ["a", "b", "c"]) s.putClient(client(n));
    s.putClient(client("bee"), "b");
    expect(s.listClients().map((c) => c.name)).toEqual(["a", "bee", "c"]);
  });

  it("refuse a rename onto another client's name, or of a client that is not there", () => {
    const s = openStore();
    for (const n of ["a", "b"]) s.putClient(client(n));
    expect(errorOf(() => s.putClient(client("a"), "b")).message).toBe("clients row 'a': cannot rename 'b' to 'a': client 'a' already has that name");
    expect(errorOf(() => s.putClient(client("z"), "nope")).message).toMatch(/clients row 'nope': no such client/);
    expect(s.listClients().map((c) => c.name)).toEqual(["a", "b"]);
  });

  it("refuse a name that differs from another client's only in case", () => {
    const s = openStore();
    s.putClient(client("fs"));
    expect(errorOf(() => s.putClient(client("FS"))).message).toBe("clients row 'fs': cannot add 'FS': client 'fs' already has that name");
    s.putClient(client("Fs"), "fs");
    expect(s.listClients().map((c) => c.name)).toEqual(["Fs"]);
  });

  it("delete by name, reporting whether one was there", () => {
    const s = openStore();
    s.putClient(client("a"));
    s.putClient(client("b"));
    expect(s.deleteClient("a")).toBe(true);
    expect(s.deleteClient("a")).toBe(false);
    s.putClient(client("a"));
    expect(s.listClients().map((c) => c.name)).toEqual(["b", "a"]);
  });

  it("refuse an invalid config before writing anything", () => {
    const s = openStore();
    const bad = { ...client("a"), name: "my-server" };
    const e = errorOf(() => s.putClient(bad));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toMatch(/client\.name: 'my-server' is not a valid client name/);
    expect(s.listClients()).toEqual([]);
  });
});

describe("settings", () => {
  it("are null until first stored, then round-trip", () => {
    const s = openStore();
    expect(s.getSettings()).toBeNull();
    s.putSettings(settings);
    expect(s.getSettings()).toEqual(settings);
    s.putSettings({ ...settings, maxAgentDepth: 7 });
    expect(s.getSettings()?.maxAgentDepth).toBe(7);
  });

  it("keep only the stored fields of a whole GatewaySettings", () => {
    const s = openStore();
    s.putSettings(DEFAULT_SETTINGS);
    expect(s.getSettings()).toEqual({
      limits: DEFAULT_LIMITS,
      bindingLevel: "server",
      instructionsLimit: DEFAULT_SETTINGS.instructionsLimit,
      directInstructionsLimit: DEFAULT_SETTINGS.directInstructionsLimit,
      maxAgentDepth: DEFAULT_SETTINGS.maxAgentDepth,
      observedShapes: true,
    });
  });

  it("refuse invalid values, naming the field", () => {
    const s = openStore();
    expect(errorOf(() => s.putSettings({ ...settings, bindingLevel: "module" as "tool" })).message).toMatch(/^settings: settings\.bindingLevel: /);
    expect(errorOf(() => s.putSettings({ ...settings, limits: { ...settings.limits, max_steps: -1 } })).message).toMatch(/settings\.limits: max_steps must not be negative/);
    expect(s.getSettings()).toBeNull();
  });
});

describe("virtual keys", () => {
  it("round-trip in insertion order and are found by value", () => {
    const s = openStore();
    s.putKey(key("k1", "sk-one"));
    s.putKey(key("k2", "sk-two", { is_active: false, mcp_configs: [] }));
    expect(s.listKeys()).toEqual([key("k1", "sk-one"), key("k2", "sk-two", { is_active: false, mcp_configs: [] })]);
    expect(s.getKeyByValue("sk-two")).toEqual(key("k2", "sk-two", { is_active: false, mcp_configs: [] }));
    expect(s.getKeyByValue("sk-none")).toBeNull();
  });

  it("replace a key of the same id in place, value included", () => {
    const s = openStore();
    s.putKey(key("k1", "sk-one"));
    s.putKey(key("k2", "sk-two"));
    s.putKey(key("k1", "sk-new", { name: "renamed" }));
    expect(s.listKeys().map((k) => [k.id, k.name, k.value])).toEqual([["k1", "renamed", "sk-new"], ["k2", "key k2", "sk-two"]]);
    expect(s.getKeyByValue("sk-one")).toBeNull();
    expect(s.getKeyByValue("sk-new")?.id).toBe("k1");
  });

  it("refuse a value another key already has", () => {
    const s = openStore();
    s.putKey(key("k1", "sk-one"));
    const e = errorOf(() => s.putKey(key("k2", "sk-one")));
    expect(e).toBeInstanceOf(StoreError);
    expect(e.message).toBe("virtual key 'k2': its value is already the value of key 'k1'; every key needs its own value");
    expect(s.listKeys().map((k) => k.id)).toEqual(["k1"]);
  });

  it("refuse a malformed key, naming the field", () => {
    const s = openStore();
    const bad = { ...key("k1", "sk"), mcp_configs: [{ client_name: "fs", tools_to_execute: "read_file" }] } as unknown as VirtualKey;
    expect(errorOf(() => s.putKey(bad)).message).toMatch(/^virtual key 'k1': key\.mcp_configs\[0\]\.tools_to_execute: /);
  });

  it("delete by id, reporting whether one was there", () => {
    const s = openStore();
    s.putKey(key("k1", "sk-one"));
    expect(s.deleteKey("k1")).toBe(true);
    expect(s.deleteKey("k1")).toBe(false);
    expect(s.listKeys()).toEqual([]);
  });
});

describe("logs", () => {
  it("come back newest first, numbered in the order they were appended, with the total", () => {
    const s = openStore();
    const appended = [s.appendLog(log(at(2))), s.appendLog(log(at(1), { tool: "searchTools" })), s.appendLog(log(at(3), { outcome: "error", error: boom }))];
    expect(appended.map((e) => e.id)).toEqual([1, 2, 3]);
    const page = s.queryLogs();
    expect(page.total).toBe(3);
    expect(page.logs).toEqual([appended[2], appended[0], appended[1]]);
    expect(unnumbered(page.logs)).toEqual([log(at(3), { outcome: "error", error: boom }), log(at(2)), log(at(1), { tool: "searchTools" })]);
  });

  it("read rows of the older entry form (an error as a message, calls without error) as the one model", () => {
    const s = openStore();
    s.appendLog(log(at(0)));
    const old = { ...log(at(1), { outcome: "error" }), error: "boom", tool_calls: [{ server: "fs", tool: "read_file", ok: true, duration_seconds: 0.1 }] };
    raw("INSERT INTO logs (time, key, tool, outcome, entry) VALUES (?, '-', 'executeToolCode', 'error', ?)", at(1), JSON.stringify(old));
    expect(s.queryLogs().logs[0]).toEqual({ id: 2, ...log(at(1), { outcome: "error", error: { type: "Error", message: "boom", line: null } }) });
  });

  it("store times normalized to UTC, so they sort as times", () => {
    const s = openStore();
    s.appendLog(log("2025-01-01T10:00:00+02:00"));
    s.appendLog(log("2025-01-01T09:00:00Z"));
    expect(s.queryLogs().logs.map((e) => e.time)).toEqual(["2025-01-01T09:00:00.000Z", "2025-01-01T08:00:00.000Z"]);
  });

  it("filter by tool, key, outcome and since, together", () => {
    const s = openStore();
    for (let i = 0; i < 40; i++) {
      s.appendLog(log(at(i), { tool: i % 2 ? "executeToolCode" : "searchTools", key: i % 4 < 2 ? "k1" : "k2", outcome: i % 5 ? "ok" : "error", error: i % 5 ? null : boom }));
    }
    expect(s.queryLogs({ tool: "searchTools" }).total).toBe(20);
    expect(s.queryLogs({ key: "k2" }).total).toBe(20);
    expect(s.queryLogs({ outcome: "error" }).logs.map((e) => e.time)).toEqual([35, 30, 25, 20, 15, 10, 5, 0].map(at));
    expect(s.queryLogs({ since: at(30) }).total).toBe(10);
    const both = s.queryLogs({ tool: "executeToolCode", key: "k1", outcome: "ok", since: at(10) });
    expect(both.logs.map((e) => e.time)).toEqual([37, 33, 29, 21, 17, 13].map(at));
    expect(both.total).toBe(6);
  });

  it("filter by a tool a script called: server.tool, or the tool's name", () => {
    const s = openStore();
    const call = (server: string, tool: string) => ({ server, tool, ok: true, error: null, duration_seconds: 0.1 });
    s.appendLog(log(at(0), { tool_calls: [call("edge", "add")] }));
    s.appendLog(log(at(1), { tool_calls: [call("other", "add"), call("edge", "echo"), call("edge", "echo")] }));
    s.appendLog(log(at(2), { tool_calls: [call("edge", "a.b")] }));
    s.appendLog(log(at(3), { tool_calls: [] }));
    const times = (tool: string) => s.queryLogs({ tool }).logs.map((e) => e.time);
    expect(times("edge.add")).toEqual([at(0)]);
    expect(times("add")).toEqual([at(1), at(0)]);
    expect(times("edge.echo")).toEqual([at(1)]);
    expect(times("edge.a.b")).toEqual([at(2)]);
    expect(times("a.b")).toEqual([at(2)]);
    expect(times("executeToolCode")).toEqual([3, 2, 1, 0].map(at));
    expect(times("edge")).toEqual([]);
    expect(s.queryLogs({ tool: "echo", key: "-", outcome: "ok" }).total).toBe(1);
  });

  it(`page anywhere within the rows kept; the limit defaults to 50 and may be at most ${MAX_LOG_PAGE}`, () => {
    const s = openStore();
    for (let i = 0; i < 2500; i++) s.appendLog(log(at(i)));
    expect(s.queryLogs().logs).toHaveLength(50);
    expect(s.queryLogs({ limit: MAX_LOG_PAGE }).logs).toHaveLength(MAX_LOG_PAGE);
    const page = s.queryLogs({ limit: 3, offset: 10 });
    expect(page.total).toBe(2500);
    expect(page.logs.map((e) => e.time)).toEqual([2489, 2488, 2487].map(at));
    // Past the newest 1,000, all the in-memory log used to hold.
    expect(s.queryLogs({ limit: 2, offset: 2000 }).logs.map((e) => e.time)).toEqual([499, 498].map(at));
    expect(s.queryLogs({ offset: 2499 }).logs.map((e) => e.time)).toEqual([at(0)]);
    expect(s.queryLogs({ offset: 2500 })).toEqual({ logs: [], total: 2500 });
    expect(s.queryLogs({ offset: 1e20 })).toEqual({ logs: [], total: 2500 });
  });

  it("keep at most the configured number of rows, trimming the oldest and their calls", () => {
    const s = openStore(file, { maxLogRows: 5 });
    for (let i = 0; i < 12; i++) s.appendLog(log(at(i)));
    const page = s.queryLogs();
    expect(page.total).toBe(5);
    expect(page.logs.map((e) => e.time)).toEqual([11, 10, 9, 8, 7].map(at));
    expect(s.queryLogs({ tool: "fs.read_file" }).total).toBe(5);
    expect(rawAll("SELECT COUNT(*) AS n FROM log_calls")).toEqual([{ n: 5 }]);
    // An entry older than everything kept is itself the oldest, so it goes at once.
    s.appendLog(log(at(-1)));
    expect(s.queryLogs().logs.map((e) => e.time)).toEqual([11, 10, 9, 8, 7].map(at));
    expect(rawAll("SELECT COUNT(*) AS n FROM log_calls")).toEqual([{ n: 5 }]);
  });

  it("filled the table of calls from the rows an older gateway kept when migrating", () => {
    let s = openStore();
    s.appendLog(log(at(0)));
    s.appendLog(log(at(1), { tool_calls: [] }));
    // Back to schema 2, as a gateway before the table of calls left the file, with a corrupt row too.
    raw("DROP TABLE log_calls");
    // (and without the columns of schema 4, test/gateway/overview.test.ts tests their migration)
    raw("DROP INDEX logs_by_time_ending");
    raw("ALTER TABLE logs DROP COLUMN ending");
    raw("ALTER TABLE logs DROP COLUMN duration_seconds");
    // (and without the session records of schema 5)
    raw("DROP TABLE mcp_sessions");
    raw("UPDATE schema_version SET version = 2");
    raw("INSERT INTO logs (time, key, tool, outcome, entry) VALUES (?, '-', 'executeToolCode', 'ok', 'garbage')", at(-5));
    s = reopen(s);
    expect(s.queryLogs({ tool: "fs.read_file", since: at(0) })).toMatchObject({ total: 1, logs: [{ time: at(0) }] });
    expect(s.queryLogs({ tool: "read_file" }).total).toBe(1);
  });

  it("are committed without a sync, and every other write is still synced (FULL)", () => {
    const s = openStore();
    const db = (s as unknown as { db: { pragma(sql: string, o: { simple: true }): unknown } }).db;
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    s.appendLog(log(at(1)));
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    expect(() => s.appendLog(log("yesterday"))).toThrow(StoreError);
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    expect(s.queryLogs().total).toBe(1);
  });

  it("refuse a malformed entry or query", () => {
    const s = openStore();
    expect(errorOf(() => s.appendLog(log("yesterday"))).message).toBe("log entry: entry.time: must be an ISO time");
    expect(errorOf(() => s.appendLog(log(at(0), { outcome: "maybe" as "ok" }))).message).toMatch(/^log entry: entry\.outcome: /);
    expect(errorOf(() => s.queryLogs({ limit: 0 })).message).toBe("log query: limit must be a whole number from 1 to 500 (got 0)");
    expect(errorOf(() => s.queryLogs({ limit: MAX_LOG_PAGE + 1 })).message).toBe("log query: limit must be a whole number from 1 to 500 (got 501)");
    expect(errorOf(() => s.queryLogs({ offset: -1 })).message).toMatch(/offset must be a non-negative integer/);
    expect(errorOf(() => s.queryLogs({ since: "soon" })).message).toMatch(/since must be an ISO time/);
    expect(errorOf(() => s.queryLogs({ outcome: "meh" as "ok" })).message).toMatch(/outcome must be 'ok' or 'error'/);
    expect(s.queryLogs().total).toBe(0);
  });
});

describe("the database file", () => {
  it("is created with its directory, readable by its owner only", () => {
    openStore();
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("is empty until a client, settings or a key is stored (logs do not count)", () => {
    let s = openStore();
    expect(s.isEmpty()).toBe(true);
    s.appendLog(log(at(0)));
    expect(s.isEmpty()).toBe(true);
    for (const fill of [() => s.putClient(client("a")), () => s.putSettings(settings), () => s.putKey(key("k", "v"))]) {
      s.close();
      rmSync(dir, { recursive: true, force: true });
      s = openStore();
      fill();
      expect(s.isEmpty()).toBe(false);
    }
  });

  it("keeps everything when reopened", () => {
    const s = openStore();
    s.putClient(client("a"));
    s.putClient(client("b"));
    s.putSettings(settings);
    s.putKey(key("k1", "sk-one"));
    s.appendLog(log(at(0)));
    const again = reopen(s);
    expect(again.listClients()).toEqual([client("a"), client("b")]);
    expect(again.getSettings()).toEqual(settings);
    expect(again.listKeys()).toEqual([key("k1", "sk-one")]);
    expect(unnumbered(again.queryLogs().logs)).toEqual([log(at(0))]);
    expect(again.isEmpty()).toBe(false);
  });

  it("runs its migrations once, however often it is opened", () => {
    let s = openStore();
    s.putClient(client("a"));
    for (let i = 0; i < 3; i++) s = reopen(s);
    s.close();
    const db = new Raw(file);
    expect(db.prepare("SELECT id, version FROM schema_version").all()).toEqual([{ id: 1, version: SCHEMA_VERSION }]);
    db.close();
    expect(openStore().listClients()).toEqual([client("a")]);
  });

  it("refuses a database from a newer gateway", () => {
    openStore().close();
    raw("UPDATE schema_version SET version = ?", SCHEMA_VERSION + 1);
    const e = errorOf(() => openStore());
    expect(e).toBeInstanceOf(StoreError);
    expect(e.message).toBe(`${file}: the database has schema version ${SCHEMA_VERSION + 1}, newer than this gateway's ${SCHEMA_VERSION}: upgrade the gateway or use another file`);
  });

  it("refuses a file that is not a database, naming it", () => {
    writeFileSync(join(dir, "junk.db"), "this is not a database, just some text long enough to look like a header");
    const e = errorOf(() => openStore(join(dir, "junk.db")));
    expect(e).toBeInstanceOf(StoreError);
    expect(e.message).toMatch(new RegExp(`^${join(dir, "junk.db").replace(/[.]/g, "\\.")}: cannot open the database: file is not a database`));
  });

  it("works in memory", () => {
    const s = openStore(":memory:");
    s.putClient(client("a"));
    expect(s.listClients()).toEqual([client("a")]);
  });
});

describe("corrupt rows", () => {
  it("a client row that is not JSON is named, not dropped", () => {
    const s = openStore();
    s.putClient(client("a"));
    s.putClient(client("b"));
    raw("UPDATE clients SET config = '{oops' WHERE name = 'b'");
    const e = errorOf(() => s.listClients());
    expect(e).toBeInstanceOf(StoreError);
    expect(e.message).toMatch(new RegExp(`^${file.replace(/[.]/g, "\\.")}: clients row 'b': corrupt row \\(not valid JSON \\(.*\\)\\); fix or delete it$`));
  });

  it("a client row with an invalid config names the row and the field", () => {
    const s = openStore();
    s.putClient(client("a"));
    raw("UPDATE clients SET config = json_set(config, '$.tools_to_auto_execute', json('[\"x\"]')) WHERE name = 'a'");
    expect(errorOf(() => s.listClients()).message).toMatch(
      /clients row 'a': corrupt row \(config\.tools_to_auto_execute: must be a subset of tools_to_execute; not in it: x\); fix or delete it$/,
    );
  });

  it("a client row whose config names another client is named", () => {
    const s = openStore();
    s.putClient(client("a"));
    raw("UPDATE clients SET name = 'z' WHERE name = 'a'");
    expect(errorOf(() => s.listClients()).message).toMatch(/clients row 'z': corrupt row \(config\.name is 'a' but the row is keyed 'z'\)/);
  });

  it("a settings row with a bad field names it", () => {
    const s = openStore();
    s.putSettings(settings);
    raw("UPDATE settings SET value = json_set(value, '$.maxAgentDepth', 'deep')");
    expect(errorOf(() => s.getSettings()).message).toMatch(/settings row: corrupt row \(settings\.maxAgentDepth: .*\); fix or delete it$/);
  });

  it("a virtual key row with a bad field names it", () => {
    const s = openStore();
    s.putKey(key("k1", "sk-one"));
    raw("UPDATE virtual_keys SET data = json_set(data, '$.is_active', 'yes')");
    expect(errorOf(() => s.listKeys()).message).toMatch(/virtual_keys row 'k1': corrupt row \(key\.is_active: .*\)/);
    expect(errorOf(() => s.getKeyByValue("sk-one")).message).toMatch(/virtual_keys row 'k1'/);
  });

  it("a log row that is not JSON is named by its id", () => {
    const s = openStore();
    s.appendLog(log(at(0)));
    s.appendLog(log(at(1)));
    raw("UPDATE logs SET entry = 'garbage' WHERE time = ?", at(0));
    expect(errorOf(() => s.queryLogs()).message).toMatch(/logs row 1: corrupt row \(not valid JSON/);
    expect(unnumbered(s.queryLogs({ limit: 1 }).logs)).toEqual([log(at(1))]);
  });
});

/** Runs the writer from `first` until it has acknowledged about `killAfter` writes, then SIGKILLs it. */
function crashWriter(db: string, first: number, killAfter: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, db, String(first)], { stdio: ["ignore", "pipe", "pipe"] });
    const acks: number[] = [];
    let pending = "";
    let stderr = "";
    let killed = false;
    const kill = () => {
      if (!killed) {
        killed = true;
        child.kill("SIGKILL");
      }
    };
    // Whatever the write rate, the kill lands mid-burst.
    const timer = setTimeout(kill, 3000);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        const m = /^ack (\d+)$/.exec(line);
        if (!m) return reject(new Error(`writer printed '${line}'`));
        acks.push(Number(m[1]));
      }
      if (acks.length >= killAfter) kill();
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    // Acks already in the pipe when the kill landed still count: each was printed after its commit.
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (signal !== "SIGKILL") return reject(new Error(`writer ended by itself (code ${code}): ${stderr}`));
      resolve(acks);
    });
  });
}

describe("crash safety", () => {
  it("keeps every acknowledged write and a sound file when the writer is killed mid-burst", async () => {
    if (!existsSync(WRITER)) throw new Error(`${WRITER} is missing: run 'npx tsc -p tsconfig.json' first`);
    const acked: number[] = [];
    let next = 1;
    for (let round = 0; round < 5; round++) {
      // Kill at a different point of the burst each round.
      const acks = await crashWriter(file, next, 150 + round * 37);
      expect(acks.length).toBeGreaterThan(0);
      expect(acks).toEqual(acks.map((_, i) => next + i));
      acked.push(...acks);
      const lastAck = acks.at(-1)!;

      const s = openStore();
      expect(s.checkIntegrity()).toEqual([]);
      const names = new Set(s.listClients().map((c) => c.name));
      for (const n of acked) if (n % 2 === 1) expect(names.has(`c${n}`), `client c${n} was acknowledged`).toBe(true);
      const lastSettings = acked.filter((n) => n % 2 === 0).at(-1)!;
      expect(s.getSettings()!.instructionsLimit).toBeGreaterThanOrEqual(lastSettings);
      // Only the write the kill interrupted may have committed without its ack.
      const unacked = [...names].map((n) => Number(n.slice(1))).filter((n) => !acked.includes(n));
      expect(unacked.every((n) => n === lastAck + 1 || n < next)).toBe(true);
      s.close();

      const db = new Raw(file);
      expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
      db.close();
      // The next round starts past the write that may have committed unacknowledged.
      next = lastAck + 2;
    }
  });
});
