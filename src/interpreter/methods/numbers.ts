// Methods of int, float and bytes that scripts use.
import { pyError } from "../errors.js";
import { bind, type NativeMethod, noKwargs } from "../native.js";
import { floatRatio, PyBytes, PyFloat, PyTuple, normInt, typeName, type Value } from "../values.js";

export const INT_METHODS: Record<string, NativeMethod<number | bigint | boolean>> = {
  bit_length(_ctx, self, args, kwargs) {
    noKwargs("int.bit_length", kwargs);
    if (args.length) throw pyError("TypeError", `int.bit_length() takes no arguments (${args.length} given)`);
    const v = typeof self === "boolean" ? (self ? 1n : 0n) : BigInt(self);
    const abs = v < 0n ? -v : v;
    return abs === 0n ? 0 : abs.toString(2).length;
  },
  conjugate(_ctx, self) {
    return typeof self === "boolean" ? (self ? 1 : 0) : self;
  },
};

export const FLOAT_METHODS: Record<string, NativeMethod<PyFloat>> = {
  is_integer(_ctx, self, args, kwargs) {
    noKwargs("float.is_integer", kwargs);
    if (args.length) throw pyError("TypeError", `float.is_integer() takes no arguments (${args.length} given)`);
    return Number.isInteger(self.v);
  },
  as_integer_ratio(_ctx, self) {
    const x = self.v;
    if (!Number.isFinite(x)) {
      throw pyError(Number.isNaN(x) ? "ValueError" : "OverflowError", Number.isNaN(x) ? "cannot convert NaN to integer ratio" : "cannot convert Infinity to integer ratio");
    }
    const [n, den] = floatRatio(x);
    return new PyTuple([normInt(n), normInt(den)]);
  },
  conjugate(_ctx, self) {
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
  hex(ctx, self) {
    ctx.budget.step(1 + (self.bytes.length >> 4));
    return Buffer.from(self.bytes).toString("hex");
  },
};

function textArg(v: Value, name: string): string {
  if (typeof v !== "string") throw pyError("TypeError", `decode() argument '${name}' must be str, not ${typeName(v)}`);
  return v;
}

export type { Value };
