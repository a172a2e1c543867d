// The methods of str (all of Python 3.11's but format and format_map, which live with string
// formatting), and str.maketrans.
//
// Indices are code points (strings.ts converts to and from UTF-16 offsets). Case mapping and
// character classes follow CPython over JS's own Unicode support: toUpperCase/toLowerCase do the
// full mappings CPython does (ß -> SS, final sigma), \p{...} classes give the categories CPython
// tests, and the few places where the two differ (titlecase, casefold, digit and numeric values)
// are patched below. JS's Unicode database may be newer than CPython 3.11's (14.0), so characters
// assigned or reclassified since then can differ.
//
// Work is charged before it is done: one step per UNITS_PER_STEP UTF-16 units scanned or built,
// and a result that can outgrow its input (padding, replace, join, expandtabs, translate, encode)
// is measured against the memory budget before it exists.
import { EXC, pyError, PyException } from "../errors.js";
import { bind, intArg, type Kwargs, type NativeContext, type NativeFn, type NativeMethod, type Signature } from "../native.js";
import {
  cpChars,
  cpIndexOf,
  cpLastIndexOf,
  cpLength,
  cpSplitAll,
  isBoundary,
  isSpace,
  sliceIndex,
  toCpIndex,
  toUnitOffset,
} from "../strings.js";
import { itemsSize } from "../sizes.js";
import { after } from "../objects.js";
import { collectItems, lazy, waitable } from "../stepping.js";
import { PyBytes, PyDict, PyList, PyTuple, typeName, type Value } from "../values.js";

type Method = NativeMethod<string>;

// ------------------------------------------------------------------ budget

const UNITS_PER_STEP = 16;
/** V8 keeps a string in one or two bytes per unit; the budget assumes two. */
const BYTES_PER_UNIT = 2;

/** Charges the steps of scanning or building `units` UTF-16 units. */
function charge(ctx: NativeContext, units: number): void {
  ctx.budget.step(1 + Math.floor(units / UNITS_PER_STEP));
}

/** Refuses, before it is built, a string of `units` UTF-16 units too large for the memory budget. */
function checkUnits(ctx: NativeContext, units: number): void {
  ctx.budget.checkSize(units * BYTES_PER_UNIT);
}

/** The steps this execution has left. */
function stepsLeft(ctx: NativeContext): number {
  return ctx.budget.limits.max_steps - ctx.budget.steps;
}

/**
 * Pays for a split into at most `bound` pieces (a step and a list slot each) before it is made,
 * when that many would not fit in the steps left: the pieces are then counted first, `count`
 * stopping at the cap it is given, so that a text of ten million separators is refused without
 * building its list. Returns whether it paid; if not, the caller charges the pieces it made (a
 * number that fits), as it always did.
 */
function prepayPieces(ctx: NativeContext, bound: number, count: (cap: number) => number): boolean {
  const left = stepsLeft(ctx);
  if (bound <= left) return false;
  const pieces = count(left + 1);
  ctx.budget.checkSize(8 * pieces);
  ctx.budget.step(pieces);
  return true;
}

/** How many pieces splitting on `sep` (not empty) makes, with at most `max` splits, up to `cap`. */
function countSplit(s: string, sep: string, max: number, cap: number): number {
  return 1 + countMatches(s, sep, Math.min(max, cap - 1));
}

/** How many words split() (on whitespace) makes, with at most `max` splits, up to `cap`. */
function countWords(s: string, max: number, cap: number): number {
  let words = 0;
  const most = Math.min(max + 1, cap);
  for (let i = 0; i < s.length && words < most; ) {
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    if (i === s.length) break;
    words++;
    while (i < s.length && !isSpace(s.charCodeAt(i))) i++;
  }
  return words;
}

// ------------------------------------------------------------------ arguments

/** Positional-only arguments, with CPython's wording when there are too few or too many. */
function positional(name: string, args: Value[], kwargs: Kwargs | null, min: number, max: number): void {
  if (kwargs && kwargs.size > 0) throw pyError("TypeError", `str.${name}() takes no keyword arguments`);
  const n = args.length;
  if (n >= min && n <= max) return;
  if (max === 0) throw pyError("TypeError", `str.${name}() takes no arguments (${n} given)`);
  if (min === max && min === 1) throw pyError("TypeError", `str.${name}() takes exactly one argument (${n} given)`);
  const bound = n < min ? min : max;
  const plural = bound === 1 ? "" : "s";
  throw pyError("TypeError", `${name} expected ${n < min ? "at least" : "at most"} ${bound} argument${plural}, got ${n}`);
}

/** Arguments that may be given by keyword, with CPython's wording for an unknown keyword. */
function keywords(name: string, sig: Signature, args: Value[], kwargs: Kwargs | null): (Value | undefined)[] {
  if (kwargs) {
    for (const key of kwargs.keys()) {
      if (!sig.names.includes(key)) throw pyError("TypeError", `'${key}' is an invalid keyword argument for ${name}()`);
    }
  }
  return bind(name, sig, args, kwargs);
}

/** The `sub[, start[, end]]` arguments of find, index, count, startswith and endswith (older wording). */
function searchArgs(name: string, args: Value[], kwargs: Kwargs | null): void {
  if (kwargs && kwargs.size > 0) throw pyError("TypeError", `${name}() takes no keyword arguments`);
  if (args.length < 1) throw pyError("TypeError", `${name}() takes at least 1 argument (0 given)`);
  if (args.length > 3) throw pyError("TypeError", `${name}() takes at most 3 arguments (${args.length} given)`);
}

function subArg(v: Value | undefined): string {
  if (typeof v === "string") return v;
  throw pyError("TypeError", `must be str, not ${typeName(v ?? null)}`);
}

function strParam(name: string, v: Value | undefined, position: number): string {
  if (typeof v === "string") return v;
  throw pyError("TypeError", `${name}() argument ${position} must be str, not ${typeName(v ?? null)}`);
}

function fillArg(v: Value | undefined): string {
  if (v === undefined) return " ";
  if (typeof v !== "string") throw pyError("TypeError", `The fill character must be a unicode character, not ${typeName(v)}`);
  if (cpLength(v) !== 1) throw pyError("TypeError", "The fill character must be exactly one character long");
  return v;
}

/**
 * The code-point window [start, end) of the find family, adjusted as CPython does: negative
 * bounds count from the end, `end` is clamped to the length, `start` is not (a start past the end
 * finds nothing).
 */
function searchWindow(length: number, startArg: Value | undefined, endArg: Value | undefined): [number, number] {
  const start = sliceIndex(startArg) ?? 0;
  const end = sliceIndex(endArg) ?? length;
  return [start < 0 ? Math.max(start + length, 0) : start, end < 0 ? Math.max(end + length, 0) : Math.min(end, length)];
}

// ------------------------------------------------------------------ character classes

