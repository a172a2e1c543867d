// The json module: dumps and loads with CPython 3.11's output, error messages and positions.
//
// Both directions work with an explicit stack rather than recursion, so a deeply nested value
// ends in a RecursionError (as in CPython) and never in a JS stack overflow. Work is charged to
// the budget as it happens: a step per value, a step per 16 characters of text scanned or
// parsed and per 4 written, n·log2(n) steps to sort n keys; the growing output of dumps is
// checked against max_memory_bytes (two bytes a character) before it is joined.
import { EXC, PyException, pyError } from "../errors.js";
import type { Kwargs, NativeContext, NativeFn } from "../native.js";
import { PyInstance } from "../instance.js";
import { compare } from "../ops.js";
import type { Pending } from "../objects.js";
import { floatRepr } from "../repr.js";
import { waitable } from "../stepping.js";
import { toCpIndex } from "../strings.js";
import { normInt, PyBytes, PyDict, PyFloat, PyList, PyTuple, truthy, typeName, type Value } from "../values.js";
import { decimalSteps } from "../bigint-cost.js";
import { decimalText, digitLimitError, MAX_STR_DIGITS } from "../int-text.js";

/** Nesting deeper than this raises RecursionError, near where CPython's recursion limit stops it. */
const MAX_DEPTH = 1000;

const CHARS_PER_STEP = 16;
/** What dumps charges for its output: about the cost of writing it piece by piece (~10-20 ns a step). */
const OUTPUT_CHARS_PER_STEP = 4;

// ------------------------------------------------------------------ keyword arguments

/** Reads keyword-only options, refusing unknown ones with the error CPython's class raises. */
function options(className: string, known: readonly string[], kwargs: Kwargs | null): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [key, value] of kwargs ?? []) {
    if (!known.includes(key)) throw pyError("TypeError", `${className}.__init__() got an unexpected keyword argument '${key}'`);
    out.set(key, value);
  }
  return out;
}

function onePositional(fnName: string, args: Value[]): void {
  if (args.length > 1) throw pyError("TypeError", `${fnName}() takes 1 positional argument but ${args.length} were given`);
}

/** The single positional parameter of dumps(obj, ...) and loads(s, ...), which may be named. */
function subject(fnName: string, param: string, args: Value[], opts: Map<string, Value>): Value {
  const byName = opts.get(param);
  if (args.length === 1) {
    if (byName !== undefined) throw pyError("TypeError", `${fnName}() got multiple values for argument '${param}'`);
    return args[0]!;
  }
  if (byName === undefined) throw pyError("TypeError", `${fnName}() missing 1 required positional argument: '${param}'`);
  return byName;
}

/** `cls=` names an encoder or decoder class; the sandbox has none to offer. */
function refuseCls(fnName: string, opts: Map<string, Value>): void {
  const cls = opts.get("cls");
  if (cls !== undefined && cls !== null) {
    throw pyError("TypeError", `json.${fnName}() does not support cls= here; use default= or object_hook= instead`);
  }
}

function intRepr(n: number | bigint): string {
  return decimalText(n);
}

// ------------------------------------------------------------------ dumps

interface EncoderOptions {
  skipKeys: boolean;
  ensureAscii: boolean;
  checkCircular: boolean;
  allowNan: boolean;
  /** The indent unit, or null for one line. */
  indent: string | null;
  itemSeparator: string;
  keySeparator: string;
  sortKeys: boolean;
  default: Value | null;
}

const DUMPS_KEYWORDS = [
  "obj",
  "skipkeys",
  "ensure_ascii",
  "check_circular",
  "allow_nan",
  "cls",
  "indent",
  "separators",
  "default",
  "sort_keys",
] as const;

