// The value of a literal in the source, as both tiers make it: an int small enough is a JS number,
// a float a PyFloat, `...` the one Ellipsis.
import type * as A from "../../grammar/ast.js";
import { ELLIPSIS } from "../../grammar/ast.js";
import { PyBytes, PyFloat, PyObject, type Value } from "./values.js";

export function constantValue(v: A.ConstantValue): Value {
  if (typeof v === "bigint") return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
  if (typeof v === "number") return new PyFloat(v);
  if (v instanceof Uint8Array) return new PyBytes(v);
  if (v === ELLIPSIS) return ELLIPSIS_VALUE;
  return v;
}

class EllipsisValue extends PyObject {
  get typeName(): string {
    return "ellipsis";
  }
  pyRepr(): string {
    return "Ellipsis";
  }
}
export const ELLIPSIS_VALUE = new EllipsisValue();
