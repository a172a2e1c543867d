// The statistics module of CPython 3.11, for the sandbox's numbers (ints, bools and floats): the
// averages and measures of spread are computed exactly (exact-sum.ts) and converted as CPython
// converts them, so `mean([1, 2, 3])` is the int 2, `mean([1, 2])` the float 1.5, and a variance
// or standard deviation of floats is the same float python3 prints. median, quantiles and the
// other order statistics sort the data and interpolate with Python arithmetic, as statistics.py
// does. Errors are StatisticsError, a ValueError.
//
// Budget: a step per item read, one to four more for the exact sums (exact-sum.ts) and sorting's
// n·log2(n); big ints' work by their sizes (bigint-cost.ts). Sorted copies are charged as
// sorted()'s are; nothing else is kept.
import { bitLength, divSteps, isqrtSteps } from "../bigint-cost.js";
import { TYPES } from "../builtins.js";
import { EXC, PyExcType, PyException } from "../errors.js";
import { sortValues } from "../methods/containers.js";
import type { NativeContext, NativeFn } from "../native.js";
import { DONE } from "../objects.js";
import { binary, compare, equals, hashOf, iterate, length, ratioToFloat } from "../ops.js";
import { repr } from "../repr.js";
import { itemsSize, MAP_ENTRY, SLOT } from "../sizes.js";
import { type HashKey, isInt, normInt, PyFloat, PyList, truthy, typeName, type Value } from "../values.js";
import { bisectLeft, bisectRight } from "./bisect.js";
import { divide, exactSums, type Ratio, squaredDeviations } from "./exact-sum.js";
import { fsum, isqrtBig, MATH_MODULE } from "./math.js";
import { bindPy } from "../py-bind.js";

export const STATISTICS_ERROR = new PyExcType("StatisticsError", EXC.ValueError, "statistics");

function statisticsError(message: string): PyException {
  return new PyException(STATISTICS_ERROR, [message]);
}

const one = (name: string) => ({ name, params: ["data"], required: 1 });

/**
 * The values of an iterable, one at a time, a step each (nothing is kept); one that knows its
 * size pays for all of them first (mean(range(10**9)) is refused at once).
 */
function cursor(ctx: NativeContext, data: Value): () => Value | typeof DONE {
  const next = iterate(data);
  const size = sizeOf(data);
  if (size !== null) {
    ctx.budget.step(size);
    return next;
  }
  return () => {
    const v = next();
    if (v !== DONE) ctx.budget.step(1);
    return v;
  };
}

/** The sorted items of the data, as `sorted(data)`. */
function sorted(ctx: NativeContext, data: Value): Value[] {
  return sortValues(ctx, ctx.toList(data), null, false);
}

// ------------------------------------------------------------------ conversions

/** float(Fraction): n / d correctly rounded, OverflowError past the largest float. */
function toFloat(ctx: NativeContext, r: Ratio): PyFloat {
  ctx.budget.step(divSteps(bitLength(r.n), bitLength(r.d)));
  const x = ratioToFloat(r.n, r.d);
  if (!Number.isFinite(x)) throw new PyException(EXC.OverflowError, ["integer division result too large for a float"]);
  return new PyFloat(x);
}

/** _convert: an int when every value was an int and the result is whole, else a float. */
function convert(ctx: NativeContext, r: Ratio, type: "int" | "float"): Value {
  if (type === "int") {
    ctx.budget.step(divSteps(bitLength(r.n), bitLength(r.d)));
    if (r.n % r.d === 0n) return normInt(r.n / r.d);
  }
  return toFloat(ctx, r);
}

const ratio = (n: bigint | number, d: bigint | number = 1n): Ratio => ({ n: BigInt(n), d: BigInt(d) });

/** PyFloat_AsDouble, as math.fsum reads each value. */
function asDouble(v: Value): number {
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") {
    const d = Number(v);
    if (!Number.isFinite(d)) throw new PyException(EXC.OverflowError, ["int too large to convert to float"]);
    return d;
  }
  throw new PyException(EXC.TypeError, [`must be real number, not ${typeName(v)}`]);
}

