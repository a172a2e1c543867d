// The book of observed shapes (gateway/shapes.ts) and their rows in the store: what a new result
// changes, what it does not (so nothing is written), the bounds, deleted and renamed clients, and
// rows that survive reopening, come from an older file, or are corrupt.
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Shape, shapeOf, shapeText } from "../../src/codemode/shape.js";
import { MAX_SHAPE_NODES, MAX_TOOLS_PER_SERVER, ShapeBook, type ShapeChange, shapeNodes } from "../../src/gateway/shapes.js";
import { SCHEMA_VERSION, Store, StoreError } from "../../src/gateway/store.js";
import { py } from "../codemode/py-value.js";

interface RawDb {
  prepare(sql: string): { run(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
  exec(sql: string): void;
  close(): void;
}
const Raw = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => RawDb;

/** A book and the changes it announced. */
function book(): { book: ShapeBook; changes: ShapeChange[] } {
  const b = new ShapeBook();
  const changes: ShapeChange[] = [];
  b.on("change", (c: ShapeChange) => changes.push(c));
  return { book: b, changes };
}

const fresh = () => join(mkdtempSync(join(tmpdir(), "cmg-shapes-")), "gateway.db");

describe("the book of shapes", () => {
  it("announces a tool's first shape, and nothing for results that say the same", () => {
    const { book: b, changes } = book();
    expect(b.record("srv", "list", shapeOf(py({ items: [{ id: 1 }], total: 1 })))).toBe(true);
    for (let i = 0; i < 10; i++) expect(b.record("srv", "list", shapeOf(py({ items: [{ id: i }, { id: 2 }], total: i })))).toBe(false);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ type: "put", server: "srv", tool: "list" });
    expect(shapeText(b.get("srv", "list")!)).toBe('{"items": list[{"id": int}], "total": int}');
  });

  it("merges a differing result: a key one result lacked becomes optional", () => {
    const { book: b, changes } = book();
    b.record("srv", "get", shapeOf(py({ id: 1, email: "a@b" })));
    expect(b.record("srv", "get", shapeOf(py({ id: 2 })))).toBe(true);
    expect(shapeText(b.get("srv", "get")!)).toBe('{"id": int, "email"?: str}');
    expect(changes.map((c) => c.type)).toEqual(["put", "put"]);
    expect((changes[1] as { shape: Shape }).shape).toEqual(b.get("srv", "get"));
  });

  it("keeps shapes per client and tool", () => {
    const { book: b } = book();
    b.record("a", "t", shapeOf("x"));
    b.record("b", "t", shapeOf(py(1)));
    expect(shapeText(b.get("a", "t")!)).toBe("str");
    expect(shapeText(b.get("b", "t")!)).toBe("int");
    expect(b.get("a", "other")).toBeUndefined();
  });

  it("stops learning a tool whose merged shape would pass MAX_SHAPE_NODES", () => {
    const { book: b } = book();
    // Each result fills one more branch of a tree 24 keys wide (never wide enough to be a map).
    const leaves = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`leaf${i}`, 1]));
    let kept = 0;
    let refused = 0;
    for (let r = 0; r < 400; r++) {
      const result = { [`top${r % 24}`]: { [`mid${Math.floor(r / 24) % 24}`]: leaves } };
      if (b.record("srv", "tree", shapeOf(py(result)))) kept++;
      else refused++;
      expect(shapeNodes(b.get("srv", "tree")!)).toBeLessThanOrEqual(MAX_SHAPE_NODES);
    }
    expect(kept).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
    expect(shapeNodes(b.get("srv", "tree")!)).toBeGreaterThan(MAX_SHAPE_NODES - 30);
  });

  it("keeps at most MAX_TOOLS_PER_SERVER tools of one client", () => {
    const { book: b } = book();
    for (let i = 0; i < MAX_TOOLS_PER_SERVER; i++) expect(b.record("srv", `t${i}`, shapeOf("x"))).toBe(true);
    expect(b.record("srv", "one_more", shapeOf("x"))).toBe(false);
    expect(b.record("srv", "t0", shapeOf(py(1)))).toBe(true);
    expect(b.record("other", "t", shapeOf("x"))).toBe(true);
  });

  it("drops a deleted client's shapes and moves a renamed one's", () => {
    const { book: b, changes } = book();
    b.record("old", "t", shapeOf("x"));
    b.record("gone", "t", shapeOf("x"));
    b.moveServer("old", "new");
    b.dropServer("gone");
    b.dropServer("never-there");
    expect(b.get("old", "t")).toBeUndefined();
    expect(b.get("gone", "t")).toBeUndefined();
    expect(shapeText(b.get("new", "t")!)).toBe("str");
    expect(changes.slice(2)).toEqual([{ type: "move", from: "old", to: "new" }, { type: "drop", server: "gone" }]);
  });
});

