// The itertools that end with their shortest input: chain, islice, groupby, accumulate,
// zip_longest, takewhile, dropwhile, filterfalse, starmap, pairwise, batched, compress and tee.
// Each pulls from its inputs only when asked for an item, in CPython's order (islice and groupby
// follow itertoolsmodule.c step by step), so that a shared iterator is left where CPython leaves it.
import { pyError } from "../../errors.js";
import type { ClassedIterator, PyClass } from "../../instance.js";
import { bind, type NativeContext } from "../../native.js";
import { DONE, PyBuiltin, type Step } from "../../objects.js";
import { binary, equals, iterate } from "../../ops.js";
import { SLOT, TUPLE } from "../../sizes.js";
import { NEVER_PAUSE, pacedPassing, type Passed } from "../../stepping.js";
import { PyTuple, truthy, type Value } from "../../values.js";
import { type Cursor, exactly, indexArg, itemsPaid, iteratorOf, itertoolsClass, noKeywords, onlyKeywords } from "./iterators.js";

// ------------------------------------------------------------------ chain

/** The items of each iterable in turn; each is iter()'d only when reached. */
function chained(ctx: NativeContext, sources: Cursor, paid: boolean): Value {
  let current: Cursor | null = null;
  return iteratorOf(
    CHAIN,
    () => {
      for (;;) {
        if (current === null) {
          const source = sources();
          if (source === DONE) return DONE;
          current = iterate(source);
        }
        const v = current();
        if (v !== DONE) {
          ctx.budget.step(1);
          return v;
        }
        current = null;
      }
    },
    3,
    [],
    paid,
  );
}

export const CHAIN: PyClass = itertoolsClass("chain", (ctx, args, kwargs) => {
  noKeywords("chain", kwargs);
  let i = 0;
  return chained(ctx, () => (i < args.length ? args[i++]! : DONE), args.every(itemsPaid));
});

CHAIN.attrs.set(
  "from_iterable",
  // A class attribute that is a function: `chain.from_iterable(iterables)`.
  new PyBuiltin("from_iterable", (ctx, args, kwargs) => {
    noKeywords("from_iterable", kwargs);
    if (args.length !== 1) throw pyError("TypeError", `chain.from_iterable() takes exactly one argument (${args.length} given)`);
    return chained(ctx, iterate(args[0]!), false);
  }),
);

// ------------------------------------------------------------------ islice

/** The `stop` (or `start`) of islice: None, or an int from 0 to sys.maxsize. */
function sliceBound(v: Value | undefined, what: "Stop argument" | "Indices"): number | null {
  if (v === undefined || v === null) return null;
  const ok = (typeof v === "number" && v >= 0) || typeof v === "boolean" || (typeof v === "bigint" && v > 0n && v <= MAX_SIZE);
  if (!ok) throw pyError("ValueError", `${what} for islice() must be None or an integer: 0 <= x <= sys.maxsize.`);
  // Past 2^53 no iterator gets there within any budget.
  return typeof v === "bigint" ? Number.MAX_SAFE_INTEGER : Number(v);
}

/** sys.maxsize. */
const MAX_SIZE = (1n << 63n) - 1n;

export const ISLICE = itertoolsClass("islice", (ctx, args, kwargs) => {
  noKeywords("islice", kwargs);
  if (args.length < 2) throw pyError("TypeError", `islice expected at least 2 arguments, got ${args.length}`);
  if (args.length > 4) throw pyError("TypeError", `islice expected at most 4 arguments, got ${args.length}`);
  const source = args[0]!;
  let start = 0;
  let stop: number | null;
  let step = 1;
  if (args.length === 2) stop = sliceBound(args[1], "Stop argument");
  else {
    start = sliceBound(args[1], "Indices") ?? 0;
    stop = sliceBound(args[2], "Stop argument");
    const s = args[3];
    if (s !== undefined && s !== null) {
      const ok = (typeof s === "number" && s > 0) || s === true || (typeof s === "bigint" && s > 0n && s <= MAX_SIZE);
      if (!ok) throw pyError("ValueError", "Step for islice() must be a positive integer or None.");
      step = typeof s === "bigint" ? Number.MAX_SAFE_INTEGER : Number(s);
    }
  }
  let next: Cursor | null = iterate(source);
  // As islice_next: `count` items taken from the source so far, `at` the index of the next to give.
  let count = 0;
  let at = start;
  return iteratorOf(
    ISLICE,
    () => {
      if (next === null) return DONE;
      while (count < at) {
        ctx.budget.step(1);
        if (next() === DONE) {
          next = null;
          return DONE;
        }
        count++;
      }
      if (stop !== null && count >= stop) {
        next = null;
        return DONE;
      }
      const v = next();
      if (v === DONE) {
        next = null;
        return DONE;
      }
      ctx.budget.step(1);
      count++;
      at += step;
      if (stop !== null && at > stop) at = stop;
      return v;
    },
    2,
    [source],
    itemsPaid(source),
  );
});

