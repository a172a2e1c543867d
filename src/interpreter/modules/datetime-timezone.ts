// datetime.tzinfo and datetime.timezone: fixed offsets from UTC, with an optional name. tzinfo is
// the abstract base (isinstance(tz, tzinfo)); since scripts cannot define classes, timezone is
// the only kind of tzinfo a value can have, and a datetime's offset is its timezone's.
import { pyError } from "../errors.js";
import { PyClass, PyInstance } from "../instance.js";
import type { NativeFn } from "../native.js";
import { strRepr } from "../repr.js";
import { typeName, type Value } from "../values.js";
import { parseArgs } from "./datetime-args.js";
import { compareDeltas, Delta, deltaOf, ZERO } from "./datetime-delta.js";

const DAY_US = 86400000000;

export class TimeZone extends PyInstance {
  constructor(
    readonly offset: Delta,
    readonly name: string | null,
  ) {
    super();
  }

  get cls(): PyClass {
    return TIMEZONE;
  }

  override get typeName(): string {
    return "datetime.timezone";
  }

  /** The offset in microseconds (exact: less than a day). */
  get offsetMicros(): number {
    return this.offset.microsNumber;
  }

  /** tzname(): the name, or `UTC`, `UTC+05:30`, `UTC-01:00:30.000001`. */
  tzname(): string {
    if (this.name !== null) return this.name;
    if (this.offsetMicros === 0) return "UTC";
    return "UTC" + formatOffset(this.offset, ":");
  }

  pyRepr(repr: (v: Value) => string): string {
    if (this === UTC) return "datetime.timezone.utc";
    return `datetime.timezone(${repr(this.offset)}${this.name === null ? "" : `, ${strRepr(this.name)}`})`;
  }

  override pyStr(): string {
    return this.tzname();
  }

  override pyAttr(name: string): Value | undefined {
    return TIMEZONE.attrs.get(name);
  }

  override pyHash(): string {
    return `\u0000tz${this.offsetMicros}`;
  }

  override pyEquals(other: Value): boolean {
    return other instanceof TimeZone && compareDeltas(this.offset, other.offset) === 0;
  }
}

/** `+HH:MM`, with `:SS` and `.ffffff` when not zero (format_utcoffset); `sep` between the fields. */
export function formatOffset(offset: Delta, sep: string): string {
  let us = offset.microsNumber;
  const sign = us < 0 ? "-" : "+";
  us = Math.abs(us);
  const micro = us % 1000000;
  let seconds = (us - micro) / 1000000;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const two = (n: number) => String(n).padStart(2, "0");
  let text = `${sign}${two(hours)}${sep}${two(minutes)}`;
  if (seconds !== 0 || micro !== 0) text += `${sep}${two(seconds)}`;
  if (micro !== 0) text += "." + String(micro).padStart(6, "0");
  return text;
}

/** A timezone of `offset` (strictly within a day), the shared UTC when it is zero and has no name. */
export function timezoneOf(offset: Delta, name: string | null): TimeZone {
  const us = offset.microsNumber;
  if (!(us > -DAY_US && us < DAY_US)) {
    throw pyError("ValueError", `offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not ${offset.pyRepr()}.`);
  }
  if (name === null && us === 0) return UTC;
  return new TimeZone(offset, name);
}

const constructTimezone: NativeFn = (_ctx, args, kwargs) => {
  const [offset, name] = parseArgs({ fname: "timezone", names: ["offset", "name"], required: 1 }, args, kwargs, (i, v) => {
    if (i === 0 && !(v instanceof Delta)) throw pyError("TypeError", `timezone() argument 1 must be datetime.timedelta, not ${typeName(v)}`);
    if (i === 1 && typeof v !== "string") throw pyError("TypeError", `timezone() argument 2 must be str, not ${typeName(v)}`);
    return v;
  });
  return timezoneOf(offset as Delta, (name as string | undefined) ?? null);
};

export const TZINFO = new PyClass("tzinfo", "datetime", () => {
  throw pyError("TypeError", "cannot create 'datetime.tzinfo' instances (the sandbox has no tzinfo subclasses: use datetime.timezone)");
});

export const TIMEZONE = new PyClass("timezone", "datetime", constructTimezone, TZINFO);

export const UTC = new TimeZone(ZERO, null);

// timezone's methods (utcoffset, dst, tzname, fromutc) take datetimes: datetime-datetime.ts defines them.
TIMEZONE.attrs.set("utc", UTC);
TIMEZONE.attrs.set("min", new TimeZone(deltaOf(-(23n * 3600n + 59n * 60n) * 1000000n), null));
TIMEZONE.attrs.set("max", new TimeZone(deltaOf((23n * 3600n + 59n * 60n) * 1000000n), null));
