// How the re module's callables take their arguments, with CPython's errors for each kind: the
// module's functions are Python functions (re/__init__.py), Pattern's and Match's methods are C
// (argument clinic, or positional-only METH_VARARGS).
import { pyError } from "../../errors.js";
import type { Kwargs } from "../../native.js";
import type { Value } from "../../values.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Binds the arguments of a Python function `fn(names...)` whose first `required` have no default. */
export function pyFunction(fn: string, names: readonly string[], required: number, args: Value[], kwargs: Kwargs | null): (Value | undefined)[] {
  if (args.length > names.length) {
    const takes = required === names.length ? `${names.length}` : `from ${required} to ${names.length}`;
    const given = args.length === 1 ? "1 was given" : `${args.length} were given`;
    throw pyError("TypeError", `${fn}() takes ${takes} positional argument${names.length === 1 && required === 1 ? "" : "s"} but ${given}`);
  }
  const out: (Value | undefined)[] = names.map((_, i) => args[i]);
  for (const [key, value] of kwargs ?? []) {
    const i = names.indexOf(key);
    if (i < 0) throw pyError("TypeError", `${fn}() got an unexpected keyword argument '${key}'`);
    if (out[i] !== undefined) throw pyError("TypeError", `${fn}() got multiple values for argument '${key}'`);
    out[i] = value;
  }
  const missing = names.slice(0, required).filter((_, i) => out[i] === undefined);
  if (missing.length > 0) {
    const list = missing.length === 1 ? `'${missing[0]}'` : `${missing.slice(0, -1).map((m) => `'${m}'`).join(", ")} and '${missing[missing.length - 1]}'`;
    throw pyError("TypeError", `${fn}() missing ${plural(missing.length, "required positional argument")}: ${list}`);
  }
  return out;
}

/** Binds the arguments of a C method declared with argument clinic (keywords allowed). */
export function clinic(fn: string, names: readonly string[], required: number, args: Value[], kwargs: Kwargs | null): (Value | undefined)[] {
  const given = args.length + (kwargs?.size ?? 0);
  if (given > names.length) {
    throw pyError("TypeError", `${fn}() takes at most ${plural(names.length, "argument")} (${given} given)`);
  }
  const out: (Value | undefined)[] = names.map((_, i) => args[i]);
  for (const [key, value] of kwargs ?? []) {
    const i = names.indexOf(key);
    if (i < 0) throw pyError("TypeError", `'${key}' is an invalid keyword argument for ${fn}()`);
    if (out[i] !== undefined) throw pyError("TypeError", `argument for ${fn}() given by name ('${key}') and position (${i + 1})`);
    out[i] = value;
  }
  for (let i = 0; i < required; i++) {
    if (out[i] === undefined) throw pyError("TypeError", `${fn}() missing required argument '${names[i]}' (pos ${i + 1})`);
  }
  return out;
}

/** A C method taking at most `max` positional arguments and no keywords (Match.start and the like). */
export function positional(qualified: string, fn: string, max: number, args: Value[], kwargs: Kwargs | null): void {
  if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", `${qualified}() takes no keyword arguments`);
  if (args.length > max) throw pyError("TypeError", `${fn} expected at most ${plural(max, "argument")}, got ${args.length}`);
}
