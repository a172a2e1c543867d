// The standard modules a script may import, by name. Each is made per execution from a table
// of its functions and values (built once in its own file); sys and workspace depend on how the
// execution was started, so execute.ts adds them itself.
import { PyBuiltin, PyModule } from "../objects.js";
import type { NativeFn } from "../native.js";
import type { Value } from "../values.js";
import { ASYNCIO_MODULE } from "./asyncio.js";
import { JSON_MODULE } from "./json.js";
import { MATH_MODULE } from "./math.js";
import { RE_MODULE } from "./re/index.js";

/** A module of `attrs`: functions become built-ins named after their key. */
export function moduleFrom(name: string, attrs: Record<string, NativeFn | Value>): PyModule {
  const map = new Map<string, Value>();
  for (const [k, v] of Object.entries(attrs)) map.set(k, typeof v === "function" ? new PyBuiltin(k, v as NativeFn) : (v as Value));
  return new PyModule(name, map);
}

/** Every standard module, keyed by its import name (`urllib.parse` for a submodule). */
export const STANDARD_MODULES = new Map<string, () => PyModule>([
  ["asyncio", () => moduleFrom("asyncio", ASYNCIO_MODULE)],
  ["json", () => moduleFrom("json", JSON_MODULE)],
  ["math", () => moduleFrom("math", MATH_MODULE)],
  ["re", () => moduleFrom("re", RE_MODULE)],
]);
