// Methods of list, tuple, dict, set and frozenset, and the dict views. Each charges the budget
// in proportion to its work (a sort n·log n steps, an extend one step per item).
import { pyError, PyException, EXC } from "../errors.js";
import { bind, intArg, type NativeContext, type NativeMethod, noKwargs } from "../native.js";
import { after, type Pending, PyDictView } from "../objects.js";
import { collectItems, drainItems, lazy, waitable } from "../stepping.js";
import { compare, equals, hashOf, storedSize } from "../ops.js";
import { entrySize, MAP_ENTRY, SLOT } from "../sizes.js";
import { repr } from "../repr.js";
import { sliceIndices } from "../strings.js";
import { isOwnHashKey, PyDict, PyList, PyRange, PySet, PyTuple, typeName, type Value } from "../values.js";

// ------------------------------------------------------------------ sorting

/**
 * Python's sorted()/list.sort(): stable, with key and reverse, comparing with Python's rules.
 *
 * The algorithm follows CPython's listsort: natural runs (descending ones reversed), extended to
 * a minimum run length by binary insertion, then merged. It asks only `x < y`, in the same order
 * as CPython for lists shorter than 64 (one run), so a mixed-type list fails with CPython's
 * TypeError (`'<' not supported between instances of 'str' and 'int'`) naming the same pair.
 * Longer lists merge without CPython's galloping: same result, other comparisons. Keys that are
 * all ints, or all tuples of ints of one length, skip the comparisons (intOrder, intTupleOrder).
 */
export function sortValues(ctx: NativeContext, items: Value[], key: Value, reverse: boolean): Value[] {
  const n = items.length;
  ctx.budget.step(n > 1 ? Math.ceil(n * Math.log2(n)) : 1);
  const keys = key === null ? items : items.map((item) => ctx.call(key, [item]));
  const ints = intOrder(keys, reverse) ?? intTupleOrder(ctx, keys, reverse);
  if (ints) {
    // A copy overwritten in place stays a packed array, and is quicker to make than by push().
    const out = items.slice();
    for (let i = 0; i < n; i++) out[i] = items[ints[i]!]!;
    return out;
  }
  const order = items.map((_, i) => i);
  // CPython sorts a reversed list and reverses the result: equal items keep their order.
  if (reverse) order.reverse();
  timsort(order, lessThan(ctx, keys));
  if (reverse) order.reverse();
  return order.map((i) => items[i]!);
}

/**
 * The stable order of `keys` when all are ints (which compare without charging a step), or null
 * when a key is no int. Every stable sort gives the same order, so this one need not be CPython's:
 * each key becomes its distance from the minimum (from the maximum when descending, so that equal
 * keys keep their order) and the distances sort by `numericOrder`.
 */
function intOrder(keys: Value[], reverse: boolean): ArrayLike<number> | null {
  const n = keys.length;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (typeof k !== "number") return null;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  const span = max - min + 1;
  if (span > Number.MAX_SAFE_INTEGER) {
    const nums = keys as number[];
    const order = keys.map((_, i) => i);
    // Distinct ints never differ by 0 in floating point, so the sign of a difference is exact.
    order.sort(reverse ? (a, b) => nums[b]! - nums[a]! || a - b : (a, b) => nums[a]! - nums[b]! || a - b);
    return order;
  }
  // The span is below 2^53, so every distance is exact.
  const distances = new Float64Array(n);
  for (let i = 0; i < n; i++) distances[i] = reverse ? max - (keys[i] as number) : (keys[i] as number) - min;
  return numericOrder(distances, span);
}

/**
 * The stable order of `keys` when all are tuples of one length whose items are all ints, or null.
 * Such tuples compare without raising, in a total order once ties go to the earlier index, so any
 * stable sort gives CPython's order. When the spans of the positions multiplied together fit a
 * double's 53 bits, each key becomes one number in mixed radix (the first position weighs most),
 * and the numbers sort by `numericOrder`; otherwise the indices sort with a comparator.
 *
 * The comparisons are charged up front, the same for every list of n tuples of length L: L steps
 * for each of ceil(n·log2 n) comparisons. The general path (`lessThan`) charges a step per
 * position looked at in each comparison it makes, L at most, and `timsort` makes fewer than
 * n·log2 n comparisons, so this is at least what it would charge (test/interpreter/sort-keys.test.ts
 * holds it to that).
 */
