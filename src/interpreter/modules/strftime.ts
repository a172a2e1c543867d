// strftime as CPython 3.11 on Linux produces it: Python hands the format to the C library's
// strftime (glibc, "C" locale), so the directives, their flags (`-`, `_`, `0`, `^`, `#`), widths,
// the E and O modifiers, and what an unknown directive prints are glibc's (measured against the
// python3 the tests run). time.strftime's buffer rule comes along: an output that does not fit in
// 256 bytes per byte of format (rounded up to a power-of-two multiple of 1024) is ''.
import type { Budget } from "../budget.js";
import { DAY_NAMES, isLeap, MONTH_NAMES } from "./calendar.js";
import { localToSeconds } from "./host-time.js";

/** A `struct tm`: what time.strftime receives (month 1..12; weekday and day of year as C counts them). */
export interface Tm {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Sunday 0 .. Saturday 6. */
  wday: number;
  /** 0..365. */
  yday: number;
  isdst: number;
  /** Seconds east of UTC (`tm_gmtoff`). */
  gmtoff: number;
  /** `tm_zone`, or null when the tuple had none (then %Z names the local zone, or nothing). */
  zone: string | null;
  /** The local zone's names (time.tzname), for %Z without tm_zone. */
  tzname: readonly [string, string];
}

/** A Tm (always built here, so that every Tm has one shape). */
export function makeTm(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  wday: number,
  yday: number,
  isdst: number,
  gmtoff: number,
  zone: string | null,
  tzname: readonly [string, string],
): Tm {
  return { year, month, day, hour, minute, second, wday, yday, isdst, gmtoff, zone, tzname };
}

/** The UTF-8 size of `s` (the C library counts bytes). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 1;
      i++;
    } else n += 2;
  }
  return n;
}

/** The largest output (in bytes, NUL excluded) time.strftime keeps for a format of `formatBytes`. */
function outputCap(formatBytes: number): number {
  let size = 1024;
  while (size < 256 * formatBytes) size *= 2;
  return size - 1;
}

/** The output did not fit (glibc returned 0): time.strftime gives ''. */
class Overflow {}

interface Flags {
  /** The last of `-`, `_`, `0` given, or "" for the directive's own padding. */
  pad: "" | "-" | "_" | "0";
  upper: boolean;
  swapCase: boolean;
  /** -1 when no width was given. */
  width: number;
}

/** Which modifier each conversion refuses (glibc prints such a directive as it is written). */
const REFUSES_E = new Set("aAbBdDeFgGhHIjklmMSUVwW");
const REFUSES_O = new Set("aAcDFxXY");

/** Steps charged for each directive before it is converted (about 150 ns of work). */
const DIRECTIVE_STEPS = 16;

/** The flags of a directive that has none. */
const PLAIN: Flags = Object.freeze({ pad: "", upper: false, swapCase: false, width: -1 });

class Writer {
  text = "";
  /** UTF-8 bytes written (the C library's count, which the cap bounds). */
  bytes = 0;
  /** Units written and not yet charged (a step per 8, settled every 4096). */
  private unpaid = 0;

  constructor(
    private readonly cap: number,
    private readonly budget: Budget,
  ) {}

  /** Appends `piece`; `ascii` says its UTF-8 size is its length (what directives write). */
  add(piece: string, ascii = true): void {
    const n = ascii ? piece.length : utf8Length(piece);
    if (this.bytes + n > this.cap) throw new Overflow();
    this.bytes += n;
    this.text += piece;
    this.unpaid += piece.length;
    if (this.unpaid >= 4096) this.settle();
  }

  settle(): void {
    this.budget.checkSize(2 * this.text.length);
    this.budget.step(this.unpaid >> 3);
    this.unpaid &= 7;
  }

  /** `text` right-aligned in `width` with `fill`. */
  padded(text: string, width: number, fill: string, ascii = true): void {
    const short = width - text.length;
    if (short > 0) {
      if (this.bytes + short > this.cap) throw new Overflow();
      this.add(fill.repeat(short));
    }
    this.add(text, ascii);
  }
}

/** strftime(format, tm), '' when the output does not fit time.strftime's buffer (outputCap). */
export function strftime(format: string, tm: Tm, budget: Budget): string {
  // The C library sees the format up to its first NUL.
  const nul = format.indexOf("\u0000");
  if (nul >= 0) format = format.slice(0, nul);
  // Paid first: the scans of the format below, and copying its literal text.
  budget.step(1 + (format.length >> 2));
  const out = new Writer(outputCap(utf8Length(format)), budget);
  try {
    render(format, tm, out, budget);
  } catch (e) {
    if (e instanceof Overflow) return "";
    throw e;
  }
  out.settle();
  return out.text;
}

