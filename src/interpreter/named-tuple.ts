// Named tuples: tuples whose type has a name and names for its fields (`collections.namedtuple`'s
// classes, `urllib.parse.urlparse`'s result). An instance is a PyTuple, so every tuple operation
// applies to it as in CPython (indexing, unpacking, slicing to a plain tuple, equality and hashing
// as the tuple of its items, the JSON boundary sending a list); its class adds the field names as
// attributes, `_asdict()`, `_replace()`, `_fields`, `_field_defaults`, `_make()` and the repr
// `Point(x=1, y=2)`.
//
//   const RESULT = new NamedTupleClass("SplitResult", "urllib.parse", ["scheme", "netloc", ...]);
//   RESULT.properties.set("hostname", (self) => ...);   // a computed attribute
//   RESULT.methods.set("geturl", (ctx, self) => ...);    // a method
//   const value = RESULT.make(ctx, [scheme, netloc, ...]);
import { pyError } from "./errors.js";
import { PyClass } from "./instance.js";
import { bind, type Kwargs, type NativeContext, noKwargs } from "./native.js";
import { PyBuiltin } from "./objects.js";
import { entrySize, itemsSize, SLOT, TUPLE } from "./sizes.js";
import { PyDict, PyTuple, type Value } from "./values.js";

/** An instance of a named tuple class: a tuple with its class. */
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

  /** `Point(x=1, y=2)`: `repr` renders the items. */
  pyRepr(repr: (v: Value) => string): string {
    const fields = this.type.fields;
    return `${this.type.name}(${this.items.map((v, i) => `${fields[i]}=${repr(v)}`).join(", ")})`;
  }

  /** A field (`p.x`) or a computed attribute of its class; undefined for anything else. */
  pyAttr(name: string): Value | undefined {
    const i = this.type.index.get(name);
    if (i !== undefined) return this.items[i]!;
    return this.type.properties.get(name)?.(this);
  }
}

/** The type of named tuples with `fields`: callable with the fields by position or by name. */
export class NamedTupleClass extends PyClass {
  /** Each field's position. */
  readonly index = new Map<string, number>();
  /** Data attributes computed from an instance, besides the fields (urllib's `hostname`). */
  readonly properties = new Map<string, (self: NamedTuple) => Value>();

  constructor(
    name: string,
    module: string,
    /** The field names: valid identifiers, distinct, none starting with `_` (the caller checks). */
    readonly fields: readonly string[],
    /** The defaults of the last `defaults.length` fields. */
    readonly defaults: readonly Value[] = [],
  ) {
    super(name, module, (ctx, args, kwargs) => this.bindNew(ctx, args, kwargs));
    fields.forEach((f, i) => this.index.set(f, i));
    this.attrs.set("_fields", new PyTuple(fields));
    this.attrs.set(
      "_make",
      new PyBuiltin(`${name}._make`, (ctx, args, kwargs) => {
        const [iterable] = bind(`${name}._make`, { names: ["iterable"], required: 1 }, args, kwargs);
        return this.makeFrom(ctx, iterable!);
      }),
    );
    this.methods.set("_asdict", (ctx, self: NamedTuple, args, kwargs) => {
      noKwargs(`${name}._asdict`, kwargs);
      if (args.length) throw pyError("TypeError", `${name}._asdict() takes 1 positional argument but ${args.length + 1} were given`);
      return asDict(ctx, self);
    });
    this.methods.set("_replace", (ctx, self: NamedTuple, args, kwargs) => this.replace(ctx, self, args, kwargs));
  }

  /** `_field_defaults` is a fresh dict each time: a class is shared by every execution. */
  override attr(name: string): Value | undefined {
    return name === "_field_defaults" ? this.fieldDefaults() : super.attr(name);
  }

  /** An instance holding `values`, one per field (the caller passes the right number), charged to `ctx`'s budget. */
  make(ctx: NativeContext | null, values: readonly Value[]): NamedTuple {
    ctx?.budget.alloc(TUPLE + itemsSize(values));
    return new NamedTuple(this, values);
  }

  /** The position of field `name`, or undefined. */
  fieldIndex(name: string): number | undefined {
    return this.index.get(name);
  }

  /** `Point(1, y=2)`: CPython's `__new__` binding, with its messages. */
  private bindNew(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): NamedTuple {
    const fields = this.fields;
    const n = fields.length;
    const optional = this.defaults.length;
    if (args.length > n) {
      const range = optional ? `from ${n - optional + 1} to ${n + 1}` : `${n + 1}`;
      throw pyError("TypeError", `${this.name}.__new__() takes ${range} positional arguments but ${args.length + 1} were given`);
    }
    const values: (Value | undefined)[] = fields.map((_, i) => args[i]);
    if (kwargs) {
      for (const [key, value] of kwargs) {
        const i = this.index.get(key);
        if (i === undefined) throw pyError("TypeError", `${this.name}.__new__() got an unexpected keyword argument '${key}'`);
        if (values[i] !== undefined) throw pyError("TypeError", `${this.name}.__new__() got multiple values for argument '${key}'`);
        values[i] = value;
      }
    }
    const missing: string[] = [];
    for (let i = 0; i < n; i++) {
      if (values[i] !== undefined) continue;
      const d = i - (n - optional);
      if (d >= 0) values[i] = this.defaults[d]!;
      else missing.push(`'${fields[i]}'`);
    }
    if (missing.length) {
      const names = missing.length === 1 ? missing[0] : missing.length === 2 ? missing.join(" and ") : `${missing.slice(0, -1).join(", ")}, and ${missing.at(-1)}`;
      throw pyError("TypeError", `${this.name}.__new__() missing ${missing.length} required positional argument${missing.length === 1 ? "" : "s"}: ${names}`);
    }
    ctx.budget.step(n);
    ctx.budget.alloc(SLOT * n);
    return new NamedTuple(this, values as Value[]);
  }

  /** `Point._make(iterable)`: exactly one item per field. */
  makeFrom(ctx: NativeContext, iterable: Value): NamedTuple {
    const items = ctx.toList(iterable);
    if (items.length !== this.fields.length) throw pyError("TypeError", `Expected ${this.fields.length} arguments, got ${items.length}`);
    return new NamedTuple(this, items);
  }

  private replace(ctx: NativeContext, self: NamedTuple, args: Value[], kwargs: Kwargs | null): NamedTuple {
    if (args.length) throw pyError("TypeError", `${this.name}._replace() takes 1 positional argument but ${args.length + 1} were given`);
    const items = self.items.slice();
    ctx.budget.step(items.length);
    ctx.budget.alloc(itemsSize(items));
    const unknown: string[] = [];
    if (kwargs) {
      for (const [key, value] of kwargs) {
        const i = this.index.get(key);
        if (i === undefined) unknown.push(key);
        else items[i] = value;
      }
    }
    if (unknown.length) throw pyError("ValueError", `Got unexpected field names: [${unknown.map((k) => `'${k}'`).join(", ")}]`);
    return new NamedTuple(this, items);
  }

  private fieldDefaults(): PyDict {
    const d = new PyDict();
    const first = this.fields.length - this.defaults.length;
    this.defaults.forEach((v, i) => d.set(this.fields[first + i]!, v));
    return d;
  }
}

/** `p._asdict()`: a dict of the fields in order. */
function asDict(ctx: NativeContext, self: NamedTuple): PyDict {
  const d = new PyDict();
  const fields = self.type.fields;
  ctx.budget.step(fields.length);
  self.items.forEach((v, i) => {
    ctx.budget.alloc(entrySize(fields[i]!, v));
    d.set(fields[i]!, v);
  });
  return d;
}