function intTupleOrder(ctx: NativeContext, keys: Value[], reverse: boolean): ArrayLike<number> | null {
  const n = keys.length;
  const first = keys[0];
  if (!(first instanceof PyTuple)) return null;
  const length = first.items.length;
  const mins = new Float64Array(length).fill(Infinity);
  const maxs = new Float64Array(length).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (!(k instanceof PyTuple) || k.items.length !== length) return null;
    const items = k.items;
    for (let j = 0; j < length; j++) {
      const v = items[j];
      if (typeof v !== "number") return null;
      if (v < mins[j]!) mins[j] = v;
      if (v > maxs[j]!) maxs[j] = v;
    }
  }
  if (n > 1) ctx.budget.step(Math.ceil(n * Math.log2(n)) * length);
  // weights[j]: the product of the spans after position j. Each partial product is exact when
  // the whole is below 2^53 (rounding is monotonic, so a product beyond it shows).
  const weights = new Float64Array(length);
  let total = 1;
  for (let j = length - 1; j >= 0; j--) {
    weights[j] = total;
    total *= maxs[j]! - mins[j]! + 1;
  }
  if (total <= Number.MAX_SAFE_INTEGER) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const items = (keys[i] as PyTuple).items as number[];
      let p = 0;
      // Descending, equal keys keep their order: each position measured from its maximum.
      if (reverse) for (let j = 0; j < length; j++) p += (maxs[j]! - items[j]!) * weights[j]!;
      else for (let j = 0; j < length; j++) p += (items[j]! - mins[j]!) * weights[j]!;
      packed[i] = p;
    }
    return numericOrder(packed, total);
  }
  const tuples = keys.map((k) => (k as PyTuple).items as number[]);
  const sign = reverse ? -1 : 1;
  const order = keys.map((_, i) => i);
  order.sort((a, b) => {
    const x = tuples[a]!;
    const y = tuples[b]!;
    for (let j = 0; j < length; j++) if (x[j] !== y[j]) return x[j]! < y[j]! ? -sign : sign;
    return a - b;
  });
  return order;
}

/**
 * The stable ascending order of `values`, integers from 0 to `bound` - 1 (at most 2^53). Up to 16
 * sort by insertion, a short list sorts its indices with a comparator. A longer one is radix-sorted
 * from the least significant digit: one pass (a counting sort) when the bound is small beside the
 * count, else as many passes of at most 11 bits as the bound needs (5 for 2^53), each linear in
 * the count.
 */
function numericOrder(values: Float64Array, bound: number): ArrayLike<number> {
  const n = values.length;
  if (n <= 16) return insertionOrder(values);
  if (n < 256) {
    const order = Array.from({ length: n }, (_, i) => i);
    // Differences of integers below 2^53 are exact.
    order.sort((a, b) => values[a]! - values[b]! || a - b);
    return order;
  }
  if (bound <= 2 * n + 1024) return countingPass(values, bound, null, new Uint32Array(n));
  let bits = 1;
  while (2 ** bits < bound) bits++;
  const passes = Math.ceil(bits / 11);
  const digitBits = Math.ceil(bits / passes);
  // Digits come from the low and high 32 bits of each value, by integer shifts.
  const low = new Uint32Array(n);
  let high: Uint32Array | null = null;
  if (bits > 32) {
    high = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const h = Math.floor(values[i]! / 4294967296);
      high[i] = h;
      low[i] = values[i]! - h * 4294967296;
    }
  } else low.set(values);
  const digits = new Uint32Array(n);
  // Each pass reads the order of the one before and writes into the other buffer.
  const buffers = [new Uint32Array(n), new Uint32Array(n)];
  let order: Uint32Array | null = null;
  for (let pass = 0; pass < passes; pass++) {
    digitsAt(low, high, pass * digitBits, (1 << digitBits) - 1, digits);
    order = countingPass(digits, 1 << digitBits, order, buffers[pass & 1]!);
  }
  return order!;
}

/** numericOrder of a few values, by insertion: a comparator sort costs several times more to start. */
function insertionOrder(values: Float64Array): number[] {
  const order: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    let j = i;
    // Only a greater value moves: equal values keep their order.
    while (j > 0 && values[order[j - 1]!]! > v) {
      order[j] = order[j - 1]!;
      j--;
    }
    order[j] = i;
  }
  return order;
}

/**
 * The `mask` bits at `shift` of each value split into its `low` and `high` 32 bits (`high` null
 * when every value is below 2^32).
 */
