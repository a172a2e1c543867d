// The row models both state stores check (store.ts for SQLite, pg-store.ts for PostgreSQL):
// settings, log entries and the per-tool sums of a log entry's calls; and a log query's filter. Rows are checked when
// written and when read back, so a corrupt one is an error naming its field, never a default.
import { z } from "zod";
import { type Limits, resolveLimits } from "../interpreter/index.js";
import { parseShape } from "../codemode/shape.js";
import { type ClientConfig, parseClientConfig } from "../upstream/config.js";
import type { ToolShape } from "./shapes.js";
import { StoreError } from "./store-error.js";
import { parseVirtualKey, type VirtualKey } from "./virtual-keys.js";
import type { LogCall, LogEntry, LogQuery, NewLogEntry, StoredSettings } from "./store.js";

export const DEFAULT_LOG_PAGE = 50;
/** The one page cap of the log: a full page (read, checked and sent) holds the event loop ~10 ms. */
export const MAX_LOG_PAGE = 500;

const nonNegativeInt = z.number().int().nonnegative();

const SettingsSchema = z.object({
  limits: z.record(z.string(), z.unknown()),
  bindingLevel: z.enum(["server", "tool"]),
  instructionsLimit: nonNegativeInt,
  directInstructionsLimit: nonNegativeInt,
  maxAgentDepth: nonNegativeInt,
  observedShapes: z.boolean().optional(),
});

/** Parses with a zod schema; the first problem becomes one message naming its field. */
function check<T>(schema: z.ZodType<T>, raw: unknown, at: string): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  let path = at;
  for (const p of issue.path) path += typeof p === "number" ? `[${p}]` : `.${String(p)}`;
  throw new Error(`${path}: ${issue.message}`);
}

/** Checks settings written or read back; only the stored fields are kept. */
export function settingsOf(raw: unknown): StoredSettings {
  const s = check(SettingsSchema, raw, "settings");
  let limits: Limits;
  try {
    limits = resolveLimits(s.limits);
  } catch (e) {
    throw new Error(`settings.limits: ${(e as Error).message}`);
  }
  // Only the stored fields: a whole GatewaySettings may be passed in.
  return {
    limits,
    bindingLevel: s.bindingLevel,
    instructionsLimit: s.instructionsLimit,
    directInstructionsLimit: s.directInstructionsLimit,
    maxAgentDepth: s.maxAgentDepth,
    ...(s.observedShapes !== undefined ? { observedShapes: s.observedShapes } : {}),
  };
}

// A log entry is checked by hand rather than by a zod schema: a page of entries is read in one
// go, and the schema took half its time (6 of 12 ms for 1000 entries).
function field(raw: unknown, at: string): Record<string, unknown> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error(`${at}: must be an object`);
  return raw as Record<string, unknown>;
}

function text(raw: unknown, at: string): string {
  if (typeof raw !== "string") throw new Error(`${at}: must be a string`);
  return raw;
}

function amount(raw: unknown, at: string, whole: boolean): number {
  if (typeof raw !== "number" || !(raw >= 0) || !Number.isFinite(raw) || (whole && !Number.isInteger(raw))) {
    throw new Error(`${at}: must be a non-negative ${whole ? "integer" : "number"}`);
  }
  return raw;
}

/**
 * Checks a log entry, appended or read back, naming its first bad field. Rows written before the
 * one log model may hold the error as a bare message and calls without `error`: they read as the
 * model has them.
 */
export function logEntryOf(raw: unknown): NewLogEntry {
  const e = field(raw, "entry");
  const time = typeof e.time === "string" ? Date.parse(e.time) : NaN;
  if (!Number.isFinite(time)) throw new Error("entry.time: must be an ISO time");
  if (!Array.isArray(e.tool_calls)) throw new Error("entry.tool_calls: must be a list");
  const tool_calls = e.tool_calls.map((raw: unknown, i): LogCall => {
    const at = `entry.tool_calls[${i}]`;
    const c = field(raw, at);
    if (typeof c.ok !== "boolean") throw new Error(`${at}.ok: must be true or false`);
    return {
      server: text(c.server, `${at}.server`),
      tool: text(c.tool, `${at}.tool`),
      ok: c.ok,
      error: c.error === undefined || c.error === null ? null : text(c.error, `${at}.error`),
      duration_seconds: amount(c.duration_seconds, `${at}.duration_seconds`, false),
    };
  });
  if (e.outcome !== "ok" && e.outcome !== "error") throw new Error(`entry.outcome: must be 'ok' or 'error' (got ${JSON.stringify(e.outcome)})`);
  let error: LogEntry["error"] = null;
  if (typeof e.error === "string") error = { type: "Error", message: e.error, line: null };
  else if (e.error !== null) {
    const x = field(e.error, "entry.error");
    if (x.line !== null && !Number.isInteger(x.line)) throw new Error("entry.error.line: must be an integer or null");
    error = { type: text(x.type, "entry.error.type"), message: text(x.message, "entry.error.message"), line: x.line as number | null };
  }
  return {
    time: new Date(time).toISOString(),
    key: text(e.key, "entry.key"),
    tool: text(e.tool, "entry.tool"),
    code_bytes: amount(e.code_bytes, "entry.code_bytes", true),
    duration_seconds: amount(e.duration_seconds, "entry.duration_seconds", false),
    tool_calls,
    outcome: e.outcome,
    error,
  };
}