// Python's whitespace (str.isspace, split(), strip()): Unicode White_Space as CPython defines it,
// which is not JS's \s (that has U+FEFF and lacks U+001C-U+001F and U+0085).
const SPACE_CLASS = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

// Numeric_Type=Digit characters that are not decimal (superscripts, circled digits...): isdigit()
// accepts them; \p{Nd} does not. From CPython 3.11's unicodedata.
const DIGIT_EXTRA =
  "\\u00b2\\u00b3\\u00b9\\u1369-\\u1371\\u19da\\u2070\\u2074-\\u2079\\u2080-\\u2089\\u2460-\\u2468\\u2474-\\u247c" +
  "\\u2488-\\u2490\\u24ea\\u24f5-\\u24fd\\u24ff\\u2776-\\u277e\\u2780-\\u2788\\u278a-\\u2792\\u{10a40}-\\u{10a43}" +
  "\\u{10e60}-\\u{10e68}\\u{11052}-\\u{1105a}\\u{1f100}-\\u{1f10a}";

// Ideographs with a numeric value (一, 二, 百, 万...): isnumeric() accepts them though they are
// letters (Lo), not \p{N}. From CPython 3.11's unicodedata.
const NUMERIC_EXTRA =
  "\\u3405\\u3483\\u382a\\u3b4d\\u4e00\\u4e03\\u4e07\\u4e09\\u4e5d\\u4e8c\\u4e94\\u4e96\\u4ebf\\u4ec0\\u4edf\\u4ee8" +
  "\\u4f0d\\u4f70\\u5104\\u5146\\u5169\\u516b\\u516d\\u5341\\u5343-\\u5345\\u534c\\u53c1-\\u53c4\\u56db\\u58f1" +
  "\\u58f9\\u5e7a\\u5efe\\u5eff\\u5f0c-\\u5f0e\\u5f10\\u62fe\\u634c\\u67d2\\u6f06\\u7396\\u767e\\u8086\\u842c" +
  "\\u8cae\\u8cb3\\u8d30\\u9621\\u9646\\u964c\\u9678\\u96f6\\uf96b\\uf973\\uf978\\uf9b2\\uf9d1\\uf9d3\\uf9fd" +
  "\\u{20001}\\u{20064}\\u{200e2}\\u{20121}\\u{2092a}\\u{20983}\\u{2098c}\\u{2099c}\\u{20aea}\\u{20afd}" +
  "\\u{20b19}\\u{22390}\\u{22998}\\u{23b1b}\\u{2626d}\\u{2f890}";

const UPPER_CLASS = "\\p{Uppercase}\\p{Lt}";
const LOWER_CLASS = "\\p{Lowercase}";

const WHOLE_STRING = {
  alpha: /^\p{L}+$/u,
  decimal: /^\p{Nd}+$/u,
  digit: new RegExp(`^[\\p{Nd}${DIGIT_EXTRA}]+$`, "u"),
  numeric: new RegExp(`^[\\p{N}${NUMERIC_EXTRA}]+$`, "u"),
  alnum: new RegExp(`^[\\p{L}\\p{N}${NUMERIC_EXTRA}]+$`, "u"),
  space: new RegExp(`^[${SPACE_CLASS}]+$`),
  identifier: /^[\p{XID_Start}_]\p{XID_Continue}*$/u,
  // istitle(): every uppercase or titlecase letter starts a run of cased letters, lowercase ones
  // only follow cased ones, and there is at least one.
  title: new RegExp(`^[^${UPPER_CLASS}${LOWER_CLASS}]*(?:[${UPPER_CLASS}][${LOWER_CLASS}]*(?:[^${UPPER_CLASS}${LOWER_CLASS}]+|$))+$`, "u"),
};
const NOT_ASCII = /[^\0-\x7f]/;
const NOT_PRINTABLE = /(?! )[\p{C}\p{Z}]/u;
const HAS_UPPER = /\p{Uppercase}/u;
const HAS_LOWER_OR_TITLE = /[\p{Lowercase}\p{Lt}]/u;
const HAS_UPPER_OR_TITLE = /[\p{Uppercase}\p{Lt}]/u;
const HAS_LOWER = /\p{Lowercase}/u;
const IS_UPPER = /^\p{Uppercase}$/u;
const CASED = /^\p{Cased}$/u;
const CASE_IGNORABLE = /^\p{Case_Ignorable}$/u;
const CASED_RUN = /\p{Cased}+/gu;
const SWAPPABLE = /[\p{Uppercase}\p{Lowercase}]/gu;

function predicate(name: string, test: (s: string) => boolean): Method {
  return (ctx, self, args, kwargs) => {
    positional(name, args, kwargs, 0, 0);
    charge(ctx, self.length);
    return test(self);
  };
}

// ------------------------------------------------------------------ case mapping

/** The code point starting at unit `u`, as a string. */
function charAt(s: string, u: number): string {
  const c = s.codePointAt(u)!;
  return c > 0xffff ? s.slice(u, u + 2) : s[u]!;
}

/** The code point ending at unit `u`, as a string. */
function charBefore(s: string, u: number): string {
  return u >= 2 && s.codePointAt(u - 2)! > 0xffff ? s.slice(u - 2, u) : s[u - 1]!;
}

/**
 * Whether the Σ at unit `at` ends a word, so lowercases to ς: a cased letter comes before it and
 * none after it, skipping case-ignorable characters both ways (Unicode's Final_Sigma, as CPython).
 */
function isFinalSigma(s: string, at: number): boolean {
  let j = at;
  let casedBefore = false;
  while (j > 0) {
    const ch = charBefore(s, j);
    j -= ch.length;
    if (!CASE_IGNORABLE.test(ch)) {
      casedBefore = CASED.test(ch);
      break;
    }
  }
  if (!casedBefore) return false;
  for (j = at + 1; j < s.length; ) {
    const ch = charAt(s, j);
    j += ch.length;
    if (!CASE_IGNORABLE.test(ch)) return !CASED.test(ch);
  }
  return true;
}

/** s[from:to] lowercased, each Σ decided by its context in all of `s` (toLowerCase sees only the part). */
function lowerPart(s: string, from: number, to: number): string {
  let sigma = s.indexOf("Σ", from);
  if (sigma < 0 || sigma >= to) return s.slice(from, to).toLowerCase();
  let out = "";
  let done = from;
  while (sigma >= 0 && sigma < to) {
    out += s.slice(done, sigma).toLowerCase() + (isFinalSigma(s, sigma) ? "ς" : "σ");
    done = sigma + 1;
    sigma = s.indexOf("Σ", done);
  }
  return out + s.slice(done, to).toLowerCase();
}

