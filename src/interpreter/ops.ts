// Python's operators on sandbox values: arithmetic with exact ints, comparisons, containment,
// indexing and slicing, iteration. Errors carry CPython's messages.
import { bitLength, divSteps, intBits, linearOpSteps, linearSteps, mulSteps, powSteps, sizeBits } from "./bigint-cost.js";
import type { Budget } from "./budget.js";
import { EXC, PyExcType, pyError, PyException } from "./errors.js";
import { DONE, PyDictView, PyIterator, PyType } from "./objects.js";
import { subscriptType, typeUnion } from "./generic-alias.js";
import { classOf, dictHooks, instanceBinary, instanceCompare, instanceEquals, instanceUnary, NOT_HANDLED, type Operator, PyInstance } from "./instance.js";
import { repr } from "./repr.js";
import { entrySize, HEAP_NUMBER, MAP_ENTRY, SLOT, storedSize } from "./sizes.js";
import { cpAt, cpChars, cpIterate, cpLength, cpSlice, isSimple, sliceIndices } from "./strings.js";
import {
  EMPTY_TUPLE,
  hashKey,
  isOwnHashKey,
  MAX_OWN_KEY,
  takeKeyWork,
  normInt,
  PyObject,
  PyBytes,
  PyDict,
  PyFloat,
  PyList,
  PyRange,
  PySet,
  PyTuple,
  toBigInt,
  typeName,
  UnhashableError,
  type Value,
} from "./values.js";

// ------------------------------------------------------------------ numbers

type IntLike = number | bigint | boolean;

function isIntLike(v: Value): v is IntLike {
  return typeof v === "number" || typeof v === "bigint" || typeof v === "boolean";
}

function asNumber(v: IntLike): number {
  return typeof v === "boolean" ? (v ? 1 : 0) : (v as number);
}

/** A float view of any number (int, bool, float), or null. */
function toFloat(v: Value): number | null {
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") {
    const f = Number(v);
    if (!Number.isFinite(f)) throw pyError("OverflowError", "int too large to convert to float");
    return f;
  }
  return null;
}

const SMALL = 2 ** 31;

function intAdd(a: IntLike, b: IntLike, budget: Budget): number | bigint {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    return Number.isSafeInteger(r) ? r : normInt(BigInt(a) + BigInt(b));
  }
  const x = toBigInt(a);
  const y = toBigInt(b);
  budget.step(linearOpSteps(x, y));
  return normInt(x + y);
}

function intSub(a: IntLike, b: IntLike, budget: Budget): number | bigint {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    return Number.isSafeInteger(r) ? r : normInt(BigInt(a) - BigInt(b));
  }
  const x = toBigInt(a);
  const y = toBigInt(b);
  budget.step(linearOpSteps(x, y));
  return normInt(x - y);
}

/** a & b, a | b, a ^ b of ints at least one of which is beyond 32 bits. */
function bitwise(op: "&" | "|" | "^", a: IntLike, b: IntLike, budget: Budget): number | bigint {
  const x = toBigInt(a);
  const y = toBigInt(b);
  budget.step(linearOpSteps(x, y));
  return normInt(op === "&" ? x & y : op === "|" ? x | y : x ^ y);
}

function intMul(a: IntLike, b: IntLike, budget: Budget): number | bigint {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (Number.isSafeInteger(r)) return r === 0 ? 0 : r;
    return normInt(BigInt(a) * BigInt(b));
  }
  const x = toBigInt(a);
  const y = toBigInt(b);
  const xBits = sizeBits(x);
  const yBits = sizeBits(y);
  budget.checkSize((xBits + yBits) / 8);
  budget.step(mulSteps(xBits, yBits));
  return normInt(x * y);
}

/** Charges a // b or a % b of ints, by their sizes, before it is computed. */
function chargeDivision(x: bigint, y: bigint, budget: Budget): void {
  if (Number.isFinite(Number(x))) return;
  budget.step(divSteps(bitLength(x), bitLength(y)));
}

function floorDivInt(a: IntLike, b: IntLike, budget: Budget): number | bigint {
  if (typeof a === "number" && typeof b === "number" && Math.abs(a) < SMALL && Math.abs(b) < SMALL) {
    if (b === 0) throw pyError("ZeroDivisionError", "integer division or modulo by zero");
    // + 0 turns JS's -0 (from 0 / -1) into the int 0.
    return Math.floor(a / b) + 0;
  }
  const x = toBigInt(a);
  const y = toBigInt(b);
  if (y === 0n) throw pyError("ZeroDivisionError", "integer division or modulo by zero");
  chargeDivision(x, y, budget);
  let q = x / y;
  if ((x % y !== 0n) && ((x < 0n) !== (y < 0n))) q -= 1n;
  return normInt(q);
}

function modInt(a: IntLike, b: IntLike, budget: Budget): number | bigint {
  if (typeof a === "number" && typeof b === "number") {
    if (b === 0) throw pyError("ZeroDivisionError", "integer modulo by zero");
    const r = a % b;
    return r !== 0 && r < 0 !== b < 0 ? r + b : r === 0 ? 0 : r;
  }
  const x = toBigInt(a);
  const y = toBigInt(b);
  if (y === 0n) throw pyError("ZeroDivisionError", "integer modulo by zero");
  chargeDivision(x, y, budget);
  const r = x % y;
  return normInt(r !== 0n && r < 0n !== y < 0n ? r + y : r);
}

function floatMod(a: number, b: number): number {
  if (b === 0) throw pyError("ZeroDivisionError", "float modulo");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
}

/** CPython's float floor division: via fmod, so that a == b * (a // b) + a % b holds closely. */
function floatFloorDiv(a: number, b: number): number {
  if (b === 0) throw pyError("ZeroDivisionError", "float floor division by zero");
  let mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0) {
    if (b < 0 !== mod < 0) {
      mod += b;
      div -= 1;
    }
  }
  // A zero quotient takes the sign of a / b, as CPython's copysign(0.0, a / b) gives it.
  if (div === 0) return a / b < 0 || Object.is(a / b, -0) ? -0 : 0;
  let floor = Math.floor(div);
  if (div - floor > 0.5) floor += 1;
  return floor;
}