function digitsAt(low: Uint32Array, high: Uint32Array | null, shift: number, mask: number, out: Uint32Array): void {
  const n = low.length;
  if (high === null || shift === 0) for (let i = 0; i < n; i++) out[i] = (low[i]! >>> shift) & mask;
  else if (shift >= 32) for (let i = 0; i < n; i++) out[i] = (high[i]! >>> (shift - 32)) & mask;
  else for (let i = 0; i < n; i++) out[i] = ((low[i]! >>> shift) | (high[i]! << (32 - shift))) & mask;
}

/**
 * A stable counting sort: the indices in `order` (0 to n - 1 when null) into `out`, by
 * `digits[index]`, each below `size`. Returns `out`.
 */
function countingPass(digits: Float64Array | Uint32Array, size: number, order: Uint32Array | null, out: Uint32Array): Uint32Array {
  const n = digits.length;
  const starts = new Uint32Array(size + 1);
  for (let i = 0; i < n; i++) starts[digits[i]! + 1]!++;
  for (let b = 1; b <= size; b++) starts[b]! += starts[b - 1]!;
  if (order === null) for (let i = 0; i < n; i++) out[starts[digits[i]!]!++] = i;
  else {
    for (let i = 0; i < n; i++) {
      const o = order[i]!;
      out[starts[digits[o]!]!++] = o;
    }
  }
  return out;
}

/**
 * `keys[a] < keys[b]` for the sort, charging the budget as `compare` does: specialized when all
 * keys are strs without surrogates, or tuples of ints and such strs (the rows of
 * `sorted(d.items())`), the common keys with a step cost.
 */
export function lessThan(ctx: NativeContext, keys: Value[]): (a: number, b: number) => boolean {
  const budget = ctx.budget;
  if (keys.every((k) => typeof k === "string" && !SURROGATE.test(k))) {
    const strs = keys as string[];
    return (a, b) => {
      const x = strs[a]!;
      const y = strs[b]!;
      budget.step(Math.min(x.length, y.length) >> 6);
      return x < y;
    };
  }
  if (keys.every(isPlainTuple)) {
    const tuples = keys.map((k) => (k as PyTuple).items as (number | string)[]);
    // compareSequences: a step per element looked at, up to the first that differs; there ints
    // and strs compare here as `compare` would (strs charge a step per 64 characters), and an int
    // beside a str goes to `compare` for its TypeError.
    return (a, b) => {
      const x = tuples[a]!;
      const y = tuples[b]!;
      const m = Math.min(x.length, y.length);
      for (let i = 0; i < m; i++) {
        budget.step(1);
        const p = x[i]!;
        const q = y[i]!;
        if (p === q) continue;
        if (typeof p === "string" && typeof q === "string") budget.step(Math.min(p.length, q.length) >> 6);
        else if (typeof p !== typeof q) return compare("<", p, q, budget);
        return p < q;
      }
      return x.length < y.length;
    };
  }
  return (a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    return typeof x === "number" && typeof y === "number" ? x < y : compare("<", x, y, budget);
  };
}

/** A tuple of ints (numbers) and strs without surrogates: the rows of `sorted(d.items())`. */
function isPlainTuple(k: Value): boolean {
  if (!(k instanceof PyTuple)) return false;
  for (const e of k.items) if (typeof e !== "number" && (typeof e !== "string" || SURROGATE.test(e))) return false;
  return true;
}

const SURROGATE = /[\ud800-\udfff]/;

/** The `reverse=` of sort and sorted: an int or a bool, as CPython requires. */
export function reverseArg(v: Value | undefined): boolean {
  if (v === undefined) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number" || typeof v === "bigint") return v !== 0 && v !== 0n;
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
}

/** CPython's minimum run length for n items (between 32 and 64 when n >= 64). */
function minRun(n: number): number {
  let r = 0;
  while (n >= 64) {
    r |= n & 1;
    n >>= 1;
  }
  return n + r;
}