function encoderOptions(ctx: NativeContext, opts: Map<string, Value>): EncoderOptions {
  const flag = (name: string, fallback: boolean) => {
    const v = opts.get(name);
    return v === undefined ? fallback : truthy(v);
  };
  const indent = indentUnit(ctx, opts.get("indent") ?? null);
  let itemSeparator = indent === null ? ", " : ",";
  let keySeparator = ": ";
  const separators = opts.get("separators") ?? null;
  if (separators !== null) {
    const pair = ctx.toList(separators);
    if (pair.length < 2) throw pyError("ValueError", `not enough values to unpack (expected 2, got ${pair.length})`);
    if (pair.length > 2) throw pyError("ValueError", "too many values to unpack (expected 2)");
    const [item, key] = pair as [Value, Value];
    if (typeof key !== "string") throw pyError("TypeError", `make_encoder() argument 5 must be str, not ${typeName(key)}`);
    if (typeof item !== "string") throw pyError("TypeError", `make_encoder() argument 6 must be str, not ${typeName(item)}`);
    itemSeparator = item;
    keySeparator = key;
  }
  return {
    skipKeys: flag("skipkeys", false),
    ensureAscii: flag("ensure_ascii", true),
    checkCircular: flag("check_circular", true),
    allowNan: flag("allow_nan", true),
    indent,
    itemSeparator,
    keySeparator,
    sortKeys: flag("sort_keys", false),
    default: opts.get("default") ?? null,
  };
}

/** indent=: a string is used as is, an int n means n spaces (none if n <= 0). */
function indentUnit(ctx: NativeContext, indent: Value): string | null {
  if (indent === null || typeof indent === "string") return indent;
  if (typeof indent === "boolean") return indent ? " " : "";
  if (typeof indent === "number" || typeof indent === "bigint") {
    if (indent <= 0) return "";
    ctx.budget.checkSize(Number(indent));
    return " ".repeat(Number(indent));
  }
  throw pyError("TypeError", `can't multiply sequence by non-int of type '${typeName(indent)}'`);
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return SHORT_ESCAPES[c] ?? (UNIT_ESCAPES[code] ??= "\\u" + code.toString(16).padStart(4, "0"));
}

/** The \uXXXX escape of each UTF-16 unit, made when first needed (a long text repeats them). */
const UNIT_ESCAPES: (string | undefined)[] = new Array<string | undefined>(0x10000);

/** Units of a long text escaped at a time, each chunk charged before the next is made. */
const ESCAPE_CHUNK = 8192;

