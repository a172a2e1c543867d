// The math module of CPython 3.11, real numbers only.
//
// Where CPython's answer is exact or correctly rounded, ours is the same bit for bit: floor, ceil
// and trunc of huge floats, isqrt, factorial, comb, perm, gcd, lcm, fsum, hypot, dist, sqrt, fmod,
// remainder, frexp, ldexp, modf, nextafter, ulp. exp, exp2, log, pow and the trigonometric
// functions are computed in double-double arithmetic and rounded once: that is what glibc returns
// in all but rare cases, where JS Math (fdlibm) differs from it in up to one result in ten. cosh,
// sinh, asinh, acosh, gamma and lgamma follow the formulas of C's libm and CPython on top of
// those. log2, log10, log1p, expm1, tanh and atanh use JS Math, which agrees with glibc almost
// always; erf and erfc are correctly rounded, which glibc's are not always; cbrt uses JS Math and
// may differ from glibc by a few ulps.
import { bitLength, divSteps, isqrtSteps, mulSteps, productSteps } from "../bigint-cost.js";
import { pyError } from "../errors.js";
import type { NativeContext, NativeFn, Kwargs } from "../native.js";
import { after } from "../objects.js";
import { binary } from "../ops.js";
import { eachItem, waitable } from "../stepping.js";
import { normInt, PyFloat, PyTuple, typeName, type Value } from "../values.js";

// ------------------------------------------------------------------ arguments and errors

const domainError = () => pyError("ValueError", "math domain error");
const rangeError = () => pyError("OverflowError", "math range error");

/** PyFloat_AsDouble: an int, bool or float as a double; ints too big for a double overflow. */
export function toDouble(v: Value): number {
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") {
    const d = Number(v);
    if (!Number.isFinite(d)) throw pyError("OverflowError", "int too large to convert to float");
    return d;
  }
  throw pyError("TypeError", `must be real number, not ${typeName(v)}`);
}

/** operator.index: an int or bool; anything else is a TypeError. */
function toInt(v: Value): number | bigint {
  if (typeof v === "number" || typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
}

const big = (n: number | bigint): bigint => (typeof n === "bigint" ? n : BigInt(n));
const float = (x: number) => new PyFloat(x);

function noKeywords(name: string, kwargs: Kwargs | null): void {
  if (kwargs && kwargs.size > 0) throw pyError("TypeError", `math.${name}() takes no keyword arguments`);
}

/** A one-argument function (CPython's METH_O). */
function unary(name: string, f: (x: Value) => Value): NativeFn {
  return (_ctx, args, kwargs) => {
    noKeywords(name, kwargs);
    if (args.length !== 1) throw pyError("TypeError", `math.${name}() takes exactly one argument (${args.length} given)`);
    return f(args[0]!);
  };
}

/** A function of `min` to `max` positional arguments, worded as CPython's argument checks. */
function positional(name: string, min: number, max: number, f: (ctx: NativeContext, args: Value[]) => Value): NativeFn {
  return (ctx, args, kwargs) => {
    noKeywords(name, kwargs);
    const n = args.length;
    if (n < min || n > max) {
      const bound = n < min ? min : max;
      const qualifier = min === max ? "" : n < min ? "at least " : "at most ";
      throw pyError("TypeError", `${name} expected ${qualifier}${bound} argument${bound === 1 ? "" : "s"}, got ${n}`);
    }
    return f(ctx, args);
  };
}

/**
 * A float function as CPython's math_1 wraps C's: a NaN from a non-NaN argument is a domain
 * error, an infinity from a finite one a range error (or a domain error, for poles).
 */
function real(name: string, f: (x: number) => number, canOverflow: boolean): NativeFn {
  return unary(name, (v) => {
    const x = toDouble(v);
    return float(checkResult(x, f(x), canOverflow));
  });
}

function checkResult(x: number, r: number, canOverflow: boolean): number {
  if (Number.isNaN(r) && !Number.isNaN(x)) throw domainError();
  if (r === Infinity || r === -Infinity) {
    if (Number.isFinite(x)) throw canOverflow ? rangeError() : domainError();
  }
  return r;
}

/** A two-float function as CPython's math_2 wraps C's. */
function real2(name: string, f: (x: number, y: number) => number): NativeFn {
  return positional(name, 2, 2, (_ctx, args) => {
    const x = toDouble(args[0]!);
    const y = toDouble(args[1]!);
    const r = f(x, y);
    if (Number.isNaN(r) && !Number.isNaN(x) && !Number.isNaN(y)) throw domainError();
    if ((r === Infinity || r === -Infinity) && Number.isFinite(x) && Number.isFinite(y)) throw rangeError();
    return float(r);
  });
}

// ------------------------------------------------------------------ the bits of a double

const view = new DataView(new ArrayBuffer(8));

function highWord(x: number): number {
  view.setFloat64(0, x);
  return view.getUint32(0);
}

function lowWord(x: number): number {
  view.setFloat64(0, x);
  return view.getUint32(4);
}

function bitsOf(x: number): bigint {
  view.setFloat64(0, x);
  return view.getBigUint64(0);
}

function fromBits(b: bigint): number {
  view.setBigUint64(0, b);
  return view.getFloat64(0);
}

function signBit(x: number): boolean {
  return highWord(x) >>> 31 === 1;
}

function copysign(x: number, y: number): number {
  return signBit(x) === signBit(y) ? x : -x;
}

/** 2**n exactly, for -1074 <= n <= 1023. */
function pow2(n: number): number {
  if (n >= -1022) return fromBits(BigInt(n + 1023) << 52n);
  return fromBits(1n << BigInt(n + 1074));
}

const TWO_M969 = pow2(-969);
const TWO_1023 = pow2(1023);

/** x * 2**n with a single rounding, as C's ldexp. */
function ldexp(x: number, n: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  // Scale in steps that lose no bits, so that only the last multiplication rounds.
  for (let i = 0; i < 2 && n > 1023; i++) {
    x *= TWO_1023;
    n -= 1023;
  }
  for (let i = 0; i < 2 && n < -1022; i++) {
    x *= TWO_M969;
    n += 969;
  }
  return x * pow2(Math.min(1023, Math.max(-1022, n)));
}

/** C's frexp: x = m * 2**e with 0.5 <= |m| < 1. */
function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  let biased = (highWord(x) >>> 20) & 0x7ff;
  let shift = 0;
  if (biased === 0) {
    x *= 2 ** 54;
    shift = 54;
    biased = (highWord(x) >>> 20) & 0x7ff;
  }
  view.setFloat64(0, x);
  view.setUint32(0, (view.getUint32(0) & 0x800fffff) | (1022 << 20));
  return [view.getFloat64(0), biased - 1022 - shift];
}

/** A positive finite double as an integer mantissa and a power of two: x = m * 2**e. */
function decompose(x: number): [bigint, number] {
  const b = bitsOf(x);
  const biased = Number(b >> 52n) & 0x7ff;
  const fraction = b & 0xfffffffffffffn;
  return biased === 0 ? [fraction, -1074] : [fraction | (1n << 52n), biased - 1075];
}

function nextafter(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === y) return y;
  if (x === 0) return copysign(pow2(-1074), y);
  const b = bitsOf(x);
  return fromBits((y > x) === (x > 0) ? b + 1n : b - 1n);
}


/**
 * The double nearest to n * 2**e (n >= 0), ties to even; `sticky` says the true value is a little
 * more than that (bits already dropped were not all zero). Overflows to Infinity.
 */