// Titlecase mappings that differ from the uppercase mapping (from CPython 3.11's unicodedata):
// digraphs, ligatures and Greek letters with ypogegrammeni. Georgian letters and U+1F80-U+1FAF
// follow rules, in titleChar.
const TITLE_SPECIAL = new Map<number, string>([
  [0xdf, "Ss"],
  [0x1c4, "\u01c5"],
  [0x1c5, "\u01c5"],
  [0x1c6, "\u01c5"],
  [0x1c7, "\u01c8"],
  [0x1c8, "\u01c8"],
  [0x1c9, "\u01c8"],
  [0x1ca, "\u01cb"],
  [0x1cb, "\u01cb"],
  [0x1cc, "\u01cb"],
  [0x1f1, "\u01f2"],
  [0x1f2, "\u01f2"],
  [0x1f3, "\u01f2"],
  [0x587, "\u0535\u0582"],
  [0x1fb2, "\u1fba\u0345"],
  [0x1fb3, "\u1fbc"],
  [0x1fb4, "\u0386\u0345"],
  [0x1fb7, "\u0391\u0342\u0345"],
  [0x1fbc, "\u1fbc"],
  [0x1fc2, "\u1fca\u0345"],
  [0x1fc3, "\u1fcc"],
  [0x1fc4, "\u0389\u0345"],
  [0x1fc7, "\u0397\u0342\u0345"],
  [0x1fcc, "\u1fcc"],
  [0x1ff2, "\u1ffa\u0345"],
  [0x1ff3, "\u1ffc"],
  [0x1ff4, "\u038f\u0345"],
  [0x1ff7, "\u03a9\u0342\u0345"],
  [0x1ffc, "\u1ffc"],
  [0xfb00, "Ff"],
  [0xfb01, "Fi"],
  [0xfb02, "Fl"],
  [0xfb03, "Ffi"],
  [0xfb04, "Ffl"],
  [0xfb05, "St"],
  [0xfb06, "St"],
  [0xfb13, "\u0544\u0576"],
  [0xfb14, "\u0544\u0565"],
  [0xfb15, "\u0544\u056b"],
  [0xfb16, "\u054e\u0576"],
  [0xfb17, "\u0544\u056d"],
]);

/** The titlecase mapping of one code point. */
function titleChar(ch: string): string {
  const c = ch.codePointAt(0)!;
  const special = TITLE_SPECIAL.get(c);
  if (special !== undefined) return special;
  // Georgian Mkhedruli: its uppercase is Mtavruli, but a word starts with the letter itself.
  if (c >= 0x10d0 && c <= 0x10ff && c !== 0x10fb && c !== 0x10fc) return ch;
  // Greek with ypogegrammeni (U+1F80-U+1FAF): the titlecase letter has prosgegrammeni instead,
  // the code point with bit 3 set (U+1F80 -> U+1F88; U+1F88 stays).
  if (c >= 0x1f80 && c <= 0x1faf) return String.fromCharCode(c | 8);
  return ch.toUpperCase();
}

/** str.title(): the first cased letter of each run of cased letters titlecased, the rest lowercased. */
function toTitle(s: string): string {
  if (s.length < 4096 && ASCII_ONLY.test(s)) return asciiTitle(s);
  return s.replace(CASED_RUN, (run: string, offset: number) => {
    const first = run.codePointAt(0)! > 0xffff ? 2 : 1;
    return titleChar(run.slice(0, first)) + lowerPart(s, offset + first, offset + run.length);
  });
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * toTitle of an ASCII text, where the cased letters are A-Z and a-z: one pass over its units
 * (a third of the time of the replace above, whose callback runs once per word).
 */
function asciiTitle(s: string): string {
  const units: number[] = [];
  let inRun = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    if (upper || lower) {
      units.push(inRun ? (upper ? c + 32 : c) : lower ? c - 32 : c);
      inRun = true;
    } else {
      units.push(c);
      inRun = false;
    }
  }
  return String.fromCharCode(...units);
}

function toCapitalized(s: string): string {
  if (s.length === 0) return s;
  const first = s.codePointAt(0)! > 0xffff ? 2 : 1;
  return titleChar(s.slice(0, first)) + lowerPart(s, first, s.length);
}

function toSwapped(s: string): string {
  return s.replace(SWAPPABLE, (ch: string, offset: number) => {
    if (!IS_UPPER.test(ch)) return ch.toUpperCase();
    return ch === "Σ" ? (isFinalSigma(s, offset) ? "ς" : "σ") : ch.toLowerCase();
  });
}

// Full case folding is lowercase-of-uppercase for every character but these (checked against
// CPython 3.11 for every code point): final sigma folds to σ, ẞ (whose uppercase is itself) to ss,
// Cherokee to its uppercase letters, and dotless ı to itself.
const FOLD_FIXES = /[ςß\u13f8-\u13fd\uab70-\uabbf]/g;

function fixFold(ch: string): string {
  if (ch === "ς") return "σ";
  if (ch === "ß") return "ss";
  const c = ch.charCodeAt(0);
  return String.fromCharCode(c <= 0x13fd ? c - 8 : c - 0xab70 + 0x13a0);
}

function toCasefolded(s: string): string {
  if (!NOT_ASCII.test(s)) return s.toLowerCase();
  return s
    .split("ı")
    .map((part) => part.toUpperCase().toLowerCase().replace(FOLD_FIXES, fixFold))
    .join("ı");
}

function caseMethod(name: string, map: (s: string) => string): Method {
  return (ctx, self, args, kwargs) => {
    positional(name, args, kwargs, 0, 0);
    charge(ctx, self.length);
    const out = map(self);
    // Case mapping grows a string at most threefold (ΐ -> Ϊ́), so this check after the fact is
    // bounded by what the input already holds.
    checkUnits(ctx, out.length);
    return out;
  };
}

// ------------------------------------------------------------------ searching

/** The first (or last) match of `sub` in the code-point window [a, b) of `s`, as a code-point index. */
function findIn(s: string, sub: string, a: number, b: number, last: boolean): number {
  if (b - a < cpLength(sub)) return -1;
  const from = toUnitOffset(s, a);
  const to = toUnitOffset(s, b);
  const window = from === 0 && to === s.length ? s : s.slice(from, to);
  const i = last ? cpLastIndexOf(window, sub) : cpIndexOf(window, sub);
  return i < 0 ? -1 : toCpIndex(s, from + i);
}

function finder(name: string, last: boolean, raise: boolean): Method {
  return (ctx, self, args, kwargs) => {
    searchArgs(name, args, kwargs);
    const sub = subArg(args[0]);
    let i: number;
    if (args.length === 1) {
      // The whole string: a match is a code-point match wherever cpIndexOf finds it.
      charge(ctx, self.length);
      const u = last ? cpLastIndexOf(self, sub) : cpIndexOf(self, sub);
      i = u < 0 ? -1 : toCpIndex(self, u);
    } else {
      const [a, b] = searchWindow(cpLength(self), args[1], args[2]);
      charge(ctx, self.length);
      i = findIn(self, sub, a, b, last);
    }
    if (i < 0 && raise) throw pyError("ValueError", "substring not found");
    return i;
  };
}

