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
  fixes: Map<number, readonly number[]> | null;
  unicode: boolean;
}

export function caseRules(flags: number): CaseRules {
  const unicode = (flags & FLAG.UNICODE) !== 0;
  if (!(flags & FLAG.IGNORECASE)) return { fold: null, isCased: () => false, fixes: null, unicode };
  // LOCALE (bytes only) folds as the C locale does: ASCII letters.
  if (unicode) return { fold: lower, isCased, fixes: caseFixes(), unicode };
  return { fold: asciiLower, isCased: isAsciiCased, fixes: null, unicode };
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
 * A set [...] (negated or not) under `flags`. Building it costs about a step per 16 members of its
 * ranges (charged to `budget`), as CPython's compiler also walks every member. Members outside
 * the BMP are kept apart, as CPython keeps them: as they are written (a range there is also
 * tested against the uppercase of the character, under IGNORECASE), in sorted runs.
 */
export function setTest(items: readonly SetItem[], negate: boolean, flags: number, budget: Budget): CharTest {
  const rules = caseRules(flags);
  const fold = rules.fold;
  const bmp = new Uint8Array(0x10000);
  const outside: number[] = [];
  const outsideUpper: number[] = [];
  const categories = new Map<string, (c: number) => boolean>();
  let hasCased = false;
  let maxMarked = -1;
  const mark1 = (c: number) => {
    bmp[c] = 1;
    if (c > maxMarked) maxMarked = c;
  };
  const mark = (c: number) => {
    mark1(c);
    const also = rules.fixes?.get(c);
    if (also !== undefined) for (const k of also) mark1(k);
  };
  for (const item of items) {
    if (item.kind === "cat") {
      categories.set(item.cat, categoryTest(item.cat, rules.unicode));
    } else if (item.kind === "lit") {
      if (fold === null) {
        if (item.c < 0x10000) mark1(item.c);
        else outside.push(item.c, item.c);
        continue;
      }
      const lo = fold(item.c);
      if (lo < 0x10000) {
        mark(lo);
        if (rules.isCased(item.c)) hasCased = true;
      } else {
        outside.push(item.c, item.c);
        hasCased = true;
      }
    } else {
      budget.step(1 + ((Math.min(item.hi, 0xffff) - item.lo) >> 4));
      if (fold === null) {
        for (let c = item.lo; c <= item.hi && c < 0x10000; c++) mark1(c);
        if (item.hi >= 0x10000) outside.push(item.lo, item.hi);
        continue;
      }
      let overflow = false;
      for (let c = item.lo; c <= item.hi; c++) {
        const lo = fold(c);
        if (lo >= 0x10000) {
          overflow = true;
          break;
        }
        mark(lo);
      }
      if (overflow) {
        outside.push(item.lo, item.hi);
        outsideUpper.push(item.lo, item.hi);
        hasCased = true;
      } else if (!hasCased) {
        for (let c = item.lo; c <= item.hi && !hasCased; c++) if (rules.isCased(c)) hasCased = true;
      }
    }
  }
  // A set without cased members is tested on the character itself, as CPython emits IN for it.
  const key = hasCased && fold !== null ? fold : null;
  const ranges = maxMarked >= 256 ? toRanges(bmp) : null;
  const latin = bmp.subarray(0, 256).slice();
  const runs = merged(outside);
  const upperRuns = merged(outsideUpper);
  const cats = [...categories.values()];
  const member = (x: number) => {
    if (x < 256) {
      if (latin[x] === 1) return true;
    } else if (x < 0x10000) {
      if (ranges !== null && inRanges(ranges, x)) return true;
    }
    if (runs.length > 0 && inRanges(runs, x)) return true;
    if (upperRuns.length > 0 && inRanges(upperRuns, upper(x))) return true;
    for (const test of cats) if (test(x)) return true;
    return false;
  };
  if (key === null) return new CharTest(negate ? (c) => !member(c) : member);
  return new CharTest(negate ? (c) => !member(key(c)) : (c) => member(key(c)));
}

/** Pairs [lo, hi, lo, hi...] sorted and merged into disjoint runs. */
function merged(pairs: number[]): Int32Array {
  const spans: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) spans.push([pairs[i]!, pairs[i + 1]!]);
  spans.sort((x, y) => x[0] - y[0]);
  const out: number[] = [];
  for (const [lo, hi] of spans) {
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi);
    else out.push(lo, hi);
  }
  return Int32Array.from(out);
}

/** The runs of marked code points, as [lo0, hi0, lo1, hi1, ...]. */
function toRanges(bmp: Uint8Array): Int32Array {
  const runs: number[] = [];
  for (let c = 0; c < bmp.length; c++) {
    if (bmp[c] !== 1) continue;
    const lo = c;
    while (c + 1 < bmp.length && bmp[c + 1] === 1) c++;
    runs.push(lo, c);
  }
  return Int32Array.from(runs);
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
