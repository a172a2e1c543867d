// Python's str is a sequence of code points; a JS string is a sequence of UTF-16 units. These
// helpers give len(), indexing, slicing, iteration and `in` their Python meaning.
//
// A surrogate pair is one code point and a lone surrogate is one code point, as in Python. (JS
// cannot tell the two-code-point Python string '\ud83d\ude00' from '😀', so that string does not
// exist here: it is '😀'.)
//
// Most strings hold no surrogate at all; then a unit index is a code-point index and every helper
// takes a fast path. Telling costs a scan, which V8 skips for one-byte strings (they cannot hold a
// surrogate) but not for two-byte ones, so long strings remember what their scan found, and where
// their code points start: a loop that indexes a long string does not rescan it at every step.
import { pyError } from "./errors.js";
import type { Value } from "./values.js";

const SURROGATE = /[\uD800-\uDFFF]/;

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Whether a surrogate pair starts at unit `u` of `s`. */
function pairAt(s: string, u: number): boolean {
  return isHigh(s.charCodeAt(u)) && isLow(s.charCodeAt(u + 1));
}

// ------------------------------------------------------------------ profiles of long strings

/** Strings at least this long are profiled once and cached; shorter ones are scanned each time. */
const LONG = 1024;
const CACHE_SIZE = 4;
/** A long string with surrogates records where every BLOCK-th code point starts (4 bytes per 64). */
const BLOCK = 64;

/**
 * Where the code points of a long string with surrogates start, sparsely: finding one means a jump
 * to its block and a scan of fewer than BLOCK code points.
 */
class CodePointIndex {
  /** Unit offset of code point k * BLOCK, for each k. */
  private readonly blocks: Uint32Array;
  readonly length: number;

  constructor(private readonly s: string) {
    this.length = countCodePoints(s);
    this.blocks = new Uint32Array(Math.floor(this.length / BLOCK) + 1);
    for (let u = 0, k = 0; k <= this.length; k++) {
      if (k % BLOCK === 0) this.blocks[k / BLOCK] = u;
      u += pairAt(s, u) ? 2 : 1;
    }
  }

  /** The unit offset of code point `cp`, for 0 <= cp <= length. */
  unitOffset(cp: number): number {
    if (cp >= this.length) return this.s.length;
    let u = this.blocks[Math.floor(cp / BLOCK)]!;
    for (let k = cp % BLOCK; k > 0; k--) u += pairAt(this.s, u) ? 2 : 1;
    return u;
  }

  /** The code-point index at unit offset `unit` (a code-point boundary). */
  cpIndex(unit: number): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.blocks[mid]! <= unit) lo = mid;
      else hi = mid - 1;
    }
    let k = lo * BLOCK;
    for (let u = this.blocks[lo]!; u < unit; u += pairAt(this.s, u) ? 2 : 1) k++;
    return k;
  }
}

class Profile {
  private index: CodePointIndex | null = null;

  constructor(
    readonly s: string,
    readonly simple: boolean,
  ) {}

  codePoints(): CodePointIndex {
    return (this.index ??= new CodePointIndex(this.s));
  }
}

/** The most recently profiled long strings, newest first. */
const profiles: Profile[] = [];

function profile(s: string): Profile {
  // V8 keeps a string built by concatenation as a tree of its parts until something reads its
  // units; === against an equal cached string then walks the tree, which costs more than the
  // flattening that the scan below, or any slice, does anyway. Reading its first unit flattens it
  // first. (The unit is compared, not just read: an unused read is optimized away.)
  for (const p of profiles) if (p.s.length === s.length && p.s.charCodeAt(0) === s.charCodeAt(0) && p.s === s) return p;
  const p = new Profile(s, !SURROGATE.test(s));
  if (profiles.length >= CACHE_SIZE) profiles.pop();
  profiles.unshift(p);
  return p;
}

/** The code-point index of a long string that holds surrogates; null for others. */
function longIndex(s: string): CodePointIndex | null {
  if (s.length < LONG) return null;
  const p = profile(s);
  return p.simple ? null : p.codePoints();
}

function countCodePoints(s: string): number {
  let n = s.length;
  let previousHigh = false;
  for (let u = 0; u < s.length; u++) {
    const c = s.charCodeAt(u);
    if (previousHigh && isLow(c)) {
      n--;
      previousHigh = false;
    } else {
      previousHigh = isHigh(c);
    }
  }
  return n;
}

