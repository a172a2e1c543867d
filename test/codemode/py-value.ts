// A JSON value as the bridge hands it to a script: ints as bigint, floats as PyFloat, objects
// as dicts (for the tests of shapes, which record what a script received).
import { PyDict, PyFloat, PyList, type Value } from "../../src/interpreter/values.js";

export function py(x: unknown): Value {
  if (x === null) return null;
  if (typeof x === "number") return Number.isInteger(x) ? BigInt(x) : new PyFloat(x);
  if (typeof x === "string" || typeof x === "boolean") return x;
  if (Array.isArray(x)) return new PyList(x.map(py));
  const d = new PyDict();
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) d.set(k, py(v));
  return d;
}