// ensure_ascii escapes everything outside ' '..'~' (surrogate pairs as two \u escapes, which is
// what iterating UTF-16 units gives); otherwise only quotes, backslashes and control characters.
const NEEDS_ESCAPE_ASCII = /[\\"\u0000-\u001f\u007f-\uffff]/g;
const NEEDS_ESCAPE = /[\\"\u0000-\u001f]/g;

/** Steps of dumps()'s walk between two looks at the clock (a value or a separator each). */
const PACE_VALUES = 256;

type EncodeFrame =
  | { kind: "array"; container: object; items: readonly Value[]; index: number }
  | { kind: "object"; container: object; entries: [Value, Value][]; index: number; first: boolean }
  | { kind: "default"; marker: object };

/** One dumps() call: writes pieces to `out`, walking containers with an explicit stack. */
class Encoder {
  private readonly out: string[] = [];
  private size = 0;
  /** The steps charged for the `size` characters written. */
  private paid = 0;
  private readonly stack: EncodeFrame[] = [];
  private readonly markers = new Set<object>();
  private level = 0;
  private readonly newlines: string[] = [];

  constructor(
    private readonly ctx: NativeContext,
    private readonly o: EncoderOptions,
  ) {}

  /**
   * The text of `root`. Between every PACE_VALUES steps of the walk it pauses through the ctx
   * (a Pending, when the execution's slice is used up), and the pieces written meanwhile are
   * joined: dumps() of 900,000 ints held the event loop for 20-30 ms in one block.
   */
  encode(root: Value): string | Pending {
    this.value(root);
    const chunks: string[] = [];
    const loop = (): string | Pending => {
      while (this.stack.length > 0) {
        for (let n = 0; n < PACE_VALUES && this.stack.length > 0; n++) this.advance();
        if (this.stack.length === 0) break;
        chunks.push(this.out.join(""));
        this.out.length = 0;
        const paused = this.ctx.pause?.() ?? null;
        if (paused !== null) return paused.then(loop);
      }
      chunks.push(this.out.join(""));
      return chunks.join("");
    };
    return loop();
  }

  private emit(piece: string): void {
    this.size += piece.length;
    this.ctx.budget.checkSize(2 * this.size);
    // A step per OUTPUT_CHARS_PER_STEP characters written, indentation included, as the output
    // grows: an indent of 10 at depth 4 writes 40 spaces per value, more than the value's step.
    const due = Math.floor(this.size / OUTPUT_CHARS_PER_STEP);
    if (due > this.paid) {
      this.ctx.budget.step(due - this.paid);
      this.paid = due;
    }
    this.out.push(piece);
  }

  /** "\n" and the indent of the current level, built once per level. */
  private newline(): string {
    let s = this.newlines[this.level];
    if (s === undefined) {
      this.ctx.budget.checkSize(this.size + this.o.indent!.length * this.level + 1);
      s = "\n" + this.o.indent!.repeat(this.level);
      this.newlines[this.level] = s;
    }
    return s;
  }

  private string(s: string): string {
    this.ctx.budget.step(Math.floor(s.length / CHARS_PER_STEP));
    const pattern = this.o.ensureAscii ? NEEDS_ESCAPE_ASCII : NEEDS_ESCAPE;
    pattern.lastIndex = 0;
    if (!pattern.test(s)) return '"' + s + '"';
    if (s.length <= ESCAPE_CHUNK) return '"' + s.replace(pattern, escapeChar) + '"';
    // An escape makes up to six characters of one: a step per character it adds, and the text so
    // far checked against the memory budget, before each next chunk is made.
    const chunks: string[] = [];
    let built = this.size;
    for (let from = 0; from < s.length; from += ESCAPE_CHUNK) {
      const part = s.slice(from, from + ESCAPE_CHUNK);
      const chunk = part.replace(pattern, escapeChar);
      built += chunk.length;
      this.ctx.budget.checkSize(2 * built);
      this.ctx.budget.step(chunk.length - part.length);
      chunks.push(chunk);
    }
    return '"' + chunks.join("") + '"';
  }

  private float(x: number): string {
    if (Number.isFinite(x)) return floatRepr(x);
    if (!this.o.allowNan) {
      // With indent, CPython encodes in Python rather than C, and that message names the value.
      const detail = this.o.indent === null ? "" : `: ${floatRepr(x)}`;
      throw pyError("ValueError", `Out of range float values are not JSON compliant${detail}`);
    }
    return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
  }

  /** A dict key as a JSON string's content, or null to skip it (skipkeys). */
  private key(k: Value): string | null {
    if (typeof k === "string") return k;
    if (k instanceof PyFloat) return this.float(k.v);
    if (k === true) return "true";
    if (k === false) return "false";
    if (k === null) return "null";
    if (typeof k === "number" || typeof k === "bigint") return intRepr(k);
    if (this.o.skipKeys) return null;
    throw pyError("TypeError", `keys must be str, int, float, bool or None, not ${typeName(k)}`);
  }

  /** Marks a container (or a value handed to default=) as being encoded. */
  private enter(marker: object, viaDefault = false): void {
    if (this.stack.length >= MAX_DEPTH) {
      // CPython's message depends on which frame hits its recursion limit first.
      const where = viaDefault ? "" : this.o.indent === null ? " while encoding a JSON object" : " while calling a Python object";
      throw pyError("RecursionError", `maximum recursion depth exceeded${where}`);
    }
    if (this.o.checkCircular) {
      if (this.markers.has(marker)) throw pyError("ValueError", "Circular reference detected");
      this.markers.add(marker);
    }
  }

  private leave(marker: object): void {
    this.markers.delete(marker);
    this.stack.pop();
  }

  /** Writes a scalar, or opens a container (pushing a frame), or hands the value to default. */
  private value(v: Value): void {
    this.ctx.budget.step(1);
    if (v === null) return this.emit("null");
    if (v === true) return this.emit("true");
    if (v === false) return this.emit("false");
    if (typeof v === "string") return this.emit(this.string(v));
    if (typeof v === "number" || typeof v === "bigint") return this.emit(intRepr(v));
    if (v instanceof PyFloat) return this.emit(this.float(v.v));
    if (v instanceof PyList || v instanceof PyTuple) {
      if (v.items.length === 0) return this.emit("[]");
      this.enter(v);
      this.stack.push({ kind: "array", container: v, items: v.items, index: 0 });
      this.open("[");
      return;
    }
    if (v instanceof PyDict) {
      if (v.size === 0) return this.emit("{}");
      this.enter(v);
      const entries = [...v.entries()];
      this.ctx.budget.step(entries.length);
      if (this.o.sortKeys) {
        this.ctx.budget.step(entries.length * Math.ceil(Math.log2(entries.length)));
        sortByKey(entries, (a, b) => compare("<", a, b, this.ctx.budget));
      }
      this.stack.push({ kind: "object", container: v, entries, index: 0, first: true });
      this.open("{");
      return;
    }
    // Anything else (sets, bytes, functions...) goes through default=, which may return
    // something serializable; the original stays marked meanwhile, so a default that returns
    // its argument is caught as a cycle.
    this.enter(v, true);
    if (this.o.default === null) throw pyError("TypeError", `Object of type ${v instanceof PyInstance ? v.cls.name : typeName(v)} is not JSON serializable`);
    const replacement = this.ctx.call(this.o.default, [v]);
    this.stack.push({ kind: "default", marker: v });
    this.value(replacement);
  }

  private open(bracket: string): void {
    this.emit(bracket);
    if (this.o.indent !== null) {
      this.level++;
      this.emit(this.newline());
    }
  }

  private close(bracket: string): void {
    if (this.o.indent !== null) {
      this.level--;
      this.emit(this.newline());
    }
    this.emit(bracket);
  }

  private separator(): void {
    this.emit(this.o.itemSeparator);
    if (this.o.indent !== null) this.emit(this.newline());
  }

  /** Moves the top frame on by one item, or closes it. */
  private advance(): void {
    const top = this.stack[this.stack.length - 1]!;
    if (top.kind === "default") return this.leave(top.marker);
    if (top.kind === "array") {
      if (top.index < top.items.length) {
        if (top.index > 0) this.separator();
        this.value(top.items[top.index++]!);
        return;
      }
      this.close("]");
      return this.leave(top.container);
    }
    while (top.index < top.entries.length) {
      const [k, v] = top.entries[top.index++]!;
      const key = this.key(k);
      if (key === null) continue;
      if (!top.first) this.separator();
      top.first = false;
      this.emit(this.string(key));
      this.emit(this.o.keySeparator);
      this.value(v);
      return;
    }
    this.close("}");
    this.leave(top.container);
  }
}

/**
 * Sorts dict entries by key with Python's `<`, comparing in the order CPython's list.sort does
 * for short lists (a run, then binary insertion), so that a key pair that cannot be ordered
 * raises the same TypeError, naming the types in the same order. Longer lists merge-sort.
 */
function sortByKey(entries: [Value, Value][], lt: (a: Value, b: Value) => boolean): void {
  const n = entries.length;
  if (n < 2) return;
  if (n >= 64) {
    const sorted = mergeSort(entries, lt);
    for (let i = 0; i < n; i++) entries[i] = sorted[i]!;
    return;
  }
  let run = 2;
  if (lt(entries[1]![0], entries[0]![0])) {
    while (run < n && lt(entries[run]![0], entries[run - 1]![0])) run++;
    entries.splice(0, run, ...entries.slice(0, run).reverse());
  } else {
    while (run < n && !lt(entries[run]![0], entries[run - 1]![0])) run++;
  }
  for (let start = run; start < n; start++) {
    const pivot = entries[start]!;
    let lo = 0;
    let hi = start;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lt(pivot[0], entries[mid]![0])) hi = mid;
      else lo = mid + 1;
    }
    entries.splice(start, 1);
    entries.splice(lo, 0, pivot);
  }
}

