// The functools module of CPython 3.11, the part scripts use: reduce, partial, cmp_to_key,
// lru_cache and cache (lru-cache.ts), wraps and update_wrapper.
//
// A partial (or cached) function whose body waits on a tool call works: the call goes through
// callMayWait and its result is the partial's. reduce's function runs synchronously, as every
// function given to a built-in does (a tool call there is refused with the usual advice).
import { PyFunction } from "../function.js";
import { EXC, PyExcType, PyException, pyError } from "../errors.js";
import { PyClass, PyInstance } from "../instance.js";
import type { Kwargs, NativeContext, NativeFn } from "../native.js";
import { PyBuiltin, PyType } from "../objects.js";
import { compare, equals, iterate, length, rewordNotIterable } from "../ops.js";
import { DONE } from "../objects.js";
import { DICT, OBJECT, MAP_ENTRY, sizeOf, SLOT, TUPLE } from "../sizes.js";
import { PyDict, PyList, PyRange, PyTuple, typeName, type Value } from "../values.js";
import { LruWrapper, lruCacheFunctions } from "./lru-cache.js";
import { bindPy } from "../py-bind.js";
import { isCallable } from "../builtins.js";

// ------------------------------------------------------------------ reduce

const reduce: NativeFn = (ctx, args, kwargs) => {
  if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", "reduce() takes no keyword arguments");
  if (args.length < 2) throw pyError("TypeError", `reduce expected at least 2 arguments, got ${args.length}`);
  if (args.length > 3) throw pyError("TypeError", `reduce expected at most 3 arguments, got ${args.length}`);
  const [fn, iterable] = args as [Value, Value];
  let next: () => Value | typeof DONE;
  try {
    next = iterate(iterable);
  } catch (e) {
    throw rewordNotIterable(e, iterable, () => "reduce() arg 2 must support iteration");
  }
  // A step per item, two per call (whatever is called: a built-in charges nothing itself). An
  // input that knows its size pays for its items first: reduce(f, range(10**9)) fails at once.
  let perItem = 3;
  if (iterable instanceof PyRange || iterable instanceof PyList || iterable instanceof PyTuple) {
    ctx.budget.step(3 * length(iterable));
    perItem = 0;
  }
  let value = args.length === 3 ? args[2]! : next();
  if (value === DONE) throw pyError("TypeError", "reduce() of empty iterable with no initial value");
  for (let item = next(); item !== DONE; item = next()) {
    ctx.budget.step(perItem);
    value = ctx.call(fn, [value, item]);
  }
  return value;
};

// ------------------------------------------------------------------ partial

class Partial extends PyInstance {
  /** `__name__` and `__doc__`, when update_wrapper set them (a partial has none of its own). */
  readonly dunders = new Map<string, Value>();

  constructor(
    readonly func: Value,
    readonly args: PyTuple,
    /** The keywords: the same dict every time it is read, as CPython's `p.keywords`. */
    readonly keywords: PyDict,
  ) {
    super();
  }

  get cls(): PyClass {
    return PARTIAL;
  }

  override get typeName(): string {
    return "functools.partial";
  }

  override heapBytes(): number {
    return OBJECT + TUPLE + DICT;
  }

  pyRepr(repr: (v: Value) => string): string {
    const parts = [repr(this.func), ...this.args.items.map(repr)];
    for (const [k, v] of this.keywords.entries()) parts.push(`${typeof k === "string" ? k : repr(k)}=${repr(v)}`);
    return `functools.partial(${parts.join(", ")})`;
  }

  override pyAttr(name: string): Value | undefined {
    if (name === "func") return this.func;
    if (name === "args") return this.args;
    if (name === "keywords") return this.keywords;
    return this.dunders.get(name);
  }

  /** func(*args, *more, **{**keywords, **extra}): the result is func's, even one that waits. */
  override pyCall(ctx: NativeContext, more: Value[], extra: Kwargs | null): Value {
    ctx.budget.step(1 + this.args.items.length + this.keywords.size);
    const args = this.args.items.length === 0 ? more : [...this.args.items, ...more];
    let kwargs: Kwargs | null = null;
    if (this.keywords.size > 0) {
      kwargs = new Map();
      for (const [k, v] of this.keywords.entries()) {
        if (typeof k !== "string") throw pyError("TypeError", "keywords must be strings");
        kwargs.set(k, v);
      }
      if (extra !== null) for (const [k, v] of extra) kwargs.set(k, v);
    } else kwargs = extra;
    return ctx.callMayWait(this.func, args, kwargs);
  }
}

