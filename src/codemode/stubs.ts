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
import { annotation, describe, isSchema, members, own, resolveRef, type Schema, variants } from "./annotation.js";
import type { CatalogServer, CatalogTool } from "./catalog.js";
import { type Param, parameters } from "./parameters.js";
import { COMPACT_RETURN_TYPES, FULL_RETURN_TYPES, type ReturnTypeOptions, ReturnTypes } from "./return-types.js";
import { type Shape, shapeAnnotation, shapeText } from "./shape.js";
import { hintWords } from "./tool-hints.js";
import { cleanDoc, commentLines, docstring, firstSentence, pyLiteral, pyString, trimBytes } from "./python-text.js";

export { annotatesDict, annotation } from "./annotation.js";
export { firstSentence, pyLiteral, pyString } from "./python-text.js";

export interface StubOptions {
  /** Bytes of upstream instructions kept in a stub (UTF-8); the rest is cut with a note. */
  instructionsLimit?: number;
  /** Named return types from outputSchema (default true); false shows `dict` as before issue 20 (for bench:stubs). */
  returnTypes?: boolean;
}

export const DEFAULT_INSTRUCTIONS_LIMIT = 4096;

/** Defaults longer than this print as `...` in one-line stubs. */
const COMPACT_DEFAULT_CHARS = 32;
/** Nesting levels of fields shown under a parameter or a return value. */
const FIELD_DEPTH = 3;
/** Field lines shown under one parameter or return value. */
const FIELD_LINES = 60;
/** Field lines counted past FIELD_LINES before the walk stops. */
const MAX_OMITTED = 200;

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

/** The return types of one file's tools, added in file order (a search hit is a file of one tool). */
export function returnTypes(tools: readonly CatalogTool[], options: ReturnTypeOptions): ReturnTypes {
  const types = new ReturnTypes(options);
  for (const tool of tools) types.add(tool);
  return types;
}

function typeOptions(compact: boolean, options: StubOptions): ReturnTypeOptions {
  if (options.returnTypes === false) return { compact, depth: 0 };
  return compact ? COMPACT_RETURN_TYPES : FULL_RETURN_TYPES;
}

/** The declared return type, else the outer type of the observed shape, else Any. */
function returnAnnotation(tool: CatalogTool, types: ReturnTypes): string {
  if (isSchema(tool.outputSchema)) return types.annotation(tool) ?? "Any";
  if (tool.observed) return shapeAnnotation(tool.observed);
  return "Any";
}

/** The observed shape, when it is what the stub shows (a declared outputSchema wins). */
function observed(tool: CatalogTool): Shape | undefined {
  return isSchema(tool.outputSchema) ? undefined : tool.observed;
}

/** `def name(params) -> ret`, without the colon; `types` names the return types of the file it is in. */
export function defHead(tool: CatalogTool, compact: boolean, types?: ReturnTypes): string {
  const params = parameters(tool).map((p) => {
    const type = annotation(p.schema, tool.inputSchema, { compact });
    if (p.required) return `${p.python}: ${type}`;
    let value = p.hasDefault ? pyLiteral(p.default) : "None";
    if (!compact) return `${p.python}: ${type} = ${value}`;
    if (value.length > COMPACT_DEFAULT_CHARS) value = "...";
    // `=None` is one token, ` = None` two: the one-line form drops PEP 8's spaces.
    return `${p.python}: ${type}=${value}`;
  });
  const returns = returnAnnotation(tool, types ?? returnTypes([tool], typeOptions(compact, {})));
  return `def ${tool.python}(${params.join(", ")}) -> ${returns}`;
}

function summary(tool: CatalogTool): string {
  return firstSentence(tool.description?.trim() ? tool.description : tool.title);
}

/**
 * The one-line comment: the declared hints, the first sentence, the observed shape:
 * `(read-only) Search for videos. Observed: {"items": list[dict]}`.
 */
export function signatureComment(tool: CatalogTool): string {
  const hints = hintWords(tool);
  let sentence = summary(tool);
  const shape = observed(tool);
  if (shape) sentence = `${sentence}${sentence === "" || /[.!?…]$/.test(sentence) ? "" : "."} Observed: ${shapeText(shape)}`.trimStart();
  return [hints.length > 0 ? `(${hints.join(", ")})` : "", sentence].filter((p) => p !== "").join(" ");
}

/**
 * One line per tool: `def search(query: str, max_results: int=10) -> dict: ... # Search for videos`.
 * Spacing is tighter than PEP 8 (`=10`, one space before `#`): 3 tokens a line at the median.
 * `types` holds the file's return types (by default, the tool's own).
 */
