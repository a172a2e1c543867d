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
// The work is charged to the budget as it happens, a chunk at a time: STEPS_PER_UNIT steps per
// thread stepped and per instruction an empty move visits (about 20-30 ns each), a step per
// SKIP_PER_STEP characters skipped ahead, and RUN_STEPS for the run itself.
import type { Budget } from "../../budget.js";
import type { CharTest } from "./charset.js";
import { isAsciiWord, isWord, takeFillWork } from "./chars.js";
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

/** Budget steps (about 10 ns of work each) per thread stepped or instruction visited. */
const STEPS_PER_UNIT = 2;
/** What setting up a run and taking its result cost, in steps. */
const RUN_STEPS = 10;
/** What filling a block of a character table (chars.ts) costs, in steps. */
const FILL_STEPS = 50;
/** Thread-list slots a machine keeps between runs (more were grown for one run: let go). */
const MAX_KEPT_SLOTS = 1 << 16;
const SKIP_PER_STEP = 16;
/** Work done between two charges: the budget stops a long match within this much. */
const CHUNK = 4096;

const NEWLINE = 10;

/** Where successive runs over one text found the pattern's required text (Machine.contains). */
export interface Found {
  /** The unit the last look started from, and where it found the text (-1: nowhere after, -2: not looked yet). */
  from: number;
  at: number;
}

/** One machine per program, reused by every match of it (a match runs to its end at once). */
export class Machine {
  private readonly op: Int32Array;
  private readonly a: Int32Array;
  private readonly tests: readonly (CharTest | null)[];
  private readonly nslots: number;
  /** Marks per instruction, times this (for the loop state, see above). */
  private readonly width: number;
  /**
   * For each instruction, the instructions that consume or match reached from it through
   * SPLIT, JMP and SAVE alone, in priority order, with the slots set on the way (staticClosure);
   * null when the way asserts, enters or leaves an iteration of a loop that can match empty, or
   * is too long (follow() takes those); undefined until first needed.
   */
  private readonly closures: (Int32Array | null | undefined)[];
  private readonly keys: number;
  private marks: Uint32Array;
  private generation = 0;
  /** The thread lists: current and next, instruction and slots of each thread. */
  private curPc: Int32Array;
  private nextPc: Int32Array;
  private curSlots: Int32Array;
  private nextSlots: Int32Array;
  private nextCount = 0;
  /** Instructions visited by empty moves (and characters tested while skipping) since the last charge. */
  private visits = 0;
  /** The steps of a unit of work: a thread's slots are copied as it moves. */
  private readonly unitSteps: number;
  private readonly stack: Int32Array;
  /** The slots of the thread being followed. */
  private readonly tmp: Int32Array;
  /** The slots of the best match found so far in the run. */
  private readonly best: Int32Array;
  // The run in progress.
  private text = "";
  private end = 0;

  constructor(private readonly prog: Program) {
    this.op = prog.op;
    this.a = prog.a;
    this.tests = prog.tests;
    this.nslots = prog.slots;
    this.width = prog.loopDepth + 1;
    this.closures = new Array<Int32Array | null | undefined>(prog.size);
    this.unitSteps = STEPS_PER_UNIT * (1 + (prog.slots >> 4));
    this.keys = prog.size * this.width;
    this.marks = new Uint32Array(this.keys);
    this.curPc = new Int32Array(this.keys);
    this.nextPc = new Int32Array(this.keys);
    const initial = Math.min(this.keys, 16) * prog.slots;
    this.curSlots = new Int32Array(initial);
    this.nextSlots = new Int32Array(initial);
    this.stack = new Int32Array(4 * this.keys + 8);
    this.tmp = new Int32Array(prog.slots);
    this.best = new Int32Array(prog.slots);
  }

  /** What the machine holds in the heap. */
  heapBytes(): number {
    // Closures are made as they are needed (after consuming instructions), each of at most
    // MAX_CLOSURE instructions: a few dozen bytes an instruction on average.
    const closures = this.prog.size * 48;
    return 4 * (3 * this.keys + 4 * this.keys + this.curSlots.length + this.nextSlots.length) + closures + 256;
  }

  /**
   * The slots of the match (unit offsets: group g's span is slots[2g], slots[2g+1], -1 when it did
   * not take part; slots[prog.lastSlot] is lastindex) in `text` up to unit `end`, starting at unit
   * `start`: anywhere from `start` on (SEARCH), at `start` (MATCH_START), or spanning
   * `start`..`end` (FULLMATCH). With `mustAdvance`, an empty match at `start` does not count.
   * `found` carries, from one run to the next over the same text, where its required text is.
   */
  run(text: string, start: number, end: number, mode: Mode, mustAdvance: boolean, budget: Budget, found: Found | null = null): Int32Array | null {
    try {
      return this.runOnce(text, start, end, mode, mustAdvance, budget, found);
    } finally {
      // A cached machine keeps neither the text nor thread lists grown for one large run.
      this.text = "";
      if (this.curSlots.length > MAX_KEPT_SLOTS) this.shrink();
    }
  }

