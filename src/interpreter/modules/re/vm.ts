// The matching machine: runs a program (program.ts) over a text in one pass, all its threads in
// lockstep, in priority order (a Pike VM). Its time is the text's length times the program's
// size at worst, whatever the pattern: no backtracking, no catastrophic patterns.
//
// Threads are ordered as a backtracking engine would try their paths, and the first to reach
// MATCH wins over those after it, so the match (groups included) is the one CPython's sre finds.
// A thread is dropped when a thread before it in the list already reached the same instruction
// at the same position (its future is the same, and it comes second). Inside loops whose body
// can match empty, "the same" also counts how many of those loops have consumed characters in
// their current iteration, which decides where the thread goes at the end of the iteration.
//
// The work is charged to the budget as it happens, a chunk at a time: a step per
// THREADS_PER_STEP threads stepped, and per SKIP_PER_STEP characters skipped ahead.
import type { Budget } from "../../budget.js";
import { isAsciiWord, isWord } from "./chars.js";
import {
  ANY,
  ANY_ALL,
  ASSERT,
  AT_BEGINNING,
  AT_BEGINNING_LINE,
  AT_BOUNDARY,
  AT_END,
  AT_END_LINE,
  AT_END_STRING,
  AT_NON_BOUNDARY,
  AT_UNI_BOUNDARY,
  AT_UNI_NON_BOUNDARY,
  CHAR,
  JMP,
  MATCH,
  type Program,
  REP_CHECK,
  REP_START,
  SAVE,
  SPLIT,
  TEST,
} from "./program.js";

export const SEARCH = 0;
export const MATCH_START = 1;
export const FULLMATCH = 2;
export type Mode = typeof SEARCH | typeof MATCH_START | typeof FULLMATCH;

/** Thread steps per budget step: about 10 ns of work each. */
export const THREADS_PER_STEP = 1;
const SKIP_PER_STEP = 16;
/** Work done between two charges: the budget stops a long match within this much. */
const CHUNK = 4096;

const NEWLINE = 10;

/** One machine per program, reused by every match of it (a match runs to its end at once). */
export class Machine {
  private readonly keys: number;
  private marks: Uint32Array;
  private generation = 0;
  /** The thread lists: current and next, instruction and slots of each thread. */
  private curPc: Int32Array;
  private nextPc: Int32Array;
  private curSlots: Int32Array;
  private nextSlots: Int32Array;
  private nextCount = 0;
  private readonly stack: Int32Array;
  /** The slots of the thread being followed. */
  private readonly tmp: Int32Array;
  // The run in progress.
  private text = "";
  private end = 0;

  constructor(private readonly prog: Program) {
    this.keys = prog.size * (prog.loopDepth + 1);
    this.marks = new Uint32Array(this.keys);
    this.curPc = new Int32Array(this.keys);
    this.nextPc = new Int32Array(this.keys);
    const initial = Math.min(this.keys, 16) * prog.slots;
    this.curSlots = new Int32Array(initial);
    this.nextSlots = new Int32Array(initial);
    this.stack = new Int32Array(4 * this.keys + 8);
    this.tmp = new Int32Array(prog.slots);
  }

  /** What the machine holds in the heap. */
  heapBytes(): number {
    return 4 * (3 * this.keys + 4 * this.keys + this.curSlots.length + this.nextSlots.length) + 256;
  }

