// The text of an execution's error (its message, the reprs in it, its traceback), bounded so that
// formatting it can neither fail nor take long, whatever the script raised: a message of 150 MB,
// a key that is a million-item tuple, a traceback 1000 frames deep. It charges no budget: the
// execution is over by then, and the bound is what keeps the work small.
import { sourceLine } from "../../grammar/errors.js";
import { PyException, type TraceEntry } from "./errors.js";
import { bytesRepr, repr, strRepr } from "./repr.js";
import { PyBytes, PyDict, PyList, PyObject, PySet, PyTuple, type Value } from "./values.js";

/** The longest message an error shows; the rest is cut with a marker saying how much. */
export const MAX_MESSAGE_CHARS = 8192;
/** The longest source line a traceback quotes. */
const MAX_QUOTED_LINE_CHARS = 240;
/** A deeper traceback shows its outermost and innermost frames, and how many were left out. */
const OUTER_FRAMES = 10;
const INNER_FRAMES = 40;
/** Ints of more bits than this are described, not printed (their decimal text is slow to make). */
const MAX_PRINTED_INT_BITS = 16384;
const PRINTED_INT_BOUND = 1n << BigInt(MAX_PRINTED_INT_BITS);

/** `text`, cut to `max` characters with a marker of how many more there were. */
export function truncated(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = prefix(text, max);
  return `${head}… [truncated, ${text.length - head.length} more characters]`;
}

