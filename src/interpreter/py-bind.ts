// Binding arguments the way a function written in Python binds them, with CPython's messages:
// for the module functions CPython writes in Python (`textwrap.wrap`, `shlex.split`...), whose
// errors read as a def's do (`wrap() missing 1 required positional argument: 'text'`).
import { pyError } from "./errors.js";
import type { Kwargs } from "./native.js";
import type { Value } from "./values.js";

/**
 * Binds arguments to the parameters of a function written in Python (`def __new__(_cls, x, y=5)`),
 * with the interpreter's wording for its errors. `implicit` counts the parameters before `names`
 * (`_cls`, `self`) that CPython includes in its counts.
 */
export function bindPython(
  qualname: string,
  names: readonly string[],
  defaults: readonly Value[],
  args: readonly Value[],
  kwargs: Kwargs | null,
  implicit = 0,
): Value[] {
  const required = names.length - defaults.length;
  if (args.length > names.length) {
    const most = names.length + implicit;
    const least = required + implicit;
    const takes = least === most ? `${most} positional argument${most === 1 ? "" : "s"}` : `from ${least} to ${most} positional arguments`;
    const given = args.length + implicit;
    throw pyError("TypeError", `${qualname}() takes ${takes} but ${given} ${given === 1 ? "was" : "were"} given`);
  }
  const out: (Value | undefined)[] = names.map((_, i) => args[i]);
  for (const [k, v] of kwargs ?? []) {
    const i = names.indexOf(k);
    if (i < 0) throw pyError("TypeError", `${qualname}() got an unexpected keyword argument '${k}'`);
    if (out[i] !== undefined) throw pyError("TypeError", `${qualname}() got multiple values for argument '${k}'`);
    out[i] = v;
  }
  const missing = names.filter((n, i) => i < required && out[i] === undefined);
  if (missing.length > 0) {
    const quoted = missing.map((n) => `'${n}'`);
    const list = quoted.length === 1 ? quoted[0] : quoted.length === 2 ? `${quoted[0]} and ${quoted[1]}` : `${quoted.slice(0, -1).join(", ")}, and ${quoted.at(-1)}`;
    throw pyError("TypeError", `${qualname}() missing ${missing.length} required positional argument${missing.length === 1 ? "" : "s"}: ${list}`);
  }
  return out.map((v, i) => (v === undefined ? defaults[i - required]! : v));
}
