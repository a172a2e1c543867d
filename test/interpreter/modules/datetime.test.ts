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

describe("random values agree with CPython", () => {
  /** A fixed-seed generator (xorshift), so the programs are the same on every run. */
  function random(seed: number): (n: number) => number {
    let s = seed >>> 0;
    return (n) => {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      return (s >>> 0) % n;
    };
  }
  const r = random(20240517);
  const pick = <T,>(xs: readonly T[]) => xs[r(xs.length)]!;
  const dt = () => {
    const year = pick([1, 2, 99, 1582, 1900, 1969, 1970, 2000, 2024, 2038, 9998, 9999, 1 + r(9999)]);
    const month = 1 + r(12);
    const day = 1 + r(month === 2 ? 28 : 30);
    const tz = pick(["None", "timezone.utc", `timezone(timedelta(minutes=${r(2879) - 1439}))`, `timezone(timedelta(hours=${r(47) - 23}, seconds=${r(60)}), 'Z${r(9)}')`]);
    return `datetime(${year}, ${month}, ${day}, ${r(24)}, ${r(60)}, ${r(60)}, ${pick([0, 0, r(1000000), 999999, 500000])}, tzinfo=${tz}, fold=${r(2)})`;
  };
  const td = () => pick([`timedelta(${r(2000) - 1000}, ${r(200000) - 100000}, ${r(3000000) - 1500000})`, `timedelta(seconds=${(r(2000000) - 1000000) / 1000})`, `timedelta(hours=${r(100) / 7})`, `timedelta(weeks=${r(10)}, milliseconds=${r(100000) / 3})`]);
  const fmt = () => Array.from({ length: 1 + r(6) }, () => `%${pick(["", "", "", "-", "_", "0", "^", "#", "3", "-4"])}${pick([..."aAbBcCdDeFgGhHIjklmMnpPrRStTuUVwWxXyYzZf%"])}`).join(pick([" ", "-", "/", ":", ""]));

  const parseable = () => Array.from({ length: 1 + r(5) }, () => `%${pick([..."aAbBcdHIjmMpSUwWyYzfGVuxX%"])}`).join(pick([" ", "-", "", "T", ", "]));
  const lines: string[] = [];
  for (let i = 0; i < 200; i++) {
    lines.push(`a = ${dt()}; b = ${dt()}; d = ${td()}`);
    lines.push(`out(lambda: a); out(lambda: str(a)); out(lambda: a.isoformat(timespec='${pick(["auto", "hours", "minutes", "seconds", "milliseconds", "microseconds"])}'))`);
    lines.push(`out(lambda: a + d); out(lambda: a - d); out(lambda: a - b); out(lambda: a < b); out(lambda: a == b); out(lambda: hash(a) == hash(b))`);
    lines.push(`out(lambda: a.toordinal()); out(lambda: a.isocalendar()); out(lambda: a.timetuple()); out(lambda: a.utctimetuple()); out(lambda: a.ctime())`);
    lines.push(`out(lambda: a.strftime(${JSON.stringify(fmt())})); out(lambda: a.date().strftime(${JSON.stringify(fmt())})); out(lambda: a.timetz().strftime(${JSON.stringify(fmt())}))`);
    lines.push(`out(lambda: a.timestamp()); out(lambda: datetime.fromtimestamp(round(a.timestamp(), 3), timezone.utc) if a.tzinfo else None); out(lambda: a.astimezone(timezone(timedelta(hours=${r(47) - 23}))))`);
    const p = JSON.stringify(parseable());
    lines.push(`out(lambda: datetime.strptime(a.strftime(${p}), ${p})); out(lambda: time_module.strptime(a.strftime(${p}), ${p}))`);
    lines.push(`out(lambda: datetime.fromisoformat(a.isoformat())); out(lambda: datetime.strptime(a.strftime('%Y-%m-%d %H:%M:%S.%f'), '%Y-%m-%d %H:%M:%S.%f'))`);
    lines.push(`out(lambda: d); out(lambda: str(d)); out(lambda: d * ${pick(["2", "-3", "0.5", "1.0/3", "1e-3", "True"])}); out(lambda: d / ${pick(["2", "7", "0.25", "timedelta(hours=1)", "3.5"])}); out(lambda: d // ${pick(["3", "timedelta(minutes=7)", "-2"])}); out(lambda: divmod(d, timedelta(seconds=${1 + r(100000)}))); out(lambda: d.total_seconds())`);
  }
  const program = `${HEADER}import time as time_module
def out(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(repr(e))
${lines.join("\n")}
`;
  const [theirs] = cpython([program]);

  it("200 random datetimes and timedeltas, 40 operations each", async () => {
    const ours = await execute(program, { limits: { max_steps: 50_000_000, max_log_bytes: 10_000_000, max_source_bytes: 1_000_000 } });
    expect(ours.error).toBeNull();
    expect(theirs!.error).toBeNull();
    const a = ours.stdout.split("\n");
    const b = theirs!.stdout.split("\n");
    const diffs = b.map((line, i) => [line, a[i]]).filter(([x, y]) => x !== y);
    expect(diffs.slice(0, 10)).toEqual([]);
    expect(a.length).toBe(b.length);
  });
});
