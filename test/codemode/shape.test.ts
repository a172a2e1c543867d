// The shapes of tool results (shape.ts): what is recorded, how shapes merge, how they read.
import { describe, expect, it } from "vitest";
import { MAX_KEYS, MAX_TEXT, mergeShapes, parseShape, type Shape, shapeAnnotation, shapeOf, shapeText } from "../../src/codemode/shape.js";
import { py } from "./py-value.js";


const observe = (...results: unknown[]): Shape => results.map((r) => shapeOf(py(r))).reduce(mergeShapes);

describe("observed shapes", () => {
  it("records key names and types, never values", () => {
    const shape = observe({ items: [{ id: 1, title: "secret title" }], total: 2 });
    expect(shapeText(shape)).toBe('{"items": list[{"id": int, "title": str}], "total": int}');
    expect(JSON.stringify(shape)).not.toContain("secret");
    expect(shapeAnnotation(shape)).toBe("dict");
  });

  it("marks keys some results lacked as optional and unites types", () => {
    const shape = observe({ id: 1, next: "abc" }, { id: 2.5, next: null }, { id: 3 });
    expect(shapeText(shape)).toBe('{"id": float, "next"?: str | None}');
  });

  it("reads a dict with many keys as a map", () => {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < MAX_KEYS + 5; i++) record[`user${i}`] = { name: "x", age: i };
    expect(shapeText(observe(record))).toBe('dict[str, {"name": str, "age": int}]');
  });

  it("keeps the outer type of lists and scalars for the annotation", () => {
    expect(shapeAnnotation(observe([{ a: 1 }]))).toBe("list[dict]");
    expect(shapeAnnotation(observe("text"))).toBe("str");
    expect(shapeAnnotation(observe([], null))).toBe("list | None");
    expect(shapeText(observe([]))).toBe("list");
  });

  it("stays bounded however deep or wide the result is", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 50; i++) deep = { next: deep };
    expect(shapeText(observe(deep))).toBe('{"next": {"next": {"next": {"next": dict}}}}');
    const wide: Record<string, unknown> = {};
    for (let i = 0; i < MAX_KEYS; i++) wide[`field_number_${i}`] = { [`inner_field_${i}`]: [{ [`leaf_${i}`]: "x" }] };
    const text = shapeText(observe(wide));
    expect(text.length).toBeLessThanOrEqual(MAX_TEXT);
    expect(text.startsWith('{"field_number_0"')).toBe(true);
  });

  it("reads back what it wrote, and refuses what is not a shape", () => {
    const shape = observe({ a: [1, "x"] });
    expect(parseShape(JSON.stringify(shape))).toEqual(shape);
    expect(parseShape("not json")).toBeNull();
    expect(parseShape('{"types": "dict"}')).toBeNull();
    expect(parseShape('{"types": ["dict"], "keys": [{"name": 1, "count": 1, "shape": {"types": []}}]}')).toBeNull();
  });
});

describe("keys that are data", () => {
  it("records a dict keyed by e-mail addresses, paths or dates as a map", () => {
    for (const key of ["ann@example.com", "/home/ann/notes.txt", "2026-12-01", "Ann Smith", "https://example.com", "user_12345", "9f86d081884c7d65"]) {
      const text = shapeText(observe({ [key]: { count: 1 } }));
      expect(text, key).toBe('dict[str, {"count": int}]');
      expect(text).not.toContain(key);
    }
  });

  it("keeps keys that read as field names", () => {
    for (const key of ["id", "entityType", "created-at", "@type", "$ref", "item2", "_private"]) {
      expect(shapeText(observe({ [key]: 1 })), key).toBe(`{${JSON.stringify(key)}: int}`);
    }
  });
});
