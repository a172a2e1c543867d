// The PostgreSQL store's schema (pg-store.ts) and how it is brought up to date. Migrations are
// versioned like the SQLite store's: entry i takes the schema from version i to i + 1, each in
// its own transaction with the version bump. Instances starting together take a session-level
// advisory lock first, so exactly one migrates and the others wait, then find nothing to do.
import type pg from "pg";

/** The advisory lock every instance takes before reading the schema version (any fixed 64-bit number). */
export const MIGRATION_LOCK = 0x636d_6701;

/**
 * Append, never edit. Text columns that are compared as tuples or sorted (times, names) use the
 * "C" collation, so that order is byte order whatever the database's locale, as in SQLite.
 */
export const PG_MIGRATIONS: readonly string[] = [
  // 1: everything the SQLite store has at its version 5, in one step. `position` keeps insertion
  // order across replacements; a unique index on lower(name) refuses two clients whose names
  // differ only in case even when two instances add them at once. Logs carry the instance that
  // ran them; trimming a log row takes its calls with it.
  `CREATE TABLE clients (
     name TEXT COLLATE "C" PRIMARY KEY,
     position BIGSERIAL NOT NULL,
     config TEXT NOT NULL
   );
   CREATE UNIQUE INDEX clients_name_nocase ON clients (lower(name));
   CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL);
   CREATE TABLE virtual_keys (
     id TEXT COLLATE "C" PRIMARY KEY,
     position BIGSERIAL NOT NULL,
     value TEXT NOT NULL UNIQUE,
     data TEXT NOT NULL
   );
   CREATE TABLE logs (
     id BIGSERIAL PRIMARY KEY,
     time TEXT COLLATE "C" NOT NULL,
     key TEXT NOT NULL,
     tool TEXT NOT NULL,
     outcome TEXT NOT NULL,
     ending TEXT NOT NULL,
     duration_seconds DOUBLE PRECISION NOT NULL,
     instance TEXT NOT NULL,
     entry TEXT NOT NULL
   );
   CREATE INDEX logs_by_time ON logs (time, id);
   CREATE INDEX logs_by_time_ending ON logs (time, ending, duration_seconds);
   CREATE INDEX logs_by_key ON logs (key);
   CREATE TABLE log_calls (
     log_id BIGINT NOT NULL REFERENCES logs (id) ON DELETE CASCADE,
     server TEXT COLLATE "C" NOT NULL,
     tool TEXT COLLATE "C" NOT NULL,
     calls INTEGER NOT NULL,
     failures INTEGER NOT NULL,
     seconds DOUBLE PRECISION NOT NULL,
     PRIMARY KEY (log_id, server, tool)
   );
   CREATE INDEX log_calls_by_tool ON log_calls (tool, server);
   CREATE TABLE shapes (
     server TEXT COLLATE "C" NOT NULL,
     tool TEXT COLLATE "C" NOT NULL,
     shape TEXT NOT NULL,
     PRIMARY KEY (server, tool)
   );
   CREATE TABLE mcp_sessions (
     id TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     host TEXT NOT NULL,
     hello TEXT NOT NULL,
     last_used BIGINT NOT NULL
   );
   CREATE INDEX mcp_sessions_by_last_used ON mcp_sessions (last_used);`,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** The schema is newer than this gateway knows, or a migration failed: the message says which. */
export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MigrationError";
  }
}

/**
 * Brings the schema up to PG_SCHEMA_VERSION under the migration lock; answers the versions it
 * went from and to. `migrations` is for tests (a later migration added to the list).
 */
export async function migratePg(client: pg.ClientBase, migrations: readonly string[] = PG_MIGRATIONS): Promise<{ from: number; to: number }> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  try {
    await client.query("CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_version WHERE id = 1");
    const from = rows[0]?.version ?? 0;
    if (from > migrations.length) {
      throw new MigrationError(`the database has schema version ${from}, newer than this gateway's ${migrations.length}: upgrade the gateway or use another database`);
    }
    for (let v = from; v < migrations.length; v++) {
      await client.query("BEGIN");
      try {
        await client.query(migrations[v]!);
        await client.query(
          "INSERT INTO schema_version (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version",
          [v + 1],
        );
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw new MigrationError(`migration ${v + 1} failed: ${(e as Error).message}`);
      }
    }
    return { from, to: Math.max(from, migrations.length) };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
  }
}
