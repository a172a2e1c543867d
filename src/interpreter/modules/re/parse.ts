// The syntax of Python's regular expressions, parsed into a tree as CPython's re._parser does, with
// its error messages and positions. What the sandbox's linear-time engine cannot run (lookaround,
// backreferences, conditional groups, atomic groups, possessive repeats) parses as in CPython, so
// that a malformed pattern gets CPython's error, and is then refused with a message saying why.
import type { Value } from "../../values.js";
import { reError } from "./error.js";
import { cpLen, DIGITS, has, HEXDIGITS, IDENTIFIER, OCTDIGITS, pythonInt, quoteName, Tokenizer } from "./tokenizer.js";

export const FLAG = {
  TEMPLATE: 1,
  IGNORECASE: 2,
  LOCALE: 4,
  MULTILINE: 8,
  DOTALL: 16,
  UNICODE: 32,
  VERBOSE: 64,
  DEBUG: 128,
  ASCII: 256,
} as const;

/** Flags that say how characters are classified: only one may be in force. */
export const TYPE_FLAGS = FLAG.ASCII | FLAG.LOCALE | FLAG.UNICODE;
const GLOBAL_FLAGS = FLAG.DEBUG | FLAG.TEMPLATE;

/** sre's MAXREPEAT: a repeat count this large means "no upper bound". */
export const MAXREPEAT = 4294967295;
const MAXGROUPS = 1073741823;

export type Category = "digit" | "not_digit" | "space" | "not_space" | "word" | "not_word";
export type SetItem = { kind: "lit"; c: number } | { kind: "range"; lo: number; hi: number } | { kind: "cat"; cat: Category };
export type At = "beginning" | "end" | "beginning_string" | "end_string" | "boundary" | "non_boundary";

export type Node =
  | { kind: "lit"; c: number }
  | { kind: "notlit"; c: number }
  | { kind: "any" }
  | { kind: "set"; negate: boolean; items: SetItem[] }
  | { kind: "at"; at: At }
  | { kind: "branch"; alts: Node[][] }
  | { kind: "repeat"; min: number; max: number; greedy: boolean; body: Node[] }
  | { kind: "group"; index: number | null; add: number; del: number; body: Node[] }
  /** A construct the engine refuses, kept so that the rest of the pattern parses as in CPython. */
  | { kind: "unsupported" };

export interface Parsed {
  nodes: Node[];
  /** The pattern's flags with its global inline flags, and UNICODE for a str pattern without ASCII. */
  flags: number;
  /** Capturing groups, group 0 excluded. */
  groups: number;
  groupIndex: Map<string, number>;
  /** For each group (index 1 on), the group that contains it, or 0. */
  parents: number[];
}

const WHITESPACE = " \t\n\r\v\f";
const SPECIAL_CHARS = ".\\[{()*+?^$|";
const REPEAT_CHARS = "*+?{";

const ESCAPES: Record<string, number> = { "\\a": 7, "\\b": 8, "\\f": 12, "\\n": 10, "\\r": 13, "\\t": 9, "\\v": 11, "\\\\": 92 };

const CATEGORIES: Record<string, Node> = {
  "\\A": { kind: "at", at: "beginning_string" },
  "\\b": { kind: "at", at: "boundary" },
  "\\B": { kind: "at", at: "non_boundary" },
  "\\d": { kind: "set", negate: false, items: [{ kind: "cat", cat: "digit" }] },
  "\\D": { kind: "set", negate: false, items: [{ kind: "cat", cat: "not_digit" }] },
  "\\s": { kind: "set", negate: false, items: [{ kind: "cat", cat: "space" }] },
  "\\S": { kind: "set", negate: false, items: [{ kind: "cat", cat: "not_space" }] },
  "\\w": { kind: "set", negate: false, items: [{ kind: "cat", cat: "word" }] },
  "\\W": { kind: "set", negate: false, items: [{ kind: "cat", cat: "not_word" }] },
  "\\Z": { kind: "at", at: "end_string" },
};

const INLINE_FLAGS: Record<string, number> = {
  i: FLAG.IGNORECASE,
  L: FLAG.LOCALE,
  m: FLAG.MULTILINE,
  s: FLAG.DOTALL,
  x: FLAG.VERBOSE,
  a: FLAG.ASCII,
  t: FLAG.TEMPLATE,
  u: FLAG.UNICODE,
};

const isAsciiLetter = (c: string) => /^[a-zA-Z]$/.test(c);

