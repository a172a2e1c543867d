// What one character position of a pattern accepts: a literal under IGNORECASE, a set [...], a
// class \d \w \s, as CPython's compiler builds them (re._compiler._optimize_charset) and its engine
// tests them. Under IGNORECASE a set is made of the lowercase forms of its members (and of the
// other lowercase characters with the same uppercase), and the engine tests the lowercase form of
// the text's character; a set without cased members is tested as it is.
//
// Every test answers the first 256 code points from a table made when the pattern compiles, so
// that text in Latin-1 never reaches the slower path.
import type { Budget } from "../../budget.js";
import {
  asciiLower,
  caseFixes,
  casedBmp,
  isAsciiCased,
  isAsciiDigit,
  isAsciiSpace,
  isAsciiWord,
  isCased,
  isDigit,
  isSpace,
  isWord,
  lower,
  upper,
} from "./chars.js";
import { FLAG, type Category, type SetItem } from "./parse.js";

export class CharTest {
  /** The answer for each code point below 256. */
  readonly latin = new Uint8Array(256);

  constructor(readonly slow: (c: number) => boolean) {
    for (let c = 0; c < 256; c++) this.latin[c] = slow(c) ? 1 : 0;
  }

  test(c: number): boolean {
    return c < 256 ? this.latin[c] === 1 : this.slow(c);
  }
}

/** How the categories \d \s \w classify: Unicode for str patterns, ASCII for re.ASCII and bytes. */
export function categoryTest(cat: Category, unicode: boolean): (c: number) => boolean {
  switch (cat) {
    case "digit":
      return unicode ? isDigit : isAsciiDigit;
    case "not_digit":
      return unicode ? (c) => !isDigit(c) : (c) => !isAsciiDigit(c);
    case "space":
      return unicode ? isSpace : isAsciiSpace;
    case "not_space":
      return unicode ? (c) => !isSpace(c) : (c) => !isAsciiSpace(c);
    case "word":
      return unicode ? isWord : isAsciiWord;
    case "not_word":
      return unicode ? (c) => !isWord(c) : (c) => !isAsciiWord(c);
  }
}

/** How a pattern's flags make it compare characters. */
interface CaseRules {
  /** The case folding applied to the text's character (null: none). */
  fold: ((c: number) => number) | null;
  isCased: (c: number) => boolean;
  /** The cased characters of the BMP, sorted: the only ones folding can change. */
  cased: Int32Array;
  fixes: Map<number, readonly number[]> | null;
  unicode: boolean;
}

/** What folding one cased character of a range costs, in steps. */
const CASED_STEPS = 4;

const ASCII_CASED = Int32Array.from({ length: 52 }, (_, i) => (i < 26 ? 0x41 + i : 0x61 + i - 26));

export function caseRules(flags: number): CaseRules {
  const unicode = (flags & FLAG.UNICODE) !== 0;
  if (!(flags & FLAG.IGNORECASE)) return { fold: null, isCased: () => false, cased: new Int32Array(0), fixes: null, unicode };
  // LOCALE (bytes only) folds as the C locale does: ASCII letters.
  if (unicode) return { fold: lower, isCased, cased: casedBmp(), fixes: caseFixes(), unicode };
  return { fold: asciiLower, isCased: isAsciiCased, cased: ASCII_CASED, fixes: null, unicode };
}

/** A literal (or, negated, any other character) as CPython compiles it under `flags`. */
export function literalTest(c: number, negate: boolean, flags: number): CharTest | null {
  const rules = caseRules(flags);
  if (rules.fold === null || !rules.isCased(c)) return null;
  const fold = rules.fold;
  const lo = fold(c);
  const also = rules.fixes?.get(lo);
  if (also === undefined) return new CharTest(negate ? (x) => fold(x) !== lo : (x) => fold(x) === lo);
  const members = new Set([lo, ...also]);
  return new CharTest(negate ? (x) => !members.has(fold(x)) : (x) => members.has(fold(x)));
}

/**
 * A set [...] (negated or not) under `flags`, as CPython's _optimize_charset builds it: under
 * IGNORECASE the members are the lowercase forms of what is written (and their case fixes), and
 * the engine tests the lowercase form of the text's character. A range keeps its own members too
 * (the lowercase form of a character is never an uppercase one, so the uppercase members it
 * keeps are never tested true), so only its cased characters need folding: building a set costs
 * a step, and a few per cased character of its ranges (charged to `budget`). Members outside
 * the BMP are kept as they are written, as CPython keeps them (a range there also tested against
 * the uppercase of the character, under IGNORECASE).
 */
