// Methods of int, float and bytes that scripts use.
import { intBits } from "../bigint-cost.js";
import { pyError } from "../errors.js";
import { bind, intArg, type Kwargs, type NativeMethod, noKwargs } from "../native.js";
import { floatRatio, PyBytes, PyFloat, PyTuple, normInt, typeName, type Value } from "../values.js";

export const INT_METHODS: Record<string, NativeMethod<number | bigint | boolean>> = {
  bit_length(_ctx, self, args, kwargs) {
    noKwargs("int.bit_length", kwargs);
    if (args.length) throw pyError("TypeError", `int.bit_length() takes no arguments (${args.length} given)`);
    return intBits(self);
  },
  conjugate(_ctx, self, args, kwargs) {
    noArguments("int.conjugate", args, kwargs);
    return typeof self === "boolean" ? (self ? 1 : 0) : self;
  },
};

export const FLOAT_METHODS: Record<string, NativeMethod<PyFloat>> = {
  is_integer(_ctx, self, args, kwargs) {
    noKwargs("float.is_integer", kwargs);
    if (args.length) throw pyError("TypeError", `float.is_integer() takes no arguments (${args.length} given)`);
    return Number.isInteger(self.v);
  },
  as_integer_ratio(_ctx, self, args, kwargs) {
    noArguments("float.as_integer_ratio", args, kwargs);
    const x = self.v;
    if (!Number.isFinite(x)) {
      throw pyError(Number.isNaN(x) ? "ValueError" : "OverflowError", Number.isNaN(x) ? "cannot convert NaN to integer ratio" : "cannot convert Infinity to integer ratio");
    }
    const [n, den] = floatRatio(x);
    return new PyTuple([normInt(n), normInt(den)]);
  },
  conjugate(_ctx, self, args, kwargs) {
    noArguments("float.conjugate", args, kwargs);
    return self;
  },
};

export const BYTES_METHODS: Record<string, NativeMethod<PyBytes>> = {
  decode(ctx, self, args, kwargs) {
    const [encodingArg, errorsArg] = bind("decode", { names: ["encoding", "errors"], required: 0 }, args, kwargs);
    const encoding = textArg(encodingArg ?? "utf-8", "encoding").toLowerCase().replace(/[-_]/g, "");
    const errors = textArg(errorsArg ?? "strict", "errors");
    ctx.budget.step(1 + (self.bytes.length >> 4));
    if (encoding === "utf8") {
      try {
        return new TextDecoder("utf-8", { fatal: errors === "strict" }).decode(self.bytes);
      } catch {
        throw pyError("UnicodeDecodeError", "'utf-8' codec can't decode bytes: invalid utf-8");
      }
    }
    if (encoding === "ascii") {
      const bad = self.bytes.findIndex((b) => b > 127);
      if (bad >= 0 && errors === "strict") {
        throw pyError("UnicodeDecodeError", `'ascii' codec can't decode byte 0x${self.bytes[bad]!.toString(16)} in position ${bad}: ordinal not in range(128)`);
      }
      return Array.from(self.bytes, (b) => (b > 127 ? (errors === "ignore" ? "" : "\ufffd") : String.fromCharCode(b))).join("");
    }
    if (encoding === "latin1" || encoding === "iso88591") return Array.from(self.bytes, (b) => String.fromCharCode(b)).join("");
    throw pyError("LookupError", `unknown encoding: ${encoding}`);
  },
  hex(ctx, self, args, kwargs) {
    const [sepArg, perArg] = bind("hex", { names: ["sep", "bytes_per_sep"], required: 0 }, args, kwargs);
    ctx.budget.step(1 + (self.bytes.length >> 4));
    const hex = Buffer.from(self.bytes).toString("hex");
    if (sepArg === undefined) return hex;
    const sep = hexSeparator(sepArg);
    const per = perArg === undefined ? 1 : intArg("hex", perArg);
    if (per === 0 || self.bytes.length === 0) return hex;
    // Groups of |per| bytes, counted from the right (per > 0) or from the left (per < 0), as CPython.
    const size = 2 * Math.abs(per);
    const groups: string[] = [];
    if (per > 0) for (let end = hex.length; end > 0; end -= size) groups.unshift(hex.slice(Math.max(0, end - size), end));
    else for (let start = 0; start < hex.length; start += size) groups.push(hex.slice(start, start + size));
    return groups.join(sep);
  },
};

function noArguments(name: string, args: Value[], kwargs: Kwargs | null): void {
  noKwargs(name, kwargs);
  if (args.length) throw pyError("TypeError", `${name}() takes no arguments (${args.length} given)`);
}

/** bytes.hex()'s separator: one ASCII character, as a str or bytes. */
function hexSeparator(v: Value): string {
  // Only the length of a bytes separator is needed to refuse it (never spread a big one).
  const sep = v instanceof PyBytes ? (v.bytes.length === 1 ? String.fromCharCode(v.bytes[0]!) : "--") : v;
  if (typeof sep !== "string") throw pyError("TypeError", `object of type '${typeName(v)}' has no len()`);
  if (sep.length !== 1) throw pyError("ValueError", "sep must be length 1.");
  if (sep.charCodeAt(0) > 127) throw pyError("ValueError", "sep must be ASCII.");
  return sep;
}

function textArg(v: Value, name: string): string {
  if (typeof v !== "string") throw pyError("TypeError", `decode() argument '${name}' must be str, not ${typeName(v)}`);
  return v;
}

export type { Value };
