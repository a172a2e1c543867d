// datetime.date: a day of the proleptic Gregorian calendar, years 1..9999. datetime.datetime is
// its subclass (datetime-datetime.ts), as in CPython: isinstance(dt, date) holds, but a date and
// a datetime are never equal, and ordering them is a TypeError.
import { pyError } from "../errors.js";
import { NOT_HANDLED, type NotHandled, type Operator, type Ordering, PyClass, PyInstance } from "../instance.js";
import type { NativeContext, NativeFn } from "../native.js";
import { PyBuiltin } from "../objects.js";
import { strRepr } from "../repr.js";
import { type Value } from "../values.js";
import { dayOfYear, isoCalendar, isoToOrdinal, MAXORDINAL, ordToYmd, weekdayOf, ymdToOrd } from "./calendar.js";
import { cInt, checkTmYear, floorSeconds, parseArgs, requireDate, strArgument } from "./datetime-args.js";
import { Delta, ordered } from "./datetime-delta.js";
import { ctime, isoDate, parseIsoDate, wrapStrftime } from "./datetime-text.js";
import { hostZone, LOCAL_STEPS, localFields, wallMicros } from "./host-time.js";
import { makeTm, type Tm } from "./strftime.js";
import { TupleLike, TupleLikeClass } from "./tuple-like.js";
import { structTime } from "./time-struct.js";

export class DateValue extends PyInstance {
  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
  ) {
    super();
  }

  get cls(): PyClass {
    return DATE;
  }

  override get typeName(): string {
    return "datetime.date";
  }

  /** A datetime (the subclass) has a time of day; a date and a datetime never compare. */
  get hasTime(): boolean {
    return false;
  }

  get ordinal(): number {
    return ymdToOrd(this.year, this.month, this.day);
  }

  pyRepr(_repr: (v: Value) => string): string {
    return `datetime.date(${this.year}, ${this.month}, ${this.day})`;
  }

  override pyStr(): string {
    return isoDate(this.year, this.month, this.day);
  }

  override pyAttr(name: string): Value | undefined {
    switch (name) {
      case "year":
        return this.year;
      case "month":
        return this.month;
      case "day":
        return this.day;
    }
    return this.cls.attr(name);
  }

  override pyHash(): string | null {
    return `\u0000dd${this.ordinal}`;
  }

  override pyEquals(other: Value): boolean {
    return other instanceof DateValue && !other.hasTime && !this.hasTime && other.ordinal === this.ordinal;
  }

  override pyCompare(op: Ordering, other: Value): boolean | NotHandled {
    if (!(other instanceof DateValue)) return NOT_HANDLED;
    if (other.hasTime !== this.hasTime) throw pyError("TypeError", "can't compare datetime.datetime to datetime.date");
    return ordered(op, Math.sign(this.ordinal - other.ordinal));
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean): Value | NotHandled {
    if (other instanceof Delta) {
      if (op === "+") return dateFromOrdinal(this.ordinal + other.days);
      if (op === "-" && !reflected) return dateFromOrdinal(this.ordinal - other.days);
      return NOT_HANDLED;
    }
    if (op === "-" && other instanceof DateValue && !other.hasTime) {
      const days = reflected ? other.ordinal - this.ordinal : this.ordinal - other.ordinal;
      return new Delta(days, 0, 0);
    }
    return NOT_HANDLED;
  }

  override pyFormat(ctx: NativeContext, spec: string): string {
    return spec === "" ? this.pyStr() : this.strftime(ctx, spec);
  }

  override pyJson(): Value {
    return this.pyStr();
  }

  /** timetuple(): the fields as a struct tm (no time, DST unknown). */
  tm(isdst = -1): Tm {
    const wday = (weekdayOf(this.ordinal) + 1) % 7;
    return makeTm(this.year, this.month, this.day, 0, 0, 0, wday, dayOfYear(this.year, this.month, this.day) - 1, isdst, 0, null, hostZone().tzname);
  }

  strftime(ctx: NativeContext, format: string): string {
    return wrapStrftime(format, { z: () => "", Z: () => "", f: () => "000000" }, this.tm(), ctx.budget);
  }
}

