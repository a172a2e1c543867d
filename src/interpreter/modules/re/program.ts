// A parsed pattern compiled to the instructions of the matching machine (vm.ts): a Thompson NFA
// whose choices are ordered, so that running it in lockstep finds the match a backtracking engine
// (CPython's sre) finds first.
//
// Repeats copy their body: {m,n} makes m required copies and n-m optional ones, an unbounded
// repeat one loop. A body that can match the empty string follows sre's rule for it: an
// iteration that matched nothing ends the repeat (and is kept, groups included). The machine
// keeps, for such loops, the position where the current iteration began in a register.
import type { Budget } from "../../budget.js";
import { isAsciiCased, isCased } from "./chars.js";
import { CharTest, literalTest, setTest } from "./charset.js";
import { FLAG, MAXREPEAT, TYPE_FLAGS, type At, type Node, type Parsed, type SetItem } from "./parse.js";

// The instructions that consume a character come first: the machine tells them by number.
export const CHAR = 0;
export const ANY = 1;
export const ANY_ALL = 2;
export const TEST = 3;
export const SPLIT = 4;
export const JMP = 5;
export const SAVE = 6;
export const ASSERT = 7;
export const REP_START = 8;
export const REP_CHECK = 9;
export const MATCH = 10;

export const AT_BEGINNING = 0;
export const AT_BEGINNING_LINE = 1;
export const AT_END = 2;
export const AT_END_LINE = 3;
export const AT_END_STRING = 4;
export const AT_BOUNDARY = 5;
export const AT_NON_BOUNDARY = 6;
export const AT_UNI_BOUNDARY = 7;
export const AT_UNI_NON_BOUNDARY = 8;

/** What compiling costs per instruction made (and the machine's share), in steps. */
const STEPS_PER_INSTRUCTION = 4;

/** The most instructions a pattern may compile to (a repeat count multiplies its body's). */
export const MAX_INSTRUCTIONS = 50_000;
/** Instructions times thread slots: what the machine's thread lists hold at most. */
const MAX_STATE = 4_000_000;

export interface Program {
  readonly size: number;
  readonly op: Int32Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly tests: readonly (CharTest | null)[];
  /** Capturing groups, group 0 excluded. */
  readonly groups: number;
  /** Per thread: the groups' start and end (2 per group, group 0 first), lastindex, loop registers. */
  readonly slots: number;
  /** The slot that holds the last group closed (lastindex), -1 when none. */
  readonly lastSlot: number;
  /** For each instruction inside loops whose body can match empty, their registers (outer first). */
  readonly loops: readonly (Int32Array | null)[];
  /** The deepest nesting of such loops. */
  readonly loopDepth: number;
  /** The pattern can match the empty string: every position may start a match. */
  readonly nullable: boolean;
  /** The text every match starts with (case-sensitive literals), or "". */
  readonly prefix: string;
  /** A text every match contains (the longest such run of literals found), or "". */
  readonly required: string;
  /** The characters below 256 a match may start with, and the first instructions, for the others. */
  readonly firstLatin: Uint8Array | null;
  readonly firstPcs: readonly number[];
}

/** A pattern too big for the engine: the module raises it as a re.error saying so. */
export class TooLargeError {
  constructor(readonly instructions: number) {}
}

class Emitter {
  readonly op: number[] = [];
  readonly a: number[] = [];
  readonly b: number[] = [];
  readonly tests: (CharTest | null)[] = [];
  readonly loops: (Int32Array | null)[] = [];
  /** The registers of the nullable loops being emitted, outer first. */
  readonly openLoops: number[] = [];
  loopDepth = 0;
  registers = 0;
  /** The CharTests made, by what they test (see charTest). */
  readonly testCache = new Map<string, CharTest | null>();

  emit(op: number, a = 0, b = 0, test: CharTest | null = null): number {
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    this.tests.push(test);
    this.loops.push(this.openLoops.length > 0 ? Int32Array.from(this.openLoops) : null);
    if (this.op.length > MAX_INSTRUCTIONS) throw new TooLargeError(this.op.length);
    return this.op.length - 1;
  }

