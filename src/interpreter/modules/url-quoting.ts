// urllib.parse's percent-encoding and query strings (quote, unquote and their kin, urlencode,
// parse_qs, parse_qsl), and what urllib-parse.ts shares with them: reading str and bytes
// arguments as CPython's _coerce_args does, and charging for the text scanned and the pieces
// made. Percent-encoding writes bytes and reads them as Latin-1 at the end.
import { pyError } from "../errors.js";
import { lookupMethod } from "../methods/index.js";
import { bind, type Kwargs, type NativeContext, type NativeFn, repr, str } from "../native.js";
import { PyBuiltin } from "../objects.js";
import { getItem, length } from "../ops.js";
import { entrySize, storedSize } from "../sizes.js";
import { PyBytes, PyDict, PyList, PyTuple, truthy, typeName, type Value } from "../values.js";

// ------------------------------------------------------------------ str and bytes arguments

/**
 * CPython's _coerce_args: every argument as str, and whether the results go back to bytes (the
 * first argument was not a str). An empty argument of the other kind is allowed (`scheme=''`).
 */
export function coerce(args: Value[]): { texts: string[]; bytes: boolean } {
  const strInput = typeof args[0] === "string";
  for (const a of args.slice(1)) if (truthy(a) && (typeof a === "string") !== strInput) throw pyError("TypeError", "Cannot mix str and non-str arguments");
  // A falsy argument of another type (None) reads as '' (CPython would fail later, on its use).
  if (strInput) return { texts: args.map((a) => (typeof a === "string" ? a : "")), bytes: false };
  return { texts: args.map(asciiDecode), bytes: true };
}

/** `x.decode('ascii') if x else ''`. */
export function asciiDecode(v: Value): string {
  if (!truthy(v)) return "";
  if (!(v instanceof PyBytes)) throw pyError("AttributeError", `'${typeName(v)}' object has no attribute 'decode'`);
  let out = "";
  v.bytes.forEach((b, i) => {
    if (b > 127) throw pyError("UnicodeDecodeError", `'ascii' codec can't decode byte 0x${b.toString(16)} in position ${i}: ordinal not in range(128)`);
    out += String.fromCharCode(b);
  });
  return out;
}

export function asciiEncode(ctx: NativeContext, s: string): PyBytes {
  return lookupMethod(s, "encode")!(ctx, s, ["ascii", "strict"], null) as PyBytes;
}

/** A str result, or its bytes form when the arguments were bytes. */
export function result(ctx: NativeContext, s: string, bytes: boolean): Value {
  return bytes ? asciiEncode(ctx, s) : s;
}

export function scan(ctx: NativeContext, s: string): void {
  ctx.budget.step(1 + (s.length >> 3));
}

/** The steps of a query field parsed or built, and of a path segment resolved. */
export const PER_FIELD = 16;
export const PER_SEGMENT = 16;

/**
 * `s.split(sep)`, `weight` steps a piece charged as the pieces are counted, before they are made
 * (a million pieces would hold the event loop for a long while).
 */
export function splitCharged(ctx: NativeContext, s: string, sep: string, weight: number): string[] {
  let pending = 0;
  for (let at = s.indexOf(sep); at >= 0; at = s.indexOf(sep, at + sep.length)) {
    if (++pending === 1024) {
      ctx.budget.step(pending * weight);
      pending = 0;
    }
  }
  ctx.budget.step((pending + 1) * weight);
  return s.split(sep);
}

// ------------------------------------------------------------------ percent-encoding

const ALWAYS_SAFE = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~") ALWAYS_SAFE[c.charCodeAt(0)] = 1;
const HEX = Uint8Array.from("0123456789ABCDEF", (c) => c.charCodeAt(0));

/** The bytes a `safe=` argument adds to the always-safe set (ASCII only, as CPython keeps). */
/** The last str `safe=` seen and its set: a loop quoting with one `safe` makes it once. */
let lastSafe: string | null = null;
let lastSet = ALWAYS_SAFE;

