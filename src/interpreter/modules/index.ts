// The standard modules a script may import, by name. Each is made per execution from a table
// of its functions and values (built once in its own file); sys and workspace depend on how the
// execution was started, so execute.ts adds them itself.
import { PyBuiltin, PyModule } from "../objects.js";
import type { NativeFn } from "../native.js";
import type { Value } from "../values.js";
import { ASYNCIO_MODULE } from "./asyncio.js";
import { BASE64_MODULE } from "./base64.js";
import { BINASCII_MODULE } from "./binascii.js";
import { BISECT_MODULE } from "./bisect.js";
import { COLLECTIONS_MODULE } from "./collections.js";
import { COPY_MODULE } from "./copy.js";
import { datetimeModule } from "./datetime.js";
import { FUNCTOOLS_MODULE } from "./functools.js";
import { hashlibModule } from "./hashlib.js";
import { HEAPQ_MODULE } from "./heapq.js";
import { HTML_MODULE } from "./html.js";
import { ITERTOOLS_MODULE } from "./itertools.js";
import { JSON_MODULE } from "./json.js";
import { MATH_MODULE } from "./math.js";
import { OPERATOR_MODULE } from "./operator.js";
import { randomModule } from "./random.js";
import { RE_MODULE } from "./re/index.js";
import { SHLEX_MODULE } from "./shlex.js";
import { STATISTICS_MODULE } from "./statistics.js";
import { STRING_MODULE } from "./string.js";
import { TEXTWRAP_MODULE } from "./textwrap.js";
import { timeModule } from "./time.js";
import { TYPING_MODULE } from "./typing.js";
import { URLLIB_PARSE_MODULE } from "./urllib-parse.js";
import { UUID_MODULE } from "./uuid.js";

/** A module of `attrs`: functions become built-ins named after their key. */
export function moduleFrom(name: string, attrs: Record<string, NativeFn | Value>): PyModule {
  const map = new Map<string, Value>();
  for (const [k, v] of Object.entries(attrs)) map.set(k, typeof v === "function" ? new PyBuiltin(k, v as NativeFn) : (v as Value));
  return new PyModule(name, map);
}

/** Every standard module, keyed by its import name (`urllib.parse` for a submodule). */
export const STANDARD_MODULES = new Map<string, () => PyModule>([
  ["asyncio", () => moduleFrom("asyncio", ASYNCIO_MODULE)],
  ["base64", () => moduleFrom("base64", BASE64_MODULE)],
  ["binascii", () => moduleFrom("binascii", BINASCII_MODULE)],
  ["bisect", () => moduleFrom("bisect", BISECT_MODULE)],
  ["collections", () => moduleFrom("collections", COLLECTIONS_MODULE)],
  ["copy", () => moduleFrom("copy", COPY_MODULE)],
  ["datetime", () => moduleFrom("datetime", datetimeModule())],
  ["functools", () => moduleFrom("functools", FUNCTOOLS_MODULE)],
  ["hashlib", () => moduleFrom("hashlib", hashlibModule())],
  ["heapq", () => moduleFrom("heapq", HEAPQ_MODULE)],
  ["html", () => moduleFrom("html", HTML_MODULE)],
  ["itertools", () => moduleFrom("itertools", ITERTOOLS_MODULE)],
  ["json", () => moduleFrom("json", JSON_MODULE)],
  ["math", () => moduleFrom("math", MATH_MODULE)],
  ["operator", () => moduleFrom("operator", OPERATOR_MODULE)],
  ["random", randomModule],
  ["re", () => moduleFrom("re", RE_MODULE)],
  ["shlex", () => moduleFrom("shlex", SHLEX_MODULE)],
  ["statistics", () => moduleFrom("statistics", STATISTICS_MODULE)],
  ["string", () => moduleFrom("string", STRING_MODULE)],
  ["textwrap", () => moduleFrom("textwrap", TEXTWRAP_MODULE)],
  ["time", () => moduleFrom("time", timeModule())],
  ["typing", () => moduleFrom("typing", TYPING_MODULE)],
  ["urllib", () => moduleFrom("urllib", {})],
  ["urllib.parse", () => moduleFrom("urllib.parse", URLLIB_PARSE_MODULE)],
  ["uuid", () => moduleFrom("uuid", UUID_MODULE)],
]);
