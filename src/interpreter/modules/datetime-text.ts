// The text forms of dates and times: isoformat(), the parser of fromisoformat() (CPython 3.11's
// C parser, quirks included: it reads past the end of a field as C reads the NUL after the
// string), ctime(), and strftime's own directives (%z, %Z, %f), which datetime replaces before
// the C library sees the format.
import type { Budget } from "../budget.js";
import { pyError } from "../errors.js";
import { DAY_NAMES, MONTH_NAMES, weekdayOf, ymdToOrd } from "./calendar.js";
import { strftime, type Tm, utf8Length } from "./strftime.js";

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** `YYYY-MM-DD`. */
export function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}`;
}

/** The time part of isoformat() for a timespec (`auto` shows microseconds only when there are some). */
export function isoTime(hour: number, minute: number, second: number, us: number, timespec: string): string {
  switch (timespec) {
    case "auto":
      return us === 0 ? isoTime(hour, minute, second, us, "seconds") : isoTime(hour, minute, second, us, "microseconds");
    case "hours":
      return two(hour);
    case "minutes":
      return `${two(hour)}:${two(minute)}`;
    case "seconds":
      return `${two(hour)}:${two(minute)}:${two(second)}`;
    case "milliseconds":
      return `${two(hour)}:${two(minute)}:${two(second)}.${String(Math.floor(us / 1000)).padStart(3, "0")}`;
    case "microseconds":
      return `${two(hour)}:${two(minute)}:${two(second)}.${String(us).padStart(6, "0")}`;
  }
  throw pyError("ValueError", "Unknown timespec value");
}

/** ctime(): `Tue Jan  2 03:04:05 2024` (the year is at least four digits, unlike %c's). */
export function ctime(year: number, month: number, day: number, hour: number, minute: number, second: number): string {
  const weekday = weekdayOf(ymdToOrd(year, month, day));
  return `${DAY_NAMES[weekday]!.slice(0, 3)} ${MONTH_NAMES[month]!.slice(0, 3)} ${String(day).padStart(2, " ")} ${two(hour)}:${two(minute)}:${two(second)} ${String(year).padStart(4, "0")}`;
}

/** What %z, %Z and %f stand for in one value's strftime. */
export interface OwnDirectives {
  z: () => string;
  Z: () => string;
  f: () => string;
}

/**
 * datetime's strftime (wrap_strftime): %z, %Z and %f replaced by the value's own (a `%` in a zone
 * name doubled), every other `%x` left for the C library, which formats the rest from `tm`.
 */
export function wrapStrftime(format: string, own: OwnDirectives, tm: Tm, budget: Budget): string {
  const nul = format.indexOf("\u0000");
  if (nul >= 0) format = format.slice(0, nul);
  budget.step(1 + (format.length >> 3));
  // Without %z, %Z or %f (the usual format) there is nothing to replace.
  if (!/%[zZf]/.test(format)) return strftime(format, tm, budget);
  const parts: string[] = [];
  let z: string | null = null;
  let zone: string | null = null;
  let f: string | null = null;
  let i = 0;
  while (i < format.length) {
    const next = format.indexOf("%", i);
    if (next < 0 || next + 1 >= format.length) {
      parts.push(format.slice(i));
      break;
    }
    parts.push(format.slice(i, next));
    const c = format[next + 1]!;
    budget.step(4);
    if (c === "z") parts.push((z ??= own.z()));
    else if (c === "Z") parts.push((zone ??= own.Z().replaceAll("%", "%%")));
    else if (c === "f") parts.push((f ??= own.f()));
    else parts.push(format.slice(next, next + 2));
    i = next + 2;
    budget.checkSize(2 * (i + (z?.length ?? 0) + (zone?.length ?? 0)));
  }
  return strftime(parts.join(""), tm, budget);
}

// ------------------------------------------------------------------ fromisoformat

/** Code points of the text, read as C reads a NUL-terminated string: past the end is "\0". */
class Cursor {
  readonly cps: string[];

  constructor(text: string, budget: Budget) {
    budget.step(8 + (text.length >> 2));
    this.cps = Array.from(text);
  }

  get length(): number {
    return this.cps.length;
  }

  at(i: number): string {
    return this.cps[i] ?? "\u0000";
  }

  /** `n` ASCII digits at `i` as a number, or null. */
  digits(i: number, n: number): number | null {
    let v = 0;
    for (let k = 0; k < n; k++) {
      const c = this.at(i + k);
      if (c < "0" || c > "9") return null;
      v = v * 10 + (c.charCodeAt(0) - 48);
    }
    return v;
  }
}

/** A date's fields, or null for an invalid string; week dates go through `fromIsoWeek`. */
function parseDate(s: Cursor, len: number, fromIsoWeek: (y: number, w: number, d: number) => [number, number, number] | null): [number, number, number] | null {
  const year = s.digits(0, 4);
  if (year === null) return null;
  let p = 4;
  const separated = s.at(p) === "-";
  if (separated) p++;
  if (s.at(p) === "W") {
    p++;
    const week = s.digits(p, 2);
    if (week === null) return null;
    p += 2;
    let day = 1;
    if (p < len) {
      if (separated && s.at(p++) !== "-") return null;
      const d = s.digits(p, 1);
      if (d === null) return null;
      day = d;
    }
    return fromIsoWeek(year, week, day);
  }
  const month = s.digits(p, 2);
  if (month === null) return null;
  p += 2;
  if (separated && s.at(p++) !== "-") return null;
  const day = s.digits(p, 2);
  if (day === null) return null;
  return [year, month, day];
}

interface TimeFields {
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}

const FRACTION_SCALE = [100000, 10000, 1000, 100, 10];

/** HH[:MM[:SS[.f...]]] between `start` and `end`: [status, fields], status 0 (done), 1 (text follows) or < 0. */
function parseClock(s: Cursor, start: number, end: number): [number, TimeFields] {
  const fields: TimeFields = { hour: 0, minute: 0, second: 0, microsecond: 0 };
  const keys = ["hour", "minute", "second"] as const;
  let p = start;
  let separated = true;
  for (let i = 0; i < 3; i++) {
    const v = s.digits(p, 2);
    if (v === null) return [-3, fields];
    fields[keys[i]!] = v;
    p += 2;
    const c = s.at(p++);
    if (i === 0) separated = c === ":";
    if (p >= end) return [c !== "\u0000" ? 1 : 0, fields];
    if (separated && c === ":") continue;
    if (c === "." || c === ",") break;
    if (!separated) p--;
    else return [-4, fields];
  }
  const toParse = Math.min(end - p, 6);
  const us = s.digits(p, toParse);
  if (us === null) return [-3, fields];
  p += toParse;
  fields.microsecond = toParse > 0 && toParse < 6 ? us * FRACTION_SCALE[toParse - 1]! : us;
  while (s.at(p) >= "0" && s.at(p) <= "9") p++;
  return [s.at(p) !== "\u0000" ? 1 : 0, fields];
}

/** A time with its offset from UTC (seconds, microseconds), or null without one. */
export interface ParsedTime extends TimeFields {
  offset: [number, number] | null;
}

function parseTime(s: Cursor, start: number, len: number): ParsedTime | null {
  const end = start + len;
  let tz = start;
  do {
    const c = s.at(tz);
    if (c === "Z" || c === "+" || c === "-") break;
  } while (++tz < end);
  const [rv, fields] = parseClock(s, start, tz);
  if (rv < 0) return null;
  if (tz === end) return rv === 1 ? null : { ...fields, offset: null };
  if (s.at(tz) === "Z") return s.at(tz + 1) !== "\u0000" ? null : { ...fields, offset: [0, 0] };
  const sign = s.at(tz) === "-" ? -1 : 1;
  const [tzrv, off] = parseClock(s, tz + 1, end);
  if (tzrv !== 0) return null;
  return { ...fields, offset: [sign * (off.hour * 3600 + off.minute * 60 + off.second), sign * off.microsecond] };
}

function invalid(text: string, repr: (s: string) => string): never {
  throw pyError("ValueError", `Invalid isoformat string: ${repr(text)}`);
}

/** date.fromisoformat: YYYY-MM-DD, YYYYMMDD, YYYY-Www, YYYYWww, YYYY-Www-D, YYYYWwwD. */
export function parseIsoDate(text: string, fromIsoWeek: (y: number, w: number, d: number) => [number, number, number] | null, repr: (s: string) => string, budget: Budget): [number, number, number] {
  const s = new Cursor(text, budget);
  const bytes = utf8Length(text);
  const fields = bytes === 7 || bytes === 8 || bytes === 10 ? parseDate(s, s.length, fromIsoWeek) : null;
  return fields ?? invalid(text, repr);
}

/** time.fromisoformat: HH[:MM[:SS[.fff[fff]]]] (basic format too), then Z or ±HH[:MM[:SS[.ffffff]]]. */
export function parseIsoTime(text: string, repr: (s: string) => string, budget: Budget): ParsedTime {
  const s = new Cursor(text, budget);
  const skip = s.at(0) === "T" ? 1 : 0;
  return parseTime(s, skip, s.length - skip) ?? invalid(text, repr);
}

/** Where the date part of a datetime string ends (the separator, any one character, follows). */
function separatorAt(s: Cursor): number {
  const len = s.length;
  if (len === 7) return 7;
  if (s.at(4) === "-") {
    if (s.at(5) !== "W") return 10;
    if (len > 8 && s.at(8) === "-") {
      if (len === 9) return -1;
      if (len > 10 && s.at(10) >= "0" && s.at(10) <= "9") return 8;
      return 10;
    }
    return 8;
  }
  if (s.at(4) === "W") {
    let i = 7;
    while (i < len && s.at(i) >= "0" && s.at(i) <= "9") i++;
    if (i < 9) return i;
    return i % 2 === 0 ? 7 : 8;
  }
  return 8;
}

/** datetime.fromisoformat: a date as above, then optionally any one character and a time as time.fromisoformat reads it. */
export function parseIsoDateTime(
  text: string,
  fromIsoWeek: (y: number, w: number, d: number) => [number, number, number] | null,
  repr: (s: string) => string,
  budget: Budget,
): { date: [number, number, number]; time: ParsedTime } {
  const s = new Cursor(text, budget);
  if (s.length < 7) invalid(text, repr);
  // A lone surrogate can only stand for the separator; CPython reads it as "T".
  for (const at of [7, 8, 10]) {
    if (at > s.length) break;
    const c = s.cps[at];
    if (c !== undefined && c.length === 1 && c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff) {
      s.cps[at] = "T";
      break;
    }
  }
  const sep = separatorAt(s);
  if (sep < 0) invalid(text, repr);
  const date = parseDate(s, sep, fromIsoWeek);
  if (date === null) invalid(text, repr);
  let time: ParsedTime | null = { hour: 0, minute: 0, second: 0, microsecond: 0, offset: null };
  if (s.length > sep) time = parseTime(s, sep + 1, s.length - sep - 1);
  return { date, time: time ?? invalid(text, repr) };
}
