// datetime.datetime: a date and a time of day, naive or aware (a timezone). Arithmetic is exact
// in microseconds; aware values compare and hash by the moment they name (the same instant in two
// zones is one dict key), naive against aware is never equal and cannot be ordered or subtracted.
// "Local time" is the host's time zone: now(), fromtimestamp() without tz, timestamp() and
// astimezone() of naive values use it, as CPython uses the C library's.
import { pyError } from "../errors.js";
import { NOT_HANDLED, type NotHandled, type Operator, type Ordering, PyClass } from "../instance.js";
import type { Kwargs, NativeContext, NativeFn } from "../native.js";
import { ratioToFloat } from "../ops.js";
import { strRepr } from "../repr.js";
import { PyFloat, typeName, type Value } from "../values.js";
import { dayOfYear, EPOCH_ORDINAL, fieldsOfSeconds, MAXORDINAL, ordToYmd, weekdayOf } from "./calendar.js";
import { cInt, checkTmYear, parseArgs, requireDate, requireTime, secondsAndMicros, strArgument } from "./datetime-args.js";
import { classMethod, DATE, DateValue, fieldsOfIsoCalendar, fieldsOfOrdinal, isoArgument, isoWeekDate, noArgs } from "./datetime-date.js";
import { Delta, deltaOf, ordered } from "./datetime-delta.js";
import { ctime, isoDate, isoTime, parseIsoDateTime, wrapStrftime } from "./datetime-text.js";
import { isoTimezone, TimeValue, tzinfoArg } from "./datetime-time.js";
import { formatOffset, TIMEZONE, TimeZone, timezoneOf } from "./datetime-timezone.js";
import { hostZone, LOCAL_STEPS, localFields, localFold, localToSeconds, wallMicros } from "./host-time.js";
import { makeTm, type Tm } from "./strftime.js";
import { strptime } from "./strptime.js";
import { structTime } from "./time-struct.js";

const US_PER_DAY = 86400000000n;
const EPOCH_US = BigInt(EPOCH_ORDINAL) * US_PER_DAY;

export class DateTimeValue extends DateValue {
  constructor(
    year: number,
    month: number,
    day: number,
    readonly hour: number,
    readonly minute: number,
    readonly second: number,
    readonly microsecond: number,
    readonly tz: TimeZone | null,
    readonly fold: number,
  ) {
    super(year, month, day);
  }

  override get cls(): PyClass {
    return DATETIME;
  }

  override get typeName(): string {
    return "datetime.datetime";
  }

  override get hasTime(): boolean {
    return true;
  }

  /** Microseconds since midnight. */
  get timeMicros(): number {
    return ((this.hour * 60 + this.minute) * 60 + this.second) * 1e6 + this.microsecond;
  }

  /** Microseconds from 0001-01-01 00:00 (day 1) to the fields, as a clock showing them reads. */
  get fieldMicros(): bigint {
    return BigInt(this.ordinal) * US_PER_DAY + BigInt(this.timeMicros);
  }

  /** fieldMicros less the offset: the moment in UTC (for an aware value). */
  get utcMicros(): bigint {
    return this.fieldMicros - BigInt(this.tz?.offsetMicros ?? 0);
  }

  override pyRepr(repr: (v: Value) => string): string {
    const fields = [this.year, this.month, this.day, this.hour, this.minute];
    if (this.second !== 0 || this.microsecond !== 0) fields.push(this.second);
    if (this.microsecond !== 0) fields.push(this.microsecond);
    let text = `datetime.datetime(${fields.join(", ")}`;
    if (this.fold !== 0) text += `, fold=${this.fold}`;
    if (this.tz !== null) text += `, tzinfo=${repr(this.tz)}`;
    return text + ")";
  }

  override pyStr(): string {
    return this.isoformat(" ", "auto");
  }

  isoformat(sep: string, timespec: string): string {
    const text = isoDate(this.year, this.month, this.day) + sep + isoTime(this.hour, this.minute, this.second, this.microsecond, timespec);
    return this.tz === null ? text : text + formatOffset(this.tz.offset, ":");
  }

  override pyAttr(name: string): Value | undefined {
    switch (name) {
      case "hour":
        return this.hour;
      case "minute":
        return this.minute;
      case "second":
        return this.second;
      case "microsecond":
        return this.microsecond;
      case "tzinfo":
        return this.tz;
      case "fold":
        return this.fold;
    }
    return super.pyAttr(name);
  }

  override pyHash(): string {
    return this.tz === null ? `\u0000dn${this.fieldMicros}` : `\u0000da${this.utcMicros}`;
  }

