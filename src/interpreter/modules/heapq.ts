// The heapq module of CPython 3.11: its C part (_heapq: heappush, heappop, heapify, heapreplace,
// heappushpop) and its Python part (nlargest, nsmallest, merge). The sifts are CPython's, swap for
// swap and comparison for comparison (`<` only), so a heap ends in the same layout, and an
// unorderable pair fails on the same comparison with the same message.
//
// Budget: a step per comparison and per item consumed, two per key call; a pushed item is
// charged as a list slot. An input that knows its size pays for its items up front.
import { pyError } from "../errors.js";
import type { NativeContext, NativeFn } from "../native.js";
import { DONE, PyIterator } from "../objects.js";
import { compare, equals, getItem, iterate, length, SliceValue } from "../ops.js";
import { sortValues } from "../methods/containers.js";
import { CLOSURE, ITERATOR, itemsSize, storedSize } from "../sizes.js";
import { PyList, truthy, typeName, type Value } from "../values.js";
import { bindPy, exactly, type PySignature } from "../py-bind.js";

type Less<T = Value> = (a: T, b: T) => boolean;

/** A heap's array: a script's list, or one of the module's own (nlargest's, merge's). */
interface Heap<T = Value> {
  items: T[];
}

/** A key function's call: two steps (a call, and its result's handling), whatever it is. */
function keyed(ctx: NativeContext, key: Value, item: Value): Value {
  if (key === null) return item;
  ctx.budget.step(2);
  return ctx.call(key, [item]);
}

/** `a < b`, a step each. */
function lessOf(ctx: NativeContext): Less {
  return (a, b) => {
    ctx.budget.step(1);
    return compare("<", a, b, ctx.budget);
  };
}

/** The same order reversed, for the max-heaps of nsmallest and merge(reverse=True). */
const reversedLess = <T>(less: Less<T>): Less<T> => (a, b) => less(b, a);

function changedSize(): never {
  throw pyError("RuntimeError", "list changed size during iteration");
}

/** Moves the item at `pos` up towards `start` while it is less than its parent (CPython's siftdown). */
function siftDown<T>(heap: Heap<T>, start: number, pos: number, less: Less<T>): void {
  const size = heap.items.length;
  if (pos >= size) throw pyError("IndexError", "index out of range");
  while (pos > start) {
    const parentPos = (pos - 1) >> 1;
    const smaller = less(heap.items[pos]!, heap.items[parentPos]!);
    // A comparison may run a script's function (a cmp_to_key key) that changes the list.
    if (heap.items.length !== size) changedSize();
    if (!smaller) break;
    const items = heap.items;
    const parent = items[parentPos]!;
    items[parentPos] = items[pos]!;
    items[pos] = parent;
    pos = parentPos;
  }
}

/** Moves the smaller child up until `pos` is a leaf, then sifts the item there down (CPython's siftup). */
function siftUp<T>(heap: Heap<T>, pos: number, less: Less<T>): void {
  const end = heap.items.length;
  const start = pos;
  if (pos >= end) throw pyError("IndexError", "index out of range");
  const limit = end >> 1;
  while (pos < limit) {
    let child = 2 * pos + 1;
    if (child + 1 < end) {
      if (!less(heap.items[child]!, heap.items[child + 1]!)) child++;
      if (heap.items.length !== end) changedSize();
    }
    const items = heap.items;
    const t = items[child]!;
    items[child] = items[pos]!;
    items[pos] = t;
    pos = child;
  }
  siftDown(heap, start, pos, less);
}

function heapify<T>(heap: Heap<T>, less: Less<T>): void {
  for (let i = (heap.items.length >> 1) - 1; i >= 0; i--) siftUp(heap, i, less);
}

function pop<T>(heap: Heap<T>, less: Less<T>): T {
  const items = heap.items;
  if (items.length === 0) throw pyError("IndexError", "index out of range");
  const last = items.pop()!;
  if (items.length === 0) return last;
  const top = items[0]!;
  items[0] = last;
  siftUp(heap, 0, less);
  return top;
}

function replace<T>(heap: Heap<T>, item: T, less: Less<T>): T {
  if (heap.items.length === 0) throw pyError("IndexError", "index out of range");
  const top = heap.items[0]!;
  heap.items[0] = item;
  siftUp(heap, 0, less);
  return top;
}

function listArg(name: string, v: Value, position: string): PyList {
  if (v instanceof PyList) return v;
  throw pyError("TypeError", `${name}() ${position} must be list, not ${typeName(v)}`);
}

