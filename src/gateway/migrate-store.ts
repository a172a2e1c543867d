// `code-mode-gateway migrate --from <sqlite file> --to <postgres url>`: the state of a
// single-instance gateway (its SQLite file) copied into an empty PostgreSQL database, so that
// several instances can share it. The SQLite file is locked while it is read (no gateway may be
// running on it) and left as it was; the copy is one transaction. MCP session records are not
// copied: their clients initialize again.
import { existsSync } from "node:fs";
import { PgStore, type CopiedState } from "./pg-store.js";
import { SqliteLock } from "./sqlite-lock.js";
import { MAX_LOG_PAGE, Store, StoreError } from "./store.js";
import { withoutPassword } from "./client-changes.js";

/** What one migration copied, counted. */
export interface Migrated {
  clients: number;
  settings: boolean;
  keys: number;
  shapes: number;
  logs: number;
}

/** Reads the whole state of the SQLite store at `path`, log entries oldest first. */
export function readSqliteState(path: string): CopiedState {
  if (!existsSync(path)) throw new StoreError(path, "no such file: give the gateway.db of the gateway to migrate (in its --data folder)");
  const lock = SqliteLock.acquire(path);
  try {
    const store = new Store(path);
    try {
      const logs = [];
      for (let offset = 0; ; offset += MAX_LOG_PAGE) {
        const page = store.queryLogs({ limit: MAX_LOG_PAGE, offset });
        logs.push(...page.logs.map(({ id: _id, ...entry }) => entry));
        if (offset + MAX_LOG_PAGE >= page.total) break;
      }
      logs.reverse();
      return { clients: store.listClients(), settings: store.getSettings(), keys: store.listKeys(), shapes: store.listShapes(), logs };
    } finally {
      store.close();
    }
  } finally {
    lock.release();
  }
}

/** Copies the SQLite store at `from` into the empty PostgreSQL database at `to`. */
export async function migrateStore(from: string, to: string): Promise<Migrated> {
  const state = readSqliteState(from);
  const target = await PgStore.open({ url: to });
  try {
    await target.importState(state, `migrated from ${from}`);
  } finally {
    await target.close();
  }
  return { clients: state.clients.length, settings: state.settings !== null, keys: state.keys.length, shapes: state.shapes.length, logs: state.logs.length };
}

/** One line saying what a migration copied, and where. */
export function migratedText(m: Migrated, from: string, to: string): string {
  const parts = [`${m.clients} client${m.clients === 1 ? "" : "s"}`, m.settings ? "the settings" : "no settings", `${m.keys} virtual key${m.keys === 1 ? "" : "s"}`, `${m.shapes} observed shape${m.shapes === 1 ? "" : "s"}`, `${m.logs} log entr${m.logs === 1 ? "y" : "ies"}`];
  return `copied ${parts.join(", ")} from ${from} to ${withoutPassword(to)}`;
}
