// Method call sites of both tiers: `obj.name(...)` remembers the built-in method it found for the
// last kind of receiver, and the JavaScript tier calls that method straight when the kind matches.
import type { Frame } from "./frame.js";
import { lookupMethod } from "./methods/index.js";
import type { NativeMethod } from "./native.js";
import type { Pending } from "./objects.js";
import type { Runtime } from "./runtime.js";
import { PyBytes, PyDict, PyFloat, PyList, PySet, PyTuple, type Value } from "./values.js";

/**
 * A method call site (`obj.name(...)`) that remembers the method it last found and for which
 * built-in type, so that a loop calling `line.split()` looks the method up once.
 */
export class MethodSite {
  /** The methodKind the site last saw, and its method (read by the JS tier's call sites). */
  kind: unknown = null;
  method: NativeMethod<any> | undefined;

  constructor(private readonly name: string) {}

  call(rt: Runtime, self: Value, args: Value[], f: Frame): Value | Pending {
    const kind = methodKind(self);
    if (kind !== null) {
      if (kind !== this.kind) {
        const method = lookupMethod(self, this.name);
        if (method === undefined) return rt.callMethod(self, this.name, args, null, f);
        this.kind = kind;
        this.method = method;
      }
      return this.method!(rt, self, args, null);
    }
    return rt.callMethod(self, this.name, args, null, f);
  }
}

const FROZENSET_KIND = Symbol("frozenset");

/** What decides lookupMethod's table for a built-in value; null for anything else (no caching). */
export function methodKind(v: Value): unknown {
  switch (typeof v) {
    case "string":
      return "str";
    case "number":
    case "bigint":
    case "boolean":
      return "int";
  }
  if (v === null) return null;
  const c = (v as object).constructor;
  if (c === PyList || c === PyDict || c === PyTuple || c === PyFloat || c === PyBytes) return c;
  if (c === PySet) return (v as PySet).frozen ? FROZENSET_KIND : PySet;
  return null;
}
