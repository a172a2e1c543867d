// The character classes and case mappings of CPython's regular expression engine (sre), for
// str patterns (Unicode) and for bytes patterns or re.ASCII (ASCII only).
//
// Unicode answers come from the JS engine's own tables, the same ones the str methods use:
// \w is str.isalnum() or "_", \d str.isdecimal(), \s str.isspace(); a case mapping is the first
// code point of the full mapping, which is what CPython's _PyUnicode_ToLowercase and
// _PyUnicode_ToUppercase return. Characters assigned after Unicode 14 (CPython 3.11's version)
// follow the newer tables. Answers for code points from 256 on are computed a block of 256 at a
// time, when the block is first met, and kept.
import { isSpace } from "../../strings.js";

export { isSpace };

export function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

export function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isAsciiWord(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

const BLOCKS = 0x110000 >> 8;

/** Blocks filled since the VM last charged for them (takeFillWork). */
let filled = 0;

/**
 * How many blocks of 256 code points the tables below filled since the last call: each is about
 * as much work as stepping a few dozen threads, and the machine charges it as such.
 */
export function takeFillWork(): number {
  const n = filled;
  filled = 0;
  return n;
}

/** The 256 code points of block `b` as one string (lone surrogates in the surrogate blocks). */
function blockText(b: number): string {
  const codes = new Array<number>(256);
  for (let i = 0; i < 256; i++) codes[i] = (b << 8) | i;
  return String.fromCodePoint(...codes);
}

/** A yes/no property of code points, answered from a bitmap per block of 256, made on first use. */
class BlockPredicate {
  private readonly blocks: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(BLOCKS);

  /** `members` matches (globally) the code points that have the property. */
  constructor(private readonly members: RegExp) {}

  has(c: number): boolean {
    const b = c >> 8;
    const block = this.blocks[b] ?? (this.blocks[b] = this.fill(b));
    return block[c & 0xff] === 1;
  }

  private fill(b: number): Uint8Array {
    filled++;
    const block = new Uint8Array(256);
    const text = blockText(b);
    const wide = b >= 0x100;
    this.members.lastIndex = 0;
    for (const m of text.matchAll(this.members)) block[wide ? m.index! >> 1 : m.index!] = 1;
    return block;
  }
}

// CPython's isalnum() is isalpha() (categories L*), or isdecimal/isdigit/isnumeric, all of which
// lie in L* and N* (checked against CPython 3.11 over every code point).
const WORD = new BlockPredicate(/[\p{L}\p{N}_]/gu);
const DIGIT = new BlockPredicate(/\p{Nd}/gu);

export function isWord(c: number): boolean {
  return c < 0x80 ? isAsciiWord(c) : WORD.has(c);
}

export function isDigit(c: number): boolean {
  return c < 0x80 ? isAsciiDigit(c) : DIGIT.has(c);
}

/** A code-point mapping (the first code point of a case mapping), computed a block at a time. */
class BlockMapping {
  private readonly blocks: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(BLOCKS);

  constructor(private readonly map: (s: string) => string) {}

  get(c: number): number {
    const b = c >> 8;
    const block = this.blocks[b] ?? (this.blocks[b] = this.fill(b));
    return block[c & 0xff]!;
  }

  private fill(b: number): Int32Array {
    filled++;
    const block = new Int32Array(256);
    const text = blockText(b);
    const mapped = this.map(text);
    if (mapped.length === text.length && (b < 0xd8 || b > 0xdf)) {
      // Every character mapped to one of the same width: read them back in order.
      const wide = b >= 0x100;
      let same = true;
      for (let i = 0; i < 256 && same; i++) {
        const m = wide ? mapped.codePointAt(2 * i)! : mapped.charCodeAt(i);
        block[i] = m;
        same = wide ? m >= 0x10000 : m < 0xd800 || m > 0xdfff;
      }
      if (same) return block;
    }
    for (let i = 0; i < 256; i++) {
      const c = (b << 8) | i;
      block[i] = c >= 0xd800 && c <= 0xdfff ? c : this.map(String.fromCodePoint(c)).codePointAt(0)!;
    }
    return block;
  }
}

const LOWER = new BlockMapping((s) => s.toLowerCase());
const UPPER = new BlockMapping((s) => s.toUpperCase());

export function lower(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 32 : c;
  return LOWER.get(c);
}

export function upper(c: number): number {
  if (c < 0x80) return c >= 0x61 && c <= 0x7a ? c - 32 : c;
  return UPPER.get(c);
}

/** sre's unicode_iscased: the character changes under one of the two mappings. */
export function isCased(c: number): boolean {
  return lower(c) !== c || upper(c) !== c;
}

export function asciiLower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 32 : c;
}

export function asciiUpper(c: number): number {
  return c >= 0x61 && c <= 0x7a ? c - 32 : c;
}

export function isAsciiCased(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

let fixes: Map<number, readonly number[]> | null = null;
let cased: Int32Array | null = null;

/** The characters of the cased parts of the BMP that a case mapping changes, scanned once. */
function caseMapped(): string[] {
  let text = "";
  const chunk = new Array<number>(1024);
  for (const [from, to] of CASED_BLOCKS) {
    for (let start = from; start < to; start += chunk.length) {
      for (let i = 0; i < chunk.length; i++) chunk[i] = start + i;
      text += String.fromCharCode(...chunk);
    }
  }
  return text.match(/\p{Changes_When_Casemapped}/gu) ?? [];
}

let mapped: string[] | null = null;

/** The cased characters of the BMP (sre's iscased), sorted. */
export function casedBmp(): Int32Array {
  if (cased !== null) return cased;
  mapped ??= caseMapped();
  const out: number[] = [];
  for (const ch of mapped) {
    const c = ch.codePointAt(0)!;
    if (ch.toLowerCase().codePointAt(0) !== c || ch.toUpperCase().codePointAt(0) !== c) out.push(c);
  }
  return (cased = Int32Array.from(out));
}

/**
 * For a lowercase character, the other lowercase characters with the same (full) uppercase:
 * 's' and 'ſ' (both 'S'), 'ι', '\u0345' and 'ι' (all 'Ι')... sre matches them with each other under
 * IGNORECASE although their lowercase forms differ. Derived once from the case mappings of the
 * Basic Multilingual Plane, where all of CPython 3.11's cases lie (a test compares the table with
 * CPython's re._casefix), when the first case-insensitive pattern compiles: about a millisecond,
 * once per process.
 */
export function caseFixes(): Map<number, readonly number[]> {
  if (fixes !== null) return fixes;
  mapped ??= caseMapped();
  const groups = new Map<string, Set<number>>();
  for (const ch of mapped) {
    const l = ch.toLowerCase().codePointAt(0)!;
    const key = String.fromCodePoint(l).toUpperCase();
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = new Set()));
    group.add(l);
  }
  fixes = new Map();
  for (const group of groups.values()) {
    if (group.size < 2) continue;
    for (const l of group) fixes.set(l, [...group].filter((x) => x !== l).sort((a, b) => a - b));
  }
  return fixes;
}

/**
 * The parts of the BMP that hold cased characters (the rest is CJK, Hangul, private use and
 * other caseless scripts), scanned by caseMapped.
 */
const CASED_BLOCKS: readonly [number, number][] = [
  [0x0000, 0x3000],
  [0xa000, 0xac00],
  [0xf800, 0x10000],
];
