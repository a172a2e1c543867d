// Schema-guided media decoding (SPEC §3). A tool's outputSchema may mark a string field with
// `contentMediaType`; when a codec is registered for that media type, the field's text is decoded
// into a Python value before the script sees it. The built-in codecs are `application/zstd+json`
// (base64 of zstd-compressed UTF-8 JSON) and `application/vnd.nomad.tensor` (base64 of a
// zstd-compressed torch.save file, decoded to a Tensor: see tensor/codec.ts).
//
// The schema is compiled once per tool into a MediaPlan: a graph of the schema places that can
// lead to a media field (recursive $refs become cycles in the graph, so compiling terminates),
// with every branch that cannot reach one pruned away. Decoding walks the value and the plan
// side by side and touches nothing else.
//
// Decisions:
// - anyOf/oneOf: a string is decoded by the first branch that reaches a codec and whose `type`
//   admits a string; dicts and lists follow every branch whose `type` admits them and whose
//   `const` properties do not contradict the value (the usual discriminator), so a tagged union
//   decodes only the fields of its own variant.
// - `$ref` resolves local JSON pointers (`#/$defs/X`, `#/definitions/X`, any `#/...`); it applies
//   alongside sibling keywords, as in JSON Schema 2020-12. Remote refs are ignored.
// - Sizes: a base64 text longer than max_value_bytes is refused. A zstd payload is measured from
//   its frame headers BEFORE decompressing: the declared content size where every frame declares
//   it (refused when over the allowance); otherwise a bound summed over blocks (raw and RLE blocks
//   exactly, a compressed block at most min(window, 128 KiB)), refused when over the allowance
//   plus one block, since a streaming compressor's last block is rarely full. So decompression
//   never allocates more than the allowance + 128 KiB, and the actual size is checked after. The
//   allowance is for the whole result: decoded fields together may not take it past
//   max_value_bytes, so many small bombs are refused too.
// - A decoding failure is a ValueError naming the field's path; an oversized payload is a
//   ResourceLimitError (max_value_bytes), which a script cannot catch.
import { decompress } from "@mongodb-js/zstd";
import { type Budget, EXC, JSON_MODULE, type NativeContext, type NativeFn, PyBytes, PyDict, pyError, PyException, PyFloat, PyList, PySet, PyTuple, ResourceLimitError, type Value } from "../interpreter/index.js";
import { isSchema, resolveRef, type Schema } from "./annotation.js";
import { BLOCK_MAX, corruptZstd, decodeBase64, type MediaCodec, MediaCodecs, zstdContentSize } from "./media-codecs.js";
import { TENSOR_CODEC } from "./tensor/codec.js";

// ------------------------------------------------------------------ codecs

/** A fresh registry holding the built-in codecs. */
export function defaultCodecs(): MediaCodecs {
  return new MediaCodecs().register(ZSTD_JSON).register(TENSOR_CODEC);
}

// ------------------------------------------------------------------ JSON text as Python values

function hostContext(budget: Budget): NativeContext {
  const refuse = (): never => {
    throw pyError("RuntimeError", "JSON decoding of a tool result cannot call back into the script");
  };
  return { budget, call: refuse, callMayWait: refuse, write: refuse, note: refuse, toList: refuse, sleep: refuse, getAttr: refuse };
}

/**
 * JSON text as a Python value, with the json module's exact integers and its errors
 * (JSONDecodeError, RecursionError beyond 1000 levels). Steps are charged to `budget`.
 */
export function parseJsonText(text: string, budget: Budget): Value {
  return (JSON_MODULE.loads as NativeFn)(hostContext(budget), [text], null);
}

// ------------------------------------------------------------------ measuring Python values

/**
 * About how many bytes `v` would take as JSON, and how deeply its containers nest (a list of
 * scalars is depth 1). A container reached twice is counted once, so cycles terminate.
 */