/** JSON.parse with the parser's complaint as the message. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`not valid JSON (${(e as Error).message})`);
  }
}

/** One execution's calls summed per tool: the rows of `log_calls`, one per tool it called. */
export function callsPerTool(calls: readonly LogCall[]): { server: string; tool: string; calls: number; failures: number; seconds: number }[] {
  const byTool = new Map<string, { server: string; tool: string; calls: number; failures: number; seconds: number }>();
  for (const c of calls) {
    const id = JSON.stringify([c.server, c.tool]);
    let t = byTool.get(id);
    if (!t) byTool.set(id, (t = { server: c.server, tool: c.tool, calls: 0, failures: 0, seconds: 0 }));
    t.calls++;
    if (!c.ok) t.failures++;
    t.seconds += c.duration_seconds;
  }
  return [...byTool.values()];
}


/** A checked log query: its page, and its WHERE clause with `?` placeholders for `params`. */
export interface LogFilter {
  limit: number;
  offset: number;
  clause: string;
  params: unknown[];
}

/** Checks a log query (a StoreError names what is wrong) and writes its filter as SQL both stores run. */
export function logFilter(query: LogQuery): LogFilter {
  const limit = query.limit ?? DEFAULT_LOG_PAGE;
  const offset = query.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LOG_PAGE) {
    throw new StoreError("log query", `limit must be a whole number from 1 to ${MAX_LOG_PAGE} (got ${query.limit})`);
  }
  if (!Number.isInteger(offset) || offset < 0) throw new StoreError("log query", `offset must be a non-negative integer (got ${query.offset})`);
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.tool !== undefined) {
    // The meta-tool, or a call's tool name, or `server.tool` (a client's name has no dot).
    // (UNION ALL rather than OR: each half is one index search, and the count takes half the time.)
    const dot = query.tool.indexOf(".");
    const byServer = dot > 0 ? " UNION ALL SELECT log_id FROM log_calls WHERE tool = ? AND server = ?" : "";
    where.push(`(tool = ? OR id IN (SELECT log_id FROM log_calls WHERE tool = ?${byServer}))`);
    params.push(query.tool, query.tool);
    if (dot > 0) params.push(query.tool.slice(dot + 1), query.tool.slice(0, dot));
  }
  if (query.key !== undefined) {
    where.push("key = ?");
    params.push(query.key);
  }
  if (query.outcome !== undefined) {
    if (query.outcome !== "ok" && query.outcome !== "error") {
      throw new StoreError("log query", `outcome must be 'ok' or 'error' (got '${String(query.outcome)}')`);
    }
    where.push("outcome = ?");
    params.push(query.outcome);
  }
  if (query.since !== undefined) {
    const since = Date.parse(query.since);
    if (!Number.isFinite(since)) throw new StoreError("log query", `since must be an ISO time (got '${query.since}')`);
    where.push("time >= ?");
    params.push(new Date(since).toISOString());
  }
  return { limit, offset, clause: where.length ? `WHERE ${where.join(" AND ")}` : "", params };
}

/** Reads one row, turning any problem with it into a StoreError that names the database and the row. */
export function readRow<R>(where: string, row: string, read: () => R): R {
  try {
    return read();
  } catch (e) {
    throw new StoreError(`${where}: ${row}`, `corrupt row (${(e as Error).message}); fix or delete it`);
  }
}

/** A `clients` row as its config, checked (it must name the client it is keyed by). */
export function clientOfRow(where: string, row: { name: string; config: string }): ClientConfig {
  return readRow(where, `clients row '${row.name}'`, () => {
    const config = parseClientConfig(parseJson(row.config), "config");
    if (config.name !== row.name) throw new Error(`config.name is '${config.name}' but the row is keyed '${row.name}'`);
    return config;
  });
}

/** A `virtual_keys` row as its key, checked against the row's id and value columns. */
export function keyOfRow(where: string, row: { id: string; value: string; data: string }): VirtualKey {
  return readRow(where, `virtual_keys row '${row.id}'`, () => {
    const key = parseVirtualKey(parseJson(row.data), "key");
    if (key.id !== row.id) throw new Error(`key.id is '${key.id}' but the row is keyed '${row.id}'`);
    if (key.value !== row.value) throw new Error("key.value does not match the row's value column");
    return key;
  });
}

/** A `shapes` row as the tool's shape, checked. */
export function shapeOfRow(where: string, row: { server: string; tool: string; shape: string }): ToolShape {
  return readRow(where, `shapes row '${row.server}.${row.tool}'`, () => {
    const shape = parseShape(row.shape);
    if (shape === null) throw new Error("shape is not a shape of a tool result");
    return { server: row.server, tool: row.tool, shape };
  });
}
