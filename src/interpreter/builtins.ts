// The built-in functions and types of the dialect (SPEC §1). Each charges the budget in
// proportion to its work. What Python has but the sandbox must not (open, eval, exec, input,
// __import__...) is absent; using one is a NameError that says so.
import { EXC, PyExcType, PyException, pyError } from "./errors.js";
import { ascii, formatValue } from "./format.js";
import { bind, intArg, type Kwargs, type NativeContext, type NativeFn, noKwargs, strArg } from "./native.js";
import { NONE_TYPE } from "./generic-alias.js";
import { classOf, instanceBinary, NOT_HANDLED, PyInstance } from "./instance.js";
import { after, DONE, HostCallable, HostObject, Pending, PyBoundMethod, PyBuiltin, PyCoroutine, PyDictView, PyIterator, PyModule, PyType, type Step } from "./objects.js";
import { binary, compare, equals, hashOf, iterate, length as lengthOf, SliceValue, unary } from "./ops.js";
import { repr as reprOf, reprPaced, str as strOf, TEXT_SHIFT, textCharge } from "./repr.js";
import { CLOSURE, entrySize, headerSize, ITERATOR, MAP_ENTRY } from "./sizes.js";
import { collectItems, cursors, drainItems, forEachItem, lazy, mapItem, skippingCursors, stepIterator, waitable } from "./stepping.js";
import { cpLength } from "./strings.js";
import { bitLength, divSteps, linearSteps, mulSteps, powSteps, radixSteps } from "./bigint-cost.js";
import type { Budget } from "./budget.js";
import { digitLimitError, digitsValue, MAX_STR_DIGITS } from "./int-text.js";
import { dictFromKeys, reverseArg, sortValues, updateDict } from "./methods/containers.js";
import { maketrans } from "./methods/str.js";
import {
  EMPTY_TUPLE,
  isInt,
  normInt,
  PyBytes,
  PyDict,
  PyFloat,
  PyList,
  PyObject,
  PyRange,
  PySet,
  PyTuple,
  floatRatio,
  toBigInt,
  truthy,
  typeName,
  type Value,
} from "./values.js";
import { PyFunction } from "./function.js";

/**
 * Things Python has that the sandbox leaves out on purpose, and what to do instead. A Map, so
 * that a script's name (`constructor`, `toString`) never finds an Object.prototype member.
 */
export const ABSENT_BUILTINS: ReadonlyMap<string, string> = new Map(Object.entries({
  open: "there is no file system in the sandbox; call a tool that reads files",
  eval: "evaluating code is not supported in the sandbox",
  exec: "executing code is not supported in the sandbox",
  compile: "compiling code is not supported in the sandbox",
  __import__: "use an import statement (`import re`, `from datetime import date`); an unavailable module's ImportError lists the available ones",
  input: "there is no standard input in the sandbox",
  globals: "introspection is not supported in the sandbox",
  locals: "introspection is not supported in the sandbox",
  vars: "introspection is not supported in the sandbox",
  dir: "introspection is not supported in the sandbox; read the tool stubs instead",
  breakpoint: "debugging is not supported in the sandbox",
  exit: "end the script with a top-level `return value` instead (or set RESULT)",
  quit: "end the script with a top-level `return value` instead (or set RESULT)",
  setattr: "attribute assignment is not supported in the sandbox; use a dict",
  delattr: "attribute deletion is not supported in the sandbox; use a dict",
  memoryview: "memoryview is not supported in the sandbox",
  classmethod: "classes are not supported in the sandbox",
  staticmethod: "classes are not supported in the sandbox",
  property: "classes are not supported in the sandbox",
  super: "classes are not supported in the sandbox",
  object: "classes are not supported in the sandbox",
}));


/**
 * For its size: `closures`, how many closures `next` reaches (its own, its inputs' cursors), and
 * the `inputs` it keeps alive. `step`: its cursor able to wait, when an input's items may wait.
 */
function iterator(next: () => Value | typeof DONE, kind: string, closures: number, inputs: readonly Value[], paid = false, step: Step | null = null): PyIterator {
  let bytes = ITERATOR + CLOSURE * closures;
  for (const v of inputs) bytes += headerSize(v);
  return new PyIterator(next, kind, bytes, paid, step);
}

// ------------------------------------------------------------------ conversions

const INT_LITERAL = /^[+-]?(\d+(_\d+)*)$/;
const SHORT_DECIMAL = /^[+-]?[0-9]{1,15}$/;

/**
 * A native that raises on the usual path of a script (int("n/a") in a try) makes its ValueError
 * in a function that returns it, and throws it in a wrapper that does little else: V8 optimizes
 * a function at its loops and returns only, so one that ends in `throw` at nearly every call
 * stays interpreted (int() of text that is no int took 3.6 µs a call so, 0.9 µs now).
 */
function raising(fn: NativeFn): NativeFn {
  return (ctx, args, kwargs) => {
    const v = fn(ctx, args, kwargs);
    if (v instanceof PyException) throw v;
    return v;
  };
}