  /** How this compares with another datetime (datetime_richcompare), or "mixed" for naive against aware. */
  private order(other: DateTimeValue): number | "mixed" {
    const sign = (d: bigint) => (d < 0n ? -1 : d > 0n ? 1 : 0);
    if (this.tz === other.tz) return sign(this.fieldMicros - other.fieldMicros);
    if (this.tz === null || other.tz === null) return "mixed";
    return sign(this.utcMicros - other.utcMicros);
  }

  override pyEquals(other: Value): boolean {
    return other instanceof DateTimeValue && this.order(other) === 0;
  }

  override pyCompare(op: Ordering, other: Value): boolean | NotHandled {
    if (!(other instanceof DateValue)) return NOT_HANDLED;
    if (!(other instanceof DateTimeValue)) throw pyError("TypeError", "can't compare datetime.datetime to datetime.date");
    const c = this.order(other);
    if (c === "mixed") throw pyError("TypeError", "can't compare offset-naive and offset-aware datetimes");
    return ordered(op, c);
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean): Value | NotHandled {
    if (other instanceof Delta) {
      if (op === "+") return this.shifted(other.micros);
      if (op === "-" && !reflected) return this.shifted(-other.micros);
      return NOT_HANDLED;
    }
    if (op === "-" && other instanceof DateTimeValue) return reflected ? difference(other, this) : difference(this, other);
    return NOT_HANDLED;
  }

  /** This datetime moved by `us` microseconds, with its timezone (fold 0), or OverflowError. */
  shifted(us: bigint): DateTimeValue {
    return fromMicros(this.fieldMicros + us, this.tz);
  }

  override pyJson(): Value {
    return this.isoformat("T", "auto");
  }

  override tm(isdst = -1): Tm {
    const wday = (weekdayOf(this.ordinal) + 1) % 7;
    return makeTm(this.year, this.month, this.day, this.hour, this.minute, this.second, wday, dayOfYear(this.year, this.month, this.day) - 1, isdst, 0, null, hostZone().tzname);
  }

  override strftime(ctx: NativeContext, format: string): string {
    const tz = this.tz;
    return wrapStrftime(
      format,
      { z: () => (tz === null ? "" : formatOffset(tz.offset, "")), Z: () => (tz === null ? "" : tz.tzname()), f: () => String(this.microsecond).padStart(6, "0") },
      this.tm(),
      ctx.budget,
    );
  }
}

/** a - b for two datetimes: field difference, less the offsets' when their timezones differ. */
function difference(a: DateTimeValue, b: DateTimeValue): Delta {
  if (a.tz === b.tz) return deltaOf(a.fieldMicros - b.fieldMicros);
  if (a.tz === null || b.tz === null) throw pyError("TypeError", "can't subtract offset-naive and offset-aware datetimes");
  return deltaOf(a.utcMicros - b.utcMicros);
}

/** The datetime `us` microseconds after 0001-01-01 00:00 (less a day: day 1 starts at 1 * US_PER_DAY). */
function fromMicros(us: bigint, tz: TimeZone | null, fold = 0): DateTimeValue {
  const days = us / US_PER_DAY - (us % US_PER_DAY < 0n ? 1n : 0n);
  if (days < 1n || days > BigInt(MAXORDINAL)) throw pyError("OverflowError", "date value out of range");
  let rest = Number(us - days * US_PER_DAY);
  const [y, m, d] = ordToYmd(Number(days));
  const micro = rest % 1e6;
  rest = (rest - micro) / 1e6;
  return new DateTimeValue(y, m, d, Math.floor(rest / 3600), Math.floor((rest % 3600) / 60), rest % 60, micro, tz, fold);
}

const DATETIME_NAMES = ["year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo", "fold"];

function dateTimeField(index: number, v: Value): Value {
  return index === 7 ? v : cInt(v);
}

function makeDateTime(y: number, mo: number, d: number, h: number, mi: number, s: number, us: number, tz: Value | undefined, fold: number): DateTimeValue {
  requireDate(y, mo, d);
  requireTime(h, mi, s, us, fold);
  return new DateTimeValue(y, mo, d, h, mi, s, us, tzinfoArg(tz), fold);
}

const construct: NativeFn = (_ctx, args, kwargs) => {
  const [y, mo, d, h = 0, mi = 0, s = 0, us = 0, tz, fold = 0] = parseArgs({ fname: null, names: DATETIME_NAMES, required: 3, keywordOnlyFrom: 8 }, args, kwargs, dateTimeField) as (number | undefined)[];
  return makeDateTime(y!, mo!, d!, h, mi, s, us, tz as Value | undefined, fold);
};