function intPow(a: IntLike, b: IntLike, budget: Budget): Value {
  if (typeof a === "number" && typeof b === "number" && b >= 0 && a > -2147483648 && a < 2147483648) {
    // The same charges as below, with the base's bit length from clz32, and no BigInt at all
    // when the power is a safe integer (2 ** 10, i ** 2).
    if (a === 0 || a === 1) return b === 0 ? 1 : a;
    if (a === -1) return b % 2 === 0 ? 1 : -1;
    const bits = b * (32 - Math.clz32(Math.abs(a)));
    budget.checkSize(bits / 8);
    budget.step(Math.ceil(bits / 64) + powSteps(BigInt(a), bits));
    const r = Math.pow(a, b);
    if (Number.isSafeInteger(r)) return r;
    return normInt(BigInt(a) ** BigInt(b));
  }
  const base = toBigInt(a);
  const exp = toBigInt(b);
  if (exp < 0n) {
    const fb = Number(base);
    if (fb === 0) throw pyError("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    return floatPow(fb, Number(exp));
  }
  if (base === 0n || base === 1n) return exp === 0n ? 1 : Number(base);
  if (base === -1n) return exp % 2n === 0n ? 1 : -1;
  // Charge the result's size and the work before computing it: 2 ** 10**9 fails here, instantly.
  const bits = Number(exp) * bitLength(base);
  budget.checkSize(bits / 8);
  budget.step(Math.ceil(bits / 64) + powSteps(base, bits));
  if (typeof a === "number" && typeof b === "number") {
    const r = Math.pow(a, b);
    if (Number.isSafeInteger(r)) return r;
  }
  return normInt(base ** exp);
}

function floatPow(a: number, b: number): PyFloat {
  if (a === 0 && b < 0) throw pyError("ZeroDivisionError", "0.0 cannot be raised to a negative power");
  if (a < 0 && !Number.isInteger(b) && Number.isFinite(b)) {
    throw pyError("ValueError", "complex results are not supported in the sandbox");
  }
  const r = Number.isInteger(b) && Math.abs(b) <= 1100 && Number.isFinite(a) && a !== 0 ? exactPow(a, b) : Math.pow(a, b);
  if (!Number.isFinite(r) && Number.isFinite(a) && Number.isFinite(b)) {
    // CPython's is an errno pair: OverflowError(34, 'Numerical result out of range').
    throw new PyException(EXC.OverflowError, [34, "Numerical result out of range"]);
  }
  return new PyFloat(r);
}

/**
 * a ** n for an integer n, correctly rounded (as the C library's pow is, in practice). V8's
 * Math.pow is not: `10 ** 23` and `7 ** -2` come out one unit off.
 */
function exactPow(a: number, n: number): number {
  // One IEEE operation is correctly rounded already.
  if (n === 0) return 1;
  if (n === 1) return a;
  if (n === 2) return a * a;
  if (n === -1) return 1 / a;
  // Small integer powers of integers are exact in doubles.
  if (Number.isInteger(a) && n > 0 && Math.abs(a) ** n < 2 ** 53) {
    let r = 1;
    for (let i = 0; i < n; i++) r *= a;
    return r;
  }
  // |a| = m * 2^exp exactly, so |a|^n = m^n * 2^(exp * n).
  const [m, exp] = decompose(Math.abs(a));
  const power = BigInt(m) ** BigInt(Math.abs(n));
  const shift = exp * n;
  const r =
    n > 0
      ? shift >= 0 ? ratioToFloat(power << BigInt(shift), 1n) : ratioToFloat(power, 1n << BigInt(-shift))
      : shift >= 0 ? ratioToFloat(1n << BigInt(shift), power) : ratioToFloat(1n, power << BigInt(-shift));
  return a < 0 && n % 2 !== 0 ? -r : r;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/** A finite x > 0 as an integer significand and a power of two: x = m * 2^exp. */
function decompose(x: number): [number, number] {
  F64[0] = x;
  const hi = U32[1]!;
  const biased = (hi >>> 20) & 0x7ff;
  const fraction = (hi & 0xfffff) * 2 ** 32 + U32[0]!;
  return biased === 0 ? [fraction, -1074] : [fraction + 2 ** 52, biased - 1075];
}

/** The bit length of a positive bigint, maybe one too many or too few (cheap for huge ones). */
function roughBitLength(x: bigint): number {
  const f = Number(x);
  return Number.isFinite(f) ? Math.floor(Math.log2(f)) + 1 : bitLength(x);
}

/**
 * The float nearest to n / d (d > 0; ties to even), Infinity when it overflows: the rounding
 * CPython gives int / int, computed from 55 quotient bits and a sticky bit.
 */
export function ratioToFloat(n: bigint, d: bigint): number {
  if (n === 0n) return 0;
  const negative = n < 0n;
  const a = negative ? -n : n;
  // a / d lies within [2^(e-3), 2^(e+3)): scale it to at least 55 bits, or to units of 2^-1076.
  const e = roughBitLength(a) - roughBitLength(d);
  const k = Math.min(58 - e, 1076);
  const num = k >= 0 ? a << BigInt(k) : a;
  const den = k >= 0 ? d : d << BigInt(-k);
  let q = num / den;
  if (num % den !== 0n) q |= 1n;
  const drop = Math.max(bitLength(q) - 53, 2);
  let m = q >> BigInt(drop);
  const rest = q & ((1n << BigInt(drop)) - 1n);
  const half = 1n << BigInt(drop - 1);
  if (rest > half || (rest === half && (m & 1n) === 1n)) m += 1n;
  const r = Number(m) * 2 ** (drop - k);
  return negative ? -r : r;
}

function shift(a: IntLike, b: IntLike, left: boolean, budget: Budget): number | bigint {
  const x = toBigInt(a);
  const n = toBigInt(b);
  if (n < 0n) throw pyError("ValueError", "negative shift count");
  // A number's bit length without building its hex text (i >> 1 in a loop stays cheap).
  const bits = typeof a === "bigint" ? sizeBits(a) : intBits(a);
  if (left) {
    budget.checkSize((bits + Number(n)) / 8);
    budget.step(linearSteps(bits + Number(n)));
    return normInt(x << n);
  }
  budget.step(linearSteps(Math.max(0, bits - Number(n))));
  return normInt(x >> n);
}

// ------------------------------------------------------------------ binary operators

export type BinaryOp = "+" | "-" | "*" | "/" | "//" | "%" | "**" | "<<" | ">>" | "&" | "|" | "^" | "@";

function unsupported(op: string, a: Value, b: Value): PyException {
  const shown = op === "**" ? "** or pow()" : op;
  return pyError("TypeError", `unsupported operand type(s) for ${shown}: '${typeName(a)}' and '${typeName(b)}'`);
}

/**
 * The error of a failed augmented assignment `a op= b`: CPython names the in-place operator
 * (`unsupported operand type(s) for +=: 'int' and 'str'`). Other errors pass unchanged.
 */
export function inplaceError(e: unknown, op: BinaryOp): unknown {
  if (!(e instanceof PyException) || e.args.length !== 1 || typeof e.args[0] !== "string") return e;
  const prefix = `unsupported operand type(s) for ${op === "**" ? "** or pow()" : op}:`;
  if (!e.args[0].startsWith(prefix)) return e;
  const renamed = new PyException(e.type, [`unsupported operand type(s) for ${op}=:${e.args[0].slice(prefix.length)}`]);
  renamed.traceback = e.traceback;
  return renamed;
}

/** Python's `a op b`. `budget` pays for sizes of new strings, lists and big ints. */
export function binary(op: BinaryOp, a: Value, b: Value, budget: Budget, format?: (t: string, args: Value) => string): Value {
  // The common cases first: two small ints, and str concatenation (`text += piece`).
  if (typeof a === "string") {
    if (typeof b === "string" && op === "+") {
      budget.checkSize(2 * (a.length + b.length));
      return a + b;
    }
    return sequenceBinary(op, a, b, budget, format);
  }
  if (typeof a === "number" && typeof b === "number") {
    switch (op) {
      case "+": {
        const r = a + b;
        return Number.isSafeInteger(r) ? r : normInt(BigInt(a) + BigInt(b));
      }
      case "-": {
        const r = a - b;
        return Number.isSafeInteger(r) ? r : normInt(BigInt(a) - BigInt(b));
      }
      case "*":
        return intMul(a, b, budget);
    }
  }
  if (isIntLike(a) && isIntLike(b)) {
    switch (op) {
      case "+":
        return intAdd(a, b, budget);
      case "-":
        return intSub(a, b, budget);
      case "*":
        return intMul(a, b, budget);
      case "/": {
        if ((typeof b === "boolean" ? b : b !== 0 && b !== 0n) === false) throw pyError("ZeroDivisionError", "division by zero");
        if (typeof a === "bigint" || typeof b === "bigint") return new PyFloat(bigTrueDiv(toBigInt(a), toBigInt(b), budget));
        return new PyFloat(asNumber(a) / asNumber(b));
      }
      case "//":
        return floorDivInt(a, b, budget);
      case "%":
        return modInt(a, b, budget);
      case "**":
        return intPow(a, b, budget);
      case "<<":
        return shift(a, b, true, budget);
      case ">>":
        return shift(a, b, false, budget);
      case "&":
        if (typeof a === "boolean" && typeof b === "boolean") return a && b;
        return typeof a === "number" && typeof b === "number" && Math.abs(a) < SMALL && Math.abs(b) < SMALL ? a & b : bitwise("&", a, b, budget);
      case "|":
        if (typeof a === "boolean" && typeof b === "boolean") return a || b;
        return typeof a === "number" && typeof b === "number" && Math.abs(a) < SMALL && Math.abs(b) < SMALL ? a | b : bitwise("|", a, b, budget);
      case "^":
        if (typeof a === "boolean" && typeof b === "boolean") return a !== b;
        return typeof a === "number" && typeof b === "number" && Math.abs(a) < SMALL && Math.abs(b) < SMALL ? a ^ b : bitwise("^", a, b, budget);
    }
    throw unsupported(op, a, b);
  }
  const fa = a instanceof PyFloat || isIntLike(a) ? toFloat(a) : null;
  const fb = b instanceof PyFloat || isIntLike(b) ? toFloat(b) : null;
  if (fa !== null && fb !== null) {
    switch (op) {
      // Float arithmetic overflows to inf, as in CPython; only ** raises OverflowError.
      case "+":
        return new PyFloat(fa + fb);
      case "-":
        return new PyFloat(fa - fb);
      case "*":
        return new PyFloat(fa * fb);
      case "/":
        if (fb === 0) throw pyError("ZeroDivisionError", "float division by zero");
        return new PyFloat(fa / fb);
      case "//":
        return new PyFloat(floatFloorDiv(fa, fb));
      case "%":
        return new PyFloat(floatMod(fa, fb));
      case "**":
        return floatPow(fa, fb);
    }
    throw unsupported(op, a, b);
  }
  return sequenceBinary(op, a, b, budget, format);
}

/** True division of ints, correctly rounded as CPython's is. */
function bigTrueDiv(x: bigint, y: bigint, budget: Budget): number {
  if (x === 0n) return y < 0n ? -0 : 0;
  // ratioToFloat divides x, scaled to 58 bits more than y, by y: a short quotient, a long divisor.
  if (!Number.isFinite(Number(x)) || !Number.isFinite(Number(y))) {
    const yBits = bitLength(y);
    budget.step(divSteps(yBits + 58, yBits) + linearSteps(bitLength(x)));
  }
  const r = y < 0n ? ratioToFloat(-x, -y) : ratioToFloat(x, y);
  if (!Number.isFinite(r)) throw pyError("OverflowError", "integer division result too large for a float");
  return r;
}

function repeatCount(v: Value): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") {
    if (v >= 2n ** 63n || v < -(2n ** 63n)) throw pyError("OverflowError", "cannot fit 'int' into an index-sized integer");
    return v > 0n ? Number.MAX_SAFE_INTEGER : 0;
  }
  return null;
}