/** Why the sandbox refuses a construct, said in every refusal. */
const LINEAR = "the sandbox's regular expressions run in linear time, without lookaround or backreferences";
const INSTEAD = "match more loosely and check the groups in Python, or use str methods (in, find, startswith, endswith, split)";

class State {
  flags: number;
  groups = 1;
  readonly groupIndex = new Map<string, number>();
  readonly closed = new Set<number>();
  readonly parents: number[] = [0];
  readonly open: number[] = [];
  readonly condRefs = new Map<number, number>();
  /** The first construct the engine refuses: its message and where it starts. */
  unsupported: { msg: string; pos: number } | null = null;

  constructor(flags: number) {
    this.flags = flags;
  }

  openGroup(name: string | null): number {
    const gid = this.groups++;
    if (this.groups > MAXGROUPS) throw reError("too many groups");
    if (name !== null) {
      const old = this.groupIndex.get(name);
      if (old !== undefined) throw reError(`redefinition of group name ${quoteName(name)} as group ${gid}; was group ${old}`);
      this.groupIndex.set(name, gid);
    }
    this.parents[gid] = this.open.length > 0 ? this.open[this.open.length - 1]! : 0;
    this.open.push(gid);
    return gid;
  }

  closeGroup(gid: number): void {
    this.closed.add(gid);
    this.open.pop();
  }

  refuse(what: string, pos: number): void {
    this.unsupported ??= { msg: `${what} are not supported: ${LINEAR}; ${INSTEAD}`, pos };
  }
}

/** Parses `chars` (the code points of a str pattern, or a character per byte of a bytes one). */
export function parse(chars: readonly string[], istext: boolean, source: Value, flags: number): Parsed {
  const tokens = new Tokenizer(chars, istext, source);
  const state = new State(flags);
  const nodes = parseSub(tokens, state, (flags & FLAG.VERBOSE) !== 0, 0);
  state.flags = fixFlags(istext, state.flags);
  if (tokens.next !== null) throw tokens.error("unbalanced parenthesis");
  for (const [g, pos] of state.condRefs) if (g >= state.groups) throw reError(`invalid group reference ${g}`, source, pos);
  if (state.unsupported !== null) {
    const { msg, pos } = state.unsupported;
    throw reError(msg, source, pos);
  }
  return { nodes, flags: state.flags, groups: state.groups - 1, groupIndex: state.groupIndex, parents: state.parents };
}

/** re._parser.fix_flags: the pattern's type decides which flags are allowed; str gets UNICODE. */
export function fixFlags(istext: boolean, flags: number): number {
  if (istext) {
    if (flags & FLAG.LOCALE) throw valueError("cannot use LOCALE flag with a str pattern");
    if (!(flags & FLAG.ASCII)) flags |= FLAG.UNICODE;
    else if (flags & FLAG.UNICODE) throw valueError("ASCII and UNICODE flags are incompatible");
  } else {
    if (flags & FLAG.UNICODE) throw valueError("cannot use UNICODE flag with a bytes pattern");
    if (flags & FLAG.LOCALE && flags & FLAG.ASCII) throw valueError("ASCII and LOCALE flags are incompatible");
  }
  return flags;
}

/** A ValueError raised while parsing (a thrown marker the module turns into the Python error). */
export class FlagsError {
  constructor(readonly message: string) {}
}

function valueError(message: string): FlagsError {
  return new FlagsError(message);
}

/** An alternation a|b|c. */
function parseSub(source: Tokenizer, state: State, verbose: boolean, nested: number): Node[] {
  if (nested > MAX_NESTING) throw new NestingError();
  const items: Node[][] = [];
  for (;;) {
    items.push(parseSeq(source, state, verbose, nested + 1, nested === 0 && items.length === 0));
    if (!source.match("|")) break;
    if (nested === 0) verbose = (state.flags & FLAG.VERBOSE) !== 0;
  }
  if (items.length === 1) return items[0]!;
  // Alternatives that are all single characters or sets make one set, as in CPython (which
  // matters to how case-insensitive sets treat characters outside the BMP).
  const set: SetItem[] = [];
  let asSet = true;
  for (const item of items) {
    const node = item[0];
    if (item.length !== 1 || node === undefined) {
      asSet = false;
      break;
    }
    if (node.kind === "lit") set.push({ kind: "lit", c: node.c });
    else if (node.kind === "set" && !node.negate) set.push(...node.items);
    else {
      asSet = false;
      break;
    }
  }
  if (asSet) return [{ kind: "set", negate: false, items: uniqueItems(set) }];
  return [{ kind: "branch", alts: items }];
}

