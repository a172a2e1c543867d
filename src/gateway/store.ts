// The gateway's durable state (SPEC §6): upstream clients, settings, virtual keys, execution
// logs and the shapes learned from tool results, in one SQLite file. Every write is one
// transaction committed (WAL, synchronous = FULL) before the method returns, so an acknowledged
// change survives a crash of the process or the machine, and a crash mid-write leaves the
// previous state. Execution log entries and shapes are the exception: committed unsynced, they
// survive a crash of the process but not of the machine. Rows are validated when read back: a
// corrupt row is an error that names it, never a silently missing client or key.
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { parseShape, type Shape } from "../codemode/shape.js";
import type { Limits } from "../interpreter/index.js";
import { type ClientConfig, parseClientConfig } from "../upstream/config.js";
import type { ToolShape } from "./shapes.js";
import { ENDING_SQL, endingOf } from "./ending.js";
import type { McpSessionRecords } from "./mcp-sessions.js";
import { SqliteSessionRecords } from "./sqlite-sessions.js";
import type { SeedState } from "./state-store.js";
import { StoreError } from "./store-error.js";
import { callsPerTool, clientOfRow, keyOfRow, logEntryOf, logFilter, parseJson, readRow, settingsOf, shapeOfRow } from "./store-rows.js";
import { parseVirtualKey, type VirtualKey } from "./virtual-keys.js";

export { StoreError };

/** The settings that outlive a restart (GatewaySettings without what only config.json sets). */
export interface StoredSettings {
  limits: Limits;
  bindingLevel: "server" | "tool";
  instructionsLimit: number;
  directInstructionsLimit: number;
  maxAgentDepth: number;
  /** `code_mode_observed_shapes`; absent in rows written before it existed (config.json's value applies). */
  observedShapes?: boolean;
}

/** A virtual key is the gateway's one model of it (virtual-keys.ts). */
export type { VirtualKey };

/** One tool call of a logged execution: never its arguments or its result. */
export interface LogCall {
  server: string;
  tool: string;
  ok: boolean;
  error: string | null;
  duration_seconds: number;
}

/**
 * One execution in the log (SPEC §6): who ran it, how big the code was, how long it took, which
 * tools it called and how it ended. The one model of a log entry: what the store keeps, what
 * `GET /api/logs` answers. `id` is the store's, in the order entries were appended.
 */
export interface LogEntry {
  id: number;
  /** When the execution started: ISO 8601, stored normalized to UTC (`toISOString`) so that times sort as text. */
  time: string;
  /** The caller's label: a virtual key's name, or "-" without a key. */
  key: string;
  /** The meta-tool that ran (executeToolCode). */
  tool: string;
  code_bytes: number;
  duration_seconds: number;
  tool_calls: LogCall[];
  outcome: "ok" | "error";
  error: { type: string; message: string; line: number | null } | null;
}

/** An entry to append: the store gives it its id. */
export type NewLogEntry = Omit<LogEntry, "id">;

export interface LogQuery {
  /** Page size: 50 by default, at most MAX_LOG_PAGE. */
  limit?: number;
  /** Entries to skip, newest first: any offset within the rows kept. */
  offset?: number;
  /** The meta-tool that ran, or a tool a script called (`server.tool`, or the tool's name). */
  tool?: string;
  key?: string;
  outcome?: "ok" | "error";
  /** ISO time: only entries at or after it. */
  since?: string;
}

export interface LogPage {
  /** Newest first. */
  logs: LogEntry[];
  /** How many entries match the filters, across all pages. */
  total: number;
}

/** Executions of one minute (`YYYY-MM-DDTHH:MM`, UTC) that ended one way (ending.ts). */
export interface MinuteEnding {
  minute: string;
  ending: string;
  count: number;
}

/** A server's tool calls: how many, how many failed, their seconds in all. */
export interface ServerCalls {
  server: string;
  calls: number;
  failures: number;
  seconds: number;
}

/** Where a scan of `log_calls` stopped: the last row it read. */
export type CallsKey = readonly [logId: number, server: string, tool: string];