function roundToDouble(n: bigint, e: number, sticky = false): number {
  if (n === 0n) return 0;
  const length = bitLength(n);
  const top = length - 1 + e;
  if (top > 1023) return Infinity;
  // Bits kept: 53 for a normal result, fewer for a subnormal one (the grid is 2**-1074).
  const keep = Math.min(53, top + 1075);
  if (keep < 0) return 0;
  const drop = length - keep;
  if (drop <= 0) return ldexp(Number(n), e);
  let mantissa = n >> BigInt(drop);
  const rest = n - (mantissa << BigInt(drop));
  const half = 1n << BigInt(drop - 1);
  if (rest > half || (rest === half && (sticky || (mantissa & 1n) === 1n))) mantissa += 1n;
  return ldexp(Number(mantissa), e + drop);
}

/** A bigint as the nearest double, or null when it is beyond the double range. */
function bigToDouble(n: bigint): number | null {
  const d = Number(n);
  return Number.isFinite(d) ? d : null;
}

// ------------------------------------------------------------------ double-double arithmetic

// A double-double is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2: about 106 bits. It lets
// exp, log and pow be computed with errors near 2**-100 and then rounded once.
type DD = readonly [number, number];

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function fastTwoSum(a: number, b: number): DD {
  const s = a + b;
  return [s, b - (s - a)];
}

function split(a: number): DD {
  const c = 134217729 * a; // 2**27 + 1
  const hi = c - (c - a);
  return [hi, a - hi];
}

function twoProd(a: number, b: number): DD {
  const p = a * b;
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function ddAdd(a: DD, b: DD): DD {
  const [s, e] = twoSum(a[0], b[0]);
  const [t, f] = twoSum(a[1], b[1]);
  const [s2, e2] = fastTwoSum(s, e + t);
  return fastTwoSum(s2, e2 + f);
}

const ddNeg = (a: DD): DD => [-a[0], -a[1]];
const ddSub = (a: DD, b: DD): DD => ddAdd(a, ddNeg(b));

function ddMul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return fastTwoSum(p, e + (a[0] * b[1] + a[1] * b[0]));
}

function ddMulNum(a: DD, b: number): DD {
  const [p, e] = twoProd(a[0], b);
  return fastTwoSum(p, e + a[1] * b);
}

function ddDiv(a: DD, b: DD): DD {
  const q1 = a[0] / b[0];
  let r = ddSub(a, ddMulNum(b, q1));
  const q2 = r[0] / b[0];
  r = ddSub(r, ddMulNum(b, q2));
  const q3 = r[0] / b[0];
  return ddAdd(fastTwoSum(q1, q2), [q3, 0]);
}

// ------------------------------------------------------------------ constants, computed once

// Constants are derived here from their series in 320-bit fixed point, then split into doubles,
// rather than typed in as long decimal literals.
const FIXED_BITS = 320;
const ONE_FIXED = 1n << BigInt(FIXED_BITS);

/** atan(1/m) in fixed point (`one` is 1.0). */
function atanOfInverse(m: bigint, one = ONE_FIXED): bigint {
  let sum = 0n;
  let power = one / m;
  const m2 = m * m;
  for (let k = 0n; power !== 0n; k++) {
    const term = power / (2n * k + 1n);
    sum += k % 2n === 0n ? term : -term;
    power /= m2;
  }
  return sum;
}

/** atanh(1/m) in fixed point. */
function atanhOfInverse(m: bigint): bigint {
  let sum = 0n;
  let power = ONE_FIXED / m;
  const m2 = m * m;
  for (let k = 0n; power !== 0n; k++) {
    sum += power / (2n * k + 1n);
    power /= m2;
  }
  return sum;
}

export function isqrtBig(n: bigint): bigint {
  if (n < 0n) throw new Error("isqrt of a negative number");
  if (n < 1n << 52n) {
    let r = Math.floor(Math.sqrt(Number(n)));
    while (r * r > Number(n)) r--;
    while ((r + 1) * (r + 1) <= Number(n)) r++;
    return BigInt(r);
  }
  // Newton's iteration from an over-estimate decreases monotonically to floor(sqrt(n)).
  const shift = (bitLength(n) - 52) & ~1;
  const top = Number(n >> BigInt(shift));
  let x = (BigInt(Math.floor(Math.sqrt(top))) + 2n) << BigInt(shift / 2);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** The doubles whose sum is the fixed-point value v, most significant first. */
function splitFixed(v: bigint, parts: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < parts; i++) {
    const negative = v < 0n;
    const d = roundToDouble(negative ? -v : v, -FIXED_BITS);
    const part = negative ? -d : d;
    out.push(part);
    if (part !== 0) {
      const [m, e] = decompose(Math.abs(part));
      const fixed = e + FIXED_BITS >= 0 ? m << BigInt(e + FIXED_BITS) : m >> BigInt(-(e + FIXED_BITS));
      v -= negative ? -fixed : fixed;
    }
  }
  return out;
}

const toDD = (v: bigint): DD => splitFixed(v, 2) as unknown as DD;

const PI_FIXED = 16n * atanOfInverse(5n) - 4n * atanOfInverse(239n);
const LN2_FIXED = 2n * atanhOfInverse(3n);
const [LN2_1, LN2_2, LN2_3] = splitFixed(LN2_FIXED, 3) as [number, number, number];
const LN2_DD: DD = [LN2_1, LN2_2];
const SQRT_PI_FIXED = isqrtBig(PI_FIXED << BigInt(FIXED_BITS));
const INV_SQRT_PI = toDD((ONE_FIXED << BigInt(FIXED_BITS)) / SQRT_PI_FIXED);
const TWO_OVER_SQRT_PI: DD = [2 * INV_SQRT_PI[0], 2 * INV_SQRT_PI[1]];

/** 1/n! for the Taylor series of exp. */
const INVERSE_FACTORIALS: DD[] = [];
for (let n = 0, f = 1n; n <= 28; n++, f *= BigInt(n)) INVERSE_FACTORIALS.push(toDD(ONE_FIXED / f));

/** 1/(2j+1) for the series of atanh and atan. */
const INVERSE_ODDS: DD[] = [];
for (let j = 0; j <= 24; j++) INVERSE_ODDS.push(toDD(ONE_FIXED / BigInt(2 * j + 1)));

const PI_DD = toDD(PI_FIXED);
const [PIO2_1, PIO2_2, PIO2_3] = splitFixed(PI_FIXED >> 1n, 3) as [number, number, number];
const PIO2_DD: DD = [PIO2_1, PIO2_2];

/** atan(p/q) in fixed point, by Euler's series: terms shrink by p^2/(p^2+q^2). */
function atanOfRatio(p: bigint, q: bigint): bigint {
  const d = p * p + q * q;
  let term = (ONE_FIXED * p * q) / d;
  let sum = 0n;
  for (let n = 1n; term !== 0n; n++) {
    sum += term;
    term = (term * 2n * n * p * p) / ((2n * n + 1n) * d);
  }
  return sum;
}

/** atan(j/8) for j = 0..8: the base points of atan's argument reduction. */
const ATAN_EIGHTHS: DD[] = Array.from({ length: 9 }, (_, j) => toDD(atanOfRatio(BigInt(j), 8n)));

// ------------------------------------------------------------------ exp, log, pow, correctly rounded

