// The string module of CPython 3.11: its constants, capwords, and Template (`$name`, `${name}`,
// `$$`), whose placeholders are ASCII identifiers and whose errors name the line and column of a
// stray `$` as CPython's do.
import { EXC, PyException, pyError } from "../errors.js";
import { PyClass, PyInstance } from "../instance.js";
import { lookupMethod } from "../methods/index.js";
import { bindPython } from "../py-bind.js";
import type { Kwargs, NativeContext, NativeFn } from "../native.js";
import { getItem } from "../ops.js";
import { str } from "../repr.js";
import { cpLength } from "../strings.js";
import { PyList, truthy, typeName, type Value } from "../values.js";

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const WHITESPACE = " \t\n\r\x0b\x0c";

/** capwords(s, sep=None): `(sep or ' ').join(map(str.capitalize, s.split(sep)))`, in that order. */
const capwords: NativeFn = (ctx, args, kwargs) => {
  const [s, sep] = bindPython("capwords", ["s", "sep"], [null], args, kwargs);
  const joiner = truthy(sep!) ? sep! : " ";
  const join = lookupMethod(joiner, "join");
  if (join === undefined) throw pyError("AttributeError", `'${typeName(joiner)}' object has no attribute 'join'`);
  const split = lookupMethod(s!, "split");
  if (split === undefined) throw pyError("AttributeError", `'${typeName(s!)}' object has no attribute 'split'`);
  const pieces = split(ctx, s!, [sep!], null) as PyList;
  const capitalize = lookupMethod("", "capitalize")!;
  return join(ctx, joiner, [new PyList(pieces.items.map((w) => capitalize(ctx, w, [], null)))], null);
};

// ------------------------------------------------------------------ Template

const isIdStart = (c: number) => c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isIdPart = (c: number) => isIdStart(c) || (c >= 48 && c <= 57);

/** One `$` of a template: `$$`, `$name`, `${name}`, or a stray `$` (invalid). */
type Placeholder = { start: number; end: number } & ({ kind: "escaped" } | { kind: "named"; name: string } | { kind: "invalid" });

function identifierEnd(t: string, i: number): number {
  if (i >= t.length || !isIdStart(t.charCodeAt(i))) return i;
  let j = i + 1;
  while (j < t.length && isIdPart(t.charCodeAt(j))) j++;
  return j;
}

/** The steps of one placeholder found and replaced (a look-up, a str(), a piece joined). */
const PLACEHOLDER_STEPS = 16;

/** The placeholders of `t`, left to right, as CPython's Template pattern finds them. */
function placeholders(ctx: NativeContext, t: string): Placeholder[] {
  ctx.budget.step(1 + (t.length >> 3));
  const out: Placeholder[] = [];
  for (let i = t.indexOf("$"); i >= 0; i = t.indexOf("$", i)) {
    ctx.budget.step(PLACEHOLDER_STEPS);
    const next = t.charCodeAt(i + 1);
    if (next === 36) {
      out.push({ kind: "escaped", start: i, end: i + 2 });
      i += 2;
      continue;
    }
    const named = identifierEnd(t, i + 1);
    if (named > i + 1) {
      out.push({ kind: "named", name: t.slice(i + 1, named), start: i, end: named });
      i = named;
      continue;
    }
    if (next === 123) {
      const braced = identifierEnd(t, i + 2);
      if (braced > i + 2 && t.charCodeAt(braced) === 125) {
        out.push({ kind: "named", name: t.slice(i + 2, braced), start: i, end: braced + 1 });
        i = braced + 1;
        continue;
      }
    }
    out.push({ kind: "invalid", start: i, end: i + 1 });
    i += 1;
  }
  return out;
}

/** Python's line boundaries (str.splitlines). */
const LINE_BREAK = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** CPython's error for a stray `$` at `at`: its line, and its column counted from 1, in code points. */
function invalidPlaceholder(t: string, at: number): never {
  const before = t.slice(0, at + 1);
  let line = 1;
  let lineStart = 0;
  for (const m of before.matchAll(LINE_BREAK)) {
    line++;
    lineStart = m.index! + m[0].length;
  }
  throw pyError("ValueError", `Invalid placeholder in string: line ${line}, col ${cpLength(before.slice(lineStart))}`);
}