export function valueExtent(v: Value): { bytes: number; depth: number } {
  let bytes = 0;
  let depth = 0;
  const seen = new Set<object>();
  const stack: [Value, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [x, level] = stack.pop()!;
    if (typeof x === "string") bytes += x.length + 2;
    else if (typeof x === "number" || typeof x === "bigint") bytes += String(x).length;
    else if (typeof x === "boolean") bytes += 5;
    else if (x === null) bytes += 4;
    else if (x instanceof PyFloat) bytes += 8;
    else if (x instanceof PyBytes) bytes += x.bytes.length;
    else if (x instanceof PyList || x instanceof PyTuple || x instanceof PyDict || x instanceof PySet) {
      if (seen.has(x)) continue;
      seen.add(x);
      depth = Math.max(depth, level + 1);
      bytes += 2;
      if (x instanceof PyDict) {
        for (const [k, item] of x.entries()) {
          bytes += 2;
          stack.push([k, level + 1], [item, level + 1]);
        }
      } else {
        for (const item of x instanceof PySet ? x.values() : x.items) {
          bytes += 1;
          stack.push([item, level + 1]);
        }
      }
    } else bytes += 8;
  }
  return { bytes, depth };
}

// ------------------------------------------------------------------ application/zstd+json

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function tooLarge(budget: Budget, detail: string): ResourceLimitError {
  return new ResourceLimitError("max_value_bytes", budget.limits.max_value_bytes, detail);
}

const ZSTD_JSON: MediaCodec = {
  mediaType: "application/zstd+json",
  async decode(text, budget, maxBytes = budget.limits.max_value_bytes) {
    if (text.length > budget.limits.max_value_bytes) {
      throw tooLarge(budget, `the base64 text is ${text.length} characters`);
    }
    const compressed = decodeBase64(text);
    const size = zstdContentSize(compressed);
    // A bound from block headers overestimates the last compressed block: allow one block over.
    if (size.bound > maxBytes + (size.declared ? 0 : BLOCK_MAX)) {
      throw tooLarge(
        budget,
        size.declared
          ? `the zstd payload declares ${size.bound} bytes of content (${maxBytes} allowed here)`
          : `the zstd payload could expand to ${size.bound} bytes (${maxBytes} allowed here)`,
      );
    }
    let raw: Buffer;
    try {
      raw = await decompress(compressed);
    } catch (e) {
      throw corruptZstd(e instanceof Error ? e.message.replace(/^zstd: /, "") : String(e));
    }
    if (raw.length > maxBytes) throw tooLarge(budget, `the zstd payload expanded to ${raw.length} bytes (${maxBytes} allowed here)`);
    budget.alloc(raw.length);
    let json: string;
    try {
      json = UTF8.decode(raw);
    } catch {
      throw pyError("ValueError", "the decompressed payload is not valid UTF-8");
    }
    try {
      return parseJsonText(json, budget);
    } catch (e) {
      if (e instanceof PyException && e.type === EXC.JSONDecodeError) {
        throw pyError("ValueError", `the decompressed payload is not valid JSON: ${String(e.args[0])}`);
      }
      throw e;
    }
  },
};

// ------------------------------------------------------------------ plans

/** One schema place that leads to a media field. Edges to places that cannot are pruned (null). */
export interface PlanNode {
  /** The codec's media type when this place itself is a media string. */
  media: string | null;
  /** The schema's `type`, when declared: which values a branch of anyOf/oneOf applies to. */
  types: ReadonlySet<string> | null;
  /** Properties with a primitive `const` (discriminators), to pick anyOf/oneOf branches. */
  consts: ReadonlyMap<string, string | number | boolean | null>;
  /** Every declared property (null where it cannot lead to media): additionalProperties skips them. */
  properties: Map<string, PlanNode | null>;
  patterns: { re: RegExp; node: PlanNode | null }[];
  additional: PlanNode | null;
  /** prefixItems (or draft-07 tuple `items`): positions keep their place, dead ones are null. */
  prefixItems: (PlanNode | null)[];
  items: PlanNode | null;
  /** allOf members and the $ref target: they all apply here. */
  allOf: PlanNode[];
  /** Each anyOf / oneOf: the branches that match the value apply. */
  alternatives: PlanNode[][];
}

