// collections.Counter: a dict of counts (a PyDict, so every dict operation applies) whose missing
// keys read 0 without being stored, with multiset arithmetic and the comparisons of 3.10+. Each
// method does what CPython's collections/__init__.py does, in the same order, so that errors
// (an unhashable element, counts that do not add) come out the same.
import type { Budget } from "../../budget.js";
import { EXC, pyError, PyException } from "../../errors.js";
import { ClassedIterator, NOT_HANDLED, type NotHandled, type Operator, type Ordering, PyClass } from "../../instance.js";
import { CHAIN } from "../itertools/terminating.js";
import { sortValues } from "../../methods/containers.js";
import { bind, type Kwargs, type NativeContext, noKwargs } from "../../native.js";
import { after, DONE, type Pending, PyBuiltin, type PyIterator } from "../../objects.js";
import { eachItem, waitable } from "../../stepping.js";
import { binary, compare, equals, hashOf } from "../../ops.js";
import { CLOSURE, entrySize, ITERATOR, SLOT, TUPLE } from "../../sizes.js";
import { isInt, isOwnKey, PyDict, PyList, PyTuple, typeName, type Value } from "../../values.js";
import { copyEntries, dictEquals, store } from "./dicts.js";

export class Counter extends PyDict {
  /** The execution it belongs to: its repr sorts by count, which charges and may compare. */
  constructor(readonly ctx: NativeContext) {
    super();
  }

  override get cls(): PyClass {
    return COUNTER;
  }

  pyMissing(): Value {
    return 0;
  }

  /** `Counter({'a': 2, 'b': 1})`, most common first (in dict order if the counts do not compare). */
  pyRepr(repr: (v: Value) => string): string {
    if (this.size === 0) return "Counter()";
    if (REPRS.has(this)) throw pyError("RecursionError", "maximum recursion depth exceeded");
    REPRS.add(this);
    try {
      let pairs: PyTuple[];
      try {
        pairs = mostCommon(this.ctx, this);
      } catch (e) {
        if (!(e instanceof PyException && e.type === EXC.TypeError)) throw e;
        pairs = this.pairs();
      }
      return `Counter({${pairs.map((p) => `${repr(p.items[0]!)}: ${repr(p.items[1]!)}`).join(", ")}})`;
    } finally {
      REPRS.delete(this);
    }
  }

  /** Another Counter: equal counts, a missing one being 0. Any other dict: dict's equality. */
  pyEquals(other: Value): boolean {
    if (other instanceof Counter) return this.all(other, (a, b) => equals(a, b));
    return other instanceof PyDict && dictEquals(this, other);
  }

  /** Inclusion between Counters (3.10+): `a <= b` when every count of a is at most b's. */
  pyCompare(op: Ordering, other: Value, budget: Budget): boolean | NotHandled {
    if (!(other instanceof Counter)) return NOT_HANDLED;
    const inner = op === "<" || op === "<=" ? "<=" : ">=";
    const holds = this.all(other, (a, b) => compare(inner, a, b, budget));
    return op === "<=" || op === ">=" ? holds : holds && !this.pyEquals(other);
  }

  pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    if (reflected || !(other instanceof Counter)) return NOT_HANDLED;
    const out = new Counter(this.ctx);
    const positive = (v: Value) => compare(">", v, 0, budget);
    budget.step(this.size + other.size);
    switch (op) {
      case "+":
      case "-":
        for (const [k, count] of this.entries()) {
          const sum = binary(op, count, other.get(k) ?? 0, budget);
          if (positive(sum)) store(budget, out, k, sum);
        }
        for (const [k, count] of other.entries()) {
          if (this.has(k)) continue;
          if (op === "+" ? positive(count) : compare("<", count, 0, budget)) store(budget, out, k, op === "+" ? count : binary("-", 0, count, budget));
        }
        return out;
      case "|":
      case "&":
        for (const [k, count] of this.entries()) {
          const theirs = other.get(k) ?? 0;
          const less = compare("<", count, theirs, budget);
          const v = op === "|" ? (less ? theirs : count) : less ? count : theirs;
          if (positive(v)) store(budget, out, k, v);
        }
        if (op === "|") for (const [k, count] of other.entries()) if (!this.has(k) && positive(count)) store(budget, out, k, count);
        return out;
    }
    return NOT_HANDLED;
  }

  /** `c += d` and the rest, in place, with any mapping on the right (as CPython's __iadd__). */
  pyInplace(op: Operator, other: Value, budget: Budget): Value | NotHandled {
    if (op !== "+" && op !== "-" && op !== "|" && op !== "&") return NOT_HANDLED;
    if (!(other instanceof PyDict)) throw pyError("AttributeError", `'${typeName(other)}' object has no attribute 'items'`);
    if (op === "&") {
      budget.step(this.size);
      for (const [k, count] of [...this.entries()]) {
        const theirs = other.get(k) ?? missingIn(other, k, budget);
        if (compare("<", theirs, count, budget)) this.set(k, theirs);
      }
    } else {
      budget.step(other.size);
      for (const [k, theirs] of [...other.entries()]) {
        const count = this.get(k) ?? 0;
        if (op === "|") {
          if (compare(">", theirs, count, budget)) store(budget, this, k, theirs);
        } else store(budget, this, k, binary(op, count, theirs, budget));
      }
    }
    this.keepPositive(budget);
    return this;
  }

  pyUnary(op: "-" | "+" | "~", budget: Budget): Value {
    if (op === "~") throw pyError("TypeError", "bad operand type for unary ~: 'Counter'");
    const out = new Counter(this.ctx);
    budget.step(this.size);
    for (const [k, count] of this.entries()) {
      if (op === "+" ? compare(">", count, 0, budget) : compare("<", count, 0, budget)) store(budget, out, k, op === "+" ? count : binary("-", 0, count, budget));
    }
    return out;
  }

  /** Whether `test(self[e], other[e])` holds for every key of either, a missing count being 0. */
  private all(other: Counter, test: (a: Value, b: Value) => boolean): boolean {
    this.ctx.budget.step(this.size + other.size);
    for (const [k, count] of this.entries()) if (!test(count, other.get(k) ?? 0)) return false;
    for (const [k, count] of other.entries()) if (!test(this.get(k) ?? 0, count)) return false;
    return true;
  }

  private keepPositive(budget: Budget): void {
    budget.step(this.size);
    for (const [k, count] of [...this.entries()]) if (!compare(">", count, 0, budget)) this.delete(k);
  }

  /** The (element, count) pairs in dict order. */
  pairs(): PyTuple[] {
    return [...this.entries()].map(([k, v]) => new PyTuple([k, v]));
  }
}

/** Counters whose repr is being built (CPython's Counter repr recurses without a guard). */
const REPRS = new Set<Counter>();

/** `other[k]` of a plain dict that lacks k: its KeyError, or a subclass's __missing__. */
function missingIn(other: PyDict, k: Value, budget: Budget): Value {
  const missing = (other as { pyMissing?: (k: Value, b: Budget) => Value | undefined }).pyMissing?.(k, budget);
  if (missing !== undefined) return missing;
  throw new PyException(EXC.KeyError, [k]);
}

/** The pairs sorted by count, largest first, ties in dict order (sorted(..., reverse=True)). */
function mostCommon(ctx: NativeContext, c: Counter): PyTuple[] {
  ctx.budget.alloc(c.size * (SLOT + TUPLE + 2 * SLOT));
  return sortValues(ctx, c.pairs(), SECOND, true) as PyTuple[];
}

/** The sort key of most_common: a pair's count. */
const SECOND = new PyBuiltin("itemgetter", (_ctx, args) => (args[0] as PyTuple).items[1]!);

/**
 * Adds one for each element of `iterable` (CPython's _count_elements), or subtracts: a step each
 * (a sized iterable's before the first), paced (stepping.ts eachItem).
 */