/** How many non-overlapping matches of `sub` (not empty) lie in `s` from unit `from`, counting at most `max`. */
function countMatches(s: string, sub: string, max: number, from = 0): number {
  let n = 0;
  for (let i = cpIndexOf(s, sub, from); i >= 0 && n < max; i = cpIndexOf(s, sub, i + sub.length)) n++;
  return n;
}

const count: Method = (ctx, self, args, kwargs) => {
  searchArgs("count", args, kwargs);
  const sub = subArg(args[0]);
  if (args.length === 1 && sub.length > 0) {
    charge(ctx, self.length);
    return countMatches(self, sub, Infinity);
  }
  const [a, b] = searchWindow(cpLength(self), args[1], args[2]);
  charge(ctx, self.length);
  if (b < a) return 0;
  if (sub.length === 0) return b - a + 1;
  const window = self.slice(toUnitOffset(self, a), toUnitOffset(self, b));
  return countMatches(window, sub, Infinity);
};

/** Whether `sub` matches at the start (or the end) of the code-point window [a, b) of `s`. */
function matchesAt(s: string, sub: string, a: number, b: number, atEnd: boolean): boolean {
  if (b - cpLength(sub) < a) return false;
  if (atEnd) {
    const to = toUnitOffset(s, b);
    return s.endsWith(sub, to) && isBoundary(s, to - sub.length);
  }
  const from = toUnitOffset(s, a);
  return s.startsWith(sub, from) && isBoundary(s, from + sub.length);
}

function affixTest(name: string, atEnd: boolean): Method {
  return (ctx, self, args, kwargs) => {
    const what0 = args[0];
    if (args.length === 1 && kwargs === null && typeof what0 === "string") {
      // The whole string is the window: no code-point length needed (matchesAt's unit test and
      // boundary checks already decide, and a sub longer than self cannot match).
      charge(ctx, self.length);
      if (atEnd) return self.endsWith(what0) && isBoundary(self, self.length - what0.length);
      return self.startsWith(what0) && isBoundary(self, what0.length);
    }
    searchArgs(name, args, kwargs);
    const [a, b] = searchWindow(cpLength(self), args[1], args[2]);
    const what = args[0]!;
    charge(ctx, self.length);
    if (typeof what === "string") return matchesAt(self, what, a, b, atEnd);
    if (!(what instanceof PyTuple)) {
      throw pyError("TypeError", `${name} first arg must be str or a tuple of str, not ${typeName(what)}`);
    }
    for (const item of what.items) {
      if (typeof item !== "string") throw pyError("TypeError", `tuple for ${name} must only contain str, not ${typeName(item)}`);
      if (matchesAt(self, item, a, b, atEnd)) return true;
    }
    return false;
  };
}

// ------------------------------------------------------------------ splitting

function maxsplitArg(v: Value | undefined): number {
  if (v === undefined) return Infinity;
  const n = intArg("split", v);
  return n < 0 ? Infinity : n;
}

function splitSepArg(v: Value | undefined): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw pyError("TypeError", `must be str or None, not ${typeName(v)}`);
  if (v.length === 0) throw pyError("ValueError", "empty separator");
  return v;
}

/** Python's whitespace but the space itself. */
const SPACE_BUT_BLANK = /[\t-\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** split() on runs of whitespace; after `max` splits the rest keeps its trailing whitespace. */
function splitSpaces(s: string, max: number): string[] {
  const n = s.length;
  // When the only whitespace is " ", V8's native split (a long text, no maxsplit) or indexOf
  // finds the words much faster than a scan unit by unit.
  if (n >= 1024 && max === Infinity) return wordsBetweenBlanks(s) ?? splitAnySpaces(s, max);
  if (SPACE_BUT_BLANK.test(s)) return splitAnySpaces(s, max);
  const out: string[] = [];
  const words = n >= 1024 ? new RecentWords() : null;
  for (let i = 0; i < n; ) {
    let end = s.indexOf(" ", i);
    if (end < 0) end = n;
    if (end > i) {
      if (out.length === max) {
        out.push(s.slice(i));
        break;
      }
      out.push(words === null ? s.slice(i, end) : words.take(s, i, end));
    }
    i = end + 1;
  }
  return out;
}

/** splitSpaces for a text with whitespace other than " ". */
function splitAnySpaces(s: string, max: number): string[] {
  const n = s.length;
  const out: string[] = [];
  const words = n >= 1024 ? new RecentWords() : null;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    if (i === n) break;
    if (out.length === max) {
      out.push(s.slice(i));
      break;
    }
    const start = i;
    while (i < n && !isSpace(s.charCodeAt(i))) i++;
    out.push(words === null ? s.slice(start, i) : words.take(s, start, i));
  }
  return out;
}

/**
 * The words of `s` split on " " alone, the empty pieces dropped, recurring words shared; null if
 * `s` has whitespace other than " ".
 */
function wordsBetweenBlanks(s: string): string[] | null {
  const parts = s.split(" ");
  const words = new RecentWords();
  // A word equal to one seen before was checked for other whitespace then, so only new words are
  // checked, one by one while they are few (a text of recurring words is never scanned whole),
  // then by one scan of the whole text.
  let checks = s.length >> 8;
  let k = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.length === 0) continue;
    const known = words.seen(part);
    if (known !== null) {
      parts[k++] = known;
      continue;
    }
    if (checks > 0) {
      checks--;
      if (SPACE_BUT_BLANK.test(part)) return null;
    } else if (checks === 0) {
      checks = -1;
      if (SPACE_BUT_BLANK.test(s)) return null;
    }
    parts[k++] = part;
  }
  parts.length = k;
  return parts;
}

/**
 * The pieces of one long split that spell a word seen shortly before come out as that same
 * string: a text of many repeated words then keeps one string per word, not one per piece, so
 * fewer strings live on for the collector to copy, and a dict keyed by them hashes each once.
 * (A str has no identity a script can see: `is` compares strs by value here.) A small table of
 * the last word per (first unit, last unit, length), compared in place, so a miss costs little.
 */
class RecentWords {
  private readonly table: string[] = new Array<string>(256).fill("");

  take(s: string, start: number, end: number): string {
    const length = end - start;
    if (length > 24) return s.slice(start, end);
    const h = (s.charCodeAt(start) * 31 + s.charCodeAt(end - 1) * 7 + length) & 255;
    const known = this.table[h]!;
    if (known.length === length && s.startsWith(known, start)) return known;
    const word = s.slice(start, end);
    this.table[h] = word;
    return word;
  }

  /** The word equal to `word` (not empty) seen shortly before, or null (then `word` is remembered). */
  seen(word: string): string | null {
    const length = word.length;
    if (length > 24) return null;
    const h = (word.charCodeAt(0) * 31 + word.charCodeAt(length - 1) * 7 + length) & 255;
    const known = this.table[h]!;
    if (known === word) return known;
    this.table[h] = word;
    return null;
  }
}

