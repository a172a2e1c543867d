// The real-valued distributions of CPython 3.11's random module, each drawing as random.py
// draws (gauss keeps its second value for the next call) and computing with the same libm
// functions (math.ts's exp, log, cos, sin, acos and pow agree with glibc's), so a seeded
// generator gives CPython's values to the last bit. Parameters meet random() in Python
// arithmetic (`mu + z * sigma`), so an int or a wrong type behaves as in CPython.
import { EXC, PyException, pyError } from "../errors.js";
import type { NativeContext, NativeMethod } from "../native.js";
import { binary, compare } from "../ops.js";
import { PyFloat, type Value } from "../values.js";
import { acos, cos, exp, log, mathPow, sin } from "./math.js";
import type { MethodMaker, PyRandom } from "./random.js";
import { toDouble } from "./math.js";

const TWOPI = 2 * Math.PI;
const NV_MAGICCONST = (4 * exp(-0.5)) / Math.sqrt(2.0);
const LOG4 = log(4.0);
const SG_MAGICCONST = 1.0 + log(4.5);

/** math.log: ValueError at 0 and below, as in CPython. */
function mlog(x: number): number {
  if (x <= 0) throw pyError("ValueError", "math domain error");
  return log(x);
}

/** math.exp: OverflowError where a finite argument overflows. */
function mexp(x: number): number {
  const r = exp(x);
  if (r === Infinity && Number.isFinite(x)) throw pyError("OverflowError", "math range error");
  return r;
}

/** math.sqrt of a Python value. */
function msqrt(v: Value): number {
  const x = toDouble(v);
  if (x < 0) throw pyError("ValueError", "math domain error");
  return Math.sqrt(x);
}

const float = (x: number) => new PyFloat(x);
const ZERO = float(0);
const ONE = float(1);

/** `mu + z * sigma`, in Python arithmetic. */
function scaled(ctx: NativeContext, mu: Value, z: number, sigma: Value): Value {
  return binary("+", mu, binary("*", float(z), sigma, ctx.budget), ctx.budget);
}

function normal(self: PyRandom): number {
  for (;;) {
    const u1 = self.mt.random();
    const u2 = 1.0 - self.mt.random();
    const z = (NV_MAGICCONST * (u1 - 0.5)) / u2;
    if ((z * z) / 4.0 <= -mlog(u2)) return z;
  }
}

/** Gamma(alpha, 1) for a valid alpha, as random.py's three methods draw it. */
function gamma(self: PyRandom, alpha: number): number {
  const random = () => self.mt.random();
  if (alpha > 1.0) {
    // R.C.H. Cheng's method.
    const ainv = Math.sqrt(2.0 * alpha - 1.0);
    const bbb = alpha - LOG4;
    const ccc = alpha + ainv;
    for (;;) {
      const u1 = random();
      if (!(1e-7 < u1 && u1 < 0.9999999)) continue;
      const u2 = 1.0 - random();
      const v = mlog(u1 / (1.0 - u1)) / ainv;
      const x = alpha * mexp(v);
      const z = u1 * u1 * u2;
      const r = bbb + ccc * v - x;
      if (r + SG_MAGICCONST - 4.5 * z >= 0.0 || r >= mlog(z)) return x;
    }
  }
  if (alpha === 1.0) return -mlog(1.0 - random());
  // Algorithm GS of Kennedy and Gentle, for 0 < alpha < 1.
  for (;;) {
    const u = random();
    const b = (Math.E + alpha) / Math.E;
    const p = b * u;
    const x = p <= 1.0 ? mathPow(p, 1.0 / alpha) : -mlog((b - p) / alpha);
    const u1 = random();
    if (p > 1.0 ? u1 <= mathPow(x, alpha - 1.0) : u1 <= mexp(-x)) return x;
  }
}

function checkGamma(ctx: NativeContext, alpha: Value, beta: Value): void {
  if (compare("<=", alpha, ZERO, ctx.budget) || compare("<=", beta, ZERO, ctx.budget)) throw pyError("ValueError", "gammavariate: alpha and beta must be > 0.0");
}