const heappush: NativeFn = (ctx, args, kwargs) => {
  exactly("heappush", 2, args, kwargs, "_heapq.heappush");
  const heap = listArg("heappush", args[0]!, "argument 1");
  ctx.budget.alloc(storedSize(args[1]!));
  heap.items.push(args[1]!);
  siftDown(heap, 0, heap.items.length - 1, lessOf(ctx));
  return null;
};

const heappop: NativeFn = (ctx, args, kwargs) => {
  exactly("heappop", 1, args, kwargs, "_heapq.heappop");
  return pop(listArg("heappop", args[0]!, "argument"), lessOf(ctx));
};

const heapreplace: NativeFn = (ctx, args, kwargs) => {
  exactly("heapreplace", 2, args, kwargs, "_heapq.heapreplace");
  return replace(listArg("heapreplace", args[0]!, "argument 1"), args[1]!, lessOf(ctx));
};

const heappushpop: NativeFn = (ctx, args, kwargs) => {
  exactly("heappushpop", 2, args, kwargs, "_heapq.heappushpop");
  const heap = listArg("heappushpop", args[0]!, "argument 1");
  const item = args[1]!;
  if (heap.items.length === 0) return item;
  const less = lessOf(ctx);
  if (!less(heap.items[0]!, item)) return item;
  return replace(heap, item, less);
};

const heapifyFn: NativeFn = (ctx, args, kwargs) => {
  exactly("heapify", 1, args, kwargs, "_heapq.heapify");
  const heap = listArg("heapify", args[0]!, "argument");
  ctx.budget.step(heap.items.length);
  heapify(heap, lessOf(ctx));
  return null;
};

// ------------------------------------------------------------------ nlargest and nsmallest

const NLARGEST: PySignature = { name: "nlargest", params: ["n", "iterable", "key"], required: 2 };
const NSMALLEST: PySignature = { name: "nsmallest", params: ["n", "iterable", "key"], required: 2 };

/** A decorated item of nlargest or nsmallest: heapq.py's `(key, order, item)`. */
interface Entry {
  key: Value;
  order: number;
  item: Value;
}

/** What an entry keeps alive: the object, and a key of its own when there is a key function. */
const ENTRY = 64;

/** How many items `n` asks for, as range(n) reads it (a huge int: as many as there are). */
function countOf(n: Value): number {
  if (typeof n === "number") return n;
  if (typeof n === "boolean") return n ? 1 : 0;
  if (typeof n === "bigint") return n > 0n ? Infinity : -Infinity;
  throw pyError("TypeError", `'${typeName(n)}' object cannot be interpreted as an integer`);
}

/** min() or max() of what `next` gives, through `key`, as CPython's builtins compare; undefined when empty. */
function extreme(ctx: NativeContext, next: () => Value | typeof DONE, key: Value, op: "<" | ">"): Value | undefined {
  let best: Value | undefined;
  let bestKey: Value = null;
  for (let item = next(); item !== DONE; item = next()) {
    ctx.budget.step(1);
    const k = keyed(ctx, key, item);
    if (best === undefined || compare(op, k, bestKey, ctx.budget)) {
      best = item;
      bestKey = k;
    }
  }
  return best;
}

/**
 * nlargest (largest true) and nsmallest, as heapq.py computes them: min()/max() for one item,
 * sorted() when n covers a sized input, else one pass keeping n decorated items in a heap
 * (`(item, order)` or `(key, order, item)`: the order keeps equal items stable).
 */
