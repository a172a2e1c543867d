// The time module of CPython 3.11: the host's clocks, sleep (a wait the execution owns: the event
// loop stays free, and the execution's deadline ends it), the struct_time conversions (gmtime,
// localtime, mktime, asctime, ctime), strftime and strptime, and the local zone's constants.
import { pyError } from "../errors.js";
import type { NativeContext, NativeFn } from "../native.js";
import { normInt, PyFloat, PyTuple, typeName, type Value } from "../values.js";
import { DAY_NAMES, daysFromEpoch, fieldsOfSeconds, MONTH_NAMES } from "./calendar.js";
import { cInt, checkTmYear, floorSeconds, strArgument } from "./datetime-args.js";
import { hostZone, LOCAL_STEPS, localFields, localToSeconds, monotonicNanos, processNanos, refreshZone, wallMicros } from "./host-time.js";
import { makeTm, strftime, type Tm } from "./strftime.js";
import { strptime } from "./strptime.js";
import { STRUCT_TIME, structTime } from "./time-struct.js";
import { TupleLike } from "./tuple-like.js";

/** A function of no arguments (METH_NOARGS). */
function noArgs(name: string, f: () => Value): NativeFn {
  return (_ctx, args, kwargs) => {
    if (kwargs && kwargs.size) throw pyError("TypeError", `time.${name}() takes no keyword arguments`);
    if (args.length) throw pyError("TypeError", `time.${name}() takes no arguments (${args.length} given)`);
    return f();
  };
}

/** A function of at most one optional argument (PyArg_UnpackTuple with 0..1). */
function atMostOne(name: string, f: (ctx: NativeContext, arg: Value | undefined) => Value): NativeFn {
  return (ctx, args, kwargs) => {
    if (kwargs && kwargs.size) throw pyError("TypeError", `${name}() takes no keyword arguments`);
    if (args.length > 1) throw pyError("TypeError", `${name}() takes at most 1 argument (${args.length} given)`);
    return f(ctx, args[0]);
  };
}

const seconds = (ns: bigint) => new PyFloat(Number(ns) / 1e9);

/** Whole seconds from an argument that may be None (now). */
function secondsOrNow(v: Value | undefined): number {
  if (v === undefined || v === null) return Math.floor(wallMicros() / 1e6);
  return floorSeconds(v);
}

function gmTm(t: number): Tm {
  const f = fieldsOfSeconds(t);
  checkTmYear(f.year);
  return makeTm(f.year, f.month, f.day, f.hour, f.minute, f.second, (f.weekday + 1) % 7, f.yday - 1, 0, 0, "GMT", hostZone().tzname);
}

function localTm(t: number, ctx: NativeContext): Tm {
  ctx.budget.step(LOCAL_STEPS);
  const f = localFields(t);
  checkTmYear(f.year);
  return makeTm(f.year, f.month, f.day, f.hour, f.minute, f.second, (f.weekday + 1) % 7, f.yday - 1, f.isdst, f.gmtoff, f.zone, hostZone().tzname);
}

/**
 * gettmarg(): a 9-tuple or struct_time as a struct tm (month and day of year counted from 1, the
 * weekday from Monday, as Python counts them), with tm_zone and tm_gmtoff of a struct_time.
 */
function tmOf(v: Value, fname: string): Tm {
  let items: readonly Value[];
  let extras: readonly Value[] = [];
  if (v instanceof PyTuple) items = v.items;
  else if (v instanceof TupleLike) {
    items = v.items;
    if (v.cls === STRUCT_TIME) extras = v.extraValues;
  } else throw pyError("TypeError", "Tuple or struct_time argument required");
  if (items.length !== 9) throw pyError("TypeError", `${fname}(): illegal time tuple argument`);
  const [y, mon, mday, hour, min, sec, wday, yday, isdst] = items.map(cInt) as number[];
  if (y! < -2147483648 + 1900) throw pyError("OverflowError", "year out of range");
  let zone: string | null = null;
  let gmtoff = 0;
  const z = extras[0];
  if (z !== undefined && z !== null) {
    if (typeof z !== "string") throw pyError("TypeError", "bad argument type for built-in operation");
    zone = z;
  }
  const g = extras[1];
  if (g !== undefined && g !== null) gmtoff = cInt(g);
  // The C weekday counts from Sunday (C's % keeps the sign of a negative weekday).
  return makeTm(y!, mon!, mday!, hour!, min!, sec!, (wday! + 1) % 7, yday! - 1, isdst!, gmtoff, zone, hostZone().tzname);
}