/** int(x[, base]); its ValueError for a text that is no int is returned (see raising). */
function intValue(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value | PyException {
  // int(x), the usual call, takes its argument as it is, without bind().
  let x: Value | undefined;
  let base: Value | undefined;
  if (kwargs === null && args.length === 1) x = args[0];
  else [x, base] = bind("int", { names: ["x", "base"], required: 0 }, args, kwargs);
  if (x === undefined) return 0;
  if (base !== undefined) {
    if (typeof x !== "string") throw pyError("TypeError", "int() can't convert non-string with explicit base");
    return parseIntText(ctx, x, intArg("int", base));
  }
  if (typeof x === "number" || typeof x === "bigint") return x;
  if (typeof x === "boolean") return x ? 1 : 0;
  if (x instanceof PyFloat) {
    if (Number.isNaN(x.v)) throw pyError("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(x.v)) throw pyError("OverflowError", "cannot convert float infinity to integer");
    const t = Math.trunc(x.v);
    return Number.isSafeInteger(t) ? (t === 0 ? 0 : t) : normInt(BigInt(t));
  }
  if (typeof x === "string") return parseIntText(ctx, x, 10);
  throw pyError("TypeError", `int() argument must be a string, a bytes-like object or a real number, not '${typeName(x)}'`);
}

const OTHER_DIGIT = /(?![0-9])\p{Nd}/gu;

/**
 * int() and float() read any Unicode decimal digit ('٣' is 3), as CPython does. Digits come in
 * runs of ten from 0 upward, so a digit's value is its distance from the start of its run, mod 10.
 */
function asciiDigits(text: string): string {
  return text.replace(OTHER_DIGIT, (d) => {
    let start = d.codePointAt(0)!;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
    return String((d.codePointAt(0)! - start) % 10);
  });
}

function parseIntText(ctx: NativeContext, text: string, base: number): Value | PyException {
  if (base !== 0 && (base < 2 || base > 36)) throw pyError("ValueError", "int() base must be >= 2 and <= 36, or 0");
  ctx.budget.checkSize(text.length);
  ctx.budget.step(text.length >> 4);
  // Up to 15 ASCII digits with an optional sign (the usual text) are exact as a double.
  if ((base === 10 || base === 0) && SHORT_DECIMAL.test(text) && (base === 10 || !/^[+-]?0\d/.test(text))) return Number(text) + 0;
  // CPython shows at most 200 characters of the text's repr (%.200R).
  const invalid = () => pyError("ValueError", `invalid literal for int() with base ${base}: ${[...reprOf(text)].slice(0, 200).join("")}`);
  let s = asciiDigits(text.trim());
  let sign = 1n;
  if (s.startsWith("-") || s.startsWith("+")) {
    if (s[0] === "-") sign = -1n;
    s = s.slice(1);
  }
  let b = base;
  const prefix = s.slice(0, 2).toLowerCase();
  const prefixes: Record<string, number> = { "0x": 16, "0o": 8, "0b": 2 };
  if (prefixes[prefix] && (b === 0 || b === prefixes[prefix])) {
    b = prefixes[prefix]!;
    s = s.slice(2);
    if (s.startsWith("_")) s = s.slice(1);
  } else if (b === 0) {
    if (/^0+(_0+)*$/.test(s)) {
      const zeros = s.replace(/_/g, "").length;
      if (zeros > MAX_STR_DIGITS) throw digitLimitError(zeros);
      return 0;
    }
    if (s.startsWith("0")) return invalid();
    b = 10;
  }
  // CPython counts the run of digits before judging what follows it: '1' * 5000 + 'x' is over
  // the limit, not an invalid literal.
  if (s.length > MAX_STR_DIGITS && (b & (b - 1)) !== 0) {
    const run = leadingDigits(s, b);
    if (run > MAX_STR_DIGITS) throw digitLimitError(run);
  }
  if (s === "" || s.startsWith("_") || s.endsWith("_") || s.includes("__")) return invalid();
  s = s.replace(/_/g, "");
  if (b === 10 && !INT_LITERAL.test(s)) return invalid();
  s = s.toLowerCase();
  if (b !== 10 && !digitsOfBase(b).test(s)) return invalid();
  const value = digitsValue(s, b, ctx.budget);
  return normInt(sign < 0n ? -value : value);
}

/** How many digits of `base` (underscores between them aside) `s` starts with. */
function leadingDigits(s: string, base: number): number {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) | 0x20;
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x7a ? c - 0x57 : -1;
    if (d >= 0 && d < base) count++;
    else if (s.charCodeAt(i) !== 0x5f) break;
  }
  return count;
}

const DIGITS_OF_BASE: RegExp[] = [];

/** The lowercase digits of a base from 2 to 36, as one regular expression (a loop is 100 times slower). */
function digitsOfBase(base: number): RegExp {
  const top = base <= 10 ? `0-${base - 1}` : `0-9a-${String.fromCharCode(86 + base)}`;
  return (DIGITS_OF_BASE[base] ??= new RegExp(`^[${top}]+$`));
}

const PLAIN_FLOAT = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const FLOAT_TEXT = /^[+-]?((\d+(_\d+)*)?\.?(\d+(_\d+)*)?([eE][+-]?\d+(_\d+)*)?|inf(inity)?|nan)$/i;

