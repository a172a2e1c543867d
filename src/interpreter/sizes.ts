// What values cost in V8's heap, for max_memory_bytes (SPEC §2): the one size model the budget's
// charges use. Figures were measured on Node 20 (x64, no pointer compression: 8-byte references)
// by test/interpreter/memory-charge.test.ts, which keeps checking them against the real heap.
//
// Where a charge happens:
// - O(n) storage (a list's or tuple()'s slots, a dict's or set's entries, the items a conversion
//   collects) is charged as it is made, before it grows;
// - an object's own fixed part (a tuple, a list's or dict's header, an iterator, an exception, a
//   function, a float, a string's characters) is charged when it is stored: put in a container,
//   collected by a conversion, or linked as an exception's cause or context. A temporary that is
//   never kept (the pair of `for k, v in d.items()`, an exception raised and caught) is not.
// A few results made natively in one go (str.split's pieces, set algebra) are charged as soon as
// they are made: the steps charged for the work beforehand bound how large they can get.
// A value stored twice is charged twice (an over-estimate; only the slot is real the second time).
import { PyBytes, PyDict, PyFloat, PyList, PyObject, PyRange, PySet, PyTuple, type Value } from "./values.js";

/** A reference in an array or an object field. */
export const SLOT = 8;
/** A Map entry (key, value, chain link, and its share of the buckets and of spare capacity). */
export const MAP_ENTRY = 32;
/** PyList, its JS array and the array's backing store header (the slots are charged apart). */
export const LIST = 96;
/** PyDict or PySet with its Map at the Map's initial capacity (entries are charged apart). */
export const DICT = 200;
/** PyTuple, its JS array and backing store header, before its slots. */
export const TUPLE = 80;
/** PyFloat and the HeapNumber box of its double. */
export const FLOAT = 40;
/**
 * A number outside V8's small integers: a 16-byte HeapNumber in a Map or a mixed array, unboxed
 * (0) in an array of numbers only; charged as the average.
 */
export const HEAP_NUMBER = 8;
/** A JS object whose size is not modelled closer (a range, a dict view, a module...). */
export const OBJECT = 48;
/** A PyIterator and the closure (JSFunction and Context) that is its `next`. */
export const ITERATOR = 112;
/** Each further closure an iterator holds: the cursors of its inputs, its own state. */
export const CLOSURE = 72;
/** PyCoroutine or PyFuture and the closure that starts it, with what that closure holds. */
export const COROUTINE = 248;
/**
 * A generator expression's generator: the iterator, its state, the closures of its cursors and
 * the object running its code, and its frame, before the frame's slots and cells and the cursor
 * of each clause.
 */
export const GENERATOR = 600;
/** PyBytes, its Uint8Array and ArrayBuffer, before the bytes themselves. */
export const BYTES = 240;
/** PyBoundMethod and its calling closure. */
export const BOUND_METHOD = 144;
/** PyFunction (code, defaults, closure array): its cells are charged apart. */
export const FUNCTION = 96;
/** A Cell a closure keeps, with its slot in the closure array. */
export const CELL = 40;
/** PyException with its (empty) attrs Map, traceback and hints arrays, before its args. */
export const EXCEPTION = 360;
/** One traceback entry ({ line, column, scope }) and its slot. */
export const TRACE_ENTRY = 48;

/** Tuples up to this length count the scalars they hold (strs, floats...) in their size. */
const SMALL_TUPLE = 8;
/**
 * ...but only the strs up to this length: a longer one in a tuple is most often one text shared
 * by many tuples (`(s, i) for i in ...`), whose characters were paid for where it was stored or
 * made, and charging it again in every tuple refused ordinary scripts.
 */
const TUPLE_TEXT = 256;
/** Bigints up to this many bits are measured; larger ones (made by arithmetic, checked there) are not walked. */
const MEASURED_BITS = 4096;

/** An object that knows its own size in the heap (iterators, exceptions, functions...). */
export interface Sized {
  heapBytes(): number;
}

