// The shortcuts both tiers take before the general operation of ops.ts: small ints (JS numbers),
// floats, strs, and the items of dicts, lists and tuples. Each is written here once, as the text
// of the JavaScript that does it: an `if (...) ...` chain that assigns the temporary `t` where the
// shortcut applies and leaves the rest to the `else` its user appends (the general operation).
// The code generator (codegen.ts) emits the text into its units; the closure tier (closure-ops.ts)
// compiles it, once per operator, into the closures it runs. So the two tiers run the same code.
//
// The text may name, besides its operands: `rt` (the runtime), PyFloat, PyDict, PyList, PySet, PyTuple,
// entrySize and storedSize (FAST_PATH_SCOPE). Where a shortcut answers, it answers exactly as the general
// operation does: test/interpreter/fast-paths.test.ts checks every entry, in both tiers' forms,
// against ops.ts on many operand pairs.
import type { BinaryOp, CompareOp } from "./ops.js";
import { entrySize, storedSize } from "./sizes.js";
import { MAX_OWN_KEY, PyDict, PyFloat, PyList, PySet, PyTuple } from "./values.js";

/** One shortcut: the text that assigns `t` from its operands (JavaScript expressions, evaluated more than once). */
export type FastPath = (t: string, ...operands: string[]) => string;

/** What the text of a fast path may name, besides `rt` and its operands. */
export const FAST_PATH_SCOPE = { PyFloat, PyDict, PyList, PySet, PyTuple, entrySize, storedSize };

// ------------------------------------------------------------------ operands

const ints = (a: string, b: string): string => `typeof ${a} === "number" && typeof ${b} === "number"`;

/** A float and a float or an int (a JS number: ints beyond 2**53 are bigints, and bools are not numbers). */
const floatPair = (a: string, b: string): string =>
  `(${a} instanceof PyFloat ? typeof ${b} === "number" || ${b} instanceof PyFloat : typeof ${a} === "number" && ${b} instanceof PyFloat)`;

/** The double of an operand that floatPair accepted (a literal takes `.v` in parentheses). */
const double = (x: string): string => `(typeof ${x} === "number" ? ${x} : (${x}).v)`;

/** Whether `k` is its own hash key in a dict's map (values.ts hashKey): a str not starting with NUL, or with `ints` an int that is a JS number. */
function ownKey(k: string, ints: boolean): string {
  const str = `(${k}).charCodeAt(0) !== 0 && (${k}).length <= ${MAX_OWN_KEY}`;
  return ints ? `(typeof ${k} === "string" ? ${str} : typeof ${k} === "number")` : `(typeof ${k} === "string" && ${str})`;
}

/** `else if` a float and a float or an int: the float result ops.binary gives, which IEEE arithmetic is (a zero divisor is left to it: it raises). */
const floats = (t: string, op: "+" | "-" | "*" | "/", a: string, b: string): string =>
  `else if (${floatPair(a, b)}${op === "/" ? ` && ${double(b)} !== 0` : ""}) ${t} = new PyFloat(${double(a)} ${op} ${double(b)});`;

// ------------------------------------------------------------------ arithmetic

/** `a op b` by operator; on these operands `a op= b` is the same. */
export const BINARY_FAST_PATHS: Partial<Record<BinaryOp, FastPath>> = {
  "+": (t, a, b) =>
    `if (${ints(a, b)} && Number.isSafeInteger(${t} = ${a} + ${b})) {} ` +
    // Two strs, size-checked as ops.binary checks them.
    `else if (typeof ${a} === "string" && typeof ${b} === "string") { rt.budget.checkSize(2 * ((${a}).length + (${b}).length)); ${t} = ${a} + ${b}; } ` +
    floats(t, "+", a, b),
  "-": (t, a, b) => `if (${ints(a, b)} && Number.isSafeInteger(${t} = ${a} - ${b})) {} ${floats(t, "-", a, b)}`,
  // -0 is not an int: 0 * -1 is 0.
  "*": (t, a, b) => `if (${ints(a, b)} && Number.isSafeInteger(${t} = ${a} * ${b})) { if (${t} === 0) ${t} = 0; } ${floats(t, "*", a, b)}`,
  // Two ints below 2**53 are exact as doubles, so their quotient is rounded once, as CPython's.
  "/": (t, a, b) => `if (${ints(a, b)} && ${b} !== 0) ${t} = new PyFloat(${a} / ${b}); ${floats(t, "/", a, b)}`,
  // Python's modulo takes the sign of the divisor (and the int 0 is never -0).
  "%": (t, a, b) => `if (${ints(a, b)} && ${b} !== 0) { ${t} = ${a} % ${b}; if (${t} !== 0 && ${t} < 0 !== ${b} < 0) ${t} += ${b}; else if (${t} === 0) ${t} = 0; }`,
  // Exact for 32-bit operands: the quotient's rounding error is below 1/|b|.
  "//": (t, a, b) => `if (${ints(a, b)} && (${a} | 0) === ${a} && (${b} | 0) === ${b} && ${b} !== 0) ${t} = Math.floor(${a} / ${b}) + 0;`,
};