/** float(x); its ValueError for a text that is no float is returned (see raising). */
function floatValue(_ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value | PyException {
  noKwargs("float", kwargs);
  if (args.length > 1) throw pyError("TypeError", `float expected at most 1 argument, got ${args.length}`);
  const x = args[0];
  if (x === undefined) return new PyFloat(0);
  if (x instanceof PyFloat) return x;
  if (typeof x === "number") return new PyFloat(x);
  if (typeof x === "boolean") return new PyFloat(x ? 1 : 0);
  if (typeof x === "bigint") {
    const f = Number(x);
    if (!Number.isFinite(f)) throw pyError("OverflowError", "int too large to convert to float");
    return new PyFloat(f);
  }
  if (typeof x === "string") {
    // Plain ASCII decimal text (the usual kind) is read by Number(), correctly rounded as CPython.
    if (PLAIN_FLOAT.test(x)) return new PyFloat(Number(x));
    const s = asciiDigits(x.trim());
    if (s === "" || !FLOAT_TEXT.test(s) || /^[+-]?\.?$/.test(s.replace(/[eE].*/, "")) && !/inf|nan/i.test(s)) {
      return pyError("ValueError", `could not convert string to float: ${reprOf(x)}`);
    }
    const lower = s.toLowerCase().replace(/_/g, "");
    if (lower.includes("nan")) return new PyFloat(NaN);
    if (lower.includes("inf")) return new PyFloat(lower.startsWith("-") ? -Infinity : Infinity);
    return new PyFloat(Number(lower));
  }
  throw pyError("TypeError", `float() argument must be a string or a real number, not '${typeName(x)}'`);
}

function toStr(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("str", kwargs);
  if (args.length > 1) throw pyError("TypeError", "str() with an encoding is not supported in the sandbox; use bytes.decode()");
  if (args.length === 0) return "";
  const x = args[0]!;
  if (typeof x === "string") return x;
  if (typeof x === "number") {
    // What strOf charges for a scalar, without making its charging closure.
    const s = String(x);
    ctx.budget.step((s.length + 1) >> TEXT_SHIFT);
    return s;
  }
  return waitable(reprPaced(x, textCharge(ctx.budget, TEXT_SHIFT), ctx, true));
}

function toList(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("list", kwargs);
  if (args.length > 1) throw pyError("TypeError", `list expected at most 1 argument, got ${args.length}`);
  // ctx.toList charges the items as it collects them; so does collectItems, waiting for each.
  if (args.length && lazy(args[0]!)) return waitable(after(collectItems(args[0]!, ctx.budget, ctx), (items: Value[]) => new PyList(items)));
  const items = args.length ? ctx.toList(args[0]!) : [];
  return new PyList(items);
}

function toTuple(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("tuple", kwargs);
  if (args.length > 1) throw pyError("TypeError", `tuple expected at most 1 argument, got ${args.length}`);
  if (!args.length) return EMPTY_TUPLE;
  if (args[0] instanceof PyTuple && args[0].cls === null) return args[0];
  if (lazy(args[0]!)) return waitable(after(collectItems(args[0]!, ctx.budget, ctx), (items: Value[]) => new PyTuple(items)));
  const items = ctx.toList(args[0]!);
  return new PyTuple(items);
}

function toSet(frozen: boolean): NativeFn {
  return (ctx, args, kwargs) => {
    const name = frozen ? "frozenset" : "set";
    noKwargs(name, kwargs);
    if (args.length > 1) throw pyError("TypeError", `${name} expected at most 1 argument, got ${args.length}`);
    const s = new PySet(frozen);
    if (args.length && lazy(args[0]!)) {
      // Item by item, as CPython: an unhashable item stops it there.
      const r = drainItems(
        args[0]!,
        (item) => {
          ctx.budget.step(1);
          hashOf(item, ctx.budget);
          ctx.budget.alloc(entrySize(item, null));
          s.add(item);
        },
        ctx,
      );
      return waitable(after(r, () => s));
    }
    if (args.length) {
      const items = ctx.toList(args[0]!);
      ctx.budget.alloc(MAP_ENTRY * items.length);
      for (const item of items) {
        hashOf(item);
        s.add(item);
      }
    }
    return s;
  };
}

function toDict(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  if (args.length > 1) throw pyError("TypeError", `dict expected at most 1 argument, got ${args.length}`);
  const d = new PyDict();
  const source = args[0];
  // A lazy source is taken pair by pair, paced: Pending while it gives the event loop a turn.
  return waitable(after(updateDict(ctx, d, source, kwargs, "dictionary"), () => d));
}

function toBool(_ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("bool", kwargs);
  if (args.length > 1) throw pyError("TypeError", `bool expected at most 1 argument, got ${args.length}`);
  return args.length ? truthy(args[0]!) : false;
}

function toBytes(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  const [source, encoding, errors] = bind("bytes", { names: ["source", "encoding", "errors"], required: 0 }, args, kwargs);
  for (const [name, v] of [["encoding", encoding], ["errors", errors]] as const) {
    if (v !== undefined && typeof v !== "string") throw pyError("TypeError", `bytes() argument '${name}' must be str, not ${typeName(v)}`);
  }
  if (source !== undefined && typeof source !== "string" && (encoding ?? errors) !== undefined) {
    throw pyError("TypeError", encoding !== undefined ? "encoding without a string argument" : "errors without a string argument");
  }
  if (source === undefined) return new PyBytes(new Uint8Array());
  if (typeof source === "string") {
    if (encoding === undefined) throw pyError("TypeError", "string argument without an encoding");
    ctx.budget.checkSize(source.length * 3);
    return new PyBytes(new TextEncoder().encode(source));
  }
  if (typeof source === "number") {
    if (source < 0) throw pyError("ValueError", "negative count");
    ctx.budget.alloc(source);
    return new PyBytes(new Uint8Array(source));
  }
  if (lazy(source)) {
    // Made item by item (a step and a byte each), paced, into a buffer that doubles as it fills.
    let out = new Uint8Array(64);
    let n = 0;
    const each = (v: Value) => {
      ctx.budget.step(1);
      if (n === out.length) {
        ctx.budget.alloc(out.length);
        const grown = new Uint8Array(2 * out.length);
        grown.set(out);
        out = grown;
      }
      out[n++] = byteOf(v);
    };
    return waitable(after(drainItems(source, each, ctx), () => new PyBytes(out.slice(0, n))));
  }
  return new PyBytes(Uint8Array.from(ctx.toList(source), byteOf));
}

/** An item of bytes(iterable): an int in range(0, 256). */
function byteOf(v: Value): number {
  const n = intArg("bytes", v);
  if (n < 0 || n > 255) throw pyError("ValueError", "bytes must be in range(0, 256)");
  return n;
}

function toRange(_ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("range", kwargs);
  if (args.length === 0) throw pyError("TypeError", "range expected at least 1 argument, got 0");
  if (args.length > 3) throw pyError("TypeError", `range expected at most 3 arguments, got ${args.length}`);
  const first = intArg("range", args[0]!);
  if (args.length === 1) return new PyRange(0, first, 1);
  const start = first;
  const stop = intArg("range", args[1]!);
  const step = args.length === 3 ? intArg("range", args[2]!) : 1;
  if (step === 0) throw pyError("ValueError", "range() arg 3 must not be zero");
  return new PyRange(start, stop, step);
}

// ------------------------------------------------------------------ types

function isNumberLike(v: Value): boolean {
  return isInt(v) || typeof v === "boolean";
}

export const TYPES: Record<string, PyType> = {
  int: new PyType("int", raising(intValue), isNumberLike),
  float: new PyType("float", raising(floatValue), (v) => v instanceof PyFloat),
  str: new PyType("str", toStr, (v) => typeof v === "string"),
  bool: new PyType("bool", toBool, (v) => typeof v === "boolean"),
  list: new PyType("list", toList, (v) => v instanceof PyList),
  tuple: new PyType("tuple", toTuple, (v) => v instanceof PyTuple),
  dict: new PyType("dict", toDict, (v) => v instanceof PyDict),
  set: new PyType("set", toSet(false), (v) => v instanceof PySet && !v.frozen),
  frozenset: new PyType("frozenset", toSet(true), (v) => v instanceof PySet && v.frozen),
  bytes: new PyType("bytes", toBytes, (v) => v instanceof PyBytes),
  range: new PyType("range", toRange, (v) => v instanceof PyRange),
};
TYPES.slice = new PyType(
  "slice",
  (_ctx, args, kwargs) => {
    noKwargs("slice", kwargs);
    if (args.length === 0) throw pyError("TypeError", "slice expected at least 1 argument, got 0");
    if (args.length > 3) throw pyError("TypeError", `slice expected at most 3 arguments, got ${args.length}`);
    return args.length === 1 ? new SliceValue(null, args[0]!, null) : new SliceValue(args[0]!, args[1]!, args[2] ?? null);
  },
  (v) => v instanceof SliceValue,
);
TYPES.type = new PyType(
  "type",
  (_ctx, args, kwargs) => {
    noKwargs("type", kwargs);
    return typeOf(args);
  },
  (v) => v instanceof PyType || v instanceof PyExcType,
);

/**
 * Static attributes of types: dict.fromkeys, str.maketrans... Maps, so that `dict.constructor`
 * finds nothing (a plain object would answer with JavaScript's Object).
 */
export const TYPE_ATTRIBUTES: ReadonlyMap<string, ReadonlyMap<string, NativeFn>> = new Map([
  ["dict", new Map([["fromkeys", (ctx, args) => dictFromKeys(ctx, args)]])],
  ["str", new Map([["maketrans", maketrans]])],
]);

const otherTypes = new Map<string, PyType>([["NoneType", NONE_TYPE]]);

/** type(x): the built-in type object, or a stand-in type named as Python names it. */
export function typeOf(args: Value[]): Value {
  if (args.length !== 1) throw pyError("TypeError", "type() takes 1 argument in the sandbox");
  const v = args[0]!;
  if (v instanceof PyException) return v.type;
  const cls = classOf(v);
  if (cls !== null) return cls;
  const name = typeName(v);
  const known = TYPES[name];
  if (known) return known;
  let t = otherTypes.get(name);
  if (!t) {
    t = new PyType(name, () => {
      throw pyError("TypeError", `cannot create '${name}' instances`);
    }, (x) => typeName(x) === name);
    otherTypes.set(name, t);
  }
  return t;
}

function isInstance(_ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("isinstance", kwargs);
  if (args.length !== 2) throw pyError("TypeError", `isinstance expected 2 arguments, got ${args.length}`);
  const [v, t] = args as [Value, Value];
  if (t instanceof PyType) return t.test(v);
  const check = (c: Value): boolean => {
    if (c instanceof PyType) return c.test(v);
    if (c instanceof PyExcType) return v instanceof PyException && v.type.isSubclassOf(c);
    if (c instanceof PyTuple) return c.items.some(check);
    // `int | str`, typing.List, typing.Optional[int] (generic-alias.ts, typing.ts).
    if (c instanceof PyInstance && c.pyInstanceCheck) return c.pyInstanceCheck(v, check);
    throw pyError("TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union");
  };
  return check(t);
}

// ------------------------------------------------------------------ iteration helpers

function minMax(which: "min" | "max"): NativeFn {
  return (ctx, args, kwargs) => {
    let key: Value = null;
    let fallback: Value | undefined;
    if (kwargs) {
      for (const [k, v] of kwargs) {
        if (k === "key") key = v;
        else if (k === "default") fallback = v;
        else throw pyError("TypeError", `${which}() got an unexpected keyword argument '${k}'`);
      }
    }
    if (args.length === 0) throw pyError("TypeError", `${which} expected at least 1 argument, got 0`);
    if (args.length === 1 && lazy(args[0]!)) return waitable(minMaxWaiting(ctx, which, args[0]!, key, fallback));
    let items: Value[];
    if (args.length === 1) items = ctx.toList(args[0]!);
    else {
      if (fallback !== undefined) throw pyError("TypeError", `Cannot specify a default for ${which}() with multiple positional arguments`);
      items = args;
    }
    if (items.length === 0) {
      if (fallback !== undefined) return fallback;
      throw pyError("ValueError", `${which}() arg is an empty sequence`);
    }
    // Charged before the comparisons, not after them.
    ctx.budget.step(items.length);
    let best = items[0]!;
    let bestKey = key === null ? best : ctx.call(key, [best]);
    for (let i = 1; i < items.length; i++) {
      const k = key === null ? items[i]! : ctx.call(key, [items[i]!]);
      // CPython asks `item < best` (min) or `item > best` (max): its TypeError names them so.
      if (compare(which === "min" ? "<" : ">", k, bestKey, ctx.budget)) {
        best = items[i]!;
        bestKey = k;
      }
    }
    return best;
  };
}

/**
 * min() or max() of an iterable whose items may wait: item by item, as CPython (each item's key
 * is taken, and compared, before the next item is asked for).
 */
function minMaxWaiting(ctx: NativeContext, which: "min" | "max", iterable: Value, key: Value, fallback: Value | undefined): Value | Pending {
  let best: Value | undefined;
  let bestKey: Value = null;
  // A key function is Python code, which must not run while the generator does.
  const r = (key === null ? drainItems : forEachItem)(
    iterable,
    (item) => {
      // What the collecting path charges: a step to take the item, one to compare it.
      ctx.budget.step(2);
      const k = key === null ? item : ctx.call(key, [item]);
      if (best === undefined || compare(which === "min" ? "<" : ">", k, bestKey, ctx.budget)) {
        best = item;
        bestKey = k;
      }
    },
    ctx,
  );
  return after(r, () => {
    if (best !== undefined) return best;
    if (fallback !== undefined) return fallback;
    throw pyError("ValueError", `${which}() arg is an empty sequence`);
  });
}

function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** round(x, n) for floats: half-even on the exact binary value, as CPython. */
function roundFloat(x: number, digits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (digits > 308) return x;
  if (digits < -308) return 0 * x;
  if (digits >= 0 && digits <= 15) {
    // toFixed rounds the exact binary value to the nearest n / 10^digits, as CPython does, and
    // differs only on an exact tie (it takes the larger n; CPython the even one). x * 10^digits,
    // off by at most a few units in its last place, is far from a half unless x may be a tie.
    // The n toFixed would give is then Math.round(y), and n / 10^digits, both exact doubles, is
    // divided correctly rounded: the double that toFixed's text reads as, without the text.
    const scale = 10 ** digits;
    const y = Math.abs(x) * scale;
    if (y < 2 ** 50 && Math.abs(y - Math.floor(y) - 0.5) > y * 2 ** -48) {
      const r = Math.round(y) / scale;
      return x < 0 ? -r : r;
    }
  }
  // x = n / den exactly, den a power of two.
  let [n, den] = floatRatio(x);
  const pow = 10n ** BigInt(Math.abs(digits));
  let scaledNum: bigint;
  let scaledDen: bigint;
  if (digits >= 0) {
    scaledNum = n * pow;
    scaledDen = den;
  } else {
    scaledNum = n;
    scaledDen = den * pow;
  }
  const negative = scaledNum < 0n;
  if (negative) scaledNum = -scaledNum;
  let q = scaledNum / scaledDen;
  const r = scaledNum % scaledDen;
  if (2n * r > scaledDen || (2n * r === scaledDen && q % 2n === 1n)) q += 1n;
  if (negative) q = -q;
  n = q;
  const text = digits >= 0 ? `${n}e-${digits}` : `${n}e${-digits}`;
  const result = Number(text);
  return result === 0 && (negative || Object.is(x, -0)) ? -0 : result;
}

function round(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  // round(x) and round(x, n), the usual calls, take their arguments as they are, without bind().
  const [x, nd] = kwargs === null && (args.length === 1 || args.length === 2) ? [args[0], args[1]] : bind("round", { names: ["number", "ndigits"], required: 1 }, args, kwargs);
  // An ndigits past any int's or float's digits (a bigint) answers as the largest double does:
  // the number unchanged, or rounded to 0 (CPython clips it for floats).
  const digits = nd === undefined || nd === null ? null : typeof nd === "bigint" ? (nd > 0n ? 2 ** 53 : -(2 ** 53)) : intArg("round", nd);
  const v = x!;
  if (isInt(v) || typeof v === "boolean") {
    const i = typeof v === "boolean" ? (v ? 1 : 0) : v;
    if (digits === null || digits >= 0) return i;
    const big = toBigInt(i);
    // |i| < 10 ** (k - 1) rounds to 0: no need to build 10 ** k, which may not fit in memory.
    const bits = bitLength(big);
    const k = -digits;
    if (k > Math.ceil(bits * Math.log10(2)) + 1) return 0;
    ctx.budget.step(roundIntSteps(bits, Math.ceil(k * Math.log2(10))));
    const pow = 10n ** BigInt(k);
    let q = big / pow;
    let r = big % pow;
    if (r < 0n) {
      r += pow;
      q -= 1n;
    }
    if (2n * r > pow || (2n * r === pow && q % 2n !== 0n)) q += 1n;
    return normInt(q * pow);
  }
  if (v instanceof PyFloat) {
    if (digits === null) {
      if (Number.isNaN(v.v)) throw pyError("ValueError", "cannot convert float NaN to integer");
      if (!Number.isFinite(v.v)) throw pyError("OverflowError", "cannot convert float infinity to integer");
      const r = roundHalfEven(v.v);
      return Number.isSafeInteger(r) ? (r === 0 ? 0 : r) : normInt(BigInt(r));
    }
    return new PyFloat(roundFloat(v.v, digits));
  }
  throw pyError("TypeError", `type ${typeName(v)} doesn't define __round__ method`);
}

/** round(i, -k) of an int of `bits`, with 10 ** k of `powBits` (no bigger than i, give or take a digit). */
function roundIntSteps(bits: number, powBits: number): number {
  return powSteps(10n, powBits) + 2 * divSteps(bits, powBits) + mulSteps(Math.max(0, bits - powBits), powBits);
}

function sum(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  const [iterable, start] = bind("sum", { names: ["iterable", "start"], required: 1, positionalOnly: 1 }, args, kwargs);
  let total: Value = start ?? 0;
  if (typeof total === "string") throw pyError("TypeError", "sum() can't sum strings [use ''.join(seq) instead]");
  if (total instanceof PyBytes) throw pyError("TypeError", "sum() can't sum bytes [use b''.join(seq) instead]");
  if (lazy(iterable!)) {
    const r = drainItems(
      iterable!,
      (item) => {
        ctx.budget.step(1);
        total = binary("+", total, item, ctx.budget);
      },
      ctx,
    );
    return waitable(after(r, () => total));
  }
  for (const item of ctx.toList(iterable!)) {
    total = binary("+", total, item, ctx.budget);
  }
  return total;
}

function absValue(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("abs", kwargs);
  if (args.length !== 1) throw pyError("TypeError", `abs() takes exactly one argument (${args.length} given)`);
  const v = args[0]!;
  if (typeof v === "number") return Math.abs(v);
  if (typeof v === "bigint") {
    if (v > 0n) return v;
    ctx.budget.step(linearSteps(bitLength(v)));
    return normInt(-v);
  }
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof PyFloat) return new PyFloat(Math.abs(v.v));
  if (v instanceof PyInstance && v.pyAbs) return v.pyAbs(ctx.budget);
  throw pyError("TypeError", `bad operand type for abs(): '${typeName(v)}'`);
}