/** The checks of strftime() and asctime(): 0 for a month, a day or a day of the year means the first. */
function checkTm(tm: Tm): Tm {
  let { month, day, yday } = tm;
  if (month === 0) month = 1;
  else if (month < 1 || month > 12) throw pyError("ValueError", "month out of range");
  if (day === 0) day = 1;
  else if (day < 0 || day > 31) throw pyError("ValueError", "day of month out of range");
  if (tm.hour < 0 || tm.hour > 23) throw pyError("ValueError", "hour out of range");
  if (tm.minute < 0 || tm.minute > 59) throw pyError("ValueError", "minute out of range");
  if (tm.second < 0 || tm.second > 61) throw pyError("ValueError", "seconds out of range");
  if (tm.wday < 0) throw pyError("ValueError", "day of week out of range");
  if (yday === -1) yday = 0;
  else if (yday < 0 || yday > 365) throw pyError("ValueError", "day of year out of range");
  return makeTm(tm.year, month, day, tm.hour, tm.minute, tm.second, tm.wday, yday, Math.max(-1, Math.min(1, tm.isdst)), tm.gmtoff, tm.zone, tm.tzname);
}

/** asctime()'s layout: `Mon Jan  1 00:00:00 2024` (the year unpadded). */
function asctime(tm: Tm): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${DAY_NAMES[(tm.wday + 6) % 7]!.slice(0, 3)} ${MONTH_NAMES[tm.month]!.slice(0, 3)}${String(tm.day).padStart(3, " ")} ${two(tm.hour)}:${two(tm.minute)}:${two(tm.second)} ${tm.year}`;
}

const TIME_T_NS_LIMIT = 2 ** 63;

/** time.sleep(secs): a wait of the execution, which its deadline ends (with the timeout error). */
const sleep: NativeFn = (ctx, args, kwargs) => {
  if (kwargs && kwargs.size) throw pyError("TypeError", "time.sleep() takes no keyword arguments");
  if (args.length !== 1) throw pyError("TypeError", `time.sleep() takes exactly one argument (${args.length} given)`);
  const v = args[0]!;
  let secs: number;
  if (v instanceof PyFloat) {
    if (Number.isNaN(v.v)) throw pyError("ValueError", "Invalid value NaN (not a number)");
    if (!(Math.abs(v.v) * 1e9 < TIME_T_NS_LIMIT)) throw pyError("OverflowError", "timestamp out of range for platform time_t");
    secs = v.v;
  } else if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") {
    const n = typeof v === "boolean" ? (v ? 1n : 0n) : BigInt(v);
    if ((n < 0n ? -n : n) * 1000000000n >= 2n ** 63n) throw pyError("OverflowError", "timestamp too large to convert to C _PyTime_t");
    secs = Number(n);
  } else throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
  if (secs < 0) throw pyError("ValueError", "sleep length must be non-negative");
  ctx.budget.step(1);
  return ctx.sleep(secs, null) as unknown as Value;
};

/** mktime(): local fields to a timestamp; tm_isdst 1 (or 0) reads the fields as daylight (or standard) time. */
const mktime: NativeFn = (ctx, args, kwargs) => {
  if (kwargs && kwargs.size) throw pyError("TypeError", "time.mktime() takes no keyword arguments");
  if (args.length !== 1) throw pyError("TypeError", `time.mktime() takes exactly one argument (${args.length} given)`);
  const tm = tmOf(args[0]!, "mktime");
  ctx.budget.step(3 * LOCAL_STEPS);
  // mktime() normalizes every field: month 13 is January of the next year, second 61 the next minute...
  const y = tm.year + Math.floor((tm.month - 1) / 12);
  const m = (((tm.month - 1) % 12) + 12) % 12 + 1;
  const naive = (daysFromEpoch(y, m, 1) + tm.day - 1) * 86400 + tm.hour * 3600 + tm.minute * 60 + tm.second;
  const f = fieldsOfSeconds(naive);
  let t = localToSeconds(f.year, f.month, f.day, f.hour, f.minute, f.second, 0);
  if (tm.isdst < 0) {
    // A repeated or skipped local time: glibc answers with the later moment of the two readings.
    t = Math.max(t, localToSeconds(f.year, f.month, f.day, f.hour, f.minute, f.second, 1));
  } else {
    const actual = localFields(t).isdst;
    const zone = hostZone();
    const shift = zone.daylight ? zone.timezone - zone.altzone : 3600;
    if (tm.isdst > 0 && actual === 0) t -= shift;
    else if (tm.isdst === 0 && actual > 0) t += shift;
  }
  if (!(Math.abs(t) < TIME_T_NS_LIMIT)) throw pyError("OverflowError", "mktime argument out of range");
  return new PyFloat(t);
};

const strftimeFn: NativeFn = (ctx, args, kwargs) => {
  if (kwargs && kwargs.size) throw pyError("TypeError", "strftime() takes no keyword arguments");
  if (args.length === 0) throw pyError("TypeError", "strftime() takes at least 1 argument (0 given)");
  if (args.length > 2) throw pyError("TypeError", `strftime() takes at most 2 arguments (${args.length} given)`);
  const format = strArgument("strftime", 0, args[0]!);
  const tm = checkTm(args.length === 2 ? tmOf(args[1]!, "strftime") : localTm(secondsOrNow(undefined), ctx));
  if (format.includes("\u0000")) throw pyError("ValueError", "embedded null character");
  return strftime(format, tm, ctx.budget);
};

const strptimeFn: NativeFn = (ctx, args, kwargs) => {
  if (kwargs && kwargs.size) throw pyError("TypeError", "strptime() takes no keyword arguments");
  if (args.length === 0) throw pyError("TypeError", "_strptime_time() missing 1 required positional argument: 'data_string'");
  if (args.length > 2) throw pyError("TypeError", `_strptime_time() takes from 1 to 2 positional arguments but ${args.length} were given`);
  const [data, format = "%a %b %d %H:%M:%S %Y"] = args;
  if (typeof data !== "string") throw pyError("TypeError", `strptime() argument 0 must be str, not <class '${typeName(data!)}'>`);
  if (typeof format !== "string") throw pyError("TypeError", `strptime() argument 1 must be str, not <class '${typeName(format)}'>`);
  const p = strptime(data, format, hostZone(), ctx.budget);
  return new TupleLike(STRUCT_TIME, [p.year, p.month, p.day, p.hour, p.minute, p.second, p.weekday, p.julian, p.isdst], [p.tzname, p.gmtoff]);
};

function now(): Value {
  return new PyFloat(wallMicros() / 1e6);
}

/** The module's functions; its constants depend on the host's zone when it is imported (timeModule). */
export const TIME_FUNCTIONS: Record<string, NativeFn> = {
  time: noArgs("time", now),
  time_ns: noArgs("time_ns", () => normInt(BigInt(wallMicros()) * 1000n)),
  monotonic: noArgs("monotonic", () => seconds(monotonicNanos())),
  monotonic_ns: noArgs("monotonic_ns", () => normInt(monotonicNanos())),
  perf_counter: noArgs("perf_counter", () => seconds(monotonicNanos())),
  perf_counter_ns: noArgs("perf_counter_ns", () => normInt(monotonicNanos())),
  process_time: noArgs("process_time", () => seconds(processNanos())),
  process_time_ns: noArgs("process_time_ns", () => normInt(processNanos())),
  sleep,
  gmtime: atMostOne("gmtime", (_ctx, v) => structTime(gmTm(secondsOrNow(v)), true)),
  localtime: atMostOne("localtime", (ctx, v) => structTime(localTm(secondsOrNow(v), ctx), true)),
  mktime,
  asctime: atMostOne("asctime", (ctx, v) => asctime(checkTm(v === undefined ? localTm(secondsOrNow(undefined), ctx) : tmOf(v, "asctime")))),
  ctime: atMostOne("ctime", (ctx, v) => asctime(localTm(secondsOrNow(v), ctx))),
  strftime: strftimeFn,
  strptime: strptimeFn,
};

/** `import time`: the functions, struct_time, and timezone, altzone, daylight and tzname of the host's zone. */
export function timeModule(): Record<string, NativeFn | Value> {
  refreshZone();
  const zone = hostZone();
  return {
    ...TIME_FUNCTIONS,
    struct_time: STRUCT_TIME,
    timezone: zone.timezone,
    altzone: zone.altzone,
    daylight: zone.daylight,
    tzname: new PyTuple(zone.tzname),
  };
}