function timsort(a: number[], lt: (x: number, y: number) => boolean): void {
  const n = a.length;
  if (n < 2) return;
  const min = minRun(n);
  const runs: Array<[number, number]> = [];
  for (let lo = 0; lo < n; ) {
    // count_run: the longest ascending (non-decreasing) or strictly descending run at lo.
    let hi = lo + 1;
    if (hi < n) {
      if (lt(a[hi]!, a[hi - 1]!)) {
        for (hi++; hi < n && lt(a[hi]!, a[hi - 1]!); hi++);
        reverseRange(a, lo, hi);
      } else {
        for (hi++; hi < n && !lt(a[hi]!, a[hi - 1]!); hi++);
      }
    }
    if (hi - lo < min) {
      const end = Math.min(lo + min, n);
      binaryInsertion(a, lo, end, hi, lt);
      hi = end;
    }
    runs.push([lo, hi]);
    lo = hi;
  }
  while (runs.length > 1) {
    const merged: Array<[number, number]> = [];
    for (let i = 0; i + 1 < runs.length; i += 2) {
      merge(a, runs[i]![0], runs[i]![1], runs[i + 1]![1], lt);
      merged.push([runs[i]![0], runs[i + 1]![1]]);
    }
    if (runs.length % 2) merged.push(runs[runs.length - 1]!);
    runs.splice(0, runs.length, ...merged);
  }
}

function reverseRange(a: number[], lo: number, hi: number): void {
  for (let i = lo, j = hi - 1; i < j; i++, j--) [a[i], a[j]] = [a[j]!, a[i]!];
}

/** Sorts a[lo:hi], whose prefix a[lo:start] is already sorted, as CPython's binarysort does. */
function binaryInsertion(a: number[], lo: number, hi: number, start: number, lt: (x: number, y: number) => boolean): void {
  for (let i = start; i < hi; i++) {
    const pivot = a[i]!;
    let l = lo;
    let r = i;
    while (l < r) {
      const p = l + ((r - l) >> 1);
      if (lt(pivot, a[p]!)) r = p;
      else l = p + 1;
    }
    for (let j = i; j > l; j--) a[j] = a[j - 1]!;
    a[l] = pivot;
  }
}

/** Stable merge of the sorted runs a[lo:mid] and a[mid:hi]. */
function merge(a: number[], lo: number, mid: number, hi: number, lt: (x: number, y: number) => boolean): void {
  const left = a.slice(lo, mid);
  let i = 0;
  let j = mid;
  let k = lo;
  while (i < left.length && j < hi) a[k++] = lt(a[j]!, left[i]!) ? a[j++]! : left[i++]!;
  while (i < left.length) a[k++] = left[i++]!;
}

/** CPython's wording for a method given too few or too many positional arguments. */
function arity(name: string, args: Value[], min: number, max: number): void {
  const n = args.length;
  if (n < min) throw pyError("TypeError", `${name} expected at least ${min} argument${min === 1 ? "" : "s"}, got ${n}`);
  if (n > max) throw pyError("TypeError", `${name} expected at most ${max} argument${max === 1 ? "" : "s"}, got ${n}`);
}

// ------------------------------------------------------------------ range

export const RANGE_METHODS: Record<string, NativeMethod<PyRange>> = {
  index(ctx, self, args, kwargs) {
    noKwargs("range.index", kwargs);
    if (args.length !== 1) throw pyError("TypeError", `range.index() takes exactly one argument (${args.length} given)`);
    const v = args[0]!;
    if (typeof v === "number" || typeof v === "boolean") {
      const n = Number(v);
      const offset = n - self.start;
      const i = offset / self.step;
      if (Number.isInteger(i) && i >= 0 && i < self.length) return i;
    } else {
      for (let i = 0; i < self.length; i++) {
        ctx.budget.step(1);
        if (equals(self.at(i), v)) return i;
      }
    }
    throw pyError("ValueError", `${repr(v)} is not in range`);
  },
  count(ctx, self, args, kwargs) {
    noKwargs("range.count", kwargs);
    if (args.length !== 1) throw pyError("TypeError", `range.count() takes exactly one argument (${args.length} given)`);
    try {
      RANGE_METHODS.index!(ctx, self, args, null);
      return 1;
    } catch (e) {
      if (e instanceof PyException && e.type === EXC.ValueError) return 0;
      throw e;
    }
  },
};

// ------------------------------------------------------------------ list

/** A start or stop of index(): any int, clamped as CPython clamps slice indices. */
function clampedIndex(v: Value): number {
  if (typeof v === "bigint") return v < 0n ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  if (typeof v === "number" || typeof v === "boolean") return Number(v);
  throw pyError("TypeError", "slice indices must be integers or have an __index__ method");
}

