// strptime as CPython 3.11's _strptime module does it, in the "C" locale: the format becomes a
// sequence of pieces (literal characters matched without regard to case, runs of whitespace
// matching one or more, and each directive's alternatives, which are _strptime's regular
// expressions), matched from the start of the text with the backtracking order of Python's re;
// then the fields are combined as _strptime combines them. The search remembers the (piece,
// position) pairs that failed, so it never repeats work, and charges a step per attempt.
import type { Budget } from "../budget.js";
import { EXC, PyException, PyExcType, pyError } from "../errors.js";
import { strRepr } from "../repr.js";
import { DAY_NAMES, isLeap, MONTH_NAMES, ordToYmd, weekdayOf, ymdToOrd } from "./calendar.js";
import { checkDate } from "./datetime-args.js";

/** What _strptime returns: a time tuple's fields, with the microseconds apart. */
export interface Parsed {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Monday 0 .. Sunday 6. */
  weekday: number;
  /** Day of the year, 1-based. */
  julian: number;
  /** tm_isdst: 0 or 1 when %Z named a known zone, else -1. */
  isdst: number;
  tzname: string | null;
  /** Seconds east of UTC from %z, or null without it. */
  gmtoff: number | null;
  fraction: number;
  gmtoffFraction: number;
}

/** The local zone, which %Z recognizes besides UTC and GMT. */
export interface LocalZone {
  tzname: readonly [string, string];
  daylight: number;
}

type Piece =
  | { kind: "char"; lower: string }
  | { kind: "space" }
  | { kind: "alts"; group: string; alts: readonly (readonly string[])[] }
  | { kind: "words"; group: string; words: readonly string[] }
  | { kind: "z"; group: string }
  | { kind: "f"; group: string };

/** A character class of _strptime's patterns: "D" any digit, else the characters allowed. */
const DIGITS = "0123456789";

/** "3[0-1]|[1-2]\d|..." as alternatives of character classes. */
function alternatives(pattern: string): string[][] {
  return pattern.split("|").map((alt) => {
    const classes: string[] = [];
    for (let i = 0; i < alt.length; i++) {
      const c = alt[i]!;
      if (c === "\\") {
        classes.push(DIGITS);
        i++;
      } else if (c === "[") {
        const close = alt.indexOf("]", i);
        const body = alt.slice(i + 1, close);
        let set = "";
        for (let j = 0; j < body.length; j++) {
          if (body[j + 1] === "-") {
            for (let k = body.charCodeAt(j); k <= body.charCodeAt(j + 2); k++) set += String.fromCharCode(k);
            j += 2;
          } else set += body[j];
        }
        classes.push(set);
        i = close;
      } else classes.push(c);
    }
    return classes;
  });
}

// _strptime's TimeRE, directive by directive (the " [1-9]" of %d is for %c's space-padded day).
const NUMERIC_SOURCE: Record<string, string> = {
  d: "3[0-1]|[1-2]\\d|0[1-9]|[1-9]| [1-9]",
  H: "2[0-3]|[0-1]\\d|\\d",
  I: "1[0-2]|0[1-9]|[1-9]",
  G: "\\d\\d\\d\\d",
  j: "36[0-6]|3[0-5]\\d|[1-2]\\d\\d|0[1-9]\\d|00[1-9]|[1-9]\\d|0[1-9]|[1-9]",
  m: "1[0-2]|0[1-9]|[1-9]",
  M: "[0-5]\\d|\\d",
  S: "6[0-1]|[0-5]\\d|\\d",
  U: "5[0-3]|[0-4]\\d|\\d",
  W: "5[0-3]|[0-4]\\d|\\d",
  w: "[0-6]",
  u: "[1-7]",
  V: "5[0-3]|0[1-9]|[1-4]\\d|\\d",
  y: "\\d\\d",
  Y: "\\d\\d\\d\\d",
};
const NUMERIC: Record<string, string[][]> = Object.fromEntries(Object.entries(NUMERIC_SOURCE).map(([d, src]) => [d, alternatives(src)]));

/** The length of the text of %f's and %z's patterns (their groups: %z holds two more). */
const F_PATTERN = "[0-9]{1,6}";
const Z_PATTERN = "[+-]\\d\\d:?[0-5]\\d(:?[0-5]\\d(\\.\\d{1,6})?)?|(?-i:Z)";

/** Longest first, as _strptime orders a list of names (a stable sort by length). */
const byLength = (words: string[]) => [...words].sort((a, b) => b.length - a.length);

