// base64 of CPython 3.11: Base64 (standard, URL-safe, custom altchars, strict `validate=`), its
// MIME line form, Base32 (and its extended hex alphabet) and Base16. bytes in, bytes out; the
// decoders also take ASCII str, as CPython's do. Errors are binascii.Error (binascii.ts), a
// ValueError, with CPython's messages.
import { pyError } from "../errors.js";
import { bindPython } from "../py-bind.js";
import type { NativeContext, NativeFn } from "../native.js";
import { repr } from "../repr.js";
import { PyBytes, truthy, typeName, type Value } from "../values.js";
import { asciiData, binasciiError, chargeBytes, dataLength, decodeBase64, decodeHex, encodeBase64 } from "./binascii.js";

/** _bytes_from_decode_data: bytes as they are, a str if it is ASCII. */
function decodeData(v: Value): Uint8Array {
  return asciiData(v, "argument should be a bytes-like object or ASCII string");
}

/** An encoder's argument: bytes (Base32 words its refusal as the memoryview it makes). */
function encodeInput(v: Value, prefix = ""): Uint8Array {
  if (v instanceof PyBytes) return v.bytes;
  throw pyError("TypeError", `${prefix}a bytes-like object is required, not '${typeName(v)}'`);
}

/** `bytes.translate(bytes.maketrans(from, to))` for two-byte tables. */
function translate(data: Uint8Array, from: Uint8Array, to: Uint8Array): Uint8Array {
  const out = data.slice();
  for (let i = 0; i < out.length; i++) {
    const k = from.indexOf(out[i]!);
    if (k >= 0) out[i] = to[k]!;
  }
  return out;
}

const PLUS_SLASH = Uint8Array.of(0x2b, 0x2f);
const DASH_UNDERSCORE = Uint8Array.of(0x2d, 0x5f);

function altchars(v: Value, decode: boolean): Uint8Array {
  const bytes = decode ? decodeData(v) : encodeInput(v);
  if (bytes.length !== 2) throw pyError("AssertionError", repr(new PyBytes(bytes)));
  return bytes;
}

const bytesOf = (b: Uint8Array) => new PyBytes(b);

// ------------------------------------------------------------------ base64

const b64encode: NativeFn = (ctx, args, kwargs) => {
  const [s, alt] = bindPython("b64encode", ["s", "altchars"], [null], args, kwargs);
  const encoded = encodeBase64(ctx, encodeInput(s!), false);
  return bytesOf(alt === null ? encoded : translate(encoded, PLUS_SLASH, altchars(alt!, false)));
};

const b64decode: NativeFn = (ctx, args, kwargs) => {
  const [s, alt, validate] = bindPython("b64decode", ["s", "altchars", "validate"], [null, false], args, kwargs);
  ctx.budget.step(dataLength(s!) >> 1);
  let data = decodeData(s!);
  if (alt !== null) data = translate(data, altchars(alt!, true), PLUS_SLASH);
  return bytesOf(decodeBase64(ctx, data, truthy(validate!)));
};

const standardEncode: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("standard_b64encode", ["s"], [], args, kwargs);
  return bytesOf(encodeBase64(ctx, encodeInput(s!), false));
};

const standardDecode: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("standard_b64decode", ["s"], [], args, kwargs);
  ctx.budget.step(dataLength(s!) >> 1);
  return bytesOf(decodeBase64(ctx, decodeData(s!), false));
};

const urlsafeEncode: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("urlsafe_b64encode", ["s"], [], args, kwargs);
  return bytesOf(translate(encodeBase64(ctx, encodeInput(s!), false), PLUS_SLASH, DASH_UNDERSCORE));
};

const urlsafeDecode: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("urlsafe_b64decode", ["s"], [], args, kwargs);
  ctx.budget.step(dataLength(s!));
  return bytesOf(decodeBase64(ctx, translate(decodeData(s!), DASH_UNDERSCORE, PLUS_SLASH), false));
};

/** The MIME form: lines of 76 characters (57 bytes), each ending with a newline. */
const encodebytes: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("encodebytes", ["s"], [], args, kwargs);
  if (!(s instanceof PyBytes)) throw pyError("TypeError", `expected bytes-like object, not ${typeName(s!)}`);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < s.bytes.length; i += 57) parts.push(encodeBase64(ctx, s.bytes.subarray(i, i + 57), true));
  return bytesOf(Uint8Array.from(Buffer.concat(parts)));
};

const decodebytes: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("decodebytes", ["s"], [], args, kwargs);
  if (!(s instanceof PyBytes)) throw pyError("TypeError", `expected bytes-like object, not ${typeName(s!)}`);
  return bytesOf(decodeBase64(ctx, s.bytes, false));
};

// ------------------------------------------------------------------ base32

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B32_HEX = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

