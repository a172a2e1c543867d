// When a merged shape says something new (shape.ts sameShape): what decides whether the gateway
// stores a tool's shape again. Counts grow with every merge; only what they say counts.
import { describe, expect, it } from "vitest";
import { mergeShapes, type Shape, sameShape, shapeOf, shapeText } from "../../src/codemode/shape.js";
import { py } from "./py-value.js";


const shape = (x: unknown): Shape => shapeOf(py(x));

describe("sameShape", () => {
  it("says a merge with a like result changes nothing, however often it is repeated", () => {
    const first = shape({ items: [{ id: 1, title: "a" }], total: 1 });
    let merged = first;
    for (let i = 0; i < 5; i++) merged = mergeShapes(merged, shape({ items: [{ id: i, title: "b" }, { id: 9, title: "c" }], total: i }));
    expect(merged.dicts).toBe(6);
    expect(sameShape(first, merged)).toBe(true);
  });

  it("sees a key that became optional, a new type and a new key", () => {
    const first = shape({ id: 1, next: "x" });
    expect(sameShape(first, mergeShapes(first, shape({ id: 2 })))).toBe(false);
    expect(sameShape(first, mergeShapes(first, shape({ id: 2, next: null })))).toBe(false);
    expect(sameShape(first, mergeShapes(first, shape({ id: 2, next: "y", more: true })))).toBe(false);
    expect(sameShape(first, mergeShapes(first, shape([1])))).toBe(false);
  });

  it("sees a change deep inside lists and maps", () => {
    const map: Record<string, unknown> = {};
    for (let i = 0; i < 30; i++) map[`u${i}`] = { name: "n" };
    const first = shape({ users: map, pages: [[{ a: 1 }]] });
    expect(shapeText(first)).toBe('{"users": dict[str, {"name": str}], "pages": list[list[{"a": int}]]}');
    expect(sameShape(first, mergeShapes(first, shape({ users: { u1: { name: "m" } }, pages: [[{ a: 2 }]] })))).toBe(true);
    expect(sameShape(first, mergeShapes(first, shape({ users: { u1: { name: "m" } }, pages: [[{ a: 2.5 }]] })))).toBe(false);
    expect(sameShape(first, mergeShapes(first, shape({ users: { u1: { name: 1 } }, pages: [] })))).toBe(false);
  });

  it("does not compare property order (a stored shape reads back in any order)", () => {
    const a: Shape = { types: ["dict"], keys: [{ name: "a", count: 1, shape: { types: ["int"] } }], dicts: 1 };
    const b = JSON.parse('{"dicts": 3, "keys": [{"shape": {"types": ["int"]}, "count": 3, "name": "a"}], "types": ["dict"]}') as Shape;
    expect(sameShape(a, b)).toBe(true);
  });
});

describe("shapeOf on big results", () => {
  it("describes a dict with many keys as a map, as a merge per key did", () => {
    const wide: Record<string, unknown> = { first: "x" };
    for (let i = 0; i < 5000; i++) wide[`k${i}`] = i % 2 ? i : null;
    expect(shapeText(shape(wide))).toBe("dict[str, int | str | None]");
  });
});
