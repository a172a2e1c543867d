// Python values as JavaScript values. The representation is chosen for speed on the common paths
// of orchestration scripts (ints, strings, lists and dicts of tool results):
//
//   None      -> null                  bool  -> boolean
//   int       -> number (a safe integer) or bigint (outside ±2^53; always normalized back)
//   float     -> PyFloat (boxed, so 1 and 1.0 stay distinct)
//   str       -> string (Python semantics are code points: see strings.ts)
//   list      -> PyList (wraps a JS array)            tuple -> PyTuple
//   dict      -> PyDict (insertion-ordered, Python hashing, never a JS object)
//   set       -> PySet (frozen for frozenset)         bytes -> PyBytes
//   range     -> PyRange            functions, modules, exceptions, host objects: their classes
//
// Tool results (JSON) map onto this directly: objects become PyDict, arrays PyList.

import { createHash } from "node:crypto";

import type { Budget } from "./budget.js";
import type { PyClass } from "./instance.js";

export type Value =
  | null
  | boolean
  | number
  | bigint
  | string
  | PyFloat
  | PyList
  | PyTuple
  | PyDict
  | PySet
  | PyBytes
  | PyRange
  | PyObject;

/**
 * Every other value (functions, modules, exceptions, iterators, host objects) is a PyObject. The
 * optional protocols below let a value type take part in the operations without the operations
 * knowing the type (a Tensor, the instances modules define: instance.ts documents the rest).
 */
export abstract class PyObject {
  /** The Python type name, as `type(x).__name__` would say. */
  abstract get typeName(): string;
  /** `len(x)`; absent: TypeError. */
  pyLen?(): number;
  /** `iter(x)`: a cursor giving items, then DONE. Absent: not iterable. */
  pyIter?(): () => Value | typeof import("./objects.js").DONE;
  /** `x[key]`; absent: not subscriptable. */
  pyGetItem?(key: Value, budget: Budget): Value;
  /** `item in x`; absent: iterate and compare, as CPython does for iterables. */
  pyContains?(item: Value, budget: Budget): boolean;
  /** `x.name` for a name its type's methods do not have; undefined: AttributeError. */
  pyAttr?(name: string): Value | undefined;
  /**
   * Its form as it crosses to a host (a tool argument, the result) when it has one of its own:
   * a Tensor a tool returned goes on as the payload it came as. Null: it has none (str() of it
   * is sent, or, where only JSON values may go, `strict`, it is refused with a TypeError naming
   * `what` that this method throws).
   */
  pyWire?(what: string, strict: boolean): string | null;
}

export class PyFloat {
  constructor(readonly v: number) {}
}

export class PyList {
  constructor(public items: Value[]) {}
}

export class PyTuple {
  constructor(readonly items: readonly Value[]) {}

  /** The module-defined class of a named tuple (named-tuple.ts), or null for a tuple. */
  get cls(): PyClass | null {
    return null;
  }
}

export const EMPTY_TUPLE = new PyTuple([]);

export class PyBytes {
  constructor(readonly bytes: Uint8Array) {}
}

export class PyRange {
  constructor(
    readonly start: number,
    readonly stop: number,
    readonly step: number,
  ) {}

  get length(): number {
    const { start, stop, step } = this;
    if (step > 0) return stop > start ? Math.floor((stop - start - 1) / step) + 1 : 0;
    return start > stop ? Math.floor((start - stop - 1) / -step) + 1 : 0;
  }

  at(i: number): number {
    return this.start + i * this.step;
  }
}

// ------------------------------------------------------------------ hashing

/**
 * The JS Map key of a hashable Python value. Equal Python values (1 == 1.0 == True) give the same
 * key. Strings are their own key; composite keys (tuples, frozensets, None) are strings that start
 * with NUL, and a real string starting with NUL is escaped with a second NUL.
 */
export type HashKey = string | number | bigint;

export class UnhashableError {
  constructor(readonly typeName: string) {}
}

/**
 * V8 hashes a string longer than this by its length alone, so long keys of one length all collide
 * in a Map (a dict of 1000 keys of 100 KB spent 26 s comparing them): such a str's key is its
 * SHA-256 instead, behind NUL and "L".
 */
export const MAX_OWN_KEY = 16383;

/** Whether a str is its own HashKey: not too long, not starting with NUL. */
export function isOwnKey(s: string): boolean {
  return s.length <= MAX_OWN_KEY && s.charCodeAt(0) !== 0;
}

/**
 * Whether `v` is its own HashKey, so that a dict or set looks it up without hashKey (which
 * charges nothing for it): a str isOwnKey accepts, or an int that is a JS number.
 */
export function isOwnHashKey(v: Value): v is string | number {
  return typeof v === "string" ? isOwnKey(v) : typeof v === "number";
}

/** The keys of the long strings hashed last (a loop looks the same one up again and again). */
const LONG_STRINGS: [string, string][] = [];

