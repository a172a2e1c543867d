// Constructs the sandbox rejects at parse time. Each gets one line saying what to write instead,
// because the reader is usually a model that will retry with that advice.

export type UnsupportedConstruct =
  | "class"
  | "with"
  | "yield"
  | "match"
  | "async for"
  | "async with"
  | "dunder"
  | "complex"
  | "named escape"
  | "star import"
  | "except star";

const advice: Record<UnsupportedConstruct, string> = {
  class: "class definitions are not supported in the sandbox; use dicts for records and functions for behaviour",
  with: "'with' statements are not supported in the sandbox; call tools and functions directly",
  yield: "'yield' (generators) is not supported in the sandbox; build and return a list, or use a generator expression (f(x) for x in xs)",
  match: "'match' statements are not supported in the sandbox; use if/elif/else instead",
  "async for": "'async for' is not supported in the sandbox; use 'for' over the results of asyncio.gather(...)",
  "async with": "'async with' is not supported in the sandbox; call tools and functions directly",
  dunder: "double-underscore attributes other than __name__, __class__ and __doc__ are not accessible in the sandbox; use type(x) or isinstance(x, T) instead",
  complex: "complex numbers are not supported in the sandbox; use floats",
  "named escape": "\\N{...} escapes are not supported in the sandbox; use \\uXXXX or \\UXXXXXXXX instead",
  "star import": "'from module import *' is not supported in the sandbox; import the names you need",
  "except star": "'except*' (exception groups) is not supported in the sandbox; use 'except' instead",
};

/**
 * The double-underscore attributes a script may read (`type(e).__name__`, `x.__class__`,
 * `f.__doc__`): harmless, and common in the code models write. Every other one is refused, at
 * parse time for `x.__name__` syntax and at run time for names computed then (getattr, format fields).
 */
export const READABLE_DUNDERS: ReadonlySet<string> = new Set(["__name__", "__class__", "__doc__"]);

export function unsupported(construct: UnsupportedConstruct, name?: string): string {
  if (construct === "dunder" && name) {
    return `attribute '${name}' is not accessible in the sandbox (double-underscore attributes other than __name__, __class__ and __doc__ are blocked); use type(x) or isinstance(x, T) instead`;
  }
  return advice[construct];
}
