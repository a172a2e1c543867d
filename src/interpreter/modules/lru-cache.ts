// functools.lru_cache and functools.cache: the C wrapper of CPython 3.11 (_lru_cache_wrapper) with
// its keys, hit and miss counts and eviction order, and cache_info()'s CacheInfo record.
//
// A cached function whose body waits on a tool call works: the call goes through callMayWait and
// its result is stored once it settles (a call that fails stores nothing, as in CPython).
import type { Budget } from "../budget.js";
import { TYPES } from "../builtins.js";
import { pyError } from "../errors.js";
import { classOf, PyClass, PyInstance } from "../instance.js";
import type { Kwargs, NativeContext, NativeFn } from "../native.js";
import { after, PyBuiltin } from "../objects.js";
import { compare, equals, getItem, hashOf, iterate } from "../ops.js";
import { entrySize, OBJECT, sizeOf } from "../sizes.js";
import { type HashKey, hashKey, isInt, PyDict, PyTuple, truthy, typeName, type Value } from "../values.js";
import { bindPy } from "../py-bind.js";

/** Separates positional arguments from keyword ones in a key, as CPython's kwd_mark does. */
const KWD_MARK = new PyBuiltin("kwd_mark", () => null);

/** Stand-ins for the types of values whose type is not a built-in type object (typed=True keys). */
const TYPE_MARKS = new Map<string, PyBuiltin>();

function typeMark(v: Value): Value {
  const own = classOf(v);
  if (own !== null) return own;
  const name = typeName(v);
  const builtin = Object.hasOwn(TYPES, name) ? TYPES[name] : undefined;
  if (builtin !== undefined) return builtin;
  let mark = TYPE_MARKS.get(name);
  if (mark === undefined) TYPE_MARKS.set(name, (mark = new PyBuiltin(name, () => null)));
  return mark;
}

/**
 * The cache key of a call, as CPython's lru_cache_make_key builds it: a lone int or str argument
 * is its own key; anything else is a tuple of the arguments, then the keywords after a marker,
 * then (typed) their types. So f(1) and f(1.0) are two entries, f(1.0) and f(True) one.
 */
function makeKey(args: Value[], kwargs: Kwargs | null, typed: boolean): Value {
  const keywords = kwargs === null ? 0 : kwargs.size;
  if (!typed && keywords === 0) {
    if (args.length === 1 && (isInt(args[0]!) || typeof args[0] === "string")) return args[0]!;
    return new PyTuple(args.slice());
  }
  const parts = args.slice();
  if (keywords > 0) {
    parts.push(KWD_MARK);
    for (const [k, v] of kwargs!) parts.push(k, v);
  }
  if (typed) {
    for (const a of args) parts.push(typeMark(a));
    if (keywords > 0) for (const v of kwargs!.values()) parts.push(typeMark(v));
  }
  return new PyTuple(parts);
}

/** What a function returned for a key, kept with the key. */
interface Entry {
  key: Value;
  value: Value;
}

export class LruWrapper extends PyInstance {
  /** Entries by the hash of their key, least recently used first (bounded caches move hits to the end). */
  readonly entries = new Map<HashKey, Entry>();
  hits = 0;
  misses = 0;
  /** `__name__` and `__doc__`, copied from the wrapped function as update_wrapper does. */
  readonly dunders = new Map<string, Value>();

  constructor(
    readonly func: Value,
    /** null: unbounded (maxsize=None). */
    readonly maxsize: number | null,
    readonly typed: boolean,
  ) {
    super();
  }

  get cls(): PyClass {
    return LRU_WRAPPER;
  }

  override get typeName(): string {
    return "functools._lru_cache_wrapper";
  }

  override heapBytes(): number {
    return 2 * OBJECT;
  }

  pyRepr(): string {
    return "<functools._lru_cache_wrapper object>";
  }

  override pyAttr(name: string): Value | undefined {
    return this.dunders.get(name);
  }

  override pyCall(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
    ctx.budget.step(1);
    if (this.maxsize === 0) {
      this.misses++;
      return ctx.callMayWait(this.func, args, kwargs);
    }
    const key = makeKey(args, kwargs, this.typed);
    const k = hashOf(key, ctx.budget);
    const hit = this.entries.get(k);
    if (hit !== undefined) {
      this.hits++;
      if (this.maxsize !== null) {
        this.entries.delete(k);
        this.entries.set(k, hit);
      }
      return hit.value;
    }
    this.misses++;
    return after(ctx.callMayWait(this.func, args, kwargs), (value: Value) => {
      this.store(ctx, k, key, value);
      return value;
    });
  }

  private store(ctx: NativeContext, k: HashKey, key: Value, value: Value): void {
    if (this.maxsize === null) {
      if (!this.entries.has(k)) ctx.budget.alloc(entrySize(key, value));
      this.entries.set(k, { key, value });
      return;
    }
    // The call itself may have cached this key (a recursive call): CPython keeps that entry.
    if (this.entries.has(k)) return;
    ctx.budget.alloc(entrySize(key, value));
    if (this.entries.size >= this.maxsize) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(k, { key, value });
  }
}

const FIELDS = ["hits", "misses", "maxsize", "currsize"] as const;

/** cache_info()'s named tuple: a tuple of four, with its fields as attributes. */
class CacheInfo extends PyInstance {
  private readonly tuple: PyTuple;

