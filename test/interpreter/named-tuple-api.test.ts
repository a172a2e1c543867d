// Named tuples (named-tuple.ts): tuples in every operation, with fields, a repr and the methods
// of CPython's generated classes, worded as they word their errors.
import { describe, expect, it } from "vitest";
import { NamedTuple, NamedTupleClass } from "../../src/interpreter/named-tuple.js";
import { PyBuiltin } from "../../src/interpreter/objects.js";
import { equals, getItem, hashOf } from "../../src/interpreter/ops.js";
import { repr } from "../../src/interpreter/repr.js";
import { getAttribute } from "../../src/interpreter/runtime.js";
import { PyTuple, typeName, type Value } from "../../src/interpreter/values.js";
import { testContext } from "./native-context.js";
import { thrown } from "./thrown.js";

const POINT = new NamedTupleClass("Point", "geometry", ["x", "y"], [0]);


const call = (fn: Value, args: Value[], kwargs: [string, Value][] = []): Value => {
  const ctx = testContext();
  const k = kwargs.length ? new Map(kwargs) : null;
  if (fn instanceof NamedTupleClass) return fn.construct(ctx, args, k);
  if (fn instanceof PyBuiltin) return fn.fn(ctx, args, k);
  return (fn as unknown as { call: (c: unknown, a: Value[], k: unknown) => Value }).call(ctx, args, k);
};

describe("named tuples", () => {
  it("are built by position, by name and from defaults", () => {
    expect(repr(call(POINT, [1, 2]))).toBe("Point(x=1, y=2)");
    expect(repr(call(POINT, [], [["y", 3], ["x", 4]]))).toBe("Point(x=4, y=3)");
    expect(repr(call(POINT, [1]))).toBe("Point(x=1, y=0)");
  });

  it("word their argument errors as CPython's generated __new__ does", () => {
    expect(thrown(() => call(POINT, []))).toBe("TypeError: Point.__new__() missing 1 required positional argument: 'x'");
    expect(thrown(() => call(POINT, [1, 2, 3]))).toBe("TypeError: Point.__new__() takes from 2 to 3 positional arguments but 4 were given");
    expect(thrown(() => call(POINT, [1], [["z", 1]]))).toBe("TypeError: Point.__new__() got an unexpected keyword argument 'z'");
    expect(thrown(() => call(POINT, [1], [["x", 1]]))).toBe("TypeError: Point.__new__() got multiple values for argument 'x'");
  });

  it("are tuples: indexing, equality with tuples, the same hash", () => {
    const p = call(POINT, [1, 2]) as NamedTuple;
    expect(p).toBeInstanceOf(PyTuple);
    expect(getItem(p, -1, testContext().budget)).toBe(2);
    expect(equals(p, new PyTuple([1, 2]))).toBe(true);
    expect(hashOf(p)).toBe(hashOf(new PyTuple([1, 2])));
    expect(typeName(p)).toBe("Point");
    expect(repr(POINT)).toBe("<class 'geometry.Point'>");
  });

  it("read fields, _fields, _asdict and _replace as attributes, and no JavaScript names", () => {
    const p = call(POINT, [1, 2]);
    expect(getAttribute(p, "y")).toBe(2);
    expect(repr(getAttribute(p, "_fields"))).toBe("('x', 'y')");
    expect(repr(call(getAttribute(p, "_asdict"), []))).toBe("{'x': 1, 'y': 2}");
    expect(repr(call(getAttribute(p, "_replace"), [], [["y", 5]]))).toBe("Point(x=1, y=5)");
    expect(thrown(() => call(getAttribute(p, "_replace"), [], [["z", 5]]))).toBe("ValueError: Got unexpected field names: ['z']");
    expect(repr(call(getAttribute(POINT, "_make"), [new PyTuple([7, 8])]))).toBe("Point(x=7, y=8)");
    expect(thrown(() => call(getAttribute(POINT, "_make"), [new PyTuple([7])]))).toBe("TypeError: Expected 2 arguments, got 1");
    expect(getAttribute(p, "count")).toBeDefined();
    for (const name of ["constructor", "toString", "type", "items", "cls", "fields"]) {
      expect(thrown(() => getAttribute(p, name))).toBe(`AttributeError: 'Point' object has no attribute '${name}'`);
    }
  });

  it("give a fresh _field_defaults dict each time", () => {
    const a = getAttribute(POINT, "_field_defaults");
    expect(repr(a)).toBe("{'y': 0}");
    expect(getAttribute(POINT, "_field_defaults")).not.toBe(a);
  });
});
