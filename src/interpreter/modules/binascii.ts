// binascii of CPython 3.11, the part base64 stands on: base64 lines, hex, crc32, and binascii.Error
// (a ValueError subclass, so `except ValueError` catches a bad encoding as in CPython). Base64
// decoding is CPython's own loop: in the default mode characters outside the alphabet are
// skipped and padding ends the data; strict mode refuses both, with CPython's messages.
import { pyError, PyException, PyExcType, EXC } from "../errors.js";
import { bind, type NativeContext, type NativeFn } from "../native.js";
import { lookupMethod } from "../methods/index.js";
import { PyBytes, truthy, typeName, type Value } from "../values.js";

/** binascii.Error: what a malformed encoding raises. */
export const BINASCII_ERROR = new PyExcType("Error", EXC.ValueError);

export function binasciiError(message: string): PyException {
  return new PyException(BINASCII_ERROR, [message]);
}

/**
 * A step per 2 bytes encoded or decoded by a loop here (a few JS operations each), per 8 by
 * Node's own base64; the result's size checked first. Charged before the input is converted.
 */
export function chargeBytes(ctx: NativeContext, n: number, out: number, native = false): void {
  ctx.budget.step(1 + (native ? n >> 3 : n >> 1));
  ctx.budget.checkSize(out);
}

/** The length of a bytes-or-str argument, to charge for it before converting it. */
export function dataLength(v: Value): number {
  return v instanceof PyBytes ? v.bytes.length : typeof v === "string" ? v.length : 0;
}

/** binascii's argument: bytes, or a str of ASCII characters. */
export function asciiData(v: Value, what = "argument should be bytes, buffer or ASCII string"): Uint8Array {
  if (v instanceof PyBytes) return v.bytes;
  if (typeof v === "string") {
    const out = new Uint8Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c > 127) throw pyError("ValueError", "string argument should contain only ASCII characters");
      out[i] = c;
    }
    return out;
  }
  throw pyError("TypeError", `${what}, not '${typeName(v)}'`);
}

/** binascii's bytes-only argument (b2a_*, crc32). */
export function bytesData(v: Value): Uint8Array {
  if (v instanceof PyBytes) return v.bytes;
  throw pyError("TypeError", `a bytes-like object is required, not '${typeName(v)}'`);
}

// ------------------------------------------------------------------ base64

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++) B64_VALUE[B64.charCodeAt(i)] = i;

export function encodeBase64(ctx: NativeContext, data: Uint8Array, newline: boolean): Uint8Array {
  chargeBytes(ctx, data.length, 2 * data.length, true);
  const text = Buffer.from(data.buffer, data.byteOffset, data.length).toString("base64") + (newline ? "\n" : "");
  return Uint8Array.from(Buffer.from(text, "latin1"));
}

/** binascii.a2b_base64, in CPython's default (skipping) or strict mode. */
export function decodeBase64(ctx: NativeContext, data: Uint8Array, strict: boolean): Uint8Array {
  chargeBytes(ctx, data.length, data.length);
  const out = new Uint8Array(Math.ceil((data.length * 3) / 4));
  let n = 0;
  if (strict && data.length > 0 && data[0] === 0x3d) throw binasciiError("Leading padding not allowed");
  let quad = 0;
  let left = 0;
  let pads = 0;
  let paddingStarted = false;
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === 0x3d) {
      paddingStarted = true;
      if (quad >= 2 && quad + ++pads >= 4) {
        if (strict && i + 1 < data.length) throw binasciiError("Excess data after padding");
        return out.slice(0, n);
      }
      continue;
    }
    const v = B64_VALUE[c]!;
    if (v < 0) {
      if (strict) throw binasciiError("Only base64 data is allowed");
      continue;
    }
    if (strict && paddingStarted) throw binasciiError("Discontinuous padding not allowed");
    pads = 0;
    switch (quad) {
      case 0:
        left = v;
        quad = 1;
        break;
      case 1:
        out[n++] = (left << 2) | (v >> 4);
        left = v & 0x0f;
        quad = 2;
        break;
      case 2:
        out[n++] = (left << 4) | (v >> 2);
        left = v & 0x03;
        quad = 3;
        break;
      default:
        out[n++] = (left << 6) | v;
        quad = 0;
    }
  }
  if (quad === 1) {
    throw binasciiError(`Invalid base64-encoded string: number of data characters (${Math.floor(n / 3) * 4 + 1}) cannot be 1 more than a multiple of 4`);
  }
  if (quad !== 0) throw binasciiError("Incorrect padding");
  return out.slice(0, n);
}

