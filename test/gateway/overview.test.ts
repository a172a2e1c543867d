// The overview's figures (gateway/overview.ts) from known log rows in a real SQLite file: counts
// per minute by ending, nearest-rank p50/p95, calls by server with failures, the limits hit
// most; the migration that fills the new columns in agrees with the rule appended rows follow;
// and with a full log of busy executions no one read holds the event loop past ~20 ms.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { endingOf } from "../../src/gateway/ending.js";
import { type Overview, readOverview, summarize } from "../../src/gateway/overview.js";
import { type LogCall, type NewLogEntry, Store } from "../../src/gateway/store.js";
import { loadSlack } from "../interpreter/stall.js";

const Raw = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => {
  exec(sql: string): void;
  prepare(sql: string): { run(...p: unknown[]): unknown };
  close(): void;
};

/** 2026-01-01 10:00 UTC, and a time `s` seconds after it. */
const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

const call = (server: string, tool: string, ok = true, seconds = 0.1): LogCall => ({ server, tool, ok, error: ok ? null : "boom", duration_seconds: seconds });
const limitError = (field: string) => ({ type: "ResourceLimitError", message: `${field} exceeded (limit 200): the script ran too long`, line: 3 });

function entry(time: string, duration: number, extra: Partial<NewLogEntry> = {}): NewLogEntry {
  return { time, key: "-", tool: "executeToolCode", code_bytes: 10, duration_seconds: duration, tool_calls: [], outcome: "ok", error: null, ...extra };
}

/** Known work over three minutes (10:00, 10:01, 10:02): every kind of ending, calls to two servers. */
const KNOWN: NewLogEntry[] = [
  entry(at(1), 0.1, { tool_calls: [call("fs", "read_file"), call("fs", "read_file"), call("mem", "search", false)] }),
  entry(at(2), 0.2),
  entry(at(3), 0.3, { outcome: "error", error: { type: "ValueError", message: "bad", line: 1 }, tool_calls: [call("fs", "write_file", false)] }),
  entry(at(61), 0.4, { outcome: "error", error: limitError("max_steps") }),
  entry(at(62), 0.5, { outcome: "error", error: limitError("max_steps") }),
  entry(at(63), 0.6, { outcome: "error", error: limitError("max_memory_bytes") }),
  entry(at(121), 0.7, { outcome: "error", error: limitError("tool_execution_timeout") }),
  entry(at(122), 0.8, { outcome: "error", error: { type: "CancelledError", message: "execution cancelled", line: null } }),
  entry(at(123), 0.9, { tool_calls: [call("mem", "search", true, 0.3)] }),
  // Before the window: not counted.
  entry(at(-3600), 5),
];

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "overview-test-"));
  store = new Store(join(dir, "gateway.db"));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The overview of the three minutes 10:00-10:02, read at 10:02:30. */
const threeMinutes = (s: Store = store, pageRows?: number) => readOverview(s, [], { minutes: 3, now: T0 + 150_000, pageRows });

function countsOf(o: Overview): Record<string, number>[] {
  return o.per_minute.map((m) => m.counts);
}

