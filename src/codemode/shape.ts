// The shape of what a tool returned (issue 20): key names and value types, never values. A tool
// without an outputSchema tells a model nothing of its result; the gateway remembers the shapes
// its results had and shows them in the stub as observed (`# observed: {"items": list[...]}`).
//
// A Shape is plain JSON (it is stored in the database) and bounded however big the results were:
// - at most MAX_DEPTH levels of dicts and lists (deeper values are only their type);
// - at most MAX_KEYS keys per dict: a dict with more is a map (`dict[str, X]`, its values merged),
//   as results keyed by ids are; so is a dict with a key that is data rather than a field's name
//   (an e-mail address, a path, a date: see fieldLike);
// - at most SAMPLED_ITEMS items of a list (or values of a map past its first MAX_KEYS) are looked
//   at, and at most MAX_VISITS values per result;
// - a union of more than MAX_UNION types at one place is `Any`.
// Shapes merge: a key some results lacked is optional (`"key"?: int`), types seen at one place
// over several calls make a union (`int | None`), int next to float reads as float.
import { PyBytes, PyDict, PyFloat, PyList, PySet, PyTuple, typeName, type Value } from "../interpreter/index.js";

export interface Shape {
  /** The Python type names seen here, sorted: "str", "int", "float", "bool", "None", "list", "dict", or any other type's name. */
  types: string[];
  /** For dicts: each key's shape and how many of the dicts seen here had it, in first-seen order. */
  keys?: { name: string; count: number; shape: Shape }[];
  /** How many dicts were seen here (a key with a smaller count is optional). */
  dicts?: number;
  /** For dicts with more than MAX_KEYS keys: their values, merged (rendered `dict[str, X]`). */
  values?: Shape;
  /** For lists (and tuples): their items, merged; absent when every list seen was empty. */
  items?: Shape;
}

export const MAX_DEPTH = 4;
export const MAX_KEYS = 24;
export const SAMPLED_ITEMS = 32;
export const MAX_VISITS = 500;
export const MAX_UNION = 3;
/** The rendered text's bound, in characters: a longer rendering is redone with less depth. */
export const MAX_TEXT = 400;

/** The shape of one value (a normalized tool result), bounded as above. */
export function shapeOf(value: Value): Shape {
  const budget = { visits: MAX_VISITS };
  return describe(value, 0, budget);
}

function describe(value: Value, depth: number, budget: { visits: number }): Shape {
  budget.visits--;
  const type = pythonType(value);
  if (depth >= MAX_DEPTH || budget.visits <= 0) return { types: [type] };
  if (value instanceof PyDict && value.cls === null) {
    // Keys are collected as they come (a dict's str keys are distinct), and merged only once the
    // dict turns out to be a map: a merge per key cost about 0.75 us, 1.5 ms for a 2000-key dict.
    const keys: NonNullable<Shape["keys"]> = [];
    let values: Shape | undefined;
    let sampled = 0;
    for (const [key, item] of value.entries()) {
      // A map's values are sampled as a list's items are.
      if (budget.visits <= 0 || (values !== undefined && ++sampled > SAMPLED_ITEMS)) break;
      const shape = describe(item, depth + 1, budget);
      const name = typeof key === "string" ? key : String(key);
      const same = typeof key === "string" ? undefined : keys.find((k) => k.name === name);
      if (values !== undefined) values = mergeShapes(values, shape);
      else if (same) same.shape = mergeShapes(same.shape, shape);
      else if (keys.length < MAX_KEYS && fieldLike(name)) keys.push({ name, count: 1, shape });
      else values = keys.map((k) => k.shape).reduce(mergeShapes, shape);
    }
    return values === undefined ? { types: ["dict"], dicts: 1, keys } : { types: ["dict"], dicts: 1, values };
  }
  if (value instanceof PyList || value instanceof PyTuple) {
    const items = value.items.slice(0, SAMPLED_ITEMS);
    let merged: Shape | undefined;
    for (const item of items) {
      if (budget.visits <= 0) break;
      const shape = describe(item, depth + 1, budget);
      merged = merged === undefined ? shape : mergeShapes(merged, shape);
    }
    return merged === undefined ? { types: [type] } : { types: [type], items: merged };
  }
  return { types: [type] };
}

