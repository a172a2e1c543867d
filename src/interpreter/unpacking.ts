// Unpacking, as both tiers do it: an iterable into assignment targets (`a, *b = xs`), and the
// starred items of a display spliced in (`[*a, b]`). Each charges what it collects.
import { pyError } from "./errors.js";
import { DONE, Pending, PyIterator } from "./objects.js";
import { rewordNotIterable, storedSize } from "./ops.js";
import type { Runtime } from "./runtime.js";
import { collectItems, drainItems } from "./stepping.js";
import { PyList, PyTuple, type Value } from "./values.js";

/** The values `v` unpacks into for `count` targets, the one at `starAt` (if >= 0) starred. */
export function unpackItems(rt: Runtime, v: Value, count: number, starAt: number): Value[] {
  let items: Value[];
  if (starAt < 0 && (v instanceof PyTuple || v instanceof PyList)) {
    // The usual `a, b = pair` collects nothing, so charges no memory (a list's items are copied
    // when they fit: assigning the targets may change the list).
    rt.budget.step(v.items.length);
    items = v instanceof PyList && v.items.length === count ? [...v.items] : (v.items as Value[]);
  } else {
    try {
      items = starAt < 0 && v instanceof PyIterator ? takeAtMost(v, count + 1) : rt.toList(v);
    } catch (e) {
      throw rewordNotIterable(e, v, (type) => `cannot unpack non-iterable ${type} object`);
    }
  }
  return unpacked(items, count, starAt);
}

/**
 * unpackItems of an iterator whose items may wait (a generator expression's): as many items as
 * CPython takes (one past the targets, to see that there are no more; all with a starred
 * target), waiting for each.
 */
export function unpackWaiting(rt: Runtime, v: PyIterator, count: number, starAt: number): Value[] | Pending {
  // The starred target's list is kept, and charged as collected; the others are not containers.
  let items: Value[] | Pending;
  if (starAt < 0) {
    const taken: Value[] = [];
    const r = drainItems(v, (x) => taken.push(x) > count);
    items = r === undefined ? taken : r.then(() => taken);
  } else items = collectItems(v, rt.budget);
  return items instanceof Pending ? items.then((xs: Value[]) => unpacked(xs, count, starAt)) : unpacked(items, count, starAt);
}

/** The values of `count` targets from the `items` of an iterable (ValueError when they do not fit). */
function unpacked(items: Value[], count: number, starAt: number): Value[] {
  if (starAt < 0) {
    if (items.length !== count) {
      if (items.length < count) throw pyError("ValueError", `not enough values to unpack (expected ${count}, got ${items.length})`);
      throw pyError("ValueError", `too many values to unpack (expected ${count})`);
    }
    return items;
  }
  const after = count - starAt - 1;
  if (items.length < count - 1) throw pyError("ValueError", `not enough values to unpack (expected at least ${count - 1}, got ${items.length})`);
  return [...items.slice(0, starAt), new PyList(items.slice(starAt, items.length - after)), ...items.slice(items.length - after)];
}

/** Up to n items of an iterator: unpacking stops at the first surplus item, as CPython's does. */
function takeAtMost(it: PyIterator, n: number): Value[] {
  const out: Value[] = [];
  while (out.length < n) {
    const x = it.next();
    if (x === DONE) break;
    out.push(x);
  }
  return out;
}

/**
 * The items of a display whose elements are `values`, each one marked in `starred` replaced by its
 * items (`[*a, b]`). `reword`: CPython 3.11 re-words a bad `*x` in list and tuple displays.
 * Everything is charged as it is collected (the starred items by rt.toList).
 */
export function spliceStarred(rt: Runtime, values: readonly Value[], starred: readonly boolean[], reword: boolean): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!starred[i]) {
      rt.budget.alloc(storedSize(v));
      out.push(v);
      continue;
    }
    let items: Value[];
    try {
      items = rt.toList(v);
    } catch (err) {
      throw reword ? rewordNotIterable(err, v, (type) => `Value after * must be an iterable, not ${type}`) : err;
    }
    for (const item of items) out.push(item);
  }
  return out;
}
