// Named return types for the stubs (issue 20): a tool's outputSchema as TypedDicts, so that the
// model reads `-> ReadGraphResult` and the keys of what comes back before writing its next line.
//
// One ReturnTypes collects the types of one file (a server's stub, a tool's file, getToolDocs):
// - a TypedDict per object schema with properties, in the functional syntax
//   `X = TypedDict('X', {'key': str, 'opt': NotRequired[int]})`: it allows keys that are not
//   identifiers, and it is what the sandbox runs (class definitions are not in its dialect, and a
//   stub should not teach syntax the sandbox rejects);
// - structures that are the same are declared once (the 14 filesystem tools share one);
// - names: a tool's own result is `<Tool>Result`, one shared by several tools is named after
//   the words their names share, else its keys; nested types after their field (`entities` ->
//   `Entity`), union variants after their `const` discriminator; a name already taken by another
//   structure is prefixed with its parent's name, then numbered. All in file order: the same
//   tools always give the same names;
// - `$ref`s are resolved; a recursive one ends as `dict` (or `list`) at its second visit;
// - the `{"result": x}` wrapper is unwrapped as the bridge unwraps it (normalize.ts): a tool whose
//   schema's only property is `result` returns x (or a dict when `result` may be missing);
// - beyond `depth` levels of TypedDicts an object is `dict`; everything that is not an object with
//   properties is the annotation of annotation.ts (Literal for enums, `list[...]`, `X | None`).
// Declarations come out children first, so the file also runs as a script.
import { MAX_UNION, annotation, isSchema, own, resolveRef, type Schema, shapeOf } from "./annotation.js";
import type { CatalogTool } from "./catalog.js";
import { pyString } from "./python-text.js";

export interface ReturnTypeOptions {
  /** Short Literals as their base type (one-line stubs). */
  compact: boolean;
  /** Levels of TypedDicts below the result; deeper objects are `dict`. */
  depth: number;
}

/** What the server's stub uses: two levels keep the set within its token budget (bench:stubs). */
export const COMPACT_RETURN_TYPES: ReturnTypeOptions = { compact: true, depth: 2 };
/** What a brief search hit declares: the result's own keys, nested objects as dict. */
export const SEARCH_RETURN_TYPES: ReturnTypeOptions = { compact: true, depth: 1 };
/** What a tool's file and getToolDocs use. */
export const FULL_RETURN_TYPES: ReturnTypeOptions = { compact: false, depth: 4 };

type TypeExpr =
  | { kind: "text"; text: string }
  | { kind: "typed"; decl: Decl }
  | { kind: "list"; item: TypeExpr }
  | { kind: "union"; members: TypeExpr[] };

interface Field {
  key: string;
  required: boolean;
  type: TypeExpr;
}

/** Where a structure was met: as a tool's result (or its items), or as a field of another. */
type Hint = { tool: string; item: boolean } | { field: string; item: boolean; parent: Decl; tag?: string };

interface Decl {
  fields: Field[];
  hints: Hint[];
  /** The tools whose whole result it is. */
  tops: string[];
  name?: string;
}

/**
 * Schema nodes one tool's result may visit. `$ref`s can make a small schema expand to a huge
 * tree (each level referring to the next twice); the largest real-16 result visits 642.
 */
const MAX_VISITS = 1_000;

/** Names a return type may never take: the typing names a stub imports, keywords and builtins. */
const RESERVED = new Set(["Any", "Literal", "NotRequired", "TypedDict", "None", "True", "False", "Ellipsis", "NotImplemented"]);

/** The parts of the outputSchema a tool's result is: the schema of x for `{"result": x}`. */
function resultSchema(output: Schema): { schema: unknown; maybeWrapped: boolean } {
  const properties = own(output, "properties");
  if (isSchema(properties) && Object.keys(properties).length === 1 && Object.hasOwn(properties, "result")) {
    const required = Array.isArray(output.required) && output.required.includes("result");
    // Without `result` the bridge has nothing to unwrap: the script gets the (empty) dict.
    return { schema: properties.result, maybeWrapped: !required };
  }
  return { schema: output, maybeWrapped: false };
}

