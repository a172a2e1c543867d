// An MCP CallToolResult as the Python value a script receives (SPEC §3).
//
// Rules, in order:
// - `isError: true`: no value; the message is the text blocks joined with "\n" (else the JSON of
//   structuredContent or of the content), cut to max_value_bytes characters. The bridge raises it
//   as ToolError.
// - `structuredContent`: converted (objects -> dict, arrays -> list, integral numbers -> int,
//   other numbers -> float), media fields decoded per the outputSchema's plan, then unwrapped when
//   it is an object whose only key is `result`. The SDK has already parsed it with JSON.parse, so
//   integers beyond 2^53 have lost digits; when that happened and the result also carries exactly
//   one text block whose JSON (parsed exactly) has the same shape and values, the exact parse is
//   used instead.
// - Otherwise, content blocks:
//   * one text block: its JSON when the text is a JSON object, array, number, bool or null (parsed
//     by the json module, so big integers stay exact), else the text itself. A JSON string literal
//     stays text: `"quoted"` is more likely prose than an encoded string. The media plan applies
//     to this JSON too (a server that omits structuredContent usually sends it as text).
//   * several text blocks: when EVERY block is JSON by the rule above, a list of the parsed
//     values (what a Python caller expects of `[json.loads(t) for t in texts]`); otherwise the
//     texts joined with "\n", as one str. There is no JSON attempt on the joined text.
//   * image/audio -> {"type", "mimeType", "data"}; resource -> {"type": "resource", "uri",
//     "mimeType", "text" or "data"}; resource_link -> {"type", "uri", "name", "mimeType"} plus
//     "description" when present (mimeType is None when absent, so every media dict has it);
//     an unknown block type -> the block as a dict.
//   * text mixed with media, or several media blocks -> a list of the parts, in order (each text
//     part by the one-block rule). No blocks -> None.
// - Limits: before converting, the result's JSON size is estimated and refused over
//   max_value_bytes, and nesting deeper than max_nesting_depth is refused (ResourceLimitError);
//   the estimate is charged to the budget's memory. Decoded media count toward the same bounds.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Budget, EXC, type Limits, PyDict, PyException, PyFloat, PyList, ResourceLimitError, type Value } from "../interpreter/index.js";
import { decodeMedia, type MediaPlan, mediaFields, parseJsonText, valueExtent } from "./media.js";
import type { MediaCodecs } from "./media-codecs.js";

export interface NormalizeOptions {
  /** The tool's outputSchema; its media plan is compiled here when `plan` is not given. */
  outputSchema?: object;
  /** The compiled media plan (null: no media decoding); preferred over `outputSchema`. */
  plan?: MediaPlan | null;
  codecs: MediaCodecs;
  budget: Budget;
}

export interface NormalizedResult {
  isError: boolean;
  /** The Python value (None when isError). */
  value: Value;
  /** What the tool said went wrong, when isError. */
  errorMessage: string | null;
}

type Block = CallToolResult["content"][number];

export async function normalizeResult(result: CallToolResult, options: NormalizeOptions): Promise<NormalizedResult> {
  const { budget } = options;
  const limits = budget.limits;
  const content: Block[] = Array.isArray(result.content) ? result.content : [];
  const structured: unknown = result.structuredContent;

  if (result.isError === true) {
    return { isError: true, value: null, errorMessage: errorMessage(content, structured, limits) };
  }

  const plan =
    options.plan !== undefined ? options.plan : options.outputSchema ? mediaFields(options.outputSchema, options.codecs) : null;

  if (structured !== undefined && structured !== null) {
    const unwrap = isRecord(structured) && Object.keys(structured).length === 1 && Object.hasOwn(structured, "result");
    // The wrapper itself does not count toward nesting: the script never sees it.
    const depthOffset = unwrap ? -1 : 0;
    const measured = measure(structured, limits, depthOffset);
    budget.alloc(measured.bytes);
    const exact = measured.lossyInts ? exactFromText(structured, unwrap, content, budget) : null;
    let value = exact ?? toPython(structured, limits, depthOffset);
    if (plan) value = await decodeMedia(value, plan, options.codecs, budget, depthOffset);
    if (unwrap) value = (value as PyDict).get("result") ?? null;
    return { isError: false, value, errorMessage: null };
  }

  budget.alloc(measure(content, limits, null).bytes);
  let value: Value;
  if (content.length === 0) value = null;
  else if (content.every((b) => b.type === "text")) {
    const texts = content.map((b) => (b as { text: string }).text);
    if (texts.length === 1) {
      value = textValue(texts[0]!, budget);
      if (plan && value !== texts[0]) value = await decodeMedia(value, plan, options.codecs, budget);
    } else {
      const parsed = texts.map((t) => jsonOf(t, budget));
      value = parsed.every((p) => p !== NOT_JSON) ? new PyList(parsed as Value[]) : texts.join("\n");
    }
  } else {
    const inList = content.length > 1 ? 1 : 0;
    const parts = content.map((b) => (b.type === "text" ? textValue(b.text, budget) : mediaValue(b, limits, inList)));
    value = parts.length === 1 ? parts[0]! : new PyList(parts);
  }
  const depth = valueExtent(value).depth;
  if (depth > limits.max_nesting_depth) {
    throw new ResourceLimitError("max_nesting_depth", limits.max_nesting_depth, "a tool result nests deeper");
  }
  return { isError: false, value, errorMessage: null };
}