function safeSet(ctx: NativeContext, safe: Value): Uint8Array {
  if (typeof safe === "string" && safe === lastSafe) return lastSet;
  const set = ALWAYS_SAFE.slice();
  if (typeof safe === "string") {
    scan(ctx, safe);
    for (let i = 0; i < safe.length; i++) if (safe.charCodeAt(i) < 128) set[safe.charCodeAt(i)] = 1;
    lastSafe = safe;
    lastSet = set;
  } else if (safe instanceof PyBytes) {
    for (const b of safe.bytes) if (b < 128) set[b] = 1;
  } else {
    for (const b of ctx.toList(safe)) {
      if (typeof b !== "number") throw pyError("TypeError", `'<' not supported between instances of '${typeName(b)}' and 'int'`);
      if (b >= 0 && b < 128) set[b] = 1;
    }
  }
  return set;
}

/** Percent-encoding writes bytes, read as Latin-1 text at the end: joining strings is ten times slower. */
class Escaper {
  private out: Uint8Array;
  private n = 0;

  constructor(
    ctx: NativeContext,
    capacity: number,
    private readonly set: Uint8Array,
  ) {
    ctx.budget.checkSize(2 * capacity);
    this.out = new Uint8Array(capacity);
  }

  byte(b: number): void {
    if (b < 128 && this.set[b]) this.out[this.n++] = b;
    else {
      this.out[this.n++] = 37;
      this.out[this.n++] = HEX[b >> 4]!;
      this.out[this.n++] = HEX[b & 15]!;
    }
  }

  text(): string {
    // A Buffer costs more than it saves on short text.
    if (this.n <= 256) return String.fromCharCode.apply(null, this.out.subarray(0, this.n) as unknown as number[]);
    return Buffer.from(this.out.buffer, 0, this.n).toString("latin1");
  }
}

function quoteBytes(ctx: NativeContext, bytes: Uint8Array, safe: Value): string {
  if (bytes.length === 0) return "";
  const set = safeSet(ctx, safe);
  ctx.budget.step(1 + bytes.length);
  const out = new Escaper(ctx, 3 * bytes.length, set);
  for (let i = 0; i < bytes.length; i++) out.byte(bytes[i]!);
  return out.text();
}

/** quote() of a str in UTF-8, strict: straight from its code units; null at a lone surrogate. */
function quoteUtf8(ctx: NativeContext, s: string, safe: Value): string | null {
  const set = safeSet(ctx, safe);
  ctx.budget.step(1 + s.length);
  const out = new Escaper(ctx, 9 * s.length, set);
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) out.byte(c);
    else if (c < 0x800) {
      out.byte(0xc0 | (c >> 6));
      out.byte(0x80 | (c & 0x3f));
    } else if (c < 0xd800 || c > 0xdfff) {
      out.byte(0xe0 | (c >> 12));
      out.byte(0x80 | ((c >> 6) & 0x3f));
      out.byte(0x80 | (c & 0x3f));
    } else {
      const low = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return null;
      c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      i++;
      out.byte(0xf0 | (c >> 18));
      out.byte(0x80 | ((c >> 12) & 0x3f));
      out.byte(0x80 | ((c >> 6) & 0x3f));
      out.byte(0x80 | (c & 0x3f));
    }
  }
  return out.text();
}

function encodeText(ctx: NativeContext, s: string, encoding: Value | undefined, errors: Value | undefined): Uint8Array {
  const args: Value[] = [encoding === undefined || encoding === null ? "utf-8" : encoding, errors === undefined || errors === null ? "strict" : errors];
  return (lookupMethod(s, "encode")!(ctx, s, args, null) as PyBytes).bytes;
}

const isDefault = (v: Value | undefined, name: string) => v === undefined || v === null || v === name;