function mergeSort(items: [Value, Value][], lt: (a: Value, b: Value) => boolean): [Value, Value][] {
  if (items.length < 2) return items;
  const mid = items.length >> 1;
  const left = mergeSort(items.slice(0, mid), lt);
  const right = mergeSort(items.slice(mid), lt);
  const out: [Value, Value][] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) out.push(lt(right[j]![0], left[i]![0]) ? right[j++]! : left[i++]!);
  while (i < left.length) out.push(left[i++]!);
  while (j < right.length) out.push(right[j++]!);
  return out;
}

const dumps: NativeFn = (ctx, args, kwargs) => {
  onePositional("dumps", args);
  const opts = options("JSONEncoder", DUMPS_KEYWORDS, kwargs);
  const obj = subject("dumps", "obj", args, opts);
  refuseCls("dumps", opts);
  return waitable(new Encoder(ctx, encoderOptions(ctx, opts)).encode(obj));
};

// ------------------------------------------------------------------ loads

interface DecoderOptions {
  objectHook: Value | null;
  pairsHook: Value | null;
  parseFloat: Value | null;
  parseInt: Value | null;
  parseConstant: Value | null;
  strict: boolean;
}

const LOADS_KEYWORDS = ["s", "cls", "object_hook", "parse_float", "parse_int", "parse_constant", "object_pairs_hook", "strict"] as const;