export interface StoreOptions {
  /** Log rows kept; older ones are trimmed as new ones are appended. */
  maxLogRows?: number;
}

export const DEFAULT_MAX_LOG_ROWS = 10_000;
export { DEFAULT_LOG_PAGE, MAX_LOG_PAGE } from "./store-rows.js";


// better-sqlite3 ships no type declarations; this is the part of its API the store uses.
interface Statement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface TransactionFunction<R> {
  (): R;
  immediate(): R;
}
interface Connection {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  transaction<R>(fn: () => R): TransactionFunction<R>;
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => Connection;

/**
 * Schema migrations: entry i takes the database from version i to i + 1. Append, never edit: a
 * file written by an older gateway runs only the migrations it has not seen.
 */
const MIGRATIONS: readonly string[] = [
  // 1: clients, settings, virtual keys, execution logs. `position` keeps insertion order across
  // replacements; logs are ordered by (time, id) and the index serves both paging and trimming.
  `CREATE TABLE clients (name TEXT PRIMARY KEY, position INTEGER NOT NULL, config TEXT NOT NULL);
   CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL);
   CREATE TABLE virtual_keys (id TEXT PRIMARY KEY, position INTEGER NOT NULL, value TEXT NOT NULL UNIQUE, data TEXT NOT NULL);
   CREATE TABLE logs (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     time TEXT NOT NULL, key TEXT NOT NULL, tool TEXT NOT NULL, outcome TEXT NOT NULL,
     entry TEXT NOT NULL
   );
   CREATE INDEX logs_by_time ON logs (time);`,
  // 2: the shapes learned from tool results (gateway/shapes.ts), one row per client and tool.
  `CREATE TABLE shapes (server TEXT NOT NULL, tool TEXT NOT NULL, shape TEXT NOT NULL, PRIMARY KEY (server, tool));`,
  // 3: the tools each logged execution called, once per tool, so that filtering the log by a tool
  // is an index lookup rather than a parse of every entry; filled from the entries already kept.
  `CREATE TABLE log_calls (log_id INTEGER NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL, PRIMARY KEY (log_id, server, tool)) WITHOUT ROWID;
   CREATE INDEX log_calls_by_tool ON log_calls (tool, server);
   INSERT OR IGNORE INTO log_calls (log_id, server, tool)
     SELECT logs.id, COALESCE(json_extract(c.value, '$.server'), ''), COALESCE(json_extract(c.value, '$.tool'), '')
     FROM logs, json_each(logs.entry, '$.tool_calls') AS c
     WHERE json_valid(logs.entry) AND json_type(logs.entry, '$.tool_calls') = 'array';`,
  // 4: what the overview counts (gateway/overview.ts) as columns, so that it reads an index
  // rather than parsing entries: how each execution ended (ending.ts) and how long it took, in
  // an index that covers both; and per called tool, how many calls, failures and seconds.
  `ALTER TABLE logs ADD COLUMN ending TEXT NOT NULL DEFAULT 'error';
   ALTER TABLE logs ADD COLUMN duration_seconds REAL NOT NULL DEFAULT 0;
   UPDATE logs SET ending = ${ENDING_SQL}, duration_seconds = COALESCE(json_extract(entry, '$.duration_seconds'), 0) WHERE json_valid(entry);
   CREATE INDEX logs_by_time_ending ON logs (time, ending, duration_seconds);
   ALTER TABLE log_calls ADD COLUMN calls INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE log_calls ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE log_calls ADD COLUMN seconds REAL NOT NULL DEFAULT 0;
   UPDATE log_calls SET (calls, failures, seconds) = (
     SELECT count(*), CAST(total(json_extract(c.value, '$.ok') = 0) AS INTEGER), total(json_extract(c.value, '$.duration_seconds'))
     FROM logs, json_each(logs.entry, '$.tool_calls') AS c
     WHERE logs.id = log_calls.log_id AND json_valid(logs.entry)
       AND COALESCE(json_extract(c.value, '$.server'), '') = log_calls.server AND COALESCE(json_extract(c.value, '$.tool'), '') = log_calls.tool);`,
  // 5: MCP session records (mcp-sessions.ts, sqlite-sessions.ts), so a session outlives a restart.
  `CREATE TABLE mcp_sessions (id TEXT PRIMARY KEY, owner TEXT NOT NULL, host TEXT NOT NULL, hello TEXT NOT NULL, last_used INTEGER NOT NULL);
   CREATE INDEX mcp_sessions_by_last_used ON mcp_sessions (last_used);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

const NOT_A_FILE = new Set([":memory:", ""]);

export class Store {
  private readonly db: Connection;
  /** MCP session records (the `mcp_sessions` table): a session outlives a restart. */
  readonly sessions: McpSessionRecords;
  private readonly maxLogRows: number;
  private readonly queries = new Map<string, Statement>();
  private readonly sql: Record<
    | "listClients" | "clashingClient" | "insertClient" | "updateClient" | "deleteClient"
    | "getSettings" | "putSettings"
    | "listKeys" | "getKeyByValue" | "insertKey" | "updateKey" | "deleteKey"
    | "appendLog" | "appendLogCall" | "newestDropped" | "trimLogCalls" | "trimLogs" | "isEmpty"
    | "endingsPerMinute" | "durationAt" | "firstLogSince" | "callsPageEnd" | "callsPage" | "callsRest"
    | "listShapes" | "putShape" | "deleteShapes" | "moveShapes",
    Statement
  >;

  /** Opens (or creates, with its directory) the database at `path`; `":memory:"` for tests. */
  constructor(
    readonly path: string,
    options: StoreOptions = {},
  ) {
    const maxLogRows = options.maxLogRows ?? DEFAULT_MAX_LOG_ROWS;
    if (!Number.isInteger(maxLogRows) || maxLogRows < 1) throw new StoreError(path, `maxLogRows must be a positive integer (got ${maxLogRows})`);
    this.maxLogRows = maxLogRows;

    const isFile = !NOT_A_FILE.has(path);
    let db: Connection;
    try {
      if (isFile) mkdirSync(dirname(path), { recursive: true });
      const created = isFile && !existsSync(path);
      db = new Database(path);
      // Key values, headers and env may hold secrets: a new file is readable by its owner only.
      if (created) chmodSync(path, 0o600);
    } catch (e) {
      throw new StoreError(path, `cannot open the database: ${(e as Error).message}`);
    }
    try {
      db.pragma("journal_mode = WAL");
      // FULL: the WAL is synced at every commit, so a returned write is on disk.
      db.pragma("synchronous = FULL");
      migrate(db, path);
    } catch (e) {
      db.close();
      if (e instanceof StoreError) throw e;
      throw new StoreError(path, `cannot open the database: ${(e as Error).message}`);
    }
    this.db = db;
    this.sessions = new SqliteSessionRecords(db, path);
    this.sql = {
      listClients: db.prepare("SELECT name, config FROM clients ORDER BY position"),
      // Another client whose name differs only in case: config.json refuses those too.
      clashingClient: db.prepare("SELECT name FROM clients WHERE name = ? COLLATE NOCASE AND name <> ?"),
      insertClient: db.prepare("INSERT INTO clients (name, position, config) VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM clients), ?)"),
      updateClient: db.prepare("UPDATE clients SET name = ?, config = ? WHERE name = ?"),
      deleteClient: db.prepare("DELETE FROM clients WHERE name = ?"),
      getSettings: db.prepare("SELECT value FROM settings WHERE id = 1"),
      putSettings: db.prepare("INSERT INTO settings (id, value) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value"),
      listKeys: db.prepare("SELECT id, value, data FROM virtual_keys ORDER BY position"),
      getKeyByValue: db.prepare("SELECT id, value, data FROM virtual_keys WHERE value = ?"),
      insertKey: db.prepare("INSERT INTO virtual_keys (id, position, value, data) VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM virtual_keys), ?, ?)"),
      updateKey: db.prepare("UPDATE virtual_keys SET value = ?, data = ? WHERE id = ?"),
      deleteKey: db.prepare("DELETE FROM virtual_keys WHERE id = ?"),
      appendLog: db.prepare("INSERT INTO logs (time, key, tool, outcome, entry, ending, duration_seconds) VALUES (?, ?, ?, ?, ?, ?, ?)"),
      appendLogCall: db.prepare("INSERT INTO log_calls (log_id, server, tool, calls, failures, seconds) VALUES (?, ?, ?, ?, ?, ?)"),
      // The newest row past the limit: it and everything older go.
      newestDropped: db.prepare("SELECT time, id FROM logs ORDER BY time DESC, id DESC LIMIT 1 OFFSET ?"),
      trimLogCalls: db.prepare("DELETE FROM log_calls WHERE log_id IN (SELECT id FROM logs WHERE (time, id) <= (?, ?))"),
      trimLogs: db.prepare("DELETE FROM logs WHERE (time, id) <= (?, ?)"),
      endingsPerMinute: db.prepare(
        "SELECT substr(time, 1, 16) AS minute, ending, COUNT(*) AS count FROM logs WHERE time >= ? GROUP BY minute, ending ORDER BY minute, ending",
      ),
      durationAt: db.prepare("SELECT duration_seconds AS d FROM logs WHERE time >= ? AND time < ? ORDER BY duration_seconds LIMIT 1 OFFSET ?"),
      firstLogSince: db.prepare("SELECT MIN(id) AS first FROM logs WHERE time >= ?"),
      callsPageEnd: db.prepare("SELECT log_id, server, tool FROM log_calls WHERE (log_id, server, tool) > (?, ?, ?) ORDER BY log_id, server, tool LIMIT 1 OFFSET ?"),
      callsPage: db.prepare(
        `SELECT c.server, SUM(c.calls) AS calls, SUM(c.failures) AS failures, TOTAL(c.seconds) AS seconds FROM log_calls AS c JOIN logs AS l ON l.id = c.log_id
         WHERE (c.log_id, c.server, c.tool) > (?, ?, ?) AND (c.log_id, c.server, c.tool) <= (?, ?, ?) AND l.time >= ? GROUP BY c.server`,
      ),
      callsRest: db.prepare(
        `SELECT c.server, SUM(c.calls) AS calls, SUM(c.failures) AS failures, TOTAL(c.seconds) AS seconds FROM log_calls AS c JOIN logs AS l ON l.id = c.log_id
         WHERE (c.log_id, c.server, c.tool) > (?, ?, ?) AND l.time >= ? GROUP BY c.server`,
      ),
      listShapes: db.prepare("SELECT server, tool, shape FROM shapes ORDER BY server, tool"),
      putShape: db.prepare("INSERT INTO shapes (server, tool, shape) VALUES (?, ?, ?) ON CONFLICT (server, tool) DO UPDATE SET shape = excluded.shape"),
      deleteShapes: db.prepare("DELETE FROM shapes WHERE server = ?"),
      moveShapes: db.prepare("UPDATE shapes SET server = ? WHERE server = ?"),
      isEmpty: db.prepare(
        "SELECT NOT (EXISTS (SELECT 1 FROM clients) OR EXISTS (SELECT 1 FROM settings) OR EXISTS (SELECT 1 FROM virtual_keys)) AS empty",
      ),
    };
  }

  // --- clients ---

  /** Every client, in the order they were first added. */
  listClients(): ClientConfig[] {
    const rows = this.sql.listClients.all() as { name: string; config: string }[];
    return rows.map((row) => clientOfRow(this.path, row));
  }

  /**
   * Adds a client, or replaces the one with the same name in place. With `previousName`, replaces
   * that client instead (a rename, in one transaction). A name that another client has, even
   * in different case, is refused.
   */
  putClient(config: ClientConfig, previousName?: string): void {
    const valid = parseClientConfig(config, "client");
    const json = JSON.stringify(valid);
    this.write(() => {
      const target = previousName ?? valid.name;
      const clash = this.sql.clashingClient.get(valid.name, target) as { name: string } | undefined;
      if (clash) {
        const what = target === valid.name ? `cannot add '${valid.name}'` : `cannot rename '${target}' to '${valid.name}'`;
        throw new StoreError(`clients row '${clash.name}'`, `${what}: client '${clash.name}' already has that name`);
      }
      if (this.sql.updateClient.run(valid.name, json, target).changes === 0) {
        if (previousName !== undefined && previousName !== valid.name) {
          throw new StoreError(`clients row '${previousName}'`, "no such client to replace");
        }
        this.sql.insertClient.run(valid.name, json);
      }
    });
  }

  /** Removes a client; false when there was none by that name. */
  deleteClient(name: string): boolean {
    return this.write(() => this.sql.deleteClient.run(name).changes > 0);
  }

  // --- settings ---

  /** The stored settings, or null before the first putSettings. */
  getSettings(): StoredSettings | null {
    const row = this.sql.getSettings.get() as { value: string } | undefined;
    if (!row) return null;
    return readRow(this.path, "settings row", () => settingsOf(parseJson(row.value)));
  }

  /** Replaces the settings. Limits are stored resolved (defaults filled in), as they will be read. */
  putSettings(settings: StoredSettings): void {
    let valid: StoredSettings;
    try {
      valid = settingsOf(settings);
    } catch (e) {
      throw new StoreError("settings", (e as Error).message);
    }
    const json = JSON.stringify(valid);
    this.write(() => this.sql.putSettings.run(json));
  }

  // --- virtual keys ---

  /** Every virtual key, in the order they were first added. */
  listKeys(): VirtualKey[] {
    const rows = this.sql.listKeys.all() as KeyRow[];
    return rows.map((row) => keyOfRow(this.path, row));
  }

  /** The key whose secret value is `value` (active or not), or null. */
  getKeyByValue(value: string): VirtualKey | null {
    const row = this.sql.getKeyByValue.get(value) as KeyRow | undefined;
    return row ? keyOfRow(this.path, row) : null;
  }

  /** Adds a key, or replaces the one with the same id in place. Values are unique across keys. */
  putKey(key: VirtualKey): void {
    let valid: VirtualKey;
    try {
      valid = parseVirtualKey(key, "key");
    } catch (e) {
      throw new StoreError(`virtual key '${String(key?.id)}'`, (e as Error).message);
    }
    const json = JSON.stringify(valid);
    this.write(() => {
      const holder = this.sql.getKeyByValue.get(valid.value) as KeyRow | undefined;
      if (holder && holder.id !== valid.id) {
        throw new StoreError(`virtual key '${valid.id}'`, `its value is already the value of key '${holder.id}'; every key needs its own value`);
      }
      if (this.sql.updateKey.run(valid.value, json, valid.id).changes === 0) this.sql.insertKey.run(valid.id, valid.value, json);
    });
  }

  /** Removes a key; false when there was none with that id. */
  deleteKey(id: string): boolean {
    return this.write(() => this.sql.deleteKey.run(id).changes > 0);
  }

  // --- logs ---

  /**
   * Records one execution and returns it with its id, trimming the oldest entries beyond the row
   * limit in the same transaction.
   */
  appendLog(entry: NewLogEntry): LogEntry {
    return this.appendLogs([entry])[0]!;
  }

  /**
   * Records executions in one transaction, in their order, and answers them with their ids; then
   * trims the log to maxLogRows. A busy gateway's entries of one event-loop turn come here
   * together (exec-log.ts): one commit for them all, each of which held the event loop.
   */
  appendLogs(entries: readonly NewLogEntry[]): LogEntry[] {
    const valid = entries.map((entry) => {
      try {
        return logEntryOf(entry);
      } catch (e) {
        throw new StoreError("log entry", (e as Error).message);
      }
    });
    // Committed but not synced: a log entry acknowledges nothing, and a sync per execution (about
    // 3 ms here) capped a busy gateway at a few hundred executions a second. In WAL mode the
    // entry still survives a crash of the process; only a crash of the machine may lose the
    // newest ones (the next synced write takes them to disk too).
    const ids = this.unsynced(() => {
      const rowIds = valid.map((v) => {
        const rowId = Number(this.sql.appendLog.run(v.time, v.key, v.tool, v.outcome, JSON.stringify(v), endingOf(v), v.duration_seconds).lastInsertRowid);
        for (const t of callsPerTool(v.tool_calls)) this.sql.appendLogCall.run(rowId, t.server, t.tool, t.calls, t.failures, t.seconds);
        return rowId;
      });
      const dropped = this.sql.newestDropped.get(this.maxLogRows) as { time: string; id: number } | undefined;
      if (dropped) {
        this.sql.trimLogCalls.run(dropped.time, dropped.id);
        this.sql.trimLogs.run(dropped.time, dropped.id);
      }
      return rowIds;
    });
    return valid.map((v, i) => ({ id: ids[i]!, ...v }));
  }

  /** One page of log entries matching every given filter, newest first, and how many match in all. */
  queryLogs(query: LogQuery = {}): LogPage {
    const { limit, offset, clause, params } = logFilter(query);
    // One read transaction: the page and the total come from the same snapshot. No more rows
    // than maxLogRows are kept, so a larger offset is past the end whatever its size.
    return this.db.transaction(() => {
      const { total } = this.prepared(`SELECT COUNT(*) AS total FROM logs ${clause}`).get(...params) as { total: number };
      if (offset >= total) return { logs: [], total };
      const rows = this.prepared(`SELECT id, entry FROM logs ${clause} ORDER BY time DESC, id DESC LIMIT ? OFFSET ?`).all(...params, limit, offset) as {
        id: number;
        entry: string;
      }[];
      const logs = rows.map((row) => readRow(this.path, `logs row ${row.id}`, () => ({ id: row.id, ...logEntryOf(parseJson(row.entry)) })));
      return { logs, total };
    })();
  }

  // --- the overview (gateway/overview.ts) ---
  // Each reads the covering indexes of migration 4, never an entry: at most maxLogRows index
  // rows for the first two, and `rows` rows of log_calls for a page of the third.

  /** Executions started at or after `since` (an ISO time), counted by minute and ending. */
  endingsPerMinute(since: string): MinuteEnding[] {
    return this.sql.endingsPerMinute.all(since) as MinuteEnding[];
  }

  /**
   * The `rank`-th smallest duration (from 1) of the executions started from `from` to before
   * `to` (ISO times), or null when fewer started: a sort of at most maxLogRows index rows.
   */
  durationAt(from: string, to: string, rank: number): number | null {
    if (!Number.isInteger(rank) || rank < 1) throw new StoreError("duration query", `rank must be a positive integer (got ${rank})`);
    const row = this.sql.durationAt.get(from, to, rank - 1) as { d: number } | undefined;
    return row ? row.d : null;
  }

  /**
   * The tool calls of executions started at or after `since`, summed per server, over one page
   * of at most `rows` rows of log_calls after `after` (from the window's first execution when
   * null); `next` is where the next page starts, null after the last.
   */
  callsByServer(since: string, after: CallsKey | null, rows: number): { servers: ServerCalls[]; next: CallsKey | null } {
    if (!Number.isInteger(rows) || rows < 1) throw new StoreError("calls query", `rows must be a positive integer (got ${rows})`);
    return this.db.transaction(() => {
      let from = after;
      if (from === null) {
        const { first } = this.sql.firstLogSince.get(since) as { first: number | null };
        if (first === null) return { servers: [], next: null };
        from = [first - 1, "", ""];
      }
      const end = this.sql.callsPageEnd.get(...from, rows - 1) as { log_id: number; server: string; tool: string } | undefined;
      const servers = (end ? this.sql.callsPage.all(...from, end.log_id, end.server, end.tool, since) : this.sql.callsRest.all(...from, since)) as ServerCalls[];
      return { servers, next: end ? ([end.log_id, end.server, end.tool] as const) : null };
    })();
  }

  // --- observed shapes ---

  /** Every tool's learned shape, each row checked as it is read. */
  listShapes(): ToolShape[] {
    const rows = this.sql.listShapes.all() as { server: string; tool: string; shape: string }[];
    return rows.map((row) => shapeOfRow(this.path, row));
  }

  /**
   * Stores one tool's shape, replacing what it had. Committed unsynced, as log entries are: a
   * learned shape acknowledges nothing to anyone, and a lost one is learned again.
   */
  putShape(server: string, tool: string, shape: Shape): void {
    if (typeof server !== "string" || server === "" || typeof tool !== "string" || tool === "") {
      throw new StoreError("shape", `needs a client and a tool name (got ${JSON.stringify(server)}, ${JSON.stringify(tool)})`);
    }
    const json = JSON.stringify(shape);
    if (parseShape(json) === null) throw new StoreError(`shape of '${server}.${tool}'`, "is not a shape of a tool result");
    this.unsynced(() => this.sql.putShape.run(server, tool, json));
  }

  /** Removes every shape of a client (it was deleted); how many there were. */
  deleteShapes(server: string): number {
    return this.unsynced(() => this.sql.deleteShapes.run(server).changes);
  }

  /** A renamed client's shapes move to its new name, replacing any that name had, in one transaction. */
  moveShapes(from: string, to: string): void {
    if (from === to) return;
    this.unsynced(() => {
      this.sql.deleteShapes.run(to);
      this.sql.moveShapes.run(to, from);
    });
  }

  // --- the whole store ---

  /** True when there are no clients, no settings and no keys: the first start, to seed from config.json. */
  isEmpty(): boolean {
    return (this.sql.isEmpty.get() as { empty: number }).empty === 1;
  }

  /** Seeds an empty store from config.json, in one transaction; answers false, writing nothing, when it is not empty. */
  seed(state: SeedState): boolean {
    return this.db.transaction(() => {
      if (!this.isEmpty()) return false;
      for (const client of state.clients) this.putClient(client);
      for (const key of state.keys) this.putKey(key);
      this.putSettings(state.settings);
      return true;
    })();
  }

  /** Problems `PRAGMA integrity_check` finds; empty when the file is sound. */
  checkIntegrity(): string[] {
    const rows = this.db.pragma("integrity_check") as { integrity_check: string }[];
    const problems = rows.map((r) => r.integrity_check);
    return problems.length === 1 && problems[0] === "ok" ? [] : problems;
  }

  close(): void {
    this.db.close();
  }

  /** A log query's statement, compiled once per combination of filters (a few dozen at most). */
  private prepared(sql: string): Statement {
    let statement = this.queries.get(sql);
    if (!statement) this.queries.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /** Runs `fn` as one write transaction, taking the write lock up front so it cannot deadlock midway. */
  private write<R>(fn: () => R): R {
    return this.db.transaction(fn).immediate();
  }

  /** A write transaction committed without a disk sync (see appendLog): it survives a crash of the process, not of the machine. */
  private unsynced<R>(fn: () => R): R {
    this.db.pragma("synchronous = NORMAL");
    try {
      return this.write(fn);
    } finally {
      this.db.pragma("synchronous = FULL");
    }
  }

  /** Reads one row, turning any problem with it into a StoreError that names the file and the row. */
}

interface KeyRow {
  id: string;
  value: string;
  data: string;
}

/** Brings the schema up to SCHEMA_VERSION; the steps and the version bump commit together. */
function migrate(db: Connection, path: string): void {
  db.transaction(() => {
    db.exec("CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
    const row = db.prepare("SELECT version FROM schema_version WHERE id = 1").get() as { version: number } | undefined;
    const current = row?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new StoreError(path, `the database has schema version ${current}, newer than this gateway's ${SCHEMA_VERSION}: upgrade the gateway or use another file`);
    }
    if (current === SCHEMA_VERSION) return;
    for (let v = current; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.prepare("INSERT INTO schema_version (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version").run(SCHEMA_VERSION);
  }).immediate();
}