export const DATETIME = new PyClass("datetime", "datetime", construct, DATE);

// ------------------------------------------------------------------ local time and timestamps

/** The UTC fields of a whole number of seconds since the epoch, as gmtime gives them. */
function utcDateTime(seconds: number, micro: number, tz: TimeZone | null): DateTimeValue {
  const f = fieldsOfSeconds(seconds);
  checkTmYear(f.year);
  requireDate(f.year, f.month, f.day);
  return new DateTimeValue(f.year, f.month, f.day, f.hour, f.minute, f.second, micro, tz, 0);
}

/** The local fields (and fold) of a whole number of seconds since the epoch, as localtime gives them. */
function localDateTime(seconds: number, micro: number): DateTimeValue {
  const f = localFields(seconds);
  checkTmYear(f.year);
  requireDate(f.year, f.month, f.day);
  return new DateTimeValue(f.year, f.month, f.day, f.hour, f.minute, f.second, micro, null, localFold(seconds));
}

/** A moment from its timestamp, in local time (tz None) or converted to `tz`. */
function fromTimestamp(seconds: number, micro: number, tz: TimeZone | null): DateTimeValue {
  if (tz === null) return localDateTime(seconds, micro);
  return fromUtc(utcDateTime(seconds, micro, tz), tz);
}

/** tz.fromutc(dt): the UTC fields of `dt` shown in `tz`. */
function fromUtc(dt: DateTimeValue, tz: TimeZone): DateTimeValue {
  return fromMicros(dt.fieldMicros + BigInt(tz.offsetMicros), tz);
}

/** The local timezone at a moment: its offset and name (a named timezone, even for UTC). */
function localTimezoneAt(seconds: number): TimeZone {
  const f = localFields(seconds);
  return timezoneOf(deltaOf(BigInt(f.gmtoff) * 1000000n), f.zone);
}

/** Seconds since the epoch of a naive datetime read as local time (its fold deciding repeated hours). */
function localSecondsOf(dt: DateTimeValue): number {
  return localToSeconds(dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.fold, true);
}

function epochSecondsOfUtc(dt: DateTimeValue): number {
  const us = dt.fieldMicros - EPOCH_US;
  return Number(us / 1000000n - (us % 1000000n < 0n ? 1n : 0n));
}

// ------------------------------------------------------------------ methods