/** A JSONDecodeError at UTF-16 offset `unit` of `doc`, with CPython's line/column/char (code points). */
function decodeError(msg: string, doc: string, unit: number): PyException {
  const pos = toCpIndex(doc, unit);
  let lineno = 1;
  for (let i = doc.indexOf("\n"); i >= 0 && i < unit; i = doc.indexOf("\n", i + 1)) lineno++;
  const lastNewline = unit > 0 ? doc.lastIndexOf("\n", unit - 1) : -1;
  const colno = lastNewline < 0 ? pos + 1 : pos - toCpIndex(doc, lastNewline);
  const error = new PyException(EXC.JSONDecodeError, [`${msg}: line ${lineno} column ${colno} (char ${pos})`]);
  error.attrs.set("msg", msg);
  error.attrs.set("doc", doc);
  error.attrs.set("pos", pos);
  error.attrs.set("lineno", lineno);
  error.attrs.set("colno", colno);
  return error;
}

type DecodeFrame = { kind: "array"; items: Value[] } | { kind: "object"; pairs: [string, Value][]; key: string };

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** One loads() call over a str, with an explicit stack of open containers. */
class Decoder {
  constructor(
    private readonly ctx: NativeContext,
    private readonly s: string,
    private readonly o: DecoderOptions,
  ) {}

  private fail(msg: string, unit: number): never {
    throw decodeError(msg, this.s, unit);
  }

