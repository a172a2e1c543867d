// MCP session records (mcp-sessions.ts) in the PostgreSQL store's `mcp_sessions` table: a
// session opened on one instance is found by every other, with its owner, Host and the client's
// `initialize` params. Each method is one committed statement.
import type pg from "pg";
import type { McpSessionRecord, McpSessionRecords } from "./mcp-sessions.js";
import { sessionOf } from "./sqlite-sessions.js";

/** Session records in a database migrated by pg-migrations.ts. */
export class PgSessionRecords implements McpSessionRecords {
  constructor(
    private readonly pool: pg.Pool,
    private readonly where: string,
  ) {}

  async get(id: string): Promise<McpSessionRecord | null> {
    const { rows } = await this.pool.query<{ id: string; owner: string; host: string; hello: string; last_used: string }>(
      "SELECT id, owner, host, hello, last_used FROM mcp_sessions WHERE id = $1",
      [id],
    );
    return rows[0] ? sessionOf({ ...rows[0], last_used: Number(rows[0].last_used) }, this.where) : null;
  }

  async put(record: McpSessionRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO mcp_sessions (id, owner, host, hello, last_used) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, host = excluded.host, hello = excluded.hello, last_used = excluded.last_used`,
      [record.id, record.owner, record.host, JSON.stringify(record.hello), record.lastUsed],
    );
  }

  async touch(id: string, lastUsed: number): Promise<boolean> {
    // One statement: moves last_used forward, and answers whether the record is there at all.
    const { rows } = await this.pool.query(
      `WITH moved AS (UPDATE mcp_sessions SET last_used = $1 WHERE id = $2 AND last_used < $1 RETURNING id)
       SELECT EXISTS (SELECT 1 FROM moved) OR EXISTS (SELECT 1 FROM mcp_sessions WHERE id = $2) AS found`,
      [lastUsed, id],
    );
    return rows[0]?.found === true;
  }

  async delete(id: string): Promise<void> {
    await this.pool.query("DELETE FROM mcp_sessions WHERE id = $1", [id]);
  }

  async expire(before: number): Promise<number> {
    return (await this.pool.query("DELETE FROM mcp_sessions WHERE last_used < $1", [before])).rowCount ?? 0;
  }
}