/** rsplit() on runs of whitespace; after `max` splits the rest keeps its leading whitespace. */
function rsplitSpaces(s: string, max: number): string[] {
  const out: string[] = [];
  let i = s.length;
  while (i > 0) {
    while (i > 0 && isSpace(s.charCodeAt(i - 1))) i--;
    if (i === 0) break;
    if (out.length === max) {
      out.push(s.slice(0, i));
      break;
    }
    const end = i;
    while (i > 0 && !isSpace(s.charCodeAt(i - 1))) i--;
    out.push(s.slice(i, end));
  }
  return out.reverse();
}

function splitOn(s: string, sep: string, max: number): string[] {
  if (max === Infinity) return cpSplitAll(s, sep);
  const out: string[] = [];
  let done = 0;
  for (let i = cpIndexOf(s, sep); i >= 0 && out.length < max; i = cpIndexOf(s, sep, done)) {
    out.push(s.slice(done, i));
    done = i + sep.length;
  }
  out.push(s.slice(done));
  return out;
}

function rsplitOn(s: string, sep: string, max: number): string[] {
  const out: string[] = [];
  let end = s.length;
  while (out.length < max && end >= sep.length) {
    const i = cpLastIndexOf(s, sep, end - sep.length);
    if (i < 0) break;
    out.push(s.slice(i + sep.length, end));
    end = i;
  }
  out.push(s.slice(0, end));
  return out.reverse();
}

const SPLIT_SIGNATURE = { names: ["sep", "maxsplit"], required: 0 };

function splitter(name: string, fromRight: boolean): Method {
  return (ctx, self, args, kwargs) => {
    // Positional arguments only (the usual call) bind without building an array.
    let sepArg: Value | undefined = args[0];
    let maxArg: Value | undefined = args[1];
    if (kwargs !== null || args.length > 2) [sepArg, maxArg] = keywords(name, SPLIT_SIGNATURE, args, kwargs);
    const sep = splitSepArg(sepArg);
    const max = maxsplitArg(maxArg);
    charge(ctx, self.length);
    const paid =
      sep === null
        ? prepayPieces(ctx, Math.min(max, self.length >> 1) + 1, (cap) => countWords(self, max, cap))
        : prepayPieces(ctx, Math.min(max, Math.floor(self.length / sep.length)) + 1, (cap) => countSplit(self, sep, max, cap));
    let parts: string[];
    if (sep === null) parts = fromRight ? rsplitSpaces(self, max) : splitSpaces(self, max);
    else parts = fromRight ? rsplitOn(self, sep, max) : splitOn(self, sep, max);
    if (!paid) ctx.budget.step(parts.length);
    ctx.budget.alloc(itemsSize(parts));
    return new PyList(parts);
  };
}

/** The length of the line break at unit `i`, or 0: \n, \r, \r\n, \v, \f, \x1c-\x1e, \x85, U+2028, U+2029. */
function lineBreakAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x0d) return s.charCodeAt(i + 1) === 0x0a ? 2 : 1;
  if (c === 0x0a || c === 0x0b || c === 0x0c || c === 0x1c || c === 0x1d || c === 0x1e || c === 0x85) return 1;
  return c === 0x2028 || c === 0x2029 ? 1 : 0;
}

/** The line breaks of lineBreakAt but "\n". */
const BREAK_BUT_NEWLINE = /[\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

const splitlines: Method = (ctx, self, args, kwargs) => {
  let keepArg: Value | undefined = args[0];
  if (kwargs !== null || args.length > 1) [keepArg] = keywords("splitlines", { names: ["keepends"], required: 0 }, args, kwargs);
  const keepends = keepArg === undefined ? false : intArg("splitlines", keepArg) !== 0;
  charge(ctx, self.length);
  const paid = prepayPieces(ctx, self.length, (cap) => countLines(self, cap));
  if (!keepends && !BREAK_BUT_NEWLINE.test(self)) {
    // Only "\n" breaks lines: V8's native split, less the empty piece after a final "\n".
    const pieces = self.split("\n");
    if (pieces[pieces.length - 1] === "") pieces.pop();
    if (!paid) ctx.budget.step(pieces.length);
    ctx.budget.alloc(itemsSize(pieces));
    return new PyList(pieces);
  }
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < self.length; ) {
    const br = lineBreakAt(self, i);
    if (br === 0) {
      i++;
      continue;
    }
    lines.push(self.slice(start, keepends ? i + br : i));
    i += br;
    start = i;
  }
  if (start < self.length) lines.push(self.slice(start));
  if (!paid) ctx.budget.step(lines.length);
  ctx.budget.alloc(itemsSize(lines));
  return new PyList(lines);
};

/** How many lines splitlines() makes of `s`, up to `cap`. */
function countLines(s: string, cap: number): number {
  let lines = 0;
  let start = 0;
  for (let i = 0; i < s.length && lines < cap; ) {
    const br = lineBreakAt(s, i);
    if (br === 0) {
      i++;
      continue;
    }
    lines++;
    i += br;
    start = i;
  }
  return start < s.length ? lines + 1 : lines;
}

function partitioner(name: string, last: boolean): Method {
  return (ctx, self, args, kwargs) => {
    positional(name, args, kwargs, 1, 1);
    const sep = subArg(args[0]);
    if (sep.length === 0) throw pyError("ValueError", "empty separator");
    charge(ctx, self.length);
    const i = last ? cpLastIndexOf(self, sep) : cpIndexOf(self, sep);
    if (i < 0) return new PyTuple(last ? ["", "", self] : [self, "", ""]);
    return new PyTuple([self.slice(0, i), sep, self.slice(i + sep.length)]);
  };
}

// ------------------------------------------------------------------ stripping and padding

/** The last characters stripped and their set: a loop strips the same ones at every call. */
let lastStripped = "";
let lastStripSet = new Set<number>();

/** The code points to strip: null means Python's whitespace. */
function stripSet(name: string, v: Value | undefined): Set<number> | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw pyError("TypeError", `${name} arg must be None or str`);
  if (v === lastStripped) return lastStripSet;
  const set = new Set<number>();
  for (const ch of v) set.add(ch.codePointAt(0)!);
  lastStripped = v;
  lastStripSet = set;
  return set;
}

function stripRange(s: string, chars: Set<number> | null, left: boolean, right: boolean): string {
  let i = 0;
  let j = s.length;
  if (chars === null) {
    if (left) while (i < j && isSpace(s.charCodeAt(i))) i++;
    if (right) while (j > i && isSpace(s.charCodeAt(j - 1))) j--;
    return s.slice(i, j);
  }
  if (left) {
    while (i < j) {
      const c = s.codePointAt(i)!;
      if (!chars.has(c)) break;
      i += c > 0xffff ? 2 : 1;
    }
  }
  if (right) {
    while (j > i) {
      const ch = charBefore(s, j);
      if (!chars.has(ch.codePointAt(0)!)) break;
      j -= ch.length;
    }
  }
  return s.slice(i, j);
}