  private skip(i: number): number {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
      i++;
    }
  }

  decode(): Value {
    const [value, end] = this.document(this.skip(0));
    const rest = this.skip(end);
    if (rest !== this.s.length) this.fail("Extra data", rest);
    return value;
  }

  private document(start: number): [Value, number] {
    const s = this.s;
    const stack: DecodeFrame[] = [];
    let i = start;
    for (;;) {
      // A value starts at i: open a container, or read a scalar.
      let value: Value;
      const c = s.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) {
        if (stack.length >= MAX_DEPTH) {
          const what = c === 0x7b ? "object" : "array";
          throw pyError("RecursionError", `maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`);
        }
        this.ctx.budget.step(1);
        i = this.skip(i + 1);
        if (c === 0x5b) {
          if (s.charCodeAt(i) !== 0x5d) {
            stack.push({ kind: "array", items: [] });
            continue;
          }
          value = new PyList([]);
        } else {
          if (s.charCodeAt(i) !== 0x7d) {
            const [key, next] = this.key(i);
            stack.push({ kind: "object", pairs: [], key });
            i = next;
            continue;
          }
          value = this.object([]);
        }
        i++;
      } else {
        [value, i] = this.scalar(i);
      }
      // Put the value in its container; close every container that ends right after it.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return [value, i];
        if (top.kind === "array") top.items.push(value);
        else top.pairs.push([top.key, value]);
        i = this.skip(i);
        const d = s.charCodeAt(i);
        if (d === (top.kind === "array" ? 0x5d : 0x7d)) {
          value = top.kind === "array" ? new PyList(top.items) : this.object(top.pairs);
          stack.pop();
          i++;
          continue;
        }
        if (d !== 0x2c) this.fail("Expecting ',' delimiter", i);
        i = this.skip(i + 1);
        if (top.kind === "object") [top.key, i] = this.key(i);
        break;
      }
    }
  }

  /** `"key" :` at i; returns the key and where its value starts. */
  private key(i: number): [string, number] {
    if (this.s.charCodeAt(i) !== 0x22) this.fail("Expecting property name enclosed in double quotes", i);
    const [key, end] = this.string(i + 1);
    const colon = this.skip(end);
    if (this.s.charCodeAt(colon) !== 0x3a) this.fail("Expecting ':' delimiter", colon);
    return [key, this.skip(colon + 1)];
  }

  private object(pairs: [string, Value][]): Value {
    if (this.o.pairsHook !== null) {
      return this.ctx.call(this.o.pairsHook, [new PyList(pairs.map(([k, v]) => new PyTuple([k, v])))]);
    }
    // Later duplicates win but keep the first one's place, as in CPython's dict.
    const dict = new PyDict();
    for (const [k, v] of pairs) dict.set(k, v);
    return this.o.objectHook === null ? dict : this.ctx.call(this.o.objectHook, [dict]);
  }

  private constant(name: string, value: number): Value {
    return this.o.parseConstant === null ? new PyFloat(value) : this.ctx.call(this.o.parseConstant, [name]);
  }

  private scalar(i: number): [Value, number] {
    const s = this.s;
    this.ctx.budget.step(1);
    switch (s.charCodeAt(i)) {
      case 0x22:
        return this.string(i + 1);
      case 0x6e:
        if (s.startsWith("null", i)) return [null, i + 4];
        break;
      case 0x74:
        if (s.startsWith("true", i)) return [true, i + 4];
        break;
      case 0x66:
        if (s.startsWith("false", i)) return [false, i + 5];
        break;
      case 0x4e:
        if (s.startsWith("NaN", i)) return [this.constant("NaN", NaN), i + 3];
        break;
      case 0x49:
        if (s.startsWith("Infinity", i)) return [this.constant("Infinity", Infinity), i + 8];
        break;
      case 0x2d:
        if (s.startsWith("-Infinity", i)) return [this.constant("-Infinity", -Infinity), i + 9];
    }
    return this.number(i);
  }

  /** A JSON number at i, matched exactly as CPython's scanner does. */
  private number(start: number): [Value, number] {
    const s = this.s;
    const last = s.length - 1;
    let i = start;
    if (s.charCodeAt(i) === 0x2d) i++;
    const first = s.charCodeAt(i);
    if (first >= 0x31 && first <= 0x39) {
      i++;
      while (isDigit(s.charCodeAt(i))) i++;
    } else if (first === 0x30) i++;
    else this.fail("Expecting value", start);
    let isFloat = false;
    if (i < last && s.charCodeAt(i) === 0x2e && isDigit(s.charCodeAt(i + 1))) {
      isFloat = true;
      i += 2;
      while (isDigit(s.charCodeAt(i))) i++;
    }
    if (i < last && (s.charCodeAt(i) === 0x65 || s.charCodeAt(i) === 0x45)) {
      const e = i;
      i++;
      if (i < last && (s.charCodeAt(i) === 0x2d || s.charCodeAt(i) === 0x2b)) i++;
      while (isDigit(s.charCodeAt(i))) i++;
      if (isDigit(s.charCodeAt(i - 1))) isFloat = true;
      else i = e;
    }
    const text = s.slice(start, i);
    if (isFloat) return [this.o.parseFloat === null ? new PyFloat(Number(text)) : this.ctx.call(this.o.parseFloat, [text]), i];
    if (this.o.parseInt !== null) return [this.ctx.call(this.o.parseInt, [text]), i];
    const digits = text.length - (text.charCodeAt(0) === 0x2d ? 1 : 0);
    if (digits > MAX_STR_DIGITS) throw digitLimitError(digits);
    if (digits > 15) this.ctx.budget.step(decimalSteps(digits * Math.log2(10)));
    return [digits <= 15 ? Number(text) + 0 : normInt(BigInt(text)), i];
  }

  /** A string whose opening quote is just before `start`; returns it and the offset after it. */
  private string(start: number): [string, number] {
    const s = this.s;
    const n = s.length;
    const begin = start - 1;
    const pieces: string[] = [];
    let i = start;
    for (;;) {
      let j = i;
      let c = 0;
      for (; j < n; j++) {
        c = s.charCodeAt(j);
        if (c === 0x22 || c === 0x5c) break;
        if (c < 0x20 && this.o.strict) this.fail("Invalid control character at", j);
      }
      if (j >= n) this.fail("Unterminated string starting at", begin);
      if (j > i) pieces.push(s.slice(i, j));
      if (c === 0x22) {
        return [pieces.length === 1 ? pieces[0]! : pieces.join(""), j + 1];
      }
      // A backslash at j.
      j++;
      if (j >= n) this.fail("Unterminated string starting at", begin);
      const e = s[j]!;
      if (e !== "u") {
        const simple = SIMPLE_ESCAPES[e];
        if (simple === undefined) this.fail("Invalid \\escape", j - 1);
        pieces.push(simple);
        i = j + 1;
        continue;
      }
      const end = j + 5;
      if (end >= n) this.fail("Invalid \\uXXXX escape", j);
      const code = this.hex4(j + 1);
      // A high surrogate followed by an escaped low one is one astral character; any other
      // surrogate stays a lone surrogate, as in CPython.
      if (code >= 0xd800 && code <= 0xdbff && end + 6 < n && s.charCodeAt(end) === 0x5c && s.charCodeAt(end + 1) === 0x75) {
        const low = this.hex4(end + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          pieces.push(String.fromCharCode(code, low));
          i = end + 6;
          continue;
        }
      }
      pieces.push(String.fromCharCode(code));
      i = end;
    }
  }

  /** Four hex digits at i (just after a `\u`); the error points at the `u`. */
  private hex4(i: number): number {
    const text = this.s.slice(i, i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(text)) this.fail("Invalid \\uXXXX escape", i - 1);
    return parseInt(text, 16);
  }
}

