// collections.namedtuple(typename, field_names, *, rename=False, defaults=None, module=None): a
// class made by a call (no class syntax needed), checked as CPython checks its names.
import { isKeyword } from "../../../../grammar/tokens.js";
import { pyError } from "../../errors.js";
import { NamedTupleClass } from "../../named-tuple.js";
import type { Kwargs, NativeContext } from "../../native.js";
import { repr, str } from "../../repr.js";
import { truthy, type Value } from "../../values.js";

/** str.isidentifier(). */
const IDENTIFIER = /^[\p{XID_Start}_]\p{XID_Continue}*$/u;

const OPTIONS = ["rename", "defaults", "module"];

export function namedtuple(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  if (args.length > 2) throw pyError("TypeError", `namedtuple() takes 2 positional arguments but ${args.length} were given`);
  const given = new Map<string, Value>();
  for (const [k, v] of kwargs ?? []) {
    if (k === "typename" || k === "field_names") {
      if (args.length > (k === "typename" ? 0 : 1)) throw pyError("TypeError", `namedtuple() got multiple values for argument '${k}'`);
    } else if (!OPTIONS.includes(k)) throw pyError("TypeError", `namedtuple() got an unexpected keyword argument '${k}'`);
    given.set(k, v);
  }
  const typenameArg = args[0] ?? given.get("typename");
  const fieldsArg = args[1] ?? given.get("field_names");
  if (typenameArg === undefined || fieldsArg === undefined) {
    const missing = [typenameArg === undefined ? "'typename'" : null, fieldsArg === undefined ? "'field_names'" : null].filter((m) => m !== null);
    throw pyError("TypeError", `namedtuple() missing ${missing.length} required positional argument${missing.length > 1 ? "s" : ""}: ${missing.join(" and ")}`);
  }
  const rename = truthy(given.get("rename") ?? false);
  const names = typeof fieldsArg === "string" ? fieldsArg.replaceAll(",", " ").split(/\s+/).filter((s) => s !== "") : ctx.toList(fieldsArg).map((v) => str(v));
  ctx.budget.step(names.length + 1);
  const typename = str(typenameArg);
  if (rename) {
    const seen = new Set<string>();
    names.forEach((name, i) => {
      if (!IDENTIFIER.test(name) || isKeyword(name) || name.startsWith("_") || seen.has(name)) names[i] = `_${i}`;
      seen.add(name);
    });
  }
  for (const name of [typename, ...names]) {
    if (!IDENTIFIER.test(name)) throw pyError("ValueError", `Type names and field names must be valid identifiers: ${repr(name)}`);
    if (isKeyword(name)) throw pyError("ValueError", `Type names and field names cannot be a keyword: ${repr(name)}`);
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (name.startsWith("_") && !rename) throw pyError("ValueError", `Field names cannot start with an underscore: ${repr(name)}`);
    if (seen.has(name)) throw pyError("ValueError", `Encountered duplicate field name: ${repr(name)}`);
    seen.add(name);
  }
  const defaultsArg = given.get("defaults") ?? null;
  const defaults = defaultsArg === null ? [] : ctx.toList(defaultsArg);
  if (defaults.length > names.length) throw pyError("TypeError", "Got more default values than field names");
  const moduleArg = given.get("module") ?? null;
  // The class, its field table and its attributes.
  ctx.budget.alloc(512 + 160 * names.length);
  return new NamedTupleClass(typename, moduleArg === null ? "__main__" : str(moduleArg), names, defaults);
}