function stripper(name: string, left: boolean, right: boolean): Method {
  return (ctx, self, args, kwargs) => {
    positional(name, args, kwargs, 0, 1);
    const chars = stripSet(name, args[0]);
    charge(ctx, self.length);
    return stripRange(self, chars, left, right);
  };
}

function padder(name: string, align: "left" | "right" | "center"): Method {
  return (ctx, self, args, kwargs) => {
    positional(name, args, kwargs, 1, 2);
    const width = intArg(name, args[0]!);
    const fill = fillArg(args[1]);
    const length = cpLength(self);
    if (width <= length) return self;
    const margin = width - length;
    checkUnits(ctx, self.length + margin * fill.length);
    charge(ctx, self.length + margin * fill.length);
    // CPython's split of an odd margin: the extra fill goes left when the width is odd.
    const left = align === "left" ? 0 : align === "right" ? margin : Math.floor(margin / 2) + (margin & width & 1);
    return fill.repeat(left) + self + fill.repeat(margin - left);
  };
}

const zfill: Method = (ctx, self, args, kwargs) => {
  positional("zfill", args, kwargs, 1, 1);
  const width = intArg("zfill", args[0]!);
  const length = cpLength(self);
  if (width <= length) return self;
  checkUnits(ctx, self.length + width - length);
  charge(ctx, self.length + width - length);
  const zeros = "0".repeat(width - length);
  const sign = self[0];
  return sign === "+" || sign === "-" ? sign + zeros + self.slice(1) : zeros + self;
};

const expandtabs: Method = (ctx, self, args, kwargs) => {
  const [sizeArg] = keywords("expandtabs", { names: ["tabsize"], required: 0 }, args, kwargs);
  const tabsize = sizeArg === undefined ? 8 : intArg("expandtabs", sizeArg);
  charge(ctx, self.length);
  // Two passes: measure, refuse if too large, then build.
  const expand = (emit: ((text: string) => void) | null): number => {
    let units = 0;
    let column = 0;
    let done = 0;
    for (let i = 0; i < self.length; i++) {
      const c = self.charCodeAt(i);
      if (c === 0x09) {
        const spaces = tabsize > 0 ? tabsize - (column % tabsize) : 0;
        if (emit) emit(self.slice(done, i) + " ".repeat(spaces));
        done = i + 1;
        column += spaces;
        units += spaces;
        continue;
      }
      units++;
      if (c === 0x0a || c === 0x0d) column = 0;
      // The second half of a surrogate pair is not a column of its own.
      else if (isBoundary(self, i)) column++;
    }
    if (emit) emit(self.slice(done));
    return units;
  };
  if (!self.includes("\t")) return self;
  const total = expand(null);
  checkUnits(ctx, total);
  charge(ctx, total);
  const parts: string[] = [];
  expand((text) => parts.push(text));
  return parts.join("");
};

// ------------------------------------------------------------------ building

const join: Method = (ctx, self, args, kwargs) => {
  positional("join", args, kwargs, 1, 1);
  const iterable = args[0]!;
  // As CPython, the items are all taken first, then joined: a generator's may have to wait.
  if (lazy(iterable)) return waitable(after(collectItems(iterable, ctx.budget, ctx), (items: Value[]) => joinItems(ctx, self, items)));
  let items: readonly Value[];
  try {
    if (iterable instanceof PyList || iterable instanceof PyTuple) {
      // What toList charges, without its copy: join only reads the items.
      ctx.budget.step(iterable.items.length);
      items = iterable.items;
    } else {
      items = ctx.toList(iterable);
    }
  } catch (e) {
    // CPython: "can only join an iterable" when the argument cannot be iterated at all.
    if (e instanceof PyException && e.type === EXC.TypeError && /object is not iterable$/.test(String(e.args[0]))) throw pyError("TypeError", "can only join an iterable");
    throw e;
  }
  return joinItems(ctx, self, items);
};

/** `sep.join(items)`, the items taken. */
function joinItems(ctx: NativeContext, sep: string, items: readonly Value[]): string {
  let units = sep.length * Math.max(items.length - 1, 0);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (typeof item !== "string") {
      throw pyError("TypeError", `sequence item ${i}: expected str instance, ${typeName(item)} found`);
    }
    units += item.length;
  }
  checkUnits(ctx, units);
  charge(ctx, units);
  return joinStrings(items as string[], sep);
}

/** Items this many or fewer are joined in one call of Array.prototype.join. */
const JOIN_AT_ONCE = 16384;
const JOIN_CHUNK = 4096;

/** items.join(sep), faster at both ends of the range of lengths. */
function joinStrings(items: readonly string[], sep: string): string {
  // Array.prototype.join costs some 50 ns to start; two strings and the separator concatenate
  // in a fifth of that, and one string is the result.
  if (items.length === 2) return items[0]! + sep + items[1]!;
  if (items.length < 2) return items.length === 0 ? "" : items[0]!;
  if (items.length <= JOIN_AT_ONCE) return items.join(sep);
  // Past ~16k items (a 128 KiB array of pointers) V8's join costs about twice as much per item;
  // joining chunks of a few thousand first avoids that, for one more copy of the text.
  const chunks: string[] = [];
  for (let i = 0; i < items.length; i += JOIN_CHUNK) chunks.push(items.slice(i, i + JOIN_CHUNK).join(sep));
  return chunks.join(sep);
}

const replace: Method = (ctx, self, args, kwargs) => {
  positional("replace", args, kwargs, 2, 3);
  const old = strParam("replace", args[0], 1);
  const replacement = strParam("replace", args[1], 2);
  const countArg = args[2] === undefined ? -1 : intArg("replace", args[2]);
  const max = countArg < 0 ? Infinity : countArg;
  charge(ctx, self.length);
  if (max === 0) return self;
  if (old.length === 0) {
    // An empty pattern matches before every code point and at the end: n matches are the
    // replacement before each of the first n code points (and after the last, if n reaches it).
    const length = cpLength(self);
    const n = Math.min(max, length + 1);
    ctx.budget.step(n);
    checkUnits(ctx, self.length + n * replacement.length);
    charge(ctx, self.length + n * replacement.length);
    const chars = cpChars(self);
    if (n > length) return length === 0 ? replacement : replacement + chars.join(replacement) + replacement;
    return replacement + chars.slice(0, n).join(replacement) + self.slice(toUnitOffset(self, n));
  }
  const first = cpIndexOf(self, old);
  if (first < 0) return self;
  // countMatches from the first match on, which is found once; a step per match, the count
  // stopping where the steps left run out.
  const n = 1 + countMatches(self, old, Math.min(max, stepsLeft(ctx) + 1) - 1, first + old.length);
  ctx.budget.step(n);
  const units = self.length + n * (replacement.length - old.length);
  checkUnits(ctx, units);
  charge(ctx, units);
  if (n === 1) return self.slice(0, first) + replacement + self.slice(first + old.length);
  if (n > 16 && max === Infinity) return cpSplitAll(self, old).join(replacement);
  // The n matches, concatenated as they are found: for a few, cheaper than split and join, which
  // cost more to start than the whole replacement (~100 against ~165 ns for four in a short text).
  let out = "";
  let done = 0;
  for (let i = first, k = 0; k < n; i = cpIndexOf(self, old, done), k++) {
    out += self.slice(done, i) + replacement;
    done = i + old.length;
  }
  return out + self.slice(done);
};