  get pc(): number {
    return this.op.length;
  }
}

/** The least number of characters `nodes` can match. */
function minWidth(nodes: readonly Node[]): number {
  let w = 0;
  for (const node of nodes) {
    switch (node.kind) {
      case "lit":
      case "notlit":
      case "any":
      case "set":
        w += 1;
        break;
      case "branch":
        w += Math.min(...node.alts.map(minWidth));
        break;
      case "repeat":
        if (node.min > 0) w += node.min * minWidth(node.body);
        break;
      case "group":
        w += minWidth(node.body);
        break;
    }
  }
  return w;
}

/** About how many instructions `nodes` compile to (to refuse a huge pattern before building it). */
function sizeOf(nodes: readonly Node[]): number {
  let n = 0;
  for (const node of nodes) {
    switch (node.kind) {
      case "branch":
        n += node.alts.reduce((sum, alt) => sum + sizeOf(alt) + 2, 0);
        break;
      case "repeat": {
        const body = sizeOf(node.body) + 3;
        const optional = node.max === MAXREPEAT ? 1 : node.max - node.min;
        n += body * (node.min + optional);
        break;
      }
      case "group":
        n += sizeOf(node.body) + 2;
        break;
      default:
        n += 1;
    }
    if (n > MAX_INSTRUCTIONS) return n;
  }
  return n;
}

/** CPython's _combine_flags: a type flag (a, u, L) given to a group replaces the pattern's. */
function combineFlags(flags: number, add: number, del: number): number {
  if (add & TYPE_FLAGS) flags &= ~TYPE_FLAGS;
  return (flags | add) & ~del;
}

export function compile(parsed: Parsed, budget: Budget): Program {
  const estimate = sizeOf(parsed.nodes);
  if (estimate > MAX_INSTRUCTIONS) throw new TooLargeError(estimate);
  budget.step(STEPS_PER_INSTRUCTION * estimate);
  const e = new Emitter();
  const lastSlot = parsed.groups > 0 ? 2 * (parsed.groups + 1) : -1;
  const registerBase = 2 * (parsed.groups + 1) + 1;
  emitSeq(e, parsed.nodes, parsed.flags, registerBase, budget);
  e.emit(MATCH);
  const slots = registerBase + e.registers;
  if (e.pc * (e.loopDepth + 1) * slots > MAX_STATE) throw new TooLargeError(e.pc);
  const op = Int32Array.from(e.op);
  const a = Int32Array.from(e.a);
  const b = Int32Array.from(e.b);
  const nullable = minWidth(parsed.nodes) === 0;
  const first = nullable ? null : firstChars(op, a, b, e.tests);
  return {
    size: op.length,
    op,
    a,
    b,
    tests: e.tests,
    groups: parsed.groups,
    slots,
    lastSlot,
    loops: e.loops,
    loopDepth: e.loopDepth,
    nullable,
    prefix: literalPrefix(op, a),
    required: requiredText(parsed.nodes, parsed.flags),
    firstLatin: first?.latin ?? null,
    firstPcs: first?.pcs ?? [],
  };
}

function emitSeq(e: Emitter, nodes: readonly Node[], flags: number, registerBase: number, budget: Budget): void {
  for (const node of nodes) emitNode(e, node, flags, registerBase, budget);
}

/** What building a CharTest's table of the first 256 code points costs, in steps. */
const TEST_STEPS = 16;

/**
 * The test of a literal or set under `flags`, made once per compile for equal ones: a repeat's
 * copies of its body share them, and so do the same literal or set written many times.
 */