// ------------------------------------------------------------------ comparisons

/** An int against an int is one JS comparison; a float against a float or an int compares their doubles (an int here is exact as one; NaN is false either way). */
const ordering = (op: CompareOp): FastPath => (t, a, b) => `if (${ints(a, b)}) ${t} = ${a} ${op} ${b}; else if (${floatPair(a, b)}) ${t} = ${double(a)} ${op} ${double(b)};`;

/** Two ints, or two strs, are equal exactly when they are the same JS value. */
const equality = (op: "===" | "!=="): FastPath => (t, a, b) => `if ((typeof ${a} === "number" || typeof ${a} === "string") && typeof ${b} === typeof ${a}) ${t} = ${a} ${op} ${b};`;

/** A str or an int in a dict or a set: the map itself, as contains() looks it up. */
const membership = (negate: boolean): FastPath => (t, a, b) =>
  `if ((${b} instanceof PyDict || ${b} instanceof PySet) && ${ownKey(a, true)}) ${t} = ${negate ? "!" : ""}(${b}).map.has(${a});`;

/** The comparisons with a fast path. */
export type FastCompareOp = CompareOp | "==" | "!=" | "in" | "not in";

/** `a op b` of one comparison, by operator. */
export const COMPARE_FAST_PATHS: Record<FastCompareOp, FastPath> = {
  "<": ordering("<"),
  "<=": ordering("<="),
  ">": ordering(">"),
  ">=": ordering(">="),
  "==": equality("==="),
  "!=": equality("!=="),
  in: membership(false),
  "not in": membership(true),
};

// ------------------------------------------------------------------ unary minus and items

/** `-v` of an int (0 stays 0, not -0). */
export const NEGATE_FAST_PATH: FastPath = (t, v) => `if (typeof ${v} === "number" && ${v} !== 0) ${t} = -${v};`;

/** `c[k]`: a key of a dict that is its own hash key, an index of a list or tuple (negative from the end). */
export const ITEM_FAST_PATH: FastPath = (t, c, k) => {
  const item = `${k} >= 0 ? (${k} < ${c}.items.length ? ${c}.items[${k}] : undefined) : ${c}.items[${c}.items.length + ${k}]`;
  return `if (${c} instanceof PyDict && ${ownKey(k, true)} && (${t} = ${c}.map.get(${k})) !== undefined) {} else if ((${c} instanceof PyList || ${c} instanceof PyTuple) && typeof ${k} === "number" && (${t} = ${item}) !== undefined) {}`;
};

/** ITEM_FAST_PATH where `k` is a str literal that is its own hash key: only the dict is tested. */
export const STR_KEY_ITEM_FAST_PATH: FastPath = (t, c, k) => `if (${c} instanceof PyDict && (${t} = ${c}.map.get(${k})) !== undefined) {}`;

/**
 * `c[k] = v` (`t` a temporary it may use): a dict's own hash key straight into its map, charged
 * as setItem charges a new key (one lookup, not two: the charge follows the store; a memory error
 * ends the script, which no handler can catch, so the entry it leaves is never seen), or an index
 * in range of a list. `t` is a temporary it may overwrite.
 */
export const SET_ITEM_FAST_PATH: FastPath = (t, c, k, v) =>
  `if (${c} instanceof PyDict && ${ownKey(k, true)}) { ${t} = ${c}.map.size; ${c}.map.set(${k}, ${v}); if (${c}.map.size !== ${t}) rt.budget.alloc(entrySize(${k}, ${v})); } ` +
  `else if (${c} instanceof PyList && typeof ${k} === "number" && (${t} = ${k} < 0 ? ${k} + ${c}.items.length : ${k}) >= 0 && ${t} < ${c}.items.length) ${c}.items[${t}] = ${v};`;

// ------------------------------------------------------------------ methods

/**
 * `o.name(args)` for the two commonest methods, as containers.ts does them (same result, same
 * charge): dict.get of a str key that is its own hash key, and list.append. The text ends in
 * `else ` for the method call that follows it; "" for any other method.
 */
export function methodFastPath(t: string, o: string, name: string, args: string[]): string {
  if (name === "get" && (args.length === 1 || args.length === 2)) {
    const k = args[0]!;
    return `if (${o} instanceof PyDict && ${ownKey(k, true)}) { ${t} = ${o}.map.get(${k}); if (${t} === undefined) ${t} = ${args[1] ?? "null"}; } else `;
  }
  if (name === "append" && args.length === 1) return `if (${o} instanceof PyList) { rt.budget.alloc(storedSize(${args[0]})); ${o}.items.push(${args[0]}); ${t} = null; } else `;
  return "";
}