describe("shape rows in the store", () => {
  const shape = shapeOf(py({ id: 1, tags: ["a"] }));

  it("round-trip, survive reopening, and are replaced in place", () => {
    const file = fresh();
    let s = new Store(file);
    s.putShape("srv", "get", shape);
    s.putShape("srv", "list", shapeOf("x"));
    s.putShape("srv", "list", shapeOf(py([1])));
    s.close();
    s = new Store(file);
    expect(s.listShapes()).toEqual([
      { server: "srv", tool: "get", shape },
      { server: "srv", tool: "list", shape: shapeOf(py([1])) },
    ]);
    s.close();
  });

  it("are deleted with their client, and moved with a rename (replacing the new name's)", () => {
    const s = new Store(":memory:");
    s.putShape("a", "t", shape);
    s.putShape("a", "u", shape);
    s.putShape("b", "t", shapeOf("x"));
    s.putShape("c", "t", shapeOf("x"));
    expect(s.deleteShapes("c")).toBe(1);
    s.moveShapes("a", "b");
    expect(s.listShapes()).toEqual([
      { server: "b", tool: "t", shape },
      { server: "b", tool: "u", shape },
    ]);
  });

  it("refuse what is not a shape, naming the tool", () => {
    const s = new Store(":memory:");
    expect(() => s.putShape("srv", "t", { types: "dict" } as unknown as Shape)).toThrow(new StoreError("shape of 'srv.t'", "is not a shape of a tool result"));
    expect(() => s.putShape("", "t", shape)).toThrow(StoreError);
    expect(s.listShapes()).toEqual([]);
  });

  it("name a corrupt row instead of dropping it", () => {
    const file = fresh();
    new Store(file).close();
    const db = new Raw(file);
    db.prepare("INSERT INTO shapes (server, tool, shape) VALUES (?, ?, ?)").run("srv", "t", '{"types": ["dict"], "keys": "oops"}');
    db.close();
    const s = new Store(file);
    expect(() => s.listShapes()).toThrow(`${file}: shapes row 'srv.t': corrupt row (shape is not a shape of a tool result); fix or delete it`);
    s.close();
  });

  it("get their table in a file written before shapes existed (schema version 1)", () => {
    const file = fresh();
    const db = new Raw(file);
    // The first migration, as a gateway of schema version 1 left the file.
    db.exec(`CREATE TABLE schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
      INSERT INTO schema_version (id, version) VALUES (1, 1);
      CREATE TABLE clients (name TEXT PRIMARY KEY, position INTEGER NOT NULL, config TEXT NOT NULL);
      CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL);
      CREATE TABLE virtual_keys (id TEXT PRIMARY KEY, position INTEGER NOT NULL, value TEXT NOT NULL UNIQUE, data TEXT NOT NULL);
      CREATE TABLE logs (id INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, key TEXT NOT NULL, tool TEXT NOT NULL, outcome TEXT NOT NULL, entry TEXT NOT NULL);
      CREATE INDEX logs_by_time ON logs (time);`);
    db.close();
    const s = new Store(file);
    expect(SCHEMA_VERSION).toBe(5);
    expect(s.listShapes()).toEqual([]);
    s.putShape("srv", "t", shape);
    expect(s.listShapes()).toHaveLength(1);
    s.close();
  });
});