/** exp(x) for a double-double x of moderate size, as m * 2**k with m a double-double near 1. */
function expScaled(x: DD): [DD, number] {
  const k = Math.round(x[0] / LN2_1);
  // r = x - k*ln2, with ln2 in three parts so that the reduction keeps about 150 bits.
  let r = ddSub(x, ddAdd(twoProd(k, LN2_1), twoProd(k, LN2_2)));
  r = ddSub(r, [k * LN2_3, 0]);
  // exp(r) = exp(r/64)**64; the series converges fast for |r/64| < 0.006.
  const s: DD = [r[0] / 64, r[1] / 64];
  let p = INVERSE_FACTORIALS[13]!;
  for (let i = 12; i >= 0; i--) p = ddAdd(ddMul(p, s), INVERSE_FACTORIALS[i]!);
  for (let i = 0; i < 6; i++) p = ddMul(p, p);
  return [p, k];
}

/** The double nearest to m * 2**k, m a positive double-double. */
function roundScaled(m: DD, k: number): number {
  const [hi, lo] = fastTwoSum(m[0], m[1]);
  if (k >= -1021) return ldexp(hi, k);
  // A subnormal result: round the exact sum once, on the 2**-1074 grid.
  const [mh, eh] = decompose(hi);
  if (lo === 0) return roundToDouble(mh, eh + k);
  const [ml, el] = decompose(Math.abs(lo));
  const base = Math.min(eh, el);
  const high = mh << BigInt(eh - base);
  const low = ml << BigInt(el - base);
  return roundToDouble(lo > 0 ? high + low : high - low, base + k);
}

function expDD(x: DD): number {
  if (x[0] > 710) return Infinity;
  if (x[0] < -746) return 0;
  const [m, k] = expScaled(x);
  return roundScaled(m, k);
}

export function exp(x: number): number {
  if (Number.isNaN(x)) return x;
  return expDD([x, 0]);
}

function exp2(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x > 1025) return Infinity;
  if (x < -1076) return 0;
  if (Number.isInteger(x)) return ldexp(1, x);
  return expDD(ddAdd(ddMulNum(LN2_DD, x), [LN2_3 * x, 0]));
}

/** log(x) for a positive finite x, as a double-double. */
function logDD(x: number): DD {
  let [m, e] = frexp(x);
  if (m < Math.SQRT1_2) {
    m *= 2;
    e -= 1;
  }
  // log(m) = 2 atanh(s), s = (m - 1)/(m + 1), |s| < 0.172; m - 1 is exact.
  const s = ddDiv([m - 1, 0], twoSum(m, 1));
  const s2 = ddMul(s, s);
  let p = INVERSE_ODDS[24]!;
  for (let j = 23; j >= 0; j--) p = ddAdd(ddMul(p, s2), INVERSE_ODDS[j]!);
  const logM = ddMul(s, [2 * p[0], 2 * p[1]]);
  if (e === 0) return logM;
  return ddAdd(logM, ddAdd(ddAdd(twoProd(e, LN2_1), twoProd(e, LN2_2)), [e * LN2_3, 0]));
}

/** C's log for x > 0 (callers handle the rest). */
export function log(x: number): number {
  if (!Number.isFinite(x)) return x;
  return logDD(x)[0];
}

const isOddInteger = (y: number) => Number.isInteger(y) && Math.abs(y) < 2 ** 53 && y % 2 !== 0;

/** C's pow for finite x and y: NaN for a negative base and a fractional exponent, ±inf at 0. */
function powFinite(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (x === 0) {
    if (y > 0) return isOddInteger(y) ? x : 0;
    return isOddInteger(y) ? 1 / x : Infinity;
  }
  let sign = 1;
  if (x < 0) {
    if (!Number.isInteger(y)) return NaN;
    if (isOddInteger(y)) sign = -1;
    x = -x;
  }
  return sign * powPositive(x, y);
}

function powPositive(x: number, y: number): number {
  let [m, e] = decompose(x);
  const zeros = bitLength(m & -m) - 1;
  m >>= BigInt(zeros);
  e += zeros;
  if (m === 1n && Number.isInteger(y)) return ldexp(1, Math.max(-1e5, Math.min(1e5, e * y)));
  // Small exact powers (x**2, x**3...) may fall exactly halfway between two doubles: round those
  // from the exact integer, not from an approximation.
  if (Number.isInteger(y) && y > 0 && bitLength(m) * y <= 128) return roundToDouble(m ** BigInt(y), e * y);
  // Far out of range (this also keeps y small enough for the double-double product).
  const estimate = Math.log(x) * y;
  if (estimate > 746) return Infinity;
  if (estimate < -746) return 0;
  return expDD(ddMulNum(logDD(x), y));
}

// ------------------------------------------------------------------ trigonometry, correctly rounded

// glibc's sin, cos, tan, asin, acos, atan and atan2 are correctly rounded in all but rare cases;
// JS Math's (fdlibm) differ from them in a few percent of results. These reduce the argument
// exactly enough, sum Taylor series in double-double and round once.

/** The integer part of 2^1300 * 2/pi, for reducing huge arguments (computed on first use). */
let twoOverPiFixed: bigint | null = null;
const REDUCTION_BITS = 1300;

function twoOverPi(): bigint {
  if (twoOverPiFixed === null) {
    const one = 1n << BigInt(REDUCTION_BITS + 64);
    const pi = 16n * atanOfInverse(5n, one) - 4n * atanOfInverse(239n, one);
    twoOverPiFixed = (2n << BigInt(2 * REDUCTION_BITS + 64)) / pi;
  }
  return twoOverPiFixed;
}

/** The double-double nearest to n * 2**e (n may be negative). */
function bigToDD(n: bigint, e: number): DD {
  const negative = n < 0n;
  const magnitude = negative ? -n : n;
  const hi = roundToDouble(magnitude, e);
  let rest = magnitude;
  if (hi !== 0) {
    const [m, he] = decompose(hi);
    rest = magnitude - (he >= e ? m << BigInt(he - e) : m >> BigInt(e - he));
  }
  const lo = rest < 0n ? -roundToDouble(-rest, e) : roundToDouble(rest, e);
  return negative ? [-hi, -lo] : [hi, lo];
}

/** |x| = k*pi/2 + r with |r| <= about pi/4: the quadrant k mod 4 and r. */
function reduce(ax: number): [number, DD] {
  if (ax < 0.785) return [0, [ax, 0]];
  if (ax < 1e6) {
    const k = Math.round(ax * (2 / Math.PI));
    let r = ddSub([ax, 0], twoProd(k, PIO2_1));
    r = ddSub(r, twoProd(k, PIO2_2));
    return [k % 4, ddSub(r, [k * PIO2_3, 0])];
  }
  // ax * 2/pi in fixed point: the integer part is the quadrant, the fraction times pi/2 is r.
  const [m, e] = decompose(ax);
  const product = m * twoOverPi();
  const shift = REDUCTION_BITS - e;
  let k = product >> BigInt(shift);
  let fraction = product - (k << BigInt(shift));
  if (fraction >= 1n << BigInt(shift - 1)) {
    fraction -= 1n << BigInt(shift);
    k += 1n;
  }
  return [Number(k % 4n), ddMul(bigToDD(fraction, -shift), PIO2_DD)];
}

/** sin(r) and cos(r) for |r| <= about pi/4, by their Taylor series. */
function sinKernel(r: DD): DD {
  const r2 = ddMul(r, r);
  let p = INVERSE_FACTORIALS[27]!;
  for (let n = 25; n >= 1; n -= 2) p = ddAdd(ddMul(ddNeg(p), r2), INVERSE_FACTORIALS[n]!);
  return ddMul(p, r);
}

