// re.Pattern: a compiled pattern and what it does to a string (search, match, fullmatch,
// findall, finditer, split, sub, subn), as CPython's _sre.SRE_Pattern does it, including how
// successive matches treat an empty match (3.7+: one may follow a non-empty match at once, and
// none starts where the previous empty one was).
import type { Budget } from "../../budget.js";
import { pyError } from "../../errors.js";
import { PyClass, PyInstance } from "../../instance.js";
import { intArg, type NativeContext, type NativeMethod } from "../../native.js";
import { DONE, PyIterator } from "../../objects.js";
import { bytesRepr, strRepr } from "../../repr.js";
import { itemsSize, LIST, SLOT, storedSize } from "../../sizes.js";
import { type HashKey, PyBytes, PyDict, PyList, PyTuple, truthy, typeName, type Value } from "../../values.js";
import { clinic } from "./args.js";
import { compilePattern, type Compiled } from "./compiled.js";
import { expandPieces, joinPieces, Match, MATCH_STEPS, templateOf } from "./match.js";
import { FLAG } from "./parse.js";
import { position, type Subject, subjectOf } from "./subject.js";
import type { Template } from "./template.js";
import { type Found, FULLMATCH, MATCH_START, type Mode, SEARCH } from "./vm.js";
import { isCallable } from "../../builtins.js";

const FLAG_NAMES: [string, number][] = [
  ["re.TEMPLATE", FLAG.TEMPLATE],
  ["re.IGNORECASE", FLAG.IGNORECASE],
  ["re.LOCALE", FLAG.LOCALE],
  ["re.MULTILINE", FLAG.MULTILINE],
  ["re.DOTALL", FLAG.DOTALL],
  ["re.UNICODE", FLAG.UNICODE],
  ["re.VERBOSE", FLAG.VERBOSE],
  ["re.DEBUG", FLAG.DEBUG],
  ["re.ASCII", FLAG.ASCII],
];

export class Pattern extends PyInstance {
  private constructor(readonly compiled: Compiled) {
    super();
  }

  private static readonly made = new WeakMap<Compiled, Pattern>();

  /** The one Pattern of a compiled pattern (so that re.compile(p) is re.compile(p), as in CPython). */
  static of(compiled: Compiled): Pattern {
    let p = Pattern.made.get(compiled);
    if (p === undefined) Pattern.made.set(compiled, (p = new Pattern(compiled)));
    return p;
  }

  get cls(): PyClass {
    return PATTERN_CLASS;
  }

  /** CPython's tp_name, which its error messages show. */
  override get typeName(): string {
    return "re.Pattern";
  }

  /** Match.re */
  get value(): Value {
    return this;
  }

  override heapBytes(): number {
    return 64;
  }

  pyRepr(): string {
    const source = this.compiled.source;
    const text = Array.from(typeof source === "string" ? strRepr(source) : bytesRepr((source as PyBytes).bytes));
    let out = `re.compile(${text.length > 200 ? text.slice(0, 200).join("") : text.join("")}`;
    let flags = this.compiled.flags;
    if (this.compiled.istext && (flags & (FLAG.LOCALE | FLAG.UNICODE | FLAG.ASCII)) === FLAG.UNICODE) flags &= ~FLAG.UNICODE;
    const names: string[] = [];
    for (const [name, bit] of FLAG_NAMES) {
      if (flags & bit) {
        names.push(name);
        flags &= ~bit;
      }
    }
    if (flags) names.push(`0x${flags.toString(16)}`);
    if (names.length > 0) out += `, ${names.join("|")}`;
    return out + ")";
  }

  override pyAttr(name: string): Value | undefined {
    switch (name) {
      case "pattern":
        return this.compiled.source;
      case "flags":
        return this.compiled.flags;
      case "groups":
        return this.compiled.groups;
      case "groupindex": {
        const d = new PyDict();
        for (const [k, v] of this.compiled.groupIndex) d.set(k, v);
        return d;
      }
    }
    return undefined;
  }

  override pyHash(): HashKey {
    const source = this.compiled.source;
    const text = typeof source === "string" ? `s${source}` : `b${Array.from((source as PyBytes).bytes).join(",")}`;
    return `\u0000re.Pattern${this.compiled.flags}:${text}`;
  }

  override pyEquals(other: Value): boolean {
    return other instanceof Pattern && other.pyHash() === this.pyHash();
  }

  /** One match attempt of `mode` over the subject between Python positions pos and endpos. */
  attempt(ctx: NativeContext, subject: Subject, pos: number, endpos: number, mode: Mode): Match | null {
    ctx.budget.step(1);
    const start = subject.unit(pos);
    const end = subject.unit(endpos);
    if (mode === SEARCH && start > end) return null;
    const slots = this.compiled.machine.run(subject.text, start, end, mode, false, ctx.budget);
    if (slots === null) return null;
    ctx.budget.step(MATCH_STEPS);
    return new Match(this, subject, slots, pos, endpos);
  }
}