function selector(sig: PySignature, largest: boolean): NativeFn {
  return (ctx, args, kwargs) => {
    const [n, iterable, keyArg] = bindPy(sig, args, kwargs);
    const key = keyArg ?? null;
    const size = sizeOf(iterable!);
    // An input that knows its size pays for its items before they are read (as min() does):
    // nlargest(5, range(10**9)) is refused at once.
    if (size !== null) ctx.budget.step(size);
    if (equals(n!, 1)) {
      const best = extreme(ctx, iterate(iterable!), key, largest ? ">" : "<");
      return new PyList(best === undefined ? [] : [best]);
    }
    if (size !== null && compare(">=", n!, size, ctx.budget)) {
      const sorted = new PyList(sortValues(ctx, ctx.toList(iterable!), key, largest));
      return getItem(sorted, new SliceValue(null, n!, null), ctx.budget);
    }
    const want = countOf(n!);
    const next = iterate(iterable!);
    const less = lessOf(ctx);
    // heapq.py's `(item, order)` or `(key, order, item)` tuples compare as tuples do: by key, and
    // by order (all distinct) between equal keys. nlargest keeps a min-heap of the n largest (its
    // top is the one to beat), nsmallest a max-heap.
    const entryLess: Less<Entry> = (a, b) => (a.key === b.key || equals(a.key, b.key) ? a.order < b.order : less(a.key, b.key));
    const heapLess = largest ? entryLess : reversedLess(entryLess);
    const heap: Heap<Entry> = { items: [] };
    for (let i = 0; i < want; i++) {
      const item = next();
      if (item === DONE) break;
      ctx.budget.step(1);
      ctx.budget.alloc(ENTRY);
      heap.items.push({ key: keyed(ctx, key, item), order: largest ? -i : i, item });
    }
    if (heap.items.length === 0) return new PyList([]);
    heapify(heap, heapLess);
    let order = largest ? -want : want;
    let top = heap.items[0]!.key;
    for (let item = next(); item !== DONE; item = next()) {
      ctx.budget.step(1);
      const k = keyed(ctx, key, item);
      if (largest ? less(top, k) : less(k, top)) {
        replace(heap, { key: k, order, item }, heapLess);
        top = heap.items[0]!.key;
        order += largest ? -1 : 1;
      }
    }
    // result.sort(reverse=largest): the orders make every entry distinct, so any sort agrees.
    const entries = heap.items;
    ctx.budget.step(entries.length > 1 ? Math.ceil(entries.length * Math.log2(entries.length)) : 1);
    entries.sort(largest ? (a, b) => (entryLess(b, a) ? -1 : 1) : (a, b) => (entryLess(a, b) ? -1 : 1));
    const out = entries.map((e) => e.item);
    ctx.budget.alloc(itemsSize(out));
    return new PyList(out);
  };
}

/** len(v) when v has one (heapq.py asks, and sorts when n covers it), else null. */
function sizeOf(v: Value): number | null {
  try {
    return length(v);
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ merge

const MERGE: PySignature = { name: "merge", params: [], required: 0, kwonly: ["key", "reverse"] };

/** One input of merge: its current item (and that item's key), its rank, its cursor. */
interface Source {
  key: Value;
  value: Value;
  order: number;
  next: () => Value | typeof DONE;
}

/**
 * merge(*iterables, key=None, reverse=False): lazy, as heapq.py's generator. Its heap holds
 * `[key, order, ...]` lists in CPython, compared as lists: equal keys fall back on the order.
 */
const merge: NativeFn = (ctx, args, kwargs) => {
  // Every positional argument is an iterable: only the keywords are bound.
  const [key = null, reverse = false] = bindPy(MERGE, [], kwargs);
  const iterables = args;
  const descending = truthy(reverse!);
  const less = lessOf(ctx);
  const valueLess = descending ? reversedLess(less) : less;
  const sourceLess: Less<Source> = (x, y) => {
    if (x.key === y.key || equals(x.key, y.key)) return descending ? y.order < x.order : x.order < y.order;
    return valueLess(x.key, y.key);
  };
  const keyOf = (v: Value): Value => keyed(ctx, key, v);
  let heap: Heap<Source> | null = null;
  /** The source whose item was given last: it moves on at the next call. */
  let given: Source | null = null;
  let last: (() => Value | typeof DONE) | null = null;
  const start = (): Heap<Source> => {
    const h: Heap<Source> = { items: [] };
    iterables.forEach((iterable, i) => {
      const next = iterate(iterable);
      const value = next();
      if (value === DONE) return;
      const source: Source = { key: keyOf(value), value, order: descending ? -i : i, next };
      h.items.push(source);
    });
    heapify(h, sourceLess);
    return h;
  };
  const next = (): Value | typeof DONE => {
    if (last !== null) {
      const v = last();
      if (v !== DONE) ctx.budget.step(1);
      return v;
    }
    if (heap === null) heap = start();
    if (given !== null) {
      const value = given.next();
      if (value === DONE) pop(heap, sourceLess);
      else {
        given.value = value;
        given.key = keyOf(value);
        replace(heap, given, sourceLess);
      }
      given = null;
    }
    ctx.budget.step(1);
    if (heap.items.length === 0) return DONE;
    const top = heap.items[0]!;
    // The last source left is read straight through, as heapq.py's `yield from` does.
    if (heap.items.length === 1) last = top.next;
    else given = top;
    return top.value;
  };
  return new PyIterator(next, "generator", ITERATOR + CLOSURE * (3 + iterables.length));
};

export const HEAPQ_MODULE: Record<string, NativeFn | Value> = {
  heappush,
  heappop,
  heapify: heapifyFn,
  heapreplace,
  heappushpop,
  nlargest: selector(NLARGEST, true),
  nsmallest: selector(NSMALLEST, false),
  merge,
};