function encode32(ctx: NativeContext, alphabet: string, data: Uint8Array): Uint8Array {
  chargeBytes(ctx, 2 * data.length, 2 * data.length + 8);
  const out = new Uint8Array(8 * Math.ceil(data.length / 5));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < data.length; i++) {
    acc = ((acc << 8) | data[i]!) & 0xfff;
    bits += 8;
    for (; bits >= 5; bits -= 5) out[n++] = alphabet.charCodeAt((acc >> (bits - 5)) & 31);
  }
  if (bits > 0) out[n++] = alphabet.charCodeAt((acc << (5 - bits)) & 31);
  out.fill(0x3d, n);
  return out;
}

const VALUES = new Map<string, Int8Array>();
function valuesOf(alphabet: string): Int8Array {
  let table = VALUES.get(alphabet);
  if (table === undefined) {
    table = new Int8Array(256).fill(-1);
    for (let i = 0; i < 32; i++) table[alphabet.charCodeAt(i)] = i;
    VALUES.set(alphabet, table);
  }
  return table;
}

function decode32(ctx: NativeContext, alphabet: string, s: Value, casefold: boolean, map01: Value | null): Uint8Array {
  chargeBytes(ctx, 2 * dataLength(s), dataLength(s));
  let data = decodeData(s);
  if (data.length % 8 !== 0) throw binasciiError("Incorrect padding");
  if (map01 !== null) {
    const m = decodeData(map01);
    if (m.length !== 1) throw pyError("AssertionError", repr(new PyBytes(m)));
    data = translate(data, Uint8Array.of(0x30, 0x31), Uint8Array.of(0x4f, m[0]!));
  }
  if (casefold) data = data.map((b) => (b >= 97 && b <= 122 ? b - 32 : b));
  let end = data.length;
  while (end > 0 && data[end - 1] === 0x3d) end--;
  const padchars = data.length - end;
  const value = valuesOf(alphabet);
  // Whole groups of 8 characters, each 5 bytes (the last group's padding counts as zeros).
  const out = new Uint8Array(5 * Math.ceil(end / 8));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let k = 0; k < 8 * Math.ceil(end / 8); k++) {
    let v = 0;
    if (k < end) {
      v = value[data[k]!]!;
      if (v < 0) throw binasciiError("Non-base32 digit found");
    }
    acc = ((acc << 5) | v) & 0x1fff;
    bits += 5;
    if (bits >= 8) {
      out[n++] = (acc >> (bits - 8)) & 255;
      bits -= 8;
    }
  }
  if (![0, 1, 3, 4, 6].includes(padchars)) throw binasciiError("Incorrect padding");
  // A partial last group keeps the bytes its characters hold: 1 pad -> 4, 3 -> 3, 4 -> 2, 6 -> 1.
  if (padchars > 0 && n > 0) n -= 5 - Math.floor((43 - 5 * padchars) / 8);
  return out.slice(0, n);
}

const b32encode: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("b32encode", ["s"], [], args, kwargs);
  return bytesOf(encode32(ctx, B32, encodeInput(s!, "memoryview: ")));
};

const b32decode: NativeFn = (ctx, args, kwargs) => {
  const [s, casefold, map01] = bindPython("b32decode", ["s", "casefold", "map01"], [false, null], args, kwargs);
  return bytesOf(decode32(ctx, B32, s!, truthy(casefold!), map01!));
};

const b32hexencode: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("b32hexencode", ["s"], [], args, kwargs);
  return bytesOf(encode32(ctx, B32_HEX, encodeInput(s!, "memoryview: ")));
};

const b32hexdecode: NativeFn = (ctx, args, kwargs) => {
  const [s, casefold] = bindPython("b32hexdecode", ["s", "casefold"], [false], args, kwargs);
  return bytesOf(decode32(ctx, B32_HEX, s!, truthy(casefold!), null));
};

// ------------------------------------------------------------------ base16

const b16encode: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("b16encode", ["s"], [], args, kwargs);
  const data = encodeInput(s!);
  chargeBytes(ctx, data.length, 2 * data.length, true);
  return bytesOf(Uint8Array.from(Buffer.from(Buffer.from(data).toString("hex").toUpperCase(), "latin1")));
};

const b16decode: NativeFn = (ctx, args, kwargs) => {
  const [s, casefold] = bindPython("b16decode", ["s", "casefold"], [false], args, kwargs);
  ctx.budget.step(2 * dataLength(s!));
  let data = decodeData(s!);
  if (truthy(casefold!)) data = data.map((b) => (b >= 97 && b <= 122 ? b - 32 : b));
  if (data.some((b) => !((b >= 48 && b <= 57) || (b >= 65 && b <= 70)))) throw binasciiError("Non-base16 digit found");
  return bytesOf(decodeHex(ctx, data));
};

export const BASE64_MODULE: Record<string, NativeFn | Value> = {
  b64encode,
  b64decode,
  standard_b64encode: standardEncode,
  standard_b64decode: standardDecode,
  urlsafe_b64encode: urlsafeEncode,
  urlsafe_b64decode: urlsafeDecode,
  encodebytes,
  decodebytes,
  b32encode,
  b32decode,
  b32hexencode,
  b32hexdecode,
  b16encode,
  b16decode,
};