DATETIME.methods.set("date", noArgs("datetime.date", (_ctx, self: DateTimeValue) => new DateValue(self.year, self.month, self.day)));
DATETIME.methods.set("time", noArgs("datetime.time", (_ctx, self: DateTimeValue) => new TimeValue(self.hour, self.minute, self.second, self.microsecond, null, self.fold)));
DATETIME.methods.set("timetz", noArgs("datetime.timetz", (_ctx, self: DateTimeValue) => new TimeValue(self.hour, self.minute, self.second, self.microsecond, self.tz, self.fold)));
DATETIME.methods.set("utcoffset", noArgs("datetime.utcoffset", (_ctx, self: DateTimeValue) => self.tz?.offset ?? null));
DATETIME.methods.set("dst", noArgs("datetime.dst", () => null));
DATETIME.methods.set("tzname", noArgs("datetime.tzname", (_ctx, self: DateTimeValue) => self.tz?.tzname() ?? null));
DATETIME.methods.set("ctime", noArgs("datetime.ctime", (_ctx, self: DateTimeValue) => ctime(self.year, self.month, self.day, self.hour, self.minute, self.second)));
DATETIME.methods.set("timetuple", noArgs("datetime.timetuple", (_ctx, self: DateTimeValue) => structTime(self.tm())));
DATETIME.methods.set(
  "utctimetuple",
  noArgs("datetime.utctimetuple", (_ctx, self: DateTimeValue) => {
    const utc = self.tz === null ? self : self.shifted(-BigInt(self.tz.offsetMicros));
    return structTime(utc.tm(0));
  }),
);
DATETIME.methods.set(
  "timestamp",
  noArgs("datetime.timestamp", (ctx, self: DateTimeValue) => {
    if (self.tz !== null) {
      const us = self.utcMicros - EPOCH_US;
      const r = ratioToFloat(us < 0n ? -us : us, 1000000n);
      return new PyFloat(us < 0n ? -r : r);
    }
    ctx.budget.step(LOCAL_STEPS);
    return new PyFloat(localSecondsOf(self) + self.microsecond / 1e6);
  }),
);
DATETIME.methods.set("isoformat", (_ctx, self: DateTimeValue, args, kwargs) => {
  const [sep = "T", timespec = "auto"] = parseArgs({ fname: "isoformat", names: ["sep", "timespec"], required: 0 }, args, kwargs, (i, v) => {
    if (i === 0 && (typeof v !== "string" || [...v].length !== 1)) throw pyError("TypeError", `isoformat() argument 1 must be a unicode character, not ${typeName(v)}`);
    return strArgument("isoformat", i, v);
  });
  return self.isoformat(sep, timespec);
});
DATETIME.methods.set("strftime", (ctx, self: DateTimeValue, args, kwargs) => {
  const [format] = parseArgs({ fname: "strftime", names: ["format"], required: 1 }, args, kwargs, (i, v) => strArgument("strftime", i, v));
  return self.strftime(ctx, format!);
});
DATETIME.methods.set("replace", (_ctx, self: DateTimeValue, args, kwargs) => {
  const given = parseArgs({ fname: "replace", names: DATETIME_NAMES, required: 0, keywordOnlyFrom: 8 }, args, kwargs, dateTimeField);
  const [y = self.year, mo = self.month, d = self.day, h = self.hour, mi = self.minute, s = self.second, us = self.microsecond] = given as (number | undefined)[];
  return makeDateTime(y, mo, d, h, mi, s, us, given[7] === undefined ? self.tz : given[7], (given[8] as number | undefined) ?? self.fold);
});
DATETIME.methods.set("astimezone", (ctx, self: DateTimeValue, args, kwargs) => {
  const [tzArg] = parseArgs({ fname: "astimezone", names: ["tz"], required: 0 }, args, kwargs, (_i, v) => v);
  ctx.budget.step(LOCAL_STEPS);
  const target = tzinfoArg(tzArg);
  const own = self.tz ?? localTimezoneAt(localSecondsOf(self));
  // Conversion to its own timezone (the same object) is the value itself.
  if (own === target) return self;
  const utc = fromMicros(self.fieldMicros - BigInt(own.offsetMicros), null);
  const zone = target ?? localTimezoneAt(epochSecondsOfUtc(utc));
  return fromUtc(utc, zone);
});

// ------------------------------------------------------------------ class methods

function nowFields(tz: TimeZone | null): DateTimeValue {
  const us = wallMicros();
  const seconds = Math.floor(us / 1e6);
  return fromTimestamp(seconds, us - seconds * 1e6, tz);
}