function charTest(e: Emitter, node: Node & { kind: "lit" | "notlit" | "set" }, flags: number, budget: Budget): CharTest | null {
  const relevant = flags & (FLAG.IGNORECASE | FLAG.UNICODE | FLAG.ASCII | FLAG.LOCALE);
  const key = node.kind === "set" ? `${relevant}${node.negate ? "^" : "["}${setKey(node.items)}` : `${relevant}${node.kind}${node.c}`;
  const cached = e.testCache.get(key);
  if (cached !== undefined) return cached;
  budget.step(TEST_STEPS);
  let test: CharTest | null;
  if (node.kind === "set") test = setTest(node.items, node.negate, flags, budget);
  else {
    test = literalTest(node.c, node.kind === "notlit", flags);
    if (test === null && node.kind === "notlit") {
      const c = node.c;
      test = new CharTest((x) => x !== c);
    }
  }
  e.testCache.set(key, test);
  return test;
}

/** A set's members as text, to find an equal set already built. */
function setKey(items: readonly SetItem[]): string {
  let key = "";
  for (const item of items) key += item.kind === "lit" ? `${item.c},` : item.kind === "range" ? `${item.lo}-${item.hi},` : `${item.cat},`;
  return key;
}

function emitNode(e: Emitter, node: Node, flags: number, registerBase: number, budget: Budget): void {
  switch (node.kind) {
    case "lit":
    case "notlit": {
      if (node.kind === "lit" && !(flags & FLAG.IGNORECASE)) {
        e.emit(CHAR, node.c);
        return;
      }
      const test = charTest(e, node, flags, budget);
      if (test !== null) e.emit(TEST, 0, 0, test);
      else e.emit(CHAR, node.c);
      return;
    }
    case "any":
      e.emit(flags & FLAG.DOTALL ? ANY_ALL : ANY);
      return;
    case "set":
      e.emit(TEST, 0, 0, charTest(e, node, flags, budget));
      return;
    case "at":
      e.emit(ASSERT, assertion(node.at, flags));
      return;
    case "branch": {
      const exits: number[] = [];
      node.alts.forEach((alt, i) => {
        if (i < node.alts.length - 1) {
          const split = e.emit(SPLIT);
          e.a[split] = e.pc;
          emitSeq(e, alt, flags, registerBase, budget);
          exits.push(e.emit(JMP));
          e.b[split] = e.pc;
        } else {
          emitSeq(e, alt, flags, registerBase, budget);
        }
      });
      for (const j of exits) e.a[j] = e.pc;
      return;
    }
    case "group": {
      const inner = combineFlags(flags, node.add, node.del);
      if (node.index !== null) e.emit(SAVE, 2 * node.index);
      emitSeq(e, node.body, inner, registerBase, budget);
      if (node.index !== null) e.emit(SAVE, 2 * node.index + 1);
      return;
    }
    case "repeat":
      emitRepeat(e, node, flags, registerBase, budget);
      return;
    case "unsupported":
      throw new Error("an unsupported construct reached the compiler");
  }
}

function emitRepeat(e: Emitter, node: Node & { kind: "repeat" }, flags: number, registerBase: number, budget: Budget): void {
  const { min, max, greedy, body } = node;
  for (let i = 0; i < min; i++) emitSeq(e, body, flags, registerBase, budget);
  if (max === min) return;
  const nullable = minWidth(body) === 0;
  const register = nullable ? registerBase + e.registers++ : -1;
  // One optional iteration: the choice to enter it, then the body. Returns the choice's pc.
  const iteration = (): number => {
    const choice = e.emit(SPLIT);
    const enter = e.pc;
    if (nullable) {
      e.emit(REP_START, register);
      e.openLoops.push(register);
      e.loopDepth = Math.max(e.loopDepth, e.openLoops.length);
    }
    emitSeq(e, body, flags, registerBase, budget);
    if (nullable) {
      // After an iteration that matched nothing, the repeat ends (its exit is patched in below).
      e.emit(REP_CHECK, register);
      e.openLoops.pop();
    }
    // The choice's branches, in priority order: a greedy repeat enters first.
    if (greedy) e.a[choice] = enter;
    else e.b[choice] = enter;
    return choice;
  };
  const choices: number[] = [];
  const checks: number[] = [];
  if (max === MAXREPEAT) {
    const choice = iteration();
    if (nullable) checks.push(e.pc - 1);
    e.emit(JMP, choice);
    choices.push(choice);
  } else {
    for (let i = min; i < max; i++) {
      choices.push(iteration());
      if (nullable) checks.push(e.pc - 1);
    }
  }
  const exit = e.pc;
  for (const choice of choices) {
    if (greedy) e.b[choice] = exit;
    else e.a[choice] = exit;
  }
  for (const check of checks) e.b[check] = exit;
}