function cosKernel(r: DD): DD {
  const r2 = ddMul(r, r);
  let p = INVERSE_FACTORIALS[28]!;
  for (let n = 26; n >= 0; n -= 2) p = ddAdd(ddMul(ddNeg(p), r2), INVERSE_FACTORIALS[n]!);
  return p;
}

const TINY = 2 ** -27;

export function sin(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  const ax = Math.abs(x);
  if (ax < TINY) return x;
  const [k, r] = reduce(ax);
  const v = k % 2 === 0 ? sinKernel(r) : cosKernel(r);
  const s = k >= 2 ? -v[0] : v[0];
  return x < 0 ? -s : s;
}

export function cos(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  const ax = Math.abs(x);
  if (ax < TINY) return 1;
  const [k, r] = reduce(ax);
  const v = k % 2 === 0 ? cosKernel(r) : sinKernel(r);
  return k === 1 || k === 2 ? -v[0] : v[0];
}

function tan(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  const ax = Math.abs(x);
  if (ax < TINY) return x;
  const [k, r] = reduce(ax);
  const s = sinKernel(r);
  const c = cosKernel(r);
  const t = k % 2 === 0 ? ddDiv(s, c)[0] : -ddDiv(c, s)[0];
  return x < 0 ? -t : t;
}

/** atan(t) for t >= 0 as a double-double: atan(j/8) plus the series of a small remainder. */
function atanDD(t: DD): DD {
  // Beyond 2**60, atan(t) = pi/2 - 1/t to well within the precision kept (and 1/t as a
  // double-double would overflow the splitting of t).
  if (t[0] > 2 ** 60) return ddSub(PIO2_DD, [1 / t[0], 0]);
  let invert = false;
  if (t[0] > 1) {
    t = ddDiv([1, 0], t);
    invert = true;
  }
  const j = Math.round(t[0] * 8);
  const c = j / 8;
  const u = ddDiv(ddSub(t, [c, 0]), ddAdd([1, 0], ddMulNum(t, c)));
  const u2 = ddMul(u, u);
  let p = INVERSE_ODDS[16]!;
  for (let n = 15; n >= 0; n--) p = ddAdd(ddMul(ddNeg(p), u2), INVERSE_ODDS[n]!);
  const r = ddAdd(ATAN_EIGHTHS[j]!, ddMul(u, p));
  return invert ? ddSub(PIO2_DD, r) : r;
}

function atan(x: number): number {
  if (Number.isNaN(x)) return x;
  const ax = Math.abs(x);
  if (ax < TINY) return x;
  const a = ax === Infinity ? PIO2_1 : atanDD([ax, 0])[0];
  return x < 0 ? -a : a;
}

/** sqrt of a double-double, by one Newton step from the double root. */
function ddSqrt(a: DD): DD {
  const y = Math.sqrt(a[0]);
  if (y === 0) return [0, 0];
  return fastTwoSum(y, ddSub(a, twoProd(y, y))[0] / (2 * y));
}

/** sqrt(1 - x*x) for |x| <= 1, with 1 - x*x exact. */
const cosOfAsin = (x: number) => ddSqrt(ddSub([1, 0], twoProd(x, x)));

function asin(x: number): number {
  if (Number.isNaN(x) || Math.abs(x) > 1) return NaN;
  const ax = Math.abs(x);
  if (ax < TINY) return x;
  const a = ax === 1 ? PIO2_1 : atanDD(ddDiv([ax, 0], cosOfAsin(ax)))[0];
  return x < 0 ? -a : a;
}

export function acos(x: number): number {
  if (Number.isNaN(x) || Math.abs(x) > 1) return NaN;
  if (x === 1) return 0;
  if (x === -1) return PI_DD[0];
  // Near 0, acos(x) = pi/2 - x - x**3/6 - ...; the ratio below would overflow.
  if (Math.abs(x) < TINY) return ddSub(PIO2_DD, [x + (x * x * x) / 6, 0])[0];
  const a = atanDD(ddDiv(cosOfAsin(x), [Math.abs(x), 0]));
  return x > 0 ? a[0] : ddSub(PI_DD, a)[0];
}

/** atan2 for finite, nonzero x and y (CPython's m_atan2 handles the rest). */
function atan2Finite(y: number, x: number): number {
  const q = Math.abs(y / x);
  if (!(q > 2 ** -1000 && q < 2 ** 1000)) return Math.atan2(y, x);
  // Scale both near 1 (exactly, by a power of two) so the double-double division cannot overflow.
  const scale = -frexp(Math.max(Math.abs(x), Math.abs(y)))[1];
  const a = atanDD(ddDiv([Math.abs(ldexp(y, scale)), 0], [Math.abs(ldexp(x, scale)), 0]));
  const r = x > 0 ? a[0] : ddSub(PI_DD, a)[0];
  return y < 0 ? -r : r;
}

// ------------------------------------------------------------------ libm functions on top of exp and log

/** cosh as C's libm computes it, from exp and expm1. */
function cosh(x: number): number {
  const ix = highWord(x) & 0x7fffffff;
  if (ix >= 0x7ff00000) return x * x;
  const a = Math.abs(x);
  if (ix < 0x3fd62e43) {
    if (ix < 0x3c800000) return 1;
    const t = Math.expm1(a);
    const w = 1 + t;
    return 1 + (t * t) / (w + w);
  }
  if (ix < 0x40360000) {
    const t = exp(a);
    return 0.5 * t + 0.5 / t;
  }
  if (ix < 0x40862e42) return 0.5 * exp(a);
  if (ix < 0x408633ce || (ix === 0x408633ce && lowWord(x) <= 0x8fb9f87d)) {
    const w = exp(0.5 * a);
    return 0.5 * w * w;
  }
  return Infinity;
}

/** sinh as C's libm computes it, from exp and expm1. */
function sinh(x: number): number {
  const ix = highWord(x) & 0x7fffffff;
  if (ix >= 0x7ff00000) return x + x;
  const h = x < 0 ? -0.5 : 0.5;
  const a = Math.abs(x);
  if (ix < 0x40360000) {
    if (ix < 0x3e300000) return x;
    const t = Math.expm1(a);
    if (ix < 0x3ff00000) return h * (2 * t - (t * t) / (t + 1));
    return h * (t + t / (t + 1));
  }
  if (ix < 0x40862e42) return h * exp(a);
  if (ix < 0x408633ce || (ix === 0x408633ce && lowWord(x) <= 0x8fb9f87d)) {
    const w = exp(0.5 * a);
    return h * w * w;
  }
  return x * Infinity;
}

// The thresholds below compare the high 32 bits of the double, as the C code does: a value just
// above 2 whose high word equals 2's takes the branch of values up to 2.

/** asinh as C's libm computes it, from log and log1p. */
function asinh(x: number): number {
  const ix = highWord(x) & 0x7fffffff;
  if (ix >= 0x7ff00000) return x + x;
  if (ix < 0x3e300000) return x;
  const a = Math.abs(x);
  let w: number;
  if (ix > 0x41b00000) w = log(a) + Math.LN2;
  else if (ix > 0x40000000) w = log(2 * a + 1 / (Math.sqrt(a * a + 1) + a));
  else {
    const t = a * a;
    w = Math.log1p(a + t / (1 + Math.sqrt(1 + t)));
  }
  return x < 0 ? -w : w;
}