const TEMPLATE = new PyClass("Template", "string", (_ctx, args, kwargs) => {
  const [template] = bindPython("Template.__init__", ["template"], [], args, kwargs, 1);
  return new Template(template!);
});
TEMPLATE.attrs.set("delimiter", "$");
TEMPLATE.attrs.set("idpattern", "(?a:[_a-z][_a-z0-9]*)");
TEMPLATE.attrs.set("braceidpattern", null);

class Template extends PyInstance {
  constructor(readonly template: Value) {
    super();
  }

  get cls(): PyClass {
    return TEMPLATE;
  }

  pyRepr(): string {
    return "<string.Template object>";
  }

  override pyAttr(name: string): Value | undefined {
    return name === "template" ? this.template : undefined;
  }

  /** The template text; CPython's regex refuses anything else. */
  text(): string {
    if (typeof this.template !== "string") throw pyError("TypeError", `expected string or bytes-like object, got '${typeName(this.template)}'`);
    return this.template;
  }
}

/**
 * `substitute(mapping={}, /, **kws)`: keywords first, then `mapping[name]` (a dict subclass's
 * __missing__ included), as CPython's ChainMap looks them up; undefined when neither has it.
 */
function lookup(ctx: NativeContext, method: string, args: Value[], kwargs: Kwargs | null): (name: string) => Value | undefined {
  if (args.length > 1) throw pyError("TypeError", `Template.${method}() takes from 1 to 2 positional arguments but ${args.length + 1} were given`);
  const mapping = args[0];
  return (name) => {
    const own = kwargs?.get(name);
    if (own !== undefined) return own;
    if (mapping === undefined) return undefined;
    try {
      return getItem(mapping, name, ctx.budget);
    } catch (e) {
      if (e instanceof PyException && e.type === EXC.KeyError) return undefined;
      throw e;
    }
  };
}

function substitute(ctx: NativeContext, self: Template, args: Value[], kwargs: Kwargs | null, safe: boolean): Value {
  const find = lookup(ctx, safe ? "safe_substitute" : "substitute", args, kwargs);
  const t = self.text();
  const parts: string[] = [];
  let last = 0;
  let size = 0;
  for (const p of placeholders(ctx, t)) {
    parts.push(t.slice(last, p.start));
    let piece: string;
    if (p.kind === "escaped") piece = "$";
    else if (p.kind === "invalid") {
      if (!safe) invalidPlaceholder(t, p.start);
      piece = "$";
    } else {
      const v = find(p.name);
      if (v === undefined) {
        if (!safe) throw new PyException(EXC.KeyError, [p.name]);
        piece = t.slice(p.start, p.end);
      } else piece = str(v);
    }
    size += piece.length;
    ctx.budget.checkSize(2 * (size + t.length));
    parts.push(piece);
    last = p.end;
  }
  parts.push(t.slice(last));
  return parts.join("");
}

TEMPLATE.methods.set("substitute", (ctx, self: Template, args, kwargs) => substitute(ctx, self, args, kwargs, false));
TEMPLATE.methods.set("safe_substitute", (ctx, self: Template, args, kwargs) => substitute(ctx, self, args, kwargs, true));
TEMPLATE.methods.set("get_identifiers", (ctx, self: Template, args, kwargs) => {
  bindPython("Template.get_identifiers", [], [], args, kwargs, 1);
  const names: string[] = [];
  for (const p of placeholders(ctx, self.text())) if (p.kind === "named" && !names.includes(p.name)) names.push(p.name);
  return new PyList(names);
});
TEMPLATE.methods.set("is_valid", (ctx, self: Template, args, kwargs) => {
  bindPython("Template.is_valid", [], [], args, kwargs, 1);
  return placeholders(ctx, self.text()).every((p) => p.kind !== "invalid");
});

export const STRING_MODULE: Record<string, NativeFn | Value> = {
  ascii_letters: LOWER + UPPER,
  ascii_lowercase: LOWER,
  ascii_uppercase: UPPER,
  digits: DIGITS,
  hexdigits: DIGITS + "abcdef" + "ABCDEF",
  octdigits: "01234567",
  punctuation: PUNCTUATION,
  printable: DIGITS + LOWER + UPPER + PUNCTUATION + WHITESPACE,
  whitespace: WHITESPACE,
  capwords,
  Template: TEMPLATE,
};
