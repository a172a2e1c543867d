// The endless itertools: count, cycle and repeat. Nothing is made ahead: each item is made (and
// charged) when asked for, so `next(count())` is instant and a loop over one ends at the budget.
import { pyError } from "../../errors.js";
import { ClassedIterator } from "../../instance.js";
import { bind, type NativeContext } from "../../native.js";
import { DONE } from "../../objects.js";
import { binary, iterate } from "../../ops.js";
import { CLOSURE, ITERATOR, SLOT, storedSize } from "../../sizes.js";
import { PyFloat, type Value } from "../../values.js";
import { indexArg, itemsPaid, iteratorOf, itertoolsClass, onlyKeywords } from "./iterators.js";

function isNumber(v: Value): boolean {
  return typeof v === "number" || typeof v === "bigint" || typeof v === "boolean" || v instanceof PyFloat;
}

/** count(start, step): its repr shows where it is, `count(5)` or `count(5, 2)`, as CPython's. */
class Count extends ClassedIterator {
  constructor(
    ctx: NativeContext,
    private current: Value,
    private readonly stride: Value,
  ) {
    super(COUNT, () => {
      const v = this.current;
      ctx.budget.step(1);
      this.current = binary("+", this.current, this.stride, ctx.budget);
      return v;
    }, ITERATOR + CLOSURE);
  }

  override pyRepr(repr: (v: Value) => string = String): string {
    const s = this.stride;
    const one = s === 1;
    return one ? `count(${repr(this.current)})` : `count(${repr(this.current)}, ${repr(s)})`;
  }
}

/** repeat(object, times): its repr shows what is left, `repeat('a', 2)`. */
class Repeat extends ClassedIterator {
  constructor(
    ctx: NativeContext,
    private readonly object: Value,
    private left: number | null,
  ) {
    super(
      REPEAT,
      () => {
        if (this.left !== null) {
          if (this.left <= 0) return DONE;
          this.left--;
        }
        ctx.budget.step(1);
        return this.object;
      },
      ITERATOR + CLOSURE,
      true,
    );
  }

  override pyRepr(repr: (v: Value) => string = String): string {
    return this.left === null ? `repeat(${repr(this.object)})` : `repeat(${repr(this.object)}, ${this.left})`;
  }
}

export const COUNT = itertoolsClass("count", (ctx, args, kwargs) => {
  onlyKeywords("count", kwargs, ["start", "step"]);
  if (args.length > 2) throw pyError("TypeError", `count() takes at most 2 arguments (${args.length} given)`);
  const [start, step] = bind("count", { names: ["start", "step"], required: 0 }, args, kwargs);
  const from = start ?? 0;
  const by = step ?? 1;
  if (!isNumber(from) || !isNumber(by)) throw pyError("TypeError", "a number is required");
  // CPython counts in machine ints when it can: True counts as 1 (`count(True)` is `count(1)`).
  return new Count(ctx, typeof from === "boolean" ? Number(from) : from, typeof by === "boolean" ? Number(by) : by);
});

export const REPEAT = itertoolsClass("repeat", (ctx, args, kwargs) => {
  onlyKeywords("repeat", kwargs, ["object", "times"]);
  if (args.length > 2) throw pyError("TypeError", `repeat() takes at most 2 arguments (${args.length} given)`);
  const [object, times] = bind("repeat", { names: ["object", "times"], required: 1 }, args, kwargs);
  return new Repeat(ctx, object!, times === undefined ? null : Math.max(0, indexArg(times)));
});

export const CYCLE = itertoolsClass("cycle", (ctx, args, kwargs) => {
  onlyKeywords("cycle", kwargs, []);
  if (args.length !== 1) throw pyError("TypeError", `cycle expected 1 argument, got ${args.length}`);
  const source = args[0]!;
  const paid = itemsPaid(source);
  let next: (() => Value | typeof DONE) | null = iterate(source);
  // The first pass's items, kept for the passes after it.
  const saved: Value[] = [];
  let i = 0;
  return iteratorOf(
    CYCLE,
    () => {
      if (next !== null) {
        const v = next();
        if (v !== DONE) {
          ctx.budget.step(1);
          ctx.budget.alloc(paid ? SLOT : storedSize(v));
          saved.push(v);
          return v;
        }
        next = null;
      }
      if (saved.length === 0) return DONE;
      ctx.budget.step(1);
      const v = saved[i]!;
      i = (i + 1) % saved.length;
      return v;
    },
    3,
    [source],
    paid,
  );
});
