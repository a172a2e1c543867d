// datetime.time: a time of day, with an optional timezone and the fold of PEP 495. Times do no
// arithmetic; naive and aware times are never equal and cannot be ordered, as in CPython.
import { pyError } from "../errors.js";
import { NOT_HANDLED, type NotHandled, type Ordering, PyClass, PyInstance } from "../instance.js";
import type { NativeContext, NativeFn } from "../native.js";
import { strRepr } from "../repr.js";
import { typeName, type Value } from "../values.js";
import { cInt, parseArgs, requireTime, strArgument } from "./datetime-args.js";
import { classMethod, isoArgument, noArgs } from "./datetime-date.js";
import { compareDeltas, Delta, deltaOf, ordered } from "./datetime-delta.js";
import { isoTime, parseIsoTime, wrapStrftime } from "./datetime-text.js";
import { formatOffset, TimeZone, timezoneOf, UTC } from "./datetime-timezone.js";
import { hostZone } from "./host-time.js";
import { makeTm } from "./strftime.js";

export class TimeValue extends PyInstance {
  constructor(
    readonly hour: number,
    readonly minute: number,
    readonly second: number,
    readonly microsecond: number,
    readonly tz: TimeZone | null,
    readonly fold: number,
  ) {
    super();
  }

  get cls(): PyClass {
    return TIME;
  }

  override get typeName(): string {
    return "datetime.time";
  }

  /** Microseconds since midnight. */
  get micros(): number {
    return ((this.hour * 60 + this.minute) * 60 + this.second) * 1e6 + this.microsecond;
  }

  pyRepr(repr: (v: Value) => string): string {
    const fields = [this.hour, this.minute];
    if (this.second !== 0 || this.microsecond !== 0) fields.push(this.second);
    if (this.microsecond !== 0) fields.push(this.microsecond);
    let text = `datetime.time(${fields.join(", ")}`;
    if (this.tz !== null) text += `, tzinfo=${repr(this.tz)}`;
    if (this.fold !== 0) text += `, fold=${this.fold}`;
    return text + ")";
  }

  override pyStr(): string {
    return this.isoformat("auto");
  }

  isoformat(timespec: string): string {
    const text = isoTime(this.hour, this.minute, this.second, this.microsecond, timespec);
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
    return TIME.attrs.get(name);
  }

  override pyHash(): string {
    if (this.tz === null) return `\u0000tn${this.micros}`;
    return `\u0000ta${this.micros - this.tz.offsetMicros}`;
  }

  /** How this compares with another time (CPython's time_richcompare), or "mixed" for naive against aware. */
  private order(other: TimeValue): number | "mixed" {
    if (this.tz === other.tz || (this.tz !== null && other.tz !== null && compareDeltas(this.tz.offset, other.tz.offset) === 0)) {
      return Math.sign(this.micros - other.micros);
    }
    if (this.tz === null || other.tz === null) return "mixed";
    // Both aware with different offsets: CPython compares whole seconds less the offsets' days
    // and seconds (the offsets' microseconds are left out), then the microseconds.
    const secs = (t: TimeValue) => t.hour * 3600 + t.minute * 60 + t.second - t.tz!.offset.days * 86400 - t.tz!.offset.seconds;
    const diff = secs(this) - secs(other);
    return Math.sign(diff !== 0 ? diff : this.microsecond - other.microsecond);
  }

  override pyEquals(other: Value): boolean {
    if (!(other instanceof TimeValue)) return false;
    const c = this.order(other);
    return c === 0;
  }

  override pyCompare(op: Ordering, other: Value): boolean | NotHandled {
    if (!(other instanceof TimeValue)) return NOT_HANDLED;
    const c = this.order(other);
    if (c === "mixed") throw pyError("TypeError", "can't compare offset-naive and offset-aware times");
    return ordered(op, c);
  }

  override pyFormat(ctx: NativeContext, spec: string): string {
    return spec === "" ? this.pyStr() : this.strftime(ctx, spec);
  }

  override pyJson(): Value {
    return this.pyStr();
  }