function render(format: string, tm: Tm, out: Writer, budget: Budget): void {
  let i = 0;
  const n = format.length;
  while (i < n) {
    const next = format.indexOf("%", i);
    if (next < 0) {
      out.add(format.slice(i), false);
      return;
    }
    if (next > i) out.add(format.slice(i, next), false);
    budget.step(DIRECTIVE_STEPS);
    const start = next;
    i = next + 1;
    // Most directives have no flags and no width: they share one Flags.
    let flags = PLAIN;
    const flagged = (): Flags => (flags === PLAIN ? (flags = { pad: "", upper: false, swapCase: false, width: -1 }) : flags);
    for (; i < n; i++) {
      const c = format[i]!;
      if (c === "-" || c === "_" || c === "0") flagged().pad = c;
      else if (c === "^") flagged().upper = true;
      else if (c === "#") flagged().swapCase = true;
      else break;
    }
    if (i < n && format[i]! >= "0" && format[i]! <= "9") {
      let width = 0;
      for (; i < n && format[i]! >= "0" && format[i]! <= "9"; i++) width = Math.min(width * 10 + (format.charCodeAt(i) - 48), 2 ** 31);
      flagged().width = width;
    }
    let modifier = "";
    if (i < n && (format[i] === "E" || format[i] === "O")) modifier = format[i++]!;
    if (i >= n) {
      // A `%` at the end of the format (with what followed it) is printed as it is.
      literal(format.slice(start), flags, out);
      return;
    }
    const conversion = format[i++]!;
    if ((modifier === "E" && REFUSES_E.has(conversion)) || (modifier === "O" && REFUSES_O.has(conversion)) || !convert(conversion, tm, flags, out, budget)) {
      literal(format.slice(start, i), flags, out);
    }
  }
}

function literal(text: string, flags: Flags, out: Writer): void {
  out.padded(flags.upper ? text.toUpperCase() : text, flags.width, flags.pad === "0" ? "0" : " ", false);
}

/** A name, padded with spaces (zeros for `0`) to the width; `^` upper-cases it, `#` too (`lower` for %p, %Z). */
function name(text: string, flags: Flags, out: Writer, swapToLower = false): void {
  if (flags.swapCase) text = swapToLower ? text.toLowerCase() : text.toUpperCase();
  else if (flags.upper) text = text.toUpperCase();
  // A zone's name may be any text.
  out.padded(text, flags.width, flags.pad === "0" ? "0" : " ", false);
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));

/** A number of at least `digits` digits, padded as glibc pads (`fill` is the directive's own). */
function number(value: number, digits: number, flags: Flags, out: Writer, fill: "0" | " " = "0"): void {
  if (flags === PLAIN && fill === "0" && digits === 2 && value >= 0 && value < 100) {
    out.add(TWO_DIGITS[value]!);
    return;
  }
  const negative = value < 0;
  const text = String(Math.abs(value));
  const padChar = flags.pad === "0" ? "0" : flags.pad === "_" || flags.pad === "-" ? " " : fill;
  let width = flags.width >= 0 ? (flags.pad === "-" ? flags.width : Math.max(flags.width, digits)) : flags.pad === "-" ? 0 : digits;
  if (!negative) {
    out.padded(text, width, padChar);
    return;
  }
  width -= 1;
  if (padChar === "0") {
    out.add("-");
    out.padded(text, width, "0");
  } else out.padded("-" + text, width + 1, " ");
}

/** A directive made of others (%c, %D...): its width pads the whole; `^` upper-cases it. */
function composite(format: string, tm: Tm, flags: Flags, out: Writer, budget: Budget): void {
  const inner = new Writer(Infinity, budget);
  render(format, tm, inner, budget);
  let text = inner.text;
  if (flags.upper) text = text.toUpperCase();
  out.padded(text, flags.width, flags.pad === "0" ? "0" : " ");
}

/** The ISO 8601 year and week of a tm, from its day of year and weekday (as glibc derives them). */
function isoWeek(tm: Tm): { year: number; week: number } {
  const days = (yday: number) => {
    // Days since the Monday of week 1; negative in the last days of the year before.
    const bigMultipleOf7 = (Math.floor(366 / 7) + 2) * 7;
    return yday - ((yday - tm.wday + 4 + bigMultipleOf7) % 7) + 3;
  };
  let year = tm.year;
  let d = days(tm.yday);
  if (d < 0) {
    year -= 1;
    d = days(tm.yday + (isLeap(year) ? 366 : 365));
  } else {
    const ahead = days(tm.yday - (isLeap(year) ? 366 : 365));
    if (ahead >= 0) {
      year += 1;
      d = ahead;
    }
  }
  return { year, week: Math.floor(d / 7) + 1 };
}

