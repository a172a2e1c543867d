// The datetime module against CPython 3.11: every snippet of datetime-cases.ts runs under python3
// and in the sandbox, and the printed output (reprs included), the error's type and its message
// must agree. Then what a differential test cannot see: the clock, the JSON boundary, budgets,
// and that nothing of JavaScript shows through.
import { describe, expect, it } from "vitest";
import { execute, type ExecuteOptions } from "../../../src/interpreter/execute.js";
import { cpython } from "../cpython.js";
import { EXPRESSIONS, PROGRAMS } from "./datetime-cases.js";

const HEADER = "from datetime import date, datetime, time, timedelta, timezone, tzinfo, MINYEAR, MAXYEAR, UTC\n";

const cases = [
  ...Object.entries(EXPRESSIONS).flatMap(([area, exprs]) => exprs.map((e) => ({ area, source: `${HEADER}print(repr(${e}))` }))),
  ...PROGRAMS.map((p) => ({ area: "program", source: HEADER + p })),
];
const expected = cpython(cases.map((c) => c.source));

const outcome = (stdout: string, error: { type: string; message: string } | null) => ({ stdout, error: error && `${error.type}: ${error.message}` });

describe("datetime agrees with CPython", () => {
  it.each(cases.map((c, i) => [c.area, c.source.slice(HEADER.length), i] as const))("%s: %s", async (_area, _source, i) => {
    const theirs = expected[i]!;
    const ours = await execute(cases[i]!.source);
    expect(outcome(ours.stdout, ours.error)).toEqual(outcome(theirs.stdout, theirs.error));
  });
});

describe("the JSON boundary", () => {
  const run = (source: string, hosts?: ExecuteOptions["hosts"]) => execute(`${HEADER}import time as clock\n${source}`, { hosts });

  it("sends a datetime, a date and a time in RESULT as their isoformat() text", async () => {
    const r = await run("RESULT = [datetime(2024, 1, 2, 3, 4, 5, tzinfo=timezone.utc), datetime(2024, 1, 2, 3, 4, 5, 6), date(2024, 1, 2), time(1, 2, tzinfo=timezone(timedelta(hours=-5)))]");
    expect(r.error).toBeNull();
    expect(r.result).toEqual(["2024-01-02T03:04:05+00:00", "2024-01-02T03:04:05.000006", "2024-01-02", "01:02:00-05:00"]);
  });

  it("sends dates nested in containers, and as dict keys, the same way", async () => {
    const r = await run("RESULT = {'when': {'start': date(2024, 5, 1)}, date(2024, 5, 2): [datetime(2024, 5, 2, 9)]}");
    expect(r.result).toEqual({ when: { start: "2024-05-01" }, "2024-05-02": ["2024-05-02T09:00:00"] });
  });

  it("sends a named tuple (isocalendar(), struct_time) as an array", async () => {
    const r = await run("RESULT = [date(2024, 5, 17).isocalendar(), clock.gmtime(0)]");
    expect(r.result).toEqual([
      [2024, 20, 5],
      [1970, 1, 1, 0, 0, 0, 3, 1, 0],
    ]);
  });

  it("sends a timedelta in RESULT as its str(), as any other value", async () => {
    const r = await run("RESULT = {'took': timedelta(days=1, seconds=5)}");
    expect(r.result).toEqual({ took: "1 day, 0:00:05" });
  });

  it("passes a datetime to a tool as its ISO text, and refuses a timedelta", async () => {
    const seen: unknown[] = [];
    const hosts = { srv: { echo: async (_args: unknown[], kwargs: Record<string, unknown>) => (seen.push(kwargs), "ok") } };
    const ok = await run("RESULT = srv.echo(since=datetime(2024, 1, 2, tzinfo=timezone.utc), day=date(2024, 1, 3))", hosts);
    expect(ok.error).toBeNull();
    expect(seen).toEqual([{ since: "2024-01-02T00:00:00+00:00", day: "2024-01-03" }]);
    const refused = await run("RESULT = srv.echo(span=timedelta(1))", hosts);
    expect(refused.error?.type).toBe("TypeError");
  });
});
