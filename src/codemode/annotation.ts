// JSON Schema -> Python annotation (SPEC §4): str, int, float, bool, None, list[X], dict,
// Literal[...] for enum/const, `X | None` when nullable, short unions, Any otherwise; local `$ref`s
// resolved, recursion ended at a ref's second visit. Also the schema helpers the stubs share:
// a schema's alternatives and its description.
import { pyLiteral } from "./python-text.js";

/** How annotations are rendered: `compact` shortens long Literal enums to their base type. */
export interface AnnotationOptions {
  compact?: boolean;
}

/** Literal enums longer than this (in characters) print as their base type in one-line stubs. */
const COMPACT_LITERAL_CHARS = 48;
/** anyOf/oneOf with more distinct members than this is `Any`. */
export const MAX_UNION = 3;

export type Schema = Record<string, unknown>;

export function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function own(object: Schema, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** The target of a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer). */
export function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  const pointer = ref.slice(1);
  if (pointer === "") return node;
  if (!pointer.startsWith("/")) return undefined;
  for (const raw of pointer.slice(1).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isSchema(node)) node = own(node, key);
    else return undefined;
  }
  return node;
}

export interface Walk {
  root: unknown;
  compact: boolean;
  /** `$ref`s being expanded: a second visit is a cycle. */
  refs: Set<string>;
  depth: number;
}

const MAX_DEPTH = 12;

/** A union member: a type name (`str`, `list[int]`, `None`, `Any`) or the values of a Literal. */
export type Member = string | { literal: (string | number | boolean)[] };

/** The members of the union a schema stands for; ["Any"] when nothing narrower is known. */
export function members(schema: unknown, walk: Walk): Member[] {
  if (!isSchema(schema) || walk.depth > MAX_DEPTH) return ["Any"];
  const inner = { ...walk, depth: walk.depth + 1 };
  const type = own(schema, "type");
  const types = Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : typeof type === "string" ? [type] : [];
  const nullable = own(schema, "nullable") === true || types.includes("null");
  const withNull = (list: Member[]) => (nullable ? [...list, "None"] : list);

  const ref = own(schema, "$ref");
  if (typeof ref === "string") {
    const target = resolveRef(ref, walk.root);
    if (target === undefined) return ["Any"];
    // A recursive schema ends at its second visit, as the shape it has.
    if (walk.refs.has(ref)) return withNull([shapeOf(target, walk.root)]);
    inner.refs = new Set(walk.refs).add(ref);
    return withNull(members(target, inner));
  }

  if (Object.hasOwn(schema, "const")) return withNull(literal([schema.const]));
  const enumValues = own(schema, "enum");
  if (Array.isArray(enumValues) && enumValues.length > 0) return withNull(literal(enumValues));

  for (const key of ["anyOf", "oneOf"]) {
    const options = own(schema, key);
    if (!Array.isArray(options) || options.length === 0) continue;
    const found = union(options.flatMap((option) => members(option, inner)));
    // Variants that only add constraints (`anyOf: [{format}, {pattern}]`) say nothing of the type.
    if (found.length === 1 && found[0] === "Any" && types.length > 0) break;
    return withNull(found.filter((m) => m !== "None").length > MAX_UNION ? ["Any"] : found);
  }

  const allOf = own(schema, "allOf");
  if (Array.isArray(allOf) && allOf.length > 0 && types.length === 0) {
    if (allOf.length === 1) return withNull(members(allOf[0], inner));
    const shapes = new Set(allOf.map((part) => shapeOf(part, walk.root)));
    return withNull(shapes.size === 1 ? [...shapes] : ["Any"]);
  }

  if (types.length === 0) return withNull([shapeOf(schema)]);
  return withNull(types.map((t) => typeName(t, schema, inner)));
}

function typeName(type: string, schema: Schema, walk: Walk): string {
  switch (type) {
    case "string":
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "null":
      return "None";
    case "object":
      return "dict";
    case "array":
      return listOf(schema, walk);
    default:
      return "Any";
  }
}

function listOf(schema: Schema, walk: Walk): string {
  const items = own(schema, "items");
  if (!isSchema(items)) return "list";
  const item = render(members(items, walk), walk.compact);
  return item === "Any" ? "list" : `list[${item}]`;
}