classMethod(DATETIME, "now", (ctx, args, kwargs) => {
  const [tz] = parseArgs({ fname: "now", names: ["tz"], required: 0 }, args, kwargs, (_i, v) => v);
  ctx.budget.step(LOCAL_STEPS);
  return nowFields(tzinfoArg(tz));
});
classMethod(DATETIME, "utcnow", (_ctx, args) => {
  if (args.length) throw pyError("TypeError", `datetime.utcnow() takes no arguments (${args.length} given)`);
  const us = wallMicros();
  const seconds = Math.floor(us / 1e6);
  return utcDateTime(seconds, us - seconds * 1e6, null);
});
classMethod(DATETIME, "today", (ctx, args) => {
  if (args.length) throw pyError("TypeError", `datetime.today() takes no arguments (${args.length} given)`);
  ctx.budget.step(LOCAL_STEPS);
  return nowFields(null);
});
classMethod(DATETIME, "fromtimestamp", (ctx, args, kwargs) => {
  const [timestamp, tz] = parseArgs({ fname: "fromtimestamp", names: ["timestamp", "tz"], required: 1 }, args, kwargs, (_i, v) => v);
  ctx.budget.step(LOCAL_STEPS);
  const zone = tzinfoArg(tz);
  const [seconds, micro] = secondsAndMicros(timestamp!);
  return fromTimestamp(seconds, micro, zone);
});
classMethod(DATETIME, "utcfromtimestamp", (_ctx, args, kwargs) => {
  if (kwargs && kwargs.size) throw pyError("TypeError", "utcfromtimestamp() takes no keyword arguments");
  if (args.length !== 1) throw pyError("TypeError", `utcfromtimestamp() takes exactly 1 argument (${args.length} given)`);
  const [seconds, micro] = secondsAndMicros(args[0]!);
  return utcDateTime(seconds, micro, null);
});
classMethod(DATETIME, "fromordinal", (_ctx, args, kwargs) => {
  const [y, m, d] = fieldsOfOrdinal(args, kwargs);
  return new DateTimeValue(y, m, d, 0, 0, 0, 0, null, 0);
});
classMethod(DATETIME, "fromisocalendar", (_ctx, args, kwargs) => {
  const [y, m, d] = fieldsOfIsoCalendar(args, kwargs);
  return new DateTimeValue(y, m, d, 0, 0, 0, 0, null, 0);
});
classMethod(DATETIME, "fromisoformat", (ctx, args, kwargs) => {
  const text = isoArgument(args, kwargs, "datetime.fromisoformat");
  const { date, time: t } = parseIsoDateTime(text, isoWeekDate, strRepr, ctx.budget);
  const tz = t.offset === null ? null : isoTimezone(t.offset);
  return makeDateTime(date[0], date[1], date[2], t.hour, t.minute, t.second, t.microsecond, tz, 0);
});
classMethod(DATETIME, "combine", (_ctx, args, kwargs) => {
  const [date, time, tz] = parseArgs({ fname: "combine", names: ["date", "time", "tzinfo"], required: 2 }, args, kwargs, (i, v) => {
    if (i === 0 && !(v instanceof DateValue)) throw pyError("TypeError", `combine() argument 1 must be datetime.date, not ${typeName(v)}`);
    if (i === 1 && !(v instanceof TimeValue)) throw pyError("TypeError", `combine() argument 2 must be datetime.time, not ${typeName(v)}`);
    return v;
  }) as [DateValue, TimeValue, Value | undefined];
  return new DateTimeValue(date.year, date.month, date.day, time.hour, time.minute, time.second, time.microsecond, tz === undefined ? time.tz : tzinfoArg(tz), time.fold);
});
classMethod(DATETIME, "strptime", (ctx, args, kwargs) => {
  if (kwargs && kwargs.size) throw pyError("TypeError", "datetime.strptime() takes no keyword arguments");
  if (args.length !== 2) throw pyError("TypeError", `strptime() takes exactly 2 arguments (${args.length} given)`);
  const text = strArgument("strptime", 0, args[0]!);
  const format = strArgument("strptime", 1, args[1]!);
  const p = strptime(text, format, hostZone(), ctx.budget);
  let tz: TimeZone | null = null;
  if (p.gmtoff !== null) tz = timezoneOf(deltaOf(BigInt(p.gmtoff) * 1000000n + BigInt(p.gmtoffFraction)), p.tzname ? p.tzname : null);
  return makeDateTime(p.year, p.month, p.day, p.hour, p.minute, p.second, p.fraction, tz, 0);
});
DATETIME.attrs.set("min", new DateTimeValue(1, 1, 1, 0, 0, 0, 0, null, 0));
DATETIME.attrs.set("max", new DateTimeValue(9999, 12, 31, 23, 59, 59, 999999, null, 0));
DATETIME.attrs.set("resolution", new Delta(0, 0, 1));

// ------------------------------------------------------------------ timezone's methods (they take datetimes)

function dtArgument(method: string, args: Value[], kwargs: Kwargs | null): Value {
  if (kwargs && kwargs.size) throw pyError("TypeError", `timezone.${method}() takes no keyword arguments`);
  if (args.length !== 1) throw pyError("TypeError", `timezone.${method}() takes exactly one argument (${args.length} given)`);
  const dt = args[0]!;
  if (dt !== null && !(dt instanceof DateTimeValue)) throw pyError("TypeError", `${method}(dt) argument must be a datetime instance or None, not ${typeName(dt)}`);
  return dt;
}

TIMEZONE.methods.set("utcoffset", (_ctx, self: TimeZone, args, kwargs) => {
  dtArgument("utcoffset", args, kwargs);
  return self.offset;
});
TIMEZONE.methods.set("dst", (_ctx, _self: TimeZone, args, kwargs) => {
  dtArgument("dst", args, kwargs);
  return null;
});
TIMEZONE.methods.set("tzname", (_ctx, self: TimeZone, args, kwargs) => {
  dtArgument("tzname", args, kwargs);
  return self.tzname();
});
TIMEZONE.methods.set("fromutc", (_ctx, self: TimeZone, args, kwargs) => {
  if (kwargs && kwargs.size) throw pyError("TypeError", "timezone.fromutc() takes no keyword arguments");
  if (args.length !== 1) throw pyError("TypeError", `timezone.fromutc() takes exactly one argument (${args.length} given)`);
  const dt = args[0]!;
  if (!(dt instanceof DateTimeValue)) throw pyError("TypeError", "fromutc: argument must be a datetime");
  if (dt.tz !== self) throw pyError("ValueError", "fromutc: dt.tzinfo is not self");
  return fromUtc(dt, self);
});