function listIndex(ctx: NativeContext, items: readonly Value[], args: Value[], label: string): number {
  arity("index", args, 1, 3);
  const [value, start, stop] = bind(label, { names: ["value", "start", "stop"], required: 1, positionalOnly: 3 }, args, null);
  const { start: from, stop: to } = sliceIndices(
    items.length,
    start === undefined ? null : clampedIndex(start),
    stop === undefined ? null : clampedIndex(stop),
    1,
  );
  for (let i = from; i < to; i++) {
    ctx.budget.step(1);
    if (equals(items[i]!, value!)) return i;
  }
  throw pyError("ValueError", label.startsWith("tuple") ? "tuple.index(x): x not in tuple" : `${repr(value!)} is not in list`);
}

function count(ctx: NativeContext, items: readonly Value[], value: Value): number {
  ctx.budget.step(items.length);
  let n = 0;
  for (const item of items) if (equals(item, value)) n++;
  return n;
}

export const LIST_METHODS: Record<string, NativeMethod<PyList>> = {
  append(ctx, self, args, kwargs) {
    noKwargs("list.append", kwargs);
    if (args.length !== 1) throw pyError("TypeError", `list.append() takes exactly one argument (${args.length} given)`);
    ctx.budget.alloc(storedSize(args[0]!));
    self.items.push(args[0]!);
    return null;
  },
  extend(ctx, self, args, kwargs) {
    noKwargs("list.extend", kwargs);
    if (args.length !== 1) throw pyError("TypeError", `list.extend() takes exactly one argument (${args.length} given)`);
    const source = args[0]!;
    // An iterator's items are collected paced (a long one gives the event loop turns), then added.
    if (lazy(source)) return waitable(after(collectItems(source, ctx.budget, ctx), (items: Value[]) => (self.items.push(...items), null)));
    // Charged as ctx.toList collects them.
    const items = ctx.toList(source);
    for (const item of items) self.items.push(item);
    return null;
  },
  insert(ctx, self, args, kwargs) {
    noKwargs("list.insert", kwargs);
    if (args.length !== 2) throw pyError("TypeError", `insert expected 2 arguments, got ${args.length}`);
    let i = intArg("insert", args[0]!);
    const n = self.items.length;
    if (i < 0) i = Math.max(0, i + n);
    if (i > n) i = n;
    ctx.budget.step(n - i + 1);
    ctx.budget.alloc(storedSize(args[1]!));
    self.items.splice(i, 0, args[1]!);
    return null;
  },
  remove(ctx, self, args, kwargs) {
    noKwargs("list.remove", kwargs);
    if (args.length !== 1) throw pyError("TypeError", `list.remove() takes exactly one argument (${args.length} given)`);
    for (let i = 0; i < self.items.length; i++) {
      if (equals(self.items[i]!, args[0]!)) {
        ctx.budget.step(self.items.length);
        self.items.splice(i, 1);
        return null;
      }
    }
    throw pyError("ValueError", "list.remove(x): x not in list");
  },
  pop(ctx, self, args, kwargs) {
    noKwargs("list.pop", kwargs);
    if (args.length > 1) throw pyError("TypeError", `pop expected at most 1 argument, got ${args.length}`);
    let i = args.length ? intArg("pop", args[0]!) : self.items.length - 1;
    if (self.items.length === 0) throw pyError("IndexError", "pop from empty list");
    if (i < 0) i += self.items.length;
    if (i < 0 || i >= self.items.length) throw pyError("IndexError", "pop index out of range");
    ctx.budget.step(self.items.length - i);
    return self.items.splice(i, 1)[0]!;
  },
  clear(_ctx, self, args, kwargs) {
    noKwargs("list.clear", kwargs);
    if (args.length) throw pyError("TypeError", `list.clear() takes no arguments (${args.length} given)`);
    self.items.length = 0;
    return null;
  },
  index(ctx, self, args, kwargs) {
    noKwargs("list.index", kwargs);
    return listIndex(ctx, self.items, args, "list.index");
  },
  count(ctx, self, args, kwargs) {
    noKwargs("list.count", kwargs);
    if (args.length !== 1) throw pyError("TypeError", `list.count() takes exactly one argument (${args.length} given)`);
    return count(ctx, self.items, args[0]!);
  },
  sort(ctx, self, args, kwargs) {
    if (args.length) throw pyError("TypeError", "sort() takes no positional arguments");
    const [key, reverse] = bind("sort", { names: ["key", "reverse"], required: 0 }, [], kwargs);
    // As in CPython, the list is empty while it sorts: a key function that looks sees [], and
    // one that adds items makes the sort fail (the sorted items are kept).
    const items = self.items;
    const detached: Value[] = [];
    self.items = detached;
    const descending = reverseArg(reverse);
    let sorted: Value[] = items;
    try {
      sorted = sortValues(ctx, items, key ?? null, descending);
    } finally {
      const modified = self.items !== detached || detached.length > 0;
      self.items = sorted;
      if (modified) throw pyError("ValueError", "list modified during sort");
    }
    return null;
  },
  reverse(ctx, self, args, kwargs) {
    noKwargs("list.reverse", kwargs);
    if (args.length) throw pyError("TypeError", `list.reverse() takes no arguments (${args.length} given)`);
    ctx.budget.step(self.items.length);
    self.items.reverse();
    return null;
  },
  copy(ctx, self, args, kwargs) {
    noKwargs("list.copy", kwargs);
    if (args.length) throw pyError("TypeError", `list.copy() takes no arguments (${args.length} given)`);
    ctx.budget.alloc(SLOT * self.items.length);
    ctx.budget.step(self.items.length);
    return new PyList([...self.items]);
  },
};

