// Consuming an iterable item by item when an item may have to wait.
//
// Every iterator has a synchronous `next` (PyIterator in objects.ts). A generator expression
// computes each item when it is asked for, and computing one may suspend (a tool call in its
// element): such an iterator, and an iterator made over one (enumerate, zip, map, filter), also
// has `step`, which may return a Pending. Whatever can wait takes items through the helpers
// here: both tiers' `for` loops, comprehensions, unpacking and `in`, and the built-ins that
// consume an iterable (list(), sum(), any(), next(), "".join()...). A native that cannot wait
// keeps using iterate() or ctx.toList(): a generator's `next` runs its step synchronously, and a
// tool call there raises RuntimeError (Runtime.synchronously).
//
// A native adopts this by keeping its synchronous path for the common case and waiting only
// when waits(v) says it must; its result may then be a Pending, which every call site takes:
//
//   if (!waits(v)) return syncPath(ctx.toList(v));
//   let total = 0;
//   return waitable(after(drainItems(v, (item) => { total += ...; }), () => total));
//
// drainItems is for per-item work that runs no Python code; with a callback (a key function),
// use forEachItem.
//
// The same paths keep a long iterable from holding the event loop (issue 18): given a Pacer (a
// native's ctx), they pause every PACE items while the execution's time slice is used up, as
// the interpreter's loops do. A native takes them for any lazy iterable (`lazy(v)`: zip, map,
// an itertools chain...), whose items are made one by one at a cost nothing charged up front:
//
//   if (lazy(v)) return waitable(after(drainItems(v, each, ctx), () => total)); An iterator made over others (enumerate, zip, map, filter in builtins.ts) makes
// its cursors with `cursors`, which gives it a `step` when one of its inputs waits:
//
//   const { next, step } = cursors([iterable], ([input]) => () => mapItem(input!(), (v) => ...));
//   return new PyIterator(next, "kind", bytes, false, step);
import type { Budget } from "./budget.js";
import { PyGenerator } from "./generator.js";
import { DONE, Pending, PyDictView, PyIterator, type Step } from "./objects.js";
import { contains, equals, iterate } from "./ops.js";
import { SLOT, storedSize } from "./sizes.js";
import { PyDict, PyList, PyRange, PySet, PyTuple, type Value } from "./values.js";
import { cpLength } from "./strings.js";

/** Whether some item of `v` may have to wait (it is an iterator with a `step`). */
export function waits(v: Value): v is PyIterator {
  return v instanceof PyIterator && v.step !== null;
}

/**
 * Whether `v` makes its items as they are asked for (an iterator of any kind): a native consumes
 * it through the helpers here, with its ctx as the Pacer, so that a long one cannot stall.
 */
export function lazy(v: Value): v is PyIterator {
  return v instanceof PyIterator;
}

/** What lets a loop over items give the event loop a turn (NativeContext.pause). */
export interface Pacer {
  pause?(): Pending | null;
}

/**
 * How many items a paced loop takes between two looks at the clock: 128 of the cheapest (a
 * range's) take about 2 µs, of the dearest (a zip's tuples, stored) about 60 µs.
 */
export const PACE = 128;

/** iterate()'s cursor over `v`, except that it may wait for an item (TypeError if `v` is not iterable). */
export function stepper(v: Value): Step {
  return v instanceof PyIterator && v.step !== null ? v.step : iterate(v);
}

/** The next item of an iterator, DONE, or a Pending of one of them. */
export function stepIterator(it: PyIterator): Value | typeof DONE | Pending {
  return it.step !== null ? it.step() : it.next();
}

/**
 * Calls `each` on the items of `v` in turn, waiting where an item must wait, until they end or
 * `each` returns true. Returns undefined, or a Pending that settles (with undefined) then.
 */
export function forEachItem(v: Value, each: (item: Value) => boolean | void, pacer: Pacer | null = null): undefined | Pending {
  const step = stepper(v);
  let countdown = PACE;
  const loop = (): undefined | Pending => {
    for (;;) {
      if (pacer !== null && --countdown === 0) {
        countdown = PACE;
        const paused = pacer.pause?.() ?? null;
        if (paused) return paused.then(loop);
      }
      const item = step();
      if (item === DONE) return undefined;
      if (item instanceof Pending) return item.then((x: Value | typeof DONE) => (x === DONE || each(x) === true ? undefined : loop()));
      if (each(item) === true) return undefined;
    }
  };
  return loop();
}

/**
 * forEachItem for an `each` that runs no Python code (it collects, adds, hashes, compares without
 * a key): a generator expression is drained, its items fed to `each` as it makes them, which the
 * JavaScript tier does without leaving the generator's code between items.
 */
export function drainItems(v: Value, each: (item: Value) => boolean | void, pacer: Pacer | null = null): undefined | Pending {
  // A generator paces itself: its code gives the event loop turns as any Python code does.
  return v instanceof PyGenerator ? v.drain(each) : forEachItem(v, each, pacer);
}

/**
 * The items of `v`, waiting where one must wait (and pausing, given a pacer): a step each, and
 * each item charged as stored (what an iterator makes is new, paid for nowhere else), or as a
 * slot when the iterator gives items stored elsewhere already (iter() of a list).
 */
export function collectItems(v: Value, budget: Budget, pacer: Pacer | null = null): Value[] | Pending {
  const out: Value[] = [];
  const paid = v instanceof PyIterator && v.paid;
  const r = drainItems(
    v,
    (item) => {
      budget.step(1);
      budget.alloc(paid ? SLOT : storedSize(item));
      out.push(item);
    },
    pacer,
  );
  return r === undefined ? out : r.then(() => out);
}