// ------------------------------------------------------------------ measuring and converting

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * The approximate JSON size of a host value, refused past max_value_bytes as soon as it gets
 * there; with a `depthOffset`, nesting past max_nesting_depth is refused too. Iterative, so a
 * pathologically deep value cannot overflow the JS stack. Also says whether some integer is
 * beyond 2^53 (and so inexact after JSON.parse).
 */
function measure(root: unknown, limits: Limits, depthOffset: number | null): { bytes: number; lossyInts: boolean } {
  let bytes = 0;
  let lossyInts = false;
  const stack: [unknown, number][] = [[root, 0]];
  const add = (n: number) => {
    bytes += n;
    if (bytes > limits.max_value_bytes) {
      throw new ResourceLimitError("max_value_bytes", limits.max_value_bytes, "a tool result is larger");
    }
  };
  while (stack.length > 0) {
    const [x, level] = stack.pop()!;
    if (typeof x === "string") add(x.length + 2);
    else if (typeof x === "number") {
      if (Number.isInteger(x) && !Number.isSafeInteger(x)) lossyInts = true;
      add(String(x).length);
    } else if (typeof x === "boolean") add(5);
    else if (x === null || x === undefined) add(4);
    else if (typeof x === "object") {
      if (depthOffset !== null && level + 1 + depthOffset > limits.max_nesting_depth) {
        throw new ResourceLimitError("max_nesting_depth", limits.max_nesting_depth, "a tool result nests deeper");
      }
      add(2);
      if (Array.isArray(x)) {
        for (const item of x) {
          add(1);
          stack.push([item, level + 1]);
        }
      } else {
        for (const [key, item] of Object.entries(x)) {
          add(key.length + 4);
          stack.push([item, level + 1]);
        }
      }
    } else add(String(x).length);
  }
  return { bytes, lossyInts };
}

/** A JSON-shaped host value as Python values; `depth` is the nesting of `x`'s parent. */
function toPython(x: unknown, limits: Limits, depth: number): Value {
  if (typeof x === "string" || typeof x === "boolean") return x;
  if (typeof x === "number") {
    if (Number.isSafeInteger(x)) return x === 0 ? 0 : x;
    return Number.isInteger(x) ? BigInt(x) : new PyFloat(x);
  }
  if (x === null || x === undefined || typeof x !== "object") return x === null || x === undefined ? null : String(x);
  if (depth + 1 > limits.max_nesting_depth) {
    throw new ResourceLimitError("max_nesting_depth", limits.max_nesting_depth, "a tool result nests deeper");
  }
  if (Array.isArray(x)) return new PyList(x.map((item) => toPython(item, limits, depth + 1)));
  const d = new PyDict();
  for (const [key, item] of Object.entries(x)) d.set(key, toPython(item, limits, depth + 1));
  return d;
}

