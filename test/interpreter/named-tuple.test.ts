// Named tuples (named-tuple.ts) as a module uses them: tuples with a class, field attributes,
// CPython's constructor binding, and the tuple operations unchanged.
import { describe, expect, it } from "vitest";
import { Budget, DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { NamedTupleClass } from "../../src/interpreter/named-tuple.js";
import { PyBoundMethod } from "../../src/interpreter/objects.js";
import { equals, getItem, hashOf } from "../../src/interpreter/ops.js";
import { repr } from "../../src/interpreter/repr.js";
import { getAttribute } from "../../src/interpreter/runtime.js";
import { PyTuple, typeName, type Value } from "../../src/interpreter/values.js";
import { testContext } from "./native-context.js";
import { thrown } from "./thrown.js";

const POINT = new NamedTupleClass("Point", "geo", ["x", "y"], [0]);
POINT.properties.set("norm1", (p) => (p.items[0] as number) + (p.items[1] as number));


const call = (args: Value[], kwargs: [string, Value][] = []) => POINT.construct(testContext(), args, kwargs.length ? new Map(kwargs) : null);

describe("named tuples", () => {
  it("are tuples: equal and hashed as the tuple of their items, indexable, and typed by their class", () => {
    const p = POINT.make(null, [1, 2]);
    expect(equals(p, new PyTuple([1, 2]))).toBe(true);
    expect(hashOf(p, new Budget(DEFAULT_LIMITS))).toBe(hashOf(new PyTuple([1, 2]), new Budget(DEFAULT_LIMITS)));
    expect(getItem(p, -1, new Budget(DEFAULT_LIMITS))).toBe(2);
    expect(typeName(p)).toBe("Point");
    expect(POINT.test(p)).toBe(true);
    expect(POINT.test(new PyTuple([1, 2]))).toBe(false);
    expect(repr(p)).toBe("Point(x=1, y=2)");
    expect(repr(POINT)).toBe("<class 'geo.Point'>");
  });

  it("bind their fields as CPython's __new__ does, defaults included", () => {
    expect(repr(call([1]))).toBe("Point(x=1, y=0)");
    expect(repr(call([], [["y", 5], ["x", 4]]))).toBe("Point(x=4, y=5)");
    expect(thrown(() => call([]))).toBe("TypeError: Point.__new__() missing 1 required positional argument: 'x'");
    expect(thrown(() => call([1, 2, 3]))).toBe("TypeError: Point.__new__() takes from 2 to 3 positional arguments but 4 were given");
    expect(thrown(() => call([1], [["x", 2]]))).toBe("TypeError: Point.__new__() got multiple values for argument 'x'");
    expect(thrown(() => call([1], [["z", 2]]))).toBe("TypeError: Point.__new__() got an unexpected keyword argument 'z'");
  });

  it("read fields, computed attributes, class attributes and methods, and nothing of JavaScript", () => {
    const ctx = testContext();
    const p = POINT.make(null, [3, 4]);
    expect(getAttribute(p, "y")).toBe(4);
    expect(getAttribute(p, "norm1")).toBe(7);
    expect(repr(getAttribute(p, "_fields"))).toBe("('x', 'y')");
    expect(repr(getAttribute(POINT, "_field_defaults"))).toBe("{'y': 0}");
    const asdict = getAttribute(p, "_asdict") as PyBoundMethod;
    expect(repr(asdict.call(ctx, [], null))).toBe("{'x': 3, 'y': 4}");
    const replace = getAttribute(p, "_replace") as PyBoundMethod;
    expect(repr(replace.call(ctx, [], new Map([["x", 9]])))).toBe("Point(x=9, y=4)");
    expect(thrown(() => replace.call(ctx, [], new Map([["z", 9]])))).toBe("ValueError: Got unexpected field names: ['z']");
    const count = getAttribute(p, "count") as PyBoundMethod;
    expect(count.call(ctx, [3], null)).toBe(1);
    for (const name of ["constructor", "toString", "hasOwnProperty", "items", "type", "cls", "pyRepr"]) {
      expect(thrown(() => getAttribute(p, name))).toBe(`AttributeError: 'Point' object has no attribute '${name}'`);
      expect(thrown(() => getAttribute(POINT, name))).toBe(`AttributeError: type object 'Point' has no attribute '${name}'`);
    }
  });
});