/**
 * x such that a * x = 1 (mod m), for 0 <= a < m: pow(a, -1, m). Extended Euclid: each step's
 * division and multiply are charged before it (as math.gcd's are).
 */
function modularInverse(budget: Budget, a: bigint, m: bigint): bigint {
  let [r0, r1] = [a, m];
  let [x0, x1] = [1n, 0n];
  while (r1 !== 0n) {
    if (!Number.isFinite(Number(r0)) || !Number.isFinite(Number(r1))) {
      const bits = Math.max(bitLength(r0), bitLength(r1));
      budget.step(2 * divSteps(bits, bits) + linearSteps(bits));
    }
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [x0, x1] = [x1, x0 - q * x1];
  }
  if (r0 !== 1n) throw pyError("ValueError", "base is not invertible for the given modulus");
  return ((x0 % m) + m) % m;
}

function pow(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  const [base, exp, mod] = bind("pow", { names: ["base", "exp", "mod"], required: 2 }, args, kwargs);
  if (mod === undefined || mod === null) return binary("**", base!, exp!, ctx.budget);
  const integral = (v: Value) => isInt(v) || typeof v === "boolean";
  if (!integral(base!) || !integral(exp!) || !integral(mod)) {
    if ([base!, exp!, mod].every((v) => integral(v) || v instanceof PyFloat)) throw pyError("TypeError", "pow() 3rd argument not allowed unless all arguments are integers");
    throw pyError("TypeError", `unsupported operand type(s) for ** or pow(): '${typeName(base!)}', '${typeName(exp!)}', '${typeName(mod)}'`);
  }
  let b = toBigInt(base as number);
  let e = toBigInt(exp as number);
  let m = toBigInt(mod as number);
  if (m === 0n) throw pyError("ValueError", "pow() 3rd argument cannot be 0");
  // As CPython: work modulo |m|, and give a result with the sign of m.
  const negative = m < 0n;
  if (negative) m = -m;
  if (m === 1n) return 0;
  b = ((b % m) + m) % m;
  // Charged before the work: each bit of the exponent squares and maybe multiplies, modulo m.
  const mBits = bitLength(m);
  const perBit = 2 * (mulSteps(mBits, mBits) + divSteps(2 * mBits, mBits));
  if (e < 0n) {
    b = modularInverse(ctx.budget, b, m);
    e = -e;
  }
  ctx.budget.step(bitLength(e) * perBit);
  let result = 1n;
  while (e > 0n) {
    ctx.budget.step(1);
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  if (negative && result !== 0n) result -= m;
  return normInt(result);
}

function radix(name: string, prefix: string, base: number): NativeFn {
  return (ctx, args, kwargs) => {
    noKwargs(name, kwargs);
    if (args.length !== 1) throw pyError("TypeError", `${name}() takes exactly one argument (${args.length} given)`);
    const v = args[0]!;
    if (!isInt(v) && typeof v !== "boolean") throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
    const b = toBigInt(v);
    // Linear in the digits for these bases (CPython does not limit them).
    const bits = bitLength(b);
    ctx.budget.checkSize((2 * bits) / Math.log2(base));
    ctx.budget.step(radixSteps(bits));
    return (b < 0n ? "-" : "") + prefix + (b < 0n ? -b : b).toString(base);
  };
}

function enumerate(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  const [iterable, start] = bind("enumerate", { names: ["iterable", "start"], required: 1 }, args, kwargs);
  // The count is an int: a bool start counts from 0 or 1, anything else is refused, as CPython does.
  let i: Value = start === undefined ? 0 : typeof start === "boolean" ? Number(start) : start;
  if (typeof i !== "number" && typeof i !== "bigint") throw pyError("TypeError", `'${typeName(i)}' object cannot be interpreted as an integer`);
  const pair = (v: Value): Value => {
    ctx.budget.step(1);
    const t = new PyTuple([i, v]);
    i = typeof i === "number" && i < Number.MAX_SAFE_INTEGER ? i + 1 : binary("+", i, 1, ctx.budget);
    return t;
  };
  const { next, step } = cursors([iterable!], ([input]) => () => mapItem(input!(), pair));
  return iterator(next, "enumerate", 2, [iterable!], false, step);
}

function zip(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  let strict = false;
  if (kwargs) {
    for (const [k, v] of kwargs) {
      if (k !== "strict") throw pyError("TypeError", `zip() got an unexpected keyword argument '${k}'`);
      strict = truthy(v);
    }
  }
  if (args.length === 0) return iterator(() => DONE, "zip", 1, args);
  let finished = false;
  // Each row is collected here, then copied into a tuple of its exact size (an array grown by
  // push keeps room for 17 items: 152 bytes for a pair).
  const row: Value[] = args.map(() => null);
  const { next, step } = cursors(args, (inputs) => {
    /** Fills the row from its `i`th item. */
    const fill = (i: number): Value | typeof DONE | Pending => {
      for (; i < inputs.length; i++) {
        const v = inputs[i]!();
        if (v === DONE) return ended(i);
        if (v instanceof Pending) {
          const k = i;
          return v.then((x: Value | typeof DONE) => {
            if (x === DONE) return ended(k);
            row[k] = x;
            return fill(k + 1);
          });
        }
        row[i] = v;
      }
      ctx.budget.step(1);
      return new PyTuple(row.slice());
    };
    /** Input `i` ran out first: with strict, the others must be exhausted too (CPython asks each in turn). */
    const ended = (i: number): typeof DONE | Pending => {
      finished = true;
      if (!strict) return DONE;
      if (i > 0) throw pyError("ValueError", `zip() argument ${i + 1} is shorter than argument${i > 1 ? `s 1-${i}` : " 1"}`);
      const check = (j: number): typeof DONE | Pending => {
        for (; j < inputs.length; j++) {
          const v = inputs[j]!();
          if (v instanceof Pending) {
            const k = j;
            return v.then((x: Value | typeof DONE) => (x === DONE ? check(k + 1) : longer(k)));
          }
          if (v !== DONE) return longer(j);
        }
        return DONE;
      };
      return check(1);
    };
    const longer = (j: number): never => {
      throw pyError("ValueError", `zip() argument ${j + 1} is longer than argument${j > 1 ? `s 1-${j}` : " 1"}`);
    };
    return () => (finished ? DONE : fill(0));
  });
  return iterator(next, "zip", args.length + 2, args, false, step);
}

function map(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("map", kwargs);
  if (args.length < 2) throw pyError("TypeError", "map() must have at least two arguments.");
  const fn = args[0]!;
  const sources = args.slice(1);
  const { next, step } = cursors(sources, (inputs) => {
    /** Adds the items from the `i`th input to `row`, then calls the function on them. */
    const fill = (row: Value[], i: number): Value | typeof DONE | Pending => {
      for (; i < inputs.length; i++) {
        const v = inputs[i]!();
        if (v === DONE) return DONE;
        if (v instanceof Pending) {
          const k = i;
          return v.then((x: Value | typeof DONE) => {
            if (x === DONE) return DONE;
            row.push(x);
            return fill(row, k + 1);
          });
        }
        row.push(v);
      }
      ctx.budget.step(1);
      return ctx.call(fn, row);
    };
    return () => fill([], 0);
  });
  return iterator(next, "map", sources.length + 2, sources, false, step);
}

function filter(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("filter", kwargs);
  if (args.length !== 2) throw pyError("TypeError", `filter expected 2 arguments, got ${args.length}`);
  const [fn, iterable] = args as [Value, Value];
  const keep = (v: Value): boolean => {
    ctx.budget.step(1);
    return truthy(fn === null ? v : ctx.call(fn, [v]));
  };
  const { next, step } = skippingCursors([iterable], ctx, ([input], passed) => {
    const find = (): Value | typeof DONE | Pending => {
      for (;;) {
        const v = input!();
        if (v === DONE) return DONE;
        if (v instanceof Pending) return v.then((x: Value | typeof DONE) => (x === DONE ? DONE : keep(x) ? x : find()));
        if (keep(v)) return v;
        const paused = passed();
        if (paused !== null) return paused.then(find);
      }
    };
    return find;
  });
  return iterator(next, "filter", 2, [iterable], false, step);
}

function reversed(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("reversed", kwargs);
  if (args.length !== 1) throw pyError("TypeError", `reversed expected 1 argument, got ${args.length}`);
  const v = args[0]!;
  // Only sequences (and dicts and their views) can be reversed.
  if (v instanceof PyInstance && v.pyReversed) return iterator(v.pyReversed(), "reversed", 1, []);
  const reversible = typeof v === "string" || v instanceof PyList || v instanceof PyTuple || v instanceof PyRange || v instanceof PyDict || v instanceof PyBytes || v instanceof PyDictView;
  if (!reversible) throw pyError("TypeError", `'${typeName(v)}' object is not reversible`);
  // A copy, charged as it is made.
  const items = ctx.toList(v);
  let i = items.length;
  return iterator(() => (i > 0 ? items[--i]! : DONE), "reversed", 1, [], true);
}

const NO_SORT_ARGS: readonly (Value | undefined)[] = [undefined, undefined];

function sorted(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  if (args.length !== 1) throw pyError("TypeError", `sorted expected 1 argument, got ${args.length}`);
  // sorted(x), the usual call, binds nothing.
  const [key, reverse] = kwargs === null ? NO_SORT_ARGS : bind("sorted", { names: ["key", "reverse"], required: 0 }, [], kwargs);
  const sort = (items: Value[]): Value => new PyList(sortValues(ctx, items, key ?? null, reverseArg(reverse)));
  if (lazy(args[0]!)) return waitable(after(collectItems(args[0]!, ctx.budget, ctx), sort));
  return sort(ctx.toList(args[0]!));
}

function anyAll(which: "any" | "all"): NativeFn {
  return (ctx, args, kwargs) => {
    noKwargs(which, kwargs);
    if (args.length !== 1) throw pyError("TypeError", `${which}() takes exactly one argument (${args.length} given)`);
    if (lazy(args[0]!)) {
      // Item by item, waiting for each, up to the first that decides.
      let answer = which === "all";
      const r = drainItems(
        args[0]!,
        (v) => {
          ctx.budget.step(1);
          if (truthy(v) !== (which === "any")) return false;
          answer = which === "any";
          return true;
        },
        ctx,
      );
      return waitable(after(r, () => answer));
    }
    const next = iterate(args[0]!);
    for (let v = next(); v !== DONE; v = next()) {
      ctx.budget.step(1);
      if (truthy(v) === (which === "any")) return which === "any";
    }
    return which === "all";
  };
}

function print(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  let sep = " ";
  let end = "\n";
  if (kwargs) {
    for (const [k, v] of kwargs) {
      if (k === "sep") sep = v === null ? " " : strArg("print", v, "sep");
      else if (k === "end") end = v === null ? "\n" : strArg("print", v, "end");
      else if (k === "flush" || k === "file") continue;
      else throw pyError("TypeError", `'${k}' is an invalid keyword argument for print()`);
    }
  }
  const charge = textCharge(ctx.budget, TEXT_SHIFT);
  const texts: string[] = [];
  const write = (): null => {
    const text = texts.join(sep) + end;
    ctx.budget.step(1 + (text.length >> 4));
    ctx.write(text);
    return null;
  };
  // Each argument in turn: a long list's text may pause (reprPaced), the others are made at once.
  const next = (from: number): Value => {
    for (let i = from; i < args.length; i++) {
      const text = reprPaced(args[i]!, charge, ctx, true);
      if (typeof text !== "string") return waitable(text.then((t: string) => (texts.push(t), next(i + 1))));
      texts.push(text);
    }
    return write();
  };
  return next(0);
}

function getattr(rt: AttributeAccess): NativeFn {
  return (_ctx, args, kwargs) => {
    noKwargs("getattr", kwargs);
    if (args.length < 2) throw pyError("TypeError", `getattr expected at least 2 arguments, got ${args.length}`);
    if (args.length > 3) throw pyError("TypeError", `getattr expected at most 3 arguments, got ${args.length}`);
    const name = args[1];
    if (typeof name !== "string") throw pyError("TypeError", `attribute name must be string, not '${typeName(name!)}'`);
    try {
      return rt.getAttr(args[0]!, name);
    } catch (e) {
      if (args.length === 3 && e instanceof PyException && e.type === EXC.AttributeError) return args[2]!;
      throw e;
    }
  };
}

export interface AttributeAccess {
  getAttr(obj: Value, name: string): Value;
}

function next(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("next", kwargs);
  if (args.length < 1) throw pyError("TypeError", `next expected at least 1 argument, got ${args.length}`);
  if (args.length > 2) throw pyError("TypeError", `next expected at most 2 arguments, got ${args.length}`);
  const it = args[0]!;
  if (!(it instanceof PyIterator)) throw pyError("TypeError", `'${typeName(it)}' object is not an iterator`);
  const got = (v: Value | typeof DONE): Value => {
    ctx.budget.step(1);
    if (v === DONE) {
      if (args.length === 2) return args[1]!;
      throw new PyException(EXC.StopIteration, []);
    }
    return v;
  };
  // A generator expression's item may have to wait.
  const v = stepIterator(it);
  return v instanceof Pending ? waitable(v.then(got)) : got(v);
}

function iter(_ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("iter", kwargs);
  if (args.length !== 1) throw pyError("TypeError", `iter expected 1 argument, got ${args.length}`);
  if (args[0] instanceof PyIterator) return args[0];
  const v = args[0]!;
  // What it yields exists already, but for the pairs of dict.items(), made as it goes.
  const paid = !(v instanceof PyDictView && v.kind === "items");
  return iterator(iterate(v), `${typeName(v)}_iterator`, 1, args, paid);
}

function hashBuiltin(ctx: NativeContext, args: Value[]): Value {
  if (args.length !== 1) throw pyError("TypeError", `hash() takes exactly one argument (${args.length} given)`);
  const v = args[0]!;
  const k = hashOf(v);
  if (typeof k === "number") return Number.isInteger(k) ? k : Math.trunc(k * 2 ** 20) | 0;
  // A big int (or an integral float past 2**53) hashes as CPython's int: modulo 2**61 - 1.
  const big = typeof v === "bigint" ? v : v instanceof PyFloat && Number.isInteger(v.v) ? BigInt(v.v) : null;
  if (big !== null) {
    // A division by a one-word number: linear in the int, but slow per word.
    ctx.budget.step(divSteps(bitLength(big), 61));
    return normInt(big % 2305843009213693951n);
  }
  const text = String(k);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h | 0;
}

function callable(_ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("callable", kwargs);
  if (args.length !== 1) throw pyError("TypeError", `callable() takes exactly one argument (${args.length} given)`);
  return isCallable(args[0]!);
}

/** CPython's callable(): functions, built-ins, methods, types, tools and instances with a call hook. */
export function isCallable(v: Value): boolean {
  return (
    v instanceof PyFunction ||
    v instanceof PyBuiltin ||
    v instanceof PyBoundMethod ||
    v instanceof PyType ||
    v instanceof PyExcType ||
    v instanceof HostCallable ||
    (v instanceof PyInstance && v.pyCall !== undefined)
  );
}

function divmod(ctx: NativeContext, args: Value[]): Value {
  if (args.length !== 2) throw pyError("TypeError", `divmod expected 2 arguments, got ${args.length}`);
  const [a, b] = args as [Value, Value];
  const numeric = (v: Value) => typeof v === "number" || typeof v === "bigint" || typeof v === "boolean" || v instanceof PyFloat;
  if (classOf(a) !== null || classOf(b) !== null) {
    const r = instanceBinary("divmod", a, b, ctx.budget);
    if (r !== NOT_HANDLED) return r;
  }
  if (!numeric(a) || !numeric(b)) throw pyError("TypeError", `unsupported operand type(s) for divmod(): '${typeName(a)}' and '${typeName(b)}'`);
  if ((a instanceof PyFloat || b instanceof PyFloat) && (b === 0 || b === 0n || b === false || (b instanceof PyFloat && b.v === 0))) {
    throw pyError("ZeroDivisionError", "float divmod()");
  }
  return new PyTuple([binary("//", args[0]!, args[1]!, ctx.budget), binary("%", args[0]!, args[1]!, ctx.budget)]);
}

function chr(_ctx: NativeContext, args: Value[]): Value {
  if (args.length !== 1) throw pyError("TypeError", `chr() takes exactly one argument (${args.length} given)`);
  const code = args[0];
  // An ASCII or BMP code point below the surrogates, the usual case.
  if (typeof code === "number" && code >= 0 && code < 0xd800 && Number.isInteger(code)) return String.fromCharCode(code);
  const n = typeof args[0] === "bigint" ? Infinity : intArg("chr", args[0]!);
  if (n > 2 ** 31 - 1 || n < -(2 ** 31)) throw pyError("OverflowError", "Python int too large to convert to C int");
  if (n < 0 || n > 0x10ffff) throw pyError("ValueError", "chr() arg not in range(0x110000)");
  return String.fromCodePoint(n);
}

function ord(_ctx: NativeContext, args: Value[]): Value {
  if (args.length !== 1) throw pyError("TypeError", `ord() takes exactly one argument (${args.length} given)`);
  const v = args[0]!;
  if (typeof v === "string") {
    if (cpLength(v) !== 1) throw pyError("TypeError", `ord() expected a character, but string of length ${cpLength(v)} found`);
    return v.codePointAt(0)!;
  }
  if (v instanceof PyBytes && v.bytes.length === 1) return v.bytes[0]!;
  throw pyError("TypeError", `ord() expected string of length 1, but ${typeName(v)} found`);
}

function fail(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  const sep = kwargs?.get("sep");
  const text = args.map((a) => strOf(a)).join(typeof sep === "string" ? sep : " ");
  void ctx;
  throw pyError("RuntimeError", text);
}

function lenBuiltin(_ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  noKwargs("len", kwargs);
  if (args.length !== 1) throw pyError("TypeError", `len() takes exactly one argument (${args.length} given)`);
  return lengthOf(args[0]!);
}

function one(name: string, fn: (ctx: NativeContext, v: Value) => Value): NativeFn {
  return (ctx, args, kwargs) => {
    noKwargs(name, kwargs);
    if (args.length !== 1) throw pyError("TypeError", `${name}() takes exactly one argument (${args.length} given)`);
    return fn(ctx, args[0]!);
  };
}

/** The builtins namespace of one execution. */
export function makeBuiltins(rt: AttributeAccess): Map<string, Value> {
  const fns: Record<string, NativeFn> = {
    print,
    len: lenBuiltin,
    enumerate,
    zip,
    sorted,
    reversed,
    min: minMax("min"),
    max: minMax("max"),
    sum,
    any: anyAll("any"),
    all: anyAll("all"),
    abs: absValue,
    round,
    isinstance: isInstance,
    repr: one("repr", (ctx, v) => waitable(reprPaced(v, textCharge(ctx.budget, TEXT_SHIFT), ctx))),
    ascii: one("ascii", (ctx, v) => ascii(v, textCharge(ctx.budget, TEXT_SHIFT))),
    format: (ctx, args, kwargs) => {
      const [v, spec] = bind("format", { names: ["value", "format_spec"], required: 1 }, args, kwargs);
      return formatValue(ctx, v!, spec === undefined ? "" : strArg("format", spec, "argument 2"));
    },
    map,
    filter,
    divmod,
    pow,
    chr,
    ord,
    hex: radix("hex", "0x", 16),
    oct: radix("oct", "0o", 8),
    bin: radix("bin", "0b", 2),
    hash: hashBuiltin,
    getattr: getattr(rt),
    hasattr: (ctx, args, kwargs) => {
      if (args.length !== 2) throw pyError("TypeError", `hasattr expected 2 arguments, got ${args.length}`);
      try {
        getattr(rt)(ctx, args, kwargs);
        return true;
      } catch (e) {
        if (e instanceof PyException && e.type === EXC.AttributeError) return false;
        throw e;
      }
    },
    iter,
    next,
    callable,
    fail,
  };
  const out = new Map<string, Value>();
  for (const [name, fn] of Object.entries(fns)) out.set(name, new PyBuiltin(name, fn));
  for (const [name, t] of Object.entries(TYPES)) out.set(name, t);
  for (const [name, t] of Object.entries(EXC)) out.set(name, t);
  out.set("Ellipsis", null);
  out.delete("Ellipsis");
  return out;
}

export { equals, unary, PyCoroutine, PyModule, PyObject, HostObject };
