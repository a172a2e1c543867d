// MCP session records (mcp-sessions.ts) in the SQLite store's `mcp_sessions` table (migration 5
// of store.ts): a session outlives a restart of the one process that may use the file. Each
// write is its own committed statement; a record is checked as it is read back.
import type { McpClientHello, McpSessionRecord, McpSessionRecords } from "./mcp-sessions.js";
import { parseJson } from "./store-rows.js";

/** The part of a better-sqlite3 connection this uses. */
interface SessionDatabase {
  prepare(sql: string): {
    run(...params: unknown[]): { changes: number };
    get(...params: unknown[]): unknown;
  };
}

interface SessionRow {
  id: string;
  owner: string;
  host: string;
  hello: string;
  last_used: number;
}

/** Reads a row back as a record; a corrupt one is an error naming the session. */
export function sessionOf(row: SessionRow, where: string): McpSessionRecord {
  let hello: unknown;
  try {
    hello = parseJson(row.hello);
  } catch (e) {
    throw new Error(`${where}: mcp_sessions row '${row.id}': hello is ${(e as Error).message}`);
  }
  if (!hello || typeof hello !== "object" || Array.isArray(hello)) throw new Error(`${where}: mcp_sessions row '${row.id}': hello must be an object`);
  return { id: row.id, owner: row.owner, host: row.host, hello: hello as McpClientHello, lastUsed: Number(row.last_used) };
}

/** Session records kept in a SQLite database whose schema has `mcp_sessions`. */
export class SqliteSessionRecords implements McpSessionRecords {
  private readonly sql;

  constructor(
    db: SessionDatabase,
    private readonly where: string,
  ) {
    this.sql = {
      get: db.prepare("SELECT id, owner, host, hello, last_used FROM mcp_sessions WHERE id = ?"),
      put: db.prepare(
        "INSERT INTO mcp_sessions (id, owner, host, hello, last_used) VALUES (?, ?, ?, ?, ?) " +
          "ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, host = excluded.host, hello = excluded.hello, last_used = excluded.last_used",
      ),
      touch: db.prepare("UPDATE mcp_sessions SET last_used = ? WHERE id = ? AND last_used < ?"),
      delete: db.prepare("DELETE FROM mcp_sessions WHERE id = ?"),
      expire: db.prepare("DELETE FROM mcp_sessions WHERE last_used < ?"),
    };
  }

  async get(id: string): Promise<McpSessionRecord | null> {
    const row = this.sql.get.get(id) as SessionRow | undefined;
    return row ? sessionOf(row, this.where) : null;
  }

  async put(record: McpSessionRecord): Promise<void> {
    this.sql.put.run(record.id, record.owner, record.host, JSON.stringify(record.hello), record.lastUsed);
  }

  async touch(id: string, lastUsed: number): Promise<void> {
    this.sql.touch.run(lastUsed, id, lastUsed);
  }

  async delete(id: string): Promise<void> {
    this.sql.delete.run(id);
  }

  async expire(before: number): Promise<number> {
    return this.sql.expire.run(before).changes;
  }
}
