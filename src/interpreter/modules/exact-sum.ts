// The exact arithmetic of CPython's statistics module (its _sum and _ss): every int and float of
// the data is an exact ratio, summed without rounding, so that the mean of [1, 2, 3] is the int 2
// and a variance of floats is the float nearest to the true one. CPython sums Fractions; the
// sandbox's numbers are ints and floats, whose denominators are powers of two, so each sum is an
// integer over a power of two.
//
// The sums are kept in pieces: an integer m times 2**e is added as its 18-bit pieces (a square as
// the five products of those), each to a double that counts units of its power of two; every so
// often each counter's multiples of 2**18 are carried to the counter 18 powers up. A double holds
// integers exactly up to 2**53, so the counters stay exact, and a float costs a few additions
// instead of big-int work (ten times quicker). Big ints are summed apart, as big ints.
import { bitLength, linearSteps, mulSteps } from "../bigint-cost.js";
import type { Budget } from "../budget.js";
import { pyError } from "../errors.js";
import { DONE } from "../objects.js";
import { PyFloat, typeName, type Value } from "../values.js";

/** An exact rational n / d with d > 0 (not necessarily in lowest terms). */
export interface Ratio {
  n: bigint;
  d: bigint;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

const LIMB = 2 ** 18;
/** Adds of at most 2**38 between carries keep every counter below 2**53. */
const CARRY_EVERY = 2 ** 14;

/** Sums of integers times powers of two, exactly (see the top of the file). */
class LimbSum {
  /** counts[i]: units of 2**(i - offset). */
  private readonly counts: Float64Array;
  private low: number;
  private high = -1;
  private adds = 0;
  /** Ints while their sum is a safe integer, and big ints: the units of 2**0 kept apart. */
  private small = 0;
  private big = 0n;

  constructor(
    /** The exponent of the smallest power added, negated. */
    private readonly offset: number,
    span: number,
    private readonly budget: Budget,
  ) {
    this.counts = new Float64Array(span);
    this.low = span;
  }

  /** Adds v * 2**e, for an integer |v| <= 2**38. */
  addPiece(v: number, e: number): void {
    if (v === 0) return;
    const i = e + this.offset;
    this.counts[i] += v;
    if (i < this.low) this.low = i;
    if (i > this.high) this.high = i;
    if (++this.adds >= CARRY_EVERY) this.carry();
  }

  /** Adds m * 2**e for an integer |m| < 2**54, as three pieces of 18 bits. */
  addWide(m: number, e: number): void {
    const sign = m < 0 ? -1 : 1;
    const x = Math.abs(m);
    const top = Math.floor(x / (LIMB * LIMB));
    const rest = x - top * LIMB * LIMB;
    const middle = Math.floor(rest / LIMB);
    this.addPiece(sign * (rest - middle * LIMB), e);
    this.addPiece(sign * middle, e + 18);
    this.addPiece(sign * top, e + 36);
  }

  /** Adds an int. */
  addInt(n: number): void {
    const s = this.small + n;
    if (Number.isSafeInteger(s)) this.small = s;
    else this.addWide(n, 0);
  }

  /** Adds a big int, charged by its size. */
  addBig(n: bigint): void {
    this.budget.step(linearSteps(bitLength(n)));
    this.big += n;
  }

  /** Moves each counter's multiples of 2**18 to the counter 18 places up (its remainder stays). */
  private carry(): void {
    this.adds = 0;
    const c = this.counts;
    this.budget.step((this.high - this.low) >> 3);
    for (let i = this.low; i <= this.high; i++) {
      const v = c[i]!;
      if (v > -LIMB && v < LIMB) continue;
      const q = Math.floor(v / LIMB);
      c[i] = v - q * LIMB;
      c[i + 18] += q;
      if (i + 18 > this.high) this.high = i + 18;
    }
  }