/** The replacement for one code point from a translate() table: a string, "" to delete, or undefined to keep it. */
function translation(table: Value, c: number): string | undefined {
  let v: Value | undefined;
  if (table instanceof PyDict) v = table.get(c);
  else if (table instanceof PyList || table instanceof PyTuple) v = c < table.items.length ? table.items[c] : undefined;
  else throw pyError("TypeError", `'${typeName(table)}' object is not subscriptable`);
  if (v === undefined || typeof v === "string") return v;
  if (v === null) return "";
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") {
    const n = Number(v);
    if (n < 0 || n > 0x10ffff) throw pyError("ValueError", "character mapping must be in range(0x110000)");
    return String.fromCodePoint(n);
  }
  throw pyError("TypeError", "character mapping must return integer, None or str");
}

const translate: Method = (ctx, self, args, kwargs) => {
  positional("translate", args, kwargs, 1, 1);
  const table = args[0]!;
  charge(ctx, self.length);
  const cache = new Map<number, string | undefined>();
  const parts: string[] = [];
  let units = 0;
  let done = 0;
  for (let i = 0; i < self.length; ) {
    const c = self.codePointAt(i)!;
    const width = c > 0xffff ? 2 : 1;
    let mapped = cache.get(c);
    if (mapped === undefined && !cache.has(c)) {
      mapped = translation(table, c);
      cache.set(c, mapped);
    }
    if (mapped !== undefined) {
      parts.push(self.slice(done, i), mapped);
      units += i - done + mapped.length;
      done = i + width;
      if (mapped.length > width) {
        checkUnits(ctx, units + self.length - done);
        charge(ctx, mapped.length);
      }
    }
    i += width;
  }
  if (done === 0) return self;
  parts.push(self.slice(done));
  return parts.join("");
};

/** str.maketrans(x[, y[, z]]): a translate() table. */
export const maketrans: NativeFn = (ctx, args, kwargs) => {
  if (kwargs && kwargs.size > 0) throw pyError("TypeError", "str.maketrans() takes no keyword arguments");
  if (args.length < 1) throw pyError("TypeError", "maketrans expected at least 1 argument, got 0");
  if (args.length > 3) throw pyError("TypeError", `maketrans expected at most 3 arguments, got ${args.length}`);
  const [x, y, z] = args;
  const table = new PyDict();
  if (args.length === 1) {
    if (!(x instanceof PyDict)) throw pyError("TypeError", "if you give only one argument to maketrans it must be a dict");
    ctx.budget.step(1 + x.size);
    for (const [key, value] of x.entries()) {
      if (typeof key === "string") {
        if (cpLength(key) !== 1) throw pyError("ValueError", "string keys in translate table must be of length 1");
        table.set(key.codePointAt(0)!, value);
      } else if (typeof key === "number" || typeof key === "bigint" || typeof key === "boolean") {
        table.set(key, value);
      } else {
        throw pyError("TypeError", "keys in translate table must be strings or integers");
      }
    }
    return table;
  }
  if (typeof x !== "string") throw pyError("TypeError", "first maketrans argument must be a string if there is a second argument");
  const to = strParam("maketrans", y, 2);
  const from = cpChars(x);
  const into = cpChars(to);
  if (from.length !== into.length) throw pyError("ValueError", "the first two maketrans arguments must have equal length");
  const deleted = z === undefined ? [] : cpChars(strParam("maketrans", z, 3));
  ctx.budget.step(1 + from.length + deleted.length);
  for (let i = 0; i < from.length; i++) table.set(from[i]!.codePointAt(0)!, into[i]!.codePointAt(0)!);
  for (const ch of deleted) table.set(ch.codePointAt(0)!, null);
  return table;
};

// ------------------------------------------------------------------ encoding

type Codec = "utf-8" | "ascii" | "latin-1";

const CODECS = new Map<string, Codec>([
  ...["utf_8", "utf8", "u8", "utf", "cp65001", "utf8_ucs2", "utf8_ucs4"].map((n) => [n, "utf-8"] as const),
  ...["ascii", "us_ascii", "646", "us", "cp367", "csascii", "ibm367", "iso646_us", "iso_ir_6", "ansi_x3.4_1968"].map(
    (n) => [n, "ascii"] as const,
  ),
  ...["latin_1", "latin1", "latin", "l1", "iso8859_1", "iso_8859_1", "8859", "cp819", "ibm819", "iso_ir_100", "csisolatin1"].map(
    (n) => [n, "latin-1"] as const,
  ),
]);

function codecOf(name: string): Codec {
  const codec = CODECS.get(name.toLowerCase().replace(/[-\s]/g, "_"));
  if (codec === undefined) throw pyError("LookupError", `unknown encoding: ${name}`);
  return codec;
}

const ERROR_HANDLERS = new Set(["strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace", "surrogateescape", "surrogatepass"]);

/** A growing byte buffer that asks the budget before it grows. */
class ByteWriter {
  bytes = new Uint8Array(64);
  length = 0;

  constructor(private readonly ctx: NativeContext) {}

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    this.ctx.budget.checkSize(this.length + n);
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  byte(b: number): void {
    this.room(1);
    this.bytes[this.length++] = b;
  }

  ascii(text: string): void {
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
  }

