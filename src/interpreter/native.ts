// The calling convention of everything implemented in TypeScript (builtins, methods, module
// functions), and the helpers they share to read their arguments the way CPython does.
import type { Budget } from "./budget.js";
import { pyError } from "./errors.js";
import { repr, str } from "./repr.js";
import type { Pending } from "./objects.js";
import { isInt, PyFloat, typeName, type Value } from "./values.js";

export type Kwargs = Map<string, Value>;

/** What a native function may use from the running interpreter. */
export interface NativeContext {
  readonly budget: Budget;
  /**
   * Calls a Python callable (a key function, a `default=` hook) synchronously. A callable that
   * would suspend on a tool call raises RuntimeError: natives cannot wait.
   */
  call(fn: Value, args: Value[], kwargs?: Kwargs | null): Value;
  /**
   * Calls a Python callable for a native that forwards the call and returns its result as its own
   * (functools.partial, a cache wrapper, a decorator's wrapper): the result may be a Pending (the
   * callee waits on a tool call), which the native returns as is or continues with `after()`
   * (objects.ts). Never use it where the native needs the value synchronously.
   */
  callMayWait(fn: Value, args: Value[], kwargs?: Kwargs | null): Value;
  /** Appends to the captured standard output (charged to max_log_bytes). */
  write(text: string): void;
  /**
   * A hint for whoever reads the execution's result, even when the script succeeds (the
   * SandboxResult's `hints`); a text already noted is noted once. Natives pass fixed texts.
   */
  note(text: string): void;
  /**
   * The items of any iterable (list, tuple, str, dict keys, set, range, iterator...) as an array,
   * charging one step per item; TypeError "'int' object is not iterable" otherwise.
   */
  toList(v: Value): Value[];
  /** `asyncio.sleep`: a wait the execution owns, ended at its deadline (an awaitable's start). */
  sleep(seconds: number, result: Value): Pending;
  /**
   * Between two items of a long loop of a native (stepping.ts paces its loops with it): a
   * Pending to wait on when the execution's time slice is used up, so that the event loop gets a
   * turn; null to go on at once (and always null inside a callback, which cannot wait). Absent
   * where nothing else shares the event loop (a host's context for a single call).
   */
  pause?(): Pending | null;
  /** `obj.name` with the dialect's attributes only (`'{0.real}'.format(x)` reads fields with it). */
  getAttr(obj: Value, name: string): Value;
}

export type NativeFn = (ctx: NativeContext, args: Value[], kwargs: Kwargs | null) => Value;

/** A method of a built-in type: `self` first. */
export type NativeMethod<Self> = (ctx: NativeContext, self: Self, args: Value[], kwargs: Kwargs | null) => Value;

export interface Signature {
  /** Parameter names in order; positional-or-keyword unless listed in `positionalOnly`. */
  names: readonly string[];
  /** How many leading parameters are required. */
  required: number;
  /** Parameters that may only be passed by position (CPython's `/`). */
  positionalOnly?: number;
}

/**
 * Binds positional and keyword arguments to a signature; missing optional ones are undefined.
 * Errors follow CPython's wording for the common cases.
 */
export function bind(fnName: string, sig: Signature, args: Value[], kwargs: Kwargs | null): (Value | undefined)[] {
  const { names, required } = sig;
  const positionalOnly = sig.positionalOnly ?? 0;
  if (args.length > names.length) {
    const most = names.length;
    if (required === most) {
      throw pyError("TypeError", `${fnName}() takes exactly ${most === 1 ? "one argument" : `${most} arguments`} (${args.length} given)`);
    }
    throw pyError("TypeError", `${fnName}() takes at most ${most} argument${most === 1 ? "" : "s"} (${args.length} given)`);
  }
  const out: (Value | undefined)[] = names.map((_, i) => args[i]);
  if (kwargs) {
    for (const [key, value] of kwargs) {
      const index = names.indexOf(key);
      if (index < 0 || index < positionalOnly) {
        throw pyError("TypeError", `${fnName}() got an unexpected keyword argument '${key}'`);
      }
      if (out[index] !== undefined) {
        throw pyError("TypeError", `argument for ${fnName}() given by name ('${key}') and position (${index + 1})`);
      }
      out[index] = value;
    }
  }
  for (let i = 0; i < required; i++) {
    if (out[i] === undefined) {
      if (kwargs === null && required === names.length && positionalOnly >= required) {
        throw pyError(
          "TypeError",
          `${fnName}() takes exactly ${required === 1 ? "one argument" : `${required} arguments`} (${args.length} given)`,
        );
      }
      throw pyError("TypeError", `${fnName}() missing required argument '${names[i]}' (pos ${i + 1})`);
    }
  }
  return out;
}

/** Rejects keyword arguments for natives that take none. */
export function noKwargs(fnName: string, kwargs: Kwargs | null): void {
  if (kwargs && kwargs.size > 0) throw pyError("TypeError", `${fnName}() takes no keyword arguments`);
}

/** An int argument (bools count, as in Python), as a JS number; bigints outside the safe range are refused. */
export function intArg(fnName: string, v: Value, what = "argument"): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") throw pyError("OverflowError", "Python int too large to convert to C ssize_t");
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
  void fnName;
  void what;
}

/** A str argument. */
export function strArg(fnName: string, v: Value, position = "argument"): string {
  if (typeof v === "string") return v;
  throw pyError("TypeError", `${fnName}() ${position} must be str, not ${typeName(v)}`);
}

/** A number as a JS double (int, bool or float), or a TypeError naming the expected type. */
export function floatArg(fnName: string, v: Value): number {
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return Number(v);
  throw pyError("TypeError", `must be real number, not ${typeName(v)}`);
  void fnName;
}

export function isNumber(v: Value): v is number | bigint | boolean | PyFloat {
  return isInt(v) || typeof v === "boolean" || v instanceof PyFloat;
}

export { repr, str };
