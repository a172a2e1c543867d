// Python stubs of upstream tools (SPEC §4): the text a model reads before it writes a script.
//
// Three renderings of the same tools, from compact to complete:
// - serverStub: `servers/<server>.pyi`, one `def ...: ... # first sentence` line per tool;
// - toolStub: `servers/<server>/<tool>.pyi`, one tool with its docstring;
// - toolDocs: what getToolDocs answers: types, required/default per parameter, nested fields, the
//   return shape, the server's instructions and an example call.
// Every text is valid Python (CPython's `ast.parse` accepts it): models read stubs as code, and
// a stub that is not code teaches them syntax the sandbox rejects.
//
// Compactness is the point of code mode, so the one-line form trades detail for tokens: long
// `Literal[...]` enums fall back to their base type, long defaults print as `...` (the .pyi
// convention for "has a default"), and the comment is the first sentence only. The per-tool files
// keep everything.
import type { CatalogServer, CatalogTool } from "./catalog.js";
import { type Param, parameters } from "./parameters.js";

export interface StubOptions {
  /** Bytes of upstream instructions kept in a stub (UTF-8); the rest is cut with a note. */
  instructionsLimit?: number;
}

export const DEFAULT_INSTRUCTIONS_LIMIT = 4096;

/** How annotations are rendered: `compact` shortens long Literal enums to their base type. */
export interface AnnotationOptions {
  compact?: boolean;
}

/** Literal enums longer than this (in characters) print as their base type in one-line stubs. */
const COMPACT_LITERAL_CHARS = 48;
/** Defaults longer than this print as `...` in one-line stubs. */
const COMPACT_DEFAULT_CHARS = 32;
/** The one-line comment's bound, in characters. */
const COMMENT_CHARS = 120;
/** anyOf/oneOf with more distinct members than this is `Any`. */
const MAX_UNION = 3;
/** Nesting levels of fields shown under a parameter or a return value. */
const FIELD_DEPTH = 3;
/** Field lines shown under one parameter or return value. */
const FIELD_LINES = 60;

// ---------------------------------------------------------------------------------------------
// Python literals

/** A JSON value as a Python literal, as `repr` would print it. */
export function pyLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${pyString(k)}: ${pyLiteral(v)}`).join(", ")}}`;
  }
  return "None";
}

function pyNumber(n: number): string {
  if (Number.isNaN(n)) return "float('nan')";
  if (!Number.isFinite(n)) return n > 0 ? "float('inf')" : "-float('inf')";
  if (Object.is(n, -0)) return "-0.0";
  // JS spells 1e21 as "1e+21" and 1e-7 as "1e-7": both are Python float literals.
  return String(n);
}

/** Python's printable characters (str.isprintable): everything but controls, formats, separators. */
const UNPRINTABLE = /[\p{C}\p{Z}]/u;

/** A string as Python's repr spells it: single quotes unless the text has ' and no ". */
export function pyString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && UNPRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0)!;
      const hex = cp.toString(16);
      out += cp < 0x100 ? `\\x${hex.padStart(2, "0")}` : cp < 0x10000 ? `\\u${hex.padStart(4, "0")}` : `\\U${hex.padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

// ---------------------------------------------------------------------------------------------
// JSON Schema -> Python annotation

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function own(object: Schema, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** The target of a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer). */
function resolveRef(ref: string, root: unknown): unknown {
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

interface Walk {
  root: unknown;
  compact: boolean;
  /** `$ref`s being expanded: a second visit is a cycle. */
  refs: Set<string>;
  depth: number;
}

const MAX_DEPTH = 12;

/** A union member: a type name (`str`, `list[int]`, `None`, `Any`) or the values of a Literal. */
type Member = string | { literal: (string | number | boolean)[] };

/** The members of the union a schema stands for; ["Any"] when nothing narrower is known. */
function members(schema: unknown, walk: Walk): Member[] {
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
function shapeOf(schema: unknown, root?: unknown, hops = 0): string {
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

// ---------------------------------------------------------------------------------------------
// Text helpers

const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|no|cf|eg|ie)|\.\.)$/i;

/** One line of a description: its first sentence, without markdown emphasis, within `max` chars. */
export function firstSentence(text: string | undefined, max = COMMENT_CHARS): string {
  if (!text) return "";
  const line =
    cleanText(text)
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "";
  let sentence = line.replace(/\*\*/g, "").replace(/^#+\s*/, "");
  const ends = /[.!?](?=\s|$)/g;
  for (let m = ends.exec(sentence); m; m = ends.exec(sentence)) {
    if (m[0] === "." && ABBREVIATIONS.test(sentence.slice(0, m.index))) continue;
    sentence = sentence.slice(0, m.index + (m[0] === "." ? 0 : 1));
    break;
  }
  sentence = sentence.replace(/\s+/g, " ").trim();
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:(-]+$/, "") + "…";
}

/**
 * Text safe inside Python source: newlines normalized, other control characters, NUL and lone
 * surrogates (which CPython refuses in source) replaced.
 */
function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[\u2028\u2029]/g, "\n")
    .replace(/\t/g, "    ")
    .replace(/[\p{Cc}]/gu, (c) => (c === "\n" ? c : " "))
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** Python's inspect.cleandoc, and at most one blank line in a row. */
function cleanDoc(text: string): string[] {
  const lines = cleanText(text).split("\n").map((l) => l.trimEnd());
  if (lines.length > 0) lines[0] = lines[0]!.trimStart();
  const indents = lines.slice(1).filter((l) => l !== "").map((l) => l.length - l.trimStart().length);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  const out: string[] = [];
  lines.forEach((line, i) => {
    const dedented = i === 0 ? line : line.slice(common);
    if (dedented === "" && (out.length === 0 || out[out.length - 1] === "")) return;
    out.push(dedented);
  });
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

/** Lines as Python comments. */
function commentLines(lines: string[]): string[] {
  return lines.map((l) => (l === "" ? "#" : `# ${l}`));
}

