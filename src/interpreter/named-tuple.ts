// Named tuples: urllib.parse's ParseResult and SplitResult, typing.NamedTuple, and
// collections.namedtuple. A named tuple is a PyTuple (every tuple operation applies: indexing,
// slicing, unpacking, equality with plain tuples, hashing, `+`) whose `cls` is its
// NamedTupleClass, which gives it field attributes, its repr `P(x=1, y=2)`, `_asdict`,
// `_replace`, `_fields` and `_make`, worded as CPython's generated class words its errors.
import { pyError } from "./errors.js";
import { PyClass } from "./instance.js";
import type { Kwargs, NativeContext, NativeMethod } from "./native.js";
import { PyBoundMethod, PyBuiltin } from "./objects.js";
import { entrySize, itemsSize, TUPLE } from "./sizes.js";
import { PyDict, PyTuple, type Value } from "./values.js";

/** A named tuple's value: a tuple whose class names its fields. */
export class NamedTuple extends PyTuple {
  constructor(
    readonly type: NamedTupleClass,
    items: readonly Value[],
  ) {
    super(items);
  }

  override get cls(): NamedTupleClass {
    return this.type;
  }

  pyRepr(repr: (v: Value) => string): string {
    const fields = this.type.fields;
    return `${this.type.name}(${this.items.map((v, i) => `${fields[i]}=${repr(v)}`).join(", ")})`;
  }
}

/** A named tuple type: callable with its fields by position or by name. */
export class NamedTupleClass extends PyClass {
  /** Read-only attributes computed from the value (ParseResult's `hostname`, `port`...). */
  readonly properties = new Map<string, (t: NamedTuple) => Value>();
  private readonly index = new Map<string, number>();

  constructor(
    name: string,
    module: string,
    readonly fields: readonly string[],
    /** The defaults of the last `defaults.length` fields. */
    readonly defaults: readonly Value[] = [],
  ) {
    super(name, module, (ctx, args, kwargs) => this.newValue(ctx, args, kwargs), null);
    fields.forEach((f, i) => this.index.set(f, i));
    this.attrs.set("_fields", new PyTuple(fields));
    this.attrs.set(
      "_make",
      new PyBuiltin(`${name}._make`, (ctx, args, kwargs) => {
        const [iterable] = bindPython(`${name}._make`, ["iterable"], [], args, kwargs, 1);
        const items = ctx.toList(iterable!);
        if (items.length !== fields.length) throw pyError("TypeError", `Expected ${fields.length} arguments, got ${items.length}`);
        return this.make(ctx, items);
      }),
    );
    for (const [method, fn] of NAMED_TUPLE_METHODS) this.methods.set(method, fn);
  }

  /** `_field_defaults` is a fresh dict each time: a class is shared by every execution. */
  override attr(name: string): Value | undefined {
    if (name !== "_field_defaults") return super.attr(name);
    const d = new PyDict();
    this.defaults.forEach((v, i) => d.set(this.fields[this.fields.length - this.defaults.length + i]!, v));
    return d;
  }

  /** A value of this type from its items (as many as there are fields), charged to the budget. */
  make(ctx: NativeContext | null, items: readonly Value[]): NamedTuple {
    ctx?.budget.alloc(TUPLE + itemsSize(items));
    return new NamedTuple(this, items);
  }

  /** The position of field `name`, or undefined. */
  fieldIndex(name: string): number | undefined {
    return this.index.get(name);
  }

  private newValue(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): NamedTuple {
    const items = bindPython(`${this.name}.__new__`, this.fields, this.defaults, args, kwargs, 1);
    return this.make(ctx, items);
  }
}

const NAMED_TUPLE_METHODS = new Map<string, NativeMethod<NamedTuple>>([
  [
    "_asdict",
    (ctx, self, args, kwargs) => {
      bindPython(`${self.type.name}._asdict`, [], [], args, kwargs, 1);
      const d = new PyDict();
      self.type.fields.forEach((f, i) => {
        ctx.budget.alloc(entrySize(f, self.items[i]!));
        d.set(f, self.items[i]!);
      });
      return d;
    },
  ],
  [
    "_replace",
    (ctx, self, args, kwargs) => {
      if (args.length > 0) throw pyError("TypeError", `${self.type.name}._replace() takes 1 positional argument but ${args.length + 1} were given`);
      const items = [...self.items];
      const unknown: string[] = [];
      for (const [k, v] of kwargs ?? []) {
        const i = self.type.fieldIndex(k);
        if (i === undefined) unknown.push(k);
        else items[i] = v;
      }
      if (unknown.length > 0) throw pyError("ValueError", `Got unexpected field names: [${unknown.map((k) => `'${k}'`).join(", ")}]`);
      return self.type.make(ctx, items);
    },
  ],
]);

/**
 * `t.name` of a named tuple: a field, a computed property, a class attribute (`_fields`) or a
 * method; undefined lets the tuple methods (`count`, `index`) and the AttributeError follow.
 */
export function namedTupleAttribute(t: PyTuple, name: string): Value | undefined {
  if (!(t instanceof NamedTuple)) return undefined;
  const cls = t.type;
  const i = cls.fieldIndex(name);
  if (i !== undefined) return t.items[i]!;
  const property = cls.properties.get(name);
  if (property !== undefined) return property(t);
  const v = cls.attr(name);
  if (v !== undefined) return v;
  const method = cls.method(name);
  if (method) return new PyBoundMethod(t, name, (ctx, args, kwargs) => method(ctx, t, args, kwargs));
  return undefined;
}

/**
 * Binds arguments to the parameters of a function written in Python (`def __new__(_cls, x, y=5)`),
 * with the interpreter's wording for its errors. `implicit` counts the parameters before `names`
 * (`_cls`, `self`) that CPython includes in its counts.
 */
export function bindPython(
  qualname: string,
  names: readonly string[],
  defaults: readonly Value[],
  args: readonly Value[],
  kwargs: Kwargs | null,
  implicit = 0,
): Value[] {
  const required = names.length - defaults.length;
  if (args.length > names.length) {
    const most = names.length + implicit;
    const least = required + implicit;
    const takes = least === most ? `${most} positional argument${most === 1 ? "" : "s"}` : `from ${least} to ${most} positional arguments`;
    const given = args.length + implicit;
    throw pyError("TypeError", `${qualname}() takes ${takes} but ${given} ${given === 1 ? "was" : "were"} given`);
  }
  const out: (Value | undefined)[] = names.map((_, i) => args[i]);
  for (const [k, v] of kwargs ?? []) {
    const i = names.indexOf(k);
    if (i < 0) throw pyError("TypeError", `${qualname}() got an unexpected keyword argument '${k}'`);
    if (out[i] !== undefined) throw pyError("TypeError", `${qualname}() got multiple values for argument '${k}'`);
    out[i] = v;
  }
  const missing = names.filter((n, i) => i < required && out[i] === undefined);
  if (missing.length > 0) {
    const quoted = missing.map((n) => `'${n}'`);
    const list = quoted.length === 1 ? quoted[0] : quoted.length === 2 ? `${quoted[0]} and ${quoted[1]}` : `${quoted.slice(0, -1).join(", ")}, and ${quoted.at(-1)}`;
    throw pyError("TypeError", `${qualname}() missing ${missing.length} required positional argument${missing.length === 1 ? "" : "s"}: ${list}`);
  }
  return out.map((v, i) => (v === undefined ? defaults[i - required]! : v));
}