export const TUPLE_METHODS: Record<string, NativeMethod<PyTuple>> = {
  index(ctx, self, args, kwargs) {
    noKwargs("tuple.index", kwargs);
    return listIndex(ctx, self.items, args, "tuple.index");
  },
  count(ctx, self, args, kwargs) {
    noKwargs("tuple.count", kwargs);
    if (args.length !== 1) throw pyError("TypeError", `tuple.count() takes exactly one argument (${args.length} given)`);
    return count(ctx, self.items, args[0]!);
  },
};

// ------------------------------------------------------------------ dict

function updateDict(ctx: NativeContext, d: PyDict, source: Value | undefined, kwargs: Map<string, Value> | null, label: string): undefined | Pending {
  let stored: undefined | Pending;
  if (source !== undefined) {
    if (source instanceof PyDict) {
      ctx.budget.step(source.size);
      ctx.budget.alloc(MAP_ENTRY * source.size);
      d.update(source);
    } else {
      // Pair by pair, as CPython: the pairs an iterator makes (zip's) are temporaries, never all
      // kept. Paced: a long iterable gives the event loop turns (Pending meanwhile).
      let i = 0;
      stored = drainItems(source, (pair) => storePair(ctx, d, pair, i++, label), ctx);
    }
  }
  return after(stored, () => {
    if (kwargs) for (const [k, v] of kwargs) d.set(k, v);
    return undefined;
  });
}

/** Stores the `i`th item of an update's iterable, a key and value pair, into `d`. */
function storePair(ctx: NativeContext, d: PyDict, pair: Value, i: number, label: string): void {
  ctx.budget.step(1);
  const kv = pair instanceof PyTuple || pair instanceof PyList ? pair.items : typeof pair === "string" ? [...pair] : null;
  if (kv === null) throw pyError("TypeError", `cannot convert ${label} update sequence element #${i} to a sequence`);
  if (kv.length !== 2) {
    throw pyError("ValueError", `${label} update sequence element #${i} has length ${kv.length}; 2 is required`);
  }
  hashOf(kv[0]!, ctx.budget);
  ctx.budget.alloc(entrySize(kv[0]!, kv[1]!));
  d.set(kv[0]!, kv[1]!);
}

export { storePair, updateDict };

function missingKey(key: Value): PyException {
  return new PyException(EXC.KeyError, [key]);
}