function countElements(ctx: NativeContext, c: Counter, iterable: Value, sign: 1 | -1): undefined | Pending {
  const budget = ctx.budget;
  return eachItem(iterable, ctx, (item) => {
    const k = typeof item === "string" && isOwnKey(item) ? item : hashOf(item, budget);
    const current = c.map.get(k);
    if (current === undefined) {
      // A new key grows the Map: a few times the work of updating a count.
      budget.step(2);
      budget.alloc(entrySize(item, sign));
      c.set(item, sign);
    } else {
      // An existing key keeps its first spelling: only its count changes.
      c.map.set(k, typeof current === "number" && Number.isSafeInteger(current + sign) ? current + sign : binary(sign === 1 ? "+" : "-", current, 1, budget));
    }
  });
}

/**
 * update() and the constructor: a mapping's counts are added (or replace, into an empty
 * Counter), an iterable's elements counted. Pending while a long iterable gives the loop a turn.
 */
function update(ctx: NativeContext, c: Counter, source: Value | undefined, kwargs: Kwargs | null): undefined | Pending {
  const budget = ctx.budget;
  let counted: undefined | Pending;
  if (source !== undefined && source !== null) {
    if (source instanceof PyDict) {
      if (c.size === 0) copyEntries(budget, c, source);
      else {
        budget.step(source.size);
        for (const [k, count] of [...source.entries()]) store(budget, c, k, binary("+", count, c.get(k) ?? 0, budget));
      }
    } else counted = countElements(ctx, c, source, 1);
  }
  return after(counted, () => (kwargs && kwargs.size ? update(ctx, c, dictOf(kwargs), null) : undefined));
}

function subtract(ctx: NativeContext, c: Counter, source: Value | undefined, kwargs: Kwargs | null): undefined | Pending {
  const budget = ctx.budget;
  let counted: undefined | Pending;
  if (source !== undefined && source !== null) {
    if (source instanceof PyDict) {
      budget.step(source.size);
      for (const [k, count] of [...source.entries()]) store(budget, c, k, binary("-", c.get(k) ?? 0, count, budget));
    } else counted = countElements(ctx, c, source, -1);
  }
  return after(counted, () => (kwargs && kwargs.size ? subtract(ctx, c, dictOf(kwargs), null) : undefined));
}

function dictOf(kwargs: Kwargs): PyDict {
  const d = new PyDict();
  for (const [k, v] of kwargs) d.set(k, v);
  return d;
}

/** The one positional argument of `Counter(iterable, /, **kwds)` and of update/subtract. */
function iterableArg(label: string, args: Value[]): Value | undefined {
  if (args.length > 1) throw pyError("TypeError", `Counter.${label}() takes from 1 to 2 positional arguments but ${args.length + 1} were given`);
  return args[0];
}

/** `c.elements()`: each element as many times as its count, lazily (CPython's chain of repeats). */
function elements(ctx: NativeContext, c: Counter): PyIterator {
  const entries = c.map.entries();
  const size = c.size;
  let key: Value = null;
  let left = 0;
  return new ClassedIterator(
    CHAIN,
    () => {
      while (left <= 0) {
        if (c.size !== size) throw pyError("RuntimeError", "dictionary changed size during iteration");
        const r = entries.next();
        if (r.done) return DONE;
        const [k, count] = r.value;
        if (!isInt(count) && typeof count !== "boolean") throw pyError("TypeError", `'${typeName(count)}' object cannot be interpreted as an integer`);
        key = c.keyOf(k);
        left = typeof count === "bigint" ? (count > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(count)) : Number(count);
      }
      ctx.budget.step(1);
      left--;
      return key;
    },
    ITERATOR + CLOSURE,
    true,
  );
}

/** Up to this many pairs, most_common(k) selects them in one pass instead of sorting all. */
const TOP_K = 32;