/** len(v), or null for an iterable without one. */
function sizeOf(v: Value): number | null {
  try {
    return length(v);
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ averages

const mean: NativeFn = (ctx, args, kwargs) => {
  const [data] = bindPy(one("mean"), args, kwargs);
  const s = exactSums(cursor(ctx, data!), false, ctx.budget);
  if (s.count < 1) throw statisticsError("mean requires at least one data point");
  if (s.special !== null) return new PyFloat(s.special / s.count);
  return convert(ctx, { n: s.sum.n, d: s.sum.d * BigInt(s.count) }, s.type);
};

const fmean: NativeFn = (ctx, args, kwargs) => {
  const [data, weights] = bindPy({ name: "fmean", params: ["data", "weights"], required: 1 }, args, kwargs);
  let n = sizeOf(data!);
  const next = cursor(ctx, data!);
  if (weights === undefined || weights === null) {
    // math.fsum keeps the values as doubles: a slot each, and a couple of steps to read them.
    const values: number[] = [];
    for (let v = next(); v !== DONE; v = next()) {
      ctx.budget.step(2);
      ctx.budget.alloc(SLOT);
      values.push(asDouble(v));
    }
    const total = fsum(values);
    n ??= values.length;
    if (n === 0) throw statisticsError("fmean requires at least one data point");
    return new PyFloat(total / n);
  }
  const w = ctx.toList(weights);
  // map(mul, data, weights): it stops at the shorter, having read one more item of the data.
  const products: number[] = [];
  let read = 0;
  for (let i = 0; ; i++) {
    const v = next();
    if (v === DONE) break;
    read++;
    if (i >= w.length) break;
    ctx.budget.step(2);
    ctx.budget.alloc(SLOT);
    products.push(asDouble(binary("*", v, w[i]!, ctx.budget)));
  }
  const num = fsum(products);
  n ??= read;
  if (n !== w.length) throw statisticsError("data and weights must be the same length");
  const den = fsum(w.map(asDouble));
  if (den === 0) throw statisticsError("sum of weights must be non-zero");
  return new PyFloat(num / den);
};

const mathLog = MATH_MODULE.log as NativeFn;
const mathExp = MATH_MODULE.exp as NativeFn;

const geometricMean: NativeFn = (ctx, args, kwargs) => {
  const [data] = bindPy(one("geometric_mean"), args, kwargs);
  try {
    const logs: number[] = [];
    const next = cursor(ctx, data!);
    for (let v = next(); v !== DONE; v = next()) {
      ctx.budget.step(2);
      ctx.budget.alloc(SLOT);
      logs.push((mathLog(ctx, [v], null) as PyFloat).v);
    }
    if (logs.length === 0) throw statisticsError("fmean requires at least one data point");
    return mathExp(ctx, [new PyFloat(fsum(logs) / logs.length)], null);
  } catch (e) {
    if (e instanceof PyException && e.type.isSubclassOf(EXC.ValueError)) {
      throw statisticsError("geometric mean requires a non-empty dataset containing positive numbers");
    }
    throw e;
  }
};

const HARMONIC_NEGATIVE = "harmonic mean does not support negative values";

/** _fail_neg: each value, refused if it is below zero. */
function checkedNonNegative(ctx: NativeContext, v: Value): Value {
  if (compare("<", v, 0, ctx.budget)) throw statisticsError(HARMONIC_NEGATIVE);
  return v;
}

const harmonicMean: NativeFn = (ctx, args, kwargs) => {
  const [dataArg, weightsArg] = bindPy({ name: "harmonic_mean", params: ["data", "weights"], required: 1 }, args, kwargs);
  const data = ctx.toList(dataArg!);
  const n = data.length;
  if (n < 1) throw statisticsError("harmonic_mean requires at least one data point");
  if (n === 1 && (weightsArg === undefined || weightsArg === null)) {
    const x = data[0]!;
    if (!(isInt(x) || typeof x === "boolean" || x instanceof PyFloat)) throw new PyException(EXC.TypeError, ["unsupported type"]);
    if (compare("<", x, 0, ctx.budget)) throw statisticsError(HARMONIC_NEGATIVE);
    return x;
  }
  let weights: Value[];
  // A float when a weight is not finite (the sum is then a plain float sum, as in _sum).
  let sumWeights: Ratio | number;
  if (weightsArg === undefined || weightsArg === null) {
    weights = new Array<Value>(n).fill(1);
    sumWeights = ratio(n);
  } else {
    weights = ctx.toList(weightsArg);
    if (weights.length !== n) throw statisticsError("Number of weights does not match data size");
    let i = 0;
    const s = exactSums(() => (i < weights.length ? checkedNonNegative(ctx, weights[i++]!) : DONE), false, ctx.budget);
    sumWeights = s.special ?? s.sum;
  }
  let i = 0;
  let s;
  try {
    // w / x if w else 0, for each pair: a zero x makes the harmonic mean 0.
    s = exactSums(
      () => {
        if (i >= n) return DONE;
        const w = weights[i]!;
        const x = checkedNonNegative(ctx, data[i++]!);
        return truthy(w) ? binary("/", w, x, ctx.budget) : 0;
      },
      false,
      ctx.budget,
    );
  } catch (e) {
    if (e instanceof PyException && e.type === EXC.ZeroDivisionError) return 0;
    throw e;
  }
  if (s.special !== null ? s.special <= 0 : s.sum.n <= 0n) throw statisticsError("Weighted sum must be positive");
  // A Fraction meeting a float is converted to a float first, as Fraction's operators do.
  if (s.special !== null || typeof sumWeights === "number") {
    const asFloat = (v: Ratio | number) => (typeof v === "number" ? v : toFloat(ctx, v).v);
    return new PyFloat(asFloat(sumWeights) / asFloat(s.special ?? s.sum));
  }
  return convert(ctx, divide(sumWeights, s.sum, ctx.budget), s.type);
};

// ------------------------------------------------------------------ order statistics

const median: NativeFn = (ctx, args, kwargs) => {
  const [data] = bindPy(one("median"), args, kwargs);
  const items = sorted(ctx, data!);
  const n = items.length;
  if (n === 0) throw statisticsError("no median for empty data");
  if (n % 2 === 1) return items[n >> 1]!;
  const i = n >> 1;
  return binary("/", binary("+", items[i - 1]!, items[i]!, ctx.budget), 2, ctx.budget);
};

const medianLow: NativeFn = (ctx, args, kwargs) => {
  const [data] = bindPy(one("median_low"), args, kwargs);
  const items = sorted(ctx, data!);
  const n = items.length;
  if (n === 0) throw statisticsError("no median for empty data");
  return items[n % 2 === 1 ? n >> 1 : (n >> 1) - 1]!;
};

const medianHigh: NativeFn = (ctx, args, kwargs) => {
  const [data] = bindPy(one("median_high"), args, kwargs);
  const items = sorted(ctx, data!);
  if (items.length === 0) throw statisticsError("no median for empty data");
  return items[items.length >> 1]!;
};

const medianGrouped: NativeFn = (ctx, args, kwargs) => {
  const [data, intervalArg] = bindPy({ name: "median_grouped", params: ["data", "interval"], required: 1 }, args, kwargs);
  const items = new PyList(sorted(ctx, data!));
  const n = items.items.length;
  if (n === 0) throw statisticsError("no median for empty data");
  const x = items.items[n >> 1]!;
  const i = bisectLeft(ctx, items, x, 0, n, null);
  const j = bisectRight(ctx, items, x, i, n, null);
  let interval: number;
  let mid: number;
  try {
    interval = (TYPES.float!.construct(ctx, [intervalArg ?? new PyFloat(1)], null) as PyFloat).v;
    mid = (TYPES.float!.construct(ctx, [x], null) as PyFloat).v;
  } catch (e) {
    if (e instanceof PyException && e.type === EXC.ValueError) throw new PyException(EXC.TypeError, ["Value cannot be converted to a float"]);
    throw e;
  }
  const lower = mid - interval / 2.0;
  return new PyFloat(lower + (interval * (n / 2 - i)) / (j - i));
};

/** Counter(data): the distinct values (the first of equal ones), in first-seen order, and their counts. */
function counts(ctx: NativeContext, data: Value): { values: Value[]; counts: number[] } {
  const index = new Map<HashKey, number>();
  const values: Value[] = [];
  const tally: number[] = [];
  const next = cursor(ctx, data);
  for (let v = next(); v !== DONE; v = next()) {
    // Hashing and the table's work: a few steps.
    ctx.budget.step(3);
    const k = hashOf(v, ctx.budget);
    const i = index.get(k);
    if (i !== undefined) tally[i]!++;
    else {
      // A new key grows the table: V8's Maps take a few hundred ns an entry at large sizes.
      ctx.budget.step(8);
      ctx.budget.alloc(COUNTED);
      index.set(k, values.length);
      values.push(v);
      tally.push(1);
    }
  }
  return { values, counts: tally };
}

/** A distinct value counted: its table entry, and its slots in the two arrays. */
const COUNTED = MAP_ENTRY + 3 * SLOT;

const mode: NativeFn = (ctx, args, kwargs) => {
  const [data] = bindPy(one("mode"), args, kwargs);
  const c = counts(ctx, data!);
  if (c.values.length === 0) throw statisticsError("no mode for empty data");
  let best = 0;
  for (let i = 1; i < c.counts.length; i++) if (c.counts[i]! > c.counts[best]!) best = i;
  return c.values[best]!;
};

const multimode: NativeFn = (ctx, args, kwargs) => {
  const [data] = bindPy(one("multimode"), args, kwargs);
  const c = counts(ctx, data!);
  const most = c.counts.reduce((m, n) => Math.max(m, n), 0);
  const out = c.values.filter((_, i) => c.counts[i] === most);
  ctx.budget.alloc(itemsSize(out));
  return new PyList(out);
};

/** range(1, n)'s bound: an int. */
function loopBound(v: Value): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") throw new PyException(EXC.OverflowError, ["Python int too large to convert to C ssize_t"]);
  throw new PyException(EXC.TypeError, [`'${typeName(v)}' object cannot be interpreted as an integer`]);
}

const quantiles: NativeFn = (ctx, args, kwargs) => {
  const [data, nArg, methodArg] = bindPy({ name: "quantiles", params: ["data"], required: 1, kwonly: ["n", "method"] }, args, kwargs);
  const nValue = nArg ?? 4;
  const method = methodArg ?? "exclusive";
  if (compare("<", nValue, 1, ctx.budget)) throw statisticsError("n must be at least 1");
  const items = sorted(ctx, data!);
  const ld = items.length;
  if (ld < 2) throw statisticsError("must have at least two data points");
  const inclusive = equals(method, "inclusive");
  if (!inclusive && !equals(method, "exclusive")) throw new PyException(EXC.ValueError, [`Unknown method: ${repr(method)}`]);
  const n = loopBound(nValue);
  const out: Value[] = [];
  const mix = (a: Value, wa: number, b: Value, wb: number): Value =>
    binary("/", binary("+", binary("*", a, wa, ctx.budget), binary("*", b, wb, ctx.budget), ctx.budget), n, ctx.budget);
  for (let i = 1; i < n; i++) {
    ctx.budget.step(1);
    if (inclusive) {
      const m = ld - 1;
      const j = Math.floor((i * m) / n);
      const delta = i * m - j * n;
      out.push(mix(items[j]!, n - delta, items[j + 1]!, delta));
    } else {
      const m = ld + 1;
      let j = Math.floor((i * m) / n);
      j = j < 1 ? 1 : j > ld - 1 ? ld - 1 : j;
      const delta = i * m - j * n;
      out.push(mix(items[j - 1]!, n - delta, items[j]!, delta));
    }
  }
  ctx.budget.alloc(itemsSize(out));
  return new PyList(out);
};

// ------------------------------------------------------------------ spread

/** _ss: the type to convert to, the sum of squared deviations (a float when non-finite) and the count. */
function ss(ctx: NativeContext, data: Value, c: Value | undefined): { type: "int" | "float"; ssd: Ratio | number; count: number } {
  if (c !== undefined && c !== null) {
    // With the mean given, the squares are made in Python arithmetic, then summed exactly.
    const next = cursor(ctx, data);
    const squares = () => {
      const x = next();
      if (x === DONE) return DONE;
      const d = binary("-", x, c, ctx.budget);
      return binary("*", d, d, ctx.budget);
    };
    const s = exactSums(squares, false, ctx.budget);
    return { type: s.type, ssd: s.special ?? s.sum, count: s.count };
  }
  const s = exactSums(cursor(ctx, data), true, ctx.budget);
  if (s.count === 0) return { type: s.type, ssd: ratio(0), count: 0 };
  if (s.special !== null) return { type: s.type, ssd: s.special, count: s.count };
  return { type: s.type, ssd: squaredDeviations(s, ctx.budget), count: s.count };
}

/** Square root of n / m as a float, correctly rounded (CPython's _float_sqrt_of_frac, round-to-odd). */
function sqrtOfFraction(ctx: NativeContext, n: bigint, m: bigint): number {
  const roundToOdd = (a: bigint, b: bigint): bigint => {
    ctx.budget.step(divSteps(bitLength(a), bitLength(b)) + isqrtSteps(bitLength(a) - bitLength(b)));
    const r = isqrtBig(a / b);
    return r * r * b !== a ? r | 1n : r;
  };
  const q = Math.floor((bitLength(n) - bitLength(m) - 109) / 2);
  if (q >= 0) return ratioToFloat(roundToOdd(n, m << BigInt(2 * q)) << BigInt(q), 1n);
  return ratioToFloat(roundToOdd(n << BigInt(-2 * q), m), 1n << BigInt(-q));
}

function spread(name: string, center: string, sample: boolean, root: boolean): NativeFn {
  return (ctx, args, kwargs) => {
    const [data, c] = bindPy({ name, params: ["data", center], required: 1 }, args, kwargs);
    const { type, ssd, count } = ss(ctx, data!, c);
    if (count < (sample ? 2 : 1)) throw statisticsError(`${name} requires at least ${sample ? "two data points" : "one data point"}`);
    const divisor = sample ? count - 1 : count;
    if (typeof ssd === "number") {
      // mss is a float here, not a Fraction: CPython's stdev asks it for a numerator.
      if (root) throw new PyException(EXC.AttributeError, ["'float' object has no attribute 'numerator'"]);
      return new PyFloat(ssd / divisor);
    }
    const mss = { n: ssd.n, d: ssd.d * BigInt(divisor) };
    if (root) return new PyFloat(sqrtOfFraction(ctx, mss.n, mss.d));
    return convert(ctx, mss, type);
  };
}

export const STATISTICS_MODULE: Record<string, NativeFn | Value> = {
  mean,
  fmean,
  geometric_mean: geometricMean,
  harmonic_mean: harmonicMean,
  median,
  median_low: medianLow,
  median_high: medianHigh,
  median_grouped: medianGrouped,
  mode,
  multimode,
  quantiles,
  variance: spread("variance", "xbar", true, false),
  pvariance: spread("pvariance", "mu", false, false),
  stdev: spread("stdev", "xbar", true, true),
  pstdev: spread("pstdev", "mu", false, true),
  StatisticsError: STATISTICS_ERROR,
};
