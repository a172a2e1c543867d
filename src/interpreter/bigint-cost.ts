// What arithmetic on big ints costs, in steps, from the sizes of its operands: the interpreter
// charges these BEFORE asking V8 for the result (SPEC §2), so that one operation cannot hold the
// event loop for long (at the default 1,000,000 steps, no allowed operation takes more than a few
// milliseconds). One step is about 10 ns of work. The figures come from Node 20's V8 on the
// 2-core machine this was written on, under load (test/interpreter/hostile-ints.test.ts keeps
// the wall times honest):
// - add, subtract, bitwise, shifts, negation: linear, 2-10 ns per 64-bit word (the most at sizes
//   past the caches: 60-70 ms for 4M words); compare: memcmp, uncharged;
// - text in a power-of-two base (toString(16), BigInt('0x...')): linear, 25-85 ns per word;
// - multiply: about 10-20 ns per word of the longer operand for a one-word shorter one, growing as
//   the shorter one does (schoolbook up to ~100 words, then Karatsuba, Toom-Cook and FFT): 45 ns at
//   16 words, 400 at 256, 1,000 at 4,096, 2,500 at 262,144;
// - divide and modulo: 60-85 ns per quotient word for a one-word divisor, 1,500 at 256 words,
//   5,000-7,000 at 4,096, 13,000 at 262,144 (Burnikel-Ziegler and Barrett, slower than multiply);
//   and even a two-word quotient costs 80-210 ns per word of the divisor (95 us at 1,000 words,
//   2.1 ms at 10,000), which makes Euclid's algorithm slow: gcd of two 1,400-word ints, 3.1 s
//   (math.gcd charges each of its divisions);
// - decimal text (toString(), BigInt(text)): quadratic at the sizes the digit limit allows, about
//   20 ns (toString) and 5 ns (parse) per squared word; power-of-two bases are linear.
// The model below is conservative: it charges more than the measured time at every size.

const TWO_1000 = 1n << 1000n;

/** The exact bit length of |x| (0 for 0), without building its digits as text for huge ones. */
export function bitLength(x: bigint): number {
  if (x < 0n) x = -x;
  if (x === 0n) return 0;
  if (x < TWO_1000) {
    const hex = x.toString(16);
    return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0]!, 16)));
  }
  // A binary search on x >> k: a shift at or past the top bit costs nothing, one below it costs
  // the bits left, so the probes sum to about twice the bit length in work (1.5 ms for 16M bits,
  // against 17 ms for toString(16)).
  let lo = 1000;
  let hi = 2 ** 32;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (x >> BigInt(mid) !== 0n) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The bit length of |x| for sizing charges: exact, or one more where a double rounds x up to a
 * power of two; read from the double below 2^1024, which is much quicker than bitLength.
 */
export function sizeBits(x: bigint): number {
  const f = Math.abs(Number(x));
  if (f === Infinity) return bitLength(x);
  return f === 0 ? 0 : Math.floor(Math.log2(f)) + 1;
}

/** The bit length of an int value (a number, bool or bigint). */
export function intBits(v: number | bigint | boolean): number {
  if (typeof v === "bigint") return bitLength(v);
  const n = Math.abs(Number(v));
  return n === 0 ? 0 : n < 2 ** 31 ? 32 - Math.clz32(n) : Math.floor(Math.log2(n)) + 1;
}

/** 64-bit words, as V8 stores a BigInt's magnitude. */
export function words(bits: number): number {
  return Math.ceil(bits / 64);
}

// Up to 1024 bits (16 words), linear work is a few dozen nanoseconds: the step of the statement
// or call that does it pays for it.
const TINY_BITS = 1024;

/** Linear work over `bits` (add, subtract, bitwise, shifts, copies): one step per word. */
export function linearSteps(bits: number): number {
  return bits <= TINY_BITS ? 0 : words(bits);
}

/** Text of, or from, an int of `bits` in a power-of-two base (hex(), bin(), int(s, 16)): linear, 8 steps per word. */
export function radixSteps(bits: number): number {
  return bits <= TINY_BITS ? 0 : 8 * words(bits);
}

/** Steps per word of the longer factor, when the shorter has `small` words. */
function perWordOfProduct(small: number): number {
  return 2 + Math.min(small / 4, 16 * (1 + Math.log2(small)));
}

/** a * b, from the operands' bit lengths. */
export function mulSteps(aBits: number, bBits: number): number {
  const wa = words(aBits);
  const wb = words(bBits);
  const big = Math.max(wa, wb);
  const small = Math.min(wa, wb);
  if (small === 0 || big <= 2) return 0;
  return Math.floor(big * perWordOfProduct(small));
}

/** a // b, a % b, divmod(a, b), from the operands' bit lengths (the quotient's size drives it). */
export function divSteps(aBits: number, bBits: number): number {
  const wa = words(aBits);
  const wb = Math.max(1, words(bBits));
  if (wa <= 2) return 0;
  const quotient = Math.max(1, wa - wb + 1);
  return Math.floor(quotient * (8 + Math.min(wb, 96 * (1 + Math.log2(wb)))) + 24 * wb + wa / 4);
}

/**
 * base ** exp with a result of `resultBits`: repeated squaring, whose last squaring dominates
 * (each one before it is of half the size); powers of two are a shift.
 */
export function powSteps(base: bigint, resultBits: number): number {
  // Up to 1024 bits, a few words' work: the one step per 64 bits charged already pays for it.
  if (resultBits <= TINY_BITS) return 0;
  const magnitude = base < 0n ? -base : base;
  if ((magnitude & (magnitude - 1n)) === 0n) return linearSteps(resultBits);
  const half = resultBits / 2;
  return 2 * mulSteps(half, half) + mulSteps(resultBits, bitLength(magnitude)) + linearSteps(resultBits);
}

/** Decimal text of, or from, an int of `bits` (quadratic in V8 at the sizes the digit limit allows). */
export function decimalSteps(bits: number): number {
  const w = words(bits);
  return w <= 2 ? 0 : 2 * w * w;
}

/**
 * A linear operation on a and b (add, subtract, bitwise): nothing below 1024 bits (a double holds
 * them, and the work is a few words), else linearSteps of the longer.
 */
export function linearOpSteps(a: bigint, b: bigint): number {
  if (Number.isFinite(Number(a)) && Number.isFinite(Number(b))) return 0;
  return linearSteps(Math.max(bitLength(a), bitLength(b)));
}

/**
 * A product of `factors` ints by halves (math.factorial, perm, comb) with a result of `bits`: each
 * level of the tree costs about what its top multiply does.
 */
export function productSteps(factors: number, bits: number): number {
  const levels = Math.max(1, Math.ceil(Math.log2(factors / 16)));
  return 2 * factors + levels * mulSteps(bits / 2, bits / 2);
}

/** Newton's isqrt of an int of `bits`: from a 52-bit start, each step doubles the bits right. */
export function isqrtSteps(bits: number): number {
  if (bits <= 52) return 0;
  return (Math.ceil(Math.log2(bits / 26)) + 2) * (divSteps(bits, bits / 2) + linearSteps(bits));
}
