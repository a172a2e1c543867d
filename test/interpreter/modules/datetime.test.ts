// The datetime module against CPython 3.11: every snippet of datetime-cases.ts runs under python3
// and in the sandbox, and the printed output (reprs included), the error's type and its message
// must agree. Then what a differential test cannot see: the clock, the JSON boundary, budgets,
// and that nothing of JavaScript shows through.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
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