/**
 * Whether a key reads as a field's name (`id`, `entityType`, `created-at`, `@type`) rather than as
 * data: e-mail addresses, paths, URLs, dates, names with spaces, ids with long digit runs or hex.
 * A dict with a key that is data is recorded as a map, so that no value reaches a shape as a key.
 */
export function fieldLike(key: string): boolean {
  return /^[@$]?[A-Za-z_][A-Za-z0-9_-]{0,63}$/.test(key) && !/[0-9]{4}/.test(key) && !/^[0-9a-f]{12,}$/i.test(key.replace(/-/g, ""));
}

/** The type name a shape records for a value: Python's, with None for NoneType. */
function pythonType(value: Value): string {
  if (value === null) return "None";
  if (value instanceof PyFloat) return "float";
  if (value instanceof PyBytes) return "bytes";
  if (value instanceof PySet) return value.frozen ? "frozenset" : "set";
  return typeName(value);
}

/** Two shapes as one: types united, keys counted, items merged; bounded as shapeOf is. */
export function mergeShapes(a: Shape, b: Shape): Shape {
  // A plain value whose type is already there adds nothing (the common case for a map's values).
  if (b.keys === undefined && b.values === undefined && b.items === undefined && b.types.every((t) => a.types.includes(t))) {
    if (a.keys === undefined && a.values === undefined) return a;
  }
  const types = [...new Set([...a.types, ...b.types])].sort();
  const out: Shape = { types };
  const dicts = (a.dicts ?? 0) + (b.dicts ?? 0);
  if (a.keys !== undefined || b.keys !== undefined || a.values !== undefined || b.values !== undefined) {
    out.dicts = dicts;
    let values = mergeOptional(a.values, b.values);
    if (values === undefined) {
      const keys = (a.keys ?? []).map((k) => ({ ...k }));
      for (const k of b.keys ?? []) {
        const found = keys.find((existing) => existing.name === k.name);
        if (found) {
          found.count += k.count;
          found.shape = mergeShapes(found.shape, k.shape);
        } else keys.push({ ...k });
      }
      if (keys.length <= MAX_KEYS) out.keys = keys;
      else values = keys.map((k) => k.shape).reduce(mergeShapes);
    } else {
      // Already a map: the other side's keys are more of its values.
      for (const k of [...(a.keys ?? []), ...(b.keys ?? [])]) values = mergeShapes(values, k.shape);
    }
    if (values !== undefined) out.values = values;
  }
  const items = mergeOptional(a.items, b.items);
  if (items !== undefined) out.items = items;
  return out;
}

function mergeOptional(a: Shape | undefined, b: Shape | undefined): Shape | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return mergeShapes(a, b);
}

/**
 * Whether two shapes say the same (a merge that changes nothing need not be stored again): the
 * same types, keys in the same order with the same optionality, the same values and items. The
 * counts themselves grow with every merge, so they are compared only as what they say (whether
 * a key is optional), and property order is not compared.
 */
export function sameShape(a: Shape, b: Shape): boolean {
  if (a.types.length !== b.types.length || a.types.some((t, i) => t !== b.types[i])) return false;
  if ((a.keys === undefined) !== (b.keys === undefined) || (a.keys?.length ?? 0) !== (b.keys?.length ?? 0)) return false;
  const aDicts = a.dicts ?? 0;
  const bDicts = b.dicts ?? 0;
  for (let i = 0; i < (a.keys?.length ?? 0); i++) {
    const x = a.keys![i]!;
    const y = b.keys![i]!;
    if (x.name !== y.name || (x.count < aDicts) !== (y.count < bDicts) || !sameShape(x.shape, y.shape)) return false;
  }
  return sameOptional(a.values, b.values) && sameOptional(a.items, b.items);
}

function sameOptional(a: Shape | undefined, b: Shape | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return sameShape(a, b);
}

