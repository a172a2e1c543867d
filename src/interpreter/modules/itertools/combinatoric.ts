// The combinatoric itertools: product, permutations, combinations and
// combinations_with_replacement. As CPython's, each reads its inputs into pools first (charged
// as a list of them would be), then makes its tuples one at a time, in CPython's order (the
// index-walking algorithms of the itertools documentation), each charged when made.
import { pyError } from "../../errors.js";
import type { PyClass } from "../../instance.js";
import { bind, type NativeContext } from "../../native.js";
import { DONE } from "../../objects.js";
import { PyTuple, type Value } from "../../values.js";
import { type Cursor, indexArg, iteratorOf, itertoolsClass, onlyKeywords } from "./iterators.js";

/** A combinatoric iterator: `advance` moves the indices on (false at the end), `make` the tuple. */
function walk(ctx: NativeContext, cls: PyClass, r: number, empty: boolean, advance: () => boolean, make: () => Value[], pools: readonly Value[]): Value {
  let started = false;
  let done = empty;
  const next: Cursor = () => {
    if (done) return DONE;
    if (started && !advance()) {
      done = true;
      return DONE;
    }
    started = true;
    ctx.budget.step(1 + r);
    return new PyTuple(make());
  };
  return iteratorOf(cls, next, 4, pools, false);
}

/** `r` of permutations: None (the pool's length) or a non-negative int. */
function permutationsR(v: Value | undefined, n: number): number {
  if (v === undefined || v === null) return n;
  if (typeof v !== "number" && typeof v !== "boolean" && typeof v !== "bigint") throw pyError("TypeError", "Expected int as r");
  return nonNegative(indexArg(v));
}

function nonNegative(r: number): number {
  if (r < 0) throw pyError("ValueError", "r must be non-negative");
  return r;
}

export const PRODUCT: PyClass = itertoolsClass("product", (ctx, args, kwargs) => {
  onlyKeywords("product", kwargs, ["repeat"]);
  const repeatArg = kwargs?.get("repeat");
  const repeat = repeatArg === undefined ? 1 : indexArg(repeatArg);
  if (repeat < 0) throw pyError("ValueError", "repeat argument cannot be negative");
  const distinct = args.map((a) => ctx.toList(a));
  ctx.budget.step(distinct.length * repeat);
  const pools: Value[][] = [];
  for (let i = 0; i < repeat; i++) pools.push(...distinct);
  const r = pools.length;
  const indices = new Array<number>(r).fill(0);
  const advance = () => {
    for (let i = r - 1; i >= 0; i--) {
      ctx.budget.step(1);
      if (++indices[i]! < pools[i]!.length) return true;
      indices[i] = 0;
    }
    return false;
  };
  return walk(ctx, PRODUCT, r, pools.some((p) => p.length === 0), advance, () => indices.map((j, i) => pools[i]![j]!), args);
});

export const PERMUTATIONS: PyClass = itertoolsClass("permutations", (ctx, args, kwargs) => {
  onlyKeywords("permutations", kwargs, ["iterable", "r"]);
  const [iterable, rArg] = bind("permutations", { names: ["iterable", "r"], required: 1 }, args, kwargs);
  const pool = ctx.toList(iterable!);
  const n = pool.length;
  const r = permutationsR(rArg, n);
  const indices = Array.from({ length: n }, (_, i) => i);
  const cycles = Array.from({ length: r }, (_, i) => n - i);
  const advance = () => {
    for (let i = r - 1; i >= 0; i--) {
      ctx.budget.step(1);
      cycles[i]!--;
      if (cycles[i] === 0) {
        // indices[i:] = indices[i+1:] + indices[i:i+1]
        ctx.budget.step((n - i) >> 3);
        indices.push(indices.splice(i, 1)[0]!);
        cycles[i] = n - i;
      } else {
        const j = n - cycles[i]!;
        [indices[i], indices[j]] = [indices[j]!, indices[i]!];
        return true;
      }
    }
    return false;
  };
  return walk(ctx, PERMUTATIONS, r, r > n, advance, () => indices.slice(0, r).map((i) => pool[i]!), [iterable!]);
});

/** combinations and combinations_with_replacement: both take (iterable, r). */
function combinationsOf(name: string, withReplacement: boolean): PyClass {
  const cls: PyClass = itertoolsClass(name, (ctx, args, kwargs) => {
    onlyKeywords(name, kwargs, ["iterable", "r"]);
    const [iterable, rArg] = bind(name, { names: ["iterable", "r"], required: 2 }, args, kwargs);
    const pool = ctx.toList(iterable!);
    const n = pool.length;
    const r = nonNegative(indexArg(rArg!));
    const indices = Array.from({ length: r }, (_, i) => (withReplacement ? 0 : i));
    const advance = withReplacement
      ? () => {
          let i = r - 1;
          while (i >= 0 && indices[i] === n - 1) i--;
          ctx.budget.step(r - i);
          if (i < 0) return false;
          const v = indices[i]! + 1;
          for (let j = i; j < r; j++) indices[j] = v;
          return true;
        }
      : () => {
          let i = r - 1;
          while (i >= 0 && indices[i] === i + n - r) i--;
          ctx.budget.step(r - i);
          if (i < 0) return false;
          indices[i]!++;
          for (let j = i + 1; j < r; j++) indices[j] = indices[j - 1]! + 1;
          return true;
        };
    const empty = withReplacement ? n === 0 && r > 0 : r > n;
    return walk(ctx, cls, r, empty, advance, () => indices.map((i) => pool[i]!), [iterable!]);
  });
  return cls;
}

export const COMBINATIONS = combinationsOf("combinations", false);
export const COMBINATIONS_WITH_REPLACEMENT = combinationsOf("combinations_with_replacement", true);