  strftime(ctx: NativeContext, format: string): string {
    const tm = makeTm(1900, 1, 1, this.hour, this.minute, this.second, 1, 0, -1, 0, null, hostZone().tzname);
    return wrapStrftime(
      format,
      { z: () => (this.tz === null ? "" : formatOffset(this.tz.offset, "")), Z: () => (this.tz === null ? "" : this.tz.tzname()), f: () => String(this.microsecond).padStart(6, "0") },
      tm,
      ctx.budget,
    );
  }
}

/** tzinfo=: None or a timezone (the sandbox's only tzinfo), else CPython's TypeError. */
export function tzinfoArg(v: Value | undefined): TimeZone | null {
  if (v === undefined || v === null) return null;
  if (v instanceof TimeZone) return v;
  throw pyError("TypeError", `tzinfo argument must be None or of a tzinfo subclass, not type '${typeName(v)}'`);
}

const TIME_NAMES = ["hour", "minute", "second", "microsecond", "tzinfo", "fold"];

/** The 'i' fields and the 'O' tzinfo of time() and time.replace(). */
function timeField(index: number, v: Value): Value {
  return index === 4 ? v : cInt(v);
}

const construct: NativeFn = (_ctx, args, kwargs) => {
  const [h = 0, m = 0, s = 0, us = 0, tz, fold = 0] = parseArgs({ fname: null, names: TIME_NAMES, required: 0, keywordOnlyFrom: 5 }, args, kwargs, timeField) as [number?, number?, number?, number?, Value?, number?];
  return makeTime(h, m, s, us, tz, fold);
};

function makeTime(h: number, m: number, s: number, us: number, tz: Value | undefined, fold: number): TimeValue {
  requireTime(h, m, s, us, fold);
  return new TimeValue(h, m, s, us, tzinfoArg(tz), fold);
}

export const TIME = new PyClass("time", "datetime", construct);

TIME.methods.set("replace", (_ctx, self: TimeValue, args, kwargs) => {
  const given = parseArgs({ fname: "replace", names: TIME_NAMES, required: 0, keywordOnlyFrom: 5 }, args, kwargs, timeField);
  const [h = self.hour, m = self.minute, s = self.second, us = self.microsecond] = given as (number | undefined)[];
  return makeTime(h, m, s, us, given[4] === undefined ? self.tz : given[4], (given[5] as number | undefined) ?? self.fold);
});
TIME.methods.set("isoformat", (_ctx, self: TimeValue, args, kwargs) => {
  const [timespec = "auto"] = parseArgs({ fname: "isoformat", names: ["timespec"], required: 0 }, args, kwargs, (i, v) => strArgument("isoformat", i, v));
  return self.isoformat(timespec);
});
TIME.methods.set("strftime", (ctx, self: TimeValue, args, kwargs) => {
  const [format] = parseArgs({ fname: "strftime", names: ["format"], required: 1 }, args, kwargs, (i, v) => strArgument("strftime", i, v));
  return self.strftime(ctx, format!);
});
TIME.methods.set("utcoffset", noArgs("time.utcoffset", (_ctx, self: TimeValue) => self.tz?.offset ?? null));
TIME.methods.set("dst", noArgs("time.dst", () => null));
TIME.methods.set("tzname", noArgs("time.tzname", (_ctx, self: TimeValue) => self.tz?.tzname() ?? null));

classMethod(TIME, "fromisoformat", (ctx, args, kwargs) => {
  const text = isoArgument(args, kwargs, "time.fromisoformat");
  const t = parseIsoTime(text, strRepr, ctx.budget);
  const tz = t.offset === null ? null : isoTimezone(t.offset);
  return makeTime(t.hour, t.minute, t.second, t.microsecond, tz, 0);
});
TIME.attrs.set("min", new TimeValue(0, 0, 0, 0, null, 0));
TIME.attrs.set("max", new TimeValue(23, 59, 59, 999999, null, 0));
TIME.attrs.set("resolution", new Delta(0, 0, 1));

/** The timezone of an offset fromisoformat read: UTC for a zero of seconds (its microseconds are ignored). */
export function isoTimezone([seconds, micros]: [number, number]): TimeZone {
  if (seconds === 0) return UTC;
  return timezoneOf(deltaOf(BigInt(seconds) * 1000000n + BigInt(micros)), null);
}