  /** The total as n / 2**k. */
  total(): { n: bigint; k: number } {
    const k = Math.max(0, this.offset - this.low);
    let n = (this.big + BigInt(this.small)) << BigInt(k);
    const c = this.counts;
    // Each counter is shifted into place: a word of work per 64 bits of the span.
    const words = Math.ceil((this.high - this.low + 1) / 64);
    for (let i = this.low; i <= this.high; i++) {
      const v = c[i]!;
      if (v === 0) continue;
      this.budget.step(words);
      n += BigInt(v) << BigInt(i - this.offset + k);
    }
    return { n, k };
  }
}

/** What _sum and _ss find of the data: the type to convert to, and the non-finite sum if any. */
export interface DataSums {
  /** "float" once a float is seen, else "int" (bools count as ints, as CPython coerces them). */
  type: "int" | "float";
  count: number;
  /** The sum of the non-finite values (inf, nan), which makes the exact sums moot; else null. */
  special: number | null;
  /** The exact sum of the values. */
  sum: Ratio;
  /** The exact sum of their squares (for _ss), when asked. */
  squares: Ratio | null;
}

function notNumeric(v: Value): never {
  throw pyError("TypeError", `can't convert type '${typeName(v)}' to numerator/denominator`);
}

/** Adds (m * 2**e)**2 for |m| < 2**54: m as three 18-bit pieces a, b, c, and the square's five terms. */
function addSquare(sq: LimbSum, m: number, e: number): void {
  const x = Math.abs(m);
  const a = Math.floor(x / (LIMB * LIMB));
  const rest = x - a * LIMB * LIMB;
  const b = Math.floor(rest / LIMB);
  const c = rest - b * LIMB;
  const e2 = 2 * e;
  sq.addPiece(c * c, e2);
  sq.addPiece(2 * b * c, e2 + 18);
  sq.addPiece(2 * a * c + b * b, e2 + 36);
  sq.addPiece(2 * a * b, e2 + 54);
  sq.addPiece(a * a, e2 + 72);
}

/**
 * CPython's _sum (squares false) and the sums of _ss (squares true) of what `next` gives: each an
 * int, bool or float, anything else a TypeError with CPython's message.
 */
export function exactSums(next: () => Value | typeof DONE, squares: boolean, budget: Budget): DataSums {
  // Exponents of floats run from -1074 to 971, plus the limbs above; squares', twice that.
  const sx = new LimbSum(1074, 2200, budget);
  const sxx = squares ? new LimbSum(2148, 4400, budget) : null;
  let type: "int" | "float" = "int";
  let special: number | null = null;
  let count = 0;
  // A float's pieces cost about a step (10 ns); its square's, three more.
  const perItem = squares ? 4 : 1;
  for (let v = next(); v !== DONE; v = next()) {
    count++;
    budget.step(perItem);
    if (typeof v === "number" || typeof v === "boolean") {
      const n = typeof v === "boolean" ? (v ? 1 : 0) : v;
      sx.addInt(n);
      if (sxx !== null) {
        const square = n * n;
        if (Number.isSafeInteger(square)) sxx.addInt(square);
        else addSquare(sxx, n, 0);
      }
    } else if (typeof v === "bigint") {
      sx.addBig(v);
      if (sxx !== null) {
        const bits = bitLength(v);
        budget.step(mulSteps(bits, bits));
        sxx.addBig(v * v);
      }
    } else if (v instanceof PyFloat) {
      type = "float";
      const x = v.v;
      if (!Number.isFinite(x)) {
        // The partial of denominator None: a plain float sum, starting from the int 0.
        special = (special ?? 0) + x;
        continue;
      }
      // x = m * 2**e exactly, m the 53-bit significand with its sign.
      F64[0] = x;
      const hi = U32[1]!;
      const biased = (hi >>> 20) & 0x7ff;
      const m = ((hi & 0xfffff) + (biased === 0 ? 0 : 0x100000)) * 4294967296 + U32[0]!;
      const e = biased === 0 ? -1074 : biased - 1075;
      sx.addWide(x < 0 ? -m : m, e);
      if (sxx !== null) addSquare(sxx, m, e);
    } else notNumeric(v);
  }
  const total = sx.total();
  const sum = { n: total.n, d: 1n << BigInt(total.k) };
  let sq: Ratio | null = null;
  if (sxx !== null) {
    const t = sxx.total();
    sq = { n: t.n, d: 1n << BigInt(t.k) };
  }
  return { type, count, special, sum, squares: sq };
}

/** a / b of exact ratios. */
export function divide(a: Ratio, b: Ratio, budget: Budget): Ratio {
  chargeProduct(a.n, b.d, budget);
  chargeProduct(a.d, b.n, budget);
  const n = a.n * b.d;
  const d = a.d * b.n;
  return d < 0n ? { n: -n, d: -d } : { n, d };
}

function chargeProduct(a: bigint, b: bigint, budget: Budget): void {
  budget.step(mulSteps(bitLength(a), bitLength(b)));
}

/**
 * The exact sum of squared deviations, as _ss computes it from the two sums:
 * ssd = (count * sxx - sx * sx) / count.
 */
export function squaredDeviations(s: DataSums, budget: Budget): Ratio {
  const { sum, squares, count } = s;
  const c = BigInt(count);
  // sx = A / D and sxx = B / E, D and E powers of two: over the common denominator D * D * E.
  chargeProduct(sum.n, sum.n, budget);
  chargeProduct(squares!.n, sum.d, budget);
  const n = c * squares!.n * sum.d * sum.d - sum.n * sum.n * squares!.d;
  return { n, d: squares!.d * sum.d * sum.d * c };
}
