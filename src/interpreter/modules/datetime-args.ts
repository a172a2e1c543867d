// How the C functions of datetime and time read their arguments (CPython's getargs.c), so that a
// wrong call fails with CPython's words: the count checks of PyArg_ParseTupleAndKeywords (whose
// messages say "function" when the format names no function), each argument converted in order
// ('i' is a C int, 'U' a str...), then the range checks of the values.
import { pyError } from "../errors.js";
import type { Kwargs } from "../native.js";
import { PyFloat, typeName, type Value } from "../values.js";
import { daysInMonth, MAXYEAR, MINYEAR } from "./calendar.js";

export interface ArgSpec {
  /** The name the messages give (`replace`), or null for "function" (the constructors). */
  fname: string | null;
  names: readonly string[];
  /** How many leading parameters are required. */
  required: number;
  /** Parameters from this index on are keyword-only (a `$` in the format). */
  keywordOnlyFrom?: number;
}

/** `replace()` or `function`, as getargs names the function. */
function called(spec: ArgSpec): string {
  return spec.fname === null ? "function" : `${spec.fname}()`;
}

/**
 * The arguments bound to `spec`'s parameters (undefined where not given), each passed through
 * `convert` in order, with getargs' TypeErrors for too many, missing, doubled or unknown ones.
 */
export function parseArgs<T>(spec: ArgSpec, args: Value[], kwargs: Kwargs | null, convert: (index: number, v: Value) => T): (T | undefined)[] {
  const { names, required } = spec;
  const nargs = args.length;
  const nkw = kwargs?.size ?? 0;
  if (nargs + nkw > names.length) {
    const len = names.length;
    throw pyError("TypeError", `${called(spec)} takes at most ${len} ${nargs === 0 ? "keyword " : ""}argument${len === 1 ? "" : "s"} (${nargs + nkw} given)`);
  }
  const out: (T | undefined)[] = [];
  let used = 0;
  for (let i = 0; i < names.length; i++) {
    if (i === spec.keywordOnlyFrom && nargs > i) {
      throw pyError("TypeError", `${called(spec)} takes at most ${i} positional argument${i === 1 ? "" : "s"} (${nargs} given)`);
    }
    let v: Value | undefined;
    if (i < nargs) v = args[i];
    else if (kwargs !== null) {
      v = kwargs.get(names[i]!);
      if (v !== undefined) used++;
    }
    if (v !== undefined) {
      out.push(convert(i, v));
      continue;
    }
    if (i < required) throw pyError("TypeError", `${called(spec)} missing required argument '${names[i]}' (pos ${i + 1})`);
    out.push(undefined);
  }
  if (kwargs !== null && used < nkw) {
    for (let i = 0; i < nargs; i++) {
      if (kwargs.has(names[i]!)) throw pyError("TypeError", `argument for ${called(spec)} given by name ('${names[i]}') and position (${i + 1})`);
    }
    for (const key of kwargs.keys()) {
      if (!names.includes(key)) {
        throw pyError("TypeError", `'${key}' is an invalid keyword argument for ${spec.fname === null ? "this function" : `${spec.fname}()`}`);
      }
    }
  }
  return out;
}

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;
const LONG_MAX = 2n ** 63n - 1n;
const LONG_MIN = -(2n ** 63n);

/** The 'i' conversion: an int (or bool) that fits a C int. */
export function cInt(v: Value): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" || typeof v === "bigint") {
    if (typeof v === "bigint" && (v > LONG_MAX || v < LONG_MIN)) throw pyError("OverflowError", "Python int too large to convert to C long");
    const n = Number(v);
    if (n > INT_MAX) throw pyError("OverflowError", "signed integer is greater than maximum");
    if (n < INT_MIN) throw pyError("OverflowError", "signed integer is less than minimum");
    return n;
  }
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
}

/** An int for _PyLong_AsInt (a C int, else "Python int too large to convert to C int"). */
export function asCInt(v: bigint): number {
  if (v > BigInt(INT_MAX) || v < BigInt(INT_MIN)) throw pyError("OverflowError", "Python int too large to convert to C int");
  return Number(v);
}

/** The 'U' conversion (a str), worded for argument `index` of `fname`. */
export function strArgument(fname: string, index: number, v: Value): string {
  if (typeof v === "string") return v;
  throw pyError("TypeError", `${fname}() argument ${index + 1} must be str, not ${typeName(v)}`);
}

