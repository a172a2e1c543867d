// urllib.parse of CPython 3.11: splitting and joining URLs, percent-encoding, query strings.
//
// The algorithms are CPython's own, step for step (their quirks are what scripts and the
// servers they talk to expect): urlsplit strips leading C0 controls and spaces and removes tabs
// and newlines, takes a scheme only when it starts with a letter and has scheme characters
// only, and checks bracketed hosts as ipaddress would; urljoin resolves dot segments as RFC 3986
// does, for the schemes in `uses_relative`. bytes arguments work where CPython's do (ASCII,
// bytes results). Each function charges a step per 8 characters it scans, and per character it
// percent-encodes or decodes; results are charged to the memory budget as they are made.
// Percent-encoding and query strings are in url-quoting.ts.
import { pyError } from "../errors.js";
import { lookupMethod } from "../methods/index.js";
import { NamedTuple, NamedTupleClass } from "../named-tuple.js";
import { bind, type NativeContext, type NativeFn, repr } from "../native.js";
import { PyBytes, truthy, typeName, type Value } from "../values.js";
import {
  asciiEncode,
  coerce,
  parseQs,
  parseQsl,
  PER_SEGMENT,
  quote,
  quoteFromBytes,
  quotePlus,
  result,
  scan,
  splitCharged,
  unquote,
  unquotePlus,
  unquoteToBytes,
  urlencode,
} from "./url-quoting.js";

const MODULE = "urllib.parse";

export const USES_RELATIVE = ["", "ftp", "http", "gopher", "nntp", "imap", "wais", "file", "https", "shttp", "mms", "prospero", "rtsp", "rtsps", "rtspu", "sftp", "svn", "svn+ssh", "ws", "wss"];
export const USES_NETLOC = ["", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https", "shttp", "snews", "prospero", "rtsp", "rtsps", "rtspu", "rsync", "svn", "svn+ssh", "sftp", "nfs", "git", "git+ssh", "ws", "wss"];
export const USES_PARAMS = ["", "ftp", "hdl", "prospero", "http", "imap", "https", "shttp", "rtsp", "rtsps", "rtspu", "sip", "sips", "mms", "sftp", "tel"];
const SCHEME_CHARS = /^[A-Za-z0-9+\-.]*$/;

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
