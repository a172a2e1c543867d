// The host's clocks and local time zone, as the time and datetime modules see them: the wall
// clock (time.time, datetime.now), a monotonic clock (time.monotonic, time.perf_counter), and the
// local offset from UTC at any moment, read from the JS engine (which reads the host's TZ). The
// conversions between local fields and timestamps follow CPython's, folds and gaps included.
import { pyError } from "../errors.js";
import { type CalendarFields, fieldsOfSeconds, MAXYEAR, MINYEAR, secondsOfFields } from "./calendar.js";

/**
 * What a conversion through the local zone costs, in steps: a few Date readings, about a
 * microsecond (charged as the interpreter charges its own work, some 50 ns a step).
 */
export const LOCAL_STEPS = 20;

/** Microseconds since the epoch, by the host's wall clock. */
export function wallMicros(): number {
  // performance's clock has microseconds but does not follow adjustments of the wall clock;
  // Date.now() does (to the millisecond). The first is read, moved to the second whenever they
  // part by a millisecond or more.
  const precise = performance.timeOrigin + performance.now() + drift;
  const ms = Date.now();
  let us: number;
  if (Math.abs(precise - ms) < 1) us = Math.floor(precise * 1000);
  else {
    drift += ms - precise;
    us = ms * 1000;
  }
  // Two clocks read a preemption apart disagree by milliseconds: that is no reason to step back
  // (a real adjustment of the host's clock, of a second or more, is followed).
  if (us < lastWall && lastWall - us < 1e6) us = lastWall;
  lastWall = us;
  return us;
}

/** What was added to performance's clock to follow the wall clock (ms). */
let drift = 0;
/** The last reading of wallMicros(). */
let lastWall = 0;

/** Nanoseconds of a monotonic clock with an arbitrary origin. */
export function monotonicNanos(): bigint {
  return process.hrtime.bigint();
}

/** The CPU time of the host process, in nanoseconds (time.process_time). */
export function processNanos(): bigint {
  const { user, system } = process.cpuUsage();
  return BigInt(user + system) * 1000n;
}

/** JS Dates reach ±8.64e15 ms; the offset of a moment beyond is the offset at that edge. */
const DATE_LIMIT_SECONDS = 8.64e12;

const clamp = (seconds: number) => Math.max(-DATE_LIMIT_SECONDS, Math.min(DATE_LIMIT_SECONDS, seconds));

/** Seconds east of UTC of local time at `seconds` since the epoch (an integer). */
export function localOffset(seconds: number): number {
  const clamped = clamp(seconds);
  const d = new Date(clamped * 1000);
  const local = secondsOfFields(d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds());
  return local - clamped;
}

/** Local time at `seconds` since the epoch, as seconds since the epoch of a UTC clock showing the same fields. */
export function localSeconds(seconds: number): number {
  return seconds + localOffset(seconds);
}

/**
 * What is costly to learn of the local zone, remembered: its abbreviations (Intl formats a date
 * to tell one, ~10 us), each year's standard offset, and time.timezone and the rest. All of it is
 * forgotten when TZ changes (a host may set it at run time; tests do).
 */
class ZoneMemo {
  readonly names = new Map<string, string>();
  readonly standard = new Map<number, number>();
  /** Made on first use: it costs ~20 ms at start-up, and cannot be kept in a start-up snapshot. */
  format: Intl.DateTimeFormat | null = null;
  constants: { year: number; value: HostZone } | null = null;

  constructor(readonly tz: string | undefined) {}
}

let memo = new ZoneMemo(process.env.TZ);

/** Forgets what is known of the local zone if TZ changed (read as time and datetime are imported: reading it costs a microsecond). */
export function refreshZone(): void {
  const tz = process.env.TZ;
  if (tz !== memo.tz) memo = new ZoneMemo(tz);
}

/** The local zone's abbreviation at `seconds` (as the JS engine names it: `UTC`, `EST`, `GMT+1`). */
export function localZoneName(seconds: number): string {
  const m = memo;
  // One name per offset and DST flag: what the abbreviation depends on, in every zone but a few
  // historical ones.
  const key = `${localOffset(seconds)}/${localIsDst(seconds)}`;
  let name = m.names.get(key);
  if (name === undefined) {
    m.format ??= new Intl.DateTimeFormat("en-US", { timeZoneName: "short" });
    name = m.format.formatToParts(new Date(clamp(seconds) * 1000)).find((p) => p.type === "timeZoneName")?.value ?? "UTC";
    if (m.names.size >= 256) m.names.clear();
    m.names.set(key, name);
  }
  return name;
}

