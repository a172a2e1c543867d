// The overview (the web UI's first page): what the gateway has been doing over the last minutes,
// from its own execution log — executions per minute by how they ended (ending.ts), their p50
// and p95 durations, tool calls by server with their failures, the limits hit most — and the
// state of each upstream server. The store counts (over indexes, never parsing an entry); this
// puts the counts in order. The reads are many small ones — each minute's percentiles apart,
// tool calls a page at a time — yielding to the event loop between them, so that no one read
// holds it long however busy the window was.
import type { ServerState } from "../upstream/connection.js";
import type { LogStore } from "./state-store.js";
import type { CallsKey, MinuteEnding, ServerCalls } from "./store.js";

export const DEFAULT_OVERVIEW_MINUTES = 60;
/** A day: the log keeps at most its newest 10,000 executions anyway. */
export const MAX_OVERVIEW_MINUTES = 1440;
/** Rows of log_calls per read: about 10 ms here with a full log. */
export const CALLS_PAGE_ROWS = 10_000;

/** The endings the page always shows, in this order; limits follow, by name. */
export const BASE_OUTCOMES = ["ok", "error", "timeout", "cancelled"] as const;

export interface UpstreamState {
  name: string;
  state: ServerState;
  tools: number;
  error: string | null;
}

export interface Overview {
  minutes: number;
  /** The start of the first minute shown (ISO, UTC). */
  since: string;
  now: string;
  executions: number;
  /** Every ending seen (and the base ones), with its count over the window. */
  outcomes: { outcome: string; count: number }[];
  /** One row per minute, oldest first, every minute of the window present. */
  per_minute: { minute: string; counts: Record<string, number>; p50_seconds: number | null; p95_seconds: number | null }[];
  duration: { p50_seconds: number | null; p95_seconds: number | null };
  /** The limits executions ran out of (timeout included), most hit first. */
  limits: { limit: string; count: number }[];
  /** Servers by calls, most first. */
  servers: { server: string; calls: number; failures: number; error_rate: number; mean_seconds: number }[];
  upstreams: UpstreamState[];
}

export interface OverviewOptions {
  minutes?: number;
  /** The time now, in ms (tests fix it). */
  now?: number;
  pageRows?: number;
}

const MINUTE_MS = 60_000;

/** Durations by nearest rank, null without executions; per minute (`YYYY-MM-DDTHH:MM`) and over the window. */
export interface DurationQuantiles {
  minutes: { minute: string; p50: number; p95: number }[];
  p50: number | null;
  p95: number | null;
}

/** The nearest rank of the p-th quantile of n values: the ceil(p * n)-th smallest. */
export function nearestRank(p: number, n: number): number {
  // Rounded first: 0.95 * 20 is 19.000000000000004 in floating point.
  return Math.max(1, Math.ceil(Math.round(p * n * 1e6) / 1e6));
}

/** Lets the event loop turn between two reads. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads the window's figures from `store` and puts them in order. */
export async function readOverview(store: LogStore, upstreams: readonly UpstreamState[], options: OverviewOptions = {}): Promise<Overview> {
  const minutes = options.minutes ?? DEFAULT_OVERVIEW_MINUTES;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_OVERVIEW_MINUTES) {
    throw new RangeError(`minutes must be a whole number from 1 to ${MAX_OVERVIEW_MINUTES} (got ${minutes})`);
  }
  const now = options.now ?? Date.now();
  const start = Math.floor(now / MINUTE_MS) * MINUTE_MS - (minutes - 1) * MINUTE_MS;
  const since = new Date(start).toISOString();
  const endings = await store.endingsPerMinute(since);
  const end = new Date(start + minutes * MINUTE_MS).toISOString();
  const total = endings.reduce((n, e) => n + e.count, 0);
  const quantiles: DurationQuantiles = { minutes: [], p50: null, p95: null };
  if (total > 0) {
    quantiles.p50 = await store.durationAt(since, end, nearestRank(0.5, total));
    await turn();
    quantiles.p95 = await store.durationAt(since, end, nearestRank(0.95, total));
  }
  const perMinute = new Map<string, number>();
  for (const e of endings) perMinute.set(e.minute, (perMinute.get(e.minute) ?? 0) + e.count);
  for (const [minute, n] of perMinute) {
    await turn();
    const from = `${minute}:00.000Z`;
    const to = new Date(Date.parse(from) + MINUTE_MS).toISOString();
    const p50 = await store.durationAt(from, to, nearestRank(0.5, n));
    const p95 = await store.durationAt(from, to, nearestRank(0.95, n));
    // Null when rows were trimmed since they were counted.
    if (p50 !== null && p95 !== null) quantiles.minutes.push({ minute, p50, p95 });
  }
  const calls: ServerCalls[] = [];
  let after: CallsKey | null = null;
  do {
    await turn();
    const page = await store.callsByServer(since, after, options.pageRows ?? CALLS_PAGE_ROWS);
    calls.push(...page.servers);
    after = page.next;
  } while (after !== null);
  return summarize({ minutes, start, now, endings, quantiles, calls, upstreams });
}