const PARTIAL = new PyClass("partial", "functools", (ctx, args, kwargs) => {
  if (args.length === 0) throw pyError("TypeError", "type 'partial' takes at least one argument");
  let func: Value = args[0]!;
  if (!isCallable(func)) throw pyError("TypeError", "the first argument must be callable");
  let positional = args.slice(1);
  const keywords = new PyDict();
  // A partial of a partial is flattened into one, as CPython does.
  if (func instanceof Partial) {
    positional = [...func.args.items, ...positional];
    keywords.update(func.keywords);
    func = func.func;
  }
  if (kwargs !== null) for (const [k, v] of kwargs) keywords.set(k, v);
  ctx.budget.step(1 + positional.length + keywords.size);
  let bytes = SLOT * positional.length;
  for (const [k, v] of keywords.entries()) bytes += MAP_ENTRY + sizeOf(k) + sizeOf(v);
  ctx.budget.alloc(bytes);
  return new Partial(func, new PyTuple(positional), keywords);
});

// ------------------------------------------------------------------ cmp_to_key

/**
 * cmp_to_key(mycmp) and the K objects it makes: a K compares by calling mycmp on the two objects
 * it wraps (with the context it was made in: comparisons are not given one).
 */
class KeyWrapper extends PyInstance {
  constructor(
    readonly cmp: Value,
    /** The wrapped object; undefined for the factory cmp_to_key returned. */
    readonly obj: Value | undefined,
    private readonly ctx: NativeContext | null,
  ) {
    super();
  }

  get cls(): PyClass {
    return KEY_WRAPPER;
  }

  override get typeName(): string {
    return "functools.KeyWrapper";
  }

  pyRepr(): string {
    return "<functools.KeyWrapper object>";
  }

  override pyAttr(name: string): Value | undefined {
    return name === "obj" ? (this.obj ?? null) : undefined;
  }

  override pyHash(): null {
    return null;
  }

  override pyCall(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
    let obj = args[0];
    if (kwargs !== null) {
      for (const [k, v] of kwargs) {
        if (k !== "obj" || obj !== undefined) throw pyError("TypeError", k === "obj" ? "argument for K() given by name ('obj') and position (1)" : `K() got an unexpected keyword argument '${k}'`);
        obj = v;
      }
    }
    if (args.length > 1) throw pyError("TypeError", `K() takes at most 1 argument (${args.length} given)`);
    if (obj === undefined) throw pyError("TypeError", "K() missing required argument 'obj' (pos 1)");
    ctx.budget.step(1);
    return new KeyWrapper(this.cmp, obj, ctx);
  }

  /** mycmp(self.obj, other.obj), for `op` against 0. */
  private against(other: Value): Value {
    if (!(other instanceof KeyWrapper) || other.obj === undefined || this.obj === undefined || this.ctx === null) {
      throw pyError("TypeError", "other argument must be K instance");
    }
    return this.ctx.call(this.cmp, [this.obj, other.obj]);
  }

  override pyCompare(op: "<" | "<=" | ">" | ">=", other: Value, budget: Parameters<typeof compare>[3]): boolean {
    return compare(op, this.against(other), 0, budget);
  }

  override pyEquals(other: Value): boolean {
    return equals(this.against(other), 0);
  }
}

const KEY_WRAPPER = new PyClass("KeyWrapper", "functools", () => {
  throw pyError("TypeError", "cannot create 'functools.KeyWrapper' instances");
});

const cmpToKey: NativeFn = (_ctx, args, kwargs) => {
  let mycmp = args[0];
  if (kwargs !== null) {
    for (const [k, v] of kwargs) {
      if (k !== "mycmp" || mycmp !== undefined) throw pyError("TypeError", k === "mycmp" ? "argument for cmp_to_key() given by name ('mycmp') and position (1)" : `cmp_to_key() got an unexpected keyword argument '${k}'`);
      mycmp = v;
    }
  }
  if (args.length > 1) throw pyError("TypeError", `cmp_to_key() takes at most 1 argument (${args.length} given)`);
  if (mycmp === undefined) throw pyError("TypeError", "cmp_to_key() missing required argument 'mycmp' (pos 1)");
  return new KeyWrapper(mycmp, undefined, null);
};