/** A docstring block indented by `indent`, in the quoting that keeps the text as written. */
function docstring(lines: string[], indent: string): string[] {
  let text = lines.join("\n");
  let open = '"""';
  if (text.includes('"""')) text = text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  else if (text.includes("\\")) open = 'r"""'; // raw keeps regexes and paths readable
  const body = text.split("\n").map((l) => (l === "" ? "" : indent + l));
  // The first line follows the opening quotes; the closing quotes get a line of their own.
  return [`${indent}${open}${body[0]!.slice(indent.length)}`, ...body.slice(1), `${indent}"""`];
}

/** The first `limit` bytes (UTF-8) of a text, cut at a line or word boundary when one is near. */
function trimBytes(text: string, limit: number): { text: string; trimmed: boolean } {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= limit) return { text, trimmed: false };
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, "utf8");
    if (used + size > limit) break;
    used += size;
    end += ch.length;
  }
  let cut = text.slice(0, end);
  const boundary = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(" "));
  if (boundary > end * 0.8) cut = cut.slice(0, boundary);
  return { text: cut.trimEnd(), trimmed: true };
}

/** The server's instructions between markers, trimmed to `limit` bytes; none when it sent none. */
function instructionsBlock(server: CatalogServer, limit: number): string[] {
  const raw = server.instructions?.trim();
  if (!raw) return [];
  const { text, trimmed } = trimBytes(raw, Math.max(0, limit));
  const lines = commentLines(cleanDoc(text));
  if (trimmed) lines.push(`# … (trimmed to ${limit} of ${Buffer.byteLength(raw, "utf8")} bytes)`);
  return ["# ---- server instructions ----", ...lines, "# ---- end server instructions ----"];
}

// ---------------------------------------------------------------------------------------------
// Signatures

function returnAnnotation(tool: CatalogTool, compact: boolean): string {
  const output = tool.outputSchema;
  if (!isSchema(output)) return "Any";
  // The bridge unwraps {"result": x} to x (SPEC §3), so the stub shows x's type.
  const properties = own(output, "properties");
  if (isSchema(properties) && Object.keys(properties).length === 1 && Object.hasOwn(properties, "result")) {
    return annotation(properties.result, output, { compact });
  }
  if (own(output, "type") === "object" || isSchema(properties)) return "dict";
  return annotation(output, output, { compact });
}

/** `def name(params) -> ret`, without the colon. */
export function defHead(tool: CatalogTool, compact: boolean): string {
  const params = parameters(tool).map((p) => {
    const type = annotation(p.schema, tool.inputSchema, { compact });
    if (p.required) return `${p.python}: ${type}`;
    let value = p.hasDefault ? pyLiteral(p.default) : "None";
    if (!compact) return `${p.python}: ${type} = ${value}`;
    if (value.length > COMPACT_DEFAULT_CHARS) value = "...";
    // `=None` is one token, ` = None` two: the one-line form drops PEP 8's spaces.
    return `${p.python}: ${type}=${value}`;
  });
  return `def ${tool.python}(${params.join(", ")}) -> ${returnAnnotation(tool, compact)}`;
}

function summary(tool: CatalogTool): string {
  return firstSentence(tool.description?.trim() ? tool.description : tool.title);
}

/**
 * One line per tool: `def search(query: str, max_results: int=10) -> dict: ... # Search for videos`.
 * Spacing is tighter than PEP 8 (`=10`, one space before `#`): 3 tokens a line at the median.
 */
