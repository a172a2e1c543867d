// The re module: CPython 3.11's API over the sandbox's own linear-time engine (parse.ts ->
// program.ts -> vm.ts). What the engine cannot do in linear time (lookaround, backreferences,
// conditional and atomic groups, possessive repeats) is refused with a re.error saying so.
//
// Costs: compiling charges a step per character of the pattern and per instruction made (a
// compiled pattern is then cached for every execution); matching charges a step per thread the
// machine steps (the text's length times the live threads, at most the program's size) and per
// 16 characters it skips; every result (a list item, a piece of sub's output) is charged to the
// memory budget before it is kept, and sub's output is checked against it before it is joined.
import { pyError } from "../../errors.js";
import type { NativeContext, NativeFn } from "../../native.js";
import { PyBytes, typeName, type Value } from "../../values.js";
import { pyFunction } from "./args.js";
import { purgeCache } from "./compiled.js";
import { RE_ERROR } from "./error.js";
import { MATCH_CLASS } from "./match.js";
import { FLAG } from "./parse.js";
import { PATTERN_CLASS, patternOf } from "./pattern.js";
import { latin1 } from "./subject.js";

/** Calls the Pattern method `name` with the rest of the arguments. */
function viaPattern(ctx: NativeContext, pattern: Value, flags: Value | undefined, name: string, args: Value[]): Value {
  const p = patternOf(ctx, pattern, flags);
  return PATTERN_CLASS.method(name)!(ctx, p, args, null);
}

/** re.search(pattern, string, flags=0) and its kind: the Pattern method after compiling. */
function attempt(name: string): NativeFn {
  return (ctx, args, kwargs) => {
    const [pattern, string, flags] = pyFunction(name, ["pattern", "string", "flags"], 2, args, kwargs);
    return viaPattern(ctx, pattern!, flags, name, [string!]);
  };
}

/** The characters re.escape() puts a backslash before (CPython 3.7+). */
const SPECIAL = new Set("()[]{}?*+-|^$\\.&~# \t\n\r\v\f");

function escapeText(text: string): string {
  let out = "";
  for (const ch of text) out += SPECIAL.has(ch) ? "\\" + ch : ch;
  return out;
}

export const RE_MODULE: Record<string, NativeFn | Value> = {
  compile(ctx, args, kwargs) {
    const [pattern, flags] = pyFunction("compile", ["pattern", "flags"], 1, args, kwargs);
    return patternOf(ctx, pattern!, flags);
  },
  search: attempt("search"),
  match: attempt("match"),
  fullmatch: attempt("fullmatch"),
  findall: attempt("findall"),
  finditer: attempt("finditer"),
  split(ctx, args, kwargs) {
    const [pattern, string, maxsplit, flags] = pyFunction("split", ["pattern", "string", "maxsplit", "flags"], 2, args, kwargs);
    return viaPattern(ctx, pattern!, flags, "split", maxsplit === undefined ? [string!] : [string!, maxsplit]);
  },
  sub(ctx, args, kwargs) {
    const [pattern, repl, string, count, flags] = pyFunction("sub", ["pattern", "repl", "string", "count", "flags"], 3, args, kwargs);
    return viaPattern(ctx, pattern!, flags, "sub", count === undefined ? [repl!, string!] : [repl!, string!, count]);
  },
  subn(ctx, args, kwargs) {
    const [pattern, repl, string, count, flags] = pyFunction("subn", ["pattern", "repl", "string", "count", "flags"], 3, args, kwargs);
    return viaPattern(ctx, pattern!, flags, "subn", count === undefined ? [repl!, string!] : [repl!, string!, count]);
  },
  escape(ctx, args, kwargs) {
    const [pattern] = pyFunction("escape", ["pattern"], 1, args, kwargs);
    if (typeof pattern === "string") {
      ctx.budget.checkSize(4 * pattern.length);
      ctx.budget.step(1 + (pattern.length >> 3));
      return escapeText(pattern);
    }
    if (pattern instanceof PyBytes) {
      ctx.budget.checkSize(4 * pattern.bytes.length);
      ctx.budget.step(1 + (pattern.bytes.length >> 3));
      return new PyBytes(Uint8Array.from(escapeText(latin1(pattern.bytes)), (c) => c.charCodeAt(0)));
    }
    throw pyError("TypeError", `decoding to str: need a bytes-like object, ${typeName(pattern!)} found`);
  },
  purge(_ctx, args, kwargs) {
    pyFunction("purge", [], 0, args, kwargs);
    purgeCache();
    return null;
  },
  error: RE_ERROR,
  Pattern: PATTERN_CLASS,
  Match: MATCH_CLASS,
  NOFLAG: 0,
  A: FLAG.ASCII,
  ASCII: FLAG.ASCII,
  DEBUG: FLAG.DEBUG,
  I: FLAG.IGNORECASE,
  IGNORECASE: FLAG.IGNORECASE,
  L: FLAG.LOCALE,
  LOCALE: FLAG.LOCALE,
  M: FLAG.MULTILINE,
  MULTILINE: FLAG.MULTILINE,
  S: FLAG.DOTALL,
  DOTALL: FLAG.DOTALL,
  T: FLAG.TEMPLATE,
  TEMPLATE: FLAG.TEMPLATE,
  U: FLAG.UNICODE,
  UNICODE: FLAG.UNICODE,
  X: FLAG.VERBOSE,
  VERBOSE: FLAG.VERBOSE,
};