// ------------------------------------------------------------------ bytes input

/** CPython's json.detect_encoding: a BOM, else the pattern of zero bytes in the first four. */
function detectEncoding(b: Uint8Array): string {
  const starts = (...prefix: number[]) => prefix.every((x, i) => b[i] === x);
  if (starts(0x00, 0x00, 0xfe, 0xff) || starts(0xff, 0xfe, 0x00, 0x00)) return "utf-32";
  if (starts(0xfe, 0xff) || starts(0xff, 0xfe)) return "utf-16";
  if (starts(0xef, 0xbb, 0xbf)) return "utf-8-sig";
  if (b.length >= 4) {
    if (!b[0]) return b[1] ? "utf-16-be" : "utf-32-be";
    if (!b[1]) return b[2] || b[3] ? "utf-16-le" : "utf-32-le";
  } else if (b.length === 2) {
    if (!b[0]) return "utf-16-be";
    if (!b[1]) return "utf-16-le";
  }
  return "utf-8";
}

function decodeFailure(codec: string, b: Uint8Array, start: number, end: number, reason: string): PyException {
  const where =
    end - start === 1
      ? `byte 0x${b[start]!.toString(16).padStart(2, "0")} in position ${start}`
      : `bytes in position ${start}-${end - 1}`;
  return pyError("UnicodeDecodeError", `'${codec}' codec can't decode ${where}: ${reason}`);
}

/**
 * UTF-8 with the 'surrogatepass' error handler (encoded surrogates are accepted), raising
 * CPython's UnicodeDecodeError for the first malformed sequence.
 */
function decodeUtf8(b: Uint8Array): string {
  const units: number[] = [];
  const out: string[] = [];
  const flush = () => {
    out.push(String.fromCharCode(...units));
    units.length = 0;
  };
  const isCont = (x: number | undefined) => x !== undefined && x >= 0x80 && x <= 0xbf;
  for (let i = 0; i < b.length; ) {
    const lead = b[i]!;
    if (lead < 0x80) {
      units.push(lead);
      i++;
    } else {
      let need: number;
      let lo = 0x80;
      let hi = 0xbf;
      if (lead >= 0xc2 && lead <= 0xdf) need = 1;
      else if (lead >= 0xe0 && lead <= 0xef) {
        need = 2;
        if (lead === 0xe0) lo = 0xa0;
        // 0xED 0xA0-0xBF encodes a surrogate: invalid UTF-8, but surrogatepass accepts it.
        if (lead === 0xed && !(b[i + 1]! >= 0xa0 && isCont(b[i + 1]) && isCont(b[i + 2]))) hi = 0x9f;
      } else if (lead >= 0xf0 && lead <= 0xf4) {
        need = 3;
        if (lead === 0xf0) lo = 0x90;
        if (lead === 0xf4) hi = 0x8f;
      } else throw decodeFailure("utf-8", b, i, i + 1, "invalid start byte");
      let code = lead & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
      for (let k = 1; k <= need; k++) {
        const x = b[i + k];
        if (x === undefined) throw decodeFailure("utf-8", b, i, b.length, "unexpected end of data");
        const ok = k === 1 ? x >= lo && x <= hi : isCont(x);
        if (!ok) throw decodeFailure("utf-8", b, i, i + k, "invalid continuation byte");
        code = (code << 6) | (x & 0x3f);
      }
      if (code > 0xffff) {
        code -= 0x10000;
        units.push(0xd800 + (code >> 10), 0xdc00 + (code & 0x3ff));
      } else units.push(code);
      i += need + 1;
    }
    if (units.length >= 8192) flush();
  }
  flush();
  return out.join("");
}

