// The double-underscore attributes a script may read (READABLE_DUNDERS in grammar/unsupported.ts):
// `__class__` of any value, `__name__` of what CPython names, and `__doc__` of the script's own
// functions. Every other one is the sandbox's refusal, whichever way it is reached.
import { READABLE_DUNDERS } from "../../grammar/unsupported.js";
import { typeOf } from "./builtins.js";
import { PyFunction } from "./function.js";
import { PyExcType, type PyException, pyError } from "./errors.js";
import { PyInstance } from "./instance.js";
import { HostCallable, HostObject, PyBoundMethod, PyBuiltin, PyCoroutine, PyModule, PyType } from "./objects.js";
import { typeName, type Value } from "./values.js";

/** `obj.<name>` for a name that starts and ends with two underscores. */
export function dunderAttribute(obj: Value, name: string): Value {
  if (!READABLE_DUNDERS.has(name)) throw refused(name);
  if (name === "__class__") return typeOf([obj]);
  if (name === "__name__") {
    const own = nameOf(obj);
    if (own !== undefined) return own;
    throw pyError("AttributeError", `'${typeName(obj)}' object has no attribute '__name__'`);
  }
  // `__doc__`: CPython's docstrings of built-in objects are not here to give.
  if (obj instanceof PyFunction) return obj.dunders?.has("__doc__") ? obj.dunders.get("__doc__")! : obj.code.doc;
  const own = obj instanceof PyInstance ? obj.pyAttr?.("__doc__") : undefined;
  if (own !== undefined) return own;
  throw refused(name);
}

function refused(name: string): PyException {
  return pyError("AttributeError", `attribute '${name}' is not accessible in the sandbox`);
}

/** What `__name__` gives for the objects CPython names: types, functions, methods, modules. */
function nameOf(obj: Value): Value | undefined {
  if (obj instanceof PyType || obj instanceof PyExcType || obj instanceof PyModule || obj instanceof PyBoundMethod) return obj.name;
  if (obj instanceof PyFunction) return obj.dunders?.has("__name__") ? obj.dunders.get("__name__")! : obj.code.name;
  // A built-in reached through a type (`dict.fromkeys`) is named by its last part, as in CPython.
  if (obj instanceof PyBuiltin) return obj.name.slice(obj.name.lastIndexOf(".") + 1);
  if (obj instanceof PyCoroutine) return obj.name;
  // A tool is named as the script reaches it, a server (module-like) by its global name.
  if (obj instanceof HostCallable) return obj.async ? `${obj.method}_async` : obj.method;
  if (obj instanceof HostObject) return obj.name;
  // A module-defined callable (a cached function, a partial) may carry the name wraps() gave it.
  if (obj instanceof PyInstance) return obj.pyAttr?.("__name__");
  return undefined;
}
