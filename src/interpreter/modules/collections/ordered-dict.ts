// collections.OrderedDict: a dict (whose order a PyDict keeps already) with move_to_end,
// popitem(last=), equality that minds the order between two OrderedDicts, and 3.11's repr
// `OrderedDict([('a', 1)])`.
import type { Budget } from "../../budget.js";
import { EXC, pyError, PyException } from "../../errors.js";
import { NOT_HANDLED, type NotHandled, type Operator, PyClass } from "../../instance.js";
import { dictFromKeys } from "../../methods/containers.js";
import { bind, type NativeContext, noKwargs } from "../../native.js";
import { after, PyBuiltin } from "../../objects.js";
import { waitable } from "../../stepping.js";
import { equals, hashOf } from "../../ops.js";
import { PyDict, PyTuple, truthy, type Value } from "../../values.js";
import { copyEntries, dictEquals, fillDict } from "./dicts.js";

export class OrderedDict extends PyDict {
  override get cls(): PyClass {
    return ORDERED_DICT;
  }

  pyRepr(repr: (v: Value) => string): string {
    if (this.size === 0) return "OrderedDict()";
    // A cycle back to itself prints as `...`, as CPython's reprlib.recursive_repr does.
    if (REPRS.has(this)) return "...";
    REPRS.add(this);
    try {
      return `OrderedDict([${[...this.entries()].map(([k, v]) => `(${repr(k)}, ${repr(v)})`).join(", ")}])`;
    } finally {
      REPRS.delete(this);
    }
  }

  /** Between two OrderedDicts the order counts; against any other dict it does not. */
  pyEquals(other: Value): boolean {
    if (!(other instanceof PyDict)) return false;
    if (!(other instanceof OrderedDict)) return dictEquals(this, other);
    if (this.size !== other.size) return false;
    const theirs = other.map.entries();
    for (const [k, v] of this.map) {
      const [k2, w] = theirs.next().value as [unknown, Value];
      if (k !== k2 || (v !== w && !equals(v, w))) return false;
    }
    return true;
  }

  /** `od | other` and `other | od` with a dict: an OrderedDict. */
  pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    if (op !== "|" || !(other instanceof PyDict)) return NOT_HANDLED;
    const out = new OrderedDict();
    copyEntries(budget, out, reflected ? other : this);
    copyEntries(budget, out, reflected ? this : other);
    return out;
  }
}

const REPRS = new Set<OrderedDict>();

export const ORDERED_DICT: PyClass = new PyClass(
  "OrderedDict",
  "collections",
  (ctx, args, kwargs) => {
    const d = new OrderedDict();
    return waitable(after(fillDict(ctx, d, args, kwargs, (n) => `expected at most 1 arguments, got ${n}`), () => d));
  },
  null,
  "collections.OrderedDict",
);

/** `od.move_to_end(key, last=True)`: to the end, or to the front (rebuilding the order). */
function moveToEnd(ctx: NativeContext, self: OrderedDict, key: Value, last: boolean): void {
  const k = hashOf(key, ctx.budget);
  const value = self.map.get(k);
  if (value === undefined) throw new PyException(EXC.KeyError, [key]);
  const original = self.keyOf(k);
  if (last) {
    self.delete(original);
    self.set(original, value);
    return;
  }
  ctx.budget.step(self.size);
  self.delete(original);
  const rest = [...self.entries()];
  self.clear();
  self.set(original, value);
  for (const [k2, v] of rest) self.set(k2, v);
}

ORDERED_DICT.methods.set("move_to_end", (ctx, self: OrderedDict, args, kwargs) => {
  const [key, last] = bind("move_to_end", { names: ["key", "last"], required: 1 }, args, kwargs);
  moveToEnd(ctx, self, key!, last === undefined || truthy(last));
  return null;
});

ORDERED_DICT.methods.set("popitem", (ctx, self: OrderedDict, args, kwargs) => {
  const [last] = bind("popitem", { names: ["last"], required: 0 }, args, kwargs);
  if (self.size === 0) throw new PyException(EXC.KeyError, ["dictionary is empty"]);
  let k = self.map.keys().next().value!;
  if (last === undefined || truthy(last)) {
    // A Map has no way to its last entry but through the others.
    ctx.budget.step(self.size);
    for (const each of self.map.keys()) k = each;
  }
  const key = self.keyOf(k);
  const value = self.map.get(k)!;
  self.delete(key);
  return new PyTuple([key, value]);
});

ORDERED_DICT.methods.set("copy", (ctx, self: OrderedDict, args, kwargs) => {
  noKwargs("copy", kwargs);
  if (args.length) throw pyError("TypeError", `OrderedDict.copy() takes no arguments (${args.length} given)`);
  const out = new OrderedDict();
  copyEntries(ctx.budget, out, self);
  return out;
});

ORDERED_DICT.attrs.set(
  "fromkeys",
  new PyBuiltin("fromkeys", (ctx, args, kwargs) => {
    noKwargs("fromkeys", kwargs);
    const d = new OrderedDict();
    // fromkeys charged the entries it made; they move over.
    d.update(dictFromKeys(ctx, args));
    return d;
  }),
);