function sequenceBinary(op: BinaryOp, a: Value, b: Value, budget: Budget, format?: (t: string, args: Value) => string): Value {
  if (classOf(a) !== null || classOf(b) !== null) {
    // A module-defined type (instance.ts) first, as its __op__/__rop__ would be.
    const r = instanceBinary(op as Operator, a, b, budget);
    // Unhandled: on to the built-in types' own operations and errors (`"%s" % value` formats
    // it; `[1] + value` is list's TypeError), none of which reaches into the instance.
    if (r !== NOT_HANDLED) return r;
  }
  if (typeof a === "string") {
    if (op === "+" && typeof b === "string") {
      budget.checkSize(2 * (a.length + b.length));
      return a + b;
    }
    if (op === "*") {
      const n = repeatCount(b);
      if (n !== null) return repeatString(a, n, budget);
    }
    if (op === "%" && format) return format(a, b);
    if (op === "+") throw pyError("TypeError", `can only concatenate str (not "${typeName(b)}") to str`);
  }
  if (typeof b === "string" && op === "*") {
    const n = repeatCount(a);
    if (n !== null) return repeatString(b, n, budget);
  }
  if (a instanceof PyList) {
    if (op === "+") {
      if (b instanceof PyList) {
        budget.alloc(SLOT * (a.items.length + b.items.length));
        budget.step(a.items.length + b.items.length);
        return new PyList(a.items.concat(b.items));
      }
      throw pyError("TypeError", `can only concatenate list (not "${typeName(b)}") to list`);
    }
    if (op === "*") {
      const n = repeatCount(b);
      if (n !== null) return new PyList(repeatItems(a.items, n, budget));
    }
  }
  if (b instanceof PyList && op === "*") {
    const n = repeatCount(a);
    if (n !== null) return new PyList(repeatItems(b.items, n, budget));
  }
  if (a instanceof PyTuple) {
    if (op === "+") {
      if (b instanceof PyTuple) {
        budget.alloc(SLOT * (a.items.length + b.items.length));
        budget.step(a.items.length + b.items.length);
        return new PyTuple([...a.items, ...b.items]);
      }
      throw pyError("TypeError", `can only concatenate tuple (not "${typeName(b)}") to tuple`);
    }
    if (op === "*") {
      const n = repeatCount(b);
      if (n !== null) return tupleOf(repeatItems(a.items, n, budget));
    }
  }
  if (b instanceof PyTuple && op === "*") {
    const n = repeatCount(a);
    if (n !== null) return tupleOf(repeatItems(b.items, n, budget));
  }
  if (a instanceof PyDict && b instanceof PyDict && op === "|") {
    const out = new PyDict();
    budget.alloc(MAP_ENTRY * (a.size + b.size));
    budget.step(a.size + b.size);
    out.update(a);
    out.update(b);
    return out;
  }
  if (a instanceof PySet && b instanceof PySet) {
    const result = setOperation(op, a, b, budget);
    if (result) return result;
  }
  if ((isSetLikeView(a) || isSetLikeView(b)) && (op === "|" || op === "&" || op === "-" || op === "^")) {
    // dict.keys() and dict.items() are set-like: with any iterable on the other side, a set.
    return setOperation(op, plainSet(a, budget), plainSet(b, budget), budget)!;
  }
  if ((a instanceof PyBytes || b instanceof PyBytes) && op === "*") {
    if (b instanceof PyBytes) [a, b] = [b, a];
    const n = repeatCount(b);
    if (n !== null && a instanceof PyBytes) {
      const size = a.bytes.length * Math.max(0, n);
      budget.checkSize(size);
      // A step per 16 bytes, as for text: allocating, zeroing and copying them.
      budget.step(1 + (size >> 4));
      const out = new Uint8Array(size);
      if (size > 0) out.set(a.bytes);
      // Doubling what is written: log2(n) copies, not n (b'x' * 6 * 10**7 is 26 calls).
      for (let done = a.bytes.length; done < size; done *= 2) out.copyWithin(done, 0, Math.min(done, size - done));
      return new PyBytes(out);
    }
  }
  if (a instanceof PyBytes && b instanceof PyBytes && op === "+") {
    budget.checkSize(a.bytes.length + b.bytes.length);
    const out = new Uint8Array(a.bytes.length + b.bytes.length);
    out.set(a.bytes);
    out.set(b.bytes, a.bytes.length);
    return new PyBytes(out);
  }
  if (op === "*" && (isSequence(a) || isSequence(b))) {
    // CPython asks the left operand first: [1] * [2] names the right one.
    const other = isSequence(a) ? b : a;
    throw pyError("TypeError", `can't multiply sequence by non-int of type '${typeName(other)}'`);
  }
  if (op === "|") {
    // `int | None`: a type expression (generic-alias.ts).
    const union = typeUnion(a, b, budget);
    if (union !== null) return union;
  }
  throw unsupported(op, a, b);
}