// ------------------------------------------------------------------ length, indexing, iteration

/** Whether unit indices of `s` are code-point indices (no surrogate pair in it). */
export function isSimple(s: string): boolean {
  if (s.length < 2) return true;
  if (s.length < LONG) return !SURROGATE.test(s);
  return profile(s).simple;
}

/** len(s). */
export function cpLength(s: string): number {
  if (isSimple(s)) return s.length;
  return longIndex(s)?.length ?? countCodePoints(s);
}

/**
 * s[i]: the code point at index `i`, where a negative `i` counts from the end as in Python, or
 * undefined when `i` is out of range (the caller raises IndexError "string index out of range").
 * `i` must be an integer.
 */
export function cpAt(s: string, i: number): string | undefined {
  if (isSimple(s)) {
    if (i < 0) i += s.length;
    return i >= 0 && i < s.length ? s[i] : undefined;
  }
  const index = longIndex(s);
  if (i < 0) i += index ? index.length : countCodePoints(s);
  if (i < 0) return undefined;
  let u: number;
  if (index) {
    if (i >= index.length) return undefined;
    u = index.unitOffset(i);
  } else {
    u = 0;
    for (let k = 0; k < i && u < s.length; k++) u += pairAt(s, u) ? 2 : 1;
    if (u >= s.length) return undefined;
  }
  return s.slice(u, pairAt(s, u) ? u + 2 : u + 1);
}

/** Iterates the code points of `s` (a JS string iterator already goes by code point). */
export function cpIterate(s: string): IterableIterator<string> {
  return s[Symbol.iterator]();
}

/** The code points of `s` as an array: list(s). */
export function cpChars(s: string): string[] {
  return isSimple(s) ? s.split("") : Array.from(s);
}

/** The UTF-16 offset of code point `cp` of `s`, for 0 <= cp <= len(s). */
export function toUnitOffset(s: string, cp: number): number {
  if (isSimple(s)) return cp;
  const index = longIndex(s);
  if (index) return index.unitOffset(cp);
  let u = 0;
  for (let k = 0; k < cp; k++) u += pairAt(s, u) ? 2 : 1;
  return u;
}

/** The code-point index of UTF-16 offset `unit` of `s` (a code-point boundary). */
export function toCpIndex(s: string, unit: number): number {
  if (isSimple(s)) return unit;
  const index = longIndex(s);
  if (index) return index.cpIndex(unit);
  let k = 0;
  for (let u = 0; u < unit; u += pairAt(s, u) ? 2 : 1) k++;
  return k;
}

/** Whether UTF-16 offset `unit` falls between code points of `s` (not inside a surrogate pair). */
export function isBoundary(s: string, unit: number): boolean {
  return unit <= 0 || unit >= s.length || !(isLow(s.charCodeAt(unit)) && isHigh(s.charCodeAt(unit - 1)));
}

// ------------------------------------------------------------------ slicing

/** A slice resolved against a length, as `slice.indices()` gives it, plus how many items it takes. */
export interface SliceRange {
  start: number;
  stop: number;
  step: number;
  count: number;
}

/**
 * A slice bound or step as Python reads it: None (or absent) gives the default; ints and bools are
 * taken; ints beyond the safe range are clamped, which changes no result; anything else is a
 * TypeError.
 */
export function sliceIndex(v: Value | undefined): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return v > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
  throw pyError("TypeError", "slice indices must be integers or None or have an __index__ method");
}

function clampBound(i: number, length: number, step: number): number {
  if (i < 0) {
    i += length;
    return i < 0 ? (step < 0 ? -1 : 0) : i;
  }
  return i >= length ? (step < 0 ? length - 1 : length) : i;
}

/** slice(start, stop, step).indices(length), for any sequence. */
export function sliceIndices(length: number, start?: Value, stop?: Value, step?: Value): SliceRange {
  const st = sliceIndex(step) ?? 1;
  if (st === 0) throw pyError("ValueError", "slice step cannot be zero");
  const a = sliceIndex(start);
  const b = sliceIndex(stop);
  const from = a === null ? (st < 0 ? length - 1 : 0) : clampBound(a, length, st);
  const to = b === null ? (st < 0 ? -1 : length) : clampBound(b, length, st);
  let count = 0;
  if (st < 0) {
    if (to < from) count = Math.floor((from - to - 1) / -st) + 1;
  } else if (from < to) {
    count = Math.floor((to - from - 1) / st) + 1;
  }
  return { start: from, stop: to, step: st, count };
}