function assertion(at: At, flags: number): number {
  const multiline = (flags & FLAG.MULTILINE) !== 0;
  const unicode = (flags & FLAG.UNICODE) !== 0;
  switch (at) {
    case "beginning":
      return multiline ? AT_BEGINNING_LINE : AT_BEGINNING;
    case "beginning_string":
      return AT_BEGINNING;
    case "end":
      return multiline ? AT_END_LINE : AT_END;
    case "end_string":
      return AT_END_STRING;
    case "boundary":
      return unicode ? AT_UNI_BOUNDARY : AT_BOUNDARY;
    case "non_boundary":
      return unicode ? AT_UNI_NON_BOUNDARY : AT_NON_BOUNDARY;
  }
}

/**
 * The longest run of literal characters that every match contains: consecutive literals of the
 * pattern's main sequence, or of groups and required repeats in it (not of alternatives). Only
 * literals compared exactly count (under IGNORECASE, characters without case).
 */
function requiredText(nodes: readonly Node[], flags: number): string {
  let best = "";
  let run = "";
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (const node of nodes) {
    if (node.kind === "lit" && (!(flags & FLAG.IGNORECASE) || !(flags & FLAG.UNICODE ? isCased(node.c) : isAsciiCased(node.c)))) {
      run += String.fromCodePoint(node.c);
      continue;
    }
    if (node.kind === "at") continue;
    end();
    let inner = "";
    if (node.kind === "group") inner = requiredText(node.body, combineFlags(flags, node.add, node.del));
    else if (node.kind === "repeat" && node.min > 0) inner = requiredText(node.body, flags);
    if (inner.length > best.length) best = inner;
  }
  end();
  return best;
}

/** The literal characters every match begins with. */
function literalPrefix(op: Int32Array, a: Int32Array): string {
  let prefix = "";
  for (let pc = 0; pc < op.length; pc++) {
    if (op[pc] === SAVE) continue;
    if (op[pc] !== CHAR) break;
    prefix += String.fromCodePoint(a[pc]!);
  }
  return prefix;
}

/**
 * The instructions that can consume a match's first character (assertions taken as passing), and
 * the characters below 256 any of them accepts.
 */
function firstChars(op: Int32Array, a: Int32Array, b: Int32Array, tests: readonly (CharTest | null)[]): { latin: Uint8Array; pcs: number[] } {
  const seen = new Uint8Array(op.length);
  const pcs: number[] = [];
  const stack = [0];
  while (stack.length > 0) {
    const pc = stack.pop()!;
    if (seen[pc]) continue;
    seen[pc] = 1;
    switch (op[pc]) {
      case SPLIT:
        stack.push(a[pc]!, b[pc]!);
        break;
      case JMP:
        stack.push(a[pc]!);
        break;
      case REP_CHECK:
        stack.push(pc + 1, b[pc]!);
        break;
      case SAVE:
      case ASSERT:
      case REP_START:
        stack.push(pc + 1);
        break;
      case MATCH:
        break;
      default:
        pcs.push(pc);
    }
  }
  const latin = new Uint8Array(256);
  for (const pc of pcs) {
    const o = op[pc];
    if (o === CHAR) {
      if (a[pc]! < 256) latin[a[pc]!] = 1;
    } else if (o === ANY || o === ANY_ALL) {
      for (let c = 0; c < 256; c++) if (o === ANY_ALL || c !== 10) latin[c] = 1;
    } else {
      const table = tests[pc]!.latin;
      for (let c = 0; c < 256; c++) latin[c] |= table[c]!;
    }
  }
  return { latin, pcs };
}