const WORDS: Record<string, readonly string[]> = {
  A: byLength(DAY_NAMES.map((d) => d.toLowerCase())),
  a: byLength(DAY_NAMES.map((d) => d.slice(0, 3).toLowerCase())),
  B: byLength(MONTH_NAMES.slice(1).map((m) => m.toLowerCase())),
  b: byLength(MONTH_NAMES.slice(1).map((m) => m.slice(0, 3).toLowerCase())),
  p: ["am", "pm"],
};

/** The "C" locale's %c, %x and %X, as _strptime finds them. */
const COMPOSITE: Record<string, string> = { c: "%a %b %d %H:%M:%S %Y", x: "%m/%d/%y", X: "%H:%M:%S" };

/** Characters _strptime escapes before it reads directives: `%` followed by one is a bad directive. */
const REGEX_CHARS = new Set("\\.^$*+?(){}[]|");

// Python's \s for str patterns: Unicode White_Space (not JS's \s).
const SPACE = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

function zoneNames(zone: LocalZone): [Set<string>, Set<string>] {
  const noSaving = new Set(["utc", "gmt", zone.tzname[0].toLowerCase()]);
  const saving = new Set(zone.daylight ? [zone.tzname[1].toLowerCase()] : []);
  return [noSaving, saving];
}

/** re.error, which _strptime lets through when a format names a directive twice. */
const RE_ERROR = new PyExcType("error", EXC.Exception);

/** Characters re.escape() escapes (for the length of a pattern of names). */
const ESCAPED = new Set("()[]{}?*+-|^$\\.&~# \t\n\r\v\f");

function escapedLength(text: string): number {
  let n = 0;
  for (const c of text) n += ESCAPED.has(c) ? 2 : 1;
  return n;
}

/**
 * The pieces of a format, or _strptime's errors for a bad one: a bad directive or a stray % as
 * the format is read; a directive named twice afterwards, as re.compile reports it (the group
 * numbers and the position are those of the regular expression _strptime would have built).
 */
function compile(format: string, zone: LocalZone, budget: Budget): Piece[] {
  budget.step(1 + (format.length >> 2));
  const pieces: Piece[] = [];
  const groups = new Map<string, number>();
  let groupCount = 0;
  let length = 0;
  let duplicate: string | null = null;
  const group = (d: string, patternLength: number, inner = 0): void => {
    const known = groups.get(d);
    if (known !== undefined && duplicate === null) duplicate = `redefinition of group name '${d}' as group ${groupCount + 1}; was group ${known} at position ${length + 4}`;
    if (known === undefined) groups.set(d, groupCount + 1);
    groupCount += 1 + inner;
    length += `(?P<${d}>)`.length + patternLength;
  };
  const add = (text: string): void => {
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (SPACE.test(c)) {
        while (i + 1 < text.length && SPACE.test(text[i + 1]!)) i++;
        pieces.push({ kind: "space" });
        length += 3;
        continue;
      }
      if (c !== "%") {
        pieces.push({ kind: "char", lower: c.toLowerCase() });
        // A code point of the pattern (an astral one is two units here).
        if (!(c >= "\udc00" && c <= "\udfff")) length += REGEX_CHARS.has(c) ? 2 : 1;
        continue;
      }
      if (i + 1 >= text.length) throw pyError("ValueError", `stray % in format '${format}'`);
      const d = text[++i]!;
      if (d === "%") {
        pieces.push({ kind: "char", lower: "%" });
        length += 1;
        continue;
      }
      if (REGEX_CHARS.has(d) || SPACE.test(d)) throw pyError("ValueError", `'%' is a bad directive in format '${format}'`);
      if (COMPOSITE[d] !== undefined) {
        add(COMPOSITE[d]!);
        continue;
      }
      if (NUMERIC[d] !== undefined) {
        group(d, NUMERIC_SOURCE[d]!.length);
        pieces.push({ kind: "alts", group: d, alts: NUMERIC[d]! });
      } else if (WORDS[d] !== undefined) {
        group(d, WORDS[d]!.reduce((n, w) => n + escapedLength(w), WORDS[d]!.length - 1));
        pieces.push({ kind: "words", group: d, words: WORDS[d]! });
      } else if (d === "Z") {
        const [noSaving, saving] = zoneNames(zone);
        const words = byLength([...noSaving, ...saving]);
        group(d, words.reduce((n, w) => n + escapedLength(w), words.length - 1));
        pieces.push({ kind: "words", group: d, words });
      } else if (d === "f") {
        group(d, F_PATTERN.length);
        pieces.push({ kind: "f", group: d });
      } else if (d === "z") {
        group(d, Z_PATTERN.length, 2);
        pieces.push({ kind: "z", group: d });
      } else throw pyError("ValueError", `'${cpAt(text, i)}' is a bad directive in format '${format}'`);
    }
  };
  add(format);
  if (duplicate !== null) throw new PyException(RE_ERROR, [duplicate]);
  return pieces;
}