// ------------------------------------------------------------------ groupby

export const GROUPBY = itertoolsClass("groupby", (ctx, args, kwargs) => {
  onlyKeywords("groupby", kwargs, ["iterable", "key"]);
  if (args.length > 2) throw pyError("TypeError", `groupby() takes at most 2 arguments (${args.length} given)`);
  const [iterable, keyArg] = bind("groupby", { names: ["iterable", "key"], required: 1 }, args, kwargs);
  const key = keyArg ?? null;
  const next = iterate(iterable!);
  // groupbyobject's fields; undefined is C's NULL.
  let targetKey: Value | undefined;
  let currentKey: Value | undefined;
  let currentValue: Value | undefined;
  let currentGrouper: object | null = null;
  /** groupby_step: the next item and its key, or false at the end. */
  const stepOn = (): boolean => {
    const v = next();
    if (v === DONE) return false;
    ctx.budget.step(1);
    currentKey = key === null ? v : ctx.call(key, [v]);
    currentValue = v;
    return true;
  };
  const paid = itemsPaid(iterable!);
  return iteratorOf(
    GROUPBY,
    () => {
      currentGrouper = null;
      for (;;) {
        if (currentKey === undefined) {
          // pass: step below
        } else if (targetKey === undefined) break;
        else if (!equals(targetKey, currentKey)) break;
        if (!stepOn()) return DONE;
      }
      targetKey = currentKey;
      const groupKey = targetKey!;
      const grouper = iteratorOf(
        GROUPER,
        () => {
          if (currentGrouper !== grouper) return DONE;
          if (currentValue === undefined && !stepOn()) return DONE;
          if (!equals(groupKey, currentKey!)) return DONE;
          const v = currentValue!;
          currentValue = undefined;
          currentKey = undefined;
          return v;
        },
        1,
        [],
        paid,
      );
      currentGrouper = grouper;
      return new PyTuple([currentKey!, grouper]);
    },
    4,
    [iterable!],
    false,
  );
});

/** The class of groupby's groups (not in the module's namespace, as in CPython). */
const GROUPER = itertoolsClass("_grouper", () => {
  throw pyError("TypeError", "cannot create 'itertools._grouper' instances");
});

// ------------------------------------------------------------------ accumulate

export const ACCUMULATE = itertoolsClass("accumulate", (ctx, args, kwargs) => {
  onlyKeywords("accumulate", kwargs, ["iterable", "func", "initial"]);
  if (args.length > 2) throw pyError("TypeError", `accumulate() takes at most 2 positional arguments (${args.length} given)`);
  const initial = kwargs?.get("initial") ?? null;
  const rest = kwargs && kwargs.has("initial") ? new Map([...kwargs].filter(([k]) => k !== "initial")) : kwargs;
  const [iterable, funcArg] = bind("accumulate", { names: ["iterable", "func"], required: 1 }, args, rest);
  const func = funcArg ?? null;
  const next = iterate(iterable!);
  let total: Value | undefined;
  let first = initial !== null;
  return iteratorOf(
    ACCUMULATE,
    () => {
      if (first) {
        first = false;
        total = initial!;
        ctx.budget.step(1);
        return total;
      }
      const v = next();
      if (v === DONE) return DONE;
      ctx.budget.step(1);
      total = total === undefined ? v : func === null ? binary("+", total, v, ctx.budget) : ctx.call(func, [total, v]);
      return total;
    },
    3,
    [iterable!],
    false,
  );
});

// ------------------------------------------------------------------ zip_longest

