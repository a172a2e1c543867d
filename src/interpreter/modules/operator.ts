// The operator module of CPython 3.11: the operators as functions (add, lt, getitem...), each the
// interpreter's own operation, and the callable types itemgetter, attrgetter and methodcaller,
// with CPython's reprs (`operator.itemgetter(1)`).
import { bitLength, linearSteps } from "../bigint-cost.js";
import { pyError } from "../errors.js";
import { percentFormat } from "../format.js";
import { PyClass, PyInstance } from "../instance.js";
import type { Kwargs, NativeContext, NativeFn } from "../native.js";
import { binary, type BinaryOp, compare, contains, delItem, equals, getItem, iterate, setItem, unary } from "../ops.js";
import { DONE } from "../objects.js";
import { normInt, PyBytes, PyFloat, PyList, PyRange, PyTuple, truthy, typeName, type Value } from "../values.js";
import { exactly } from "../py-bind.js";

/** A function of two operands: `add expected 2 arguments, got 1` when called otherwise. */
function two(name: string, f: (ctx: NativeContext, a: Value, b: Value) => Value): NativeFn {
  return (ctx, args, kwargs) => {
    exactly(name, 2, args, kwargs, `_operator.${name}`);
    return f(ctx, args[0]!, args[1]!);
  };
}

function one(name: string, f: (ctx: NativeContext, a: Value) => Value): NativeFn {
  return (ctx, args, kwargs) => {
    exactly(name, 1, args, kwargs, `_operator.${name}`);
    return f(ctx, args[0]!);
  };
}

/** `a op b`; `%` of a str formats it, as the operator does. */
const binaryFn = (name: string, op: BinaryOp): NativeFn =>
  two(name, (ctx, a, b) => binary(op, a, b, ctx.budget, (template, args) => percentFormat(ctx, template, args)));

function absolute(ctx: NativeContext, v: Value): Value {
  if (typeof v === "number") return Math.abs(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") {
    if (v >= 0n) return v;
    ctx.budget.step(linearSteps(bitLength(v)));
    return normInt(-v);
  }
  if (v instanceof PyFloat) return new PyFloat(Math.abs(v.v));
  throw pyError("TypeError", `bad operand type for abs(): '${typeName(v)}'`);
}