function quoteValue(ctx: NativeContext, string: Value, safe: Value, encoding: Value | undefined, errors: Value | undefined): string {
  if (typeof string === "string") {
    if (string === "") return string;
    if (isDefault(encoding, "utf-8") && isDefault(errors, "strict")) {
      const quoted = quoteUtf8(ctx, string, safe);
      if (quoted !== null) return quoted;
    }
    return quoteBytes(ctx, encodeText(ctx, string, encoding, errors), safe);
  }
  if (encoding !== undefined && encoding !== null) throw pyError("TypeError", "quote() doesn't support 'encoding' for bytes");
  if (errors !== undefined && errors !== null) throw pyError("TypeError", "quote() doesn't support 'errors' for bytes");
  if (!(string instanceof PyBytes)) throw pyError("TypeError", "quote_from_bytes() expected bytes");
  return quoteBytes(ctx, string.bytes, safe);
}

function quotePlusValue(ctx: NativeContext, string: Value, safe: Value, encoding: Value | undefined, errors: Value | undefined): string {
  const hasSpace = typeof string === "string" ? string.includes(" ") : string instanceof PyBytes ? string.bytes.includes(0x20) : true;
  if (!hasSpace) return quoteValue(ctx, string, safe, encoding, errors);
  let withSpace: Value;
  if (typeof safe === "string") withSpace = safe + " ";
  else if (safe instanceof PyBytes) withSpace = new PyBytes(Uint8Array.from([...safe.bytes, 0x20]));
  else throw pyError("TypeError", `unsupported operand type(s) for +: '${typeName(safe)}' and 'bytes'`);
  return quoteValue(ctx, string, withSpace, encoding, errors).replace(/ /g, "+");
}

const QUOTE = { names: ["string", "safe", "encoding", "errors"], required: 1 };

export const quote: NativeFn = (ctx, args, kwargs) => {
  const [string, safe, encoding, errors] = bind("quote", QUOTE, args, kwargs);
  return quoteValue(ctx, string!, safe === undefined ? "/" : safe, encoding, errors);
};

export const quotePlus: NativeFn = (ctx, args, kwargs) => {
  const [string, safe, encoding, errors] = bind("quote_plus", QUOTE, args, kwargs);
  return quotePlusValue(ctx, string!, safe === undefined ? "" : safe, encoding, errors);
};

export const quoteFromBytes: NativeFn = (ctx, args, kwargs) => {
  const [bs, safe] = bind("quote_from_bytes", { names: ["bs", "safe"], required: 1 }, args, kwargs);
  if (!(bs instanceof PyBytes)) throw pyError("TypeError", "quote_from_bytes() expected bytes");
  return quoteBytes(ctx, bs.bytes, safe === undefined ? "/" : safe);
};

const hexValue = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);

/** `%xx` escapes of ASCII text as bytes; a `%` not followed by two hex digits stays as it is. */
function percentDecode(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 && i + 2 < s.length) {
      const hi = hexValue(s.charCodeAt(i + 1));
      const lo = hexValue(s.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        out[n++] = hi * 16 + lo;
        i += 2;
        continue;
      }
    }
    out[n++] = c;
  }
  return out.subarray(0, n);
}

// UTF-8 with replacement characters. Made on first use: a TextDecoder made at import cannot be
// kept in code-mode-exec's start-up snapshot (src/cli/exec-snapshot.ts).
let utf8Replacing: InstanceType<typeof TextDecoder> | undefined;

function decodeBytes(ctx: NativeContext, bytes: Uint8Array, encoding: Value, errors: Value): string {
  const codec = typeof encoding === "string" ? encoding.toLowerCase().replace(/[-_]/g, "") : "";
  if ((codec === "utf8" || codec === "u8") && errors === "replace") return (utf8Replacing ??= new TextDecoder("utf-8")).decode(bytes);
  return lookupMethod(new PyBytes(bytes), "decode")!(ctx, new PyBytes(bytes), [encoding, errors], null) as string;
}