export const DICT_METHODS: Record<string, NativeMethod<PyDict>> = {
  get(ctx, self, args, kwargs) {
    noKwargs("dict.get", kwargs);
    arity("get", args, 1, 2);
    const key = args[0]!;
    const v = self.map.get(isOwnHashKey(key) ? key : hashOf(key, ctx.budget));
    return v === undefined ? (args[1] ?? null) : v;
  },
  setdefault(ctx, self, args, kwargs) {
    noKwargs("dict.setdefault", kwargs);
    arity("setdefault", args, 1, 2);
    const k = hashOf(args[0]!, ctx.budget);
    const v = self.map.get(k);
    if (v !== undefined) return v;
    const value = args[1] ?? null;
    ctx.budget.alloc(32 + storedSize(value));
    self.set(args[0]!, value);
    return value;
  },
  pop(ctx, self, args, kwargs) {
    noKwargs("dict.pop", kwargs);
    arity("pop", args, 1, 2);
    const v = self.map.get(hashOf(args[0]!, ctx.budget));
    if (v === undefined) {
      if (args.length === 2) return args[1]!;
      throw missingKey(args[0]!);
    }
    self.delete(args[0]!);
    return v;
  },
  popitem(_ctx, self, args, kwargs) {
    noKwargs("dict.popitem", kwargs);
    if (args.length) throw pyError("TypeError", `dict.popitem() takes no arguments (${args.length} given)`);
    if (self.size === 0) throw new PyException(EXC.KeyError, ["popitem(): dictionary is empty"]);
    _ctx.budget.step(self.size);
    const lastKey = [...self.map.keys()].pop()!;
    const key = self.keyOf(lastKey);
    const value = self.map.get(lastKey)!;
    self.delete(key);
    return new PyTuple([key, value]);
  },
  update(ctx, self, args, kwargs) {
    if (args.length > 1) throw pyError("TypeError", `update expected at most 1 argument, got ${args.length}`);
    return waitable(after(updateDict(ctx, self, args[0], kwargs, "dictionary"), () => null));
  },
  keys(_ctx, self, args, kwargs) {
    noKwargs("dict.keys", kwargs);
    if (args.length) throw pyError("TypeError", `dict.keys() takes no arguments (${args.length} given)`);
    return new PyDictView(self, "keys");
  },
  values(_ctx, self, args, kwargs) {
    noKwargs("dict.values", kwargs);
    if (args.length) throw pyError("TypeError", `dict.values() takes no arguments (${args.length} given)`);
    return new PyDictView(self, "values");
  },
  items(_ctx, self, args, kwargs) {
    noKwargs("dict.items", kwargs);
    if (args.length) throw pyError("TypeError", `dict.items() takes no arguments (${args.length} given)`);
    return new PyDictView(self, "items");
  },
  clear(_ctx, self, args, kwargs) {
    noKwargs("dict.clear", kwargs);
    if (args.length) throw pyError("TypeError", `dict.clear() takes no arguments (${args.length} given)`);
    self.clear();
    return null;
  },
  fromkeys(ctx, _self, args, kwargs) {
    noKwargs("dict.fromkeys", kwargs);
    return dictFromKeys(ctx, args);
  },
  copy(ctx, self, args, kwargs) {
    noKwargs("dict.copy", kwargs);
    if (args.length) throw pyError("TypeError", `dict.copy() takes no arguments (${args.length} given)`);
    ctx.budget.step(self.size);
    ctx.budget.alloc(MAP_ENTRY * self.size);
    const out = new PyDict();
    out.update(self);
    return out;
  },
};

/** dict.fromkeys(iterable, value=None). */
export function dictFromKeys(ctx: NativeContext, args: Value[]): PyDict {
  arity("fromkeys", args, 1, 2);
  const out = new PyDict();
  const keys = ctx.toList(args[0]!);
  ctx.budget.alloc(MAP_ENTRY * keys.length);
  for (const k of keys) {
    hashOf(k, ctx.budget);
    out.set(k, args[1] ?? null);
  }
  return out;
}

// ------------------------------------------------------------------ set

function otherSets(ctx: NativeContext, args: Value[]): PySet[] {
  return args.map((a) => {
    if (a instanceof PySet) {
      ctx.budget.step(a.size);
      return a;
    }
    const s = new PySet();
    for (const item of ctx.toList(a)) {
      hashOf(item, ctx.budget);
      s.add(item);
    }
    return s;
  });
}

function fresh(self: PySet): PySet {
  return new PySet(self.frozen);
}

/** A new set's entries, counted once made: the work was bounded by the steps charged first. */
function charged(ctx: NativeContext, out: PySet): PySet {
  ctx.budget.alloc(MAP_ENTRY * out.size);
  return out;
}

