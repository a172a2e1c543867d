// datetime.timedelta: a duration of days, seconds and microseconds, normalized as CPython
// normalizes it (0 <= seconds < 86400, 0 <= microseconds < 10**6, |days| <= 999999999). Every
// operation works on the exact count of microseconds (a bigint: it reaches 8.64e19), with
// CPython's rounding where a float or a division enters (half to even).
import { bitLength, linearSteps, mulSteps } from "../bigint-cost.js";
import type { Budget } from "../budget.js";
import { pyError } from "../errors.js";
import { NOT_HANDLED, type NotHandled, type Operator, type Ordering, PyClass, PyInstance } from "../instance.js";
import type { NativeFn } from "../native.js";
import { ratioToFloat } from "../ops.js";
import { floatRatio, normInt, PyFloat, PyTuple, typeName, type Value } from "../values.js";
import { asCInt, parseArgs, roundHalfAway } from "./datetime-args.js";

const US_PER_SECOND = 1000000n;
const US_PER_DAY = 86400000000n;
const MAX_DAYS = 999999999;

export class Delta extends PyInstance {
  constructor(
    readonly days: number,
    readonly seconds: number,
    readonly microseconds: number,
  ) {
    super();
  }

  get cls(): PyClass {
    return TIMEDELTA;
  }

  override get typeName(): string {
    return "datetime.timedelta";
  }

  /** The whole duration in microseconds. */
  get micros(): bigint {
    return BigInt(this.days) * US_PER_DAY + BigInt(this.seconds * 1000000 + this.microseconds);
  }

  /** The duration in microseconds as a double (exact below 2**53: any offset of a time zone). */
  get microsNumber(): number {
    return (this.days * 86400 + this.seconds) * 1e6 + this.microseconds;
  }

  pyRepr(): string {
    const parts: string[] = [];
    if (this.days !== 0) parts.push(`days=${this.days}`);
    if (this.seconds !== 0) parts.push(`seconds=${this.seconds}`);
    if (this.microseconds !== 0) parts.push(`microseconds=${this.microseconds}`);
    return `datetime.timedelta(${parts.length ? parts.join(", ") : "0"})`;
  }

  override pyStr(): string {
    const hh = Math.floor(this.seconds / 3600);
    const mm = Math.floor((this.seconds % 3600) / 60);
    const ss = this.seconds % 60;
    let s = `${hh}:${pad2(mm)}:${pad2(ss)}`;
    if (this.days !== 0) s = `${this.days} day${Math.abs(this.days) !== 1 ? "s" : ""}, ${s}`;
    if (this.microseconds !== 0) s += "." + String(this.microseconds).padStart(6, "0");
    return s;
  }

  override pyAttr(name: string): Value | undefined {
    switch (name) {
      case "days":
        return this.days;
      case "seconds":
        return this.seconds;
      case "microseconds":
        return this.microseconds;
    }
    return TIMEDELTA.attrs.get(name);
  }

  override pyHash(): string {
    return `\u0000td${this.micros}`;
  }

  override pyEquals(other: Value): boolean {
    return other instanceof Delta && other.days === this.days && other.seconds === this.seconds && other.microseconds === this.microseconds;
  }

  override pyCompare(op: Ordering, other: Value): boolean | NotHandled {
    if (!(other instanceof Delta)) return NOT_HANDLED;
    return ordered(op, compareDeltas(this, other));
  }

  override pyBool(): boolean {
    return this.days !== 0 || this.seconds !== 0 || this.microseconds !== 0;
  }

  override pyUnary(op: "-" | "+" | "~"): Value {
    if (op === "-") return deltaOf(-this.micros);
    if (op === "+") return this;
    throw pyError("TypeError", "bad operand type for unary ~: 'datetime.timedelta'");
  }