// ------------------------------------------------------------------ update_wrapper and wraps

const WRAPPER_ASSIGNMENTS = new PyTuple(["__module__", "__name__", "__qualname__", "__doc__", "__annotations__"]);
const WRAPPER_UPDATES = new PyTuple(["__dict__"]);

/** The attributes update_wrapper copies here: the rest of CPython's list has no meaning in the sandbox. */
const COPIED = new Set(["__name__", "__doc__"]);

/** `obj.__name__` or `obj.__doc__`, or undefined where it has none (update_wrapper then skips it). */
function readDunder(ctx: NativeContext, obj: Value, name: "__name__" | "__doc__"): Value | undefined {
  if (obj instanceof PyFunction) {
    const own = obj.dunders?.get(name);
    if (own !== undefined) return own;
    // The docstring, where the function's code keeps one.
    return name === "__name__" ? obj.code.name : ((obj.code as { doc?: string | null }).doc ?? null);
  }
  if (obj instanceof PyInstance) return obj.pyAttr?.(name);
  if (name === "__name__") {
    if (obj instanceof PyBuiltin) return obj.name.slice(obj.name.lastIndexOf(".") + 1);
    if (obj instanceof PyType || obj instanceof PyExcType) return obj.name;
  }
  try {
    return ctx.getAttr(obj, name);
  } catch (e) {
    if (e instanceof PyException && e.type === EXC.AttributeError) return undefined;
    throw e;
  }
}

function writeDunder(obj: Value, name: "__name__" | "__doc__", value: Value): void {
  if (obj instanceof PyFunction) (obj.dunders ??= new Map()).set(name, value);
  else if (obj instanceof Partial || obj instanceof LruWrapper) obj.dunders.set(name, value);
  else throw pyError("AttributeError", `attribute '${name}' of '${typeName(obj)}' objects is not writable`);
}

/** update_wrapper's work: the wrapper takes the wrapped function's `__name__` and `__doc__`. */
function copyDunders(ctx: NativeContext, wrapper: Value, wrapped: Value, assigned: Value = WRAPPER_ASSIGNMENTS): void {
  const next = iterate(assigned);
  for (let attr = next(); attr !== DONE; attr = next()) {
    ctx.budget.step(1);
    if (typeof attr !== "string") throw pyError("TypeError", `attribute name must be string, not '${typeName(attr)}'`);
    if (!COPIED.has(attr)) continue;
    const name = attr as "__name__" | "__doc__";
    const value = readDunder(ctx, wrapped, name);
    if (value !== undefined) writeDunder(wrapper, name, value);
  }
}

const UPDATE_WRAPPER_SIGNATURE = { name: "update_wrapper", params: ["wrapper", "wrapped", "assigned", "updated"], required: 2 };

const updateWrapper = new PyBuiltin("update_wrapper", (ctx, args, kwargs) => {
  const [wrapper, wrapped, assigned] = bindPy(UPDATE_WRAPPER_SIGNATURE, args, kwargs);
  copyDunders(ctx, wrapper!, wrapped!, assigned);
  return wrapper!;
});

/** wraps(wrapped): partial(update_wrapper, wrapped=wrapped, assigned=..., updated=...), as in CPython. */
const wraps: NativeFn = (ctx, args, kwargs) => {
  const [wrapped, assigned, updated] = bindPy({ name: "wraps", params: ["wrapped", "assigned", "updated"], required: 1 }, args, kwargs);
  const keywords = new PyDict();
  keywords.set("wrapped", wrapped!);
  keywords.set("assigned", assigned ?? WRAPPER_ASSIGNMENTS);
  keywords.set("updated", updated ?? WRAPPER_UPDATES);
  ctx.budget.alloc(3 * MAP_ENTRY);
  return new Partial(updateWrapper, new PyTuple([]), keywords);
};

export const FUNCTOOLS_MODULE: Record<string, NativeFn | Value> = {
  reduce,
  partial: PARTIAL,
  cmp_to_key: cmpToKey,
  ...lruCacheFunctions(isCallable, (ctx, wrapper, wrapped) => copyDunders(ctx, wrapper, wrapped)),
  update_wrapper: updateWrapper,
  wraps,
  WRAPPER_ASSIGNMENTS,
  WRAPPER_UPDATES,
};