  /**
   * The slots of the match (unit offsets: group g's span is slots[2g], slots[2g+1], -1 when it did
   * not take part; slots[prog.lastSlot] is lastindex) in `text` up to unit `end`, starting at unit
   * `start`: anywhere from `start` on (SEARCH), at `start` (MATCH_START), or spanning
   * `start`..`end` (FULLMATCH). With `mustAdvance`, an empty match at `start` does not count.
   */
  run(text: string, start: number, end: number, mode: Mode, mustAdvance: boolean, budget: Budget): Int32Array | null {
    const prog = this.prog;
    const { op, a, tests } = prog;
    const nslots = prog.slots;
    const anchored = mode !== SEARCH;
    if (!anchored && start > end) return null;
    this.text = text;
    this.end = end;
    let work = 0;
    let matched: Int32Array | null = null;
    let pos = start;
    const skip = !anchored && !prog.nullable;
    if (skip) {
      const to = this.skipAhead(pos);
      work += (to - pos) / SKIP_PER_STEP;
      pos = to;
      if (pos >= end) return this.finish(null, work, budget);
    }
    this.startList();
    this.addStart(pos);
    let count = this.swap();
    for (;;) {
      let c = -1;
      let width = 1;
      if (pos < end) {
        c = text.charCodeAt(pos);
        if (c >= 0xd800 && c <= 0xdbff && pos + 1 < text.length) {
          const low = text.charCodeAt(pos + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
            width = 2;
          }
        }
      }
      this.startList();
      const curPc = this.curPc;
      const curSlots = this.curSlots;
      for (let i = 0; i < count; i++) {
        const pc = curPc[i]!;
        const o = op[pc]!;
        if (o === MATCH) {
          const base = i * nslots;
          if (mode === FULLMATCH && pos !== end) continue;
          if (mustAdvance && pos === start && curSlots[base] === start) continue;
          matched = curSlots.slice(base, base + nslots);
          matched[1] = pos;
          break;
        }
        if (c < 0) continue;
        let ok: boolean;
        if (o === CHAR) ok = c === a[pc];
        else if (o === TEST) ok = tests[pc]!.test(c);
        else if (o === ANY) ok = c !== NEWLINE;
        else ok = o === ANY_ALL;
        if (ok) {
          this.tmp.set(curSlots.subarray(i * nslots, i * nslots + nslots));
          this.follow(pc + 1, pos + width);
        }
      }
      work += (count + 1) / THREADS_PER_STEP;
      if (work >= CHUNK) {
        budget.step(Math.ceil(work));
        work = 0;
      }
      if (c < 0) break;
      pos += width;
      if (matched === null && !anchored) {
        if (this.nextCount === 0 && skip) {
          const to = this.skipAhead(pos);
          work += (to - pos) / SKIP_PER_STEP;
          pos = to;
          if (pos >= end) break;
        }
        this.addStart(pos);
      }
      count = this.swap();
      if (count === 0 && (matched !== null || anchored)) break;
    }
    return this.finish(matched, work, budget);
  }

  private finish(matched: Int32Array | null, work: number, budget: Budget): Int32Array | null {
    budget.step(Math.ceil(work));
    this.text = "";
    return matched;
  }

  /** Begins the next list: a new generation of marks. */
  private startList(): void {
    this.nextCount = 0;
    if (++this.generation === 0xffffffff) {
      this.marks.fill(0);
      this.generation = 1;
    }
  }

  /** Makes the next list the current one; returns its length. */
  private swap(): number {
    const pcs = this.curPc;
    this.curPc = this.nextPc;
    this.nextPc = pcs;
    const slots = this.curSlots;
    this.curSlots = this.nextSlots;
    this.nextSlots = slots;
    return this.nextCount;
  }

  /** A thread starting a match at `pos`, after (below) the threads already listed. */
  private addStart(pos: number): void {
    this.tmp.fill(-1);
    this.tmp[0] = pos;
    this.follow(0, pos);
  }

  /** The first position from `pos` where a match can start (end if none). */
  private skipAhead(pos: number): number {
    const prog = this.prog;
    const text = this.text;
    const end = this.end;
    if (prog.prefix.length > 0) {
      const i = text.indexOf(prog.prefix, pos);
      return i < 0 || i + prog.prefix.length > end ? end : i;
    }
    const latin = prog.firstLatin;
    if (latin === null) return pos;
    while (pos < end) {
      const c = text.charCodeAt(pos);
      if (c < 256) {
        if (latin[c] === 1) return pos;
        pos++;
        continue;
      }
      let cp = c;
      let width = 1;
      if (c >= 0xd800 && c <= 0xdbff && pos + 1 < end) {
        const low = text.charCodeAt(pos + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          width = 2;
        }
      }
      if (this.mayStart(cp)) return pos;
      pos += width;
    }
    return end;
  }

  private mayStart(c: number): boolean {
    const { op, a, tests } = this.prog;
    for (const pc of this.prog.firstPcs) {
      const o = op[pc];
      if (o === CHAR ? a[pc] === c : o === ANY ? c !== NEWLINE : o === ANY_ALL ? true : tests[pc]!.test(c)) return true;
    }
    return false;
  }