export const ZIP_LONGEST = itertoolsClass("zip_longest", (ctx, args, kwargs) => {
  for (const k of kwargs?.keys() ?? []) if (k !== "fillvalue") throw pyError("TypeError", "zip_longest() got an unexpected keyword argument");
  const fill = kwargs?.get("fillvalue") ?? null;
  const cursors: (Cursor | null)[] = args.map((a) => iterate(a));
  let active = cursors.length;
  return iteratorOf(
    ZIP_LONGEST,
    () => {
      if (active === 0) return DONE;
      const row: Value[] = new Array<Value>(cursors.length);
      for (let i = 0; i < cursors.length; i++) {
        const c = cursors[i];
        let v: Value | typeof DONE = DONE;
        if (c !== null) {
          v = c();
          if (v === DONE) {
            cursors[i] = null;
            if (--active === 0) return DONE;
          }
        }
        row[i] = v === DONE ? fill : v;
      }
      ctx.budget.step(1 + (row.length >> 3));
      return new PyTuple(row);
    },
    2 + cursors.length,
    args,
    false,
  );
});

// ------------------------------------------------------------------ predicates and maps

/**
 * An iterator's cursor made twice over one state: as its `next` (with NEVER_PAUSE) and as its
 * `step` (pausing every PACE items passed over), so that one that skips a long run of items
 * cannot hold the event loop.
 */
type Skipping = (passed: Passed) => Step;

function skipping(cls: PyClass, ctx: NativeContext, cursor: Skipping, inputs: readonly Value[], paid: boolean): ClassedIterator {
  return iteratorOf(cls, cursor(NEVER_PAUSE) as Cursor, 3, inputs, paid, cursor(pacedPassing(ctx)));
}

/** takewhile, dropwhile and filterfalse: a predicate, then an iterable. */
function predicated(name: string, make: (ctx: NativeContext, test: (v: Value) => boolean, next: Cursor) => Skipping): PyClass {
  const cls: PyClass = itertoolsClass(name, (ctx, args, kwargs) => {
    noKeywords(name, kwargs);
    exactly(name, args, 2);
    const [predicate, iterable] = args as [Value, Value];
    const test = (v: Value) => truthy(predicate === null && name === "filterfalse" ? v : ctx.call(predicate, [v]));
    return skipping(cls, ctx, make(ctx, test, iterate(iterable)), [iterable], itemsPaid(iterable));
  });
  return cls;
}

export const TAKEWHILE = predicated("takewhile", (ctx, test, next) => {
  let done = false;
  return () => () => {
    if (done) return DONE;
    const v = next();
    if (v === DONE) return DONE;
    ctx.budget.step(1);
    if (test(v)) return v;
    done = true;
    return DONE;
  };
});

export const DROPWHILE = predicated("dropwhile", (ctx, test, next) => {
  let dropping = true;
  return (passed) => {
    const find: Step = () => {
      for (let v = next(); v !== DONE; v = next()) {
        ctx.budget.step(1);
        if (!dropping || !test(v)) {
          dropping = false;
          return v;
        }
        const paused = passed();
        if (paused !== null) return paused.then(find);
      }
      return DONE;
    };
    return find;
  };
});

export const FILTERFALSE = predicated("filterfalse", (ctx, test, next) => (passed) => {
  const find: Step = () => {
    for (let v = next(); v !== DONE; v = next()) {
      ctx.budget.step(1);
      if (!test(v)) return v;
      const paused = passed();
      if (paused !== null) return paused.then(find);
    }
    return DONE;
  };
  return find;
});

export const STARMAP: PyClass = itertoolsClass("starmap", (ctx, args, kwargs) => {
  noKeywords("starmap", kwargs);
  exactly("starmap", args, 2);
  const [fn, iterable] = args as [Value, Value];
  const next = iterate(iterable);
  return iteratorOf(
    STARMAP,
    () => {
      const v = next();
      if (v === DONE) return DONE;
      ctx.budget.step(1);
      return ctx.call(fn, v instanceof PyTuple ? [...v.items] : ctx.toList(v));
    },
    2,
    [iterable],
    false,
  );
});

