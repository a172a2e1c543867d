// The datetime module against CPython 3.11: every snippet of datetime-cases.ts runs under python3
// and in the sandbox, and the printed output (reprs included), the error's type and its message
// must agree. Then what a differential test cannot see: the clock, the JSON boundary, budgets,
// and that nothing of JavaScript shows through.
import { describe, expect, it } from "vitest";
import { execute, type ExecuteOptions } from "../../../src/interpreter/execute.js";
import { cpython } from "../cpython.js";
import { measure } from "../stall.js";
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

describe("the host's clock", () => {
  it("now(), today() and utcnow() read it, as local time (the host's zone) or UTC", async () => {
    const before = Date.now() / 1000;
    const r = await execute(`${HEADER}
a = datetime.now(timezone.utc)
b = datetime.now()
c = datetime.utcnow()
d = date.today()
e = datetime.today()
f = datetime.now(timezone(timedelta(hours=5, minutes=30)))
RESULT = [type(a) is datetime, a.tzinfo is timezone.utc, b.tzinfo, c.tzinfo, type(d) is date, type(e) is datetime,
          a.timestamp(), b.timestamp(), c.replace(tzinfo=timezone.utc).timestamp(), e.timestamp(), f.timestamp(),
          f.utcoffset() == timedelta(hours=5, minutes=30), str(d), d == b.date() or d == e.date()]`);
    const after = Date.now() / 1000;
    expect(r.error).toBeNull();
    const [aIs, aUtc, bTz, cTz, dIs, eIs, ta, tb, tc, te, tf, fOffset, today, sameDay] = r.result as unknown[];
    expect([aIs, aUtc, bTz, cTz, dIs, eIs, fOffset, sameDay]).toEqual([true, true, null, null, true, true, true, true]);
    for (const t of [ta, tb, tc, te, tf] as number[]) {
      expect(t).toBeGreaterThanOrEqual(before - 0.01);
      expect(t).toBeLessThanOrEqual(after + 0.01);
    }
    const local = new Date();
    const expectedToday = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, "0")}-${String(local.getDate()).padStart(2, "0")}`;
    expect(today).toBe(expectedToday);
  });

  it("has microseconds, and does not go backwards within a run", async () => {
    const r = await execute(`${HEADER}
xs = [datetime.now(timezone.utc) for _ in range(200)]
RESULT = [all(x <= y for x, y in zip(xs, xs[1:])), len({x.microsecond for x in xs}) > 1, max(xs) - min(xs) < timedelta(seconds=5)]`);
    expect(r.result).toEqual([true, true, true]);
  });
});

describe("budgets", () => {
  // Each hostile call stops (a ResourceLimitError or a quick answer) without holding the event
  // loop: best of three runs, as the other hostile suites measure, on a shared, busy machine.
  const HOSTILE = [
    "datetime(2024, 1, 1).strftime('%c' * 200000)",
    "datetime(2024, 1, 1).strftime('%Y' * 500000)",
    "datetime(2024, 1, 1).strftime('%1000000Y' * 50)",
    "datetime(2024, 1, 1).strftime('%5000Y' * 20000)",
    "datetime(2024, 1, 1).strftime('a' * 5000000)",
    "datetime(2024, 1, 1, tzinfo=timezone.utc).strftime('%z%Z%f' * 300000)",
    "date(2024, 1, 1).strftime('%G%V%u' * 200000)",
    "datetime.strptime(' ' * 200000 + 'x', ' a' * 50000)",
    "datetime.strptime('1' * 200000, '1' * 200000 + 'x')",
    "datetime.strptime('1' * 100000, '%Y%m%d' + '1' * 100000)",
    "datetime.fromisoformat('2024-01-01T00:00:00.' + '1' * 10**7)",
    "date.fromisoformat('2' * 10**7)",
    "timedelta(days=10**200000)",
    "timedelta(1) * 10**1000000",
    "timedelta(1) / 10**1000000",
    "timedelta(seconds=10**300000, days=-(10**300000) // 86400)",
  ];
  const LOOPS = [
    "while True:\n    x = datetime.fromtimestamp(1700000000)",
    "while True:\n    x = datetime.now().isoformat()",
    "d = date(2024, 1, 1)\nwhile True:\n    d = d + timedelta(1)",
    "while True:\n    x = datetime.strptime('2024-03-05 10:11:12', '%Y-%m-%d %H:%M:%S')",
    "while True:\n    x = datetime.fromisoformat('2024-03-05T10:11:12.123+05:30').astimezone()",
  ];

  it.each([...HOSTILE.map((h) => `x = ${h}`), ...LOOPS])("%s", async (body) => {
    let best = { wallMs: Infinity, stallMs: Infinity };
    for (let run = 0; run < 3 && (best.wallMs >= 1000 || best.stallMs >= 200); run++) {
      const { result, wallMs, stallMs } = await measure(`${HEADER}${body}`);
      expect(result.error?.type ?? "none").not.toBe("InternalError");
      if (LOOPS.includes(body)) expect(result.error?.type).toBe("ResourceLimitError");
      if (stallMs < best.stallMs) best = { wallMs, stallMs };
    }
    expect(best.stallMs).toBeLessThan(200);
    if (!LOOPS.includes(body)) expect(best.wallMs).toBeLessThan(1000);
  });

  it("charges strftime and strptime by the size of their work", async () => {
    const steps = async (body: string) => (await execute(`${HEADER}${body}`, { limits: { max_steps: 100_000_000 } })).stats.steps;
    const small = await steps("x = datetime(2024, 1, 1).strftime('%Y-%m-%d' * 100)");
    const large = await steps("x = datetime(2024, 1, 1).strftime('%Y-%m-%d' * 400)");
    expect(large).toBeGreaterThan(3 * small);
    const p1 = await steps("x = datetime.strptime('2024' * 100, '%Y' + '2024' * 99)");
    const p4 = await steps("x = datetime.strptime('2024' * 400, '%Y' + '2024' * 399)");
    expect(p4).toBeGreaterThan(3 * p1);
  });
});

describe("nothing of JavaScript shows through", () => {
  it("the module, its classes and their instances have only Python's attributes", async () => {
    const objects = ["datetime", "date", "datetime.datetime", "datetime.date", "datetime.time", "datetime.timedelta", "datetime.timezone", "datetime.tzinfo", "datetime.datetime(2024, 1, 1)", "datetime.date(2024, 1, 1)", "datetime.time(1)", "datetime.timedelta(1)", "datetime.timezone.utc", "datetime.date(2024, 1, 1).isocalendar()", "time", "time.gmtime(0)", "time.struct_time"];
    const names = ["constructor", "toString", "valueOf", "hasOwnProperty", "prototype", "pyRepr", "cls", "micros", "ordinal", "tm", "items", "then"];
    const source = `import datetime, time\nfrom datetime import date\nRESULT = [[hasattr(o, n) for n in ${JSON.stringify(names)}] for o in [${objects.join(", ")}]]`;
    const r = await execute(source);
    expect(r.error).toBeNull();
    expect(r.result).toEqual(objects.map(() => names.map(() => false)));
    const proto = await execute("import datetime\nRESULT = getattr(datetime.date(2024, 1, 1), '__proto__')");
    expect(proto.error?.type).toBe("AttributeError");
  });
});