function longStringKey(s: string): string {
  for (const [t, k] of LONG_STRINGS) if (t === s) return k;
  // UTF-16 as is: lone surrogates included, so distinct strings never share a digest input.
  const k = "\u0000L" + createHash("sha256").update(s, "utf16le").digest("base64");
  if (LONG_STRINGS.length >= 8) LONG_STRINGS.pop();
  LONG_STRINGS.unshift([s, k]);
  return k;
}

export function hashKey(v: Value): HashKey {
  if (typeof v === "string") return v.length > MAX_OWN_KEY ? longStringKey(v) : v.charCodeAt(0) === 0 ? "\u0000\u0000" + v : v;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return bigKey(v);
  if (v === null) return "\u0000N";
  if (v instanceof PyFloat) return floatKey(v.v);
  if (v instanceof PyTuple || (v instanceof PySet && v.frozen)) return containerKey(v);
  if (v instanceof PyBytes) return "\u0000b" + Buffer.from(v.bytes).toString("latin1");
  // Equal ranges are the same sequence: range(0) == range(2, 2), range(1, 2) == range(1, 3, 5).
  if (v instanceof PyRange) return "\u0000r" + (v.length === 0 ? "" : v.length === 1 ? `${v.start}` : `${v.start},${v.step},${v.length}`);
  if (v instanceof PyObject) {
    if (hashableObjects.has(v.typeName)) return objectKey(v);
    // A module-defined type's instance (instance.ts) hashes as its type says.
    const own = (v as { pyHash?: () => HashKey | null }).pyHash;
    if (typeof own === "function") {
      const k = own.call(v);
      if (k !== null) return k;
    }
  }
  throw new UnhashableError(typeName(v));
}

/**
 * The key of a tuple or frozenset, remembered when long: both are immutable, and building the key
 * walks all of it (a dict keyed by one big tuple would rebuild it at every look-up).
 */
function containerKey(v: PyTuple | PySet): string {
  const cached = LONG_KEYS.get(v);
  if (cached !== undefined) return cached;
  const key = v instanceof PyTuple ? "\u0000(" + v.items.map(keyText).join(",") + ")" : "\u0000{" + [...v.map.keys()].map(keyTextOfKey).sort().join(",") + "}";
  if (key.length >= LONG_KEY) {
    LONG_KEYS.set(v, key);
    keyWork += key.length;
  }
  return key;
}

/** Units of key text built since the last takeKeyWork(): hashOf charges them to the execution. */
let keyWork = 0;

/** The key text built (long tuple and frozenset keys) since the last call, and starts again. */
export function takeKeyWork(): number {
  const work = keyWork;
  keyWork = 0;
  return work;
}

/** Keys at least this long are remembered (shorter ones cost less to rebuild than to look up). */
const LONG_KEY = 256;
const LONG_KEYS = new WeakMap<object, string>();

/** Functions, types, modules and other objects hash by identity. */
const hashableObjects = new Set(["function", "builtin_function_or_method", "type", "module", "method", "NoneType", "ellipsis"]);
const identities = new WeakMap<object, number>();
let nextIdentity = 1;
/** The key of an object hashed by identity (a module-defined type without a value hash). */
export function objectKey(o: object): string {
  let id = identities.get(o);
  if (id === undefined) {
    id = nextIdentity++;
    identities.set(o, id);
  }
  return "\u0000@" + id;
}

function floatKey(x: number): HashKey {
  if (Number.isInteger(x)) return Number.isSafeInteger(x) ? x : bigKey(BigInt(x));
  return x;
}

const KEY_TEXT_LIMIT = 1n << 16384n;
const KEY_TEXT_FLOOR = -KEY_TEXT_LIMIT;

/**
 * A big int's key: its hex text (linear to build), as V8 hashes a BigInt Map key by its low 64
 * bits alone: {i << 64: 0 for i in range(32000)} took 12 s of collisions. Past 16384 bits the
 * int itself, whose collisions are few (each such key costs 256 steps to make) and cheap.
 */
function bigKey(b: bigint): HashKey {
  return b < KEY_TEXT_LIMIT && b > KEY_TEXT_FLOOR ? "\u0000i" + b.toString(16) : b;
}

function keyText(v: Value): string {
  return keyTextOfKey(hashKey(v));
}

function keyTextOfKey(k: HashKey): string {
  if (typeof k === "string") return k.charCodeAt(0) === 0 ? k : JSON.stringify(k);
  if (typeof k === "bigint") return "\u0000i" + k.toString(16);
  return Number.isInteger(k) ? String(k) : "f" + String(k);
}

// ------------------------------------------------------------------ dict and set

export class PyDict {
  /** Values by key, in insertion order. */
  readonly map = new Map<HashKey, Value>();
  /** The original key where it is not the HashKey itself (floats, bools, tuples, None...). */
  private originals: Map<HashKey, Value> | null = null;
  /** The module-defined subclass (Counter, defaultdict, OrderedDict: instance.ts), or null for a dict. */
  get cls(): PyClass | null {
    return null;
  }

  get size(): number {
    return this.map.size;
  }

  get(key: Value): Value | undefined {
    return this.map.get(hashKey(key));
  }

