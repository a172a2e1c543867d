// re.Match: the result of a successful search, match or fullmatch, as CPython's _sre.SRE_Match.
import type { Budget } from "../../budget.js";
import { pyError } from "../../errors.js";
import { PyClass, PyInstance } from "../../instance.js";
import type { NativeMethod } from "../../native.js";
import { PyBytes, PyDict, PyList, PySet, PyTuple, typeName, type Value } from "../../values.js";
import { clinic, positional } from "./args.js";
import type { Compiled } from "./compiled.js";
import type { Subject } from "./subject.js";
import { literalValue, parseTemplate, type Template } from "./template.js";

/** What a Match needs of the Pattern it came from. */
export interface MatchSource {
  readonly compiled: Compiled;
  /** The Pattern object itself (Match.re). */
  readonly value: Value;
}

/** What making a Match costs, in steps (beyond the search that found it). */
export const MATCH_STEPS = 8;

export class Match extends PyInstance {
  constructor(
    readonly source: MatchSource,
    readonly subject: Subject,
    /** Unit offsets of each group's start and end (-1: not in the match), then lastindex. */
    readonly slots: Int32Array,
    readonly pos: number,
    readonly endpos: number,
  ) {
    super();
  }

  get cls(): PyClass {
    return MATCH_CLASS;
  }

  /** CPython's tp_name, which its error messages show. */
  override get typeName(): string {
    return "re.Match";
  }

  override heapBytes(): number {
    return 96 + 4 * this.slots.length;
  }

  get groupCount(): number {
    return this.source.compiled.groups;
  }

  /** The span of group `g` in Python positions, or [-1, -1]. */
  span(g: number): [number, number] {
    const s = this.slots[2 * g]!;
    const e = this.slots[2 * g + 1]!;
    if (s < 0 || e < 0) return [-1, -1];
    return [this.subject.index(s), this.subject.index(e)];
  }

  /** The text of group `g`, or `fallback` when it did not take part in the match. */
  group(g: number, fallback: Value = null): Value {
    const s = this.slots[2 * g]!;
    const e = this.slots[2 * g + 1]!;
    if (s < 0 || e < 0) return fallback;
    return this.subject.slice(s, e);
  }

  /** A group argument (an index or a name) as an index, or IndexError "no such group". */
  groupIndex(key: Value): number {
    let i = -1;
    if (typeof key === "number") i = key;
    else if (typeof key === "boolean") i = key ? 1 : 0;
    else if (typeof key === "bigint") i = -1;
    else if (typeof key === "string") i = this.source.compiled.groupIndex.get(key) ?? -1;
    else if (this.source.compiled.groupIndex.size > 0 && (key instanceof PyList || key instanceof PyDict || (key instanceof PySet && !key.frozen))) {
      throw pyError("TypeError", `unhashable type: '${typeName(key)}'`);
    }
    if (i < 0 || i > this.groupCount) throw pyError("IndexError", "no such group");
    return i;
  }

  get lastIndex(): number | null {
    const slot = this.source.compiled.program.lastSlot;
    if (slot < 0) return null;
    const last = this.slots[slot]!;
    return last > 0 ? last : null;
  }

  pyRepr(repr: (v: Value) => string): string {
    const [s, e] = this.span(0);
    const text = Array.from(repr(this.group(0)));
    return `<re.Match object; span=(${s}, ${e}), match=${text.length > 50 ? text.slice(0, 50).join("") : text.join("")}>`;
  }

  override pyAttr(name: string): Value | undefined {
    switch (name) {
      case "string":
        return this.subject.value;
      case "re":
        return this.source.value;
      case "pos":
        return this.pos;
      case "endpos":
        return this.endpos;
      case "lastindex":
        return this.lastIndex;
      case "lastgroup": {
        const last = this.lastIndex;
        return last === null ? null : (this.source.compiled.groupNames.get(last) ?? null);
      }
      case "regs": {
        const spans: Value[] = [];
        for (let g = 0; g <= this.groupCount; g++) spans.push(new PyTuple(this.span(g)));
        return new PyTuple(spans);
      }
    }
    return undefined;
  }

  override pyGetItem(key: Value): Value {
    return this.group(this.groupIndex(key));
  }
}