/** The date of an ordinal, or CPython's OverflowError out of 1..MAXORDINAL (date arithmetic). */
export function dateFromOrdinal(ordinal: number): DateValue {
  if (ordinal < 1 || ordinal > MAXORDINAL) throw pyError("OverflowError", "date value out of range");
  const [y, m, d] = ordToYmd(ordinal);
  return new DateValue(y, m, d);
}

/** fromisoformat's week dates: no range check on the year here (the date's own check follows). */
export function isoWeekDate(year: number, week: number, day: number): [number, number, number] | null {
  if (week <= 0 || week >= 53) {
    if (week !== 53) return null;
    const first = weekdayOf(ymdToOrd(Math.max(year, 1), 1, 1));
    const long = first === 3 || (first === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
    if (!long) return null;
  }
  if (day <= 0 || day >= 8) return null;
  // Year 0: CPython's C arithmetic yields a month out of range (its check says so).
  if (year === 0) return [1, 0, 1];
  const result = isoToOrdinal(year, week, day);
  return typeof result === "number" ? ordToYmd(result) : null;
}

const construct: NativeFn = (_ctx, args, kwargs) => {
  const [y, m, d] = parseArgs({ fname: null, names: ["year", "month", "day"], required: 3 }, args, kwargs, (_i, v) => cInt(v)) as number[];
  requireDate(y!, m!, d!);
  return new DateValue(y!, m!, d!);
};

export const DATE = new PyClass("date", "datetime", construct);

/** A method of no arguments (METH_NOARGS), worded as CPython words a call with some. */
export function noArgs<T>(qualified: string, f: (ctx: NativeContext, self: T) => Value): (ctx: NativeContext, self: T, args: Value[], kwargs: Map<string, Value> | null) => Value {
  return (ctx, self, args, kwargs) => {
    if (kwargs && kwargs.size) throw pyError("TypeError", `${qualified}() takes no keyword arguments`);
    if (args.length) throw pyError("TypeError", `${qualified}() takes no arguments (${args.length} given)`);
    return f(ctx, self);
  };
}

/** A class method: a built-in that the class holds (`date.today`, `datetime.now`). */
export function classMethod(cls: PyClass, name: string, f: NativeFn): void {
  cls.attrs.set(name, new PyBuiltin(name, f));
}

export const ISO_CALENDAR_DATE = new TupleLikeClass(
  "IsoCalendarDate",
  "datetime",
  () => {
    throw pyError("TypeError", "cannot create 'datetime.IsoCalendarDate' instances");
  },
  ["year", "week", "weekday"],
);

DATE.methods.set("toordinal", noArgs("date.toordinal", (_ctx, self: DateValue) => self.ordinal));
DATE.methods.set("weekday", noArgs("date.weekday", (_ctx, self: DateValue) => weekdayOf(self.ordinal)));
DATE.methods.set("isoweekday", noArgs("date.isoweekday", (_ctx, self: DateValue) => weekdayOf(self.ordinal) + 1));
DATE.methods.set("isocalendar", noArgs("date.isocalendar", (_ctx, self: DateValue) => new TupleLike(ISO_CALENDAR_DATE, isoCalendar(self.year, self.month, self.day))));
DATE.methods.set("isoformat", noArgs("date.isoformat", (_ctx, self: DateValue) => isoDate(self.year, self.month, self.day)));
DATE.methods.set("ctime", noArgs("date.ctime", (_ctx, self: DateValue) => ctime(self.year, self.month, self.day, 0, 0, 0)));
DATE.methods.set("timetuple", noArgs("date.timetuple", (_ctx, self: DateValue) => structTime(self.tm())));
DATE.methods.set("strftime", (ctx, self: DateValue, args, kwargs) => {
  const [format] = parseArgs({ fname: "strftime", names: ["format"], required: 1 }, args, kwargs, (i, v) => strArgument("strftime", i, v));
  return self.strftime(ctx, format!);
});
DATE.methods.set("replace", (_ctx, self: DateValue, args, kwargs) => {
  const [y = self.year, m = self.month, d = self.day] = parseArgs({ fname: "replace", names: ["year", "month", "day"], required: 0 }, args, kwargs, (_i, v) => cInt(v));
  requireDate(y, m, d);
  return new DateValue(y, m, d);
});

/** The local date of a timestamp (date.fromtimestamp, date.today). */
function localDate(seconds: number): DateValue {
  const f = localFields(seconds);
  checkTmYear(f.year);
  requireDate(f.year, f.month, f.day);
  return new DateValue(f.year, f.month, f.day);
}

/** `fromordinal(n)` of date or datetime: "ordinal must be >= 1", then the year's range. */
export function fieldsOfOrdinal(args: Value[], kwargs: Map<string, Value> | null): [number, number, number] {
  if (kwargs && kwargs.size) throw pyError("TypeError", "fromordinal() takes no keyword arguments");
  if (args.length !== 1) throw pyError("TypeError", `fromordinal() takes exactly 1 argument (${args.length} given)`);
  const n = cInt(args[0]!);
  if (n < 1) throw pyError("ValueError", "ordinal must be >= 1");
  const [y, m, d] = ordToYmd(n);
  requireDate(y, m, d);
  return [y, m, d];
}

/** `fromisocalendar(year, week, day)`: the date, or the ValueError naming what is out of range. */
export function fieldsOfIsoCalendar(args: Value[], kwargs: Map<string, Value> | null): [number, number, number] {
  const [y, w, d] = parseArgs({ fname: "fromisocalendar", names: ["year", "week", "day"], required: 3 }, args, kwargs, (_i, v) => cInt(v)) as number[];
  const ordinal = isoToOrdinal(y!, w!, d!);
  if (typeof ordinal === "string") throw pyError("ValueError", ordinal);
  const [yy, mm, dd] = ordToYmd(ordinal);
  requireDate(yy, mm, dd);
  return [yy, mm, dd];
}

/** The str argument of fromisoformat. */
export function isoArgument(args: Value[], kwargs: Map<string, Value> | null, qualified: string): string {
  if (kwargs && kwargs.size) throw pyError("TypeError", `${qualified}() takes no keyword arguments`);
  if (args.length !== 1) throw pyError("TypeError", `${qualified}() takes exactly one argument (${args.length} given)`);
  const text = args[0]!;
  if (typeof text !== "string") throw pyError("TypeError", "fromisoformat: argument must be str");
  return text;
}

classMethod(DATE, "today", (ctx, args) => {
  if (args.length) throw pyError("TypeError", `date.today() takes no arguments (${args.length} given)`);
  ctx.budget.step(LOCAL_STEPS);
  return localDate(Math.floor(wallMicros() / 1e6));
});
classMethod(DATE, "fromtimestamp", (ctx, args, kwargs) => {
  if (kwargs && kwargs.size) throw pyError("TypeError", "date.fromtimestamp() takes no keyword arguments");
  if (args.length !== 1) throw pyError("TypeError", `date.fromtimestamp() takes exactly one argument (${args.length} given)`);
  ctx.budget.step(LOCAL_STEPS);
  return localDate(floorSeconds(args[0]!));
});
classMethod(DATE, "fromordinal", (_ctx, args, kwargs) => new DateValue(...fieldsOfOrdinal(args, kwargs)));
classMethod(DATE, "fromisocalendar", (_ctx, args, kwargs) => new DateValue(...fieldsOfIsoCalendar(args, kwargs)));
classMethod(DATE, "fromisoformat", (ctx, args, kwargs) => {
  const text = isoArgument(args, kwargs, "date.fromisoformat");
  const [y, m, d] = parseIsoDate(text, isoWeekDate, strRepr, ctx.budget);
  requireDate(y, m, d);
  return new DateValue(y, m, d);
});

DATE.attrs.set("min", new DateValue(1, 1, 1));
DATE.attrs.set("max", new DateValue(9999, 12, 31));
DATE.attrs.set("resolution", new Delta(1, 0, 0));
