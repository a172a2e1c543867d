// The bisect module of CPython 3.11 (its C version, _bisect): binary search of a sorted sequence,
// and insertion that keeps it sorted. The probes and comparisons are CPython's, in its order
// (`x < a[mid]` to the right, `a[mid] < x` to the left), so a key function sees the same items
// and an unorderable pair fails on the same comparison.
//
// Budget: a step per probe, and the key call; insort charges what list.insert does.
import { pyError } from "../errors.js";
import { bind, type Kwargs, type NativeContext, type NativeFn } from "../native.js";
import { PyBuiltin } from "../objects.js";
import { compare, getItem, length } from "../ops.js";
import { storedSize } from "../sizes.js";
import { PyList, typeName, type Value } from "../values.js";

const NAMES = ["a", "x", "lo", "hi", "key"] as const;

interface Search {
  a: Value;
  x: Value;
  lo: number;
  hi: number;
  key: Value;
}

/** The arguments of bisect_*(a, x, lo=0, hi=None, *, key=None) and insort_*, worded as Argument Clinic words them. */
function searchArgs(name: string, args: Value[], kwargs: Kwargs | null): Search {
  if (args.length > 4) throw pyError("TypeError", `${name}() takes at most 4 positional arguments (${args.length} given)`);
  if (kwargs !== null) {
    for (const k of kwargs.keys()) if (!(NAMES as readonly string[]).includes(k)) throw pyError("TypeError", `'${k}' is an invalid keyword argument for ${name}()`);
  }
  const [a, x, lo, hi, key] = bind(name, { names: NAMES, required: 2 }, args, kwargs);
  const low = lo === undefined ? 0 : index(lo);
  // hi=-1 is Argument Clinic's stand-in for None: it means the whole sequence too.
  let high = hi === undefined || hi === null ? -1 : hiIndex(hi);
  if (low < 0) throw pyError("ValueError", "lo must be non-negative");
  if (high === -1) high = length(a!);
  return { a: a!, x: x!, lo: low, hi: high, key: key ?? null };
}

function index(v: Value): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") throw pyError("OverflowError", "Python int too large to convert to C ssize_t");
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
}

function hiIndex(v: Value): number {
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return index(v);
  throw pyError("TypeError", `argument should be integer or None, not '${typeName(v)}'`);
}

function itemAt(ctx: NativeContext, a: Value, i: number, key: Value): Value {
  ctx.budget.step(1);
  const item = a instanceof PyList && i < a.items.length ? a.items[i]! : getItem(a, i, ctx.budget);
  return key === null ? item : ctx.call(key, [item]);
}

/** The index after the last item <= x (CPython's internal_bisect_right). */
export function bisectRight(ctx: NativeContext, a: Value, x: Value, lo: number, hi: number, key: Value): number {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (compare("<", x, itemAt(ctx, a, mid, key), ctx.budget)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The index of the first item >= x (CPython's internal_bisect_left). */
export function bisectLeft(ctx: NativeContext, a: Value, x: Value, lo: number, hi: number, key: Value): number {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (compare("<", itemAt(ctx, a, mid, key), x, ctx.budget)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function bisector(name: string, search: typeof bisectLeft): NativeFn {
  return (ctx, args, kwargs) => {
    const s = searchArgs(name, args, kwargs);
    return search(ctx, s.a, s.x, s.lo, s.hi, s.key);
  };
}

function insorter(name: string, search: typeof bisectLeft): NativeFn {
  return (ctx, args, kwargs) => {
    const s = searchArgs(name, args, kwargs);
    // The key applies to x once, then to the items probed.
    const at = search(ctx, s.a, s.key === null ? s.x : ctx.call(s.key, [s.x]), s.lo, s.hi, s.key);
    if (s.a instanceof PyList) {
      const items = s.a.items;
      const i = Math.min(at, items.length);
      ctx.budget.step(items.length - i + 1);
      ctx.budget.alloc(storedSize(s.x));
      items.splice(i, 0, s.x);
      return null;
    }
    // Anything else is asked to insert, as CPython asks it.
    ctx.call(ctx.getAttr(s.a, "insert"), [at, s.x]);
    return null;
  };
}

export const BISECT_MODULE: Record<string, NativeFn | Value> = {
  bisect_left: bisector("bisect_left", bisectLeft),
  bisect_right: bisector("bisect_right", bisectRight),
  // An alias: the same built-in, named as CPython names it.
  bisect: new PyBuiltin("bisect_right", bisector("bisect_right", bisectRight)),
  insort_left: insorter("insort_left", bisectLeft),
  insort_right: insorter("insort_right", bisectRight),
  insort: new PyBuiltin("insort_right", insorter("insort_right", bisectRight)),
};