function unquoteText(ctx: NativeContext, string: Value, encoding: Value, errors: Value): Value {
  if (string instanceof PyBytes) return decodeBytes(ctx, unquoteBytes(ctx, string), encoding ?? "utf-8", errors ?? "replace");
  if (typeof string !== "string") {
    if (string === null || typeof string !== "object" || !(string instanceof PyList || string instanceof PyTuple || string instanceof PyDict)) {
      throw pyError("TypeError", `argument of type '${typeName(string)}' is not iterable`);
    }
    throw pyError("AttributeError", `'${typeName(string)}' object has no attribute 'split'`);
  }
  if (!string.includes("%")) return string;
  ctx.budget.step(1 + 2 * string.length);
  ctx.budget.checkSize(4 * string.length);
  // Only ASCII runs are unescaped; other characters stay as they are.
  const codec = encoding === null ? "utf-8" : encoding;
  const handler = errors === null ? "replace" : errors;
  return string.replace(/[\x00-\x7f]+/g, (run) => (run.includes("%") ? decodeBytes(ctx, percentDecode(run), codec, handler) : run));
}

function unquoteBytes(ctx: NativeContext, v: Value): Uint8Array {
  let s: string;
  if (typeof v === "string") {
    if (v === "") return new Uint8Array(0);
    s = Buffer.from(encodeText(ctx, v, "utf-8", "strict")).toString("latin1");
  } else if (v instanceof PyBytes) s = Buffer.from(v.bytes).toString("latin1");
  else throw pyError("AttributeError", `'${typeName(v)}' object has no attribute 'split'`);
  ctx.budget.step(1 + s.length);
  return percentDecode(s);
}

const UNQUOTE = { names: ["string", "encoding", "errors"], required: 1 };

export const unquote: NativeFn = (ctx, args, kwargs) => {
  const [string, encoding, errors] = bind("unquote", UNQUOTE, args, kwargs);
  return unquoteText(ctx, string!, encoding ?? null, errors ?? null);
};

export const unquotePlus: NativeFn = (ctx, args, kwargs) => {
  const [string, encoding, errors] = bind("unquote_plus", UNQUOTE, args, kwargs);
  if (string instanceof PyBytes) throw pyError("TypeError", "a bytes-like object is required, not 'str'");
  if (typeof string !== "string") throw pyError("AttributeError", `'${typeName(string!)}' object has no attribute 'replace'`);
  scan(ctx, string);
  return unquoteText(ctx, string.replace(/\+/g, " "), encoding ?? null, errors ?? null);
};

export const unquoteToBytes: NativeFn = (ctx, args, kwargs) => {
  const [string] = bind("unquote_to_bytes", { names: ["string"], required: 1 }, args, kwargs);
  const bytes = unquoteBytes(ctx, string!);
  ctx.budget.checkSize(bytes.length);
  return new PyBytes(bytes.slice());
};

// ------------------------------------------------------------------ query strings

const PARSE_QS = { names: ["qs", "keep_blank_values", "strict_parsing", "encoding", "errors", "max_num_fields", "separator"], required: 1 };

function parsePairs(ctx: NativeContext, fn: string, args: Value[], kwargs: Kwargs | null): [Value, Value][] {
  const [qs, keepBlank, strict, encoding, errors, maxFields, separatorArg] = bind(fn, PARSE_QS, args, kwargs);
  const { texts, bytes } = coerce([qs!]);
  const q = texts[0]!;
  const separator = separatorArg === undefined ? "&" : coerce([separatorArg]).texts[0]!;
  if (!separator) throw pyError("ValueError", "Separator must be of type string or bytes.");
  scan(ctx, q);
  const keep = keepBlank !== undefined && truthy(keepBlank);
  const strictParsing = strict !== undefined && truthy(strict);
  // Each field becomes two strings and a pair, unquoted: about 0.3 µs of work.
  const fields = q ? splitCharged(ctx, q, separator, PER_FIELD) : [];
  if (maxFields !== undefined && maxFields !== null) {
    const most = typeof maxFields === "boolean" ? Number(maxFields) : maxFields;
    if (typeof most !== "number" && typeof most !== "bigint") throw pyError("TypeError", `'<' not supported between instances of '${typeName(most)}' and 'int'`);
    if (most < fields.length) throw pyError("ValueError", "Max number of fields exceeded");
  }
  const pairs: [Value, Value][] = [];
  const decode = (s: string): Value => result(ctx, unquoteText(ctx, s.replace(/\+/g, " "), encoding ?? null, errors ?? null) as string, bytes);
  for (const field of fields) {
    if (!field && !strictParsing) continue;
    const eq = field.indexOf("=");
    let name: string;
    let value: string;
    if (eq < 0) {
      if (strictParsing) throw pyError("ValueError", `bad query field: ${repr(field)}`);
      if (!keep) continue;
      name = field;
      value = "";
    } else {
      name = field.slice(0, eq);
      value = field.slice(eq + 1);
    }
    if (value.length || keep) pairs.push([decode(name), decode(value)]);
  }
  return pairs;
}