  private shrink(): void {
    const initial = Math.min(this.keys, 16) * this.nslots;
    this.curSlots = new Int32Array(initial);
    this.nextSlots = new Int32Array(initial);
  }

  private runOnce(text: string, start: number, end: number, mode: Mode, mustAdvance: boolean, budget: Budget, found: Found | null): Int32Array | null {
    const prog = this.prog;
    const { op, a, tests, nslots } = this;
    const anchored = mode !== SEARCH;
    if (!anchored && start > end) return null;
    this.text = text;
    this.end = end;
    let work = RUN_STEPS;
    this.visits = 0;
    // The best match so far, kept in `best` (copied out once the run ends).
    let matched = false;
    const best = this.best;
    let pos = start;
    if (prog.required.length > 0 && !this.contains(prog.required, start, end, found)) return this.finish(null, work, budget);
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
          for (let k = 0; k < nslots; k++) best[k] = curSlots[base + k]!;
          best[1] = pos;
          matched = true;
          break;
        }
        if (c < 0) continue;
        let ok: boolean;
        if (o === CHAR) ok = c === a[pc];
        else if (o === TEST) ok = tests[pc]!.test(c);
        else if (o === ANY) ok = c !== NEWLINE;
        else ok = o === ANY_ALL;
        if (!ok) continue;
        const next = pc + 1;
        const closure = this.closures[next] ?? (this.closures[next] === null ? null : this.closureOf(next));
        if (closure !== null) this.pushAll(closure, curSlots, i * nslots, pos + width);
        else {
          const tmp = this.tmp;
          for (let k = 0, base = i * nslots; k < nslots; k++) tmp[k] = curSlots[base + k]!;
          this.follow(pc + 1, pos + width);
        }
      }
      work += this.unitSteps * (count + 1 + this.visits);
      this.visits = 0;
      if (work >= CHUNK) {
        work += FILL_STEPS * takeFillWork();
        budget.step(Math.ceil(work));
        work = 0;
      }
      if (c < 0) break;
      pos += width;
      if (!matched && !anchored) {
        if (this.nextCount === 0 && skip) {
          const to = this.skipAhead(pos);
          work += (to - pos) / SKIP_PER_STEP;
          pos = to;
          if (pos >= end) break;
          this.addStart(pos);
        } else if (!skip || this.mayStartAt(pos)) {
          this.addStart(pos);
        }
      }
      count = this.swap();
      if (count === 0 && (matched || anchored)) break;
    }
    return this.finish(matched ? best.slice() : null, work, budget);
  }

  /**
   * Whether `required` occurs between units `from` and `end` of the text. With a `found` of
   * successive searches over one text (findall, sub), the occurrence found is remembered and
   * looked for again only once a search starts past it.
   */
  private contains(required: string, from: number, end: number, found: Found | null): boolean {
    let at: number;
    if (found !== null && found.at >= from && found.from <= from) at = found.at;
    else if (found !== null && found.at === -1 && found.from <= from) at = -1;
    else {
      at = this.text.indexOf(required, from);
      this.visits += 1 + ((at < 0 ? this.text.length - from : at - from) >> 6);
      if (found !== null) {
        found.from = from;
        found.at = at;
      }
    }
    return at >= 0 && at + required.length <= end;
  }

  private finish(matched: Int32Array | null, work: number, budget: Budget): Int32Array | null {
    budget.step(Math.ceil(work + this.unitSteps * this.visits + FILL_STEPS * takeFillWork()));
    return matched;
  }

  /** The static closure of `pc`, made now (and kept; null when it has none). */
  private closureOf(pc: number): Int32Array | null {
    const closure = staticClosure(this.prog, pc, () => this.visits++);
    this.closures[pc] = closure;
    return closure;
  }

  /**
   * Adds the threads of a static closure (not yet in the next list) with the slots at
   * `from[base...]` and the closure's writes, made at `pos`.
   */
  private pushAll(closure: Int32Array, from: Int32Array, base: number, pos: number): void {
    const marks = this.marks;
    const generation = this.generation;
    const width = this.width;
    const nslots = this.nslots;
    for (let t = 0; t < closure.length; ) {
      const pc = closure[t]!;
      const writes = closure[t + 1]!;
      const first = t + 2;
      t = first + 2 * writes;
      this.visits++;
      const key = pc * width;
      if (marks[key] === generation) continue;
      marks[key] = generation;
      const n = this.nextCount;
      if ((n + 1) * nslots > this.nextSlots.length) this.grow(n + 1);
      this.nextPc[n] = pc;
      const slots = this.nextSlots;
      const to = n * nslots;
      for (let k = 0; k < nslots; k++) slots[to + k] = from[base + k]!;
      for (let w = first; w < t; w += 2) {
        const value = closure[w + 1]!;
        slots[to + closure[w]!] = value === AT_POS ? pos : value;
      }
      this.nextCount = n + 1;
    }
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
    const tmp = this.tmp;
    tmp.fill(-1);
    tmp[0] = pos;
    const closure = this.closures[0] ?? (this.closures[0] === null ? null : this.closureOf(0));
    if (closure !== null) this.pushAll(closure, tmp, 0, pos);
    else this.follow(0, pos);
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
      this.visits += this.prog.firstPcs.length;
      if (this.mayStart(cp)) return pos;
      pos += width;
    }
    return end;
  }

  /** Whether a match may start at `pos` (for a pattern that cannot match empty). */
  private mayStartAt(pos: number): boolean {
    if (pos >= this.end) return false;
    const c = this.text.charCodeAt(pos);
    return c >= 256 || this.prog.firstLatin === null || this.prog.firstLatin[c] === 1;
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
    const { op, a } = this;
    const { b, loops, lastSlot } = this.prog;
    const width = this.width;
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
          // A thread about to consume (or match) has the same future whatever its loops did
          // so far: only the empty moves inside loops depend on it.
          const chain = loops[pc];
          if (chain !== null && op[pc]! >= SPLIT && op[pc] !== MATCH) key += this.consumedLoops(chain, pos);
        }
        this.visits++;
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
            // Looking at the characters around costs about as much again.
            this.visits++;
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
    const nslots = this.nslots;
    const n = this.nextCount;
    if ((n + 1) * nslots > this.nextSlots.length) this.grow(n + 1);
    this.nextPc[n] = pc;
    const slots = this.nextSlots;
    const tmp = this.tmp;
    for (let k = 0, base = n * nslots; k < nslots; k++) slots[base + k] = tmp[k]!;
    this.nextCount = n + 1;
  }

  /** Makes room for `threads` threads in both lists (a swap must never shrink one). */
  private grow(threads: number): void {
    const size = Math.max(2 * this.nextSlots.length, threads * this.nslots);
    const next = new Int32Array(size);
    next.set(this.nextSlots);
    this.nextSlots = next;
    if (this.curSlots.length < size) {
      const cur = new Int32Array(size);
      cur.set(this.curSlots);
      this.curSlots = cur;
    }
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

/** In a closure's slot writes, the value that stands for the current position. */
const AT_POS = -2;
/** The most instructions a static closure may go through (longer ones are followed each time). */
const MAX_CLOSURE = 48;

/**
 * The closure of instruction `start` when it goes through SPLIT, JMP and SAVE only, in at most
 * MAX_CLOSURE instructions (see Machine.closures): for each target in priority order, its pc, the
 * number of slot writes on the way, and the writes (slot, value or AT_POS). Null otherwise.
 * `visit` is told of each instruction looked at, to charge the work.
 */
export function staticClosure(prog: Program, start: number, visit: () => void): Int32Array | null {
  const { op, a, b, lastSlot } = prog;
  const entries: number[] = [];
  const seen = new Set<number>();
  // Depth first in priority order; each entry is a pc and the writes made on its way.
  const stack: [number, number[]][] = [[start, []]];
  while (stack.length > 0) {
    const [pc, writes] = stack.pop()!;
    if (seen.has(pc)) continue;
    if (seen.size >= MAX_CLOSURE) return null;
    seen.add(pc);
    visit();
    const o = op[pc];
    if (o === JMP) stack.push([a[pc]!, writes]);
    else if (o === SPLIT) stack.push([b[pc]!, writes], [a[pc]!, writes]);
    else if (o === SAVE) {
      const k = a[pc]!;
      const more = [...writes, k, AT_POS];
      if (k & 1 && lastSlot >= 0) more.push(lastSlot, k >> 1);
      stack.push([pc + 1, more]);
    } else if (o === CHAR || o === TEST || o === ANY || o === ANY_ALL || o === MATCH) entries.push(pc, writes.length >> 1, ...writes);
    else return null;
  }
  return Int32Array.from(entries);
}