/** acosh as C's libm computes it, from log and log1p. */
function acosh(x: number): number {
  const hx = highWord(x) | 0;
  if (hx < 0x3ff00000) return NaN;
  if (hx >= 0x41b00000) return hx >= 0x7ff00000 ? x + x : log(x) + Math.LN2;
  if (x === 1) return 0;
  if (hx > 0x40000000) return log(2 * x - 1 / (x + Math.sqrt(x * x - 1)));
  const t = x - 1;
  return Math.log1p(t + Math.sqrt(2 * t + t * t));
}

/** CPython's m_atan2: C99's special cases for infinities and zeros. */
function atan2(y: number, x: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (!Number.isFinite(y)) {
    if (!Number.isFinite(x)) return copysign(signBit(x) ? 0.75 * Math.PI : 0.25 * Math.PI, y);
    return copysign(0.5 * Math.PI, y);
  }
  if (!Number.isFinite(x) || y === 0) return signBit(x) ? copysign(Math.PI, y) : copysign(0, y);
  if (x === 0) return copysign(PIO2_1, y);
  return atan2Finite(y, x);
}

/** CPython's math.pow: C99's special values, then pow. */
export function mathPow(x: number, y: number): number {
  if (Number.isFinite(x) && Number.isFinite(y)) {
    const r = powFinite(x, y);
    if (Number.isNaN(r) || (x === 0 && !Number.isFinite(r))) throw domainError();
    if (!Number.isFinite(r)) throw rangeError();
    return r;
  }
  if (Number.isNaN(x)) return y === 0 ? 1 : x;
  if (Number.isNaN(y)) return x === 1 ? 1 : y;
  if (!Number.isFinite(x)) {
    const oddY = Number.isFinite(y) && Math.abs(y) % 2 === 1;
    if (y > 0) return oddY ? x : Math.abs(x);
    if (y === 0) return 1;
    return oddY ? copysign(0, x) : 0;
  }
  if (Math.abs(x) === 1) return 1;
  if (y > 0 && Math.abs(x) > 1) return y;
  if (y < 0 && Math.abs(x) < 1) return -y;
  return 0;
}

function fmod(x: number, y: number): number {
  if (!Number.isFinite(y) && Number.isFinite(x) && !Number.isNaN(y)) return x;
  return x % y;
}

/** IEEE 754 remainder: x - n*y with n the integer nearest x/y, ties to even. Exact. */
function remainder(x: number, y: number): number {
  if (Number.isFinite(x) && Number.isFinite(y)) {
    if (y === 0) return NaN;
    const ax = Math.abs(x);
    const ay = Math.abs(y);
    const m = ax % ay;
    const c = ay - m;
    let r: number;
    if (m < c) r = m;
    else if (m > c) r = -c;
    else r = m - 2 * ((0.5 * (ax - m)) % ay); // halfway: pick the even multiple
    return copysign(1, x) * r;
  }
  if (Number.isNaN(x)) return x;
  if (Number.isNaN(y)) return y;
  if (!Number.isFinite(x)) return NaN;
  return x;
}

function ulp(x: number): number {
  if (Number.isNaN(x)) return x;
  x = Math.abs(x);
  if (x === Infinity) return x;
  const up = nextafter(x, Infinity);
  if (up === Infinity) return x - nextafter(x, -Infinity);
  return up - x;
}

// ------------------------------------------------------------------ gamma and lgamma

// CPython computes both with a Lanczos approximation (g = 6.0246800407767296, 13 terms, the
// coefficients of Boost's lanczos13m53) and the reflection formula for negative arguments.
const LANCZOS_G = 6.024680040776729583740234375;
const LANCZOS_G_MINUS_HALF = 5.524680040776729583740234375;
const LANCZOS_NUM = [
  23531376880.410759688572007674451636754734846804940, 42919803642.649098768957899047001988850926355848959,
  35711959237.355668049440185451547166705960488635843, 17921034426.037209699919755754458931112671403265390,
  6039542586.3520280050642916443072979210699388420708, 1439720407.3117216736632230727949123939715485786772,
  248874557.86205415651146038641322942321632125127801, 31426415.585400194380614231628318205362874684987640,
  2876370.6289353724412254090516208496135991145378768, 186056.26539522349504029498971604569928220784236328,
  8071.6720023658162106380029022722506138218516325024, 210.82427775157934587250973392071336271166969580291,
  2.5066282746310002701649081771338373386264310793408,
];
// The coefficients of x(x+1)...(x+11), lowest power first.
const LANCZOS_DEN = [0, 39916800, 120543840, 150917976, 105258076, 45995730, 13339535, 2637558, 357423, 32670, 1925, 66, 1];
const LOG_PI = 1.1447298858494002; // log(pi)

/** (n-1)! for n = 1..23, exact as doubles. */
const GAMMA_INTEGRAL: number[] = [1];
for (let n = 1; n < 23; n++) GAMMA_INTEGRAL.push(GAMMA_INTEGRAL[n - 1]! * n);

function lanczosSum(x: number): number {
  let num = 0;
  let den = 0;
  const n = LANCZOS_NUM.length;
  // Evaluate as a ratio of polynomials in x for small x, in 1/x for large x, to avoid overflow.
  if (x < 5) {
    for (let i = n - 1; i >= 0; i--) {
      num = num * x + LANCZOS_NUM[i]!;
      den = den * x + LANCZOS_DEN[i]!;
    }
  } else {
    for (let i = 0; i < n; i++) {
      num = num / x + LANCZOS_NUM[i]!;
      den = den / x + LANCZOS_DEN[i]!;
    }
  }
  return num / den;
}

/** sin(pi*x), accurate also where pi*x would lose the argument's low bits. */
function sinpi(x: number): number {
  const y = Math.abs(x) % 2;
  const n = Math.round(2 * y);
  let r: number;
  switch (n) {
    case 0:
      r = sin(Math.PI * y);
      break;
    case 1:
      r = cos(Math.PI * (y - 0.5));
      break;
    case 2:
      r = sin(Math.PI * (1 - y));
      break;
    case 3:
      r = -cos(Math.PI * (y - 1.5));
      break;
    default:
      r = sin(Math.PI * (y - 2));
  }
  return copysign(1, x) * r;
}

function gamma(x: number): number {
  if (!Number.isFinite(x)) {
    if (Number.isNaN(x) || x > 0) return x;
    throw domainError();
  }
  if (x === 0) throw domainError();
  if (x === Math.floor(x)) {
    if (x < 0) throw domainError();
    if (x <= GAMMA_INTEGRAL.length) return GAMMA_INTEGRAL[x - 1]!;
  }
  const a = Math.abs(x);
  if (a < 1e-20) {
    const r = 1 / x;
    if (!Number.isFinite(r)) throw rangeError();
    return r;
  }
  if (a > 200) {
    if (x < 0) return 0 / sinpi(x);
    throw rangeError();
  }
  const y = a + LANCZOS_G_MINUS_HALF;
  let z: number;
  if (a > LANCZOS_G_MINUS_HALF) {
    const q = y - a;
    z = q - LANCZOS_G_MINUS_HALF;
  } else {
    const q = y - LANCZOS_G_MINUS_HALF;
    z = q - a;
  }
  z = (z * LANCZOS_G) / y;
  let r: number;
  if (x < 0) {
    r = (((-Math.PI / sinpi(a)) / a) * exp(y)) / lanczosSum(a);
    r -= z * r;
    if (a < 140) r /= powFinite(y, a - 0.5);
    else {
      const half = powFinite(y, a / 2 - 0.25);
      r /= half;
      r /= half;
    }
  } else {
    r = lanczosSum(a) / exp(y);
    r += z * r;
    if (a < 140) r *= powFinite(y, a - 0.5);
    else {
      const half = powFinite(y, a / 2 - 0.25);
      r *= half;
      r *= half;
    }
  }
  if (!Number.isFinite(r)) throw rangeError();
  return r;
}

