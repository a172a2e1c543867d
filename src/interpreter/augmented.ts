// Augmented assignment's operation (`a op= b`), shared by both tiers: in place for the types that
// Python updates in place, else the binary operation.
import { classOf, instanceInplace, NOT_HANDLED, type Operator } from "./instance.js";
import { type BinaryOp, inplaceError } from "./ops.js";
import type { Runtime } from "./runtime.js";
import { PyDict, PyList, type Value } from "./values.js";

/** `a op= b`: as `a op b`, except that a list extends in place and a dict updates in place. */
export function augmentedValue(rt: Runtime, op: BinaryOp, a: Value, b: Value): Value {
  // In-place list extension keeps the list's identity, as Python's += does.
  if (op === "+" && a instanceof PyList) {
    const items = rt.toList(b);
    a.items.push(...items);
    return a;
  }
  if (typeof a === "object" && classOf(a) !== null) {
    // A module-defined type's in-place operator (Counter's +=, deque's +=).
    const r = instanceInplace(op as Operator, a, b, rt.budget);
    if (r !== NOT_HANDLED) return r;
  }
  if (op === "|" && a instanceof PyDict && b instanceof PyDict) {
    a.update(b);
    return a;
  }
  try {
    return rt.binary(op, a, b);
  } catch (e) {
    throw inplaceError(e, op);
  }
}