export interface MediaPlan {
  readonly root: PlanNode;
  /** The media types the plan decodes (for documentation). */
  readonly mediaTypes: readonly string[];
}

const PRIMITIVE = (x: unknown): x is string | number | boolean | null =>
  x === null || typeof x === "string" || typeof x === "number" || typeof x === "boolean";

class PlanCompiler {
  private readonly nodes = new Map<Schema, PlanNode>();
  readonly mediaTypes = new Set<string>();

  constructor(
    private readonly root: Schema,
    private readonly codecs: MediaCodecs,
  ) {}

  compile(x: unknown): PlanNode | null {
    if (!isSchema(x)) return null;
    const known = this.nodes.get(x);
    if (known) return known;
    const node: PlanNode = {
      media: null,
      types: null,
      consts: new Map(),
      properties: new Map(),
      patterns: [],
      additional: null,
      prefixItems: [],
      items: null,
      allOf: [],
      alternatives: [],
    };
    // Registered before its children, so a $ref back to it closes a cycle instead of recursing.
    this.nodes.set(x, node);

    if (typeof x.contentMediaType === "string") {
      const codec = this.codecs.get(x.contentMediaType);
      if (codec) {
        node.media = codec.mediaType;
        this.mediaTypes.add(codec.mediaType);
      }
    }
    if (typeof x.type === "string") node.types = new Set([x.type]);
    else if (Array.isArray(x.type)) node.types = new Set(x.type.filter((t): t is string => typeof t === "string"));

    if (isSchema(x.properties)) {
      const consts = new Map<string, string | number | boolean | null>();
      for (const [name, sub] of Object.entries(x.properties)) {
        node.properties.set(name, this.compile(sub));
        if (isSchema(sub) && "const" in sub && PRIMITIVE(sub.const)) consts.set(name, sub.const);
      }
      node.consts = consts;
    }
    if (isSchema(x.patternProperties)) {
      for (const [pattern, sub] of Object.entries(x.patternProperties)) {
        let re: RegExp;
        try {
          re = new RegExp(pattern, "u");
        } catch {
          continue; // a pattern JavaScript cannot read matches nothing here
        }
        node.patterns.push({ re, node: this.compile(sub) });
      }
    }
    node.additional = this.compile(x.additionalProperties);
    if (Array.isArray(x.prefixItems)) {
      node.prefixItems = x.prefixItems.map((s) => this.compile(s));
      node.items = this.compile(x.items);
    } else if (Array.isArray(x.items)) {
      node.prefixItems = x.items.map((s) => this.compile(s));
      node.items = this.compile(x.additionalItems);
    } else {
      node.items = this.compile(x.items);
    }
    if (Array.isArray(x.allOf)) for (const s of x.allOf) this.push(node.allOf, this.compile(s));
    if (typeof x.$ref === "string") this.push(node.allOf, this.compile(resolveRef(x.$ref, this.root)));
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const branches = x[keyword];
      if (!Array.isArray(branches)) continue;
      const compiled: PlanNode[] = [];
      for (const s of branches) this.push(compiled, this.compile(s));
      node.alternatives.push(compiled);
    }
    return node;
  }

  private push(list: PlanNode[], node: PlanNode | null): void {
    if (node) list.push(node);
  }

  /**
   * Keeps only what can reach a media field. Liveness is a fixed point over the (possibly
   * cyclic) graph: a node is live when it is a media place or has an edge to a live node.
   */
  prune(root: PlanNode): PlanNode | null {
    const all = [...this.nodes.values()];
    const live = new Set<PlanNode>();
    const successors = (n: PlanNode): (PlanNode | null)[] => [
      ...n.properties.values(),
      ...n.patterns.map((p) => p.node),
      n.additional,
      ...n.prefixItems,
      n.items,
      ...n.allOf,
      ...n.alternatives.flat(),
    ];
    for (let changed = true; changed; ) {
      changed = false;
      for (const n of all) {
        if (live.has(n)) continue;
        if (n.media !== null || successors(n).some((s) => s !== null && live.has(s))) {
          live.add(n);
          changed = true;
        }
      }
    }
    if (!live.has(root)) return null;
    const keep = (n: PlanNode | null) => (n !== null && live.has(n) ? n : null);
    for (const n of live) {
      for (const [name, sub] of n.properties) n.properties.set(name, keep(sub));
      for (const p of n.patterns) p.node = keep(p.node);
      n.additional = keep(n.additional);
      n.prefixItems = n.prefixItems.map(keep);
      n.items = keep(n.items);
      n.allOf = n.allOf.filter((s) => live.has(s));
      n.alternatives = n.alternatives.map((branches) => branches.filter((s) => live.has(s))).filter((b) => b.length > 0);
    }
    return root;
  }
}