/** The first `max` characters of `text`, or one fewer not to split a surrogate pair. */
function prefix(text: string, max: number): string {
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Thrown by BoundedText when it is full. */
const FULL = Symbol("full");

/** Text that stops growing at a number of characters. */
class BoundedText {
  private readonly parts: string[] = [];
  /** Containers being printed (a self-containing one prints as `[...]`, as CPython does). */
  readonly active: object[] = [];

  constructor(public left: number) {}

  put(text: string): void {
    if (text.length > this.left) {
      this.parts.push(text.slice(0, this.left));
      this.left = 0;
      throw FULL;
    }
    this.parts.push(text);
    this.left -= text.length;
  }

  get text(): string {
    return this.parts.join("");
  }
}

/**
 * repr(v) of at most `max` characters, and whether it is whole. The work is bounded by `max` too:
 * a long str or bytes is cut before it is quoted, a container stops at the item that fills it.
 */
export function boundedRepr(v: Value, max: number): { text: string; whole: boolean } {
  const out = new BoundedText(max);
  try {
    reprInto(out, v);
    return { text: out.text, whole: true };
  } catch (e) {
    if (e !== FULL) throw e;
    return { text: out.text, whole: false };
  }
}

function reprInto(out: BoundedText, v: Value): void {
  // Escapes only lengthen a text, so one more character than fits is enough to fill `out`.
  if (typeof v === "string") return out.put(strRepr(v.length > out.left ? v.slice(0, out.left + 1) : v));
  if (typeof v === "bigint" && (v < 0n ? -v : v) >= PRINTED_INT_BOUND) return out.put(`<int of more than ${MAX_PRINTED_INT_BITS} bits>`);
  if (v instanceof PyBytes) return out.put(bytesRepr(v.bytes.length > out.left ? v.bytes.subarray(0, out.left + 1) : v.bytes));
  if (v instanceof PyList) return items(out, v, "[", "]", v.items);
  if (v instanceof PyTuple) return items(out, v, "(", v.items.length === 1 ? ",)" : ")", v.items);
  if (v instanceof PySet) {
    if (v.size === 0) return out.put(v.frozen ? "frozenset()" : "set()");
    if (v.frozen) out.put("frozenset(");
    items(out, v, "{", "}", v.values());
    if (v.frozen) out.put(")");
    return;
  }
  if (v instanceof PyDict) {
    if (out.active.includes(v)) return out.put("{...}");
    out.active.push(v);
    out.put("{");
    let first = true;
    for (const [k, x] of v.map) {
      if (!first) out.put(", ");
      first = false;
      reprInto(out, v.keyOf(k));
      out.put(": ");
      reprInto(out, x);
    }
    out.put("}");
    out.active.pop();
    return;
  }
  if (v instanceof PyException) {
    out.put(`${v.type.name}(`);
    items(out, null, "", ")", v.args);
    return;
  }
  // Everything else has a short repr of its own (a function, a module, a range, a float...).
  if (v instanceof PyObject) return out.put(truncated(repr(v, undefined), out.left + 1));
  out.put(repr(v));
}

function items(out: BoundedText, container: object | null, open: string, close: string, values: Iterable<Value>): void {
  if (container !== null && out.active.includes(container)) return out.put(open === "[" ? "[...]" : open === "{" ? "{...}" : "(...)");
  if (container !== null) out.active.push(container);
  out.put(open);
  let first = true;
  for (const x of values) {
    if (!first) out.put(", ");
    first = false;
    reprInto(out, x);
  }
  out.put(close);
  if (container !== null) out.active.pop();
}

/**
 * str(e) as CPython gives it, at most `max` characters long (and about as much work). Cut, it
 * ends with a marker: with how many characters are left out when that is known, that is, when
 * the text was made whole (a long str argument) before being cut.
 */
export function exceptionMessage(e: PyException, max = MAX_MESSAGE_CHARS): string {
  let whole = true;
  const reprOf = (v: Value): string => {
    const r = boundedRepr(v, max + 1);
    whole &&= r.whole;
    return r.text;
  };
  const strOf = (v: Value): string => {
    if (typeof v === "string") return v;
    if (v instanceof PyException) {
      const text = exceptionMessage(v, max);
      whole &&= text.length <= max;
      return text;
    }
    return reprOf(v);
  };
  const message = e.message(strOf, reprOf);
  if (whole) return truncated(message, max);
  return message.length <= max ? `${message}… [truncated]` : `${prefix(message, max)}… [truncated]`;
}

/** The traceback of `e` (most recent call last), with its last line `Type: message`. */
export function tracebackText(e: PyException, message: string, source: string, filename: string): string {
  const lines = ["Traceback (most recent call last):"];
  const frames = [...e.traceback].reverse();
  const shown: (TraceEntry | number)[] =
    frames.length > OUTER_FRAMES + INNER_FRAMES
      ? [...frames.slice(0, OUTER_FRAMES), frames.length - OUTER_FRAMES - INNER_FRAMES, ...frames.slice(-INNER_FRAMES)]
      : frames;
  for (const entry of shown) {
    if (typeof entry === "number") {
      lines.push(`  … [${entry} more frames]`);
      continue;
    }
    lines.push(`  File "${truncated(filename, MAX_QUOTED_LINE_CHARS)}", line ${entry.line}, in ${entry.scope}`);
    const text = sourceLine(source, entry.line).trim();
    if (text) lines.push(`    ${truncated(text, MAX_QUOTED_LINE_CHARS)}`);
  }
  lines.push(message ? `${e.type.name}: ${message}` : e.type.name);
  return lines.join("\n");
}

/** What anything thrown says, whatever it is (an Error, one of ours, a string, an odd object). */
export function describeThrown(e: unknown): string {
  try {
    if (e instanceof Error) return truncated(e.message || e.name, MAX_MESSAGE_CHARS);
    if (typeof e === "object" && e !== null) {
      const { type, message } = e as { type?: unknown; message?: unknown };
      if (typeof message === "string") return truncated(typeof type === "string" ? `${type}: ${message}` : message, MAX_MESSAGE_CHARS);
      const json = JSON.stringify(e);
      if (json !== undefined && json !== "{}") return truncated(`a thrown object: ${json}`, MAX_MESSAGE_CHARS);
      return `a thrown ${e.constructor?.name ?? "object"}`;
    }
    return truncated(String(e), MAX_MESSAGE_CHARS);
  } catch {
    return `an unprintable ${typeof e}`;
  }
}