/**
 * A native's loop over every item of any iterable, as forEachItem, charging a step per item: a
 * sized iterable's (list, str, range, dict, set) all before the first, so that Counter(range(10**9))
 * is refused at once; any other's as each comes. Paced by `ctx`, whatever the iterable, so that a
 * long one cannot hold the event loop. Returns undefined, or a Pending that settles then.
 */
export function eachItem(v: Value, ctx: { budget: Budget } & Pacer, each: (item: Value) => boolean | void): undefined | Pending {
  const size = sizeOfIterable(v);
  const budget = ctx.budget;
  if (size < 0) {
    return drainItems(
      v,
      (item) => {
        budget.step(1);
        return each(item);
      },
      ctx,
    );
  }
  budget.step(size);
  return forEachItem(v, each, size > PACE ? ctx : null);
}

/** How many items `v` gives, when that is known before walking it; -1 otherwise. */
function sizeOfIterable(v: Value): number {
  if (v instanceof PyList || v instanceof PyTuple) return v.items.length;
  if (typeof v === "string") return cpLength(v);
  if (v instanceof PyRange) return v.length;
  if (v instanceof PyDict || v instanceof PySet) return v.size;
  if (v instanceof PyDictView) return v.dict.size;
  return -1;
}

/**
 * `item in v` for an iterator: consumes it up to the first equal item, waiting where an item
 * must wait and pausing through the budget's runtime, so that a long one cannot stall.
 */
export function containsItem(v: PyIterator, item: Value, budget: Budget): boolean | Pending {
  let found = false;
  const r = drainItems(
    v,
    (x) => {
      budget.step(1);
      return (found = equals(x, item));
    },
    budget.pacer,
  );
  return r === undefined ? found : r.then(() => found);
}

/**
 * The result of a native that may have had to wait. Natives are typed to return a Value, but
 * every call site (Runtime.callValue, both tiers' calls) takes a Pending too, as asyncio.run's.
 */
export function waitable(r: Value | Pending): Value {
  return r as Value;
}

/** `item in container`; over an iterator, paced and waiting for items that may have to wait. */
export function isIn(container: Value, item: Value, budget: Budget): boolean | Pending {
  return lazy(container) ? containsItem(container, item, budget) : contains(container, item, budget);
}

/** `item not in container`, as isIn. */
export function isNotIn(container: Value, item: Value, budget: Budget): boolean | Pending {
  if (!lazy(container)) return !contains(container, item, budget);
  const r = containsItem(container, item, budget);
  return r instanceof Pending ? r.then((found: boolean) => !found) : !r;
}

/**
 * The cursors of an iterator made over `inputs` (zip's, map's...): `make` turns the inputs'
 * cursors into its own, and keeps no state of its own (both results share what it reads).
 * `next` is made over the inputs' synchronous cursors, where no item waits, so it never returns a
 * Pending; `step`, made only when some input's items may wait, over their waiting ones. Give
 * both to the PyIterator.
 */
export function cursors(inputs: readonly Value[], make: (inputs: Step[]) => Step): { next: () => Value | typeof DONE; step: Step | null } {
  const sync = inputs.map((v) => iterate(v));
  const next = make(sync) as () => Value | typeof DONE;
  if (!inputs.some(waits)) return { next, step: null };
  // One position per input: the cursor of an input that never waits serves both.
  return { next, step: make(inputs.map((v, i) => (waits(v) ? v.step! : sync[i]!))) };
}

/** Called after each item a cursor passed over: null to go on, or a Pending to return (the cursor goes on once it settles). */
export type Passed = () => Pending | null;

/** For a cursor that cannot return a Pending (an iterator's `next`). */
export const NEVER_PAUSE: Passed = () => null;

/** A Passed that pauses through `pacer` every PACE items passed over. */
export function pacedPassing(pacer: Pacer): Passed {
  let countdown = PACE;
  return () => {
    if (--countdown > 0) return null;
    countdown = PACE;
    return pacer.pause?.() ?? null;
  };
}

/**
 * The cursors of an iterator that may pass over many items before it gives one (filter,
 * filterfalse, dropwhile, compress): as cursors(), but `step` is always made, and the `passed`
 * it is made with pauses through `pacer` every PACE items passed over, so that skipping a
 * billion items cannot hold the event loop (`next`'s never pauses: it cannot return a Pending).
 */
export function skippingCursors(
  inputs: readonly Value[],
  pacer: Pacer,
  make: (inputs: Step[], passed: Passed) => Step,
): { next: () => Value | typeof DONE; step: Step } {
  const sync = inputs.map((v) => iterate(v));
  const next = make(sync, NEVER_PAUSE) as () => Value | typeof DONE;
  return { next, step: make(inputs.map((v, i) => (waits(v) ? v.step! : sync[i]!)), pacedPassing(pacer)) };
}

/**
 * `f` of an item that may be DONE or Pending: DONE stays DONE, a Pending continues with `f` once
 * settled. For iterators made over others (enumerate over a generator expression).
 */
export function mapItem(item: Value | typeof DONE | Pending, f: (v: Value) => Value | typeof DONE | Pending): Value | typeof DONE | Pending {
  if (item === DONE) return DONE;
  if (item instanceof Pending) return item.then((x: Value | typeof DONE) => (x === DONE ? DONE : f(x)));
  return f(item);
}
