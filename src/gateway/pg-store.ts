// The PostgreSQL state store: the same state as the SQLite store (store.ts), shared by every
// gateway instance pointed at one database. A write resolves once committed; clients, settings,
// keys and shapes also NOTIFY the change channel in the same transaction (so the note is sent
// only if the change committed), naming what changed and the instance that wrote it, for the
// others to apply (change-feed.ts). Writes of one instance commit in the order they were made.
// Log entries are written in batches and, with shapes, committed with synchronous_commit off, as
// the SQLite store leaves them unsynced: a crash of the database server may lose the newest ones,
// never a key or client.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { parseShape, type Shape } from "../codemode/shape.js";
import { type ClientConfig, parseClientConfig } from "../upstream/config.js";
import { CHANGE_CHANNEL, type ChangeKind, type StoreChange } from "./change-feed.js";
import { withoutPassword } from "./client-changes.js";
import { endingOf } from "./ending.js";
import { migratePg } from "./pg-migrations.js";
import { PgSessionRecords } from "./pg-sessions.js";
import { pgUrlProblem } from "./store-config.js";
import type { ToolShape } from "./shapes.js";
import type { SeedState, StateStore } from "./state-store.js";
import {
  type CallsKey, DEFAULT_MAX_LOG_ROWS, type LogEntry, type LogPage, type LogQuery,
  type MinuteEnding, type NewLogEntry, type ServerCalls, StoreError, type StoredSettings,
} from "./store.js";
import { callsPerTool, clientOfRow, keyOfRow, logEntryOf, logFilter, parseJson, readRow, settingsOf, shapeOfRow } from "./store-rows.js";
import { parseVirtualKey, type VirtualKey } from "./virtual-keys.js";

export interface PgStoreOptions {
  /** `postgres://user:password@host:port/database` (config.json's `store.url`). */
  url: string;
  /** Log rows kept across all instances; older ones are trimmed as new ones are appended. */
  maxLogRows?: number;
  /** This instance's id, in the change notes and the log rows (default: a random one). */
  instance?: string;
  /** How long connecting may take before start-up fails (default 5 s). */
  connectTimeoutMs?: number;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** Told of a connection the pool lost while idle (the server restarted, say). */
  onError?: (error: Error) => void;
}

/** The advisory lock that seeding and migrating into the store take, so only one fills it. */
const SEED_LOCK = 0x636d_6703;

/** A transaction committed without waiting for the disk (log entries, shapes: see the top). */
const UNSYNCED_BEGIN = "BEGIN; SET LOCAL synchronous_commit = off";

/** The most log entries one batch writes, and the most that may wait for the database. */
const LOG_BATCH = 500;
const MAX_QUEUED_LOGS = 20_000;

interface QueuedLog {
  entry: NewLogEntry;
  resolve(entry: LogEntry): void;
  reject(error: Error): void;
}