/** What a schema is without its details: dict, list or Any (for recursion and allOf). */
export function shapeOf(schema: unknown, root?: unknown, hops = 0): string {
  if (!isSchema(schema)) return "Any";
  const ref = own(schema, "$ref");
  if (typeof ref === "string" && hops < 8) return shapeOf(resolveRef(ref, root), root, hops + 1);
  const type = own(schema, "type");
  if (type === "object" || isSchema(own(schema, "properties")) || own(schema, "additionalProperties") !== undefined) return "dict";
  if (type === "array" || own(schema, "items") !== undefined || own(schema, "prefixItems") !== undefined) return "list";
  return "Any";
}

/** Enum or const values: scalars as a Literal, null as None, objects and arrays as dict/list. */
function literal(values: unknown[]): Member[] {
  const out: Member[] = [];
  const scalars: (string | number | boolean)[] = [];
  for (const value of values) {
    if (value === null) out.push("None");
    else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") scalars.push(value);
    else out.push(Array.isArray(value) ? "list" : "dict");
  }
  return scalars.length > 0 ? [{ literal: scalars }, ...out] : out;
}

/**
 * Deduplicated union members: Any absorbs the rest, Literals merge into one (first), None goes
 * last, and int next to float reads as float (Python accepts an int where float is annotated).
 */
function union(list: Member[]): Member[] {
  const names: string[] = [];
  const values: (string | number | boolean)[] = [];
  const seen = new Set<string>();
  for (const member of list) {
    if (typeof member === "string") {
      if (member === "Any") return ["Any"];
      if (!names.includes(member)) names.push(member);
      continue;
    }
    for (const value of member.literal) {
      const key = `${typeof value}:${String(value)}`;
      if (!seen.has(key)) {
        seen.add(key);
        values.push(value);
      }
    }
  }
  const types = names.includes("float") ? names.filter((n) => n !== "int") : names;
  const out: Member[] = values.length > 0 ? [{ literal: values }] : [];
  out.push(...types.filter((n) => n !== "None"));
  if (types.includes("None")) out.push("None");
  return out;
}

/** The Python base type of a literal value. */
function baseType(value: string | number | boolean): string {
  return typeof value === "string" ? "str" : typeof value === "boolean" ? "bool" : Number.isInteger(value) ? "int" : "float";
}

/** Members as an annotation; in compact mode a long Literal reads as its base types. */
function render(list: Member[], compact: boolean): string {
  let merged = union(list);
  const lit = merged.find((m): m is { literal: (string | number | boolean)[] } => typeof m !== "string");
  if (lit && compact && literalText(lit.literal).length > COMPACT_LITERAL_CHARS) {
    merged = union([...lit.literal.map(baseType), ...merged.filter((m) => m !== lit)]);
  }
  if (merged.length === 0) return "Any";
  return merged.map((m) => (typeof m === "string" ? m : literalText(m.literal))).join(" | ");
}

function literalText(values: (string | number | boolean)[]): string {
  return `Literal[${values.map(pyLiteral).join(", ")}]`;
}

/**
 * A JSON Schema as a Python annotation: str, int, float, bool, None, list[X], dict,
 * Literal[...] for enum/const, `X | None` when nullable, `A | B` for short unions, Any otherwise.
 * `$ref`s resolve against `root` (the schema they live in).
 */
export function annotation(schema: unknown, root: unknown, options: AnnotationOptions = {}): string {
  const compact = options.compact ?? false;
  return render(members(schema, { root, compact, refs: new Set(), depth: 0 }), compact);
}

/** Whether the annotation of a schema is, or has among its union members, `dict`. */
export function annotatesDict(schema: unknown, root: unknown): boolean {
  return union(members(schema, { root, compact: true, refs: new Set(), depth: 0 })).includes("dict");
}

/** The alternatives of an anyOf/oneOf, `$ref`s resolved and nested unions flattened. */
export function variants(schema: Schema, root: unknown): Schema[] {
  const out: Schema[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (!isSchema(node) || depth > 4) return;
    const ref = own(node, "$ref");
    if (typeof ref === "string") return visit(resolveRef(ref, root), depth + 1);
    const options = [own(node, "anyOf"), own(node, "oneOf")].find((v) => Array.isArray(v) && v.length > 0) as unknown[] | undefined;
    if (options) {
      for (const option of options) visit(option, depth + 1);
      return;
    }
    if (depth > 0) out.push(node);
  };
  visit(schema, 0);
  return out;
}

/** A schema's description, or the first one among its alternatives (`anyOf: [{description}, ...]`). */
export function describe(schema: unknown, root: unknown): string {
  if (!isSchema(schema)) return "";
  if (typeof schema.description === "string" && schema.description.trim() !== "") return schema.description;
  for (const variant of variants(schema, root)) {
    if (typeof variant.description === "string" && variant.description.trim() !== "") return variant.description;
  }
  return "";
}