  override pyAbs(): Value {
    return this.days < 0 ? deltaOf(-this.micros) : this;
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    if (other instanceof Delta) {
      const [a, b] = reflected ? [other.micros, this.micros] : [this.micros, other.micros];
      switch (op) {
        case "+":
          return deltaOf(a + b);
        case "-":
          return deltaOf(a - b);
        case "/":
          if (b === 0n) throw pyError("ZeroDivisionError", "division by zero");
          return new PyFloat(trueDivide(a, b));
        case "//":
          if (b === 0n) throw pyError("ZeroDivisionError", "integer division or modulo by zero");
          return normInt(floorDiv(a, b));
        case "%":
          if (b === 0n) throw pyError("ZeroDivisionError", "integer modulo by zero");
          return deltaOf(a - floorDiv(a, b) * b);
        case "divmod": {
          if (b === 0n) throw pyError("ZeroDivisionError", "integer division or modulo by zero");
          const q = floorDiv(a, b);
          return new PyTuple([normInt(q), deltaOf(a - q * b)]);
        }
      }
      return NOT_HANDLED;
    }
    const int = intOf(other);
    if (int !== null) {
      if (op === "*") {
        budget.step(mulSteps(bitLength(int), 68));
        return deltaOf(this.micros * int);
      }
      if (reflected) return NOT_HANDLED;
      if (op === "/") {
        budget.step(linearSteps(bitLength(int)));
        return deltaOf(divideNearest(this.micros, int));
      }
      if (op === "//") {
        if (int === 0n) throw pyError("ZeroDivisionError", "integer division or modulo by zero");
        budget.step(linearSteps(bitLength(int)));
        return deltaOf(floorDiv(this.micros, int));
      }
      return NOT_HANDLED;
    }
    if (other instanceof PyFloat && (op === "*" || (op === "/" && !reflected))) {
      const [num, den] = ratioOf(other.v);
      budget.step(linearSteps(bitLength(num) + bitLength(den)));
      return op === "*" ? deltaOf(divideNearest(this.micros * num, den)) : deltaOf(divideNearest(this.micros * den, num));
    }
    return NOT_HANDLED;
  }
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

/** An int operand (bools are ints), or null. */
function intOf(v: Value): bigint | null {
  if (typeof v === "number" || typeof v === "bigint") return BigInt(v);
  if (typeof v === "boolean") return v ? 1n : 0n;
  return null;
}

/** float.as_integer_ratio(), with its errors for NaN and infinities. */
function ratioOf(x: number): [bigint, bigint] {
  if (Number.isNaN(x)) throw pyError("ValueError", "cannot convert NaN to integer ratio");
  if (!Number.isFinite(x)) throw pyError("OverflowError", "cannot convert Infinity to integer ratio");
  return floatRatio(x);
}

export function compareDeltas(a: Delta, b: Delta): number {
  if (a.days !== b.days) return a.days < b.days ? -1 : 1;
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.microseconds === b.microseconds ? 0 : a.microseconds < b.microseconds ? -1 : 1;
}

/** The answer of an ordering given how its operands compare (-1, 0, 1). */
export function ordered(op: Ordering, c: number): boolean {
  return op === "<" ? c < 0 : op === "<=" ? c <= 0 : op === ">" ? c > 0 : c >= 0;
}

export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** a / b rounded to the nearest int, ties to even (CPython's divide_nearest). */
function divideNearest(a: bigint, b: bigint): bigint {
  if (b === 0n) throw pyError("ZeroDivisionError", "integer division or modulo by zero");
  let q = floorDiv(a, b);
  const twice = 2n * (a - q * b);
  const c = b > 0n ? (twice > b ? 1 : twice === b ? 0 : -1) : twice < b ? 1 : twice === b ? 0 : -1;
  if (c > 0 || (c === 0 && (q & 1n) === 1n)) q += 1n;
  return q;
}

/** a / b as a correctly rounded double. */
function trueDivide(a: bigint, b: bigint): number {
  const negative = a < 0n !== b < 0n;
  const r = ratioToFloat(a < 0n ? -a : a, b < 0n ? -b : b);
  return negative ? -r : r;
}

/** The timedelta of `us` microseconds, or CPython's OverflowError when its days do not fit. */
export function deltaOf(us: bigint): Delta {
  const seconds = floorDiv(us, US_PER_SECOND);
  const micro = Number(us - seconds * US_PER_SECOND);
  const days = floorDiv(seconds, 86400n);
  const secs = Number(seconds - days * 86400n);
  const d = asCInt(days);
  if (d > MAX_DAYS || d < -MAX_DAYS) throw pyError("OverflowError", `days=${d}; must have magnitude <= ${MAX_DAYS}`);
  return new Delta(d, secs, micro);
}

/** A timedelta from JS numbers already known to be in range (days, seconds and microseconds of any sign). */
export function deltaFrom(days: number, seconds: number, microseconds: number): Delta {
  return deltaOf(BigInt(days) * US_PER_DAY + BigInt(seconds) * US_PER_SECOND + BigInt(microseconds));
}

const NAMES = ["days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"];
/** The microseconds in one unit of each argument. */
const FACTORS = [US_PER_DAY, US_PER_SECOND, 1n, 1000n, 60n * US_PER_SECOND, 3600n * US_PER_SECOND, 7n * US_PER_DAY];
/** CPython sums the parts in this order, which decides how float fractions round. */
const ORDER = [2, 3, 1, 4, 5, 0, 6];

/**
 * timedelta(days, seconds, microseconds, milliseconds, minutes, hours, weeks): ints exactly;
 * a float's whole part exactly, and its fractions summed as doubles and rounded once at the end,
 * half to even (CPython's delta_new and accum).
 */
const construct: NativeFn = (ctx, args, kwargs) => {
  const given = parseArgs({ fname: "__new__", names: NAMES, required: 0 }, args, kwargs, (_i, v) => v);
  let total = 0n;
  let leftover = 0;
  for (const i of ORDER) {
    const v = given[i];
    if (v === undefined) continue;
    const factor = FACTORS[i]!;
    const int = intOf(v);
    if (int !== null) {
      ctx.budget.step(linearSteps(bitLength(int)));
      total += int * factor;
      continue;
    }
    if (!(v instanceof PyFloat)) throw pyError("TypeError", `unsupported type for timedelta ${NAMES[i]} component: ${typeName(v)}`);
    const x = v.v;
    if (Number.isNaN(x)) throw pyError("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(x)) throw pyError("OverflowError", "cannot convert float infinity to integer");
    const whole = Math.trunc(x);
    total += BigInt(whole) * factor;
    const fraction = x - whole;
    if (fraction === 0) continue;
    const scaled = Number(factor) * fraction;
    const scaledWhole = Math.trunc(scaled);
    total += BigInt(scaledWhole);
    leftover += scaled - scaledWhole;
  }
  if (leftover !== 0) {
    let whole = roundHalfAway(leftover);
    if (Math.abs(whole - leftover) === 0.5) {
      // Exactly halfway: to even, counting the parity of the sum so far.
      const odd = (total & 1n) === 1n ? 1 : 0;
      whole = 2 * roundHalfAway((leftover + odd) * 0.5) - odd;
    }
    total += BigInt(whole);
  }
  return deltaOf(total);
};

export const TIMEDELTA = new PyClass("timedelta", "datetime", construct);

TIMEDELTA.methods.set("total_seconds", (_ctx, self: Delta, args) => {
  if (args.length) throw pyError("TypeError", `timedelta.total_seconds() takes no arguments (${args.length} given)`);
  return new PyFloat(trueDivide(self.micros, US_PER_SECOND));
});
TIMEDELTA.attrs.set("min", new Delta(-MAX_DAYS, 0, 0));
TIMEDELTA.attrs.set("max", new Delta(MAX_DAYS, 86399, 999999));
TIMEDELTA.attrs.set("resolution", new Delta(0, 0, 1));

/** The zero duration (a shared value: timedeltas are immutable). */
export const ZERO = new Delta(0, 0, 0);