  /** Sets `key`; an existing equal key keeps its original spelling, as in Python. */
  set(key: Value, value: Value): void {
    if (typeof key === "string" && isOwnKey(key)) {
      // Its own HashKey, with no original spelling to keep (the usual key of a tool result).
      this.map.set(key, value);
      return;
    }
    const k = hashKey(key);
    if (k !== key && !this.map.has(k)) (this.originals ??= new Map()).set(k, key);
    this.map.set(k, value);
  }

  has(key: Value): boolean {
    return this.map.has(hashKey(key));
  }

  delete(key: Value): boolean {
    const k = hashKey(key);
    this.originals?.delete(k);
    return this.map.delete(k);
  }

  clear(): void {
    this.map.clear();
    this.originals = null;
  }

  /** The Python key stored under HashKey `k`. */
  keyOf(k: HashKey): Value {
    const original = this.originals?.get(k);
    if (original !== undefined) return original;
    return typeof k === "string" && k.charCodeAt(0) === 0 && k.charCodeAt(1) === 0 ? k.slice(2) : (k as Value);
  }

  *keys(): IterableIterator<Value> {
    for (const k of this.map.keys()) yield this.keyOf(k);
  }

  /**
   * Sets every entry of `other`, in its order, as set() would one by one (an existing equal key
   * keeps its spelling here), without hashing the keys again.
   */
  update(other: PyDict): void {
    const originals = other.originals;
    for (const [k, v] of other.map) {
      if (originals !== null && !this.map.has(k)) {
        const original = originals.get(k);
        if (original !== undefined) (this.originals ??= new Map()).set(k, original);
      }
      this.map.set(k, v);
    }
  }

  *entries(): IterableIterator<[Value, Value]> {
    for (const [k, v] of this.map) yield [this.keyOf(k), v];
  }

  /** A dict with string keys, the shape of most tool results. */
  static fromStringRecord(record: Record<string, Value>): PyDict {
    const d = new PyDict();
    for (const key of Object.keys(record)) d.set(key, record[key]!);
    return d;
  }
}

export class PySet {
  readonly map = new Map<HashKey, Value>();

  constructor(readonly frozen = false) {}

  get size(): number {
    return this.map.size;
  }

  add(v: Value): void {
    const k = hashKey(v);
    if (!this.map.has(k)) this.map.set(k, v);
  }

  has(v: Value): boolean {
    return this.map.has(hashKey(v));
  }

  delete(v: Value): boolean {
    return this.map.delete(hashKey(v));
  }

  values(): IterableIterator<Value> {
    return this.map.values();
  }
}

// ------------------------------------------------------------------ type names and predicates

export function typeName(v: Value): string {
  switch (typeof v) {
    case "string":
      return "str";
    case "number":
    case "bigint":
      return "int";
    case "boolean":
      return "bool";
  }
  if (v === null) return "NoneType";
  if (v instanceof PyFloat) return "float";
  if (v instanceof PyList) return "list";
  if (v instanceof PyDict) return v.cls === null ? "dict" : v.cls.tpName;
  if (v instanceof PyTuple) return v.cls === null ? "tuple" : v.cls.tpName;
  if (v instanceof PySet) return v.frozen ? "frozenset" : "set";
  if (v instanceof PyBytes) return "bytes";
  if (v instanceof PyRange) return "range";
  return v.typeName;
}

/** A Python int (bool excluded). */
export function isInt(v: Value): v is number | bigint {
  return typeof v === "number" || typeof v === "bigint";
}

/** The int value of an int or bool, as bigint. */
export function toBigInt(v: number | bigint | boolean): bigint {
  return typeof v === "bigint" ? v : BigInt(typeof v === "boolean" ? (v ? 1 : 0) : v);
}

/** Normalizes an integer result: safe integers as numbers, the rest as bigint. */
export function normInt(v: bigint): number | bigint {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

/** An integer result of number arithmetic, made exact if it left the safe range. */
export function intResult(exact: () => bigint, approx: number): number | bigint {
  return Number.isSafeInteger(approx) ? approx : normInt(exact());
}

export function truthy(v: Value): boolean {
  switch (typeof v) {
    case "boolean":
      return v;
    case "number":
      return v !== 0;
    case "string":
      return v.length > 0;
    case "bigint":
      return v !== 0n;
  }
  if (v === null) return false;
  if (v instanceof PyList) return v.items.length > 0;
  if (v instanceof PyDict || v instanceof PySet) return v.size > 0;
  if (v instanceof PyFloat) return v.v !== 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof PyBytes) return v.bytes.length > 0;
  if (v instanceof PyRange) return v.length > 0;
  // Values defined elsewhere that decide their own truth (a Tensor).
  if (typeof (v as { pyBool?: unknown }).pyBool === "function") return (v as unknown as { pyBool(): boolean }).pyBool();
  return true;
}

/** A finite double as an exact fraction num/den, den a power of two (lowest terms). */
export function floatRatio(x: number): [bigint, bigint] {
  let num = x;
  let den = 1n;
  while (!Number.isInteger(num)) {
    num *= 2;
    den *= 2n;
  }
  let n = BigInt(num);
  while (den > 1n && n % 2n === 0n) {
    n /= 2n;
    den /= 2n;
  }
  return [n, den];
}