/** The template expanded for this match: its pieces (str or bytes values), to be joined. */
export function expandPieces(template: Template, match: Match): Value[] {
  const out: Value[] = [];
  let g = 0;
  for (const piece of template.pieces) {
    if (piece !== null) out.push(literalValue(piece, template.bytes));
    else {
      const value = match.group(template.groups[g++]!);
      if (value !== null && !isEmpty(value)) out.push(value);
    }
  }
  return out;
}

function isEmpty(v: Value): boolean {
  return v === "" || (v instanceof PyBytes && v.bytes.length === 0);
}

/**
 * Joins pieces as ''.join (or b''.join) does, with its TypeError for an item of the other type;
 * the total size is checked against the memory budget first.
 */
export function joinPieces(pieces: readonly Value[], bytes: boolean, budget: Budget): Value {
  let size = 0;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (bytes) {
      if (!(p instanceof PyBytes)) throw pyError("TypeError", `sequence item ${i}: expected a bytes-like object, ${typeName(p)} found`);
      size += p.bytes.length;
    } else {
      if (typeof p !== "string") throw pyError("TypeError", `sequence item ${i}: expected str instance, ${typeName(p)} found`);
      size += 2 * p.length;
    }
  }
  budget.checkSize(size);
  budget.step(1 + (size >> 5));
  if (!bytes) return (pieces as string[]).join("");
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of pieces as PyBytes[]) {
    out.set(p.bytes, at);
    at += p.bytes.length;
  }
  return new PyBytes(out);
}

function groupArg(self: Match, v: Value | undefined): number {
  return v === undefined ? 0 : self.groupIndex(v);
}

const METHODS: Record<string, NativeMethod<Match>> = {
  group(_ctx, self, args, kwargs) {
    positional("Match.group", "group", Infinity, args, kwargs);
    if (args.length === 0) return self.group(0);
    if (args.length === 1) return self.group(self.groupIndex(args[0]!));
    return new PyTuple(args.map((a) => self.group(self.groupIndex(a))));
  },
  groups(ctx, self, args, kwargs) {
    const [fallback] = clinic("groups", ["default"], 0, args, kwargs);
    const out: Value[] = [];
    for (let g = 1; g <= self.groupCount; g++) out.push(self.group(g, fallback ?? null));
    ctx.budget.step(1 + out.length);
    return new PyTuple(out);
  },
  groupdict(ctx, self, args, kwargs) {
    const [fallback] = clinic("groupdict", ["default"], 0, args, kwargs);
    const d = new PyDict();
    for (const [name, g] of self.source.compiled.groupIndex) d.set(name, self.group(g, fallback ?? null));
    ctx.budget.step(1 + d.size);
    return d;
  },
  start(_ctx, self, args, kwargs) {
    positional("Match.start", "start", 1, args, kwargs);
    return self.span(groupArg(self, args[0]))[0];
  },
  end(_ctx, self, args, kwargs) {
    positional("Match.end", "end", 1, args, kwargs);
    return self.span(groupArg(self, args[0]))[1];
  },
  span(_ctx, self, args, kwargs) {
    positional("Match.span", "span", 1, args, kwargs);
    return new PyTuple(self.span(groupArg(self, args[0])));
  },
  expand(ctx, self, args, kwargs) {
    const [templateArg] = clinic("expand", ["template"], 1, args, kwargs);
    const template = templateOf(templateArg!, self.source.compiled, ctx.budget);
    return joinPieces(expandPieces(template, self), self.subject.isBytes, ctx.budget);
  },
};

/** A template argument: a str or bytes, parsed; anything else is CPython's TypeError. */
export function templateOf(v: Value, compiled: Compiled, budget: Budget): Template {
  if (typeof v === "string" || v instanceof PyBytes) return parseTemplate(v, compiled, budget);
  throw pyError("TypeError", `decoding to str: need a bytes-like object, ${typeName(v)} found`);
}

export const MATCH_CLASS = new PyClass("Match", "re", () => {
  throw pyError("TypeError", "cannot create 're.Match' instances");
});
for (const [name, method] of Object.entries(METHODS)) MATCH_CLASS.methods.set(name, method);