export class ReturnTypes {
  private readonly decls = new Map<string, Decl>();
  private readonly results = new Map<CatalogTool, TypeExpr>();
  /** What each sub-schema of the results became, for the field-by-field docs. */
  private readonly bySchema = new WeakMap<object, TypeExpr>();
  private named = false;
  /** Schema nodes the current tool may still visit (MAX_VISITS each): past it, what is left is `dict`. */
  private visits = 0;

  constructor(private readonly options: ReturnTypeOptions) {}

  /** Adds a tool's result type (tools without an outputSchema add nothing). Add in file order. */
  add(tool: CatalogTool): void {
    const output = tool.outputSchema;
    if (!isSchema(output) || this.results.has(tool)) return;
    this.named = false;
    this.visits = MAX_VISITS;
    const { schema, maybeWrapped } = resultSchema(output);
    const top = { tool: tool.python, item: false };
    let type = this.build(schema, output, 0, new Set(), top);
    if (maybeWrapped) type = union([type, text("dict")]);
    if (type.kind === "typed") type.decl.tops.push(tool.python);
    this.results.set(tool, type);
  }

  /** The return annotation of a tool added before: a TypedDict's name, a `list[...]`, `Any`... */
  annotation(tool: CatalogTool): string | undefined {
    const type = this.results.get(tool);
    if (type === undefined) return undefined;
    this.assignNames();
    return render(type);
  }

  /** The annotation a sub-schema of an added result got (a field's `list[Entity]`), if it got one. */
  schemaAnnotation(schema: unknown): string | undefined {
    const type = isSchema(schema) ? this.bySchema.get(schema) : undefined;
    if (type === undefined) return undefined;
    this.assignNames();
    return render(type);
  }

  /** Whether any declaration marks a key NotRequired (the header imports it then). */
  get usesNotRequired(): boolean {
    return this.reachable().some((d) => d.fields.some((f) => !f.required));
  }

  /** Whether there is anything to declare. */
  get isEmpty(): boolean {
    return this.reachable().length === 0;
  }

  /** The structures the results use (a union that became Any may have built some for nothing). */
  private reachable(): Decl[] {
    const found = new Set<Decl>();
    const visit = (type: TypeExpr) => {
      for (const d of declsIn(type)) {
        if (found.has(d)) continue;
        found.add(d);
        for (const f of d.fields) visit(f.type);
      }
    };
    for (const type of this.results.values()) visit(type);
    return [...found];
  }

  /** One `X = TypedDict(...)` line per structure, each after the ones it uses. */
  declarations(): string[] {
    this.assignNames();
    const out: string[] = [];
    const done = new Set<Decl>();
    const emit = (decl: Decl) => {
      if (done.has(decl)) return;
      done.add(decl);
      for (const f of decl.fields) for (const d of declsIn(f.type)) emit(d);
      const body = decl.fields.map((f) => `${pyString(f.key)}: ${f.required ? render(f.type) : `NotRequired[${render(f.type)}]`}`);
      out.push(`${decl.name} = TypedDict(${pyString(decl.name!)}, {${body.join(", ")}})`);
    };
    for (const type of this.results.values()) for (const d of declsIn(type)) emit(d);
    return out;
  }

  // ------------------------------------------------------------------ building

  private build(schema: unknown, root: Schema, depth: number, refs: Set<string>, hint: Hint): TypeExpr {
    const plain = () => text(annotation(schema, root, { compact: this.options.compact }));
    const built = this.structure(schema, root, depth, refs, hint);
    // Anything without a TypedDict in it reads exactly as annotation.ts spells it.
    const type = built !== null && declsIn(built).length > 0 ? built : plain();
    if (isSchema(schema) && !this.bySchema.has(schema)) this.bySchema.set(schema, type);
    return type;
  }