/**
 * The `k` pairs of largest count (0 < k < size, k <= TOP_K) in the order of mostCommon's first k:
 * one pass keeping the best so far sorted, a later pair going after those of equal count (as
 * heapq.nlargest, which most_common uses, orders them).
 */
function topK(ctx: NativeContext, c: Counter, k: number): PyTuple[] {
  const budget = ctx.budget;
  budget.step(c.size * (1 + Math.ceil(Math.log2(k + 1))));
  budget.alloc(k * (SLOT + TUPLE + 2 * SLOT));
  const top: PyTuple[] = [];
  for (const [key, count] of c.entries()) {
    if (top.length === k && !compare(">", count, top[k - 1]!.items[1]!, budget)) continue;
    // The first position whose count is below this one.
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare("<", top[mid]!.items[1]!, count, budget)) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, new PyTuple([key, count]));
    if (top.length > k) top.pop();
  }
  return top;
}

function mostCommonMethod(ctx: NativeContext, self: Counter, args: Value[], kwargs: Kwargs | null): Value {
  const [n] = bind("Counter.most_common", { names: ["n"], required: 0 }, args, kwargs);
  if (n === undefined || n === null) return new PyList(mostCommon(ctx, self));
  if (typeof n !== "number" && typeof n !== "boolean" && typeof n !== "bigint") {
    if (typeName(n) === "float") throw pyError("TypeError", "slice indices must be integers or None or have an __index__ method");
    throw pyError("TypeError", `'>=' not supported between instances of '${typeName(n)}' and 'int'`);
  }
  const k = typeof n === "bigint" ? (n < 0n ? 0 : self.size) : Math.max(0, Number(n));
  if (k === 0) return new PyList([]);
  if (k <= TOP_K && k < self.size) return new PyList(topK(ctx, self, k));
  return new PyList(mostCommon(ctx, self).slice(0, k));
}

export const COUNTER: PyClass = new PyClass(
  "Counter",
  "collections",
  (ctx, args, kwargs) => {
    const c = new Counter(ctx);
    return waitable(after(update(ctx, c, iterableArg("__init__", args), kwargs), () => c));
  },
  null,
);

COUNTER.attrs.set(
  "fromkeys",
  new PyBuiltin("Counter.fromkeys", () => {
    throw pyError("NotImplementedError", "Counter.fromkeys() is undefined.  Use Counter(iterable) instead.");
  }),
);

const methods: Record<string, (ctx: NativeContext, self: Counter, args: Value[], kwargs: Kwargs | null) => Value> = {
  most_common: mostCommonMethod,
  elements(ctx, self, args, kwargs) {
    noKwargs("Counter.elements", kwargs);
    if (args.length) throw pyError("TypeError", `Counter.elements() takes 1 positional argument but ${args.length + 1} were given`);
    return elements(ctx, self);
  },
  total(ctx, self, args, kwargs) {
    noKwargs("Counter.total", kwargs);
    if (args.length) throw pyError("TypeError", `Counter.total() takes 1 positional argument but ${args.length + 1} were given`);
    ctx.budget.step(self.size);
    let sum: Value = 0;
    for (const v of self.map.values()) sum = binary("+", sum, v, ctx.budget);
    return sum;
  },
  update(ctx, self, args, kwargs) {
    return waitable(after(update(ctx, self, iterableArg("update", args), kwargs), () => null));
  },
  subtract(ctx, self, args, kwargs) {
    return waitable(after(subtract(ctx, self, iterableArg("subtract", args), kwargs), () => null));
  },
  copy(ctx, self, args, kwargs) {
    noKwargs("Counter.copy", kwargs);
    if (args.length) throw pyError("TypeError", `Counter.copy() takes 1 positional argument but ${args.length + 1} were given`);
    const out = new Counter(ctx);
    copyEntries(ctx.budget, out, self);
    return out;
  },
};
for (const [name, fn] of Object.entries(methods)) COUNTER.methods.set(name, fn);