function decodeUtf16(b: Uint8Array, bigEndian: boolean, from: number, codec: string): string {
  const chars: string[] = [];
  let i = from;
  for (; i + 1 < b.length; i += 2) chars.push(String.fromCharCode(bigEndian ? (b[i]! << 8) | b[i + 1]! : b[i]! | (b[i + 1]! << 8)));
  if (i < b.length) throw decodeFailure(codec, b, i, b.length, "truncated data");
  return chars.join("");
}

function decodeUtf32(b: Uint8Array, bigEndian: boolean, from: number, codec: string): string {
  const chars: string[] = [];
  let i = from;
  for (; i + 3 < b.length; i += 4) {
    const code = bigEndian
      ? ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0
      : (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
    if (code > 0x10ffff) throw decodeFailure(codec, b, i, i + 4, "code point not in range(0x110000)");
    chars.push(String.fromCodePoint(code));
  }
  if (i < b.length) throw decodeFailure(codec, b, i, b.length, "truncated data");
  return chars.join("");
}

function decodeBytes(ctx: NativeContext, b: Uint8Array): string {
  ctx.budget.step(Math.floor(b.length / CHARS_PER_STEP));
  switch (detectEncoding(b)) {
    case "utf-8-sig":
      return decodeUtf8(b.subarray(3));
    case "utf-16": {
      const bigEndian = b[0] === 0xfe;
      return decodeUtf16(b, bigEndian, 2, bigEndian ? "utf-16-be" : "utf-16-le");
    }
    case "utf-16-be":
      return decodeUtf16(b, true, 0, "utf-16-be");
    case "utf-16-le":
      return decodeUtf16(b, false, 0, "utf-16-le");
    case "utf-32": {
      const bigEndian = b[0] === 0x00;
      return decodeUtf32(b, bigEndian, 4, bigEndian ? "utf-32-be" : "utf-32-le");
    }
    case "utf-32-be":
      return decodeUtf32(b, true, 0, "utf-32-be");
    case "utf-32-le":
      return decodeUtf32(b, false, 0, "utf-32-le");
    default:
      return decodeUtf8(b);
  }
}

/**
 * The hint of a json.loads() given a dict or a list. Models bring `json.loads(result)` from
 * classic MCP, where a tool's result is text; here it arrives parsed.
 */
export const ALREADY_PARSED_NOTE =
  "json.loads() was given a dict or list, not a str, and returned it unchanged: tool results arrive already parsed (dicts, lists, str), so they need no json.loads().";

const loads: NativeFn = (ctx, args, kwargs) => {
  onePositional("loads", args);
  const opts = options("JSONDecoder", LOADS_KEYWORDS, kwargs);
  const source = subject("loads", "s", args, opts);
  // A deliberate difference from CPython (a TypeError there): the value itself, and a hint.
  if (source instanceof PyDict || source instanceof PyList) {
    refuseCls("loads", opts);
    ctx.note(ALREADY_PARSED_NOTE);
    return source;
  }
  let text: string;
  if (typeof source === "string") {
    if (source.startsWith("\ufeff")) throw decodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", source, 0);
    text = source;
  } else if (source instanceof PyBytes) {
    text = decodeBytes(ctx, source.bytes);
  } else {
    throw pyError("TypeError", `the JSON object must be str, bytes or bytearray, not ${typeName(source)}`);
  }
  refuseCls("loads", opts);
  ctx.budget.step(Math.floor(text.length / CHARS_PER_STEP));
  const hook = (name: string) => opts.get(name) ?? null;
  const strict = opts.get("strict");
  return new Decoder(ctx, text, {
    objectHook: hook("object_hook"),
    pairsHook: hook("object_pairs_hook"),
    parseFloat: hook("parse_float"),
    parseInt: hook("parse_int"),
    parseConstant: hook("parse_constant"),
    strict: strict === undefined ? true : truthy(strict),
  }).decode();
};

export const JSON_MODULE: Record<string, NativeFn | Value> = {
  dumps,
  loads,
  JSONDecodeError: EXC.JSONDecodeError,
};