  /**
   * Follows the empty moves from `pc` at `pos` with the slots in `tmp`, adding a thread to the
   * next list for every instruction that consumes a character or matches, in priority order.
   */
  private follow(pc: number, pos: number): void {
    const prog = this.prog;
    const { op, a, b, loops, lastSlot } = prog;
    const width = prog.loopDepth + 1;
    const marks = this.marks;
    const generation = this.generation;
    const stack = this.stack;
    const tmp = this.tmp;
    let sp = 0;
    for (;;) {
      let alive = true;
      while (alive) {
        let key = pc;
        if (width > 1) {
          key = pc * width;
          const chain = loops[pc];
          if (chain !== null) key += this.consumedLoops(chain, pos);
        }
        if (marks[key] === generation) break;
        marks[key] = generation;
        switch (op[pc]) {
          case JMP:
            pc = a[pc]!;
            break;
          case SPLIT:
            stack[sp++] = b[pc]!;
            pc = a[pc]!;
            break;
          case SAVE: {
            const k = a[pc]!;
            stack[sp++] = tmp[k]!;
            stack[sp++] = ~k;
            tmp[k] = pos;
            if (k & 1 && lastSlot >= 0) {
              stack[sp++] = tmp[lastSlot]!;
              stack[sp++] = ~lastSlot;
              tmp[lastSlot] = k >> 1;
            }
            pc++;
            break;
          }
          case ASSERT:
            if (this.holds(a[pc]!, pos)) pc++;
            else alive = false;
            break;
          case REP_START: {
            const r = a[pc]!;
            stack[sp++] = tmp[r]!;
            stack[sp++] = ~r;
            tmp[r] = pos;
            pc++;
            break;
          }
          case REP_CHECK:
            pc = tmp[a[pc]!] === pos ? b[pc]! : pc + 1;
            break;
          default:
            this.push(pc);
            alive = false;
        }
      }
      // Back to the last choice not taken, undoing the slots set since.
      for (;;) {
        if (sp === 0) return;
        const entry = stack[--sp]!;
        if (entry < 0) {
          tmp[~entry] = stack[--sp]!;
          continue;
        }
        pc = entry;
        break;
      }
    }
  }

  /** Inside nested loops (outer first), how many from the outermost have consumed in this iteration. */
  private consumedLoops(chain: Int32Array, pos: number): number {
    const tmp = this.tmp;
    for (let j = chain.length - 1; j >= 0; j--) if (tmp[chain[j]!]! < pos) return j + 1;
    return 0;
  }

  private push(pc: number): void {
    const nslots = this.prog.slots;
    const n = this.nextCount;
    if ((n + 1) * nslots > this.nextSlots.length) {
      const grown = new Int32Array(Math.max(2 * this.nextSlots.length, (n + 1) * nslots));
      grown.set(this.nextSlots);
      this.nextSlots = grown;
      // Keep the current list's capacity in step, so that a swap never shrinks a list.
      if (this.curSlots.length < grown.length) {
        const cur = new Int32Array(grown.length);
        cur.set(this.curSlots);
        this.curSlots = cur;
      }
    }
    this.nextPc[n] = pc;
    this.nextSlots.set(this.tmp, n * nslots);
    this.nextCount = n + 1;
  }

  /** Whether assertion `kind` holds at `pos`, as sre's SRE(at) decides it. */
  private holds(kind: number, pos: number): boolean {
    const text = this.text;
    const end = this.end;
    switch (kind) {
      case AT_BEGINNING:
        return pos === 0;
      case AT_BEGINNING_LINE:
        return pos === 0 || text.charCodeAt(pos - 1) === NEWLINE;
      case AT_END:
        return pos === end || (pos + 1 === end && text.charCodeAt(pos) === NEWLINE);
      case AT_END_LINE:
        return pos === end || (pos < text.length && text.charCodeAt(pos) === NEWLINE);
      case AT_END_STRING:
        return pos === end;
      case AT_BOUNDARY:
      case AT_NON_BOUNDARY:
      case AT_UNI_BOUNDARY:
      case AT_UNI_NON_BOUNDARY: {
        if (end === 0) return false;
        const word = kind === AT_UNI_BOUNDARY || kind === AT_UNI_NON_BOUNDARY ? isWord : isAsciiWord;
        const before = pos > 0 && word(codePointBefore(text, pos));
        const after = pos < end && word(codePointAt(text, pos));
        return kind === AT_BOUNDARY || kind === AT_UNI_BOUNDARY ? before !== after : before === after;
      }
    }
    return false;
  }
}

function codePointAt(text: string, pos: number): number {
  return text.codePointAt(pos)!;
}

function codePointBefore(text: string, pos: number): number {
  const c = text.charCodeAt(pos - 1);
  if (c >= 0xdc00 && c <= 0xdfff && pos >= 2) {
    const high = text.charCodeAt(pos - 2);
    if (high >= 0xd800 && high <= 0xdbff) return 0x10000 + ((high - 0xd800) << 10) + (c - 0xdc00);
  }
  return c;
}