// ------------------------------------------------------------------ hex

const hexValue = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);

export function decodeHex(ctx: NativeContext, data: Uint8Array): Uint8Array {
  chargeBytes(ctx, data.length, data.length);
  if (data.length % 2 !== 0) throw binasciiError("Odd-length string");
  const out = new Uint8Array(data.length >> 1);
  for (let i = 0; i < out.length; i++) {
    const hi = hexValue(data[2 * i]!);
    const lo = hexValue(data[2 * i + 1]!);
    if (hi < 0 || lo < 0) throw binasciiError("Non-hexadecimal digit found");
    out[i] = (hi << 4) | lo;
  }
  return out;
}

// ------------------------------------------------------------------ crc32

const CRC_TABLE = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[i] = c >>> 0;
}

function crc32Of(data: Uint8Array, start: number): number {
  let c = ~start >>> 0;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

// ------------------------------------------------------------------ the module

const hexlify: NativeFn = (ctx, args, kwargs) => {
  const [data, sep, perSep] = bind("hexlify", { names: ["data", "sep", "bytes_per_sep"], required: 1 }, args, kwargs);
  const bytes = new PyBytes(bytesData(data!));
  const hexArgs: Value[] = sep === undefined ? [] : perSep === undefined ? [sep] : [sep, perSep];
  const text = lookupMethod(bytes, "hex")!(ctx, bytes, hexArgs, null) as string;
  return new PyBytes(Uint8Array.from(Buffer.from(text, "latin1")));
};

const unhexlify: NativeFn = (ctx, args, kwargs) => {
  const [hexstr] = bind("unhexlify", { names: ["hexstr"], required: 1 }, args, kwargs);
  ctx.budget.step(dataLength(hexstr!) >> 1);
  return new PyBytes(decodeHex(ctx, asciiData(hexstr!)));
};

const a2bBase64: NativeFn = (ctx, args, kwargs) => {
  const strict = kwargs?.get("strict_mode");
  const rest = kwargs === null ? null : new Map([...kwargs].filter(([k]) => k !== "strict_mode"));
  const [data] = bind("a2b_base64", { names: ["data"], required: 1, positionalOnly: 1 }, args, rest);
  ctx.budget.step(dataLength(data!) >> 1);
  return new PyBytes(decodeBase64(ctx, asciiData(data!), strict !== undefined && truthy(strict)));
};

const b2aBase64: NativeFn = (ctx, args, kwargs) => {
  const newline = kwargs?.get("newline");
  const rest = kwargs === null ? null : new Map([...kwargs].filter(([k]) => k !== "newline"));
  const [data] = bind("b2a_base64", { names: ["data"], required: 1, positionalOnly: 1 }, args, rest);
  return new PyBytes(encodeBase64(ctx, bytesData(data!), newline === undefined || truthy(newline)));
};

const crc32: NativeFn = (ctx, args, kwargs) => {
  const [data, crc] = bind("crc32", { names: ["data", "crc"], required: 1, positionalOnly: 2 }, args, kwargs);
  const bytes = bytesData(data!);
  ctx.budget.step(1 + (bytes.length >> 1));
  let start = 0;
  if (crc !== undefined) {
    if (typeof crc !== "number" && typeof crc !== "bigint" && typeof crc !== "boolean") throw pyError("TypeError", `'${typeName(crc)}' object cannot be interpreted as an integer`);
    start = Number(BigInt.asUintN(32, BigInt(crc)));
  }
  return crc32Of(bytes, start);
};

export const BINASCII_MODULE: Record<string, NativeFn | Value> = {
  Error: BINASCII_ERROR,
  hexlify,
  b2a_hex: hexlify,
  unhexlify,
  a2b_hex: unhexlify,
  a2b_base64: a2bBase64,
  b2a_base64: b2aBase64,
  crc32,
};