export function setTest(items: readonly SetItem[], negate: boolean, flags: number, budget: Budget): CharTest {
  const rules = caseRules(flags);
  const fold = rules.fold;
  const latin = new Uint8Array(256);
  /** Members of the BMP from 256 on: ranges as pairs [lo, hi...], and single ones. */
  const wide: number[] = [];
  const points: number[] = [];
  const outside: number[] = [];
  const outsideUpper: number[] = [];
  const categories = new Map<string, (c: number) => boolean>();
  let hasCased = false;
  const add = (lo: number, hi: number) => {
    for (let c = lo; c <= hi && c < 256; c++) latin[c] = 1;
    if (hi >= 256) wide.push(Math.max(lo, 256), hi);
  };
  const addOne = (c: number) => {
    if (c < 256) latin[c] = 1;
    else points.push(c);
  };
  const addFolded = (l: number) => {
    addOne(l);
    const also = rules.fixes?.get(l);
    if (also !== undefined) for (const k of also) addOne(k);
  };
  budget.step(1);
  for (const item of items) {
    if (item.kind === "cat") {
      categories.set(item.cat, categoryTest(item.cat, rules.unicode));
    } else if (item.kind === "lit") {
      if (fold === null) {
        if (item.c < 0x10000) add(item.c, item.c);
        else outside.push(item.c, item.c);
        continue;
      }
      const l = fold(item.c);
      if (l < 0x10000) {
        addFolded(l);
        if (rules.isCased(item.c)) hasCased = true;
      } else {
        outside.push(item.c, item.c);
        hasCased = true;
      }
    } else {
      const bmpHi = Math.min(item.hi, 0xffff);
      if (item.lo <= bmpHi) {
        add(item.lo, bmpHi);
        if (fold !== null) {
          const cased = rules.cased;
          let n = 0;
          for (let i = lowerBound(cased, item.lo); i < cased.length && cased[i]! <= bmpHi; i++, n++) addFolded(fold(cased[i]!));
          if (n > 0) hasCased = true;
          budget.step(CASED_STEPS * n);
        }
      }
      if (item.hi >= 0x10000) {
        outside.push(Math.max(item.lo, 0x10000), item.hi);
        if (fold !== null) {
          outsideUpper.push(item.lo, item.hi);
          hasCased = true;
        }
      }
    }
  }
  // A set without cased members is tested on the character itself, as CPython emits IN for it.
  const key = hasCased && fold !== null ? fold : null;
  const wideRuns = merged(wide, points);
  const runs = merged(outside);
  const upperRuns = merged(outsideUpper);
  const cats = [...categories.values()];
  const member = (x: number) => {
    if (x < 256) {
      if (latin[x] === 1) return true;
    } else if (x < 0x10000) {
      if (wideRuns.length > 0 && inRanges(wideRuns, x)) return true;
    } else if (runs.length > 0 && inRanges(runs, x)) return true;
    if (upperRuns.length > 0 && inRanges(upperRuns, upper(x))) return true;
    for (const test of cats) if (test(x)) return true;
    return false;
  };
  if (key === null) return new CharTest(negate ? (c) => !member(c) : member);
  return new CharTest(negate ? (c) => !member(key(c)) : (c) => member(key(c)));
}

/** The first index of sorted `xs` whose value is at least `v`. */
function lowerBound(xs: Int32Array, v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Pairs [lo, hi, lo, hi...] and single members, sorted and merged into disjoint runs. */
function merged(pairs: number[], singles: number[] = []): Int32Array {
  // Each span packed in one number (lo * 2^21 + hi: code points have 21 bits), for a numeric sort.
  const spans = new Float64Array(pairs.length / 2 + singles.length);
  let n = 0;
  for (let i = 0; i < pairs.length; i += 2) spans[n++] = pairs[i]! * 0x20000 * 16 + pairs[i + 1]!;
  for (const c of singles) spans[n++] = c * 0x20000 * 16 + c;
  spans.sort();
  const out: number[] = [];
  for (const span of spans) {
    const lo = Math.floor(span / (0x20000 * 16));
    const hi = span - lo * 0x20000 * 16;
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi);
    else out.push(lo, hi);
  }
  return Int32Array.from(out);
}

function inRanges(runs: Int32Array, c: number): boolean {
  let lo = 0;
  let hi = (runs.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c < runs[2 * mid]!) hi = mid - 1;
    else if (c > runs[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}