/** The standard (least) offset of the year that `seconds` falls in, locally. */
function standardOffset(year: number): number {
  const m = memo;
  let off = m.standard.get(year);
  if (off === undefined) {
    off = Math.min(localOffset(secondsOfFields(year, 1, 1, 0, 0, 0)), localOffset(secondsOfFields(year, 7, 1, 0, 0, 0)));
    if (m.standard.size >= 256) m.standard.clear();
    m.standard.set(year, off);
  }
  return off;
}

/** 1 when daylight saving time is in effect at `seconds`, else 0. */
function localIsDst(seconds: number): number {
  const gmtoff = localOffset(seconds);
  return gmtoff === standardOffset(fieldsOfSeconds(seconds + gmtoff).year) ? 0 : 1;
}

/** Local calendar fields at a moment, with what `struct tm` adds: the offset, the zone's name, DST. */
export interface LocalFields extends CalendarFields {
  gmtoff: number;
  zone: string;
  isdst: number;
}

/** localtime(): the local fields at `seconds` since the epoch (an integer). */
export function localFields(seconds: number): LocalFields {
  const gmtoff = localOffset(seconds);
  const f = fieldsOfSeconds(seconds + gmtoff);
  const isdst = gmtoff === standardOffset(f.year) ? 0 : 1;
  return { year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second, weekday: f.weekday, yday: f.yday, gmtoff, zone: localZoneName(seconds), isdst };
}

/** localSeconds, or CPython's ValueError when the local date is not in the years 1..9999. */
export function localSecondsInRange(seconds: number): number {
  const local = localSeconds(seconds);
  const { year } = fieldsOfSeconds(local);
  if (year < MINYEAR || year > MAXYEAR) throw pyError("ValueError", `year ${year} is out of range`);
  return local;
}

/** Up to how far apart two readings of one local time can be (CPython's max_fold_seconds). */
const MAX_FOLD_SECONDS = 24 * 3600;

/**
 * Whether the local time at `seconds` is the second of two moments that show the same fields
 * (datetime.fromtimestamp's `fold`): CPython probes a day earlier for a transition.
 */
export function localFold(seconds: number): 0 | 1 {
  const result = localSeconds(seconds);
  const probe = localSecondsInRange(seconds - MAX_FOLD_SECONDS);
  const transition = result - probe - MAX_FOLD_SECONDS;
  if (transition < 0 && localSecondsInRange(seconds + transition) === result) return 1;
  return 0;
}

/**
 * The moment (seconds since the epoch) of local fields, as CPython's local_to_seconds: in a
 * repeated hour `fold` picks the first (0) or second (1) reading; in a skipped hour, the fields
 * are read with the offset before (fold 0) or after (fold 1) the change.
 */
export function localToSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number, fold: number, checked = false): number {
  // datetime's conversions refuse a probe that lands outside the years 1..9999, as CPython's do.
  const local = checked ? localSecondsInRange : localSeconds;
  const t = secondsOfFields(year, month, day, hour, minute, second);
  const a = local(t) - t;
  const u1 = t - a;
  const t1 = local(u1);
  let b: number;
  if (t1 === t) {
    const u2 = fold ? u1 + MAX_FOLD_SECONDS : u1 - MAX_FOLD_SECONDS;
    b = local(u2) - u2;
    if (a === b) return u1;
  } else {
    b = t1 - u1;
  }
  const u2 = t - b;
  if (local(u2) === t) return u2;
  if (t1 === t) return u1;
  // In the gap: neither offset gives back the fields.
  return fold ? Math.min(u1, u2) : Math.max(u1, u2);
}

export interface HostZone {
  timezone: number;
  altzone: number;
  daylight: number;
  tzname: readonly [string, string];
}

/** time.timezone, time.altzone, time.daylight and time.tzname, as CPython computes them at import. */
export function hostZone(): HostZone {
  const year = (365 * 24 + 6) * 3600;
  const bucket = Math.floor(Date.now() / 1000 / year);
  const m = memo;
  if (m.constants?.year === bucket) return m.constants.value;
  const jan = bucket * year;
  const jul = jan + year / 2;
  const janZone = -localOffset(jan);
  const julZone = -localOffset(jul);
  const janName = localZoneName(jan);
  const julName = localZoneName(jul);
  // South of the equator, DST is in January.
  const value: HostZone =
    janZone < julZone
      ? { timezone: julZone, altzone: janZone, daylight: 1, tzname: [julName, janName] }
      : { timezone: janZone, altzone: julZone, daylight: janZone !== julZone ? 1 : 0, tzname: [janName, julName] };
  m.constants = { year: bucket, value };
  return value;
}