const floorDiv = (a: number, b: number) => Math.floor(a / b);
const mod = (a: number, b: number) => ((a % b) + b) % b;

/** One conversion; false for a letter glibc does not know (printed as written). */
function convert(c: string, tm: Tm, flags: Flags, out: Writer, budget: Budget): boolean {
  const hour12 = tm.hour % 12 === 0 ? 12 : tm.hour % 12;
  switch (c) {
    case "a":
      name(DAY_NAMES[(tm.wday + 6) % 7]!.slice(0, 3), flags, out);
      return true;
    case "A":
      name(DAY_NAMES[(tm.wday + 6) % 7]!, flags, out);
      return true;
    case "b":
    case "h":
      name(MONTH_NAMES[tm.month]!.slice(0, 3), flags, out);
      return true;
    case "B":
      name(MONTH_NAMES[tm.month]!, flags, out);
      return true;
    case "p":
      name(tm.hour < 12 ? "AM" : "PM", flags, out, true);
      return true;
    case "P":
      name(tm.hour < 12 ? "am" : "pm", { pad: flags.pad, upper: false, swapCase: false, width: flags.width }, out);
      return true;
    case "Z": {
      const zone = tm.zone ?? (tm.isdst >= 0 ? tm.tzname[tm.isdst > 0 ? 1 : 0] : "");
      name(zone, flags, out, true);
      return true;
    }
    case "c":
      composite("%a %b %e %H:%M:%S %Y", tm, flags, out, budget);
      return true;
    case "D":
    case "x":
      composite("%m/%d/%y", tm, flags, out, budget);
      return true;
    case "F":
      composite("%Y-%m-%d", tm, flags, out, budget);
      return true;
    case "r":
      composite("%I:%M:%S %p", tm, flags, out, budget);
      return true;
    case "R":
      composite("%H:%M", tm, flags, out, budget);
      return true;
    case "T":
    case "X":
      composite("%H:%M:%S", tm, flags, out, budget);
      return true;
    case "n":
      name("\n", flags, out);
      return true;
    case "t":
      name("\t", flags, out);
      return true;
    case "%":
      name("%", flags, out);
      return true;
    case "C":
      number(floorDiv(tm.year, 100), 1, flags, out);
      return true;
    case "d":
      number(tm.day, 2, flags, out);
      return true;
    case "e":
      number(tm.day, 2, flags, out, " ");
      return true;
    case "G":
      number(isoWeek(tm).year, 1, flags, out);
      return true;
    case "g":
      number(mod(isoWeek(tm).year, 100), 2, flags, out);
      return true;
    case "H":
      number(tm.hour, 2, flags, out);
      return true;
    case "I":
      number(hour12, 2, flags, out);
      return true;
    case "j":
      number(tm.yday + 1, 3, flags, out);
      return true;
    case "k":
      number(tm.hour, 2, flags, out, " ");
      return true;
    case "l":
      number(hour12, 2, flags, out, " ");
      return true;
    case "m":
      number(tm.month, 2, flags, out);
      return true;
    case "M":
      number(tm.minute, 2, flags, out);
      return true;
    case "s":
      number(localToSeconds(tm.year, tm.month, tm.day, tm.hour, tm.minute, tm.second, 0), 1, flags, out);
      return true;
    case "S":
      number(tm.second, 2, flags, out);
      return true;
    case "u":
      number(tm.wday === 0 ? 7 : tm.wday, 1, flags, out);
      return true;
    case "U":
      number(floorDiv(tm.yday - tm.wday + 7, 7), 2, flags, out);
      return true;
    case "V":
      number(isoWeek(tm).week, 2, flags, out);
      return true;
    case "w":
      number(tm.wday, 1, flags, out);
      return true;
    case "W":
      number(floorDiv(tm.yday - ((tm.wday + 6) % 7) + 7, 7), 2, flags, out);
      return true;
    case "y":
      number(mod(tm.year, 100), 2, flags, out);
      return true;
    case "Y":
      number(tm.year, 1, flags, out);
      return true;
    case "z": {
      if (tm.isdst < 0) return true;
      const off = Math.abs(tm.gmtoff);
      const hhmm = Math.floor(off / 3600) * 100 + Math.floor((off % 3600) / 60);
      // The sign is padded to the width apart from the number (as glibc does).
      const sign = tm.gmtoff < 0 ? "-" : "+";
      out.padded(sign, flags.width, flags.pad === "0" ? "0" : " ");
      number(hhmm, 4, flags, out);
      return true;
    }
  }
  return false;
}