export interface OverviewCounts {
  minutes: number;
  start: number;
  now: number;
  endings: readonly MinuteEnding[];
  quantiles: DurationQuantiles;
  /** Per server, possibly several rows for one server (one per page read). */
  calls: readonly ServerCalls[];
  upstreams: readonly UpstreamState[];
}

/** The overview of counts already read: pure, so that tests call it on counts they choose. */
export function summarize(c: OverviewCounts): Overview {
  const minuteOf = (ms: number) => new Date(ms).toISOString().slice(0, 16);
  const rows = new Map<string, Overview["per_minute"][number]>();
  for (let i = 0; i < c.minutes; i++) {
    const ms = c.start + i * MINUTE_MS;
    rows.set(minuteOf(ms), { minute: new Date(ms).toISOString(), counts: {}, p50_seconds: null, p95_seconds: null });
  }
  const totals = new Map<string, number>(BASE_OUTCOMES.map((o) => [o, 0]));
  let executions = 0;
  for (const e of c.endings) {
    const row = rows.get(e.minute);
    // Outside the window: started in a later minute than now (a clock step).
    if (!row) continue;
    row.counts[e.ending] = (row.counts[e.ending] ?? 0) + e.count;
    totals.set(e.ending, (totals.get(e.ending) ?? 0) + e.count);
    executions += e.count;
  }
  for (const q of c.quantiles.minutes) {
    const row = rows.get(q.minute);
    if (row) Object.assign(row, { p50_seconds: q.p50, p95_seconds: q.p95 });
  }
  const outcomes = [...totals].map(([outcome, count]) => ({ outcome, count })).sort((a, b) => outcomeRank(a.outcome) - outcomeRank(b.outcome) || a.outcome.localeCompare(b.outcome));
  const limits = outcomes
    .filter((o) => isLimit(o.outcome) && o.count > 0)
    .map((o) => ({ limit: o.outcome, count: o.count }))
    .sort((a, b) => b.count - a.count || a.limit.localeCompare(b.limit));
  const byServer = new Map<string, ServerCalls>();
  for (const s of c.calls) {
    const t = byServer.get(s.server) ?? { server: s.server, calls: 0, failures: 0, seconds: 0 };
    byServer.set(s.server, { server: s.server, calls: t.calls + s.calls, failures: t.failures + s.failures, seconds: t.seconds + s.seconds });
  }
  const servers = [...byServer.values()]
    .filter((s) => s.calls > 0)
    .map((s) => ({ server: s.server, calls: s.calls, failures: s.failures, error_rate: s.failures / s.calls, mean_seconds: s.seconds / s.calls }))
    .sort((a, b) => b.calls - a.calls || a.server.localeCompare(b.server));
  return {
    minutes: c.minutes,
    since: new Date(c.start).toISOString(),
    now: new Date(c.now).toISOString(),
    executions,
    outcomes,
    per_minute: [...rows.values()],
    duration: { p50_seconds: c.quantiles.p50, p95_seconds: c.quantiles.p95 },
    limits,
    servers,
    upstreams: [...c.upstreams],
  };
}

/** Is this ending a limit run out of (`timeout` is one: tool_execution_timeout)? */
export function isLimit(outcome: string): boolean {
  return outcome === "timeout" || outcome.endsWith("_limit");
}

function outcomeRank(outcome: string): number {
  const at = (BASE_OUTCOMES as readonly string[]).indexOf(outcome);
  return at >= 0 ? at : BASE_OUTCOMES.length;
}