export const parseQsl: NativeFn = (ctx, args, kwargs) => {
  const pairs = parsePairs(ctx, "parse_qsl", args, kwargs);
  const out = pairs.map(([k, v]) => new PyTuple([k, v]));
  for (const t of out) ctx.budget.alloc(storedSize(t));
  return new PyList(out);
};

export const parseQs: NativeFn = (ctx, args, kwargs) => {
  const d = new PyDict();
  for (const [k, v] of parsePairs(ctx, "parse_qs", args, kwargs)) {
    const list = d.get(k);
    if (list instanceof PyList) {
      ctx.budget.alloc(storedSize(v));
      list.items.push(v);
    } else {
      const fresh = new PyList([v]);
      ctx.budget.alloc(entrySize(k, fresh) + storedSize(v));
      d.set(k, fresh);
    }
  }
  return d;
};

const URLENCODE = { names: ["query", "doseq", "safe", "encoding", "errors", "quote_via"], required: 1 };

export const urlencode: NativeFn = (ctx, args, kwargs) => {
  const [query, doseq, safeArg, encoding, errors, quoteVia] = bind("urlencode", URLENCODE, args, kwargs);
  let pairs: Value[];
  if (query instanceof PyDict) pairs = [...query.entries()].map(([k, v]) => new PyTuple([k, v]));
  else {
    let valid: boolean;
    try {
      valid = length(query!) === 0 || getItem(query!, 0, ctx.budget) instanceof PyTuple;
    } catch {
      valid = false;
    }
    if (!valid) throw pyError("TypeError", "not a valid non-string sequence or mapping object");
    pairs = ctx.toList(query!);
  }
  const safe = safeArg === undefined ? "" : safeArg;
  const via = quoteVia;
  const builtin = via === undefined ? quotePlus : via instanceof PyBuiltin ? via.fn : null;
  const quoteOne = (v: Value): string => {
    if (builtin === quotePlus || builtin === quote) {
      const q = builtin === quotePlus ? quotePlusValue : quoteValue;
      return v instanceof PyBytes ? q(ctx, v, safe, undefined, undefined) : q(ctx, str(v), safe, encoding, errors);
    }
    const r = v instanceof PyBytes ? ctx.call(via!, [v, safe]) : ctx.call(via!, [str(v), safe, encoding ?? null, errors ?? null]);
    if (typeof r !== "string") throw pyError("TypeError", `can only concatenate str (not "${typeName(r)}") to str`);
    return r;
  };
  const out: string[] = [];
  let size = 0;
  const add = (k: string, v: string) => {
    ctx.budget.step(2 * PER_FIELD);
    size += k.length + v.length + 2;
    ctx.budget.checkSize(2 * size);
    out.push(`${k}=${v}`);
  };
  for (const pair of pairs) {
    const items = ctx.toList(pair);
    if (items.length !== 2) throw pyError("ValueError", items.length < 2 ? `not enough values to unpack (expected 2, got ${items.length})` : "too many values to unpack (expected 2)");
    const k = quoteOne(items[0]!);
    const v = items[1]!;
    if (doseq === undefined || !truthy(doseq) || typeof v === "string" || v instanceof PyBytes) add(k, quoteOne(v));
    else {
      let elements: Value[] | null;
      try {
        length(v);
        elements = ctx.toList(v);
      } catch {
        elements = null;
      }
      if (elements === null) add(k, quoteOne(v));
      else for (const e of elements) add(k, quoteOne(e));
    }
  }
  return out.join("&");
};