function isSequence(v: Value): boolean {
  return typeof v === "string" || v instanceof PyList || v instanceof PyTuple || v instanceof PyBytes;
}

function repeatString(s: string, n: number, budget: Budget): string {
  if (n <= 0 || s.length === 0) return "";
  // Charged before allocating: 'x' * 10**9 fails here.
  budget.checkSize(2 * s.length * n);
  // A step per 16 units, as str methods charge: V8 builds the repeat lazily, but the first use
  // of it copies all of it.
  budget.step(Math.ceil((s.length * n) / 16));
  return s.repeat(n);
}

function repeatItems(items: readonly Value[], n: number, budget: Budget): Value[] {
  if (n <= 0 || items.length === 0) return [];
  budget.alloc(SLOT * items.length * n);
  budget.step(items.length * n);
  const out: Value[] = [];
  for (let i = 0; i < n; i++) for (const item of items) out.push(item);
  return out;
}

/**
 * A keys or items view against a set or a view, as CPython's dictview comparison does: equal sizes,
 * and every member of the view in the other (hashing it, so an unhashable item is a TypeError when
 * the other is a set; an items view looks the key up and compares the value).
 */
function sameMembers(a: PySet | PyDictView, b: PySet | PyDictView): boolean {
  if (a instanceof PySet) [a, b] = [b, a];
  const size = (v: PySet | PyDictView) => (v instanceof PySet ? v.size : v.dict.size);
  if (size(a) !== size(b)) return false;
  const other = b;
  const has = (item: Value): boolean => {
    if (other instanceof PySet) return other.map.has(hashOf(item));
    if (other.kind === "keys") return other.dict.map.has(hashOf(item));
    if (!(item instanceof PyTuple) || item.items.length !== 2) return false;
    const found = other.dict.map.get(hashOf(item.items[0]!));
    return found !== undefined && (found === item.items[1] || equals(found, item.items[1]!));
  };
  const view = a as PyDictView;
  if (view.kind === "keys") {
    for (const k of view.dict.keys()) if (!has(k)) return false;
  } else {
    for (const [k, v] of view.dict.entries()) if (!has(new PyTuple([k, v]))) return false;
  }
  return true;
}

function isSetLikeView(v: Value): boolean {
  return v instanceof PyDictView && v.kind !== "values";
}

/** The items of an iterable as a new set (a set's own entries are reused as they are). */
function plainSet(v: Value, budget: Budget): PySet {
  if (v instanceof PySet && !v.frozen) return v;
  const out = new PySet(false);
  for (const item of iterateToArray(v, budget)) {
    hashOf(item, budget);
    out.add(item);
  }
  return out;
}

function setOperation(op: BinaryOp, a: PySet, b: PySet, budget: Budget): PySet | null {
  budget.step(a.size + b.size);
  const out = new PySet(a.frozen);
  switch (op) {
    case "|":
      for (const v of a.values()) out.add(v);
      for (const v of b.values()) out.add(v);
      break;
    case "&":
      for (const v of a.values()) if (b.has(v)) out.add(v);
      break;
    case "-":
      for (const v of a.values()) if (!b.has(v)) out.add(v);
      break;
    case "^":
      for (const v of a.values()) if (!b.has(v)) out.add(v);
      for (const v of b.values()) if (!a.has(v)) out.add(v);
      break;
    default:
      return null;
  }
  // Its entries, counted once made (as set.union does); the work was bounded by the steps above.
  budget.alloc(MAP_ENTRY * out.size);
  return out;
}

// ------------------------------------------------------------------ unary operators

