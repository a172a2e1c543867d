// Binding arguments the way a function written in Python binds them, with CPython's messages:
// for the module functions CPython writes in Python (`textwrap.wrap`, `random.randint`,
// `statistics.mean`, `functools.cache`...), whose errors read as a def's do
// (`Random.randint() missing 1 required positional argument: 'b'`), which differs from the
// wording of the C functions native.ts's bind() follows. `exactly` is the C functions' own arity rule.
import { pyError, type PyException } from "./errors.js";
import type { Kwargs } from "./native.js";
import type { Value } from "./values.js";

export interface PySignature {
  /** The qualified name messages show: `Random.randint`, `mean`. */
  readonly name: string;
  /** Positional-or-keyword parameters, in order (a method's `self` left out). */
  readonly params: readonly string[];
  /** How many of them, from the first, are required; the rest have defaults. */
  readonly required: number;
  /** Keyword-only parameters, all optional. */
  readonly kwonly?: readonly string[];
  /** A method: CPython counts `self` in "takes N positional arguments". */
  readonly method?: boolean;
}

/**
 * The arguments bound to `sig`, positional-or-keyword ones first, then the keyword-only ones;
 * an optional one not given is undefined. Refusals are worded as CPython words them for a Python
 * function, in the order it checks them (keywords first, then the positional count, then what is
 * missing).
 */
export function bindPy(sig: PySignature, args: readonly Value[], kwargs: Kwargs | null): (Value | undefined)[] {
  const { params } = sig;
  const kwonly = sig.kwonly ?? [];
  const out: (Value | undefined)[] = new Array(params.length + kwonly.length);
  const count = Math.min(args.length, params.length);
  for (let i = 0; i < count; i++) out[i] = args[i];
  let kwonlyGiven = 0;
  if (kwargs !== null) {
    for (const [key, value] of kwargs) {
      let index = params.indexOf(key);
      if (index < 0) {
        const k = kwonly.indexOf(key);
        if (k < 0) throw pyError("TypeError", `${sig.name}() got an unexpected keyword argument '${key}'`);
        index = params.length + k;
        kwonlyGiven++;
      } else if (out[index] !== undefined) {
        throw pyError("TypeError", `${sig.name}() got multiple values for argument '${key}'`);
      }
      out[index] = value;
    }
  }
  if (args.length > params.length) throw tooMany(sig, args.length, kwonlyGiven);
  const missing: string[] = [];
  for (let i = 0; i < sig.required; i++) if (out[i] === undefined) missing.push(params[i]!);
  if (missing.length > 0) throw missingArguments(sig.name, missing);
  return out;
}

function tooMany(sig: PySignature, given: number, kwonlyGiven: number): PyException {
  const self = sig.method ? 1 : 0;
  const most = sig.params.length + self;
  const least = sig.required + self;
  const takes = least === most ? `${most} positional argument${most === 1 ? "" : "s"}` : `from ${least} to ${most} positional arguments`;
  const n = given + self;
  const were = kwonlyGiven > 0 ? `${n} positional argument${n === 1 ? "" : "s"} (and ${kwonlyGiven} keyword-only argument${kwonlyGiven === 1 ? "" : "s"}) were` : `${n} ${n === 1 ? "was" : "were"}`;
  return pyError("TypeError", `${sig.name}() takes ${takes} but ${were} given`);
}

function missingArguments(name: string, missing: string[]): PyException {
  const quoted = missing.map((m) => `'${m}'`);
  const list = quoted.length === 1 ? quoted[0] : quoted.length === 2 ? `${quoted[0]} and ${quoted[1]}` : `${quoted.slice(0, -1).join(", ")}, and ${quoted[quoted.length - 1]}`;
  return pyError("TypeError", `${name}() missing ${missing.length} required positional argument${missing.length === 1 ? "" : "s"}: ${list}`);
}

/** A C function of exactly `n` positional arguments (`heappush expected 2 arguments, got 1`). */
export function exactly(name: string, n: number, args: readonly Value[], kwargs: Kwargs | null, qualified = name): void {
  if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", `${qualified}() takes no keyword arguments`);
  if (args.length === n) return;
  if (n === 1) throw pyError("TypeError", `${qualified}() takes exactly one argument (${args.length} given)`);
  throw pyError("TypeError", `${name} expected ${n} arguments, got ${args.length}`);
}

/**
 * bindPy for a def whose optional parameters have defaults (`def __new__(_cls, x, y=5)`): the
 * values of all `names`, defaults filled in. `implicit` is 1 for a method (its `self` or `_cls`
 * counts in CPython's "takes N positional arguments").
 */
export function bindPython(
  qualname: string,
  names: readonly string[],
  defaults: readonly Value[],
  args: readonly Value[],
  kwargs: Kwargs | null,
  implicit: 0 | 1 = 0,
): Value[] {
  const required = names.length - defaults.length;
  const bound = bindPy({ name: qualname, params: names, required, method: implicit === 1 }, args, kwargs);
  return names.map((_, i) => {
    const value = bound[i];
    return value === undefined ? defaults[i - required]! : value;
  });
}
