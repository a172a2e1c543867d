// Named tuples of the standard library's C types (time.struct_time, datetime.IsoCalendarDate):
// values that behave as tuples of their fields (indexing, slicing, unpacking, len, comparison and
// hashing with tuples, + and *, count and index) and name each field as an attribute. Unlike
// CPython's, they are not instances of `tuple` (isinstance(t, tuple) is False), and they cross the
// JSON boundary as arrays.
import type { Budget } from "../budget.js";
import { NOT_HANDLED, type NotHandled, type Operator, type Ordering, PyClass, PyInstance } from "../instance.js";
import { lookupMethod } from "../methods/index.js";
import type { NativeFn } from "../native.js";
import { DONE } from "../objects.js";
import { binary, compare, equals, getItem } from "../ops.js";
import { SLOT, TUPLE } from "../sizes.js";
import { hashKey, type HashKey, PyTuple, type Value } from "../values.js";

/** The class of a named tuple: its fields (those in the tuple, then attribute-only ones). */
export class TupleLikeClass extends PyClass {
  constructor(
    name: string,
    module: string,
    construct: NativeFn,
    /** The fields the tuple holds, in order. */
    readonly fields: readonly string[],
    /** Fields reachable by name only (struct_time's tm_zone and tm_gmtoff). */
    readonly extras: readonly string[] = [],
  ) {
    super(name, module, construct);
    for (const method of ["count", "index"]) {
      this.methods.set(method, (ctx, self: TupleLike, args, kwargs) => {
        const tuple = self.asTuple();
        return lookupMethod(tuple, method)!(ctx, tuple, args, kwargs);
      });
    }
  }
}

export class TupleLike extends PyInstance {
  constructor(
    readonly type: TupleLikeClass,
    readonly items: readonly Value[],
    /** Values of the type's extra fields, in order. */
    readonly extraValues: readonly Value[] = [],
  ) {
    super();
  }

  get cls(): PyClass {
    return this.type;
  }

  override get typeName(): string {
    return `${this.type.module}.${this.type.name}`;
  }

  override heapBytes(): number {
    return 48 + TUPLE + SLOT * (this.items.length + this.extraValues.length);
  }

  asTuple(): PyTuple {
    return new PyTuple(this.items);
  }

  pyRepr(repr: (v: Value) => string): string {
    const fields = this.type.fields.map((f, i) => `${f}=${repr(this.items[i]!)}`);
    return `${this.typeName}(${fields.join(", ")})`;
  }

  override pyAttr(name: string): Value | undefined {
    const i = this.type.fields.indexOf(name);
    if (i >= 0) return this.items[i];
    const j = this.type.extras.indexOf(name);
    if (j >= 0) return this.extraValues[j] ?? null;
    return undefined;
  }

  override pyHash(): HashKey | null {
    return hashKey(this.asTuple());
  }

  override pyEquals(other: Value): boolean {
    const items = itemsOf(other);
    return items !== null && equals(this.asTuple(), new PyTuple(items));
  }

  override pyCompare(op: Ordering, other: Value, budget: Budget): boolean | NotHandled {
    const items = itemsOf(other);
    if (items === null) return NOT_HANDLED;
    return compare(op, this.asTuple(), new PyTuple(items), budget);
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    if (op !== "+" && op !== "*") return NOT_HANDLED;
    const items = itemsOf(other);
    const operand = items === null ? other : new PyTuple(items);
    // On the left, a tuple's + and * (with their errors); on the right, only what a tuple takes.
    if (!reflected) return binary(op, this.asTuple(), operand, budget);
    if (op === "+" && items !== null) return binary("+", operand, this.asTuple(), budget);
    if (op === "*" && (typeof other === "number" || typeof other === "bigint" || typeof other === "boolean")) return binary("*", this.asTuple(), other, budget);
    return NOT_HANDLED;
  }

  override pyLen(): number {
    return this.items.length;
  }

  override pyBool(): boolean {
    return this.items.length > 0;
  }

  override pyIter(): () => Value | typeof DONE {
    let i = 0;
    return () => (i < this.items.length ? this.items[i++]! : DONE);
  }

  override pyGetItem(key: Value, budget: Budget): Value {
    return getItem(this.asTuple(), key, budget);
  }

  override pyJson(): Value {
    return this.asTuple();
  }
}

function itemsOf(v: Value): readonly Value[] | null {
  if (v instanceof PyTuple) return v.items;
  if (v instanceof TupleLike) return v.items;
  return null;
}