/** Whether a JSON.parse'd value and an exactly parsed one are the same JSON (up to double rounding). */
function sameJson(js: unknown, py: Value): boolean {
  if (typeof js === "number") {
    if (typeof py === "number") return py === js;
    if (typeof py === "bigint") return Number(py) === js;
    return py instanceof PyFloat && py.v === js;
  }
  if (js === null || typeof js === "string" || typeof js === "boolean") return py === js;
  if (Array.isArray(js)) {
    return py instanceof PyList && py.items.length === js.length && js.every((item, i) => sameJson(item, py.items[i]!));
  }
  if (isRecord(js)) {
    if (!(py instanceof PyDict)) return false;
    const keys = Object.keys(js);
    return py.size === keys.length && keys.every((k) => py.has(k) && sameJson(js[k], py.get(k)!));
  }
  return false;
}

/**
 * structuredContent with its big integers exact, recovered from the text block that carries the
 * same JSON (MCP asks servers to send both); null when there is no such block.
 */
function exactFromText(structured: unknown, unwrap: boolean, content: Block[], budget: Budget): Value | null {
  const texts = content.filter((b) => b.type === "text");
  if (texts.length !== 1) return null;
  const text = (texts[0] as { text: string }).text;
  if (typeof text !== "string" || text.length > budget.limits.max_value_bytes || !looksLikeJson(text)) return null;
  let parsed: Value;
  try {
    parsed = parseJsonText(text, budget);
  } catch (e) {
    // The text is not the JSON of the structured content; the structured content stands.
    if (e instanceof PyException) return null;
    throw e;
  }
  if (sameJson(structured, parsed)) return parsed;
  if (unwrap && sameJson((structured as Record<string, unknown>).result, parsed)) return PyDict.fromStringRecord({ result: parsed });
  return null;
}

// ------------------------------------------------------------------ content blocks

const NOT_JSON = Symbol("not JSON");

/** Text that could be a JSON object, array, number, bool or null (strings are not wanted). */
function looksLikeJson(text: string): boolean {
  return /^[\t\n\r ]*[{[\-0-9tfnNI]/.test(text);
}

/** A text block's JSON value by the rule in the header, or NOT_JSON. */
function jsonOf(text: string, budget: Budget): Value | typeof NOT_JSON {
  if (!looksLikeJson(text)) return NOT_JSON;
  let value: Value;
  try {
    value = parseJsonText(text, budget);
  } catch (e) {
    if (e instanceof PyException && e.type === EXC.JSONDecodeError) return NOT_JSON;
    if (e instanceof PyException && e.type === EXC.RecursionError) {
      throw new ResourceLimitError("max_nesting_depth", budget.limits.max_nesting_depth, "a tool result's JSON text nests deeper");
    }
    throw e;
  }
  return typeof value === "string" ? NOT_JSON : value;
}

function textValue(text: string, budget: Budget): Value {
  const value = jsonOf(text, budget);
  return value === NOT_JSON ? text : value;
}

function mediaValue(block: Block, limits: Limits, depth: number): Value {
  switch (block.type) {
    case "image":
    case "audio":
      return PyDict.fromStringRecord({ type: block.type, mimeType: block.mimeType, data: block.data });
    case "resource": {
      const r = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      const d = PyDict.fromStringRecord({ type: "resource", uri: r.uri, mimeType: r.mimeType ?? null });
      if (typeof r.text === "string") d.set("text", r.text);
      else d.set("data", r.blob ?? null);
      return d;
    }
    case "resource_link": {
      const d = PyDict.fromStringRecord({ type: "resource_link", uri: block.uri, name: block.name, mimeType: block.mimeType ?? null });
      if (block.description !== undefined) d.set("description", block.description);
      return d;
    }
    default:
      return toPython(block, limits, depth);
  }
}

// ------------------------------------------------------------------ errors

function errorMessage(content: Block[], structured: unknown, limits: Limits): string {
  const texts = content.filter((b) => b.type === "text").map((b) => (b as { text: string }).text);
  let message: string;
  if (texts.length > 0) message = texts.join("\n");
  else if (structured !== undefined && structured !== null) message = JSON.stringify(structured);
  else if (content.length > 0) message = JSON.stringify(content);
  else message = "the tool reported an error without a message";
  const max = limits.max_value_bytes;
  if (message.length <= max) return message;
  // A long error is still an error the script can catch: cut it rather than refuse it.
  let cut = message.slice(0, max);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}... [${message.length - cut.length} more characters]`;
}