export function signatureLine(tool: CatalogTool, types?: ReturnTypes): string {
  const comment = signatureComment(tool);
  return `${defHead(tool, true, types)}: ...${comment ? ` # ${comment}` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// Files

/** `from typing import ...` with what the file uses: TypedDict and NotRequired only with return types. */
function typingImport(types: ReturnTypes): string {
  const names = ["Any", "Literal"];
  if (types.usesNotRequired) names.push("NotRequired");
  if (!types.isEmpty) names.push("TypedDict");
  return `from typing import ${names.join(", ")}`;
}

function header(server: CatalogServer, tool: CatalogTool | undefined, options: StubOptions, types: ReturnTypes): string[] {
  const call = `${server.name}.${tool ? tool.python : "<tool>"}`;
  const count = server.tools.length;
  return [
    `# ${tool ? "Call" : `${server.name}: ${count} tool${count === 1 ? "" : "s"}. Call`} ${call}(param=value); parallel: await asyncio.gather(${call}_async(...), ...)`,
    `# Details: getToolDocs(server="${server.name}", tool="${tool ? tool.python : "<tool>"}")`,
    typingImport(types),
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

/** `servers/<server>.pyi`: header, instructions, the return types, one signature line per tool sorted by name. */
export function serverStub(server: CatalogServer, options: StubOptions = {}): string {
  const tools = [...server.tools].sort((a, b) => (a.python < b.python ? -1 : a.python > b.python ? 1 : 0));
  const types = returnTypes(tools, typeOptions(true, options));
  return file([...header(server, undefined, options, types), ...withBlank(types.declarations()), "", ...tools.map((t) => signatureLine(t, types))]);
}

/** `servers/<server>/<tool>.pyi`: header, instructions, the return types, the tool with its docstring. */
export function toolStub(server: CatalogServer, tool: CatalogTool, options: StubOptions = {}): string {
  const types = returnTypes([tool], typeOptions(false, options));
  return file([...header(server, tool, options, types), ...withBlank(types.declarations()), "", ...definition(tool, false, types)]);
}

/** The def with a docstring: description, hints, Args (full: type/required/default), Returns. */
function definition(tool: CatalogTool, full: boolean, types: ReturnTypes): string[] {
  const doc: string[] = cleanDoc(tool.description?.trim() ? tool.description : tool.title ?? "");
  const hints = hintWords(tool);
  if (hints.length > 0) doc.push("", `Hints: ${hints.join(", ")} (declared by the server).`);
  const params = parameters(tool);
  if (params.length > 0) {
    doc.push("", "Args:");
    for (const p of params) doc.push(...paramDoc(p, tool, full));
  }
  const returns = returnsDoc(tool, full, types);
  if (returns.length > 0) doc.push("", ...returns);
  if (doc[0] === "") doc.shift();
  const lines = [`${defHead(tool, false, types)}:`];
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

function returnsDoc(tool: CatalogTool, full: boolean, types: ReturnTypes): string[] {
  const output = tool.outputSchema;
  if (!isSchema(output)) {
    const shape = observed(tool);
    if (shape) return [`Returns: ${shapeAnnotation(shape)}, observed in earlier results (no declared schema):`, `    ${shapeText(shape)}`];
    return !full ? [] : ["Returns: Any (no declared schema: print it before relying on its shape)"];
  }
  const properties = own(output, "properties");
  const unwrapped = isSchema(properties) && Object.keys(properties).length === 1 && Object.hasOwn(properties, "result");
  const shown = unwrapped ? properties.result : output;
  return [`Returns: ${returnAnnotation(tool, types)}`, ...fields(shown, output, "    ", "output", types)];
}

/**
 * The fields of an object schema (or of a list's items, or of a union's object variants), one
 * line each, nested up to FIELD_DEPTH levels and FIELD_LINES lines. Inputs mark required fields;
 * outputs mark optional ones (the keys a script should read with .get).
 */
function fields(schema: unknown, root: unknown, indent: string, side: "input" | "output", types?: ReturnTypes): string[] {
  const out: string[] = [];
  let omitted = 0;
  const emit = (line: string) => {
    if (out.length < FIELD_LINES) out.push(line);
    else omitted++;
  };
  const walk = (node: unknown, pad: string, depth: number, refs: Set<string>): void => {
    // Lines past the limit are only counted, and only up to a bound: `$ref`s can make a small
    // schema a huge tree, and walking it whole would hold the event loop.
    if (!isSchema(node) || depth >= FIELD_DEPTH || omitted >= MAX_OMITTED) return;
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
      if (omitted >= MAX_OMITTED) return;
      const marks = [types?.schemaAnnotation(sub) ?? annotation(sub, root)];
      if (side === "input" && required.has(name)) marks.push("required");
      if (side === "output" && !required.has(name)) marks.push("optional");
      const description = firstSentence(describe(sub, root), 160);
      emit(`${pad}${name} (${marks.join(", ")})${description ? `: ${description}` : ""}`);
      walk(sub, pad + "    ", depth + 1, refs);
    }
  };
  walk(schema, indent, 0, new Set());
  if (omitted > 0) out.push(`${indent}… (${omitted >= MAX_OMITTED ? `${MAX_OMITTED}+` : omitted} more line${omitted === 1 ? "" : "s"})`);
  return out;
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
  const types = returnTypes([tool], typeOptions(false, options));
  return [
    `# ${call}${upstream}`,
    `# Sync call returns the result (dicts: result["key"], .get()); ${call}_async(...) + asyncio.gather(...) run in parallel.`,
    typingImport(types),
    ...withBlank(types.declarations()),
    "",
    ...definition(tool, true, types),
    ...withBlank(instructionsBlock(server, options.instructionsLimit ?? DEFAULT_INSTRUCTIONS_LIMIT)),
    "",
    "# Example:",
    `# result = ${call}(${args.join(", ")})`,
    "# print(result)",
  ].join("\n");
}