// UTF-16 code units as text. Made on first use: a TextDecoder made at import cannot be kept in
// code-mode-exec's start-up snapshot (src/cli/exec-snapshot.ts).
let utf16: InstanceType<typeof TextDecoder> | undefined;

/** Picks every step-th unit of a string without surrogates, `count` of them from unit `start`. */
function pickUnits(s: string, start: number, step: number, count: number): string {
  if (count <= 1024) {
    const codes: number[] = new Array(count);
    for (let k = 0, u = start; k < count; k++, u += step) codes[k] = s.charCodeAt(u);
    return String.fromCharCode.apply(null, codes);
  }
  const codes = new Uint16Array(count);
  for (let k = 0, u = start; k < count; k++, u += step) codes[k] = s.charCodeAt(u);
  // Lossless: there is no surrogate to mangle.
  return (utf16 ??= new TextDecoder("utf-16le")).decode(codes);
}

/** s[start:stop:step] with Python's semantics (None bounds, negative step, clamping). */
export function cpSlice(s: string, start?: Value, stop?: Value, step?: Value): string {
  if (isSimple(s)) {
    const r = sliceIndices(s.length, start, stop, step);
    if (r.count <= 0) return "";
    return r.step === 1 ? s.slice(r.start, r.stop) : pickUnits(s, r.start, r.step, r.count);
  }
  const r = sliceIndices(cpLength(s), start, stop, step);
  if (r.count <= 0) return "";
  if (r.step === 1) return s.slice(toUnitOffset(s, r.start), toUnitOffset(s, r.stop));
  const chars = Array.from(s);
  const out: string[] = new Array(r.count);
  for (let k = 0, i = r.start; k < r.count; k++, i += r.step) out[k] = chars[i]!;
  return out.join("");
}

// ------------------------------------------------------------------ searching

/**
 * Whether a match of `needle` could split a surrogate pair of the haystack: only when it starts
 * with a lone low surrogate or ends with a lone high one. Other needles match where indexOf says.
 */
function mayMisalign(needle: string): boolean {
  return needle.length > 0 && (isLow(needle.charCodeAt(0)) || isHigh(needle.charCodeAt(needle.length - 1)));
}

function alignedAt(hay: string, i: number, needleLength: number): boolean {
  return isBoundary(hay, i) && isBoundary(hay, i + needleLength);
}

/** The UTF-16 offset of the first match of `needle` at or after unit `from` that is a whole run of code points, or -1. */
export function cpIndexOf(hay: string, needle: string, from = 0): number {
  let i = hay.indexOf(needle, from);
  if (!mayMisalign(needle)) return i;
  while (i >= 0 && !alignedAt(hay, i, needle.length)) i = hay.indexOf(needle, i + 1);
  return i;
}

/** The UTF-16 offset of the last such match starting at or before unit `from`, or -1. */
export function cpLastIndexOf(hay: string, needle: string, from = Infinity): number {
  let i = hay.lastIndexOf(needle, from);
  if (!mayMisalign(needle)) return i;
  while (i >= 0 && !alignedAt(hay, i, needle.length)) i = i === 0 ? -1 : hay.lastIndexOf(needle, i - 1);
  return i;
}

/** hay.split(sep) at aligned matches only: str.split(sep) without maxsplit. `sep` is not empty. */
export function cpSplitAll(hay: string, sep: string): string[] {
  // V8's split calls into its runtime, which a short string does not repay: there a loop of
  // indexOf is about twice as fast.
  if (hay.length >= 1024 && !mayMisalign(sep)) return hay.split(sep);
  const out: string[] = [];
  let done = 0;
  for (let i = cpIndexOf(hay, sep); i >= 0; i = cpIndexOf(hay, sep, done)) {
    out.push(hay.slice(done, i));
    done = i + sep.length;
  }
  out.push(hay.slice(done));
  return out;
}

/** `needle in hay`. */
export function cpContains(hay: string, needle: string): boolean {
  return cpIndexOf(hay, needle) >= 0;
}

/** Python's whitespace (str.isspace, str.split, re's \s): White_Space as CPython defines it, not JS's \s. */
export function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c >= 0x1c;
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}