function lgamma(x: number): number {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? x : Infinity;
  if (x === Math.floor(x) && x <= 2) {
    if (x <= 0) throw domainError();
    return 0;
  }
  const a = Math.abs(x);
  if (a < 1e-20) return -log(a);
  let r = log(lanczosSum(a)) - LANCZOS_G;
  r += (a - 0.5) * (log(a + LANCZOS_G - 0.5) - 1);
  if (x < 0) r = LOG_PI - log(Math.abs(sinpi(a))) - log(a) - r;
  if (!Number.isFinite(r)) throw rangeError();
  return r;
}

// ------------------------------------------------------------------ erf and erfc

/** (-1)^n / (n! (2n+1)), the coefficients of erf's Taylor series divided by 2/sqrt(pi). */
const ERF_COEFFICIENTS: DD[] = [[1, 0]];
for (let n = 1; n <= 80; n++) ERF_COEFFICIENTS.push(ddDiv(ddMulNum(ERF_COEFFICIENTS[n - 1]!, -(2 * n - 1)), [n * (2 * n + 1), 0]));

/** Below this, erf's series is summed directly; above, erfc's continued fraction is used. */
const ERF_SERIES_LIMIT = 3;

/** erf(x) for |x| < 3 from its Taylor series, as a double-double. */
function erfSeries(x: number): DD {
  const x2 = twoProd(x, x);
  // Enough terms that the next one is below 2**-110 of the sum.
  let terms = 1;
  for (let t = 1; t > 1e-34 && terms < ERF_COEFFICIENTS.length - 1; terms++) t *= x2[0] / terms;
  let p = ERF_COEFFICIENTS[terms]!;
  for (let n = terms - 1; n >= 0; n--) p = ddAdd(ddMul(p, x2), ERF_COEFFICIENTS[n]!);
  return ddMul(ddMulNum(p, x), TWO_OVER_SQRT_PI);
}

/**
 * erfc(x) for x >= 3, as m * 2**k: exp(-x*x)/sqrt(pi) times the even part of Laplace's continued
 * fraction, x / (x² + 1/2 - (1·2/4) / (x² + 5/2 - (3·4/4) / (x² + 9/2 - ...))).
 */
function erfcFraction(x: number): [DD, number] {
  const x2 = twoProd(x, x);
  const terms = Math.ceil(450 / x2[0]) + 12;
  let t = ddAdd(x2, [(4 * terms + 1) / 2, 0]);
  for (let k = terms; k >= 1; k--) {
    t = ddSub(ddAdd(x2, [(4 * k - 3) / 2, 0]), ddDiv([((2 * k - 1) * 2 * k) / 4, 0], t));
  }
  const [m, k] = expScaled(ddNeg(x2));
  return [ddMul(m, ddMulNum(ddDiv(INV_SQRT_PI, t), x)), k];
}

function erf(x: number): number {
  if (Number.isNaN(x)) return x;
  const a = Math.abs(x);
  if (a >= 6) return x > 0 ? 1 : -1;
  if (a === 0) return x;
  if (a < ERF_SERIES_LIMIT) {
    const s = erfSeries(x);
    return s[0] + s[1];
  }
  const [m, k] = erfcFraction(a);
  const r = ddSub([1, 0], [ldexp(m[0], k), ldexp(m[1], k)]);
  return x > 0 ? r[0] : -r[0];
}

function erfc(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x >= 28) return 0;
  if (x <= -6) return 2;
  if (x >= ERF_SERIES_LIMIT) {
    const [m, k] = erfcFraction(x);
    return roundScaled(m, k);
  }
  if (x <= -ERF_SERIES_LIMIT) {
    const [m, k] = erfcFraction(-x);
    const r = ddSub([2, 0], [ldexp(m[0], k), ldexp(m[1], k)]);
    return r[0];
  }
  const r = ddSub([1, 0], erfSeries(x));
  return r[0];
}

// ------------------------------------------------------------------ float to int

function floatToInt(x: number): number | bigint {
  if (Number.isNaN(x)) throw pyError("ValueError", "cannot convert float NaN to integer");
  if (!Number.isFinite(x)) throw pyError("OverflowError", "cannot convert float infinity to integer");
  return Number.isSafeInteger(x) ? x + 0 : BigInt(x);
}

function rounding(name: string, f: (x: number) => number, notReal: (v: Value) => never): NativeFn {
  return unary(name, (v) => {
    if (typeof v === "number" || typeof v === "bigint") return v;
    if (typeof v === "boolean") return v ? 1 : 0;
    if (v instanceof PyFloat) return floatToInt(f(v.v));
    return notReal(v);
  });
}

const mustBeReal = (v: Value): never => {
  throw pyError("TypeError", `must be real number, not ${typeName(v)}`);
};

// ------------------------------------------------------------------ logarithms of ints and floats

/**
 * CPython's loghelper: ints too large for a double are split as m * 2**e first, so math.log
 * works on any positive int.
 */
function logOf(v: Value, f: (x: number) => number, ln2: number): number {
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") {
    const n = typeof v === "boolean" ? (v ? 1 : 0) : v;
    if (n <= 0) throw domainError();
    if (typeof n === "number") return f(n);
    const d = bigToDouble(n);
    if (d !== null) return f(d);
    const e = bitLength(n);
    let m = roundToDouble(n, -e);
    let exponent = e;
    if (m === 1) {
      m = 0.5;
      exponent += 1;
    }
    return f(m) + ln2 * exponent;
  }
  const x = toDouble(v);
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x <= 0) throw domainError();
  return f(x);
}

const mathLog: NativeFn = (_ctx, args, kwargs) => {
  if (kwargs && kwargs.size > 0) throw pyError("TypeError", "log() takes no keyword arguments");
  if (args.length < 1 || args.length > 2) throw pyError("TypeError", "math.log requires 1 to 2 arguments");
  const num = logOf(args[0]!, log, Math.LN2);
  if (args.length === 1) return float(num);
  const den = logOf(args[1]!, log, Math.LN2);
  if (den === 0) throw pyError("ZeroDivisionError", "float division by zero");
  return float(num / den);
};

// ------------------------------------------------------------------ integer functions

/**
 * Euclid's algorithm, each division charged before it is done: the steps are few when the ints
 * share a big factor, and many (quadratic in all) for unrelated ones.
 */
function gcd2(ctx: NativeContext, a: bigint, b: bigint): bigint {
  while (b !== 0n) {
    if (!Number.isFinite(Number(a))) ctx.budget.step(divSteps(bitLength(a), bitLength(b)));
    [a, b] = [b, a % b];
  }
  return a < 0n ? -a : a;
}