export const COMPRESS: PyClass = itertoolsClass("compress", (ctx, args, kwargs) => {
  onlyKeywords("compress", kwargs, ["data", "selectors"]);
  if (args.length > 2) throw pyError("TypeError", `compress() takes at most 2 arguments (${args.length} given)`);
  const [data, selectors] = bind("compress", { names: ["data", "selectors"], required: 2 }, args, kwargs);
  const nextData = iterate(data!);
  const nextSelector = iterate(selectors!);
  const cursor: Skipping = (passed) => {
    const find: Step = () => {
      for (;;) {
        const v = nextData();
        if (v === DONE) return DONE;
        const s = nextSelector();
        if (s === DONE) return DONE;
        ctx.budget.step(1);
        if (truthy(s)) return v;
        const paused = passed();
        if (paused !== null) return paused.then(find);
      }
    };
    return find;
  };
  return skipping(COMPRESS, ctx, cursor, [data!, selectors!], itemsPaid(data!));
});

// ------------------------------------------------------------------ pairwise and batched

export const PAIRWISE: PyClass = itertoolsClass("pairwise", (ctx, args, kwargs) => {
  noKeywords("pairwise", kwargs);
  exactly("pairwise", args, 1);
  const next = iterate(args[0]!);
  let previous: Value | typeof DONE | undefined;
  return iteratorOf(
    PAIRWISE,
    () => {
      if (previous === undefined) previous = next();
      if (previous === DONE) return DONE;
      const v = next();
      if (v === DONE) {
        previous = DONE;
        return DONE;
      }
      ctx.budget.step(1);
      const pair = new PyTuple([previous, v]);
      previous = v;
      return pair;
    },
    2,
    args,
    false,
  );
});

/** batched(iterable, n), as 3.12's: tuples of n items, the last one shorter. */
export const BATCHED: PyClass = itertoolsClass("batched", (ctx, args, kwargs) => {
  onlyKeywords("batched", kwargs, ["iterable", "n"]);
  if (args.length > 2) throw pyError("TypeError", `batched() takes at most 2 arguments (${args.length} given)`);
  const [iterable, nArg] = bind("batched", { names: ["iterable", "n"], required: 2 }, args, kwargs);
  const n = indexArg(nArg!);
  if (n < 1) throw pyError("ValueError", "n must be at least one");
  let next: Cursor | null = iterate(iterable!);
  return iteratorOf(
    BATCHED,
    () => {
      if (next === null) return DONE;
      const batch: Value[] = [];
      while (batch.length < n) {
        const v = next();
        if (v === DONE) {
          next = null;
          break;
        }
        ctx.budget.step(1);
        // The batch grows before it is a tuple: its slots are charged as they are filled.
        ctx.budget.alloc(SLOT);
        batch.push(v);
      }
      if (batch.length === 0) return DONE;
      ctx.budget.alloc(TUPLE);
      return new PyTuple(batch);
    },
    2,
    [iterable!],
    false,
  );
});

// ------------------------------------------------------------------ tee

/** One item that a tee's iterators share, linked to the next once it is read. */
interface Link {
  value: Value;
  next: Link | null;
}

export const TEE = itertoolsClass("tee", (ctx, args, kwargs) => {
  noKeywords("tee", kwargs);
  if (args.length < 1) throw pyError("TypeError", `tee expected at least 1 argument, got ${args.length}`);
  if (args.length > 2) throw pyError("TypeError", `tee expected at most 2 arguments, got ${args.length}`);
  const n = args.length > 1 ? indexArg(args[1]!) : 2;
  if (n < 0) throw pyError("ValueError", "n must be >= 0");
  ctx.budget.step(n);
  const source = iterate(args[0]!);
  const paid = itemsPaid(args[0]!);
  // Every iterator walks the same list, which grows at its end as the one furthest ahead reads
  // on; the links behind the last one are garbage.
  const head: Link = { value: null, next: null };
  let exhausted = false;
  const branch = (): Value => {
    let at = head;
    return iteratorOf(
      TEE_ITERATOR,
      () => {
        if (at.next === null) {
          if (exhausted) return DONE;
          const v = source();
          if (v === DONE) {
            exhausted = true;
            return DONE;
          }
          ctx.budget.alloc(48);
          at.next = { value: v, next: null };
        }
        ctx.budget.step(1);
        at = at.next;
        return at.value;
      },
      1,
      [],
      paid,
    );
  };
  ctx.budget.alloc(TUPLE + SLOT * n);
  return new PyTuple(Array.from({ length: n }, branch));
});

/** The class of tee's iterators. */
const TEE_ITERATOR = itertoolsClass("_tee", () => {
  throw pyError("TypeError", "cannot create 'itertools._tee' instances");
});