/**
 * Where an outputSchema asks for media decoding, or null when nowhere (for a media type with a
 * registered codec). Compile once per tool schema; the plan does not change with the value.
 */
export function mediaFields(outputSchema: unknown, codecs: MediaCodecs = builtIn()): MediaPlan | null {
  if (!isSchema(outputSchema)) return null;
  const compiler = new PlanCompiler(outputSchema, codecs);
  const root = compiler.prune(compiler.compile(outputSchema)!);
  return root === null ? null : { root, mediaTypes: [...compiler.mediaTypes] };
}

// Made on first use: the tensor codec imports from this module, so nothing here may need it
// while the modules are still loading.
let BUILT_IN: MediaCodecs | null = null;
function builtIn(): MediaCodecs {
  return (BUILT_IN ??= defaultCodecs());
}

// ------------------------------------------------------------------ decoding

/** The JSON Schema type names a value satisfies. */
function jsonTypes(v: Value): readonly string[] {
  if (typeof v === "string") return ["string"];
  if (typeof v === "boolean") return ["boolean"];
  if (typeof v === "number" || typeof v === "bigint") return ["integer", "number"];
  if (v === null) return ["null"];
  if (v instanceof PyFloat) return Number.isInteger(v.v) ? ["integer", "number"] : ["number"];
  if (v instanceof PyDict) return ["object"];
  if (v instanceof PyList || v instanceof PyTuple) return ["array"];
  return [];
}

/** Whether an anyOf/oneOf branch applies to `v`: its type admits it and no const contradicts it. */
function branchApplies(node: PlanNode, v: Value): boolean {
  if (node.types !== null && !jsonTypes(v).some((t) => node.types!.has(t))) return false;
  if (v instanceof PyDict) {
    for (const [name, expected] of node.consts) {
      if (!v.has(name)) continue;
      const actual = v.get(name)!;
      const same = actual instanceof PyFloat ? actual.v === expected : actual === expected;
      if (!same) return false;
    }
  }
  return true;
}

/** The nodes that apply to `v` at a place: each node, its allOf/$ref members, matching branches. */
function expand(nodes: readonly PlanNode[], v: Value): PlanNode[] {
  const out: PlanNode[] = [];
  const seen = new Set<PlanNode>();
  const visit = (n: PlanNode) => {
    if (seen.has(n)) return;
    seen.add(n);
    out.push(n);
    for (const member of n.allOf) visit(member);
    for (const branches of n.alternatives) for (const b of branches) if (branchApplies(b, v)) visit(b);
  };
  for (const n of nodes) visit(n);
  return out;
}