  private structure(schema: unknown, root: Schema, depth: number, refs: Set<string>, hint: Hint): TypeExpr | null {
    if (!isSchema(schema) || --this.visits < 0) return null;
    const type = own(schema, "type");
    const types = Array.isArray(type) ? type : [type];
    const nullable = own(schema, "nullable") === true || types.includes("null");
    const orNone = (t: TypeExpr) => (nullable ? union([t, text("None")]) : t);

    const ref = own(schema, "$ref");
    if (typeof ref === "string") {
      const target = resolveRef(ref, root);
      if (target === undefined) return null;
      if (refs.has(ref)) return orNone(text(shapeOf(target, root)));
      return orNone(this.build(target, root, depth, new Set(refs).add(ref), hint));
    }

    for (const key of ["anyOf", "oneOf"]) {
      const options = own(schema, key);
      if (!Array.isArray(options) || options.length === 0) continue;
      const typed: TypeExpr[] = [];
      const rest: unknown[] = [];
      for (const option of options) {
        const tag = discriminator(option, root);
        const built = this.structure(option, root, depth, refs, "field" in hint && tag ? { ...hint, tag } : hint);
        if (built !== null && declsIn(built).length > 0) typed.push(built);
        else rest.push(option);
      }
      if (typed.length === 0) return null;
      const members = rest.length > 0 ? [...typed, text(annotation({ anyOf: rest }, root, { compact: this.options.compact }))] : typed;
      const merged = union(members);
      const named = merged.kind === "union" ? merged.members.filter((m) => !(m.kind === "text" && m.text === "None")) : [merged];
      return named.length > MAX_UNION ? text("Any") : orNone(merged);
    }

    const properties = own(schema, "properties");
    if (isSchema(properties) && Object.keys(properties).length > 0 && !types.includes("array")) {
      if (depth >= this.options.depth) return orNone(text("dict"));
      return orNone({ kind: "typed", decl: this.declare(schema, properties, root, depth, refs, hint) });
    }

    const items = own(schema, "items");
    if (isSchema(items) && (types.includes("array") || type === undefined)) {
      const itemHint: Hint = "tool" in hint ? { ...hint, item: true } : { ...hint, item: true, tag: undefined };
      return orNone({ kind: "list", item: this.build(items, root, depth, refs, itemHint) });
    }
    return null;
  }

  private declare(schema: Schema, properties: Schema, root: Schema, depth: number, refs: Set<string>, hint: Hint): Decl {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    // The parent is known before its fields (their names may need it), and merged away after
    // when an identical structure exists already.
    const draft: Decl = { fields: [], hints: [hint], tops: [] };
    draft.fields = Object.entries(properties).map(([key, sub]) => ({
      key,
      required: required.has(key),
      type: this.build(sub, root, depth + 1, refs, { field: key, item: false, parent: draft }),
    }));
    const identity = structureKey(draft);
    const existing = this.decls.get(identity);
    if (existing === undefined) {
      this.decls.set(identity, draft);
      return draft;
    }
    existing.hints.push(hint);
    // Children that named the draft as their parent now have the existing structure as parent.
    for (const d of this.decls.values()) d.hints = d.hints.map((h) => ("parent" in h && h.parent === draft ? { ...h, parent: existing } : h));
    return existing;
  }

  // ------------------------------------------------------------------ naming

  private assignNames(): void {
    if (this.named) return;
    this.named = true;
    const taken = new Set<string>();
    for (const d of this.decls.values()) d.name = undefined;
    const visit = (type: TypeExpr) => {
      for (const decl of declsIn(type)) {
        if (decl.name !== undefined) continue;
        decl.name = unique(candidates(decl), taken);
        taken.add(decl.name);
        for (const f of decl.fields) visit(f.type);
      }
    };
    for (const type of this.results.values()) visit(type);
  }
}

/** The names to try for a structure, best first; `unique` numbers the last one if all are taken. */
function candidates(decl: Decl): string[] {
  if (decl.tops.length === 1) return [`${camel(decl.tops[0]!)}Result`];
  if (decl.tops.length > 1) {
    const words = decl.tops.map((t) => t.split("_").filter((w) => w !== ""));
    const shared: string[] = [];
    for (let i = 0; words.every((w) => w.length > i + 1 && w[i] === words[0]![i]); i++) shared.push(words[0]![i]!);
    if (shared.length > 0) return [`${camel(shared.join("_"))}Result`];
    if (decl.fields.length <= 2) return [`${decl.fields.map((f) => camel(f.key)).join("")}Result`];
    return [`${camel(decl.tops[0]!)}Result`];
  }
  const hint = decl.hints[0]!;
  if ("tool" in hint) return [`${camel(hint.tool)}${hint.item ? "Item" : "Result"}`];
  let base = camel(hint.item ? singular(hint.field) : hint.field) || "Item";
  if (hint.item && base === camel(hint.field)) base += "Item";
  if (hint.tag) base = camel(hint.tag) + base;
  const parent = hint.parent.name;
  return parent !== undefined && parent !== base ? [base, `${parent}${base}`] : [base];
}

