// Method lookup for built-in types: `"a,b".split(",")`, `items.append(x)`, `d.get(k)`.
import { pyError } from "../errors.js";
import { strFormat } from "../format.js";
import type { NativeMethod } from "../native.js";
import { PyDictView } from "../objects.js";
import { PyBytes, PyDict, PyFloat, PyList, PyRange, PySet, PyTuple, type Value } from "../values.js";
import { DICT_METHODS, FROZENSET_METHODS, LIST_METHODS, RANGE_METHODS, SET_METHODS, TUPLE_METHODS } from "./containers.js";
import { BYTES_METHODS, FLOAT_METHODS, INT_METHODS } from "./numbers.js";
import { STR_METHODS } from "./str.js";

const STRING_METHODS: Record<string, NativeMethod<string>> = {
  ...STR_METHODS,
  format: (ctx, self, args, kwargs) => strFormat(ctx, self, args, kwargs),
  format_map: (ctx, self, args, kwargs) => {
    if (kwargs?.size || args.length !== 1) throw pyError("TypeError", `format_map() takes exactly one argument (${args.length} given)`);
    const mapping = args[0];
    if (!(mapping instanceof PyDict)) return strFormat(ctx, self, [], null);
    const named = new Map<string, Value>();
    for (const [k, v] of mapping.entries()) if (typeof k === "string") named.set(k, v);
    return strFormat(ctx, self, [], named);
  },
};

/** Every method table, by the Python type it belongs to (the budget table of SPEC §2 lists them). */
export const METHOD_TABLES = {
  str: STRING_METHODS,
  list: LIST_METHODS,
  tuple: TUPLE_METHODS,
  dict: DICT_METHODS,
  set: SET_METHODS,
  frozenset: FROZENSET_METHODS,
  int: INT_METHODS,
  float: FLOAT_METHODS,
  bytes: BYTES_METHODS,
  range: RANGE_METHODS,
} as const;

const has = Object.prototype.hasOwnProperty;

/** The method `name` of `obj`'s type, or undefined. Lookups never reach JS prototypes. */
export function lookupMethod(obj: Value, name: string): NativeMethod<any> | undefined {
  let table: Record<string, NativeMethod<any>> | undefined;
  if (typeof obj === "string") table = STRING_METHODS;
  else if (obj instanceof PyList) table = LIST_METHODS;
  else if (obj instanceof PyDict || obj instanceof PyTuple) {
    // A dict subclass's or named tuple's own methods (Counter.update, _asdict) come before dict's.
    const own = obj.cls?.method(name);
    if (own !== undefined) return own;
    table = obj instanceof PyDict ? DICT_METHODS : TUPLE_METHODS;
  } else if (obj instanceof PySet) table = obj.frozen ? FROZENSET_METHODS : SET_METHODS;
  else if (typeof obj === "number" || typeof obj === "bigint" || typeof obj === "boolean") table = INT_METHODS;
  else if (obj instanceof PyFloat) table = FLOAT_METHODS;
  else if (obj instanceof PyBytes) table = BYTES_METHODS;
  else if (obj instanceof PyRange) table = RANGE_METHODS;
  else if (obj instanceof PyDictView) return undefined;
  if (!table || !has.call(table, name)) return undefined;
  return table[name];
}
