// urllib.parse of CPython 3.11: splitting and joining URLs, percent-encoding, query strings.
//
// The algorithms are CPython's own, step for step (their quirks are what scripts and the
// servers they talk to expect): urlsplit strips leading C0 controls and spaces and removes tabs
// and newlines, takes a scheme only when it starts with a letter and has scheme characters
// only, and checks bracketed hosts as ipaddress would; urljoin resolves dot segments as RFC 3986
// does, for the schemes in `uses_relative`. bytes arguments work where CPython's do (ASCII,
// bytes results). Each function charges a step per 8 characters it scans, and per character it
// percent-encodes or decodes; results are charged to the memory budget as they are made.
import { pyError } from "../errors.js";
import { lookupMethod } from "../methods/index.js";
import { NamedTuple, NamedTupleClass } from "../named-tuple.js";
import { bind, type Kwargs, type NativeContext, type NativeFn, repr, str } from "../native.js";
import { PyBuiltin } from "../objects.js";
import { getItem, length } from "../ops.js";
import { entrySize, storedSize } from "../sizes.js";
import { PyBytes, PyDict, PyList, PyTuple, truthy, typeName, type Value } from "../values.js";

const MODULE = "urllib.parse";

export const USES_RELATIVE = ["", "ftp", "http", "gopher", "nntp", "imap", "wais", "file", "https", "shttp", "mms", "prospero", "rtsp", "rtsps", "rtspu", "sftp", "svn", "svn+ssh", "ws", "wss"];
export const USES_NETLOC = ["", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https", "shttp", "snews", "prospero", "rtsp", "rtsps", "rtspu", "rsync", "svn", "svn+ssh", "sftp", "nfs", "git", "git+ssh", "ws", "wss"];
export const USES_PARAMS = ["", "ftp", "hdl", "prospero", "http", "imap", "https", "shttp", "rtsp", "rtsps", "rtspu", "sip", "sips", "mms", "sftp", "tel"];
const SCHEME_CHARS = /^[A-Za-z0-9+\-.]*$/;

// ------------------------------------------------------------------ str and bytes arguments

/**
 * CPython's _coerce_args: every argument as str, and whether the results go back to bytes (the
 * first argument was not a str). An empty argument of the other kind is allowed (`scheme=''`).
 */
function coerce(args: Value[]): { texts: string[]; bytes: boolean } {
  const strInput = typeof args[0] === "string";
  for (const a of args.slice(1)) if (truthy(a) && (typeof a === "string") !== strInput) throw pyError("TypeError", "Cannot mix str and non-str arguments");
  // A falsy argument of another type (None) reads as '' (CPython would fail later, on its use).
  if (strInput) return { texts: args.map((a) => (typeof a === "string" ? a : "")), bytes: false };
  return { texts: args.map(asciiDecode), bytes: true };
}

/** `x.decode('ascii') if x else ''`. */
function asciiDecode(v: Value): string {
  if (!truthy(v)) return "";
  if (!(v instanceof PyBytes)) throw pyError("AttributeError", `'${typeName(v)}' object has no attribute 'decode'`);
  let out = "";
  v.bytes.forEach((b, i) => {
    if (b > 127) throw pyError("UnicodeDecodeError", `'ascii' codec can't decode byte 0x${b.toString(16)} in position ${i}: ordinal not in range(128)`);
    out += String.fromCharCode(b);
  });
  return out;
}

function asciiEncode(ctx: NativeContext, s: string): PyBytes {
  return lookupMethod(s, "encode")!(ctx, s, ["ascii", "strict"], null) as PyBytes;
}

/** A str result, or its bytes form when the arguments were bytes. */
function result(ctx: NativeContext, s: string, bytes: boolean): Value {
  return bytes ? asciiEncode(ctx, s) : s;
}

function scan(ctx: NativeContext, s: string): void {
  ctx.budget.step(1 + (s.length >> 3));
}

/** The steps of a query field parsed or built, and of a path segment resolved. */
const PER_FIELD = 16;
const PER_SEGMENT = 16;

/**
 * `s.split(sep)`, `weight` steps a piece charged as the pieces are counted, before they are made
 * (a million pieces would hold the event loop for a long while).
 */
function splitCharged(ctx: NativeContext, s: string, sep: string, weight: number): string[] {
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

// ------------------------------------------------------------------ result types

function resultClass(name: string, fields: string[], geturl: (ctx: NativeContext, t: NamedTuple) => Value, netloc: boolean): NamedTupleClass {
  const cls = new NamedTupleClass(name, MODULE, fields);
  cls.methods.set("geturl", (ctx, self: NamedTuple, args, kwargs) => {
    bind(`${name}.geturl`, { names: [], required: 0 }, args, kwargs);
    return geturl(ctx, self);
  });
  if (netloc) {
    cls.properties.set("username", (t) => userinfo(t)[0]);
    cls.properties.set("password", (t) => userinfo(t)[1]);
    cls.properties.set("hostname", hostname);
    cls.properties.set("port", port);
  }
  return cls;
}

const isBytesResult = (t: NamedTuple) => t.items[0] instanceof PyBytes;
const text = (v: Value): string => (typeof v === "string" ? v : v instanceof PyBytes ? Buffer.from(v.bytes).toString("latin1") : "");
const back = (t: NamedTuple, s: string | null): Value => (s === null ? null : isBytesResult(t) ? new PyBytes(Uint8Array.from(s, (c) => c.charCodeAt(0))) : s);

function netlocOf(t: NamedTuple): string {
  return text(t.items[1]!);
}

function userinfo(t: NamedTuple): [Value, Value] {
  const netloc = netlocOf(t);
  const at = netloc.lastIndexOf("@");
  if (at < 0) return [null, null];
  const info = netloc.slice(0, at);
  const colon = info.indexOf(":");
  return colon < 0 ? [back(t, info), null] : [back(t, info.slice(0, colon)), back(t, info.slice(colon + 1))];
}

function hostinfo(t: NamedTuple): [string, string | null] {
  const netloc = netlocOf(t);
  const info = netloc.slice(netloc.lastIndexOf("@") + 1);
  let host: string;
  let portText: string;
  const open = info.indexOf("[");
  if (open >= 0) {
    const bracketed = info.slice(open + 1);
    const close = bracketed.indexOf("]");
    host = close < 0 ? bracketed : bracketed.slice(0, close);
    const rest = close < 0 ? "" : bracketed.slice(close + 1);
    const colon = rest.indexOf(":");
    portText = colon < 0 ? "" : rest.slice(colon + 1);
  } else {
    const colon = info.indexOf(":");
    host = colon < 0 ? info : info.slice(0, colon);
    portText = colon < 0 ? "" : info.slice(colon + 1);
  }
  return [host, portText === "" ? null : portText];
}

function hostname(t: NamedTuple): Value {
  const [host] = hostinfo(t);
  if (host === "") return null;
  // A scoped IPv6 address keeps its zone's case: http://[fe80::1%tESt]/.
  const percent = host.indexOf("%");
  return back(t, percent < 0 ? host.toLowerCase() : host.slice(0, percent).toLowerCase() + host.slice(percent));
}

function port(t: NamedTuple): Value {
  const [, p] = hostinfo(t);
  if (p === null) return null;
  if (!/^[0-9]+$/.test(p)) throw pyError("ValueError", `Port could not be cast to integer value as ${repr(back(t, p))}`);
  const digits = p.replace(/^0+(?=.)/, "");
  if (digits.length > 5 || Number(digits) > 65535) throw pyError("ValueError", "Port out of range 0-65535");
  return Number(digits);
}

const SPLIT_FIELDS = ["scheme", "netloc", "path", "query", "fragment"];
const PARSE_FIELDS = ["scheme", "netloc", "path", "params", "query", "fragment"];
const unsplitOf = (ctx: NativeContext, t: NamedTuple) => urlunsplitItems(ctx, [...t.items]);
const unparseOf = (ctx: NativeContext, t: NamedTuple) => urlunparseItems(ctx, [...t.items]);
function defragUrl(ctx: NativeContext, t: NamedTuple): Value {
  const [url, fragment] = t.items as [Value, Value];
  if (!truthy(fragment)) return url;
  if (url instanceof PyBytes && fragment instanceof PyBytes) return new PyBytes(Uint8Array.from([...url.bytes, 0x23, ...fragment.bytes]));
  ctx.budget.checkSize(2 * (text(url).length + text(fragment).length));
  return `${text(url)}#${text(fragment)}`;
}

export const SplitResult = resultClass("SplitResult", SPLIT_FIELDS, unsplitOf, true);
export const ParseResult = resultClass("ParseResult", PARSE_FIELDS, unparseOf, true);
export const DefragResult = resultClass("DefragResult", ["url", "fragment"], defragUrl, false);
const SplitResultBytes = resultClass("SplitResultBytes", SPLIT_FIELDS, unsplitOf, true);
const ParseResultBytes = resultClass("ParseResultBytes", PARSE_FIELDS, unparseOf, true);
const DefragResultBytes = resultClass("DefragResultBytes", ["url", "fragment"], defragUrl, false);

// `encode()` of a str result gives its bytes twin, `decode()` of a bytes result its str twin.
for (const [decoded, encoded] of [
  [SplitResult, SplitResultBytes],
  [ParseResult, ParseResultBytes],
  [DefragResult, DefragResultBytes],
] as const) {
  decoded.methods.set("encode", (ctx, self: NamedTuple, args, kwargs) => {
    const [encoding, errors] = bind("encode", { names: ["encoding", "errors"], required: 0 }, args, kwargs);
    const encode = (s: Value) => lookupMethod(s, "encode")!(ctx, s, [encoding === undefined ? "ascii" : encoding, errors === undefined ? "strict" : errors], null);
    return encoded.make(ctx, self.items.map(encode));
  });
  encoded.methods.set("decode", (ctx, self: NamedTuple, args, kwargs) => {
    const [encoding, errors] = bind("decode", { names: ["encoding", "errors"], required: 0 }, args, kwargs);
    const decode = (b: Value) => lookupMethod(b, "decode")!(ctx, b, [encoding === undefined ? "ascii" : encoding, errors === undefined ? "strict" : errors], null);
    return decoded.make(ctx, self.items.map(decode));
  });
}

function makeResult(ctx: NativeContext, cls: NamedTupleClass, bytesCls: NamedTupleClass, parts: string[], bytes: boolean): NamedTuple {
  return bytes ? bytesCls.make(ctx, parts.map((p) => asciiEncode(ctx, p))) : cls.make(ctx, parts);
}

// ------------------------------------------------------------------ splitting

const C0_OR_SPACE = /^[\x00-\x20]+/;

/** urlsplit on str arguments: [scheme, netloc, path, query, fragment]. */
export function splitUrl(url: string, defaultScheme: string, allowFragments: boolean): string[] {
  url = url.replace(C0_OR_SPACE, "").replace(/[\t\r\n]/g, "");
  let scheme = defaultScheme.replace(C0_OR_SPACE, "").replace(/[\x00-\x20]+$/, "").replace(/[\t\r\n]/g, "");
  let netloc = "";
  let query = "";
  let fragment = "";
  const colon = url.indexOf(":");
  if (colon > 0 && /^[A-Za-z]/.test(url) && SCHEME_CHARS.test(url.slice(0, colon))) {
    scheme = url.slice(0, colon).toLowerCase();
    url = url.slice(colon + 1);
  }
  if (url.startsWith("//")) {
    let end = url.length;
    for (const c of "/?#") {
      const at = url.indexOf(c, 2);
      if (at >= 0) end = Math.min(end, at);
    }
    netloc = url.slice(2, end);
    url = url.slice(end);
    const open = netloc.includes("[");
    const close = netloc.includes("]");
    if (open !== close) throw pyError("ValueError", "Invalid IPv6 URL");
    if (open) {
      const after = netloc.slice(netloc.indexOf("[") + 1);
      const closeAt = after.indexOf("]");
      checkBracketedHost(closeAt < 0 ? after : after.slice(0, closeAt));
    }
  }
  if (allowFragments) {
    const hash = url.indexOf("#");
    if (hash >= 0) {
      fragment = url.slice(hash + 1);
      url = url.slice(0, hash);
    }
  }
  const question = url.indexOf("?");
  if (question >= 0) {
    query = url.slice(question + 1);
    url = url.slice(0, question);
  }
  checkNetloc(netloc);
  return [scheme, netloc, url, query, fragment];
}

/** A netloc whose NFKC form holds a delimiter (`\u2100` is `a/c`) is refused, as CPython does. */
function checkNetloc(netloc: string): void {
  if (netloc === "" || /^[\x00-\x7f]*$/.test(netloc)) return;
  const n = netloc.replace(/[@:#?]/g, "");
  const normalized = n.normalize("NFKC");
  if (n === normalized) return;
  if (/[/?#@:]/.test(normalized)) throw pyError("ValueError", `netloc '${netloc}' contains invalid characters under NFKC normalization`);
}

/** RFC 3986's IP-literal: an IPv6 address (ipaddress's rules) or an IPvFuture. */
function checkBracketedHost(host: string): void {
  if (host.startsWith("v")) {
    if (!/^v[a-fA-F0-9]+\.[^]+$/.test(host)) throw pyError("ValueError", "IPvFuture address is invalid");
    return;
  }
  if (isIPv4(host)) throw pyError("ValueError", "An IPv4 address cannot be in brackets");
  if (!isIPv6(host)) throw pyError("ValueError", `'${host.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}' does not appear to be an IPv4 or IPv6 address`);
}

function isIPv4(s: string): boolean {
  const parts = s.split(".");
  return parts.length === 4 && parts.every((p) => /^[0-9]{1,3}$/.test(p) && (p === "0" || p[0] !== "0") && Number(p) <= 255);
}

function isIPv6(s: string): boolean {
  const percent = s.indexOf("%");
  if (percent >= 0) {
    const zone = s.slice(percent + 1);
    if (zone === "" || zone.includes("%")) return false;
    s = s.slice(0, percent);
  }
  const parts = s.split(":");
  if (parts.length < 3) return false;
  let max = 8;
  if (parts.at(-1)!.includes(".")) {
    if (!isIPv4(parts.at(-1)!)) return false;
    parts.pop();
    parts.push("0", "0");
    max = 8;
  }
  if (parts.length > max + 1) return false;
  const skip = parts.slice(1, -1).findIndex((p) => p === "");
  if (skip >= 0 && parts.slice(1, -1).slice(skip + 1).includes("")) return false;
  let groups: string[];
  if (skip >= 0) {
    const lead = parts.slice(0, skip + 1);
    const tail = parts.slice(skip + 2);
    if (lead.length === 1 && lead[0] === "") lead.pop();
    else if (lead[0] === "") return false;
    if (tail.length === 1 && tail[0] === "") tail.pop();
    else if (tail.at(-1) === "") return false;
    if (lead.length + tail.length > max - 1) return false;
    groups = [...lead, ...tail];
  } else {
    if (parts.length !== max) return false;
    groups = parts;
  }
  return groups.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g));
}

/** urlparse's split of `;params` off the last path segment. */
function splitParams(url: string): [string, string] {
  let i: number;
  if (url.includes("/")) {
    i = url.indexOf(";", url.lastIndexOf("/"));
    if (i < 0) return [url, ""];
  } else i = url.indexOf(";");
  return [url.slice(0, i), url.slice(i + 1)];
}

function parseUrl(url: string, defaultScheme: string, allowFragments: boolean): string[] {
  const [scheme, netloc, path, query, fragment] = splitUrl(url, defaultScheme, allowFragments) as [string, string, string, string, string];
  const [p, params] = USES_PARAMS.includes(scheme) && path.includes(";") ? splitParams(path) : [path, ""];
  return [scheme, netloc, p, params, query, fragment];
}

function unsplit([scheme, netloc, url, query, fragment]: string[]): string {
  let out = url!;
  if (netloc || (scheme && USES_NETLOC.includes(scheme) && !out.startsWith("//"))) {
    if (out && !out.startsWith("/")) out = "/" + out;
    out = "//" + netloc + out;
  }
  if (scheme) out = scheme + ":" + out;
  if (query) out += "?" + query;
  if (fragment) out += "#" + fragment;
  return out;
}

function unparse([scheme, netloc, url, params, query, fragment]: string[]): string {
  return unsplit([scheme!, netloc!, params ? `${url};${params}` : url!, query!, fragment!]);
}

/**
 * The items of a URL tuple: exactly `n` of them. CPython unpacks them with one more value (its
 * result coercion) and words the error with those counts.
 */
function components(ctx: NativeContext, v: Value, n: number): Value[] {
  const items = ctx.toList(v);
  coerce(items);
  if (items.length < n) throw pyError("ValueError", `not enough values to unpack (expected ${n + 1}, got ${items.length + 1})`);
  if (items.length > n) throw pyError("ValueError", `too many values to unpack (expected ${n + 1})`);
  return items;
}

function urlunsplitItems(ctx: NativeContext, items: Value[]): Value {
  const { texts, bytes } = coerce(items);
  for (const t of texts) scan(ctx, t);
  return result(ctx, unsplit(texts), bytes);
}

function urlunparseItems(ctx: NativeContext, items: Value[]): Value {
  const { texts, bytes } = coerce(items);
  for (const t of texts) scan(ctx, t);
  return result(ctx, unparse(texts), bytes);
}

function joinUrl(base: string, url: string, allowFragments: boolean): string {
  const [bscheme, bnetloc, bpath, bparams, bquery] = parseUrl(base, "", allowFragments) as [string, string, string, string, string, string];
  let [scheme, netloc, path, params, query, fragment] = parseUrl(url, bscheme, allowFragments) as [string, string, string, string, string, string];
  if (scheme !== bscheme || !USES_RELATIVE.includes(scheme)) return url;
  if (USES_NETLOC.includes(scheme)) {
    if (netloc) return unparse([scheme, netloc, path, params, query, fragment]);
    netloc = bnetloc;
  }
  if (!path && !params) {
    path = bpath;
    params = bparams;
    if (!query) query = bquery;
    return unparse([scheme, netloc, path, params, query, fragment]);
  }
  const baseParts = bpath.split("/");
  // The last segment of the base is a file, not a directory: it takes no part in the resolution.
  if (baseParts.at(-1) !== "") baseParts.pop();
  let segments: string[];
  if (path.startsWith("/")) segments = path.split("/");
  else {
    segments = [...baseParts, ...path.split("/")];
    // Empty segments inside would double slashes when joined again.
    if (segments.length > 2) segments = [segments[0]!, ...segments.slice(1, -1).filter((s) => s !== ""), segments.at(-1)!];
  }
  const resolved: string[] = [];
  for (const seg of segments) {
    if (seg === "..") resolved.pop();
    else if (seg !== ".") resolved.push(seg);
  }
  if (segments.at(-1) === "." || segments.at(-1) === "..") resolved.push("");
  return unparse([scheme, netloc, resolved.join("/") || "/", params, query, fragment]);
}

// ------------------------------------------------------------------ the functions of splitting

const URLSPLIT = { names: ["url", "scheme", "allow_fragments"], required: 1 };

/** The scheme a str URL is split with: a falsy non-str one passes coercion, then fails as CPython's does. */
function checkScheme(url: Value, scheme: Value): void {
  if (typeof url !== "string" || typeof scheme === "string") return;
  if (scheme instanceof PyBytes) throw pyError("TypeError", "a bytes-like object is required, not 'str'");
  throw pyError("AttributeError", `'${typeName(scheme)}' object has no attribute 'strip'`);
}

const urlsplit: NativeFn = (ctx, args, kwargs) => {
  const [url, scheme, allow] = bind("urlsplit", URLSPLIT, args, kwargs);
  const { texts, bytes } = coerce([url!, scheme ?? ""]);
  if (scheme !== undefined) checkScheme(url!, scheme);
  scan(ctx, texts[0]!);
  return makeResult(ctx, SplitResult, SplitResultBytes, splitUrl(texts[0]!, texts[1]!, allow === undefined || truthy(allow)), bytes);
};

const urlparse: NativeFn = (ctx, args, kwargs) => {
  const [url, scheme, allow] = bind("urlparse", URLSPLIT, args, kwargs);
  const { texts, bytes } = coerce([url!, scheme ?? ""]);
  if (scheme !== undefined) checkScheme(url!, scheme);
  scan(ctx, texts[0]!);
  return makeResult(ctx, ParseResult, ParseResultBytes, parseUrl(texts[0]!, texts[1]!, allow === undefined || truthy(allow)), bytes);
};

const urlunsplit: NativeFn = (ctx, args, kwargs) => {
  const [c] = bind("urlunsplit", { names: ["components"], required: 1 }, args, kwargs);
  return urlunsplitItems(ctx, components(ctx, c!, 5));
};

const urlunparse: NativeFn = (ctx, args, kwargs) => {
  const [c] = bind("urlunparse", { names: ["components"], required: 1 }, args, kwargs);
  return urlunparseItems(ctx, components(ctx, c!, 6));
};

const urljoin: NativeFn = (ctx, args, kwargs) => {
  const [base, url, allow] = bind("urljoin", { names: ["base", "url", "allow_fragments"], required: 2 }, args, kwargs);
  if (!truthy(base!)) return url!;
  if (!truthy(url!)) return base!;
  const { texts, bytes } = coerce([base!, url!]);
  scan(ctx, texts[0]!);
  scan(ctx, texts[1]!);
  splitCharged(ctx, texts[0]!, "/", PER_SEGMENT);
  splitCharged(ctx, texts[1]!, "/", PER_SEGMENT);
  return result(ctx, joinUrl(texts[0]!, texts[1]!, allow === undefined || truthy(allow)), bytes);
};

const urldefrag: NativeFn = (ctx, args, kwargs) => {
  const [url] = bind("urldefrag", { names: ["url"], required: 1 }, args, kwargs);
  const { texts, bytes } = coerce([url!]);
  const u = texts[0]!;
  scan(ctx, u);
  let parts: string[];
  if (u.includes("#")) {
    const [s, n, p, a, q, frag] = parseUrl(u, "", true) as [string, string, string, string, string, string];
    parts = [unparse([s, n, p, a, q, ""]), frag];
  } else parts = [u, ""];
  return makeResult(ctx, DefragResult, DefragResultBytes, parts, bytes);
};

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

const quote: NativeFn = (ctx, args, kwargs) => {
  const [string, safe, encoding, errors] = bind("quote", QUOTE, args, kwargs);
  return quoteValue(ctx, string!, safe === undefined ? "/" : safe, encoding, errors);
};

const quotePlus: NativeFn = (ctx, args, kwargs) => {
  const [string, safe, encoding, errors] = bind("quote_plus", QUOTE, args, kwargs);
  return quotePlusValue(ctx, string!, safe === undefined ? "" : safe, encoding, errors);
};

const quoteFromBytes: NativeFn = (ctx, args, kwargs) => {
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

const UTF8_REPLACING = new TextDecoder("utf-8");

function decodeBytes(ctx: NativeContext, bytes: Uint8Array, encoding: Value, errors: Value): string {
  const codec = typeof encoding === "string" ? encoding.toLowerCase().replace(/[-_]/g, "") : "";
  if ((codec === "utf8" || codec === "u8") && errors === "replace") return UTF8_REPLACING.decode(bytes);
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

const unquote: NativeFn = (ctx, args, kwargs) => {
  const [string, encoding, errors] = bind("unquote", UNQUOTE, args, kwargs);
  return unquoteText(ctx, string!, encoding ?? null, errors ?? null);
};

const unquotePlus: NativeFn = (ctx, args, kwargs) => {
  const [string, encoding, errors] = bind("unquote_plus", UNQUOTE, args, kwargs);
  if (string instanceof PyBytes) throw pyError("TypeError", "a bytes-like object is required, not 'str'");
  if (typeof string !== "string") throw pyError("AttributeError", `'${typeName(string!)}' object has no attribute 'replace'`);
  scan(ctx, string);
  return unquoteText(ctx, string.replace(/\+/g, " "), encoding ?? null, errors ?? null);
};

const unquoteToBytes: NativeFn = (ctx, args, kwargs) => {
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

const parseQsl: NativeFn = (ctx, args, kwargs) => {
  const pairs = parsePairs(ctx, "parse_qsl", args, kwargs);
  const out = pairs.map(([k, v]) => new PyTuple([k, v]));
  for (const t of out) ctx.budget.alloc(storedSize(t));
  return new PyList(out);
};

const parseQs: NativeFn = (ctx, args, kwargs) => {
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

const urlencode: NativeFn = (ctx, args, kwargs) => {
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

export const URLLIB_PARSE_MODULE: Record<string, NativeFn | Value> = {
  urlparse,
  urlsplit,
  urlunparse,
  urlunsplit,
  urljoin,
  urldefrag,
  quote,
  quote_plus: quotePlus,
  quote_from_bytes: quoteFromBytes,
  unquote,
  unquote_plus: unquotePlus,
  unquote_to_bytes: unquoteToBytes,
  urlencode,
  parse_qs: parseQs,
  parse_qsl: parseQsl,
  ParseResult,
  SplitResult,
  DefragResult,
  ParseResultBytes,
  SplitResultBytes,
  DefragResultBytes,
};