  /** The UTF-8 form of code point `c` (surrogates included, as surrogatepass writes them). */
  utf8(c: number): void {
    if (c < 0x80) return this.byte(c);
    this.room(4);
    if (c < 0x800) {
      this.bytes[this.length++] = 0xc0 | (c >> 6);
    } else if (c < 0x10000) {
      this.bytes[this.length++] = 0xe0 | (c >> 12);
      this.bytes[this.length++] = 0x80 | ((c >> 6) & 0x3f);
    } else {
      this.bytes[this.length++] = 0xf0 | (c >> 18);
      this.bytes[this.length++] = 0x80 | ((c >> 12) & 0x3f);
      this.bytes[this.length++] = 0x80 | ((c >> 6) & 0x3f);
    }
    this.bytes[this.length++] = 0x80 | (c & 0x3f);
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

function escapedChar(c: number): string {
  if (c < 0x100) return "\\x" + c.toString(16).padStart(2, "0");
  if (c < 0x10000) return "\\u" + c.toString(16).padStart(4, "0");
  return "\\U" + c.toString(16).padStart(8, "0");
}

// A UnicodeEncodeError in CPython; the interpreter's exception table has no such class yet.
function encodeError(codec: Codec, chars: number[], start: number, end: number): never {
  const reason = codec === "utf-8" ? "surrogates not allowed" : `ordinal not in range(${codec === "ascii" ? 128 : 256})`;
  const where =
    end - start === 1 ? `character '${escapedChar(chars[start]!)}' in position ${start}` : `characters in position ${start}-${end - 1}`;
  throw pyError("UnicodeEncodeError", `'${codec}' codec can't encode ${where}: ${reason}`);
}

const UTF8 = new TextEncoder();
const NOT_LATIN1 = /[^\0-\xff]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function encode(ctx: NativeContext, s: string, codec: Codec, errors: string): Uint8Array {
  if (codec === "utf-8") {
    ctx.budget.checkSize(s.length * 3);
    if (!LONE_SURROGATE.test(s)) return UTF8.encode(s);
  } else {
    ctx.budget.checkSize(s.length);
    if (!(codec === "ascii" ? NOT_ASCII : NOT_LATIN1).test(s)) {
      const out = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
      return out;
    }
  }
  const limit = codec === "ascii" ? 0x80 : 0x100;
  const encodable = (c: number) => (codec === "utf-8" ? c < 0xd800 || c > 0xdfff : c < limit);
  // The general path goes code point by code point through an array of them: a step per unit
  // (what that costs, ~15 times the fast path's), and the array checked against the memory budget.
  ctx.budget.checkSize(8 * s.length);
  ctx.budget.step(s.length);
  const chars = Array.from(s, (ch) => ch.codePointAt(0)!);
  const out = new ByteWriter(ctx);
  for (let k = 0; k < chars.length; ) {
    const c = chars[k]!;
    if (encodable(c)) {
      if (codec === "utf-8") out.utf8(c);
      else out.byte(c);
      k++;
      continue;
    }
    let end = k + 1;
    while (end < chars.length && !encodable(chars[end]!)) end++;
    if (!ERROR_HANDLERS.has(errors)) throw pyError("LookupError", `unknown error handler name '${errors}'`);
    for (let j = k; j < end; j++) {
      const bad = chars[j]!;
      switch (errors) {
        case "ignore":
          break;
        case "replace":
          out.byte(0x3f);
          break;
        case "backslashreplace":
          out.ascii(escapedChar(bad));
          break;
        case "xmlcharrefreplace":
          out.ascii(`&#${bad};`);
          break;
        case "surrogateescape":
          if (bad < 0xdc80 || bad > 0xdcff) encodeError(codec, chars, j, j + 1);
          out.byte(bad - 0xdc00);
          break;
        case "surrogatepass":
          if (codec !== "utf-8") encodeError(codec, chars, k, end);
          out.utf8(bad);
          break;
        default:
          encodeError(codec, chars, k, end);
      }
    }
    k = end;
  }
  return out.result();
}

const encodeMethod: Method = (ctx, self, args, kwargs) => {
  const [encodingArg, errorsArg] = keywords("encode", { names: ["encoding", "errors"], required: 0 }, args, kwargs);
  if (encodingArg !== undefined && typeof encodingArg !== "string") {
    throw pyError("TypeError", `encode() argument 'encoding' must be str, not ${typeName(encodingArg)}`);
  }
  if (errorsArg !== undefined && typeof errorsArg !== "string") {
    throw pyError("TypeError", `encode() argument 'errors' must be str, not ${typeName(errorsArg)}`);
  }
  const codec = codecOf(encodingArg ?? "utf-8");
  charge(ctx, self.length);
  return new PyBytes(encode(ctx, self, codec, errorsArg ?? "strict"));
};

// ------------------------------------------------------------------ the table

function affixRemover(name: string, suffix: boolean): Method {
  return (ctx, self, args, kwargs) => {
    positional(name, args, kwargs, 1, 1);
    const affix = args[0]!;
    if (typeof affix !== "string") throw pyError("TypeError", `${name}() argument must be str, not ${typeName(affix)}`);
    charge(ctx, affix.length);
    if (affix.length === 0) return self;
    if (suffix) {
      const at = self.length - affix.length;
      return self.endsWith(affix) && isBoundary(self, at) ? self.slice(0, at) : self;
    }
    return self.startsWith(affix) && isBoundary(self, affix.length) ? self.slice(affix.length) : self;
  };
}

export const STR_METHODS: Record<string, Method> = {
  capitalize: caseMethod("capitalize", toCapitalized),
  casefold: caseMethod("casefold", toCasefolded),
  center: padder("center", "center"),
  count,
  encode: encodeMethod,
  endswith: affixTest("endswith", true),
  expandtabs,
  find: finder("find", false, false),
  index: finder("index", false, true),
  isalnum: predicate("isalnum", (s) => WHOLE_STRING.alnum.test(s)),
  isalpha: predicate("isalpha", (s) => WHOLE_STRING.alpha.test(s)),
  isascii: predicate("isascii", (s) => !NOT_ASCII.test(s)),
  isdecimal: predicate("isdecimal", (s) => WHOLE_STRING.decimal.test(s)),
  isdigit: predicate("isdigit", (s) => WHOLE_STRING.digit.test(s)),
  isidentifier: predicate("isidentifier", (s) => WHOLE_STRING.identifier.test(s)),
  islower: predicate("islower", (s) => HAS_LOWER.test(s) && !HAS_UPPER_OR_TITLE.test(s)),
  isnumeric: predicate("isnumeric", (s) => WHOLE_STRING.numeric.test(s)),
  isprintable: predicate("isprintable", (s) => !NOT_PRINTABLE.test(s)),
  isspace: predicate("isspace", (s) => WHOLE_STRING.space.test(s)),
  istitle: predicate("istitle", (s) => WHOLE_STRING.title.test(s)),
  isupper: predicate("isupper", (s) => HAS_UPPER.test(s) && !HAS_LOWER_OR_TITLE.test(s)),
  join,
  ljust: padder("ljust", "left"),
  lower: caseMethod("lower", (s) => s.toLowerCase()),
  lstrip: stripper("lstrip", true, false),
  maketrans: (ctx, _self, args, kwargs) => maketrans(ctx, args, kwargs),
  partition: partitioner("partition", false),
  removeprefix: affixRemover("removeprefix", false),
  removesuffix: affixRemover("removesuffix", true),
  replace,
  rfind: finder("rfind", true, false),
  rindex: finder("rindex", true, true),
  rjust: padder("rjust", "right"),
  rpartition: partitioner("rpartition", true),
  rsplit: splitter("rsplit", true),
  rstrip: stripper("rstrip", false, true),
  split: splitter("split", false),
  splitlines,
  startswith: affixTest("startswith", false),
  strip: stripper("strip", true, true),
  swapcase: caseMethod("swapcase", toSwapped),
  title: caseMethod("title", toTitle),
  translate,
  upper: caseMethod("upper", (s) => s.toUpperCase()),
  zfill,
};