describe("the overview", () => {
  it("counts executions per minute by how they ended", async () => {
    for (const e of KNOWN) store.appendLog(e);
    const o = await threeMinutes();
    expect(o.since).toBe(at(0));
    expect(o.per_minute.map((m) => m.minute)).toEqual([at(0), at(60), at(120)]);
    expect(countsOf(o)).toEqual([{ ok: 2, error: 1 }, { max_steps_limit: 2, max_memory_bytes_limit: 1 }, { timeout: 1, cancelled: 1, ok: 1 }]);
    expect(o.executions).toBe(9);
    expect(o.outcomes).toEqual([
      { outcome: "ok", count: 3 },
      { outcome: "error", count: 1 },
      { outcome: "timeout", count: 1 },
      { outcome: "cancelled", count: 1 },
      { outcome: "max_memory_bytes_limit", count: 1 },
      { outcome: "max_steps_limit", count: 2 },
    ]);
    expect(o.limits).toEqual([
      { limit: "max_steps_limit", count: 2 },
      { limit: "max_memory_bytes_limit", count: 1 },
      { limit: "timeout", count: 1 },
    ]);
  });

  it("gives p50 and p95 durations by nearest rank, per minute and over the window", async () => {
    for (const e of KNOWN) store.appendLog(e);
    const o = await threeMinutes();
    // Nine durations 0.1..0.9: the 5th and the 9th smallest.
    expect(o.duration).toEqual({ p50_seconds: 0.5, p95_seconds: 0.9 });
    expect(o.per_minute.map((m) => [m.p50_seconds, m.p95_seconds])).toEqual([[0.2, 0.3], [0.5, 0.6], [0.8, 0.9]]);
    for (let i = 1; i <= 20; i++) store.appendLog(entry(at(130), i));
    const more = await threeMinutes();
    // 29 values: ranks 15 and 28 are 6 and 19 (the 20 whole seconds follow the nine below 1).
    expect(more.duration).toEqual({ p50_seconds: 6, p95_seconds: 19 });
  });

  it("sums tool calls by server with their failures, however many pages the read takes", async () => {
    for (const e of KNOWN) store.appendLog(e);
    const expected = [
      { server: "fs", calls: 3, failures: 1, error_rate: 1 / 3, mean_seconds: 0.1 },
      { server: "mem", calls: 2, failures: 1, error_rate: 0.5, mean_seconds: 0.2 },
    ];
    const whole = await threeMinutes();
    expect(whole.servers.map((s) => ({ ...s, mean_seconds: Number(s.mean_seconds.toFixed(6)) }))).toEqual(expected);
    // One log_calls row per page: four rows (fs.read_file, mem.search, fs.write_file, mem.search).
    expect((await threeMinutes(store, 1)).servers).toEqual(whole.servers);
  });

  it("has every minute and every base outcome when the log is empty", async () => {
    const o = await readOverview(store, [{ name: "fs", state: "connected", tools: 4, error: null }], { now: T0 });
    expect(o.executions).toBe(0);
    expect(o.per_minute).toHaveLength(60);
    expect(o.per_minute.every((m) => Object.keys(m.counts).length === 0 && m.p50_seconds === null)).toBe(true);
    expect(o.outcomes).toEqual(["ok", "error", "timeout", "cancelled"].map((outcome) => ({ outcome, count: 0 })));
    expect(o.duration).toEqual({ p50_seconds: null, p95_seconds: null });
    expect(o.limits).toEqual([]);
    expect(o.servers).toEqual([]);
    expect(o.upstreams).toEqual([{ name: "fs", state: "connected", tools: 4, error: null }]);
  });

  it("refuses a window that is not 1 to 1440 whole minutes", async () => {
    for (const minutes of [0, 1441, 2.5, Number.NaN]) {
      await expect(readOverview(store, [], { minutes })).rejects.toThrow(`minutes must be a whole number from 1 to 1440 (got ${minutes})`);
    }
  });

  it("leaves out executions that started after the current minute", () => {
    const o = summarize({
      minutes: 2,
      start: T0,
      now: T0 + 90_000,
      endings: [{ minute: at(0).slice(0, 16), ending: "ok", count: 2 }, { minute: at(300).slice(0, 16), ending: "error", count: 5 }],
      quantiles: { minutes: [], p50: 1, p95: 1 },
      calls: [],
      upstreams: [],
    });
    expect(o.executions).toBe(2);
    expect(countsOf(o)).toEqual([{ ok: 2 }, {}]);
  });
});

