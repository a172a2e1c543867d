// The one state-store interface the composition (open-gateway.ts), the execution log and the
// overview use: clients, settings, virtual keys, shapes, execution logs with the overview's
// aggregates, and MCP session records. Two stores implement it: SQLite (store.ts, synchronous,
// one process) and PostgreSQL (pg-store.ts, asynchronous, shared by many instances). A method
// may answer a value or a promise of it; callers await either. A write that resolves (or
// returns) has committed.
import type { Shape } from "../codemode/shape.js";
import type { ClientConfig } from "../upstream/config.js";
import type { McpSessionRecords } from "./mcp-sessions.js";
import type { ToolShape } from "./shapes.js";
import type { CallsKey, LogEntry, LogPage, LogQuery, MinuteEnding, NewLogEntry, ServerCalls, StoredSettings, VirtualKey } from "./store.js";

/** A value, or a promise of it: the SQLite store answers at once, the PostgreSQL one later. */
export type Awaitable<T> = T | Promise<T>;

/** The execution log and the overview's counts over it (exec-log.ts, overview.ts). */
export interface LogStore {
  /** Records one execution and answers it with its id. */
  appendLog(entry: NewLogEntry): Awaitable<LogEntry>;
  /** Records several, in their order (a turn's worth: one commit where the store can). */
  appendLogs(entries: readonly NewLogEntry[]): Awaitable<LogEntry[]>;
  /** One page of entries matching every given filter, newest first, and how many match in all. */
  queryLogs(query?: LogQuery): Awaitable<LogPage>;
  /** Executions started at or after `since` (ISO), counted by minute and ending. */
  endingsPerMinute(since: string): Awaitable<MinuteEnding[]>;
  /** The `rank`-th smallest duration (from 1) of executions started in [from, to), or null. */
  durationAt(from: string, to: string, rank: number): Awaitable<number | null>;
  /** Tool calls since `since` summed per server, one page of `rows` rows of calls after `after`. */
  callsByServer(since: string, after: CallsKey | null, rows: number): Awaitable<{ servers: ServerCalls[]; next: CallsKey | null }>;
}

/** What config.json seeds an empty store with. */
export interface SeedState {
  clients: ClientConfig[];
  settings: StoredSettings;
  keys: VirtualKey[];
}

/** Everything the gateway keeps beyond a restart (SPEC §6). */
export interface StateStore extends LogStore {
  listClients(): Awaitable<ClientConfig[]>;
  /** Adds a client or replaces the one with its name; with `previousName`, replaces that one (a rename). */
  putClient(config: ClientConfig, previousName?: string): Awaitable<void>;
  deleteClient(name: string): Awaitable<boolean>;
  getSettings(): Awaitable<StoredSettings | null>;
  putSettings(settings: StoredSettings): Awaitable<void>;
  listKeys(): Awaitable<VirtualKey[]>;
  putKey(key: VirtualKey): Awaitable<void>;
  deleteKey(id: string): Awaitable<boolean>;
  listShapes(): Awaitable<ToolShape[]>;
  putShape(server: string, tool: string, shape: Shape): Awaitable<void>;
  deleteShapes(server: string): Awaitable<number>;
  moveShapes(from: string, to: string): Awaitable<void>;
  /** No clients, no settings, no keys: a first start, seeded from config.json. */
  isEmpty(): Awaitable<boolean>;
  /** Writes `state` if the store is empty (at once: instances starting together seed it once); answers whether it did. */
  seed(state: SeedState): Awaitable<boolean>;
  readonly sessions: McpSessionRecords;
  close(): Awaitable<void>;
}