/** The first codec that applies to a string at a place, in schema order. */
function mediaOf(nodes: readonly PlanNode[], v: string): string | null {
  for (const n of expand(nodes, v)) {
    if (n.media !== null && (n.types === null || n.types.has("string"))) return n.media;
  }
  return null;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

class MediaDecoder {
  /** Bytes the value takes so far; decoded fields may grow it up to max_value_bytes. */
  private used: number;

  constructor(
    private readonly codecs: MediaCodecs,
    private readonly budget: Budget,
    private readonly depthOffset: number,
    initialBytes: number,
  ) {
    this.used = initialBytes;
  }

  async at(v: Value, nodes: readonly PlanNode[], path: string, depth: number): Promise<Value> {
    if (typeof v === "string") {
      const media = mediaOf(nodes, v);
      return media === null ? v : this.decode(v, media, path, depth);
    }
    if (v instanceof PyDict) {
      const here = expand(nodes, v);
      for (const [key, item] of [...v.entries()]) {
        if (typeof key !== "string") continue;
        const children = propertyNodes(here, key);
        if (children.length > 0) v.set(key, await this.at(item, children, childPath(path, key), depth + 1));
      }
    } else if (v instanceof PyList) {
      const here = expand(nodes, v);
      for (let i = 0; i < v.items.length; i++) {
        const children = itemNodes(here, i);
        if (children.length > 0) v.items[i] = await this.at(v.items[i]!, children, childPath(path, i), depth + 1);
      }
    }
    return v;
  }

  private async decode(text: string, mediaType: string, path: string, depth: number): Promise<Value> {
    const codec = this.codecs.get(mediaType);
    if (!codec) return text;
    const limit = this.budget.limits.max_value_bytes;
    // The string goes away when it is replaced, so its bytes are available to what replaces it.
    const allowed = Math.max(0, limit - this.used + text.length + 2);
    let decoded: Value;
    try {
      decoded = await codec.decode(text, this.budget, allowed);
    } catch (e) {
      if (e instanceof ResourceLimitError) {
        const detail = e.message.replace(`${e.field} exceeded (limit ${e.limit})`, "").replace(/^: /, "");
        throw new ResourceLimitError(e.field, e.limit, `decoding ${path} (${mediaType})${detail ? `: ${detail}` : ""}`);
      }
      if (e instanceof PyException) {
        const reason = e.args.length > 0 ? String(e.args[0]) : e.type.name;
        throw pyError("ValueError", `cannot decode ${path} (${mediaType}): ${reason}`);
      }
      throw e;
    }
    const extent = valueExtent(decoded);
    this.used += extent.bytes - (text.length + 2);
    const where = `decoding ${path} (${mediaType})`;
    if (this.used > limit) throw new ResourceLimitError("max_value_bytes", limit, `${where} made the result larger`);
    const maxDepth = this.budget.limits.max_nesting_depth;
    if (this.depthOffset + depth + extent.depth > maxDepth) {
      throw new ResourceLimitError("max_nesting_depth", maxDepth, `${where} nests deeper`);
    }
    return decoded;
  }
}

/** The nodes that apply to property `key` of a dict matched by `here`. */
function propertyNodes(here: readonly PlanNode[], key: string): PlanNode[] {
  const out: PlanNode[] = [];
  for (const n of here) {
    let matched = n.properties.has(key);
    const named = n.properties.get(key);
    if (named) out.push(named);
    for (const p of n.patterns) {
      if (p.re.test(key)) {
        matched = true;
        if (p.node) out.push(p.node);
      }
    }
    if (!matched && n.additional) out.push(n.additional);
  }
  return out;
}

/** The nodes that apply to item `i` of a list matched by `here`. */
function itemNodes(here: readonly PlanNode[], i: number): PlanNode[] {
  const out: PlanNode[] = [];
  for (const n of here) {
    const child = i < n.prefixItems.length ? n.prefixItems[i]! : n.items;
    if (child) out.push(child);
  }
  return out;
}

/**
 * Applies a plan to a value (a tool result as Python values), replacing each string the plan
 * marks by its decoded value. Containers are updated in place; the (possibly new) value is
 * returned. `depthOffset` is added to nesting depths (-1 when the caller will unwrap the root).
 */
export async function decodeMedia(
  value: Value,
  plan: MediaPlan,
  codecs: MediaCodecs,
  budget: Budget,
  depthOffset = 0,
): Promise<Value> {
  const decoder = new MediaDecoder(codecs, budget, depthOffset, valueExtent(value).bytes);
  return decoder.at(value, [plan.root], "$", 0);
}
