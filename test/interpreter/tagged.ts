// A tagged JSON encoding of Python values that the differential tests and their python3 side
// both read: ints as decimal strings, floats as float.hex(), containers and callables tagged.
import { PyBytes, PyDict, PyFloat, PyList, PySet, PyTuple, typeName, type Value } from "../../src/interpreter/values.js";
import { floatHex, fromHex } from "./float-hex.js";

export type Tagged =
  | null
  | boolean
  | string
  | { i: string }
  | { f: string }
  | { l: Tagged[] }
  | { t: Tagged[] }
  | { d: [Tagged, Tagged][] }
  | { s: Tagged[] }
  | { fs: Tagged[] }
  | { b: string }
  | { fn: string }
  | { e: [string, string] };

export const int = (n: number | bigint | string): Tagged => ({ i: String(n) });
export const flt = (x: number): Tagged => ({ f: floatHex(x) });
export const lst = (...xs: Tagged[]): Tagged => ({ l: xs });
export const tup = (...xs: Tagged[]): Tagged => ({ t: xs });

/** The sandbox value a tagged one stands for; `{fn}` names one of `functions`. */
export function toValue(t: Tagged, functions: Readonly<Record<string, (...args: Value[]) => Value>> = {}): Value {
  const value = (x: Tagged): Value => {
    if (x === null || typeof x === "boolean" || typeof x === "string") return x;
    if ("i" in x) {
      const n = BigInt(x.i);
      return Number.isSafeInteger(Number(n)) && BigInt(Number(n)) === n ? Number(n) : n;
    }
    if ("f" in x) return new PyFloat(fromHex(x.f));
    if ("l" in x) return new PyList(x.l.map(value));
    if ("t" in x) return new PyTuple(x.t.map(value));
    if ("d" in x) {
      const d = new PyDict();
      for (const [k, v] of x.d) d.set(value(k), value(v));
      return d;
    }
    if ("s" in x || "fs" in x) {
      const s = new PySet("fs" in x);
      for (const item of "s" in x ? x.s : x.fs) s.add(value(item));
      return s;
    }
    if ("b" in x) return new PyBytes(Uint8Array.from(Buffer.from(x.b, "hex")));
    if ("fn" in x && functions[x.fn]) return functions[x.fn] as unknown as Value;
    throw new Error(`not a value: ${JSON.stringify(x)}`);
  };
  return value(t);
}

/** A sandbox result in the tagged encoding (scalars, lists, tuples, dicts). */
export function fromValue(v: Value): Tagged {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint") return int(v);
  if (v instanceof PyFloat) return flt(v.v);
  if (v instanceof PyList) return { l: v.items.map(fromValue) };
  if (v instanceof PyTuple) return { t: v.items.map(fromValue) };
  if (v instanceof PyDict) return { d: [...v.entries()].map(([k, x]) => [fromValue(k), fromValue(x)] as [Tagged, Tagged]) };
  throw new Error(`unexpected result ${typeName(v)}`);
}