/** The code point at unit `i` (a directive letter may be astral). */
function cpAt(s: string, i: number): string {
  return String.fromCodePoint(s.codePointAt(i)!);
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** Python's int() of a field's text (a space-padded day, or what %z's pattern let through). */
function int(text: string): number {
  const t = text.replace(/^[\t-\r\x1c-\x20]+|[\t-\r\x1c-\x20]+$/g, "");
  if (!/^[+-]?\d+(_\d+)*$/.test(t)) throw pyError("ValueError", `invalid literal for int() with base 10: ${strRepr(text)}`);
  return Number(t.replaceAll("_", ""));
}

/** Steps charged for each attempt to match a piece at a position (about 150 ns of work). */
const ATTEMPT_STEPS = 16;

/** Where `piece` can end when it starts at `pos`, in the order Python's re tries them. */
function ends(piece: Piece, data: string, pos: number, budget: Budget): number[] {
  budget.step(ATTEMPT_STEPS);
  switch (piece.kind) {
    case "char": {
      const c = data[pos];
      return c !== undefined && (c === piece.lower || c.toLowerCase() === piece.lower) ? [pos + 1] : [];
    }
    case "space": {
      let end = pos;
      while (end < data.length && SPACE.test(data[end]!)) end++;
      budget.step((end - pos) >> 2);
      const out: number[] = [];
      for (let e = end; e > pos; e--) out.push(e);
      return out;
    }
    case "alts": {
      const out: number[] = [];
      for (const alt of piece.alts) {
        if (pos + alt.length > data.length) continue;
        let ok = true;
        for (let k = 0; k < alt.length && ok; k++) ok = alt[k]!.includes(data[pos + k]!);
        if (ok) out.push(pos + alt.length);
      }
      return out;
    }
    case "words": {
      const out: number[] = [];
      for (const w of piece.words) {
        let ok = pos + w.length <= data.length;
        for (let k = 0; k < w.length && ok; k++) ok = data[pos + k]!.toLowerCase() === w[k];
        if (ok) out.push(pos + w.length);
      }
      return out;
    }
    case "f": {
      let end = pos;
      while (end < data.length && end - pos < 6 && isDigit(data[end])) end++;
      const out: number[] = [];
      for (let e = end; e > pos; e--) out.push(e);
      return out;
    }
    case "z":
      return offsetEnds(data, pos);
  }
}

/** `[+-]\d\d:?[0-5]\d(:?[0-5]\d(\.\d{1,6})?)?|Z`, greedy, in backtracking order. */
function offsetEnds(data: string, pos: number): number[] {
  const out: number[] = [];
  const c = data[pos];
  if ((c === "+" || c === "-") && isDigit(data[pos + 1]) && isDigit(data[pos + 2])) {
    for (const colon of data[pos + 3] === ":" ? [1, 0] : [0]) {
      const q = pos + 3 + colon;
      if (!("012345".includes(data[q] ?? "x") && isDigit(data[q + 1]))) continue;
      const r = q + 2;
      for (const colon2 of data[r] === ":" ? [1, 0] : [0]) {
        const s = r + colon2;
        if (!("012345".includes(data[s] ?? "x") && isDigit(data[s + 1]))) continue;
        const t = s + 2;
        if (data[t] === ".") {
          let e = t + 1;
          while (e < data.length && e - t - 1 < 6 && isDigit(data[e])) e++;
          for (let k = e; k > t + 1; k--) out.push(k);
        }
        out.push(t);
      }
      out.push(r);
    }
  }
  if (c === "Z") out.push(pos + 1);
  return out;
}

/** The text each group matched, in the format's order, or null when the format does not match. */
function match(pieces: Piece[], data: string, budget: Budget): { groups: [string, string][]; end: number } | null {
  const n = pieces.length;
  if (n === 0) return { groups: [], end: 0 };
  const failed = new Set<number>();
  const width = data.length + 1;
  // One frame per piece on the current path: where it started, where it may end, which end is next.
  const starts: number[] = [0];
  const options: number[][] = [ends(pieces[0]!, data, 0, budget)];
  const chosen: number[] = [0];
  while (starts.length > 0) {
    const depth = starts.length - 1;
    const list = options[depth]!;
    if (chosen[depth]! >= list.length) {
      failed.add(depth * width + starts[depth]!);
      starts.pop();
      options.pop();
      chosen.pop();
      continue;
    }
    const end = list[chosen[depth]!++]!;
    if (depth + 1 === n) {
      const groups: [string, string][] = [];
      for (let i = 0; i < n; i++) {
        const p = pieces[i]!;
        if (p.kind !== "char" && p.kind !== "space") groups.push([p.group, data.slice(starts[i]!, options[i]![chosen[i]! - 1]!)]);
      }
      return { groups, end };
    }
    if (failed.has((depth + 1) * width + end)) continue;
    starts.push(end);
    options.push(ends(pieces[depth + 1]!, data, end, budget));
    chosen.push(0);
  }
  return null;
}

/** Formats compiled last (as _strptime keeps its last regular expressions): scripts reuse one format. */
const COMPILED = new Map<string, Piece[]>();

function compiled(format: string, zone: LocalZone, budget: Budget): Piece[] {
  const key = `${zone.tzname[0]}\u0000${zone.tzname[1]}\u0000${zone.daylight}\u0000${format}`;
  let pieces = COMPILED.get(key);
  if (pieces === undefined) {
    pieces = compile(format, zone, budget);
    if (COMPILED.size >= 16) COMPILED.clear();
    COMPILED.set(key, pieces);
  } else budget.step(1 + (format.length >> 4));
  return pieces;
}

/** _strptime._strptime: the fields of `data` read with `format`. */
export function strptime(data: string, format: string, zone: LocalZone, budget: Budget): Parsed {
  budget.step(1 + (data.length >> 2));
  const pieces = compiled(format, zone, budget);
  const found = match(pieces, data, budget);
  if (found === null) throw pyError("ValueError", `time data ${strRepr(data)} does not match format ${strRepr(format)}`);
  if (found.end !== data.length) throw pyError("ValueError", `unconverted data remains: ${data.slice(found.end)}`);

  let isoYear: number | null = null;
  let year: number | null = null;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let fraction = 0;
  let isdst = -1;
  let gmtoff: number | null = null;
  let gmtoffFraction = 0;
  let isoWeek: number | null = null;
  let weekOfYear: number | null = null;
  let weekStartsMonday = false;
  let weekday: number | null = null;
  let julian: number | null = null;
  let tzname: string | null = null;
  const text = new Map(found.groups);
  for (const [key, value] of found.groups) {
    switch (key) {
      case "y":
        year = int(value);
        year += year <= 68 ? 2000 : 1900;
        break;
      case "Y":
        year = int(value);
        break;
      case "G":
        isoYear = int(value);
        break;
      case "m":
        month = int(value);
        break;
      case "B":
        month = MONTH_NAMES.findIndex((m) => m !== "" && m.toLowerCase() === value.toLowerCase());
        break;
      case "b":
        month = MONTH_NAMES.findIndex((m, i) => i > 0 && m.slice(0, 3).toLowerCase() === value.toLowerCase());
        break;
      case "d":
        day = int(value);
        break;
      case "H":
        hour = int(value);
        break;
      case "I": {
        hour = int(value);
        const ampm = (text.get("p") ?? "").toLowerCase();
        if (ampm === "" || ampm === "am") {
          if (hour === 12) hour = 0;
        } else if (ampm === "pm" && hour !== 12) hour += 12;
        break;
      }
      case "M":
        minute = int(value);
        break;
      case "S":
        second = int(value);
        break;
      case "f":
        fraction = int(value.padEnd(6, "0"));
        break;
      case "A":
        weekday = DAY_NAMES.findIndex((d) => d.toLowerCase() === value.toLowerCase());
        break;
      case "a":
        weekday = DAY_NAMES.findIndex((d) => d.slice(0, 3).toLowerCase() === value.toLowerCase());
        break;
      case "w":
        weekday = int(value) === 0 ? 6 : int(value) - 1;
        break;
      case "u":
        weekday = int(value) - 1;
        break;
      case "j":
        julian = int(value);
        break;
      case "U":
      case "W":
        weekOfYear = int(value);
        weekStartsMonday = key === "W";
        break;
      case "V":
        isoWeek = int(value);
        break;
      case "z":
        [gmtoff, gmtoffFraction] = readOffset(value);
        break;
      case "Z": {
        const lower = value.toLowerCase();
        const [noSaving, saving] = zoneNames(zone);
        const which = noSaving.has(lower) ? 0 : saving.has(lower) ? 1 : -1;
        // Both names alike with DST on: too ambiguous to say which one was meant.
        const ambiguous = zone.tzname[0] === zone.tzname[1] && zone.daylight !== 0 && lower !== "utc" && lower !== "gmt";
        if (which >= 0 && !ambiguous) isdst = which;
        break;
      }
    }
  }
  tzname = text.get("Z") ?? null;

  if (year === null && isoYear !== null) {
    if (isoWeek === null || weekday === null) {
      throw pyError("ValueError", "ISO year directive '%G' must be used with the ISO week directive '%V' and a weekday directive ('%A', '%a', '%w', or '%u').");
    }
    if (julian !== null) throw pyError("ValueError", "Day of the year directive '%j' is not compatible with ISO year directive '%G'. Use '%Y' instead.");
  } else if (weekOfYear === null && isoWeek !== null) {
    if (weekday === null) {
      throw pyError("ValueError", "ISO week directive '%V' must be used with the ISO year directive '%G' and a weekday directive ('%A', '%a', '%w', or '%u').");
    }
    throw pyError("ValueError", "ISO week directive '%V' is incompatible with the year directive '%Y'. Use the ISO year '%G' instead.");
  }

  // Without a year, Feb 29 is read in 1904 (a leap year), and the year is set back to 1900 after.
  let leapYearFix = false;
  if (year === null && month === 2 && day === 29) {
    year = 1904;
    leapYearFix = true;
  } else if (year === null) year = 1900;

  if (julian === null && weekday !== null) {
    if (weekOfYear !== null) julian = julianFromWeek(year, weekOfYear, weekday, weekStartsMonday);
    else if (isoYear !== null && isoWeek !== null) [year, julian] = julianFromIsoWeek(isoYear, isoWeek, weekday + 1);
    if (julian !== null && julian <= 0) {
      year -= 1;
      julian += isLeap(year) ? 366 : 365;
    }
  }
  if (julian === null) {
    dateOrdinal(year, month, day);
    julian = ymdToOrd(year, month, day) - ymdToOrd(year, 1, 1) + 1;
  } else {
    const ordinal = julian - 1 + dateOrdinal(year, 1, 1);
    if (ordinal < 1) throw pyError("ValueError", "ordinal must be >= 1");
    [year, month, day] = ordToYmd(ordinal);
    dateOrdinal(year, month, day);
  }
  if (weekday === null) weekday = weekdayOf(dateOrdinal(year, month, day));
  if (leapYearFix) year = 1900;
  return { year, month, day, hour, minute, second, weekday, julian, isdst, tzname, gmtoff, fraction, gmtoffFraction };
}

/** The ordinal of a date, or the ValueError datetime.date would raise for it. */
function dateOrdinal(year: number, month: number, day: number): number {
  const problem = checkDate(year, month, day);
  if (problem !== null) throw pyError("ValueError", problem);
  return ymdToOrd(year, month, day);
}

/** %z's text as (seconds, microseconds), both with the offset's sign. */
function readOffset(z: string): [number, number] {
  if (z === "Z") return [0, 0];
  let s = z;
  if (s[3] === ":") {
    s = s.slice(0, 3) + s.slice(4);
    if (s.length > 5) {
      if (s[5] !== ":") throw pyError("ValueError", `Inconsistent use of : in ${z}`);
      s = s.slice(0, 5) + s.slice(6);
    }
  }
  const seconds = int(s.slice(1, 3)) * 3600 + int(s.slice(3, 5)) * 60 + int(s.slice(5, 7) || "0");
  const fraction = int(s.slice(8).padEnd(6, "0"));
  return s.startsWith("-") ? [-seconds, -fraction] : [seconds, fraction];
}

/** The day of the year from %U or %W and a weekday (Monday 0). */
function julianFromWeek(year: number, week: number, weekday: number, startsMonday: boolean): number {
  let first = weekdayOf(dateOrdinal(year, 1, 1));
  let day = weekday;
  if (!startsMonday) {
    first = (first + 1) % 7;
    day = (day + 1) % 7;
  }
  const week0 = (7 - first) % 7;
  if (week === 0) return 1 + day - first;
  return 1 + week0 + 7 * (week - 1) + day;
}

/** The (year, day of the year) of an ISO year, week and weekday (1..7). */
function julianFromIsoWeek(isoYear: number, isoWeek: number, isoWeekday: number): [number, number] {
  const correction = weekdayOf(dateOrdinal(isoYear, 1, 4)) + 1 + 3;
  let ordinal = isoWeek * 7 + isoWeekday - correction;
  if (ordinal < 1) {
    ordinal += dateOrdinal(isoYear, 1, 1);
    isoYear -= 1;
    ordinal -= dateOrdinal(isoYear, 1, 1);
  }
  return [isoYear, ordinal];
}