// ---------------------------------------------------------------------------------------------
// Rendering

/**
 * The shape as Python-like text: `{"items": list[{"id": int}], "total": int}`; a key some results
 * lacked is `"key"?: int`; a map is `dict[str, X]`. Within MAX_TEXT characters: a longer text is
 * rendered again with fewer levels (the deepest become `dict` / `list`).
 */
export function shapeText(shape: Shape): string {
  for (let depth = MAX_DEPTH; depth >= 1; depth--) {
    const text = render(shape, depth);
    if (text.length <= MAX_TEXT) return text;
  }
  // Even one level is too long: the first keys that fit, then `...`.
  return render(shape, 1, MAX_TEXT);
}

/**
 * The types seen at one place as a union, each spelled by `spell`: int beside float reads as
 * float, None goes last, and more than MAX_UNION other members are `Any`.
 */
function union(shape: Shape, spell: (type: string) => string): string {
  const names = shape.types.includes("float") ? shape.types.filter((t) => t !== "int") : shape.types;
  const parts = names.filter((t) => t !== "None").map(spell);
  if (names.includes("None")) parts.push("None");
  const unique = [...new Set(parts)];
  if (unique.filter((p) => p !== "None").length > MAX_UNION) return "Any";
  return unique.join(" | ") || "Any";
}

function render(shape: Shape, depth: number, width = Infinity): string {
  return union(shape, (t) => renderType(t, shape, depth, width));
}

function renderType(type: string, shape: Shape, depth: number, width: number): string {
  if (type === "dict") {
    if (depth <= 0) return "dict";
    if (shape.values !== undefined) return `dict[str, ${render(shape.values, depth - 1)}]`;
    if (!shape.keys || shape.keys.length === 0) return "dict";
    const dicts = shape.dicts ?? 0;
    const fields: string[] = [];
    let used = 2;
    for (const k of shape.keys) {
      const field = `${JSON.stringify(k.name)}${k.count < dicts ? "?" : ""}: ${render(k.shape, depth - 1)}`;
      if (used + field.length + 7 > width) {
        fields.push("...");
        break;
      }
      fields.push(field);
      used += field.length + 2;
    }
    return `{${fields.join(", ")}}`;
  }
  if (type === "list" || type === "tuple") {
    if (depth <= 0 || shape.items === undefined) return type;
    return `${type}[${render(shape.items, depth - 1)}]`;
  }
  return type;
}

/**
 * The return annotation a stub shows for an observed shape: its outer type only (`dict`,
 * `list[dict]`, `str`, `int | None`), since the comment next to it gives the keys.
 */
export function shapeAnnotation(shape: Shape, depth = 2): string {
  return union(shape, (t) => ((t === "list" || t === "tuple") && shape.items !== undefined && depth > 1 ? `${t}[${shapeAnnotation(shape.items, depth - 1)}]` : t));
}

// ---------------------------------------------------------------------------------------------
// Reading back

/** A shape read from the database, or null when the text is not one (a corrupt row is dropped, not trusted). */
export function parseShape(text: string): Shape | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return isShape(value, 0) ? (value as Shape) : null;
}

function isShape(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value) || depth > MAX_DEPTH + 2) return false;
  const s = value as Record<string, unknown>;
  if (!Array.isArray(s.types) || !s.types.every((t) => typeof t === "string")) return false;
  if (s.dicts !== undefined && typeof s.dicts !== "number") return false;
  if (s.keys !== undefined) {
    if (!Array.isArray(s.keys) || s.keys.length > MAX_KEYS) return false;
    for (const k of s.keys as unknown[]) {
      const key = k as Record<string, unknown>;
      if (typeof k !== "object" || k === null || typeof key.name !== "string" || typeof key.count !== "number" || !isShape(key.shape, depth + 1)) return false;
    }
  }
  if (s.values !== undefined && !isShape(s.values, depth + 1)) return false;
  if (s.items !== undefined && !isShape(s.items, depth + 1)) return false;
  return true;
}
