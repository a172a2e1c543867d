// The execution log (SPEC §6): one entry per executeToolCode run — who ran it, how big the code
// was, how long it took, which tools it called and how it ended. Never the code or the tool
// payloads themselves: those may hold secrets. The entries live in the store (store.ts owns
// their one model, LogEntry); this turns the gateway's "execution" events into entries and
// pages them back, so a page may come from anywhere within the rows the store keeps.
import type { EventEmitter } from "node:events";
import type { SandboxResult } from "../interpreter/index.js";
import type { TraceContext } from "../upstream/trace-context.js";
import type { LogStore } from "./state-store.js";
import { DEFAULT_LOG_PAGE, type LogEntry, type LogPage, type LogQuery, MAX_LOG_PAGE, type NewLogEntry, Store } from "./store.js";

export type { LogEntry, LogPage, LogQuery };

/** What the Gateway emits as "execution" after every executeToolCode run. */
export interface ExecutionEvent {
  /** The caller's label: a virtual key's name, or "-" without a key. */
  caller: string;
  code: string;
  result: SandboxResult;
  /** The meta-tool that ran it: executeToolCode or executeToolScript (executeToolCode when absent). */
  tool?: string;
  /** The trace context of the request it ran for (telemetry parents its span there). */
  trace?: TraceContext;
  /**
   * Given by the gateway: a listener hands it work the answer waits for (the execution log's
   * write, so that an answered execution is a logged one, even if the process is killed next).
   */
  waitUntil?: (work: Promise<unknown>) => void;
}

export const DEFAULT_PAGE_SIZE = DEFAULT_LOG_PAGE;
export const MAX_PAGE_SIZE = MAX_LOG_PAGE;

/** The most entries one write takes (about 10 us each in SQLite: 5 ms of event loop at most). */
const MAX_BATCH = 500;

/** An error message longer than this is cut: the log is for finding runs, not for reading outputs. */
const MAX_MESSAGE_CHARS = 2000;

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 3)}...` : text;
}

/** The log entry for one execution (the store gives it its id). */
export function entryOf(event: ExecutionEvent, endedAt: number = Date.now()): NewLogEntry {
  const { result } = event;
  return {
    time: new Date(endedAt - result.duration_seconds * 1000).toISOString(),
    key: event.caller,
    tool: event.tool ?? "executeToolCode",
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

/** Told of an entry the store could not take; the execution it describes has been answered anyway. */
export type LogFailure = (error: Error) => void;

const warn: LogFailure = (error) => process.emitWarning(`execution log entry not saved: ${error.message}`);

/** The executions a gateway ran, kept in `store` (an in-memory SQLite one by default, for a gateway on its own). */
export class ExecLog {
  /** Entries of this turn, not yet handed to the store. */
  private readonly waiting: { entry: NewLogEntry; resolve: (entry: LogEntry | null) => void }[] = [];
  /** Resolves once every entry recorded so far is written (or refused). */
  private written: Promise<void> = Promise.resolve();
  /** A write of the waiting entries is due after this turn. */
  private scheduled = false;

  constructor(
    readonly store: LogStore = new Store(":memory:"),
    private readonly onFailure: LogFailure = warn,
  ) {}

  /**
   * Records one execution and returns its entry, or null when the store refused it (a full disk):
   * a log entry not saved must not fail the execution it describes, so the failure is reported
   * to `onFailure` instead of thrown. The entries of one event-loop turn are written together,
   * after it (a SQLite commit per execution held the event loop: one gateway served 2,032
   * requests/s, 4,896 with a commit per turn, bench:scale); attach() has the gateway's answer wait
   * for the write.
   */
  record(event: ExecutionEvent, endedAt?: number): Promise<LogEntry | null> {
    const entry = entryOf(event, endedAt);
    return new Promise((resolve) => {
      this.waiting.push({ entry, resolve });
      if (!this.scheduled) this.schedule();
    });
  }

  /** Has the waiting entries written after this turn; `written` also waits for the writes before. */
  private schedule(): void {
    this.scheduled = true;
    const before = this.written;
    this.written = new Promise<void>((turn) => setImmediate(turn))
      .then(() => {
        this.scheduled = false;
        return this.flush();
      })
      .then(() => before);
  }

  /**
   * Writes up to MAX_BATCH waiting entries in one call (more wait for the next turn: no one write
   * holds the event loop long); one by one when that fails, so one bad entry costs only itself.
   */
  private async flush(): Promise<void> {
    const batch = this.waiting.splice(0, MAX_BATCH);
    if (this.waiting.length > 0 && !this.scheduled) this.schedule();
    try {
      const saved = await this.store.appendLogs(batch.map((b) => b.entry));
      batch.forEach((b, i) => b.resolve(saved[i]!));
      return;
    } catch (e) {
      if (batch.length === 1) {
        this.onFailure(e as Error);
        batch[0]!.resolve(null);
        return;
      }
    }
    for (const b of batch) {
      try {
        b.resolve(await this.store.appendLog(b.entry));
      } catch (e) {
        this.onFailure(e as Error);
        b.resolve(null);
      }
    }
  }

  /** Resolves once every entry recorded so far is written or refused (before the store closes). */
  async settled(): Promise<void> {
    // A write may schedule the next (past MAX_BATCH): wait until none is left.
    for (let written = this.written; ; written = this.written) {
      await written;
      if (written === this.written) return;
    }
  }

  /** One page of the entries that match, newest first, and how many match in all (the entries recorded so far included). */
  async list(query: LogQuery = {}): Promise<LogPage> {
    await this.settled();
    return this.store.queryLogs(query);
  }

  /** Records every execution `source` (a Gateway) reports; returns the function that stops it. */
  attach(source: EventEmitter): () => void {
    const listener = (event: ExecutionEvent) => {
      const written = this.record(event);
      event.waitUntil?.(written);
    };
    source.on("execution", listener);
    return () => source.off("execution", listener);
  }
}