export function signatureLine(tool: CatalogTool): string {
  const comment = summary(tool);
  return `${defHead(tool, true)}: ...${comment ? ` # ${comment}` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// Files

function header(server: CatalogServer, tool: CatalogTool | undefined, options: StubOptions): string[] {
  const call = `${server.name}.${tool ? tool.python : "<tool>"}`;
  const count = server.tools.length;
  return [
    `# ${tool ? "Call" : `${server.name}: ${count} tool${count === 1 ? "" : "s"}. Call`} ${call}(param=value); parallel: await asyncio.gather(${call}_async(...), ...)`,
    `# Details: getToolDocs(server="${server.name}", tool="${tool ? tool.python : "<tool>"}")`,
    "from typing import Any, Literal",
    ...withBlank(instructionsBlock(server, options.instructionsLimit ?? DEFAULT_INSTRUCTIONS_LIMIT)),
  ];
}

function withBlank(lines: string[]): string[] {
  return lines.length > 0 ? ["", ...lines] : [];
}

/** The file's text with `# Total lines: N` first (N counts that line too; no final newline). */
function file(lines: string[]): string {
  return [`# Total lines: ${lines.length + 1}`, ...lines].join("\n");
}

/** `servers/<server>.pyi`: header, instructions, one signature line per tool sorted by name. */
export function serverStub(server: CatalogServer, options: StubOptions = {}): string {
  const tools = [...server.tools].sort((a, b) => (a.python < b.python ? -1 : a.python > b.python ? 1 : 0));
  return file([...header(server, undefined, options), "", ...tools.map(signatureLine)]);
}

/** `servers/<server>/<tool>.pyi`: header, instructions, the tool with its docstring. */
export function toolStub(server: CatalogServer, tool: CatalogTool, options: StubOptions = {}): string {
  return file([...header(server, tool, options), "", ...definition(tool, false)]);
}

/** The def with a docstring: description, Args (full: type/required/default), Returns. */
function definition(tool: CatalogTool, full: boolean): string[] {
  const doc: string[] = cleanDoc(tool.description?.trim() ? tool.description : tool.title ?? "");
  const params = parameters(tool);
  if (params.length > 0) {
    doc.push("", "Args:");
    for (const p of params) doc.push(...paramDoc(p, tool, full));
  }
  const returns = returnsDoc(tool, full);
  if (returns.length > 0) doc.push("", ...returns);
  if (doc[0] === "") doc.shift();
  const lines = [`${defHead(tool, false)}:`];
  if (doc.length > 0) lines.push(...docstring(doc, "    "));
  lines.push("    ...");
  return lines;
}

function paramDoc(p: Param, tool: CatalogTool, full: boolean): string[] {
  const schema = isSchema(p.schema) ? p.schema : {};
  const notes: string[] = [];
  if (full) {
    notes.push(annotation(p.schema, tool.inputSchema), p.required ? "required" : "optional");
    if (p.hasDefault) notes.push(`default ${pyLiteral(p.default)}`);
    notes.push(...constraints(schema));
  }
  if (p.python !== p.upstream) notes.push(`sent as ${pyString(p.upstream)}`);
  const description = cleanDoc(describe(schema, tool.inputSchema));
  const head = `    ${p.python}${notes.length > 0 ? ` (${notes.join(", ")})` : ""}:`;
  const lines = [description.length > 0 ? `${head} ${description[0]}` : head, ...description.slice(1).map((l) => (l === "" ? "" : `        ${l}`))];
  lines.push(...fields(p.schema, tool.inputSchema, "        ", "input"));
  return lines;
}

/** Format and bounds of a scalar schema, briefly. */
function constraints(schema: Schema): string[] {
  const out: string[] = [];
  if (typeof schema.format === "string") out.push(`format ${schema.format}`);
  const low = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const high = typeof schema.maximum === "number" ? schema.maximum : undefined;
  if (low !== undefined && high !== undefined) out.push(`${low}..${high}`);
  else if (low !== undefined) out.push(`>= ${low}`);
  else if (high !== undefined) out.push(`<= ${high}`);
  return out;
}

function returnsDoc(tool: CatalogTool, full: boolean): string[] {
  const output = tool.outputSchema;
  if (!isSchema(output)) return !full ? [] : ["Returns: Any (no declared schema: print it before relying on its shape)"];
  const properties = own(output, "properties");
  const unwrapped = isSchema(properties) && Object.keys(properties).length === 1 && Object.hasOwn(properties, "result");
  const shown = unwrapped ? properties.result : output;
  return [`Returns: ${returnAnnotation(tool, false)}`, ...fields(shown, output, "    ", "output")];
}

/**
 * The fields of an object schema (or of a list's items, or of a union's object variants), one
 * line each, nested up to FIELD_DEPTH levels and FIELD_LINES lines. Inputs mark required fields;
 * outputs mark optional ones (the keys a script should read with .get).
 */
function fields(schema: unknown, root: unknown, indent: string, side: "input" | "output"): string[] {
  const out: string[] = [];
  let omitted = 0;
  const emit = (line: string) => {
    if (out.length < FIELD_LINES) out.push(line);
    else omitted++;
  };
  const walk = (node: unknown, pad: string, depth: number, refs: Set<string>): void => {
    if (!isSchema(node) || depth >= FIELD_DEPTH) return;
    const ref = own(node, "$ref");
    if (typeof ref === "string") {
      if (refs.has(ref)) return;
      walk(resolveRef(ref, root), pad, depth, new Set(refs).add(ref));
      return;
    }
    const items = own(node, "items");
    if (isSchema(items)) walk(items, pad, depth, refs);
    const objects = variants(node, root).filter((v) => isSchema(own(v, "properties")));
    if (objects.length === 1) walk(objects[0], pad, depth, refs);
    else if (objects.length > 1) {
      objects.forEach((v, i) => {
        emit(`${pad}- variant ${i + 1}:`);
        walk(v, pad + "    ", depth, refs);
      });
    }
    const properties = own(node, "properties");
    if (!isSchema(properties)) return;
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    for (const [name, sub] of Object.entries(properties)) {
      const marks = [annotation(sub, root)];
      if (side === "input" && required.has(name)) marks.push("required");
      if (side === "output" && !required.has(name)) marks.push("optional");
      const description = firstSentence(describe(sub, root), 160);
      emit(`${pad}${name} (${marks.join(", ")})${description ? `: ${description}` : ""}`);
      walk(sub, pad + "    ", depth + 1, refs);
    }
  };
  walk(schema, indent, 0, new Set());
  if (omitted > 0) out.push(`${indent}… (${omitted} more line${omitted === 1 ? "" : "s"})`);
  return out;
}

/** The alternatives of an anyOf/oneOf, `$ref`s resolved and nested unions flattened. */
function variants(schema: Schema, root: unknown): Schema[] {
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
function describe(schema: unknown, root: unknown): string {
  if (!isSchema(schema)) return "";
  if (typeof schema.description === "string" && schema.description.trim() !== "") return schema.description;
  for (const variant of variants(schema, root)) {
    if (typeof variant.description === "string" && variant.description.trim() !== "") return variant.description;
  }
  return "";
}

/** A value to show for a parameter in the example call: an example, the default, or a placeholder. */
function exampleValue(p: Param, root: unknown): string {
  const schema = isSchema(p.schema) ? p.schema : {};
  const examples = own(schema, "examples");
  const given = Array.isArray(examples) && examples.length > 0 ? pyLiteral(examples[0]) : p.hasDefault ? pyLiteral(p.default) : "";
  if (given !== "" && given.length <= COMPACT_DEFAULT_CHARS) return given;
  const found = members(p.schema, { root, compact: false, refs: new Set(), depth: 0 });
  const first = found[0];
  if (first === undefined) return "None";
  if (typeof first !== "string") return pyLiteral(first.literal[0]);
  const placeholders: Record<string, string> = { str: "'...'", int: "1", float: "1", bool: "True", dict: "{}" };
  return first.startsWith("list") ? "[]" : (placeholders[first] ?? "None");
}

/**
 * getToolDocs (SPEC §4): the full signature and description, every parameter with type,
 * required/default and description, the return shape, the server's instructions and an example.
 */
export function toolDocs(server: CatalogServer, tool: CatalogTool, options: StubOptions = {}): string {
  const call = `${server.name}.${tool.python}`;
  const args = parameters(tool)
    .filter((p) => p.required)
    .map((p) => `${p.python}=${exampleValue(p, tool.inputSchema)}`);
  const upstream = tool.name !== tool.python ? ` (upstream tool ${pyString(tool.name)})` : "";
  return [
    `# ${call}${upstream}`,
    `# Sync call returns the result (dicts: result["key"], .get()); ${call}_async(...) + asyncio.gather(...) run in parallel.`,
    "from typing import Any, Literal",
    "",
    ...definition(tool, true),
    ...withBlank(instructionsBlock(server, options.instructionsLimit ?? DEFAULT_INSTRUCTIONS_LIMIT)),
    "",
    "# Example:",
    `# result = ${call}(${args.join(", ")})`,
    "# print(result)",
  ].join("\n");
}
