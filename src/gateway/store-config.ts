// config.json's `store`: where the gateway keeps its state. Absent, it is the SQLite file
// `gateway.db` in the data folder (one instance); `{"type": "sqlite", "path": "..."}` names the
// file; `{"type": "postgres", "url": "env.DATABASE_URL"}` shares one PostgreSQL database among
// every instance. `env.NAME` values are read by config-file.ts before this checks them.
import { withoutPassword } from "./client-changes.js";
import { ConfigError } from "../upstream/config.js";

export type StoreSection = { type: "sqlite"; path?: string } | { type: "postgres"; url: string };

const FIELDS = { sqlite: ["type", "path"], postgres: ["type", "url"] } as const;

/** What is wrong with a PostgreSQL URL (never showing its password), or null when it is one. */
export function pgUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "is not a URL; give one like postgres://user:password@host:5432/database";
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") return `must be a postgres:// URL (got ${parsed.protocol}//...)`;
  if (!parsed.hostname) return `names no host (${withoutPassword(url)})`;
  return null;
}

/** Checks `store`; a ConfigError names the field. */
export function parseStoreSection(raw: unknown, at = "store"): StoreSection | undefined {
  if (raw === undefined) return undefined;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new ConfigError(at, 'must be an object, like {"type": "postgres", "url": "env.DATABASE_URL"}');
  const section = raw as Record<string, unknown>;
  const type = section.type;
  if (type !== "sqlite" && type !== "postgres") throw new ConfigError(`${at}.type`, `must be "sqlite" or "postgres" (got ${JSON.stringify(type)})`);
  for (const field of Object.keys(section)) {
    if (!(FIELDS[type] as readonly string[]).includes(field)) throw new ConfigError(`${at}.${field}`, `is not a field of a ${type} store (its fields: ${FIELDS[type].join(", ")})`);
  }
  if (type === "sqlite") {
    if (section.path === undefined) return { type };
    if (typeof section.path !== "string" || section.path === "") throw new ConfigError(`${at}.path`, "must be a non-empty string (the database file)");
    return { type, path: section.path };
  }
  if (typeof section.url !== "string" || section.url === "") throw new ConfigError(`${at}.url`, 'must be a non-empty string (e.g. "env.DATABASE_URL")');
  const problem = pgUrlProblem(section.url);
  if (problem) throw new ConfigError(`${at}.url`, problem);
  return { type, url: section.url };
}