const SET_READING: Record<string, NativeMethod<PySet>> = {
  copy(ctx, self) {
    ctx.budget.step(self.size);
    const out = fresh(self);
    for (const v of self.values()) out.add(v);
    return charged(ctx, out);
  },
  union(ctx, self, args) {
    ctx.budget.step(self.size);
    const out = fresh(self);
    for (const v of self.values()) out.add(v);
    for (const other of otherSets(ctx, args)) for (const v of other.values()) out.add(v);
    return charged(ctx, out);
  },
  intersection(ctx, self, args) {
    const others = otherSets(ctx, args);
    const out = fresh(self);
    ctx.budget.step(self.size * Math.max(1, others.length));
    for (const v of self.values()) if (others.every((o) => o.has(v))) out.add(v);
    return charged(ctx, out);
  },
  difference(ctx, self, args) {
    const others = otherSets(ctx, args);
    const out = fresh(self);
    ctx.budget.step(self.size * Math.max(1, others.length));
    for (const v of self.values()) if (!others.some((o) => o.has(v))) out.add(v);
    return charged(ctx, out);
  },
  symmetric_difference(ctx, self, args) {
    const [other] = otherSets(ctx, args) as [PySet];
    ctx.budget.step(self.size);
    const out = fresh(self);
    for (const v of self.values()) if (!other.has(v)) out.add(v);
    for (const v of other.values()) if (!self.has(v)) out.add(v);
    return charged(ctx, out);
  },
  issubset(ctx, self, args) {
    const [other] = otherSets(ctx, args) as [PySet];
    ctx.budget.step(self.size);
    return [...self.values()].every((v) => other.has(v));
  },
  issuperset(ctx, self, args) {
    const [other] = otherSets(ctx, args) as [PySet];
    ctx.budget.step(other.size);
    return [...other.values()].every((v) => self.has(v));
  },
  isdisjoint(ctx, self, args) {
    const [other] = otherSets(ctx, args) as [PySet];
    ctx.budget.step(self.size);
    return [...self.values()].every((v) => !other.has(v));
  },
};

const SET_WRITING: Record<string, NativeMethod<PySet>> = {
  add(ctx, self, args) {
    hashOf(args[0]!, ctx.budget);
    ctx.budget.alloc(entrySize(args[0]!, null));
    self.add(args[0]!);
    return null;
  },
  remove(ctx, self, args) {
    if (!self.map.delete(hashOf(args[0]!, ctx.budget))) throw missingKey(args[0]!);
    return null;
  },
  discard(ctx, self, args) {
    self.map.delete(hashOf(args[0]!, ctx.budget));
    return null;
  },
  pop(_ctx, self) {
    const first = self.map.keys().next();
    if (first.done) throw new PyException(EXC.KeyError, ["pop from an empty set"]);
    const v = self.map.get(first.value)!;
    self.map.delete(first.value);
    return v;
  },
  clear(_ctx, self) {
    self.map.clear();
    return null;
  },
  update(ctx, self, args) {
    for (const other of otherSets(ctx, args)) for (const v of other.values()) self.add(v);
    ctx.budget.alloc(MAP_ENTRY * self.size);
    return null;
  },
  intersection_update(ctx, self, args) {
    const kept = SET_READING.intersection!(ctx, self, args, null) as PySet;
    self.map.clear();
    for (const v of kept.values()) self.add(v);
    return null;
  },
  difference_update(ctx, self, args) {
    for (const other of otherSets(ctx, args)) for (const v of other.values()) self.delete(v);
    return null;
  },
  symmetric_difference_update(ctx, self, args) {
    const result = SET_READING.symmetric_difference!(ctx, self, args, null) as PySet;
    self.map.clear();
    for (const v of result.values()) self.add(v);
    return null;
  },
};

/** How many positional arguments the set methods of a fixed arity take (the others take any number). */
const SET_ARITY = new Map([
  ...["copy", "pop", "clear"].map((m) => [m, 0] as const),
  ...["issubset", "issuperset", "isdisjoint", "symmetric_difference", "symmetric_difference_update", "add", "remove", "discard"].map((m) => [m, 1] as const),
]);

function noKeywords(methods: Record<string, NativeMethod<PySet>>, prefix: string): Record<string, NativeMethod<PySet>> {
  const out: Record<string, NativeMethod<PySet>> = {};
  for (const [name, fn] of Object.entries(methods)) {
    const arity = SET_ARITY.get(name);
    out[name] = (ctx, self, args, kwargs) => {
      noKwargs(`${prefix}.${name}`, kwargs);
      if (arity !== undefined && args.length !== arity) {
        throw pyError("TypeError", `${prefix}.${name}() takes ${arity ? "exactly one argument" : "no arguments"} (${args.length} given)`);
      }
      return fn(ctx, self, args, kwargs);
    };
  }
  return out;
}

export const FROZENSET_METHODS = noKeywords(SET_READING, "frozenset");
export const SET_METHODS = noKeywords({ ...SET_READING, ...SET_WRITING }, "set");
