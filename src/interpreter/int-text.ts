// Ints as text and back, under CPython 3.11's limit on decimal conversion (4300 digits, the
// default of sys.set_int_max_str_digits): V8, like CPython, converts decimal text in quadratic
// time at these sizes, so a longer conversion is a ValueError, raised before any work. Bases that
// are powers of two convert in linear time, and CPython does not limit them: nor do we.
import { bitLength, decimalSteps, radixSteps } from "./bigint-cost.js";
import type { Budget } from "./budget.js";
import { pyError } from "./errors.js";

export const MAX_STR_DIGITS = 4300;

/** The ValueError of too long a decimal text: `digits` is the count of the text read, if known. */
export function digitLimitError(digits?: number) {
  const has = digits === undefined ? "" : `: value has ${digits} digits`;
  return pyError("ValueError", `Exceeds the limit (${MAX_STR_DIGITS} digits) for integer string conversion${has}; use sys.set_int_max_str_digits() to increase the limit`);
}

// 4300 digits need more than 14281 bits; anything over 14286 bits has more than 4300 digits.
const MAX_DECIMAL_BITS = Math.ceil(MAX_STR_DIGITS * Math.log2(10)) + 1;
const DIGIT_LIMIT = 10n ** BigInt(MAX_STR_DIGITS);

/**
 * The decimal digits of an int (str(), repr(), format 'd', '%d', json.dumps), or the limit's
 * ValueError. `charge` receives the work in steps, before it is done.
 */
export function decimalText(v: number | bigint, charge?: (steps: number) => void): string {
  if (typeof v === "number") return String(v);
  const bits = bitLength(v);
  if (bits > MAX_DECIMAL_BITS || v >= DIGIT_LIMIT || v <= -DIGIT_LIMIT) throw digitLimitError();
  charge?.(decimalSteps(bits));
  return v.toString();
}

const RADIX_PREFIX: Partial<Record<number, string>> = { 2: "0b", 8: "0o", 16: "0x" };

/**
 * The value of validated digits (no sign, prefix or underscores; each below `base`). Decimal and
 * other bases that are not powers of two charge their quadratic work after the digit limit;
 * powers of two are read in linear time.
 */
export function digitsValue(digits: string, base: number, budget: Budget): bigint {
  const prefix = RADIX_PREFIX[base];
  if (prefix !== undefined) {
    budget.step(radixSteps(digits.length * Math.log2(base)));
    return BigInt(prefix + digits);
  }
  if (base === 4 || base === 32) {
    // Respelled in hex, a chunk of 48 or 40 bits at a time (a whole number of hex digits): still
    // linear. The first chunk is the short one, so that the others line up.
    const bitsPerDigit = base === 4 ? 2 : 5;
    const chunk = base === 4 ? 24 : 8;
    const hexPerChunk = (chunk * bitsPerDigit) / 4;
    // parseInt with these radixes is slow: about 1 us a chunk on this machine, under load.
    budget.step(radixSteps(digits.length * bitsPerDigit) + 128 * Math.ceil(digits.length / chunk));
    const first = digits.length % chunk || chunk;
    let hex = parseInt(digits.slice(0, first), base).toString(16);
    for (let i = first; i < digits.length; i += chunk) hex += parseInt(digits.slice(i, i + chunk), base).toString(16).padStart(hexPerChunk, "0");
    return BigInt("0x" + hex);
  }
  if (digits.length > MAX_STR_DIGITS) throw digitLimitError(digits.length);
  budget.step(decimalSteps(digits.length * Math.log2(base)));
  if (base === 10) return BigInt(digits);
  // Nine digits at a time, each chunk one multiply-add.
  const big = BigInt(base);
  let value = 0n;
  for (let i = 0; i < digits.length; i += 9) {
    const chunk = digits.slice(i, i + 9);
    value = value * big ** BigInt(chunk.length) + BigInt(parseInt(chunk, base));
  }
  return value;
}