function unique(names: string[], taken: Set<string>): string {
  for (const name of names) if (!taken.has(name) && !RESERVED.has(name)) return name;
  const last = names[names.length - 1]!;
  for (let n = 2; ; n++) if (!taken.has(`${last}${n}`)) return `${last}${n}`;
}

/** `read_graph` -> `ReadGraph`, `entityType` -> `EntityType`, `@odata.type` -> `OdataType`; "" when nothing is left. */
export function camel(text: string): string {
  const name = text
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
  return /^[0-9]/.test(name) ? `T${name}` : name;
}

/** The singular of an English plural (`entities` -> `entity`, `indexes` -> `index`); the word itself when it is not one. */
export function singular(word: string): string {
  if (/[^aeiou]ies$/i.test(word)) return word.slice(0, -3) + (word.endsWith("IES") ? "Y" : "y");
  if (/(?:ss|sh|ch|x|z|us|ias)es$/i.test(word)) return word.slice(0, -2);
  if (/[^sui]s$/i.test(word)) return word.slice(0, -1);
  return word;
}

/** The value of the first property pinned by `const` (or a one-value enum), for naming a union's variant. */
function discriminator(schema: unknown, root: Schema): string | undefined {
  let node = schema;
  for (let hops = 0; isSchema(node) && typeof own(node, "$ref") === "string" && hops < 8; hops++) node = resolveRef(own(node, "$ref") as string, root);
  if (!isSchema(node)) return undefined;
  const properties = own(node, "properties");
  if (!isSchema(properties)) return undefined;
  for (const sub of Object.values(properties)) {
    if (!isSchema(sub)) continue;
    const value = Object.hasOwn(sub, "const") ? sub.const : Array.isArray(sub.enum) && sub.enum.length === 1 ? sub.enum[0] : undefined;
    if (typeof value === "string" && camel(value) !== "") return value;
  }
  return undefined;
}

// ------------------------------------------------------------------ type expressions

function text(value: string): TypeExpr {
  return { kind: "text", text: value };
}

/** Members flattened and deduplicated, None last; one member is itself. */
function union(members: TypeExpr[]): TypeExpr {
  const flat = members.flatMap((m) => (m.kind === "union" ? m.members : [m]));
  const seen = new Map<string, TypeExpr>();
  for (const m of flat) if (!seen.has(exprKey(m))) seen.set(exprKey(m), m);
  const list = [...seen.values()];
  if (list.some((m) => m.kind === "text" && m.text === "Any")) return text("Any");
  const ordered = [...list.filter((m) => !(m.kind === "text" && m.text === "None")), ...list.filter((m) => m.kind === "text" && m.text === "None")];
  return ordered.length === 1 ? ordered[0]! : { kind: "union", members: ordered };
}

function render(type: TypeExpr): string {
  switch (type.kind) {
    case "text":
      return type.text;
    case "typed":
      return type.decl.name!;
    case "list":
      return `list[${render(type.item)}]`;
    case "union":
      return type.members.map(render).join(" | ");
  }
}

function declsIn(type: TypeExpr): Decl[] {
  switch (type.kind) {
    case "text":
      return [];
    case "typed":
      return [type.decl];
    case "list":
      return declsIn(type.item);
    case "union":
      return type.members.flatMap(declsIn);
  }
}

/** Identities of structures: the same fields with the same types are the same structure. */
const ids = new WeakMap<Decl, number>();
let nextId = 0;

function exprKey(type: TypeExpr): string {
  switch (type.kind) {
    case "text":
      return type.text;
    case "typed": {
      if (!ids.has(type.decl)) ids.set(type.decl, nextId++);
      return `#${ids.get(type.decl)}`;
    }
    case "list":
      return `list[${exprKey(type.item)}]`;
    case "union":
      return type.members.map(exprKey).join("|");
  }
}

function structureKey(decl: Decl): string {
  return JSON.stringify(decl.fields.map((f) => [f.key, f.required, exprKey(f.type)]));
}