  constructor(fields: Value[]) {
    super();
    this.tuple = new PyTuple(fields);
  }

  get cls(): PyClass {
    return CACHE_INFO;
  }

  override heapBytes(): number {
    return OBJECT + sizeOf(this.tuple);
  }

  pyRepr(repr: (v: Value) => string): string {
    return `CacheInfo(${FIELDS.map((f, i) => `${f}=${repr(this.tuple.items[i]!)}`).join(", ")})`;
  }

  override pyAttr(name: string): Value | undefined {
    const i = (FIELDS as readonly string[]).indexOf(name);
    return i < 0 ? undefined : this.tuple.items[i];
  }

  override pyLen(): number {
    return FIELDS.length;
  }

  override pyIter() {
    return iterate(this.tuple);
  }

  override pyGetItem(key: Value, budget: Budget): Value {
    return getItem(this.tuple, key, budget);
  }

  override pyEquals(other: Value): boolean {
    return equals(this.tuple, other instanceof CacheInfo ? other.tuple : other);
  }

  override pyCompare(op: "<" | "<=" | ">" | ">=", other: Value, budget: Budget) {
    return compare(op, this.tuple, other instanceof CacheInfo ? other.tuple : other, budget);
  }

  /** Hashed as the tuple it is, so it finds a dict entry of the equal tuple. */
  override pyHash(): HashKey {
    return hashKey(this.tuple);
  }
}

const CACHE_INFO = new PyClass("CacheInfo", "functools", (_ctx, args) => new CacheInfo(args.slice(0, 4)));

const LRU_WRAPPER = new PyClass("_lru_cache_wrapper", "functools", () => {
  throw pyError("TypeError", "cannot create 'functools._lru_cache_wrapper' instances");
});

function noArguments(name: string, args: Value[], kwargs: Kwargs | null): void {
  if (args.length > 0 || (kwargs !== null && kwargs.size > 0)) throw pyError("TypeError", `${name}() takes no arguments (${args.length} given)`);
}

LRU_WRAPPER.methods.set("cache_info", (_ctx, self: LruWrapper, args, kwargs) => {
  noArguments("cache_info", args, kwargs);
  return new CacheInfo([self.hits, self.misses, self.maxsize, self.entries.size]);
});
LRU_WRAPPER.methods.set("cache_clear", (_ctx, self: LruWrapper, args, kwargs) => {
  noArguments("cache_clear", args, kwargs);
  self.entries.clear();
  self.hits = self.misses = 0;
  return null;
});
LRU_WRAPPER.methods.set("cache_parameters", (_ctx, self: LruWrapper, args, kwargs) => {
  if (args.length > 0) throw pyError("TypeError", `<lambda>() takes 0 positional arguments but ${args.length} ${args.length === 1 ? "was" : "were"} given`);
  if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", `<lambda>() got an unexpected keyword argument '${kwargs.keys().next().value}'`);
  return PyDict.fromStringRecord({ maxsize: self.maxsize, typed: self.typed });
});

/** CPython's callable(): what a call can be made on. */
export type CallableTest = (v: Value) => boolean;

/**
 * lru_cache(maxsize=128, typed=False), cache(user_function), built on what functools.ts gives:
 * the callable test and update_wrapper (which copies `__name__` and `__doc__`).
 */
export function lruCacheFunctions(isCallable: CallableTest, wrap: (ctx: NativeContext, wrapper: LruWrapper, wrapped: Value) => void): Record<string, NativeFn> {
  const make = (ctx: NativeContext, fn: Value, maxsize: number | null, typed: boolean): LruWrapper => {
    if (!isCallable(fn)) throw pyError("TypeError", "the first argument must be callable");
    const wrapper = new LruWrapper(fn, maxsize, typed);
    wrap(ctx, wrapper, fn);
    return wrapper;
  };
  const lru_cache: NativeFn = (_ctx, args, kwargs) => {
    const [maxsizeArg = 128, typedArg = false] = bindPy({ name: "lru_cache", params: ["maxsize", "typed"], required: 0 }, args, kwargs);
    let maxsize: number | null;
    if (isInt(maxsizeArg) || typeof maxsizeArg === "boolean") {
      const n = Number(maxsizeArg);
      maxsize = n < 0 ? 0 : n;
    } else if (isCallable(maxsizeArg) && typeof typedArg === "boolean") {
      // @lru_cache without parentheses: the function comes in place of maxsize.
      return make(_ctx, maxsizeArg, 128, typedArg);
    } else if (maxsizeArg === null) {
      maxsize = null;
    } else {
      throw pyError("TypeError", "Expected first argument to be an integer, a callable, or None");
    }
    const typed = truthy(typedArg);
    return new PyBuiltin("decorating_function", (ctx, a, k) => {
      const [fn] = bindPy({ name: "lru_cache.<locals>.decorating_function", params: ["user_function"], required: 1 }, a, k);
      return make(ctx, fn!, maxsize, typed);
    });
  };
  const cache: NativeFn = (ctx, args, kwargs) => {
    const [fn] = bindPy({ name: "cache", params: ["user_function"], required: 1 }, args, kwargs);
    return make(ctx, fn!, null, false);
  };
  return { lru_cache, cache };
}