/** Successive matches as findall, finditer, split and sub take them. */
class Scan {
  private mustAdvance = false;
  private readonly found: Found = { from: 0, at: -2 };

  constructor(
    private readonly pattern: Pattern,
    readonly subject: Subject,
    private at: number,
    private readonly end: number,
  ) {}

  /** The slots of the next match, or null. */
  next(budget: Budget): Int32Array | null {
    if (this.at > this.end) return null;
    budget.step(1);
    const slots = this.pattern.compiled.machine.run(this.subject.text, this.at, this.end, SEARCH, this.mustAdvance, budget, this.found);
    if (slots === null) {
      this.at = this.end + 1;
      return null;
    }
    this.mustAdvance = slots[1] === slots[0];
    this.at = slots[1]!;
    return slots;
  }
}

/** The pos and endpos arguments over `subject`, as Python positions. */
function window(subject: Subject, posArg: Value | undefined, endposArg: Value | undefined): [number, number] {
  return [position(posArg, 0, subject.length), position(endposArg, subject.length, subject.length)];
}

function countArg(v: Value | undefined): number {
  return v === undefined ? 0 : intArg("", v);
}

function attemptMethod(name: string, mode: Mode): NativeMethod<Pattern> {
  return (ctx, self, args, kwargs) => {
    const [string, posArg, endposArg] = clinic(name, ["string", "pos", "endpos"], 1, args, kwargs);
    const subject = subjectOf(self.compiled, string!, ctx.budget);
    const [pos, endpos] = window(subject, posArg, endposArg);
    return self.attempt(ctx, subject, pos, endpos, mode);
  };
}

/** findall's item for a match: the whole match, the one group, or a tuple of the groups ('' when unmatched). */
function findallItem(self: Pattern, subject: Subject, slots: Int32Array): Value {
  const groups = self.compiled.groups;
  const text = (g: number) => (slots[2 * g]! < 0 || slots[2 * g + 1]! < 0 ? subject.empty : subject.slice(slots[2 * g]!, slots[2 * g + 1]!));
  if (groups === 0) return text(0);
  if (groups === 1) return text(1);
  const items: Value[] = [];
  for (let g = 1; g <= groups; g++) items.push(text(g));
  return new PyTuple(items);
}

/** What sub() puts in place of a match: a fixed value, or a function of the match. */
type Replacement = { kind: "value"; value: Value } | { kind: "template"; template: Template } | { kind: "call"; fn: Value };

function replacement(ctx: NativeContext, self: Pattern, repl: Value): Replacement {
  if (typeof repl === "string" && !repl.includes("\\")) return { kind: "value", value: repl };
  if (repl instanceof PyBytes && !repl.bytes.includes(0x5c)) return { kind: "value", value: repl };
  if (typeof repl !== "string" && !(repl instanceof PyBytes)) {
    if (isCallable(repl)) return { kind: "call", fn: repl };
  }
  const template = templateOf(repl, self.compiled, ctx.budget);
  if (template.groups.length === 0 && template.pieces.length === 1) {
    return { kind: "value", value: template.bytes ? new PyBytes(Uint8Array.from(template.pieces[0]!, (c) => c.charCodeAt(0))) : template.pieces[0]! };
  }
  return { kind: "template", template };
}

/** sub and subn: the new string and the number of replacements. */
function substitute(ctx: NativeContext, self: Pattern, repl: Value, string: Value, countValue: Value | undefined): [Value, number] {
  const subject = subjectOf(self.compiled, string, ctx.budget);
  const count = countArg(countValue);
  const how = replacement(ctx, self, repl);
  const scan = new Scan(self, subject, 0, subject.text.length);
  const pieces: Value[] = [];
  let done = 0;
  let n = 0;
  while (count === 0 || n < count) {
    const slots = scan.next(ctx.budget);
    if (slots === null) break;
    // The pieces so far (the text between matches, and slots for all) must fit in memory.
    if ((n & 1023) === 1023) ctx.budget.checkSize(2 * slots[0]! + SLOT * pieces.length);
    const [b, e] = [slots[0]!, slots[1]!];
    if (done < b) pieces.push(subject.slice(done, b));
    if (how.kind === "value") pieces.push(how.value);
    else {
      ctx.budget.step(MATCH_STEPS);
      const match = new Match(self, subject, slots, 0, subject.length);
      if (how.kind === "template") pieces.push(joinPieces(expandPieces(how.template, match), subject.isBytes, ctx.budget));
      else {
        const item = ctx.call(how.fn, [match]);
        if (item !== null) pieces.push(item);
      }
    }
    done = e;
    n++;
  }
  if (done < subject.text.length) pieces.push(subject.slice(done, subject.text.length));
  return [joinPieces(pieces, subject.isBytes, ctx.budget), n];
}