/** Why a date is invalid, in check_date_args' words, or null. */
export function checkDate(year: number, month: number, day: number): string | null {
  if (year < MINYEAR || year > MAXYEAR) return `year ${year} is out of range`;
  if (month < 1 || month > 12) return "month must be in 1..12";
  if (day < 1 || day > daysInMonth(year, month)) return "day is out of range for month";
  return null;
}

export function requireDate(year: number, month: number, day: number): void {
  const problem = checkDate(year, month, day);
  if (problem !== null) throw pyError("ValueError", problem);
}

/** gmtime and localtime fail when the year does not fit struct tm (an int counting from 1900). */
export function checkTmYear(year: number): void {
  if (year - 1900 > 2147483647 || year - 1900 < -2147483648) throw pyError("OSError", "[Errno 75] Value too large for defined data type");
}

/** check_time_args: each field in its range, in CPython's order and words. */
export function requireTime(hour: number, minute: number, second: number, microsecond: number, fold: number): void {
  if (hour < 0 || hour > 23) throw pyError("ValueError", "hour must be in 0..23");
  if (minute < 0 || minute > 59) throw pyError("ValueError", "minute must be in 0..59");
  if (second < 0 || second > 59) throw pyError("ValueError", "second must be in 0..59");
  if (microsecond < 0 || microsecond > 999999) throw pyError("ValueError", "microsecond must be in 0..999999");
  if (fold !== 0 && fold !== 1) throw pyError("ValueError", "fold must be either 0 or 1");
}

/** A number of seconds as time functions read one: an int, or a float that is not NaN. */
export function timestampArg(v: Value): { int: bigint } | { float: number } {
  if (v instanceof PyFloat) {
    if (Number.isNaN(v.v)) throw pyError("ValueError", "Invalid value NaN (not a number)");
    return { float: v.v };
  }
  if (typeof v === "boolean") return { int: v ? 1n : 0n };
  if (typeof v === "number" || typeof v === "bigint") return { int: BigInt(v) };
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
}

const TIME_T_LIMIT = 2 ** 63;
const TIME_T_MAX = 2n ** 63n;

function timeTOverflow(): never {
  throw pyError("OverflowError", "timestamp out of range for platform time_t");
}

/** _PyTime_ObjectToTime_t with rounding toward minus infinity: whole seconds (gmtime, localtime, date.fromtimestamp). */
export function floorSeconds(v: Value): number {
  const t = timestampArg(v);
  if ("int" in t) {
    if (t.int >= TIME_T_MAX || t.int < -TIME_T_MAX) timeTOverflow();
    return Number(t.int);
  }
  const s = Math.floor(t.float);
  if (!(s >= -TIME_T_LIMIT && s < TIME_T_LIMIT)) timeTOverflow();
  return s;
}

/**
 * _PyTime_ObjectToTimeval with rounding half to even: whole seconds and microseconds
 * (datetime.fromtimestamp), exactly as CPython splits a float.
 */
export function secondsAndMicros(v: Value): [number, number] {
  const t = timestampArg(v);
  if ("int" in t) {
    if (t.int >= TIME_T_MAX || t.int < -TIME_T_MAX) timeTOverflow();
    return [Number(t.int), 0];
  }
  let whole = Math.trunc(t.float);
  let fraction = roundHalfEven((t.float - whole) * 1e6);
  if (fraction >= 1e6) {
    fraction -= 1e6;
    whole += 1;
  } else if (fraction < 0) {
    fraction += 1e6;
    whole -= 1;
  }
  if (!(whole >= -TIME_T_LIMIT && whole < TIME_T_LIMIT)) timeTOverflow();
  return [whole, fraction];
}

/** C's round() (half away from zero), then ties to even, as _PyTime_RoundHalfEven. */
export function roundHalfEven(x: number): number {
  const rounded = roundHalfAway(x);
  if (Math.abs(x - rounded) === 0.5) return 2 * roundHalfAway(x / 2);
  return rounded;
}

/** C's round(): halves away from zero. */
export function roundHalfAway(x: number): number {
  const r = Math.round(Math.abs(x));
  return x < 0 ? -r : r;
}