/** `?` placeholders, in order, as PostgreSQL's `$1, $2, ...`: the queries read like the SQLite store's. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export class PgStore implements StateStore {
  readonly sessions: PgSessionRecords;
  private readonly maxLogRows: number;
  /** The tail of this instance's writes of state: each starts once the one before has committed. */
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Log entries waiting for the batch being written (appendLog). */
  private readonly queuedLogs: QueuedLog[] = [];
  private flushingLogs: Promise<void> | null = null;

  private constructor(
    readonly pool: pg.Pool,
    /** The URL without its password, for messages. */
    readonly where: string,
    readonly instance: string,
    maxLogRows: number,
  ) {
    this.maxLogRows = maxLogRows;
    this.sessions = new PgSessionRecords(pool, where);
  }

  /**
   * Connects (failing after connectTimeoutMs with a StoreError naming the server), brings the
   * schema up to date under the migration lock, and answers the store.
   */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const where = withoutPassword(options.url);
    const problem = pgUrlProblem(options.url);
    if (problem) throw new StoreError("store.url", problem);
    const maxLogRows = options.maxLogRows ?? DEFAULT_MAX_LOG_ROWS;
    if (!Number.isInteger(maxLogRows) || maxLogRows < 1) throw new StoreError(where, `maxLogRows must be a positive integer (got ${maxLogRows})`);
    const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      application_name: "code-mode-gateway",
    });
    // An idle connection the server drops must not crash the process: the pool replaces it.
    pool.on("error", (e) => options.onError?.(e));
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw new StoreError(where, `cannot connect to PostgreSQL within ${connectTimeoutMs / 1000} s: ${(e as Error).message || String(e)}`);
    }
    try {
      await migratePg(client);
    } catch (e) {
      client.release();
      await pool.end().catch(() => undefined);
      throw new StoreError(where, (e as Error).message);
    }
    client.release();
    return new PgStore(pool, where, options.instance ?? randomUUID(), maxLogRows);
  }

  // --- clients ---

  async listClients(): Promise<ClientConfig[]> {
    const { rows } = await this.pool.query<{ name: string; config: string }>("SELECT name, config FROM clients ORDER BY position");
    return rows.map((row) => clientOfRow(this.where, row));
  }

  putClient(config: ClientConfig, previousName?: string): Promise<void> {
    const valid = parseClientConfig(config, "client");
    const json = JSON.stringify(valid);
    return this.write("clients", valid.name, async (c) => {
      const target = previousName ?? valid.name;
      const clash = await c.query<{ name: string }>("SELECT name FROM clients WHERE lower(name) = lower($1) AND name <> $2", [valid.name, target]);
      if (clash.rows[0]) {
        const other = clash.rows[0].name;
        const what = target === valid.name ? `cannot add '${valid.name}'` : `cannot rename '${target}' to '${valid.name}'`;
        throw new StoreError(`clients row '${other}'`, `${what}: client '${other}' already has that name`);
      }
      const updated = await c.query("UPDATE clients SET name = $1, config = $2 WHERE name = $3", [valid.name, json, target]);
      if (updated.rowCount === 0) {
        if (previousName !== undefined && previousName !== valid.name) throw new StoreError(`clients row '${previousName}'`, "no such client to replace");
        await c.query("INSERT INTO clients (name, config) VALUES ($1, $2)", [valid.name, json]);
      }
    });
  }

  deleteClient(name: string): Promise<boolean> {
    return this.write("clients", name, async (c) => ((await c.query("DELETE FROM clients WHERE name = $1", [name])).rowCount ?? 0) > 0);
  }

  // --- settings ---

  async getSettings(): Promise<StoredSettings | null> {
    const { rows } = await this.pool.query<{ value: string }>("SELECT value FROM settings WHERE id = 1");
    if (!rows[0]) return null;
    const value = rows[0].value;
    return readRow(this.where, "settings row", () => settingsOf(parseJson(value)));
  }

  putSettings(settings: StoredSettings): Promise<void> {
    let valid: StoredSettings;
    try {
      valid = settingsOf(settings);
    } catch (e) {
      return Promise.reject(new StoreError("settings", (e as Error).message));
    }
    const json = JSON.stringify(valid);
    return this.write("settings", "settings", async (c) => {
      await c.query("INSERT INTO settings (id, value) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET value = excluded.value", [json]);
    });
  }

  // --- virtual keys ---

  async listKeys(): Promise<VirtualKey[]> {
    const { rows } = await this.pool.query<KeyRow>("SELECT id, value, data FROM virtual_keys ORDER BY position");
    return rows.map((row) => keyOfRow(this.where, row));
  }

  putKey(key: VirtualKey): Promise<void> {
    let valid: VirtualKey;
    try {
      valid = parseVirtualKey(key, "key");
    } catch (e) {
      return Promise.reject(new StoreError(`virtual key '${String(key?.id)}'`, (e as Error).message));
    }
    const json = JSON.stringify(valid);
    return this.write("keys", valid.id, async (c) => {
      const holder = await c.query<{ id: string }>("SELECT id FROM virtual_keys WHERE value = $1", [valid.value]);
      if (holder.rows[0] && holder.rows[0].id !== valid.id) {
        throw new StoreError(`virtual key '${valid.id}'`, `its value is already the value of key '${holder.rows[0].id}'; every key needs its own value`);
      }
      const updated = await c.query("UPDATE virtual_keys SET value = $1, data = $2 WHERE id = $3", [valid.value, json, valid.id]);
      if (updated.rowCount === 0) await c.query("INSERT INTO virtual_keys (id, value, data) VALUES ($1, $2, $3)", [valid.id, valid.value, json]);
    });
  }

  deleteKey(id: string): Promise<boolean> {
    return this.write("keys", id, async (c) => ((await c.query("DELETE FROM virtual_keys WHERE id = $1", [id])).rowCount ?? 0) > 0);
  }

  // --- logs ---

  /**
   * Records one execution (with this instance's id) and answers it with its id. Entries are
   * written in batches: whatever arrives while one batch commits goes in the next, in one
   * transaction of a few statements, so a busy instance costs the database one commit per batch
   * rather than per execution. Each batch then trims the log to the newest maxLogRows appended
   * (by id, over every instance). Past MAX_QUEUED_LOGS waiting, an entry is refused (and
   * reported by the execution log) rather than held in memory without bound.
   */
  appendLog(entry: NewLogEntry): Promise<LogEntry> {
    let valid: NewLogEntry;
    try {
      valid = logEntryOf(entry);
    } catch (e) {
      return Promise.reject(new StoreError("log entry", (e as Error).message));
    }
    if (this.queuedLogs.length >= MAX_QUEUED_LOGS) {
      return Promise.reject(new StoreError(this.where, `${MAX_QUEUED_LOGS} log entries are waiting for the database already; this one is dropped`));
    }
    return new Promise((resolve, reject) => {
      this.queuedLogs.push({ entry: valid, resolve, reject });
      this.flushingLogs ??= this.flushLogs();
    });
  }

  /** Records several executions (they join the batches appendLog makes). */
  appendLogs(entries: readonly NewLogEntry[]): Promise<LogEntry[]> {
    return Promise.all(entries.map((entry) => this.appendLog(entry)));
  }

  /** Writes the waiting entries a batch at a time until none wait. */
  private async flushLogs(): Promise<void> {
    while (this.queuedLogs.length > 0) {
      const batch = this.queuedLogs.splice(0, LOG_BATCH);
      try {
        // Four round trips: begin, the entries, their calls with the trim, commit.
        const ids = await this.transaction((c) => this.insertLogs(c, batch.map((b) => b.entry), this.instance, this.maxLogRows), UNSYNCED_BEGIN);
        batch.forEach((b, i) => b.resolve({ id: ids[i]!, ...b.entry }));
      } catch (e) {
        for (const b of batch) b.reject(e as Error);
      }
    }
    this.flushingLogs = null;
  }

  /**
   * Inserts checked entries with their calls, in their order; answers their ids. With `keep`,
   * the log is then trimmed to the newest `keep` rows appended (by id), in the calls' statement.
   */
  private async insertLogs(c: pg.PoolClient, entries: readonly NewLogEntry[], instance: string, keep: number | null = null): Promise<number[]> {
    // A serial id is given to each row as the SELECT yields it, in the arrays' order.
    const inserted = await c.query<{ id: string }>(
      `INSERT INTO logs (time, key, tool, outcome, entry, ending, duration_seconds, instance)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[])
       RETURNING id`,
      [
        entries.map((e) => e.time),
        entries.map((e) => e.key),
        entries.map((e) => e.tool),
        entries.map((e) => e.outcome),
        entries.map((e) => JSON.stringify(e)),
        entries.map((e) => endingOf(e)),
        entries.map((e) => e.duration_seconds),
        entries.map(() => instance),
      ],
    );
    const ids = inserted.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    const calls = entries.flatMap((e, i) => callsPerTool(e.tool_calls).map((t) => ({ id: ids[i]!, ...t })));
    const oldest = keep === null ? null : ids[ids.length - 1]! - keep;
    if (calls.length > 0) {
      await c.query(
        `${oldest === null ? "" : "WITH trimmed AS (DELETE FROM logs WHERE id <= $7) "}INSERT INTO log_calls (log_id, server, tool, calls, failures, seconds)
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::int[], $6::float8[])`,
        [
          calls.map((t) => t.id), calls.map((t) => t.server), calls.map((t) => t.tool), calls.map((t) => t.calls), calls.map((t) => t.failures), calls.map((t) => t.seconds),
          ...(oldest === null ? [] : [oldest]),
        ],
      );
    } else if (oldest !== null) {
      await c.query("DELETE FROM logs WHERE id <= $1", [oldest]);
    }
    return ids;
  }

  async queryLogs(query: LogQuery = {}): Promise<LogPage> {
    const { limit, offset, clause, params } = logFilter(query);
    // The page and the total from one snapshot.
    return this.transaction(async (c) => {
      await c.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const counted = await c.query<{ total: number }>(numbered(`SELECT COUNT(*)::int AS total FROM logs ${clause}`), params);
      const total = counted.rows[0]!.total;
      if (offset >= total) return { logs: [], total };
      const { rows } = await c.query<{ id: string; entry: string }>(
        numbered(`SELECT id, entry FROM logs ${clause} ORDER BY time DESC, id DESC LIMIT ? OFFSET ?`),
        [...params, limit, offset],
      );
      const logs = rows.map((row) => readRow(this.where, `logs row ${row.id}`, () => ({ id: Number(row.id), ...logEntryOf(parseJson(row.entry)) })));
      return { logs, total };
    });
  }

  // --- the overview (gateway/overview.ts) ---

  async endingsPerMinute(since: string): Promise<MinuteEnding[]> {
    const { rows } = await this.pool.query<MinuteEnding>(
      "SELECT substr(time, 1, 16) AS minute, ending, COUNT(*)::int AS count FROM logs WHERE time >= $1 GROUP BY 1, 2 ORDER BY 1, 2",
      [since],
    );
    return rows;
  }

  async durationAt(from: string, to: string, rank: number): Promise<number | null> {
    if (!Number.isInteger(rank) || rank < 1) throw new StoreError("duration query", `rank must be a positive integer (got ${rank})`);
    const { rows } = await this.pool.query<{ d: number }>(
      "SELECT duration_seconds AS d FROM logs WHERE time >= $1 AND time < $2 ORDER BY duration_seconds LIMIT 1 OFFSET $3",
      [from, to, rank - 1],
    );
    return rows[0] ? rows[0].d : null;
  }

  async callsByServer(since: string, after: CallsKey | null, rows: number): Promise<{ servers: ServerCalls[]; next: CallsKey | null }> {
    if (!Number.isInteger(rows) || rows < 1) throw new StoreError("calls query", `rows must be a positive integer (got ${rows})`);
    return this.transaction(async (c) => {
      await c.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      let from = after;
      if (from === null) {
        const first = (await c.query<{ first: string | null }>("SELECT MIN(id) AS first FROM logs WHERE time >= $1", [since])).rows[0]!.first;
        if (first === null) return { servers: [], next: null };
        from = [Number(first) - 1, "", ""];
      }
      const end = (await c.query<{ log_id: string; server: string; tool: string }>(
        "SELECT log_id, server, tool FROM log_calls WHERE (log_id, server, tool) > ($1, $2, $3) ORDER BY log_id, server, tool LIMIT 1 OFFSET $4",
        [...from, rows - 1],
      )).rows[0];
      const sums = `SELECT c.server, SUM(c.calls)::int AS calls, SUM(c.failures)::int AS failures, COALESCE(SUM(c.seconds), 0)::float8 AS seconds
                    FROM log_calls AS c JOIN logs AS l ON l.id = c.log_id`;
      const servers = end
        ? await c.query<ServerCalls>(`${sums} WHERE (c.log_id, c.server, c.tool) > ($1, $2, $3) AND (c.log_id, c.server, c.tool) <= ($4, $5, $6) AND l.time >= $7 GROUP BY c.server`,
          [...from, end.log_id, end.server, end.tool, since])
        : await c.query<ServerCalls>(`${sums} WHERE (c.log_id, c.server, c.tool) > ($1, $2, $3) AND l.time >= $4 GROUP BY c.server`, [...from, since]);
      return { servers: servers.rows, next: end ? ([Number(end.log_id), end.server, end.tool] as const) : null };
    });
  }

  // --- observed shapes ---

  async listShapes(): Promise<ToolShape[]> {
    const { rows } = await this.pool.query<{ server: string; tool: string; shape: string }>("SELECT server, tool, shape FROM shapes ORDER BY server, tool");
    return rows.map((row) => shapeOfRow(this.where, row));
  }

  putShape(server: string, tool: string, shape: Shape): Promise<void> {
    if (typeof server !== "string" || server === "" || typeof tool !== "string" || tool === "") {
      return Promise.reject(new StoreError("shape", `needs a client and a tool name (got ${JSON.stringify(server)}, ${JSON.stringify(tool)})`));
    }
    const json = JSON.stringify(shape);
    if (parseShape(json) === null) return Promise.reject(new StoreError(`shape of '${server}.${tool}'`, "is not a shape of a tool result"));
    return this.write(
      "shapes",
      server,
      async (c) => {
        await c.query("INSERT INTO shapes (server, tool, shape) VALUES ($1, $2, $3) ON CONFLICT (server, tool) DO UPDATE SET shape = excluded.shape", [server, tool, json]);
      },
      UNSYNCED_BEGIN,
    );
  }

  deleteShapes(server: string): Promise<number> {
    return this.write("shapes", server, async (c) => (await c.query("DELETE FROM shapes WHERE server = $1", [server])).rowCount ?? 0);
  }

  async moveShapes(from: string, to: string): Promise<void> {
    if (from === to) return;
    await this.write("shapes", to, async (c) => {
      await c.query("DELETE FROM shapes WHERE server = $1", [to]);
      await c.query("UPDATE shapes SET server = $1 WHERE server = $2", [to, from]);
    });
  }

  // --- the whole store ---

  async isEmpty(): Promise<boolean> {
    const { rows } = await this.pool.query<{ empty: boolean }>(
      "SELECT NOT (EXISTS (SELECT 1 FROM clients) OR EXISTS (SELECT 1 FROM settings) OR EXISTS (SELECT 1 FROM virtual_keys)) AS empty",
    );
    return rows[0]!.empty;
  }

  /**
   * Writes a whole state (`code-mode-gateway migrate`) into this store, which must hold none:
   * one transaction, so a failure leaves it as empty as it was. Log entries go in oldest first,
   * marked as from the instance `from` names. Running instances hear of every kind at once.
   */
  async importState(state: CopiedState, from: string): Promise<void> {
    const entries = state.logs.map((entry) => logEntryOf(entry));
    await this.fill(state, async (c, held) => {
      if (held.length > 0) throw new StoreError(this.where, `already holds ${held.join(", ")}: migrate into an empty database`);
      for (let at = 0; at < entries.length; at += LOG_BATCH) await this.insertLogs(c, entries.slice(at, at + LOG_BATCH), from);
      return true;
    });
  }

  /**
   * Seeds an empty store from config.json; answers false, writing nothing, when it holds clients,
   * settings or keys already. Instances starting together seed it once: the check and the
   * writes are one transaction under an advisory lock.
   */
  seed(state: SeedState): Promise<boolean> {
    return this.fill({ ...state, shapes: [] }, async (_c, held) => held.every((what) => what === "log entries"));
  }

  /**
   * Writes `state` in one transaction under the seeding lock, if `go` (told what the store holds
   * already) says so; every kind is then noted for the other instances.
   */
  private fill(state: Omit<CopiedState, "logs">, go: (c: pg.PoolClient, held: string[]) => Promise<boolean>): Promise<boolean> {
    return this.write("clients", "*", async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1)", [SEED_LOCK]);
      const held = await c.query<{ what: string }>(
        `SELECT 'clients' AS what WHERE EXISTS (SELECT 1 FROM clients) UNION ALL SELECT 'settings' WHERE EXISTS (SELECT 1 FROM settings)
         UNION ALL SELECT 'virtual keys' WHERE EXISTS (SELECT 1 FROM virtual_keys) UNION ALL SELECT 'log entries' WHERE EXISTS (SELECT 1 FROM logs)`,
      );
      if (!(await go(c, held.rows.map((r) => r.what)))) return false;
      for (const config of state.clients) await c.query("INSERT INTO clients (name, config) VALUES ($1, $2)", [config.name, JSON.stringify(parseClientConfig(config, "client"))]);
      if (state.settings) await c.query("INSERT INTO settings (id, value) VALUES (1, $1)", [JSON.stringify(settingsOf(state.settings))]);
      for (const key of state.keys) {
        const valid = parseVirtualKey(key, "key");
        await c.query("INSERT INTO virtual_keys (id, value, data) VALUES ($1, $2, $3)", [valid.id, valid.value, JSON.stringify(valid)]);
      }
      for (const { server, tool, shape } of state.shapes) await c.query("INSERT INTO shapes (server, tool, shape) VALUES ($1, $2, $3)", [server, tool, JSON.stringify(shape)]);
      for (const kind of ["settings", "keys", "shapes"] as const) {
        await c.query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, JSON.stringify({ kind, id: "*", instance: this.instance } satisfies StoreChange)]);
      }
      return true;
    });
  }

  /** Waits for the writes made so far, then closes the pool. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    await this.flushingLogs;
    await this.pool.end();
  }

  /**
   * One write of state, after the ones before it: a transaction that also notes the change on
   * the channel, so other instances hear of it exactly when it commits.
   */
  private write<R>(kind: ChangeKind, id: string, fn: (c: pg.PoolClient) => Promise<R>, begin = "BEGIN"): Promise<R> {
    const note: StoreChange = { kind, id, instance: this.instance };
    const run = () => this.transaction(async (c) => {
      const result = await fn(c);
      await c.query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, JSON.stringify(note)]);
      return result;
    }, begin);
    const done = this.tail.then(run, run);
    this.tail = done.catch(() => undefined);
    return done;
  }

  private async transaction<R>(fn: (c: pg.PoolClient) => Promise<R>, begin = "BEGIN"): Promise<R> {
    if (this.closed && this.pool.ended) throw new StoreError(this.where, "the store is closed");
    const c = await this.pool.connect().catch((e: Error) => {
      throw new StoreError(this.where, `cannot reach PostgreSQL: ${e.message}`);
    });
    try {
      await c.query(begin);
      const result = await fn(c);
      await c.query("COMMIT");
      return result;
    } catch (e) {
      await c.query("ROLLBACK").catch(() => undefined);
      if (e instanceof StoreError) throw e;
      throw new StoreError(this.where, (e as Error).message);
    } finally {
      c.release();
    }
  }

}

/** Everything `code-mode-gateway migrate` copies from one store to another (log entries oldest first). */
export interface CopiedState {
  clients: ClientConfig[];
  settings: StoredSettings | null;
  keys: VirtualKey[];
  shapes: ToolShape[];
  logs: NewLogEntry[];
}

interface KeyRow {
  id: string;
  value: string;
  data: string;
}
