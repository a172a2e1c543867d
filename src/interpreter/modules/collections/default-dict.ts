// collections.defaultdict: a dict whose missing keys are made by its factory and stored. The
// factory (a type, a built-in, a lambda) runs synchronously when a subscript misses, so one that
// waits on a tool call is refused (natives cannot wait).
import type { Budget } from "../../budget.js";
import { pyError } from "../../errors.js";
import { NOT_HANDLED, type NotHandled, type Operator, PyClass } from "../../instance.js";
import { dictFromKeys } from "../../methods/containers.js";
import { noKwargs, type NativeContext } from "../../native.js";
import { after, PyBuiltin } from "../../objects.js";
import { waitable } from "../../stepping.js";
import { entrySize } from "../../sizes.js";
import { PyDict, type Value } from "../../values.js";
import { copyEntries, fillDict } from "./dicts.js";
import { isCallable } from "../../builtins.js";

export class DefaultDict extends PyDict {
  constructor(
    /** The execution whose interpreter runs the factory. */
    readonly ctx: NativeContext,
    readonly factory: Value,
  ) {
    super();
  }

  override get cls(): PyClass {
    return DEFAULTDICT;
  }

  /** `d[key]` of a missing key: the factory's value, stored; None as factory keeps the KeyError. */
  pyMissing(key: Value, budget: Budget): Value | undefined {
    if (this.factory === null) return undefined;
    const value = this.ctx.call(this.factory, []);
    budget.alloc(entrySize(key, value));
    this.set(key, value);
    return value;
  }

  pyAttr(name: string): Value | undefined {
    return name === "default_factory" ? this.factory : undefined;
  }

  pyRepr(repr: (v: Value) => string, dict: () => string): string {
    return `defaultdict(${repr(this.factory)}, ${dict()})`;
  }

  /** `d | other` and `other | d` with a dict: a defaultdict of the same factory. */
  pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    if (op !== "|" || !(other instanceof PyDict)) return NOT_HANDLED;
    const out = new DefaultDict(this.ctx, this.factory);
    copyEntries(budget, out, reflected ? other : this);
    copyEntries(budget, out, reflected ? this : other);
    return out;
  }

  copy(ctx: NativeContext): DefaultDict {
    const out = new DefaultDict(ctx, this.factory);
    copyEntries(ctx.budget, out, this);
    return out;
  }
}

export const DEFAULTDICT: PyClass = new PyClass(
  "defaultdict",
  "collections",
  (ctx, args, kwargs) => {
    const factory = args.length ? args[0]! : null;
    if (factory !== null && !isCallable(factory)) throw pyError("TypeError", "first argument must be callable or None");
    const d = new DefaultDict(ctx, factory);
    return waitable(after(fillDict(ctx, d, args.slice(1), kwargs, (n) => `dict expected at most 1 argument, got ${n}`), () => d));
  },
  null,
  "collections.defaultdict",
);

DEFAULTDICT.methods.set("copy", (ctx, self: DefaultDict, args, kwargs) => {
  noKwargs("copy", kwargs);
  if (args.length) throw pyError("TypeError", `defaultdict.copy() takes no arguments (${args.length} given)`);
  return self.copy(ctx);
});

DEFAULTDICT.attrs.set(
  "fromkeys",
  new PyBuiltin("fromkeys", (ctx, args, kwargs) => {
    noKwargs("fromkeys", kwargs);
    const d = new DefaultDict(ctx, null);
    // fromkeys charged the entries it made; they move over.
    d.update(dictFromKeys(ctx, args));
    return d;
  }),
);