/**
 * The bytes `s` holds: one-unit strings are V8's shared single-character strings. A short string
 * is taken as one byte a unit (V8's one-byte form, unless it holds a unit past 255: then it is
 * under-charged by at most 16 bytes); scanning it to know would cost more than storing it.
 */
export function stringBytes(s: string): number {
  const n = s.length;
  if (n <= 1) return 0;
  return (16 + (n <= 16 ? n : 2 * n) + 7) & ~7;
}

function bigintBytes(v: bigint): number {
  const m = v < 0n ? -v : v;
  if (m < 1n << 64n) return 24;
  if (m >= 1n << BigInt(MEASURED_BITS)) return 16 + MEASURED_BITS / 8;
  return 16 + 8 * Math.ceil(m.toString(16).length / 16);
}

/** The bytes `v` itself holds beyond a reference to it, not counting what it was charged as it grew. */
export function sizeOf(v: Value): number {
  switch (typeof v) {
    case "string":
      return stringBytes(v);
    case "number":
      // V8's small integers (31 bits and sign) live in the reference itself.
      return (v | 0) === v ? 0 : HEAP_NUMBER;
    case "bigint":
      return bigintBytes(v);
    case "boolean":
      return 0;
  }
  if (v === null) return 0;
  if (v instanceof PyFloat) return FLOAT;
  if (v instanceof PyTuple) {
    const items = v.items;
    let bytes = TUPLE + SLOT * items.length;
    if (items.length <= SMALL_TUPLE) for (const x of items) if (!(x instanceof PyTuple)) bytes += scalarBytes(x);
    return bytes;
  }
  if (v instanceof PyList) return LIST;
  if (v instanceof PyDict || v instanceof PySet) return DICT;
  if (v instanceof PyBytes) return BYTES + v.bytes.length;
  if (v instanceof PyRange) return OBJECT;
  if (v instanceof PyObject && typeof (v as Partial<Sized>).heapBytes === "function") return (v as unknown as Sized).heapBytes();
  return OBJECT;
}

/** sizeOf for what a small tuple holds: its strs and numbers; containers were charged where made. */
function scalarBytes(v: Value): number {
  if (typeof v === "string") return v.length <= TUPLE_TEXT ? stringBytes(v) : 0;
  if (typeof v === "number") return (v | 0) === v ? 0 : HEAP_NUMBER;
  if (typeof v === "bigint") return bigintBytes(v);
  if (v instanceof PyFloat) return FLOAT;
  return 0;
}

/**
 * The fixed part of a container an iterator keeps alive: its items are paid for where they are,
 * but a list made only to be iterated (`zip([i], [j])`) was never stored, so its header never was.
 */
export function headerSize(v: Value): number {
  if (v instanceof PyList) return LIST;
  if (v instanceof PyTuple) return TUPLE;
  if (v instanceof PyDict || v instanceof PySet) return DICT;
  return 0;
}

/** The memory a value keeps alive when stored in a list, a tuple or a conversion's result. */
export function storedSize(v: Value): number {
  return SLOT + sizeOf(v);
}

/** A dict entry `key: value`, or a set's element (value null). */
export function entrySize(key: Value, value: Value): number {
  return MAP_ENTRY + sizeOf(key) + sizeOf(value);
}

/** Every entry of a dict or set just built (a display): what entrySize charges for each. */
export function entriesSize(d: PyDict | PySet): number {
  let bytes = 0;
  if (d instanceof PySet) for (const x of d.values()) bytes += entrySize(x, null);
  // A key that is not its own hash key (a tuple, a frozenset, a big int) costs what the key
  // value costs; its hash text is kept once for the value (see hashKey), not once per dict.
  else for (const [k, v] of d.map) bytes += MAP_ENTRY + sizeOf(d.keyOf(k)) + sizeOf(v);
  return bytes;
}

/** Every item of a new list or tuple. */
export function itemsSize(items: readonly Value[]): number {
  let bytes = 0;
  for (const x of items) bytes += storedSize(x);
  return bytes;
}
