// The execution log (SPEC §6): one entry per executeToolCode run — who ran it, how big the code
// was, how long it took, which tools it called and how it ended. Never the code or the tool
// payloads themselves: those may hold secrets. Kept in memory and capped; whoever persists it
// (the store) loads it at startup and listens to its "change" events.
import { EventEmitter } from "node:events";
import type { SandboxResult } from "../interpreter/index.js";
import type { LogQuery as StoredLogQuery } from "./store.js";

/** What the Gateway emits as "execution" after every executeToolCode run. */
export interface ExecutionEvent {
  /** The caller's label: a virtual key's name, or "-" without a key. */
  caller: string;
  code: string;
  result: SandboxResult;
  /** The meta-tool that ran it: executeToolCode or executeToolScript (executeToolCode when absent). */
  tool?: string;
}

export interface LoggedToolCall {
  server: string;
  tool: string;
  ok: boolean;
  error: string | null;
  duration_seconds: number;
}

export interface ExecutionEntry {
  id: number;
  /** When the execution started (ISO 8601). */
  time: string;
  /** The caller's label: a virtual key's name, or "-". */
  key: string;
  /** The meta-tool that ran (executeToolCode). */
  tool: string;
  code_bytes: number;
  duration_seconds: number;
  tool_calls: LoggedToolCall[];
  outcome: "ok" | "error";
  error: { type: string; message: string; line: number | null } | null;
}

/** The store's filters, less `since`; here `tool` also matches a nested call's `server.tool` or tool name. */
export type LogQuery = Omit<StoredLogQuery, "since">;

export type LogChange = { type: "put"; entry: ExecutionEntry } | { type: "delete"; id: number };

export const DEFAULT_LOG_CAPACITY = 1000;
export const DEFAULT_PAGE_SIZE = 50;

/** An error message longer than this is cut: the log is for finding runs, not for reading outputs. */
const MAX_MESSAGE_CHARS = 2000;

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 3)}...` : text;
}

/** The log entry for one execution (without its id). */
export function entryOf(event: ExecutionEvent, endedAt: number = Date.now()): Omit<ExecutionEntry, "id"> {
  const { result } = event;
  return {
    time: new Date(endedAt - result.duration_seconds * 1000).toISOString(),
    key: event.caller,
    tool: "executeToolCode",
    code_bytes: Buffer.byteLength(event.code, "utf8"),
    duration_seconds: result.duration_seconds,
    tool_calls: result.tool_calls.map((c) => ({
      server: c.server,
      tool: c.tool,
      ok: c.ok,
      error: c.error === null ? null : clip(c.error),
      duration_seconds: c.duration_seconds,
    })),
    outcome: result.error === null ? "ok" : "error",
    error: result.error === null ? null : { type: result.error.type, message: clip(result.error.message), line: result.error.line },
  };
}

function matches(entry: ExecutionEntry, query: LogQuery): boolean {
  if (query.key !== undefined && entry.key !== query.key) return false;
  if (query.outcome !== undefined && entry.outcome !== query.outcome) return false;
  if (query.tool !== undefined) {
    const tool = query.tool;
    if (entry.tool !== tool && !entry.tool_calls.some((c) => c.tool === tool || `${c.server}.${c.tool}` === tool)) return false;
  }
  return true;
}

/**
 * The most recent executions, at most `capacity` of them; the oldest go first. Entries are
 * numbered in the order they were recorded, so "newest first" is "highest id first".
 */
export class ExecLog extends EventEmitter {
  /** Ascending by id. */
  private entries: ExecutionEntry[] = [];
  private nextId = 1;

  constructor(readonly capacity: number = DEFAULT_LOG_CAPACITY) {
    super();
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer (got ${capacity})`);
  }

  /** Replaces every entry (the newest `capacity` of them are kept); emits nothing. */
  load(entries: readonly ExecutionEntry[]): void {
    this.entries = [...entries].sort((a, b) => a.id - b.id).slice(-this.capacity);
    this.nextId = (this.entries.at(-1)?.id ?? 0) + 1;
  }

  /** Records one execution and returns its entry. */
  record(event: ExecutionEvent, endedAt?: number): ExecutionEntry {
    const entry = { id: this.nextId, ...entryOf(event, endedAt) };
    this.put(entry);
    return entry;
  }

  /** Adds an entry, or replaces the one with its id; the oldest beyond the capacity are dropped. */
  put(entry: ExecutionEntry): void {
    const last = this.entries.at(-1);
    const at = last === undefined || last.id < entry.id ? -1 : this.entries.findIndex((e) => e.id >= entry.id);
    if (at === -1) this.entries.push(entry);
    else if (this.entries[at]!.id === entry.id) this.entries[at] = entry;
    else this.entries.splice(at, 0, entry);
    this.nextId = Math.max(this.nextId, entry.id + 1);
    this.emit("change", { type: "put", entry } satisfies LogChange);
    while (this.entries.length > this.capacity) {
      const dropped = this.entries.shift()!;
      this.emit("change", { type: "delete", id: dropped.id } satisfies LogChange);
    }
  }

  delete(id: number): boolean {
    const at = this.entries.findIndex((e) => e.id === id);
    if (at === -1) return false;
    this.entries.splice(at, 1);
    this.emit("change", { type: "delete", id } satisfies LogChange);
    return true;
  }

  get size(): number {
    return this.entries.length;
  }

  /** One page of the entries that match, newest first, and how many match in all. */
  list(query: LogQuery = {}): { logs: ExecutionEntry[]; total: number } {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const matching = this.entries.filter((e) => matches(e, query)).reverse();
    return { logs: matching.slice(offset, offset + limit), total: matching.length };
  }

  /** Records every execution `source` (a Gateway) reports; returns the function that stops it. */
  attach(source: EventEmitter): () => void {
    const listener = (event: ExecutionEvent) => void this.record(event);
    source.on("execution", listener);
    return () => source.off("execution", listener);
  }
}