const METHODS: Record<string, NativeMethod<Pattern>> = {
  search: attemptMethod("search", SEARCH),
  match: attemptMethod("match", MATCH_START),
  fullmatch: attemptMethod("fullmatch", FULLMATCH),
  findall(ctx, self, args, kwargs) {
    const [string, posArg, endposArg] = clinic("findall", ["string", "pos", "endpos"], 1, args, kwargs);
    const subject = subjectOf(self.compiled, string!, ctx.budget);
    const [pos, endpos] = window(subject, posArg, endposArg);
    const scan = new Scan(self, subject, subject.unit(pos), subject.unit(endpos));
    const items: Value[] = [];
    ctx.budget.alloc(LIST);
    for (let slots = scan.next(ctx.budget); slots !== null; slots = scan.next(ctx.budget)) {
      const item = findallItem(self, subject, slots);
      ctx.budget.alloc(storedSize(item));
      items.push(item);
    }
    return new PyList(items);
  },
  finditer(ctx, self, args, kwargs) {
    const [string, posArg, endposArg] = clinic("finditer", ["string", "pos", "endpos"], 1, args, kwargs);
    const subject = subjectOf(self.compiled, string!, ctx.budget);
    const [pos, endpos] = window(subject, posArg, endposArg);
    const scan = new Scan(self, subject, subject.unit(pos), subject.unit(endpos));
    const budget = ctx.budget;
    return new PyIterator(() => {
      const slots = scan.next(budget);
      if (slots === null) return DONE;
      budget.step(MATCH_STEPS);
      return new Match(self, subject, slots, pos, endpos);
    }, "callable_iterator");
  },
  split(ctx, self, args, kwargs) {
    const [string, maxArg] = clinic("split", ["string", "maxsplit"], 1, args, kwargs);
    const subject = subjectOf(self.compiled, string!, ctx.budget);
    const maxsplit = countArg(maxArg);
    const scan = new Scan(self, subject, 0, subject.text.length);
    const items: Value[] = [];
    let last = 0;
    let n = 0;
    ctx.budget.alloc(LIST);
    while (maxsplit === 0 || n < maxsplit) {
      const slots = scan.next(ctx.budget);
      if (slots === null) break;
      const piece = subject.slice(last, slots[0]!);
      const found: Value[] = [piece];
      for (let g = 1; g <= self.compiled.groups; g++) {
        const s = slots[2 * g]!;
        const e = slots[2 * g + 1]!;
        found.push(s < 0 || e < 0 ? null : subject.slice(s, e));
      }
      ctx.budget.alloc(itemsSize(found));
      items.push(...found);
      n++;
      last = slots[1]!;
    }
    const tail = subject.slice(last, subject.text.length);
    ctx.budget.alloc(storedSize(tail));
    items.push(tail);
    return new PyList(items);
  },
  sub(ctx, self, args, kwargs) {
    const [repl, string, count] = clinic("sub", ["repl", "string", "count"], 2, args, kwargs);
    return substitute(ctx, self, repl!, string!, count)[0];
  },
  subn(ctx, self, args, kwargs) {
    const [repl, string, count] = clinic("subn", ["repl", "string", "count"], 2, args, kwargs);
    return new PyTuple(substitute(ctx, self, repl!, string!, count));
  },
};

/** What a call costs before it matches (its arguments, the subject's checks), in steps. */
const CALL_STEPS = 10;

export const PATTERN_CLASS = new PyClass("Pattern", "re", () => {
  throw pyError("TypeError", "cannot create 're.Pattern' instances");
});
for (const [name, method] of Object.entries(METHODS)) {
  PATTERN_CLASS.methods.set(name, (ctx, self, args, kwargs) => {
    ctx.budget.step(CALL_STEPS);
    return method(ctx, self, args, kwargs);
  });
}

/** re._compile: a Pattern given (flags must then be 0), or a str or bytes compiled with flags. */
export function patternOf(ctx: NativeContext, pattern: Value, flagsArg: Value | undefined): Pattern {
  const flags = flagsArg === undefined ? 0 : flagsArg;
  if (pattern instanceof Pattern) {
    if (truthy(flags)) throw pyError("ValueError", "cannot process flags argument with a compiled pattern");
    return pattern;
  }
  if (typeof pattern !== "string" && !(pattern instanceof PyBytes)) throw pyError("TypeError", "first argument must be string or compiled pattern");
  let bits: number;
  if (typeof flags === "number") bits = flags;
  else if (typeof flags === "boolean") bits = flags ? 1 : 0;
  else if (typeof flags === "bigint") throw pyError("OverflowError", "Python int too large to convert to C int");
  else throw pyError("TypeError", `unsupported operand type(s) for &: '${typeName(flags)}' and 'RegexFlag'`);
  return Pattern.of(compilePattern(pattern, bits, ctx.budget));
}
