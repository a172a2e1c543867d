// The protocol of module-defined types (instance.ts): operators, builtins and attribute lookup
// reach an instance's hooks, and what it does not define behaves as a plain CPython object.
import { describe, expect, it } from "vitest";
import { Budget, DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { NOT_HANDLED, type NotHandled, type Operator, type Ordering, PyClass, PyInstance } from "../../src/interpreter/instance.js";
import { DONE } from "../../src/interpreter/objects.js";
import { binary, compare, contains, equals, getItem, hashOf, iterate, length, unary } from "../../src/interpreter/ops.js";
import { repr, str } from "../../src/interpreter/repr.js";
import { getAttribute } from "../../src/interpreter/runtime.js";
import { hashKey, PyDict, type Value } from "../../src/interpreter/values.js";
import { testContext } from "./native-context.js";
import { thrown } from "./thrown.js";

const budget = () => new Budget(DEFAULT_LIMITS);

/** A toy type: an amount of cents, ordered, hashed by value, addable to ints and to itself. */
class Cents extends PyInstance {
  constructor(readonly n: number) {
    super();
  }
  get cls(): PyClass {
    return CENTS;
  }
  pyRepr(): string {
    return `Cents(${this.n})`;
  }
  override pyStr(): string {
    return `${this.n}c`;
  }
  override pyAttr(name: string): Value | undefined {
    return name === "n" ? this.n : undefined;
  }
  override pyHash() {
    return `\u0000cents${this.n}`;
  }
  override pyEquals(other: Value): boolean {
    return other instanceof Cents && other.n === this.n;
  }
  override pyCompare(op: Ordering, other: Value): boolean | NotHandled {
    if (!(other instanceof Cents)) return NOT_HANDLED;
    return op === "<" ? this.n < other.n : op === "<=" ? this.n <= other.n : op === ">" ? this.n > other.n : this.n >= other.n;
  }
  override pyBinary(op: Operator, other: Value, reflected: boolean): Value | NotHandled {
    if (op !== "+") return NOT_HANDLED;
    if (other instanceof Cents) return new Cents(this.n + other.n);
    if (typeof other === "number") return new Cents(this.n + other);
    void reflected;
    return NOT_HANDLED;
  }
  override pyUnary(op: "-" | "+" | "~"): Value {
    return op === "-" ? new Cents(-this.n) : this;
  }
}

/** A toy sequence of n items, each its index. */
class Seq extends PyInstance {
  constructor(readonly n: number) {
    super();
  }
  get cls(): PyClass {
    return SEQ;
  }
  pyRepr(): string {
    return `Seq(${this.n})`;
  }
  override pyHash() {
    return null;
  }
  override pyLen(): number {
    return this.n;
  }
  override pyIter() {
    let i = 0;
    return () => (i < this.n ? i++ : DONE);
  }
  override pyGetItem(key: Value): Value {
    return key;
  }
}

const CENTS = new PyClass("Cents", "toy", (_ctx, args) => new Cents(args[0] as number));
CENTS.methods.set("double", (_ctx, self: Cents) => new Cents(self.n * 2));
CENTS.attrs.set("zero", new Cents(0));
const SEQ = new PyClass("Seq", "toy", (_ctx, args) => new Seq(args[0] as number));

/** A toy dict subclass whose missing keys read as 0. */
class Zeros extends PyDict {
  override get cls(): PyClass {
    return ZEROS;
  }
  pyMissing(): Value {
    return 0;
  }
  pyRepr(r: (v: Value) => string): string {
    return `Zeros(${[...this.entries()].map(([k, v]) => `${r(k)}=${r(v)}`).join(", ")})`;
  }
}
const ZEROS = new PyClass("Zeros", "toy", () => new Zeros());


describe("module-defined types", () => {
  it("reach their arithmetic, ordering, equality and hash hooks", () => {
    const b = budget();
    expect(repr(binary("+", new Cents(2), new Cents(3), b))).toBe("Cents(5)");
    expect(repr(binary("+", 4, new Cents(3), b))).toBe("Cents(7)");
    expect(repr(unary("-", new Cents(3), b))).toBe("Cents(-3)");
    expect(thrown(() => binary("*", new Cents(2), 3, b))).toBe("TypeError: unsupported operand type(s) for *: 'Cents' and 'int'");
    expect(compare("<", new Cents(1), new Cents(2), b)).toBe(true);
    expect(compare(">=", new Cents(1), new Cents(2), b)).toBe(false);
    expect(thrown(() => compare("<", new Cents(1), 2, b))).toBe("TypeError: '<' not supported between instances of 'Cents' and 'int'");
    expect(equals(new Cents(1), new Cents(1))).toBe(true);
    expect(equals(new Cents(1), 1)).toBe(false);
    expect(hashKey(new Cents(4))).toBe(hashKey(new Cents(4)));
    const d = new PyDict();
    d.set(new Cents(4), "four");
    expect(d.get(new Cents(4))).toBe("four");
  });

  it("are plain objects where they define nothing: identity, not iterable, unhashable when they say so", () => {
    const b = budget();
    expect(thrown(() => hashOf(new Seq(2)))).toBe("TypeError: unhashable type: 'Seq'");
    expect(thrown(() => iterate(new Cents(1)))).toBe("TypeError: 'Cents' object is not iterable");
    expect(thrown(() => length(new Cents(1)))).toBe("TypeError: object of type 'Cents' has no len()");
    expect(thrown(() => getItem(new Cents(1), 0, b))).toBe("TypeError: 'Cents' object is not subscriptable");
    const s = new Seq(3);
    expect(equals(s, s)).toBe(true);
    expect(equals(s, new Seq(3))).toBe(false);
  });

  it("are sized, iterable, subscriptable and searchable through their hooks", () => {
    const b = budget();
    const s = new Seq(3);
    expect(length(s)).toBe(3);
    const next = iterate(s);
    expect([next(), next(), next(), next()]).toEqual([0, 1, 2, DONE]);
    expect(getItem(s, "k", b)).toBe("k");
    expect(contains(s, 2, b)).toBe(true);
    expect(contains(s, 5, b)).toBe(false);
  });

  it("print with their own repr and str, and name their class", () => {
    expect(repr(new Cents(3))).toBe("Cents(3)");
    expect(str(new Cents(3))).toBe("3c");
    expect(repr(CENTS)).toBe("<class 'toy.Cents'>");
    expect(CENTS.test(new Cents(1))).toBe(true);
    expect(CENTS.test(1)).toBe(false);
  });

  it("expose data attributes, their class's methods and class attributes, and nothing of JavaScript", () => {
    const ctx = testContext();
    const c = new Cents(21);
    expect(getAttribute(c, "n")).toBe(21);
    const double = getAttribute(c, "double") as unknown as { call: (ctx: unknown, a: Value[], k: null) => Value };
    expect(repr(double.call(ctx, [], null))).toBe("Cents(42)");
    expect(repr(getAttribute(CENTS, "zero"))).toBe("Cents(0)");
    for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "pyRepr", "cls"]) {
      expect(thrown(() => getAttribute(c, name))).toBe(`AttributeError: 'Cents' object has no attribute '${name}'`);
      expect(thrown(() => getAttribute(CENTS, name))).toBe(`AttributeError: type object 'Cents' has no attribute '${name}'`);
    }
  });

  it("dict subclasses stay dicts, with their own missing keys and repr", () => {
    const b = budget();
    const z = new Zeros();
    z.set("a", 1);
    expect(getItem(z, "a", b)).toBe(1);
    expect(getItem(z, "b", b)).toBe(0);
    expect(repr(z)).toBe("Zeros('a'=1)");
    expect(ZEROS.test(z)).toBe(true);
    expect(ZEROS.test(new PyDict())).toBe(false);
    expect(thrown(() => getItem(new PyDict(), "b", b))).toBe("KeyError: b");
  });
});