/** operator.index: an int (a bool as its int); anything else is a TypeError. */
function index(v: Value): Value {
  if (typeof v === "number" || typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
}

/** CPython's PySequence_Check: what concat accepts on its left. */
function isSequence(v: Value): boolean {
  return typeof v === "string" || v instanceof PyList || v instanceof PyTuple || v instanceof PyBytes || v instanceof PyRange || (v instanceof PyInstance && v.pyGetItem !== undefined);
}

function concat(ctx: NativeContext, a: Value, b: Value): Value {
  if (!isSequence(a) || a instanceof PyRange) throw pyError("TypeError", `'${typeName(a)}' object can't be concatenated`);
  return binary("+", a, b, ctx.budget);
}

/** countOf and indexOf: items that are `v` or equal to it, as CPython's `is`-then-`==` test. */
function scan(ctx: NativeContext, seq: Value, v: Value, first: boolean): number {
  const next = iterate(seq);
  let n = 0;
  let i = 0;
  for (let item = next(); item !== DONE; item = next(), i++) {
    ctx.budget.step(1);
    if (item === v || equals(item, v)) {
      if (first) return i;
      n++;
    }
  }
  if (first) throw pyError("ValueError", "sequence.index(x): x not in sequence");
  return n;
}

// ------------------------------------------------------------------ the callable types

/** itemgetter, attrgetter and methodcaller: callables that remember what they fetch. */
abstract class Getter extends PyInstance {
  abstract fetch(ctx: NativeContext, obj: Value): Value;

  override get typeName(): string {
    return `operator.${this.cls.name}`;
  }

  override pyCall(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
    const name = this.cls.name;
    if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", `${name}() takes no keyword arguments`);
    if (args.length !== 1) throw pyError("TypeError", `${name} expected 1 argument, got ${args.length}`);
    ctx.budget.step(1);
    return this.fetch(ctx, args[0]!);
  }
}

class ItemGetter extends Getter {
  constructor(readonly items: readonly Value[]) {
    super();
  }

  get cls(): PyClass {
    return ITEMGETTER;
  }

  fetch(ctx: NativeContext, obj: Value): Value {
    if (this.items.length === 1) return getItem(obj, this.items[0]!, ctx.budget);
    ctx.budget.step(this.items.length);
    return new PyTuple(this.items.map((k) => getItem(obj, k, ctx.budget)));
  }

  pyRepr(repr: (v: Value) => string): string {
    return `operator.itemgetter(${this.items.map(repr).join(", ")})`;
  }
}

class AttrGetter extends Getter {
  private readonly paths: readonly string[][];

  constructor(readonly names: readonly string[]) {
    super();
    this.paths = names.map((n) => n.split("."));
  }

  get cls(): PyClass {
    return ATTRGETTER;
  }

  fetch(ctx: NativeContext, obj: Value): Value {
    const one = (path: string[]): Value => {
      let v = obj;
      for (const name of path) v = ctx.getAttr(v, name);
      return v;
    };
    if (this.paths.length === 1) return one(this.paths[0]!);
    ctx.budget.step(this.paths.length);
    return new PyTuple(this.paths.map(one));
  }

  pyRepr(repr: (v: Value) => string): string {
    return `operator.attrgetter(${this.names.map(repr).join(", ")})`;
  }
}

class MethodCaller extends Getter {
  constructor(
    readonly name: string,
    readonly args: Value[],
    readonly kwargs: Kwargs | null,
  ) {
    super();
  }

  get cls(): PyClass {
    return METHODCALLER;
  }

  /** The method's result is the caller's, even one that waits on a tool call. */
  fetch(ctx: NativeContext, obj: Value): Value {
    return ctx.callMayWait(ctx.getAttr(obj, this.name), this.args, this.kwargs);
  }

  pyRepr(repr: (v: Value) => string): string {
    const parts = [repr(this.name), ...this.args.map(repr)];
    if (this.kwargs !== null) for (const [k, v] of this.kwargs) parts.push(`${k}=${repr(v)}`);
    return `operator.methodcaller(${parts.join(", ")})`;
  }
}

function noKeywords(name: string, kwargs: Kwargs | null): void {
  if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", `${name}() takes no keyword arguments`);
}

const ITEMGETTER = new PyClass("itemgetter", "operator", (_ctx, args, kwargs) => {
  noKeywords("itemgetter", kwargs);
  if (args.length === 0) throw pyError("TypeError", "itemgetter expected 1 argument, got 0");
  return new ItemGetter(args.slice());
});

const ATTRGETTER = new PyClass("attrgetter", "operator", (_ctx, args, kwargs) => {
  noKeywords("attrgetter", kwargs);
  if (args.length === 0) throw pyError("TypeError", "attrgetter expected 1 argument, got 0");
  const names = args.map((a) => {
    if (typeof a !== "string") throw pyError("TypeError", "attribute name must be a string");
    return a;
  });
  return new AttrGetter(names);
});

const METHODCALLER = new PyClass("methodcaller", "operator", (_ctx, args, kwargs) => {
  if (args.length === 0) throw pyError("TypeError", "methodcaller needs at least one argument, the method name");
  const name = args[0]!;
  if (typeof name !== "string") throw pyError("TypeError", "method name must be a string");
  return new MethodCaller(name, args.slice(1), kwargs !== null && kwargs.size > 0 ? new Map(kwargs) : null);
});

const comparison = (name: string, op: "<" | "<=" | ">" | ">="): NativeFn => two(name, (ctx, a, b) => compare(op, a, b, ctx.budget));

export const OPERATOR_MODULE: Record<string, NativeFn | Value> = {
  add: binaryFn("add", "+"),
  sub: binaryFn("sub", "-"),
  mul: binaryFn("mul", "*"),
  truediv: binaryFn("truediv", "/"),
  floordiv: binaryFn("floordiv", "//"),
  mod: binaryFn("mod", "%"),
  pow: binaryFn("pow", "**"),
  matmul: binaryFn("matmul", "@"),
  lshift: binaryFn("lshift", "<<"),
  rshift: binaryFn("rshift", ">>"),
  and_: binaryFn("and_", "&"),
  or_: binaryFn("or_", "|"),
  xor: binaryFn("xor", "^"),
  neg: one("neg", (ctx, a) => unary("-", a, ctx.budget)),
  pos: one("pos", (ctx, a) => unary("+", a, ctx.budget)),
  invert: one("invert", (ctx, a) => unary("~", a, ctx.budget)),
  inv: one("inv", (ctx, a) => unary("~", a, ctx.budget)),
  abs: one("abs", absolute),
  index: one("index", (_ctx, a) => index(a)),
  not_: one("not_", (_ctx, a) => !truthy(a)),
  truth: one("truth", (_ctx, a) => truthy(a)),
  eq: two("eq", (_ctx, a, b) => equals(a, b)),
  ne: two("ne", (_ctx, a, b) => !equals(a, b)),
  lt: comparison("lt", "<"),
  le: comparison("le", "<="),
  gt: comparison("gt", ">"),
  ge: comparison("ge", ">="),
  // Numbers are values here, as CPython's small ints are cached objects: equal ones are one object.
  is_: two("is_", (_ctx, a, b) => a === b),
  is_not: two("is_not", (_ctx, a, b) => a !== b),
  contains: two("contains", (ctx, a, b) => contains(a, b, ctx.budget)),
  countOf: two("countOf", (ctx, a, b) => scan(ctx, a, b, false)),
  indexOf: two("indexOf", (ctx, a, b) => scan(ctx, a, b, true)),
  concat: two("concat", concat),
  getitem: two("getitem", (ctx, a, b) => getItem(a, b, ctx.budget)),
  setitem: (ctx, args, kwargs) => {
    exactly("setitem", 3, args, kwargs, "_operator.setitem");
    setItem(args[0]!, args[1]!, args[2]!, ctx.budget);
    return null;
  },
  delitem: two("delitem", (ctx, a, b) => {
    delItem(a, b, ctx.budget);
    return null;
  }),
  itemgetter: ITEMGETTER,
  attrgetter: ATTRGETTER,
  methodcaller: METHODCALLER,
};