/** Python's `-v`, `+v`, `~v`; `budget` pays for the copy of a big int (linear in its size). */
export function unary(op: "-" | "+" | "~", v: Value, budget: Budget): Value {
  if (typeof v === "number") {
    if (op === "-") return v === 0 ? 0 : -v;
    if (op === "+") return v;
    return Math.abs(v) < SMALL ? ~v : normInt(~BigInt(v));
  }
  if (typeof v === "boolean") return unary(op, v ? 1 : 0, budget);
  if (typeof v === "bigint") {
    if (op === "+") return v;
    budget.step(linearOpSteps(v, 0n));
    return normInt(op === "-" ? -v : ~v);
  }
  if (v instanceof PyFloat && op !== "~") return op === "-" ? new PyFloat(-v.v) : v;
  const own = instanceUnary(v);
  if (own) return own(op, budget);
  const name = op === "-" ? "unary -" : op === "+" ? "unary +" : "unary ~";
  throw pyError("TypeError", `bad operand type for ${name}: '${typeName(v)}'`);
}

// ------------------------------------------------------------------ equality and ordering

/** Python's `a == b`. */
export function equals(a: Value, b: Value): boolean {
  if (a === b) return typeof a !== "object" || !(a instanceof PyFloat) || !Number.isNaN(a.v);
  if (typeof a === "string" || typeof b === "string") return false;
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b) === 0;
  if (a instanceof PyList && b instanceof PyList) return sequenceEquals(a.items, b.items);
  if (a instanceof PyTuple && b instanceof PyTuple) return sequenceEquals(a.items, b.items);
  if (a instanceof PyDict && b instanceof PyDict) {
    if (a.cls !== null || b.cls !== null) {
      const own = instanceEquals(a, b);
      if (own !== undefined) return own;
    }
    if (a.size !== b.size) return false;
    enterEquality();
    try {
      for (const [k, v] of a.map) {
        const other = b.map.get(k);
        if (other === undefined || (other !== v && !equals(v, other))) return false;
      }
      return true;
    } finally {
      equalityDepth--;
    }
  }
  if (a instanceof PySet && b instanceof PySet) {
    if (a.size !== b.size) return false;
    for (const k of a.map.keys()) if (!b.map.has(k)) return false;
    return true;
  }
  if (a instanceof PyBytes && b instanceof PyBytes) {
    return a.bytes.length === b.bytes.length && a.bytes.every((x, i) => x === b.bytes[i]);
  }
  if (a instanceof PyRange && b instanceof PyRange) {
    const n = a.length;
    return n === b.length && (n === 0 || (a.start === b.start && (n === 1 || a.step === b.step)));
  }
  if (a instanceof SliceValue && b instanceof SliceValue) return sequenceEquals([a.start, a.stop, a.step], [b.start, b.stop, b.step]);
  if (a instanceof PyInstance || b instanceof PyInstance) return instanceEquals(a, b) ?? false;
  if ((isSetLikeView(a) && (b instanceof PySet || isSetLikeView(b))) || (isSetLikeView(b) && a instanceof PySet)) {
    // A keys or items view equals a set (or a view) of the same members.
    return sameMembers(a as PySet | PyDictView, b as PySet | PyDictView);
  }
  return false;
}

/** CPython has one empty tuple: `(1, 2) * 0 is ()`. */
function tupleOf(items: Value[]): PyTuple {
  return items.length ? new PyTuple(items) : EMPTY_TUPLE;
}

/** How deep equality may recurse into nested containers before it is a RecursionError. */
const MAX_EQUALITY_DEPTH = 1000;
let equalityDepth = 0;

/** Self-referential containers (`a = []; a.append(a)`) end in CPython's RecursionError. */
function enterEquality(): void {
  if (equalityDepth >= MAX_EQUALITY_DEPTH) throw pyError("RecursionError", "maximum recursion depth exceeded in comparison");
  equalityDepth++;
}

function sequenceEquals(a: readonly Value[], b: readonly Value[]): boolean {
  if (a.length !== b.length) return false;
  enterEquality();
  try {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !equals(a[i]!, b[i]!)) return false;
    return true;
  } finally {
    equalityDepth--;
  }
}

function isNumeric(v: Value): v is number | bigint | boolean | PyFloat {
  return typeof v === "number" || typeof v === "bigint" || typeof v === "boolean" || v instanceof PyFloat;
}

/** Compares two numbers exactly (big ints against floats included); NaN compares as NaN. */
function compareNumbers(a: number | bigint | boolean | PyFloat, b: number | bigint | boolean | PyFloat): number {
  if (typeof a === "boolean") a = a ? 1 : 0;
  if (typeof b === "boolean") b = b ? 1 : 0;
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  const x = a instanceof PyFloat ? a.v : a;
  const y = b instanceof PyFloat ? b.v : b;
  if (typeof x === "number" && typeof y === "number") return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
  // One bigint, one double.
  if (typeof x === "bigint") return -compareFloatBig(y as number, x);
  return compareFloatBig(x as number, y as bigint);
}

function compareFloatBig(f: number, i: bigint): number {
  if (Number.isNaN(f)) return NaN;
  if (f === Infinity) return 1;
  if (f === -Infinity) return -1;
  const floor = BigInt(Math.floor(f));
  if (floor < i) return -1;
  if (floor > i) return 1;
  return f === Math.floor(f) ? 0 : 1;
}

export type CompareOp = "<" | "<=" | ">" | ">=";