/** The distribution methods of Random, made with random.ts's `method` (bound as random.py's defs). */
export function distributions(method: MethodMaker): Record<string, NativeMethod<PyRandom>> {
  return {
    uniform: method("uniform", ["a", "b"], 2, (ctx, self, [a, b]) => {
      const width = binary("-", b!, a!, ctx.budget);
      return binary("+", a!, binary("*", width, self.float(), ctx.budget), ctx.budget);
    }),
    triangular: method("triangular", ["low", "high", "mode"], 0, (ctx, self, [lowArg, highArg, mode]) => {
      let low = lowArg ?? ZERO;
      let high = highArg ?? ONE;
      let u = self.mt.random();
      let c: Value;
      try {
        c = mode === undefined || mode === null ? float(0.5) : binary("/", binary("-", mode, low, ctx.budget), binary("-", high, low, ctx.budget), ctx.budget);
      } catch (e) {
        if (!(e instanceof PyException && e.type === EXC.ZeroDivisionError)) throw e;
        return low;
      }
      if (compare(">", float(u), c, ctx.budget)) {
        u = 1.0 - u;
        c = binary("-", ONE, c, ctx.budget);
        [low, high] = [high, low];
      }
      const root = msqrt(binary("*", float(u), c, ctx.budget));
      return binary("+", low, binary("*", binary("-", high, low, ctx.budget), float(root), ctx.budget), ctx.budget);
    }),
    normalvariate: method("normalvariate", ["mu", "sigma"], 0, (ctx, self, [mu, sigma]) => scaled(ctx, mu ?? ZERO, normal(self), sigma ?? ONE)),
    gauss: method("gauss", ["mu", "sigma"], 0, (ctx, self, [mu, sigma]) => {
      let z = self.gaussNext;
      self.gaussNext = null;
      if (z === null) {
        const x2pi = self.mt.random() * TWOPI;
        const g2rad = Math.sqrt(-2.0 * mlog(1.0 - self.mt.random()));
        z = cos(x2pi) * g2rad;
        self.gaussNext = sin(x2pi) * g2rad;
      }
      return scaled(ctx, mu ?? ZERO, z, sigma ?? ONE);
    }),
    lognormvariate: method("lognormvariate", ["mu", "sigma"], 2, (ctx, self, [mu, sigma]) => float(mexp(toDouble(scaled(ctx, mu!, normal(self), sigma!))))),
    expovariate: method("expovariate", ["lambd"], 1, (ctx, self, [lambd]) => binary("/", float(-mlog(1.0 - self.mt.random())), lambd!, ctx.budget)),
    vonmisesvariate: method("vonmisesvariate", ["mu", "kappa"], 2, (ctx, self, [mu, kappaArg]) => {
      if (compare("<=", kappaArg!, float(1e-6), ctx.budget)) return float(TWOPI * self.mt.random());
      const kappa = toDouble(kappaArg!);
      const s = 0.5 / kappa;
      const r = s + Math.sqrt(1.0 + s * s);
      let z: number;
      for (;;) {
        const u1 = self.mt.random();
        z = cos(Math.PI * u1);
        const d = z / (r + z);
        const u2 = self.mt.random();
        if (u2 < 1.0 - d * d || u2 <= (1.0 - d) * mexp(d)) break;
      }
      const q = 1.0 / r;
      const f = (q + z) / (1.0 + q * z);
      const u3 = self.mt.random();
      const angle = float(acos(f));
      const theta = u3 > 0.5 ? binary("+", mu!, angle, ctx.budget) : binary("-", mu!, angle, ctx.budget);
      return binary("%", theta, float(TWOPI), ctx.budget);
    }),
    gammavariate: method("gammavariate", ["alpha", "beta"], 2, (ctx, self, [alpha, beta]) => {
      checkGamma(ctx, alpha!, beta!);
      return binary("*", float(gamma(self, toDouble(alpha!))), beta!, ctx.budget);
    }),
    betavariate: method("betavariate", ["alpha", "beta"], 2, (ctx, self, [alpha, beta]) => {
      checkGamma(ctx, alpha!, ONE);
      const y = gamma(self, toDouble(alpha!));
      if (y === 0) return ZERO;
      checkGamma(ctx, beta!, ONE);
      return float(y / (y + gamma(self, toDouble(beta!))));
    }),
    paretovariate: method("paretovariate", ["alpha"], 1, (ctx, self, [alpha]) => {
      const u = 1.0 - self.mt.random();
      return float(mathPow(u, toDouble(binary("/", float(-1.0), alpha!, ctx.budget))));
    }),
    weibullvariate: method("weibullvariate", ["alpha", "beta"], 2, (ctx, self, [alpha, beta]) => {
      const u = 1.0 - self.mt.random();
      const p = mathPow(-mlog(u), toDouble(binary("/", ONE, beta!, ctx.budget)));
      return binary("*", alpha!, float(p), ctx.budget);
    }),
  };
}