/** Nesting of groups deeper than this fails (CPython's recursive parser stops near it too). */
const MAX_NESTING = 800;

/** Thrown when a pattern nests too deeply; the module raises it as RecursionError. */
export class NestingError {}

function uniqueItems(items: SetItem[]): SetItem[] {
  const seen = new Set<string>();
  const out: SetItem[] = [];
  for (const item of items) {
    const key = item.kind === "lit" ? `l${item.c}` : item.kind === "range" ? `r${item.lo}-${item.hi}` : `c${item.cat}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

function isRepeat(node: Node | undefined): boolean {
  return node !== undefined && node.kind === "repeat";
}

/** A sequence of items up to "|", ")" or the end. */
function parseSeq(source: Tokenizer, state: State, verbose: boolean, nested: number, first: boolean): Node[] {
  const seq: Node[] = [];
  for (;;) {
    const thisToken = source.next;
    if (thisToken === null) break;
    if (thisToken === "|" || thisToken === ")") break;
    source.get();
    if (verbose) {
      if (has(WHITESPACE, thisToken)) continue;
      if (thisToken === "#") {
        for (;;) {
          const c = source.get();
          if (c === null || c === "\n") break;
        }
        continue;
      }
    }
    if (thisToken.length > 1 && thisToken[0] === "\\") {
      seq.push(escape(source, thisToken, state));
    } else if (!SPECIAL_CHARS.includes(thisToken)) {
      seq.push({ kind: "lit", c: thisToken.codePointAt(0)! });
    } else if (thisToken === "[") {
      seq.push(parseSet(source));
    } else if (REPEAT_CHARS.includes(thisToken)) {
      if (!parseRepeat(source, state, seq, thisToken)) continue;
    } else if (thisToken === ".") {
      seq.push({ kind: "any" });
    } else if (thisToken === "(") {
      const parsed = parseGroup(source, state, verbose, nested, first && seq.length === 0);
      if (parsed === "flags") {
        verbose = (state.flags & FLAG.VERBOSE) !== 0;
        continue;
      }
      if (parsed !== null) seq.push(parsed);
    } else if (thisToken === "^") {
      seq.push({ kind: "at", at: "beginning" });
    } else if (thisToken === "$") {
      seq.push({ kind: "at", at: "end" });
    }
  }
  // Non-capturing groups without flags are their contents.
  const out: Node[] = [];
  for (const node of seq) {
    if (node.kind === "group" && node.index === null && node.add === 0 && node.del === 0) out.push(...node.body);
    else out.push(node);
  }
  return out;
}

/** A repeat after the previous item; false when "{" turned out to be a literal. */
function parseRepeat(source: Tokenizer, state: State, seq: Node[], thisToken: string): boolean {
  const here = source.tell();
  let min = 0;
  let max = MAXREPEAT;
  if (thisToken === "?") max = 1;
  else if (thisToken === "+") min = 1;
  else if (thisToken === "{") {
    if (source.next === "}") {
      seq.push({ kind: "lit", c: 0x7b });
      return false;
    }
    let lo = "";
    let hi = "";
    while (has(DIGITS, source.next)) lo += source.get();
    if (source.match(",")) {
      while (has(DIGITS, source.next)) hi += source.get();
    } else hi = lo;
    if (!source.match("}")) {
      seq.push({ kind: "lit", c: 0x7b });
      source.seek(here);
      return false;
    }
    if (lo) {
      min = repeatCount(lo);
    }
    if (hi) {
      max = repeatCount(hi);
      if (max < min) throw source.error("min repeat greater than max repeat", source.tell() - here);
    }
  }
  const last = seq[seq.length - 1];
  if (last === undefined || last.kind === "at") throw source.error("nothing to repeat", source.tell() - here + 1);
  if (isRepeat(last)) throw source.error("multiple repeat", source.tell() - here + 1);
  let body: Node[] = [last];
  if (last.kind === "group" && last.index === null && last.add === 0 && last.del === 0) body = last.body;
  let greedy = true;
  if (source.match("?")) greedy = false;
  else if (source.match("+")) state.refuse("possessive repeats (*+, ++, ?+, {m,n}+)", here - 1);
  seq[seq.length - 1] = { kind: "repeat", min, max, greedy, body };
  return true;
}

function repeatCount(digits: string): number {
  const n = Number(digits);
  if (n >= MAXREPEAT) throw new OverflowMarker("the repetition number is too large");
  return n;
}

/** An OverflowError raised while parsing. */
export class OverflowMarker {
  constructor(readonly message: string) {}
}

/** A character set [...]. */
function parseSet(source: Tokenizer): Node {
  const here = source.tell() - 1;
  const items: SetItem[] = [];
  const negate = source.match("^");
  for (;;) {
    const thisToken = source.get();
    if (thisToken === null) throw source.error("unterminated character set", source.tell() - here);
    if (thisToken === "]" && items.length > 0) break;
    let code1: SetItem;
    if (thisToken.length > 1 && thisToken[0] === "\\") code1 = classEscape(source, thisToken);
    else code1 = { kind: "lit", c: thisToken.codePointAt(0)! };
    if (source.match("-")) {
      const that = source.get();
      if (that === null) throw source.error("unterminated character set", source.tell() - here);
      if (that === "]") {
        items.push(code1, { kind: "lit", c: 0x2d });
        break;
      }
      const code2: SetItem = that.length > 1 && that[0] === "\\" ? classEscape(source, that) : { kind: "lit", c: that.codePointAt(0)! };
      const range = `${thisToken}-${that}`;
      if (code1.kind !== "lit" || code2.kind !== "lit" || code2.c < code1.c) {
        throw source.error(`bad character range ${range}`, cpLen(thisToken) + 1 + cpLen(that));
      }
      items.push({ kind: "range", lo: code1.c, hi: code2.c });
    } else {
      items.push(code1);
    }
  }
  const set = uniqueItems(items);
  if (set.length === 1 && set[0]!.kind === "lit") {
    const c = set[0]!.c;
    return negate ? { kind: "notlit", c } : { kind: "lit", c };
  }
  return { kind: "set", negate, items: set };
}

/** A code from \x, \u, \U, \N or octal digits, shared by escapes in and out of sets; null if none. */
function numericEscape(source: Tokenizer, escapeText: string): { c: number } | null {
  const c = escapeText[1]!;
  if (c === "x") {
    escapeText += source.getwhile(2, HEXDIGITS);
    if (escapeText.length !== 4) throw source.error(`incomplete escape ${escapeText}`, escapeText.length);
    return { c: parseInt(escapeText.slice(2), 16) };
  }
  if (c === "u" && source.istext) {
    escapeText += source.getwhile(4, HEXDIGITS);
    if (escapeText.length !== 6) throw source.error(`incomplete escape ${escapeText}`, escapeText.length);
    return { c: parseInt(escapeText.slice(2), 16) };
  }
  if (c === "U" && source.istext) {
    escapeText += source.getwhile(8, HEXDIGITS);
    if (escapeText.length !== 10) throw source.error(`incomplete escape ${escapeText}`, escapeText.length);
    const code = parseInt(escapeText.slice(2), 16);
    if (code > 0x10ffff) throw source.error(`bad escape ${escapeText}`, escapeText.length);
    return { c: code };
  }
  if (c === "N" && source.istext) {
    if (!source.match("{")) throw source.error("missing {");
    const name = source.getuntil("}", "character name");
    throw source.error(
      `named Unicode escapes (\\N{${name}}) are not supported in the sandbox; write the character itself or its \\u escape`,
      cpLen(name) + 4,
    );
  }
  return null;
}

function classEscape(source: Tokenizer, escapeText: string): SetItem {
  const simple = ESCAPES[escapeText];
  if (simple !== undefined) return { kind: "lit", c: simple };
  const category = CATEGORIES[escapeText];
  if (category !== undefined && category.kind === "set") return category.items[0]!;
  const numeric = numericEscape(source, escapeText);
  if (numeric !== null) return { kind: "lit", c: numeric.c };
  const c = escapeText.slice(1);
  if (has(OCTDIGITS, c)) {
    escapeText += source.getwhile(2, OCTDIGITS);
    const code = parseInt(escapeText.slice(1), 8);
    if (code > 0o377) throw source.error(`octal escape value ${escapeText} outside of range 0-0o377`, escapeText.length);
    return { kind: "lit", c: code };
  }
  if (!has(DIGITS, c) && cpLen(escapeText) === 2 && !isAsciiLetter(c)) return { kind: "lit", c: c.codePointAt(0)! };
  throw source.error(`bad escape ${escapeText}`, cpLen(escapeText));
}

function escape(source: Tokenizer, escapeText: string, state: State): Node {
  const category = CATEGORIES[escapeText];
  if (category !== undefined) return category;
  const simple = ESCAPES[escapeText];
  if (simple !== undefined) return { kind: "lit", c: simple };
  const numeric = numericEscape(source, escapeText);
  if (numeric !== null) return { kind: "lit", c: numeric.c };
  const c = escapeText.slice(1);
  if (c === "0") {
    escapeText += source.getwhile(2, OCTDIGITS);
    return { kind: "lit", c: parseInt(escapeText.slice(1), 8) };
  }
  if (has(DIGITS, c)) {
    // An octal escape, or a group reference.
    const start = source.tell() - escapeText.length;
    if (has(DIGITS, source.next)) {
      escapeText += source.get();
      if (has(OCTDIGITS, escapeText[1]!) && has(OCTDIGITS, escapeText[2]!) && has(OCTDIGITS, source.next)) {
        escapeText += source.get();
        const code = parseInt(escapeText.slice(1), 8);
        if (code > 0o377) throw source.error(`octal escape value ${escapeText} outside of range 0-0o377`, escapeText.length);
        return { kind: "lit", c: code };
      }
    }
    const group = Number(escapeText.slice(1));
    if (group < state.groups) {
      if (!state.closed.has(group)) throw source.error("cannot refer to an open group", escapeText.length);
      state.refuse("backreferences (\\1, (?P=name))", start);
      return { kind: "unsupported" };
    }
    throw source.error(`invalid group reference ${group}`, escapeText.length - 1);
  }
  if (cpLen(escapeText) === 2 && !isAsciiLetter(c)) return { kind: "lit", c: c.codePointAt(0)! };
  throw source.error(`bad escape ${escapeText}`, cpLen(escapeText));
}

/**
 * A group "(...)" whose "(" was just read: its node, null for a comment, or "flags" for global
 * inline flags (which change how the rest of the pattern parses).
 */
function parseGroup(source: Tokenizer, state: State, verbose: boolean, nested: number, first: boolean): Node | null | "flags" {
  const start = source.tell() - 1;
  let capture = true;
  let name: string | null = null;
  let add = 0;
  let del = 0;
  if (source.match("?")) {
    const char = source.get();
    if (char === null) throw source.error("unexpected end of pattern");
    if (char === "P") {
      if (source.match("<")) {
        name = source.getuntil(">", "group name");
        source.checkGroupName(name, 1);
      } else if (source.match("=")) {
        const ref = source.getuntil(")", "group name");
        source.checkGroupName(ref, 1);
        const gid = state.groupIndex.get(ref);
        if (gid === undefined) throw source.error(`unknown group name ${quoteName(ref)}`, cpLen(ref) + 1);
        if (!state.closed.has(gid)) throw source.error("cannot refer to an open group", cpLen(ref) + 1);
        state.refuse("backreferences (\\1, (?P=name))", start);
        return { kind: "unsupported" };
      } else {
        const next = source.get();
        if (next === null) throw source.error("unexpected end of pattern");
        throw source.error(`unknown extension ?P${next}`, cpLen(next) + 2);
      }
    } else if (char === ":") {
      capture = false;
    } else if (char === "#") {
      for (;;) {
        if (source.next === null) throw source.error("missing ), unterminated comment", source.tell() - start);
        if (source.get() === ")") break;
      }
      return null;
    } else if (char === "=" || char === "!" || char === "<") {
      let kind = char;
      if (char === "<") {
        const next = source.get();
        if (next === null) throw source.error("unexpected end of pattern");
        if (next !== "=" && next !== "!") {
          const hint = IDENTIFIER.test(next) ? "Python names a group with (?P<name>...), not (?<name>...)" : undefined;
          throw source.error(`unknown extension ?<${next}`, cpLen(next) + 2, hint);
        }
        kind = "<" + next;
      }
      parseSub(source, state, verbose, nested + 1);
      if (!source.match(")")) throw source.error("missing ), unterminated subpattern", source.tell() - start);
      state.refuse(kind.startsWith("<") ? `look-behind assertions (?${kind}...)` : `look-ahead assertions (?${kind}...)`, start);
      return { kind: "unsupported" };
    } else if (char === "(") {
      parseConditional(source, state, verbose, nested, start);
      return { kind: "unsupported" };
    } else if (char === ">") {
      capture = false;
      state.refuse("atomic groups (?>...)", start);
    } else if (INLINE_FLAGS[char] !== undefined || char === "-") {
      const flags = parseFlags(source, state, char);
      if (flags === null) {
        if (!first) throw source.error("global flags not at the start of the expression", source.tell() - start);
        return "flags";
      }
      [add, del] = flags;
      capture = false;
    } else {
      throw source.error(`unknown extension ?${char}`, cpLen(char) + 1);
    }
  }
  let group: number | null = null;
  if (capture) {
    try {
      group = state.openGroup(name);
    } catch (e) {
      if (name === null) throw e;
      const msg = String((e as { attrs?: Map<string, Value> }).attrs?.get("msg") ?? "");
      throw source.error(msg, cpLen(name) + 1);
    }
  }
  const subVerbose = (verbose || (add & FLAG.VERBOSE) !== 0) && !(del & FLAG.VERBOSE);
  const body = parseSub(source, state, subVerbose, nested + 1);
  if (!source.match(")")) throw source.error("missing ), unterminated subpattern", source.tell() - start);
  if (group !== null) state.closeGroup(group);
  return { kind: "group", index: group, add, del, body };
}

/** (?(id/name)yes|no): parsed for its errors, then refused. */
function parseConditional(source: Tokenizer, state: State, verbose: boolean, nested: number, start: number): void {
  const condName = source.getuntil(")", "group name");
  if (IDENTIFIER.test(condName)) {
    if (!state.groupIndex.has(condName)) throw source.error(`unknown group name ${quoteName(condName)}`, cpLen(condName) + 1);
  } else {
    const condGroup = pythonInt(condName);
    if (condGroup === null || condGroup < 0) throw source.error(`bad character in group name ${quoteName(condName)}`, cpLen(condName) + 1);
    if (condGroup === 0) throw source.error("bad group number", cpLen(condName) + 1);
    if (condGroup >= MAXGROUPS) throw source.error(`invalid group reference ${condGroup}`, cpLen(condName) + 1);
    if (!state.condRefs.has(condGroup)) state.condRefs.set(condGroup, source.tell() - cpLen(condName) - 1);
  }
  parseSeq(source, state, verbose, nested + 1, false);
  if (source.match("|")) {
    parseSeq(source, state, verbose, nested + 1, false);
    if (source.next === "|") throw source.error("conditional backref with more than two branches");
  }
  if (!source.match(")")) throw source.error("missing ), unterminated subpattern", source.tell() - start);
  state.refuse("conditional groups (?(group)yes|no)", start);
}

/** Inline flags after "(?": null for global ones "(?i)", else [add, del] for "(?i-m:". */
function parseFlags(source: Tokenizer, state: State, char: string | null): [number, number] | null {
  let add = 0;
  let del = 0;
  if (char !== "-") {
    for (;;) {
      const flag = INLINE_FLAGS[char!]!;
      if (source.istext) {
        if (char === "L") throw source.error("bad inline flags: cannot use 'L' flag with a str pattern");
      } else if (char === "u") {
        throw source.error("bad inline flags: cannot use 'u' flag with a bytes pattern");
      }
      add |= flag;
      if (flag & TYPE_FLAGS && (add & TYPE_FLAGS) !== flag) throw source.error("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
      char = source.get();
      if (char === null) throw source.error("missing -, : or )");
      if (char === ")" || char === "-" || char === ":") break;
      if (INLINE_FLAGS[char] === undefined) throw source.error(/^\p{L}$/u.test(char) ? "unknown flag" : "missing -, : or )", cpLen(char));
    }
  }
  if (char === ")") {
    state.flags |= add;
    return null;
  }
  if (add & GLOBAL_FLAGS) throw source.error("bad inline flags: cannot turn on global flag", 1);
  if (char === "-") {
    char = source.get();
    if (char === null) throw source.error("missing flag");
    if (INLINE_FLAGS[char] === undefined) throw source.error(/^\p{L}$/u.test(char) ? "unknown flag" : "missing flag", cpLen(char));
    for (;;) {
      const flag = INLINE_FLAGS[char!]!;
      if (flag & TYPE_FLAGS) throw source.error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
      del |= flag;
      char = source.get();
      if (char === null) throw source.error("missing :");
      if (char === ":") break;
      if (INLINE_FLAGS[char] === undefined) throw source.error(/^\p{L}$/u.test(char) ? "unknown flag" : "missing :", cpLen(char));
    }
  }
  if (del & GLOBAL_FLAGS) throw source.error("bad inline flags: cannot turn off global flag", 1);
  if (add & del) throw source.error("bad inline flags: flag turned on and off", 1);
  return [add, del];
}