describe("how an execution ended", () => {
  it("is one word: ok, error, cancelled, timeout or the limit's name", () => {
    expect(KNOWN.slice(0, 9).map(endingOf)).toEqual(["ok", "ok", "error", "max_steps_limit", "max_steps_limit", "max_memory_bytes_limit", "timeout", "cancelled", "ok"]);
    expect(endingOf({ outcome: "error", error: null })).toBe("error");
    expect(endingOf({ outcome: "error", error: { type: "ResourceLimitError", message: "odd" } })).toBe("error");
  });

  it("is filled in by the migration for rows an older gateway kept, as appended rows have it", async () => {
    for (const e of KNOWN) store.appendLog(e);
    const before = await threeMinutes();
    const path = store.path;
    store.close();
    // Back to schema 3, without the overview's columns, with a row of the old error shape and a corrupt row.
    const db = new Raw(path);
    db.exec(`DROP INDEX logs_by_time_ending; ALTER TABLE logs DROP COLUMN ending; ALTER TABLE logs DROP COLUMN duration_seconds;
      ALTER TABLE log_calls DROP COLUMN calls; ALTER TABLE log_calls DROP COLUMN failures; ALTER TABLE log_calls DROP COLUMN seconds;
      DROP TABLE mcp_sessions; UPDATE schema_version SET version = 3;`);
    const old = { ...entry(at(124), 0.05), outcome: "error", error: "boom as a bare string" };
    db.prepare("INSERT INTO logs (time, key, tool, outcome, entry) VALUES (?, '-', 'executeToolCode', 'error', ?)").run(at(124), JSON.stringify(old));
    db.prepare("INSERT INTO logs (time, key, tool, outcome, entry) VALUES (?, '-', 'executeToolCode', 'ok', 'garbage')").run(at(125));
    db.close();
    store = new Store(path);
    const after = await threeMinutes();
    // The corrupt row counts as an error of no duration; the old one as an error.
    expect(countsOf(after)).toEqual([...countsOf(before).slice(0, 2), { ...countsOf(before)[2], error: 2 }]);
    expect(after.servers).toEqual(before.servers);
    expect(after.per_minute[2]!.p50_seconds).toBe(0.7);
  });
});

describe("with a full log", () => {
  it("reads each part in about 20 ms at most, yielding between pages of calls", async () => {
    // 10,000 executions over the hour, each calling 64 tools (the default max_tool_calls) on
    // four servers, a third of them failing with a long message.
    const busy: LogCall[] = Array.from({ length: 64 }, (_, i) => call(`server${i % 4}`, `tool${i}`, i % 5 !== 0, 0.01));
    const now = T0 + 3_600_000;
    const failed = { outcome: "error" as const, error: { type: "ValueError", message: "x".repeat(1500), line: 2 } };
    const t = performance.now();
    // Appended one at a time this takes half a minute: two rows go through the store, and SQL
    // copies them (and their calls) into the other 9,998, spread over the last 59 minutes.
    const ok = store.appendLog(entry(new Date(now - 3_540_000).toISOString(), 0, { tool_calls: busy }));
    const bad = store.appendLog(entry(new Date(now - 3_539_646).toISOString(), 0.01, { tool_calls: busy, ...failed }));
    const path = store.path;
    store.close();
    const db = new Raw(path);
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
      INSERT INTO logs (time, key, tool, outcome, entry, ending, duration_seconds)
        SELECT strftime('%Y-%m-%dT%H:%M:%fZ', ${(now - 3_540_000) / 1000} + i * 0.354, 'unixepoch'), t.key, t.tool, t.outcome, t.entry, t.ending, (i % 100) / 100.0
        FROM n JOIN logs AS t ON t.id = CASE WHEN i % 3 = 0 THEN ${bad.id} ELSE ${ok.id} END;
      INSERT INTO log_calls (log_id, server, tool, calls, failures, seconds)
        SELECT l.id, c.server, c.tool, c.calls, c.failures, c.seconds FROM logs AS l JOIN log_calls AS c ON c.log_id = ${ok.id} WHERE l.id > ${bad.id};`);
    db.close();
    store = new Store(path);
    const fillMs = performance.now() - t;

    let last = performance.now();
    let longest = 0;
    const timer = setInterval(() => {
      const tick = performance.now();
      longest = Math.max(longest, tick - last);
      last = tick;
    }, 1);
    const started = performance.now();
    const o = await readOverview(store, [], { now });
    const wallMs = performance.now() - started;
    clearInterval(timer);
    longest = Math.max(longest, performance.now() - last);

    expect(o.executions).toBe(10_000);
    expect(o.servers.map((s) => s.calls)).toEqual([160_000, 160_000, 160_000, 160_000]);
    expect(o.duration).toEqual({ p50_seconds: 0.49, p95_seconds: 0.94 });
    console.log(`overview of a full log (64 calls each): fill ${fillMs.toFixed(0)} ms, read ${wallMs.toFixed(0)} ms, longest stall ${longest.toFixed(1)} ms (load slack ${loadSlack().toFixed(1)})`);
    expect(longest).toBeLessThan(25 * loadSlack());
  }, 120_000);
});