function gcdNumbers(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

function gcdOf(ctx: NativeContext, a: number | bigint, b: number | bigint): number | bigint {
  if (typeof a === "number" && typeof b === "number") return gcdNumbers(a, b);
  return normInt(gcd2(ctx, big(a), big(b)));
}

function lcmOf(ctx: NativeContext, a: number | bigint, b: number | bigint): number | bigint {
  if (a === 0 || b === 0 || a === 0n || b === 0n) return 0;
  const A = big(a);
  const B = big(b);
  const aBits = bitLength(A);
  const bBits = bitLength(B);
  ctx.budget.checkSize(Math.ceil((aBits + bBits) / 8));
  ctx.budget.step(divSteps(aBits, bBits) + mulSteps(aBits, bBits));
  const l = (A / gcd2(ctx, A, B)) * B;
  return normInt(l < 0n ? -l : l);
}

/** The product lo * (lo+1) * ... * (hi-1), by halves so that the big multiplications balance. */
function rangeProduct(lo: bigint, hi: bigint): bigint {
  if (hi - lo <= 16n) {
    let p = 1n;
    for (let i = lo; i < hi; i++) p *= i;
    return p;
  }
  const mid = (lo + hi) >> 1n;
  return rangeProduct(lo, mid) * rangeProduct(mid, hi);
}

const LLONG_MAX = 9223372036854775807n;

/** log2 of x!, for estimating the size of a result before computing it. */
function log2Factorial(x: number): number {
  return x < 2 ? 0 : lgamma(x + 1) / Math.LN2;
}

/**
 * Charges the work and the size of a product of `factors` integers whose result has about
 * `bits` bits, before computing it: huge factorials fail fast.
 */
function chargeProduct(ctx: NativeContext, factors: number, bits: number): void {
  ctx.budget.step(productSteps(factors, bits));
  ctx.budget.checkSize(Math.ceil(bits / 8));
}

function factorial(ctx: NativeContext, v: Value): number | bigint {
  const n = big(toInt(v));
  if (n < 0n) throw pyError("ValueError", "factorial() not defined for negative values");
  if (n > LLONG_MAX) throw pyError("OverflowError", "factorial() argument should not exceed 9223372036854775807");
  const count = Number(n);
  chargeProduct(ctx, count, log2Factorial(count));
  return normInt(rangeProduct(1n, n + 1n));
}

function perm(ctx: NativeContext, nv: Value, kv: Value): number | bigint {
  const n = big(toInt(nv));
  const k = big(toInt(kv));
  if (n < 0n) throw pyError("ValueError", "n must be a non-negative integer");
  if (k < 0n) throw pyError("ValueError", "k must be a non-negative integer");
  if (k > n) return 0;
  if (k > LLONG_MAX) throw pyError("OverflowError", "k must not exceed 9223372036854775807");
  const count = Number(k);
  chargeProduct(ctx, count, count * Math.log2(Number(n) + 1));
  return normInt(rangeProduct(n - k + 1n, n + 1n));
}

function comb(ctx: NativeContext, nv: Value, kv: Value): number | bigint {
  const n = big(toInt(nv));
  let k = big(toInt(kv));
  if (n < 0n) throw pyError("ValueError", "n must be a non-negative integer");
  if (k < 0n) throw pyError("ValueError", "k must be a non-negative integer");
  if (k > n) return 0;
  if (n - k < k) k = n - k;
  if (k > LLONG_MAX) throw pyError("OverflowError", "min(n - k, k) must not exceed 9223372036854775807");
  if (k === 0n) return 1;
  const count = Number(k);
  // log2 C(n, k) <= k log2(n e / k).
  const bits = count * Math.log2((Number(n) * Math.E) / count) + 1;
  chargeProduct(ctx, 2 * count, bits);
  // The numerator, about bits + log2(k!), divided by k!.
  const denominator = log2Factorial(count);
  ctx.budget.step(divSteps(bits + denominator, denominator));
  return normInt(rangeProduct(n - k + 1n, n + 1n) / rangeProduct(1n, k + 1n));
}

function isqrt(ctx: NativeContext, v: Value): number | bigint {
  const n = toInt(v);
  if (n < 0) throw pyError("ValueError", "isqrt() argument must be nonnegative");
  if (typeof n === "number") return Number(isqrtBig(BigInt(n)));
  // Newton's method: about log2(bits) divisions of the whole number.
  ctx.budget.step(isqrtSteps(bitLength(n)));
  return normInt(isqrtBig(n));
}

// ------------------------------------------------------------------ sums, products and norms

/**
 * Shewchuk's exact summation as CPython's fsum does it: a list of non-overlapping partial sums,
 * rounded once at the end (with the half-way correction), and the same overflow and inf/nan
 * rules.
 */
export function fsum(values: number[]): number {
  const partials: number[] = [];
  let special = 0;
  let infSum = 0;
  for (let x of values) {
    const original = x;
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    if (x !== 0) {
      if (!Number.isFinite(x)) {
        // A non-finite sum from finite terms is an overflow; inf and nan terms are summed apart.
        if (Number.isFinite(original)) throw pyError("OverflowError", "intermediate overflow in fsum");
        if (!Number.isNaN(original)) infSum += original;
        special += original;
        partials.length = 0;
      } else partials.push(x);
    }
  }
  if (special !== 0) {
    if (Number.isNaN(infSum)) throw pyError("ValueError", "-inf + inf in fsum");
    return special;
  }
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  // Round half-even correctly: if the rest has the same sign as lo, the sum is not a tie.
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

/** sqrt of a sum of squares, correctly rounded (as CPython 3.11's hypot is), computed exactly. */
function norm(values: number[]): number {
  let max = 0;
  let sawNaN = false;
  for (const v of values) {
    if (Number.isNaN(v)) sawNaN = true;
    else max = Math.max(max, Math.abs(v));
  }
  if (max === Infinity) return Infinity;
  if (sawNaN) return NaN;
  if (max === 0) return 0;
  const parts = values.filter((v) => v !== 0).map((v) => decompose(Math.abs(v)));
  let base = Infinity;
  for (const [, e] of parts) base = Math.min(base, e);
  let sum = 0n;
  for (const [m, e] of parts) sum += (m * m) << BigInt(2 * (e - base));
  // sqrt(sum) * 2**base, with at least 56 bits of the root before rounding.
  const shift = Math.max(0, Math.ceil((112 - bitLength(sum)) / 2));
  const scaled = sum << BigInt(2 * shift);
  const root = isqrtBig(scaled);
  return roundToDouble(root, base - shift, root * root !== scaled);
}

const prod: NativeFn = (ctx, args, kwargs) => {
  const total = args.length + (kwargs?.size ?? 0);
  if (total > 2) throw pyError("TypeError", `prod() takes at most 2 arguments (${total} given)`);
  if (args.length !== 1) throw pyError("TypeError", `prod() takes exactly 1 positional argument (${args.length} given)`);
  let result: Value = 1;
  for (const [key, value] of kwargs ?? []) {
    if (key !== "start") throw pyError("TypeError", `'${key}' is an invalid keyword argument for prod()`);
    result = value;
  }
  // Item by item, paced: a step each (a sized iterable's first), Pending while the loop gets a turn.
  const r = eachItem(args[0]!, ctx, (item) => {
    result = binary("*", result, item, ctx.budget);
  });
  return waitable(after(r, () => result));
};

const isclose: NativeFn = (_ctx, args, kwargs) => {
  const total = args.length + (kwargs?.size ?? 0);
  if (total > 4) throw pyError("TypeError", `isclose() takes at most 4 arguments (${total} given)`);
  if (args.length > 2) throw pyError("TypeError", `isclose() takes exactly 2 positional arguments (${args.length} given)`);
  const names = ["a", "b", "rel_tol", "abs_tol"];
  const bound: (Value | undefined)[] = [args[0], args[1], undefined, undefined];
  for (const [key, value] of kwargs ?? []) {
    const i = names.indexOf(key);
    if (i < 0) throw pyError("TypeError", `'${key}' is an invalid keyword argument for isclose()`);
    if (bound[i] !== undefined) throw pyError("TypeError", `argument for isclose() given by name ('${key}') and position (${i + 1})`);
    bound[i] = value;
  }
  for (let i = 0; i < 2; i++) {
    if (bound[i] === undefined) throw pyError("TypeError", `isclose() missing required argument '${names[i]}' (pos ${i + 1})`);
  }
  const a = toDouble(bound[0]!);
  const b = toDouble(bound[1]!);
  const relTol = bound[2] === undefined ? 1e-9 : toDouble(bound[2]);
  const absTol = bound[3] === undefined ? 0 : toDouble(bound[3]);
  if (relTol < 0 || absTol < 0) throw pyError("ValueError", "tolerances must be non-negative");
  if (a === b) return true;
  if (!Number.isFinite(a) && !Number.isNaN(a)) return false;
  if (!Number.isFinite(b) && !Number.isNaN(b)) return false;
  const diff = Math.abs(b - a);
  return diff <= Math.abs(relTol * b) || diff <= Math.abs(relTol * a) || diff <= absTol;
};

// ------------------------------------------------------------------ the module

function pair(a: number, b: number | bigint): PyTuple {
  return new PyTuple([float(a), typeof b === "number" ? float(b) : b]);
}

export const MATH_MODULE: Record<string, NativeFn | Value> = {
  pi: float(Math.PI),
  e: float(Math.E),
  tau: float(2 * Math.PI),
  inf: float(Infinity),
  nan: float(NaN),

  ceil: rounding("ceil", Math.ceil, mustBeReal),
  floor: rounding("floor", Math.floor, mustBeReal),
  trunc: rounding("trunc", Math.trunc, (v) => {
    throw pyError("TypeError", `type ${typeName(v)} doesn't define __trunc__ method`);
  }),

  fabs: real("fabs", Math.abs, false),
  sqrt: real("sqrt", Math.sqrt, false),
  cbrt: real("cbrt", Math.cbrt, false),
  exp: real("exp", exp, true),
  exp2: real("exp2", exp2, true),
  expm1: real("expm1", Math.expm1, true),
  log2: unary("log2", (v) => float(logOf(v, Math.log2, 1))),
  log10: unary("log10", (v) => float(logOf(v, Math.log10, Math.log10(2)))),
  log1p: real("log1p", (x) => (x === 0 ? x : Math.log1p(x)), false),
  log: mathLog,
  pow: positional("pow", 2, 2, (_ctx, args) => float(mathPow(toDouble(args[0]!), toDouble(args[1]!)))),

  sin: real("sin", sin, false),
  cos: real("cos", cos, false),
  tan: real("tan", tan, false),
  asin: real("asin", asin, false),
  acos: real("acos", acos, false),
  atan: real("atan", atan, false),
  atan2: real2("atan2", atan2),
  sinh: real("sinh", sinh, true),
  cosh: real("cosh", cosh, true),
  tanh: real("tanh", Math.tanh, false),
  asinh: real("asinh", asinh, false),
  acosh: real("acosh", acosh, false),
  atanh: real("atanh", Math.atanh, false),

  degrees: unary("degrees", (v) => float(toDouble(v) * (180 / Math.PI))),
  radians: unary("radians", (v) => float(toDouble(v) * (Math.PI / 180))),
  copysign: real2("copysign", copysign),
  fmod: real2("fmod", fmod),
  remainder: real2("remainder", remainder),
  nextafter: positional("nextafter", 2, 2, (_ctx, args) => float(nextafter(toDouble(args[0]!), toDouble(args[1]!)))),
  ulp: unary("ulp", (v) => float(ulp(toDouble(v)))),
  modf: unary("modf", (v) => {
    const x = toDouble(v);
    if (!Number.isFinite(x)) return Number.isNaN(x) ? pair(x, x) : pair(copysign(0, x), x);
    const whole = Math.trunc(x);
    return pair(copysign(x - whole, x), whole);
  }),
  frexp: unary("frexp", (v) => {
    const [m, e] = frexp(toDouble(v));
    return new PyTuple([float(m), e]);
  }),
  ldexp: positional("ldexp", 2, 2, (_ctx, args) => {
    const x = toDouble(args[0]!);
    const i = args[1]!;
    if (typeof i !== "number" && typeof i !== "bigint" && typeof i !== "boolean") {
      throw pyError("TypeError", "Expected an int as second argument to ldexp.");
    }
    const n = Number(typeof i === "boolean" ? (i ? 1 : 0) : i);
    const r = ldexp(x, Math.max(-1e5, Math.min(1e5, n)));
    if (!Number.isFinite(r) && Number.isFinite(x)) throw rangeError();
    return float(r);
  }),

  isclose,
  isfinite: unary("isfinite", (v) => Number.isFinite(toDouble(v))),
  isinf: unary("isinf", (v) => {
    const x = toDouble(v);
    return x === Infinity || x === -Infinity;
  }),
  isnan: unary("isnan", (v) => Number.isNaN(toDouble(v))),

  gcd: (ctx, args, kwargs) => {
    noKeywords("gcd", kwargs);
    ctx.budget.step(args.length);
    let g: number | bigint = 0;
    for (const a of args) g = gcdOf(ctx, g, toInt(a));
    return g;
  },
  lcm: (ctx, args, kwargs) => {
    noKeywords("lcm", kwargs);
    ctx.budget.step(args.length);
    let l: number | bigint = 1;
    for (const a of args) l = lcmOf(ctx, l, toInt(a));
    return l;
  },
  isqrt: (ctx, args, kwargs) => unary("isqrt", (v) => isqrt(ctx, v))(ctx, args, kwargs),
  factorial: (ctx, args, kwargs) => unary("factorial", (v) => factorial(ctx, v))(ctx, args, kwargs),
  comb: positional("comb", 2, 2, (ctx, args) => comb(ctx, args[0]!, args[1]!)),
  perm: positional("perm", 1, 2, (ctx, args) => {
    if (args.length === 1 || args[1] === null) return factorial(ctx, args[0]!);
    return perm(ctx, args[0]!, args[1]!);
  }),
  prod,
  fsum: (ctx, args, kwargs) => unary("fsum", (v) => float(fsum(ctx.toList(v).map(toDouble))))(ctx, args, kwargs),
  hypot: (ctx, args, kwargs) => {
    noKeywords("hypot", kwargs);
    ctx.budget.step(args.length);
    return float(norm(args.map(toDouble)));
  },
  dist: positional("dist", 2, 2, (ctx, args) => {
    const p = ctx.toList(args[0]!);
    const q = ctx.toList(args[1]!);
    if (p.length !== q.length) throw pyError("ValueError", "both points must have the same number of dimensions");
    return float(norm(p.map((x, i) => Math.abs(toDouble(x) - toDouble(q[i]!)))));
  }),

  erf: real("erf", erf, false),
  erfc: real("erfc", erfc, false),
  gamma: unary("gamma", (v) => float(gamma(toDouble(v)))),
  lgamma: unary("lgamma", (v) => float(lgamma(toDouble(v)))),
};