/** Python's ordering comparisons. */
export function compare(op: CompareOp, a: Value, b: Value, budget: Budget): boolean {
  let c: number;
  if (typeof a === "number" && typeof b === "number") c = a < b ? -1 : a > b ? 1 : 0;
  else if (typeof a === "string" && typeof b === "string") {
    budget.step(Math.min(a.length, b.length) >> 6);
    c = a < b ? -1 : a > b ? 1 : 0;
    if (c !== 0 && (hasSurrogates(a) || hasSurrogates(b))) c = compareCodePoints(a, b);
  } else if (isNumeric(a) && isNumeric(b)) c = compareNumbers(a, b);
  else if (a instanceof PyBytes && b instanceof PyBytes) c = Buffer.compare(a.bytes, b.bytes);
  else if ((a instanceof PyList && b instanceof PyList) || (a instanceof PyTuple && b instanceof PyTuple)) {
    return compareSequences(op, a.items, b.items, budget);
  } else if (a instanceof PySet && b instanceof PySet) {
    const subset = (x: PySet, y: PySet) => [...x.map.keys()].every((k) => y.map.has(k));
    switch (op) {
      case "<=":
        return subset(a, b);
      case "<":
        return a.size < b.size && subset(a, b);
      case ">=":
        return subset(b, a);
      case ">":
        return a.size > b.size && subset(b, a);
    }
  } else {
    const own = classOf(a) !== null || classOf(b) !== null ? instanceCompare(op, a, b, budget) : NOT_HANDLED;
    if (own !== NOT_HANDLED) return own;
    throw pyError("TypeError", `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  }
  if (Number.isNaN(c)) return false;
  switch (op) {
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    case ">":
      return c > 0;
    case ">=":
      return c >= 0;
  }
}

function compareSequences(op: CompareOp, a: readonly Value[], b: readonly Value[], budget: Budget): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    budget.step(1);
    if (!equals(a[i]!, b[i]!)) return compare(op, a[i]!, b[i]!, budget);
  }
  return compare(op, a.length, b.length, budget);
}

const SURROGATE = /[\ud800-\udfff]/;
function hasSurrogates(s: string): boolean {
  return SURROGATE.test(s);
}

function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return x.length - y.length < 0 ? -1 : x.length > y.length ? 1 : 0;
}

/** A three-way comparison for sorting: -1, 0 or 1 (TypeError for unorderable pairs). */
export function cmp(a: Value, b: Value, budget: Budget): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof PyTuple && b instanceof PyTuple) {
    const c = cmpIntTuples(a.items, b.items, budget);
    if (c !== undefined) return c;
  }
  if (compare("<", a, b, budget)) return -1;
  if (compare("<", b, a, budget)) return 1;
  return 0;
}

/**
 * cmp of two tuples in one pass when they differ at an int (or not at all), the usual sort key;
 * undefined otherwise, before charging anything. It charges what the two passes of cmp
 * (a < b, then b < a) would have.
 */
function cmpIntTuples(x: readonly Value[], y: readonly Value[], budget: Budget): number | undefined {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (p === q && (typeof p === "number" || typeof p === "string")) continue;
    if (typeof p !== "number" || typeof q !== "number") return undefined;
    if (p < q) {
      budget.step(i + 1);
      return -1;
    }
    budget.step(2 * (i + 1));
    return 1;
  }
  if (x.length < y.length) {
    budget.step(n);
    return -1;
  }
  budget.step(2 * n);
  return x.length > y.length ? 1 : 0;
}

// ------------------------------------------------------------------ containment, length, hashing

/**
 * The HashKey of v, or CPython's TypeError. With `budget`, what building the key costs is charged:
 * a str too long to be its own key is digested (or compared with the last ones digested), a step
 * per 2 units, first; a big int past 1024 bits pays for its key's hex text (values.ts bigKey),
 * built on each use; a long tuple's or frozenset's key text, built once and then kept, is charged
 * as it is built (values.ts takeKeyWork).
 */
export function hashOf(v: Value, budget?: Budget) {
  try {
    if (budget !== undefined) {
      if (typeof v === "string" && v.length > MAX_OWN_KEY) budget.step(v.length >> 1);
      // Key text built by look-ups that charge nothing (PyDict's own) is not this call's.
      takeKeyWork();
    }
    const k = hashKey(v);
    if (budget !== undefined) {
      if (typeof v === "bigint" && typeof k === "string" && k.length > 258) budget.step(k.length >> 1);
      const built = takeKeyWork();
      if (built !== 0) budget.step(built >> 1);
    }
    return k;
  } catch (e) {
    if (e instanceof UnhashableError) throw pyError("TypeError", `unhashable type: '${e.typeName}'`);
    throw e;
  }
}

/** Python's `item in container`. */
export function contains(container: Value, item: Value, budget: Budget): boolean {
  if (typeof container === "string") {
    if (typeof item !== "string") {
      throw pyError("TypeError", `'in <string>' requires string as left operand, not ${typeName(item)}`);
    }
    budget.step(container.length >> 6);
    return container.includes(item);
  }
  if (container instanceof PyDict || container instanceof PySet) {
    // A str not starting with NUL, and an int that is a JS number, is its own HashKey (hashKey in values.ts).
    return container.map.has(isOwnHashKey(item) ? item : hashOf(item, budget));
  }
  if (container instanceof PyList || container instanceof PyTuple) {
    const items = container.items;
    for (let i = 0; i < items.length; i++) {
      if (items[i] === item || equals(items[i]!, item)) {
        budget.step(i + 1);
        return true;
      }
    }
    budget.step(items.length);
    return false;
  }
  if (container instanceof PyRange) {
    if (typeof item !== "number") return false;
    const { start, stop, step } = container;
    if (step > 0 ? item < start || item >= stop : item > start || item <= stop) return false;
    return (item - start) % step === 0;
  }
  if (container instanceof PyBytes && typeof item === "number") return container.bytes.includes(item);
  if (container instanceof PyDictView) {
    if (container.kind === "keys") return container.dict.map.has(hashOf(item, budget));
    const items = container.items();
    budget.step(items.length);
    return items.some((x) => equals(x, item));
  }
  if (container instanceof PyIterator) {
    for (let v = container.next(); v !== DONE; v = container.next()) {
      budget.step(1);
      if (equals(v, item)) return true;
    }
    return false;
  }
  if (container instanceof PyObject) {
    if (container.pyContains) return container.pyContains(item, budget);
    if (container.pyIter) {
      const next = container.pyIter();
      for (let v = next(); v !== DONE; v = next()) {
        budget.step(1);
        if (v === item || equals(v, item)) return true;
      }
      return false;
    }
  }
  throw pyError("TypeError", `argument of type '${typeName(container)}' is not iterable`);
}

export function length(v: Value): number {
  if (typeof v === "string") return cpLength(v);
  if (v instanceof PyList || v instanceof PyTuple) return v.items.length;
  if (v instanceof PyDict || v instanceof PySet) return v.size;
  if (v instanceof PyRange) return v.length;
  if (v instanceof PyBytes) return v.bytes.length;
  if (v instanceof PyDictView) return v.dict.size;
  if (v instanceof PyObject && v.pyLen) return v.pyLen();
  throw pyError("TypeError", `object of type '${typeName(v)}' has no len()`);
}

// ------------------------------------------------------------------ indexing

function indexOf(v: Value, typeLabel: string): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") {
    // Beyond a C ssize_t CPython cannot even try; below it, the index is simply out of range.
    if (v >= 2n ** 63n || v < -(2n ** 63n)) throw pyError("IndexError", `cannot fit 'int' into an index-sized integer`);
    return Number(v);
  }
  // CPython 3.11 words the str case differently from the list and tuple ones.
  if (typeLabel === "string") throw pyError("TypeError", `string indices must be integers, not '${typeName(v)}'`);
  throw pyError("TypeError", `${typeLabel} indices must be integers or slices, not ${typeName(v)}`);
}

/** A slice object, as built by `a[x:y:z]` or `slice(x, y, z)`. */
export class SliceValue extends PyObject {
  constructor(
    readonly start: Value,
    readonly stop: Value,
    readonly step: Value,
  ) {
    super();
  }

  get typeName(): string {
    return "slice";
  }

  pyRepr(reprOf: (v: Value) => string): string {
    return `slice(${reprOf(this.start)}, ${reprOf(this.stop)}, ${reprOf(this.step)})`;
  }
}


function sliceItems(items: readonly Value[], s: SliceValue, budget: Budget): Value[] {
  const { start, stop, step } = sliceIndices(items.length, s.start, s.stop, s.step);
  if (step === 1) {
    budget.step(Math.max(0, stop - start));
    return items.slice(start, Math.max(start, stop));
  }
  const out: Value[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(items[i]!);
  else for (let i = start; i > stop; i += step) out.push(items[i]!);
  budget.step(out.length);
  return out;
}

/** Python's `container[key]`. */
export function getItem(container: Value, key: Value, budget: Budget): Value {
  // Small enough for V8 to inline at its call sites: a str key of a dict, an index in range.
  if (container instanceof PyDict) {
    if (isOwnHashKey(key)) {
      const v = container.map.get(key);
      if (v !== undefined) return v;
    }
  } else if (typeof key === "number" && (container instanceof PyList || container instanceof PyTuple)) {
    const items = container.items;
    const i = key < 0 ? key + items.length : key;
    if (i >= 0 && i < items.length) return items[i]!;
  }
  return getItemInGeneral(container, key, budget);
}

function getItemInGeneral(container: Value, key: Value, budget: Budget): Value {
  if (container instanceof PyDict) {
    const v = container.map.get(hashOf(key, budget));
    if (v !== undefined) return v;
    // A dict subclass's __missing__ (defaultdict's factory, Counter's 0).
    const missing = dictHooks(container)?.pyMissing?.(key, budget);
    if (missing !== undefined) return missing;
    throw new PyException(pyError("KeyError").type, [key]);
  }
  if (container instanceof PyList || container instanceof PyTuple) {
    const items = container.items;
    if (key instanceof SliceValue) {
      const out = sliceItems(items, key, budget);
      // CPython has one empty tuple: `(1,)[1:] is ()`.
      return container instanceof PyList ? new PyList(out) : out.length ? new PyTuple(out) : EMPTY_TUPLE;
    }
    let i = indexOf(key, container instanceof PyList ? "list" : "tuple");
    if (i < 0) i += items.length;
    if (i < 0 || i >= items.length) {
      throw pyError("IndexError", `${container instanceof PyList ? "list" : "tuple"} index out of range`);
    }
    return items[i]!;
  }
  if (typeof container === "string") {
    if (key instanceof SliceValue) {
      budget.step(container.length >> 4);
      return cpSlice(container, key.start, key.stop, key.step);
    }
    const i = indexOf(key, "string");
    const ch = cpAt(container, i);
    if (ch === undefined) throw pyError("IndexError", "string index out of range");
    return ch;
  }
  if (container instanceof PyRange) {
    if (key instanceof SliceValue) {
      const { start, stop, step } = sliceIndices(container.length, key.start, key.stop, key.step);
      return new PyRange(container.at(start), container.at(stop), container.step * step);
    }
    let i = indexOf(key, "range");
    if (i < 0) i += container.length;
    if (i < 0 || i >= container.length) throw pyError("IndexError", "range object index out of range");
    return container.at(i);
  }
  if (container instanceof PyBytes) {
    if (key instanceof SliceValue) {
      const { start, stop, step } = sliceIndices(container.bytes.length, key.start, key.stop, key.step);
      const out: number[] = [];
      if (step > 0) for (let i = start; i < stop; i += step) out.push(container.bytes[i]!);
      else for (let i = start; i > stop; i += step) out.push(container.bytes[i]!);
      return new PyBytes(Uint8Array.from(out));
    }
    let i = indexOf(key, "byte");
    if (i < 0) i += container.bytes.length;
    if (i < 0 || i >= container.bytes.length) throw pyError("IndexError", "index out of range");
    return container.bytes[i]!;
  }
  if (container instanceof PyObject && container.pyGetItem) return container.pyGetItem(key, budget);
  // `list[int]`, `dict[str, Any]`: a type expression (generic-alias.ts).
  if (container instanceof PyType || container instanceof PyExcType) return subscriptType(container, key, budget);
  throw pyError("TypeError", `'${typeName(container)}' object is not subscriptable`);
}

/** Python's `container[key] = value`. */
export function setItem(container: Value, key: Value, value: Value, budget: Budget): void {
  // Small enough for V8 to inline at its call sites: a str key of a dict, an index in range.
  if (container instanceof PyDict) {
    if (isOwnHashKey(key)) {
      // Its own HashKey: an equal key already there (True for 1) keeps its spelling, as set() keeps it.
      const m = container.map;
      if (!m.has(key)) budget.alloc(entrySize(key, value));
      m.set(key, value);
      return;
    }
  } else if (typeof key === "number" && container instanceof PyList) {
    const items = container.items;
    const i = key < 0 ? key + items.length : key;
    if (i >= 0 && i < items.length) {
      items[i] = value;
      return;
    }
  }
  setItemInGeneral(container, key, value, budget);
}

function setItemInGeneral(container: Value, key: Value, value: Value, budget: Budget): void {
  if (container instanceof PyDict) {
    if (!container.map.has(hashOf(key, budget))) budget.alloc(entrySize(key, value));
    container.set(key, value);
    return;
  }
  if (container instanceof PyList) {
    if (key instanceof SliceValue) {
      // Charged as it is collected.
      const replacement = iterateToArray(value, budget);
      const { start, stop, step } = sliceIndices(container.items.length, key.start, key.stop, key.step);
      if (step === 1) {
        container.items.splice(start, Math.max(0, stop - start), ...replacement);
        return;
      }
      const indices: number[] = [];
      if (step > 0) for (let i = start; i < stop; i += step) indices.push(i);
      else for (let i = start; i > stop; i += step) indices.push(i);
      if (indices.length !== replacement.length) {
        throw pyError("ValueError", `attempt to assign sequence of size ${replacement.length} to extended slice of size ${indices.length}`);
      }
      indices.forEach((i, j) => (container.items[i] = replacement[j]!));
      return;
    }
    let i = indexOf(key, "list");
    if (i < 0) i += container.items.length;
    if (i < 0 || i >= container.items.length) throw pyError("IndexError", "list assignment index out of range");
    container.items[i] = value;
    return;
  }
  if (container instanceof PyInstance && container.pySetItem) return container.pySetItem(key, value, budget);
  throw pyError("TypeError", `'${typeName(container)}' object does not support item assignment`);
}

/** Python's `del container[key]`. */
export function delItem(container: Value, key: Value, budget: Budget): void {
  if (container instanceof PyDict) {
    // hashOf first: an unhashable key (`del d[1:2]`) is CPython's TypeError, not the internal UnhashableError.
    hashOf(key);
    if (!container.delete(key)) throw new PyException(pyError("KeyError").type, [key]);
    return;
  }
  if (container instanceof PyList) {
    if (key instanceof SliceValue) {
      const { start, stop, step } = sliceIndices(container.items.length, key.start, key.stop, key.step);
      budget.step(container.items.length);
      if (step === 1) {
        container.items.splice(start, Math.max(0, stop - start));
        return;
      }
      const drop = new Set<number>();
      if (step > 0) for (let i = start; i < stop; i += step) drop.add(i);
      else for (let i = start; i > stop; i += step) drop.add(i);
      container.items = container.items.filter((_, i) => !drop.has(i));
      return;
    }
    let i = indexOf(key, "list");
    if (i < 0) i += container.items.length;
    if (i < 0 || i >= container.items.length) throw pyError("IndexError", "list assignment index out of range");
    budget.step(container.items.length - i);
    container.items.splice(i, 1);
    return;
  }
  if (container instanceof PyInstance && container.pyDelItem) return container.pyDelItem(key, budget);
  throw pyError("TypeError", `'${typeName(container)}' object does not support item deletion`);
}

export { storedSize };

// ------------------------------------------------------------------ iteration

/** A cursor over any iterable: returns the next item or DONE. */
export function iterate(v: Value): () => Value | typeof DONE {
  if (v instanceof PyList) {
    const list = v;
    let i = 0;
    // A list may grow while iterated, as in Python.
    return () => (i < list.items.length ? list.items[i++]! : DONE);
  }
  if (v instanceof PyTuple) {
    const items = v.items;
    let i = 0;
    return () => (i < items.length ? items[i++]! : DONE);
  }
  if (v instanceof PyRange) {
    const { start, step } = v;
    const n = v.length;
    let i = 0;
    return () => (i < n ? start + step * i++ : DONE);
  }
  if (typeof v === "string") {
    // One character at a time: an array of them all would hold 8 bytes per character at once.
    const s = v;
    if (isSimple(s)) {
      let i = 0;
      return () => (i < s.length ? s[i++]! : DONE);
    }
    const chars = cpIterate(s);
    return () => {
      const r = chars.next();
      return r.done ? DONE : r.value;
    };
  }
  if (v instanceof PyDict) {
    const it = v.map.keys();
    const dict = v;
    const size = v.size;
    return () => {
      if (dict.size !== size) throw pyError("RuntimeError", "dictionary changed size during iteration");
      const r = it.next();
      return r.done ? DONE : dict.keyOf(r.value);
    };
  }
  if (v instanceof PySet) {
    const it = v.map.values();
    const set = v;
    const size = v.size;
    return () => {
      if (set.size !== size) throw pyError("RuntimeError", "Set changed size during iteration");
      const r = it.next();
      return r.done ? DONE : r.value;
    };
  }
  if (v instanceof PyIterator) return v.next;
  if (v instanceof PyDictView) return v.cursor();
  if (v instanceof PyBytes) {
    const b = v.bytes;
    let i = 0;
    return () => (i < b.length ? b[i++]! : DONE);
  }
  if (v instanceof PyObject && v.pyIter) return v.pyIter();
  throw pyError("TypeError", `'${typeName(v)}' object is not iterable`);
}

/**
 * Re-words the TypeError of iterating a non-iterable `v` for where it happened: CPython says
 * `cannot unpack non-iterable int object` for `a, b = 5`, `Value after * must be an iterable,
 * not int` for `[*5]`. Other errors pass unchanged.
 */
export function rewordNotIterable(e: unknown, v: Value, message: (type: string) => string): unknown {
  if (e instanceof PyException && e.type === EXC.TypeError && e.args[0] === `'${typeName(v)}' object is not iterable`) {
    return pyError("TypeError", message(typeName(v)));
  }
  return e;
}

/**
 * All items of an iterable, one step each, and their memory charged before it is taken: a slot
 * each for the items of a container or a `paid` iterator (they exist already, paid for where
 * they are), and storedSize() for what an iterator makes as it goes (zip's tuples, map's results).
 */
export function iterateToArray(v: Value, budget: Budget): Value[] {
  if (v instanceof PyList || v instanceof PyTuple) {
    budget.step(v.items.length);
    budget.alloc(SLOT * v.items.length);
    return [...v.items];
  }
  if (typeof v === "string") {
    // Every code point is a one-unit string V8 shares, but for a surrogate pair (a string of its own).
    const n = cpLength(v);
    budget.alloc(SLOT * n + 24 * (v.length - n));
    budget.step(n);
    return cpChars(v);
  }
  if (v instanceof PyRange) return rangeItems(v, budget);
  // A set or dict knows its size: its steps are charged before it is walked.
  const size = v instanceof PySet || v instanceof PyDict ? v.size : -1;
  if (size >= 0) budget.step(size);
  const existing = v instanceof PyDict || v instanceof PySet || (v instanceof PyDictView && v.kind !== "items");
  if (existing) budget.alloc(SLOT * (v instanceof PyDictView ? v.dict.size : v.size));
  const paid = v instanceof PyIterator && v.paid;
  const next = iterate(v);
  const out: Value[] = [];
  for (let item = next(); item !== DONE; item = next()) {
    if (size < 0) budget.step(1);
    if (!existing) budget.alloc(paid ? SLOT : storedSize(item));
    out.push(item);
  }
  return out;
}

/**
 * The ints of a range, charged before they are made (so that min(range(10**9)) is refused at
 * once): a step and a slot each, and a heap number each past V8's small ints. One loop with no
 * per-item charge, in an array made at its size: 900,000 items took 62 ms charged one
 * by one and pushed, 10-15 ms so (a loaded machine).
 */
function rangeItems(r: PyRange, budget: Budget): Value[] {
  const n = r.length;
  budget.step(n);
  const { start, step } = r;
  const last = start + step * (n - 1);
  const small = (v: number) => (v | 0) === v;
  budget.alloc(n * SLOT + (n > 0 && small(start) && small(last) ? 0 : n * HEAP_NUMBER));
  // Made at its size, packed (filled first): growing it by push copies it again and again.
  const out: Value[] = new Array<Value>(n).fill(0);
  for (let i = 0; i < n; i++) out[i] = start + step * i;
  return out;
}

export { repr };
