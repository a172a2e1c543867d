// String formatting as CPython does it: format(value, spec) and f-string `{x:spec}` (the format-spec
// mini-language), the `%` operator on str, and str.format. CPython 3.11 is the reference: its
// outputs, its rounding (correctly rounded, ties to even, on the exact binary value) and its error
// messages. The structure follows CPython's own (Python/formatter_unicode.c, Python/pystrtod.c,
// Objects/unicodeobject.c, Objects/stringlib/unicode_format.h) so that edge cases agree.
//
// Every output is paid for before it is built: a width or a precision of a billion fails with a
// ResourceLimitError at once instead of allocating a gigabyte.
import { EXC, PyException, pyError } from "./errors.js";
import { PyInstance } from "./instance.js";
import type { Kwargs, NativeContext } from "./native.js";
import { ascii, floatRepr, repr, str, textCharge } from "./repr.js";
import { intBits, radixSteps } from "./bigint-cost.js";
import { decimalText } from "./int-text.js";
import { EMPTY_TUPLE, PyBytes, PyDict, PyFloat, PyList, PyRange, PyTuple, typeName, type Value } from "./values.js";

// ------------------------------------------------------------------ format(value, spec)

/** Python's format(value, spec): what `{value:spec}` in an f-string produces. */
export function formatValue(ctx: NativeContext, value: Value, spec: string): string {
  return FormatSpec.of(spec).format(ctx, value);
}

/**
 * A format spec, parsed on first use for each kind of value it formats: ints, floats and strs
 * default to different types and alignments (format(5, '') is '5', format(5.0, '') '5.0'), so each
 * parses it apart. Whether a spec parses does not depend on the value (only the wording of the
 * error does), and nothing modifies a parse. A caller that formats with one spec over and over (an
 * f-string field) can keep its FormatSpec and skip the look-up by text.
 */
export class FormatSpec {
  private str: Spec | null = null;
  private int: Spec | null = null;
  private float: Spec | null = null;

  private constructor(readonly text: string) {}

  private static readonly empty = new FormatSpec("");

  /** The FormatSpec of `text`, from a cache of the specs used last. */
  static of(text: string): FormatSpec {
    // The empty spec (`{x!r}`, `{x}` of a non-str) is the most common one.
    if (text === "") return FormatSpec.empty;
    let spec = FORMAT_SPECS.get(text);
    if (spec === undefined) {
      if (FORMAT_SPECS.size >= 512) FORMAT_SPECS.clear();
      spec = new FormatSpec(text);
      FORMAT_SPECS.set(text, spec);
    }
    return spec;
  }

  /** format(value, this spec). */
  format(ctx: NativeContext, value: Value): string {
    const text = this.text;
    if (typeof value === "string") {
      if (text === "") return charged(ctx, value);
      return formatStr(ctx, value, (this.str ??= readSpec(text, value, "s", "<")));
    }
    if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") {
      // bool formats as int, except that the empty spec is str(): format(True, '') == 'True'.
      if (text === "") return charged(ctx, typeof value === "boolean" ? (value ? "True" : "False") : String(value));
      return formatInt(ctx, value, (this.int ??= readSpec(text, value, "d", ">")));
    }
    if (value instanceof PyFloat) {
      if (text === "") return charged(ctx, str(value));
      return formatFloatSpec(ctx, value.v, (this.float ??= readSpec(text, value, "", ">")), "float");
    }
    if (value instanceof PyInstance && value.pyFormat) return value.pyFormat(ctx, text);
    if (text === "") return str(value, textCharge(ctx.budget, 0));
    throw pyError("TypeError", `unsupported format string passed to ${typeName(value)}.__format__`);
  }
}

/** FormatSpecs by text: f-strings and str.format use the same few specs over and over. */
const FORMAT_SPECS = new Map<string, FormatSpec>();

export { ascii };

/** A parsed `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`. */
interface Spec {
  fill: string;
  align: string;
  /** "" (none), "+", "-" or " ". */
  sign: string;
  noNegativeZero: boolean;
  alternate: boolean;
  /** -1 when absent. */
  width: number;
  /** "" (none), "," or "_". */
  thousands: string;
  /** -1 when absent. */
  precision: number;
  /** "" when absent (floats only: ints default to "d", strings to "s"). */
  type: string;
  /** Digits per group when `thousands` is given (3, or 4 for '_' in bin/oct/hex), else 0. */
  groupSize: number;
}

const SSIZE_MAX = 9223372036854775807n;
const INT_MAX = 2147483647;

/** Parses a spec (frozen: every later use shares it). `value` only words the errors. */
function readSpec(spec: string, value: Value, defaultType: string, defaultAlign: string): Spec {
  return Object.freeze(parseSpec(spec, value, defaultType, defaultAlign));
}

function parseSpec(spec: string, value: Value, defaultType: string, defaultAlign: string): Spec {
  const chars = Array.from(spec);
  const end = chars.length;
  let pos = 0;
  const out: Spec = {
    fill: " ",
    align: defaultAlign,
    sign: "",
    noNegativeZero: false,
    alternate: false,
    width: -1,
    thousands: "",
    precision: -1,
    type: defaultType,
    groupSize: 0,
  };
  let fillGiven = false;
  let alignGiven = false;
  if (end >= 2 && isAlign(chars[1]!)) {
    out.fill = chars[0]!;
    out.align = chars[1]!;
    fillGiven = alignGiven = true;
    pos = 2;
  } else if (end >= 1 && isAlign(chars[0]!)) {
    out.align = chars[0]!;
    alignGiven = true;
    pos = 1;
  }
  if (pos < end && (chars[pos] === "+" || chars[pos] === "-" || chars[pos] === " ")) out.sign = chars[pos++]!;
  if (pos < end && chars[pos] === "z") {
    out.noNegativeZero = true;
    pos++;
  }
  if (pos < end && chars[pos] === "#") {
    out.alternate = true;
    pos++;
  }
  // A leading 0 (without an explicit fill) means zero padding, after the sign for numbers.
  if (!fillGiven && pos < end && chars[pos] === "0") {
    out.fill = "0";
    if (!alignGiven && defaultAlign === ">") out.align = "=";
    pos++;
  }
  const width = readDecimal(chars, pos);
  pos = width.end;
  if (width.end > width.start) out.width = width.value;
  if (pos < end && chars[pos] === ",") {
    out.thousands = ",";
    pos++;
  }
  if (pos < end && chars[pos] === "_") {
    if (out.thousands !== "") throw pyError("ValueError", "Cannot specify both ',' and '_'.");
    out.thousands = "_";
    pos++;
  }
  if (pos < end && chars[pos] === "," && out.thousands === "_") {
    throw pyError("ValueError", "Cannot specify both ',' and '_'.");
  }
  if (pos < end && chars[pos] === ".") {
    const precision = readDecimal(chars, pos + 1);
    if (precision.end === precision.start) throw pyError("ValueError", "Format specifier missing precision");
    out.precision = precision.value;
    pos = precision.end;
  }
  if (end - pos > 1) {
    throw pyError("ValueError", `Invalid format specifier '${spec}' for object of type '${typeName(value)}'`);
  }
  if (end - pos === 1) out.type = chars[pos]!;
  // Grouping applies to decimal output (PEP 378); '_' also to bin/oct/hex, every 4 digits (PEP 515).
  const groupable =
    out.type === "" || isCode(out.type, "defgEG%F") || (out.thousands === "_" && isCode(out.type, "boxX"));
  if (out.thousands !== "" && !groupable) {
    throw pyError("ValueError", `Cannot specify '${out.thousands}' with ${quotedCode(out.type)}.`);
  }
  if (out.thousands !== "") out.groupSize = out.thousands === "_" && isCode(out.type, "boxX") ? 4 : 3;
  return out;
}

/** Whether `type` is one of the single-character codes in `codes`. */
function isCode(type: string, codes: string): boolean {
  return type.length === 1 && codes.includes(type);
}

function isAlign(c: string): boolean {
  return c === "<" || c === ">" || c === "=" || c === "^";
}

/** A format code in an error message: 'x', or '\x1' when it is not printable ASCII. */
function quotedCode(code: string): string {
  const c = code.codePointAt(0) ?? 0;
  return c > 32 && c < 128 ? `'${code}'` : `'\\x${c.toString(16)}'`;
}

/** Reads decimal digits (any Unicode decimal digit, as CPython) starting at `start`. */
function readDecimal(chars: string[], start: number): { start: number; end: number; value: number } {
  let end = start;
  while (end < chars.length && decimalValue(chars[end]!) >= 0) end++;
  return { start, end, value: end > start ? decimalNumber(chars.slice(start, end)) : 0 };
}

function decimalNumber(chars: string[]): number {
  let value = 0;
  for (const c of chars) value = value * 10 + decimalValue(c);
  if (chars.length > 15 && decimalBigInt(chars) > SSIZE_MAX) {
    throw pyError("ValueError", "Too many decimal digits in format string");
  }
  return value;
}

function decimalBigInt(chars: string[]): bigint {
  return chars.reduce((acc, c) => acc * 10n + BigInt(decimalValue(c)), 0n);
}

const DECIMAL_DIGIT = /^\p{Nd}$/u;

/** The value of a decimal digit of any script (CPython's Py_UNICODE_TODECIMAL), or -1. */
function decimalValue(ch: string): number {
  const code = ch.codePointAt(0)!;
  if (code >= 48 && code <= 57) return code - 48;
  if (code < 128 || !DECIMAL_DIGIT.test(ch)) return -1;
  // Unicode encodes decimal digits in contiguous runs that start at a zero.
  let start = code;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return (code - start) % 10;
}

// ------------------------------------------------------------------ str

function formatStr(ctx: NativeContext, s: string, spec: Spec): string {
  if (spec.type !== "s") throw unknownCode(spec.type, "str");
  if (spec.sign === " ") throw pyError("ValueError", "Space not allowed in string format specifier");
  if (spec.sign !== "") throw pyError("ValueError", "Sign not allowed in string format specifier");
  if (spec.noNegativeZero) {
    throw pyError("ValueError", "Negative zero coercion (z) not allowed in string format specifier");
  }
  if (spec.alternate) throw pyError("ValueError", "Alternate form (#) not allowed in string format specifier");
  if (spec.align === "=") throw pyError("ValueError", "'=' alignment not allowed in string format specifier");
  let length = codePointLength(s);
  if (spec.precision >= 0 && length > spec.precision) {
    s = codePointPrefix(s, spec.precision);
    length = spec.precision;
  }
  return pad(ctx, s, length, spec.width, spec.align, spec.fill);
}

function unknownCode(code: string, type: string): PyException {
  return pyError("ValueError", `Unknown format code ${quotedCode(code)} for object of type '${type}'`);
}

/** Pads `s` (of `length` code points) to `width` (CPython's calc_padding). */
function pad(ctx: NativeContext, s: string, length: number, width: number, align: string, fill: string): string {
  const total = Math.max(width, length);
  reserve(ctx, total);
  if (total === length) return s;
  const left = align === ">" ? total - length : align === "^" ? Math.floor((total - length) / 2) : 0;
  return repeatFill(fill, left) + s + repeatFill(fill, total - length - left);
}

// ------------------------------------------------------------------ int

function formatInt(ctx: NativeContext, value: number | bigint | boolean, spec: Spec): string {
  const type = spec.type;
  let base: number;
  switch (type) {
    case "d":
    case "n":
      base = 10;
      break;
    case "x":
    case "X":
      base = 16;
      break;
    case "o":
      base = 8;
      break;
    case "b":
      base = 2;
      break;
    case "c":
      base = 0;
      break;
    case "e":
    case "E":
    case "f":
    case "F":
    case "g":
    case "G":
    case "%":
      return formatFloatSpec(ctx, intToFloat(value), spec, typeName(value));
    default:
      throw unknownCode(type, typeName(value));
  }
  if (spec.precision !== -1) throw pyError("ValueError", "Precision not allowed in integer format specifier");
  if (spec.noNegativeZero) {
    throw pyError("ValueError", "Negative zero coercion (z) not allowed in integer format specifier");
  }
  const n = typeof value === "boolean" ? (value ? 1 : 0) : value;
  if (base === 0) return formatChar(ctx, n, spec);
  const negative = n < 0;
  const magnitude = negative ? -n : n;
  // Decimal digits under CPython's limit; the power-of-two bases are linear, and not limited.
  let digits: string;
  if (base === 10) digits = decimalText(magnitude, (n) => ctx.budget.step(n));
  else {
    ctx.budget.step(radixSteps(intBits(magnitude)));
    digits = magnitude.toString(base);
  }
  let prefix = spec.alternate && base !== 10 ? (base === 2 ? "0b" : base === 8 ? "0o" : "0x") : "";
  if (type === "X") {
    digits = digits.toUpperCase();
    prefix = prefix.toUpperCase();
  }
  return layoutInt(ctx, spec, signOf(spec, negative), prefix, digits);
}

/** Format code 'c': the character of a code point. */
function formatChar(ctx: NativeContext, n: number | bigint, spec: Spec): string {
  if (spec.sign !== "") throw pyError("ValueError", "Sign not allowed with integer format specifier 'c'");
  if (spec.alternate) throw pyError("ValueError", "Alternate form (#) not allowed with integer format specifier 'c'");
  const code = BigInt(n);
  if (code > SSIZE_MAX || code < -SSIZE_MAX - 1n) {
    throw pyError("OverflowError", "Python int too large to convert to C long");
  }
  if (code < 0n || code > 0x10ffffn) throw pyError("OverflowError", "%c arg not in range(0x110000)");
  const ch = String.fromCodePoint(Number(code));
  // No grouping ("Cannot specify ',' with 'c'."), and zero padding goes before the character.
  return padNumber(ctx, spec, "", ch, codePointLength(ch));
}

function intDigits(ctx: NativeContext, n: number | bigint, base: number): { negative: boolean; digits: string } {
  const negative = n < 0;
  const magnitude = typeof n === "bigint" ? (negative ? -n : n) : Math.abs(n);
  if (base === 10) return { negative, digits: decimalText(magnitude, (n) => ctx.budget.step(n)) };
  ctx.budget.step(radixSteps(intBits(magnitude)));
  return { negative, digits: magnitude.toString(base) };
}

/** PyNumber_Float of an int. */
function intToFloat(v: number | bigint | boolean): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  const x = Number(v);
  if (!Number.isFinite(x)) throw pyError("OverflowError", "int too large to convert to float");
  return x;
}

/** What goes before the digits: "-" for a negative number, else the sign the spec asks for. */
function signOf(spec: Spec, negative: boolean): string {
  return negative ? "-" : spec.sign === "-" ? "" : spec.sign;
}

// ------------------------------------------------------------------ float

function formatFloatSpec(ctx: NativeContext, x: number, spec: Spec, name: string): string {
  const type = spec.type;
  switch (type) {
    case "":
    case "e":
    case "E":
    case "f":
    case "F":
    case "g":
    case "G":
    case "n":
    case "%":
      break;
    default:
      throw unknownCode(type, name);
  }
  if (spec.precision > INT_MAX) throw pyError("ValueError", "precision too big");
  const fast = fastFloatText(x, spec);
  if (fast !== null) return layoutFloat(ctx, spec, x < 0 || Object.is(x, -0), fast);
  let code: string = type;
  let precision = spec.precision;
  let defaultPrecision = 6;
  let addDot0 = false;
  let percent = false;
  if (code === "") {
    // No type: like repr() without a precision, else like 'g' but keeping a digit after the point.
    addDot0 = true;
    code = "r";
    defaultPrecision = 0;
  }
  if (code === "n") code = "g";
  if (code === "%") {
    code = "f";
    x *= 100;
    percent = true;
  }
  if (precision < 0) precision = defaultPrecision;
  else if (code === "r") code = "g";
  const flags = { alternate: spec.alternate, addDot0, noNegativeZero: spec.noNegativeZero };
  let body = doubleToString(ctx, x, code, precision, flags);
  if (percent) body += "%";
  const negative = body.startsWith("-");
  return layoutFloat(ctx, spec, negative, negative ? body.slice(1) : body);
}

/**
 * The unsigned text of `x` under `spec` by a shortcut, for the common specs: repr's digits (no
 * type, no precision) and fixed point ('f', 'F', '%') when it can be had cheaply and exactly. Null
 * when the general path is needed ('z' and '#' change the text, so they take it too).
 */
function fastFloatText(x: number, spec: Spec): string | null {
  if (spec.noNegativeZero || spec.alternate) return null;
  const ax = Math.abs(x);
  switch (spec.type) {
    case "":
      return spec.precision < 0 ? floatRepr(ax) : null;
    case "f":
    case "F":
      return fixedText(ax, spec.precision < 0 ? 6 : spec.precision);
    case "%": {
      const text = fixedText(ax * 100, spec.precision < 0 ? 6 : spec.precision);
      return text === null ? null : text + "%";
    }
  }
  return null;
}

/** 2^k for k <= 101 and 10^k for k <= 15, looked up: `b ** k` with a variable k calls Math.pow. */
const POWERS_OF_TWO = Array.from({ length: 102 }, (_, k) => 2 ** k);
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);
const TWO_TO_52 = 2 ** 52;

/**
 * CPython's '.nf' text of a non-negative `ax` without its general path, or null: by arithmetic
 * when it is exact enough, else by toFixed.
 */
function fixedText(ax: number, n: number): string | null {
  return (n >= 1 && n <= 15 && ax < TWO_TO_52 ? fixedByArithmetic(ax, n) : null) ?? fixedByToFixed(ax, n);
}

/**
 * '.nf' of `ax` < 2^52, for 1 <= n <= 15, with a few float operations, or null. The integer part
 * i and the fraction f = ax - i are exact (Sterbenz), and so is 10^n; f × 10^n is rounded once.
 * Below 2^52 half-integers are doubles, and rounding is monotonic: a rounded product p with
 * b < p < b + 0.5 (b = floor(p)) comes from an exact one with b - 0.5 < f × 10^n < b + 0.5,
 * whose nearest integer is b (as beyond b + 0.5, b + 1), and no tie. Only p = b + 0.5 leaves it
 * open. The digits are then i, a point, and the nearest integer in n digits.
 */
function fixedByArithmetic(ax: number, n: number): string | null {
  const integer = Math.floor(ax);
  const scale = POWERS_OF_TEN[n]!;
  const product = (ax - integer) * scale;
  const below = Math.floor(product);
  const rest = product - below;
  if (rest === 0.5) return null;
  const q = rest < 0.5 ? below : below + 1;
  // A fraction that rounds up to 1 carries into the integer part: the general path does that.
  if (q >= scale) return null;
  // scale + q has n+1 digits, the first a 1: the rest are q with its leading zeros.
  const fraction = n < FRACTIONS.length ? FRACTIONS[n]![q]! : "." + String(scale + q).slice(1);
  // An integer part below 2^31 goes to String() as an int32, the quick conversion.
  return (integer < 2147483648 ? String(integer | 0) : String(integer)) + fraction;
}

/** FRACTIONS[n][q]: "." and q in n digits, for n <= 3 (the usual precisions), made once. */
const FRACTIONS = [[], ...[1, 2, 3].map((n) => Array.from({ length: 10 ** n }, (_, q) => "." + String(10 ** n + q).slice(1)))];

/**
 * toFixed(n) of `ax`, when it is CPython's '.nf': a finite value below 1e21 (else toFixed writes
 * an exponent) that is not a tie at digit n+1 (toFixed rounds ties up, CPython to even). Null
 * otherwise. A tie means the exact value ends at decimal n+1 with a 5, that is ax × 2^(n+1) is an
 * odd integer (exact: a product by a power of two).
 */
function fixedByToFixed(ax: number, n: number): string | null {
  if (!(ax < 1e21) || n > 100) return null;
  const scaled = ax * POWERS_OF_TWO[n + 1]!;
  if (Number.isInteger(scaled) && scaled % 2 !== 0) return null;
  return ax.toFixed(n);
}

function isAsciiDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

interface DoubleFlags {
  alternate?: boolean;
  /** Keep ".0" on integral values (repr style). */
  addDot0?: boolean;
  noNegativeZero?: boolean;
}

/**
 * CPython's PyOS_double_to_string: `code` is e, E, f, F, g, G or r (repr; precision 0). The digits
 * are correctly rounded from the exact binary value, ties to even.
 */
function doubleToString(ctx: NativeContext, x: number, code: string, precision: number, flags: DoubleFlags): string {
  const upper = code === "E" || code === "F" || code === "G";
  const kind = code.toLowerCase();
  if (kind === "e") precision++;
  else if (kind === "g" && precision === 0) precision = 1;
  if (Number.isNaN(x)) return upper ? "NAN" : "nan";
  let negative = x < 0 || Object.is(x, -0);
  if (!Number.isFinite(x)) return (negative ? "-" : "") + (upper ? "INF" : "inf");
  const ax = Math.abs(x);
  const decimal =
    kind === "r" ? shortestDigits(ax) : kind === "f" ? fixedDigits(ax, precision) : significantDigits(ax, precision);
  const { digits } = decimal;
  let point = decimal.point;
  if (flags.noNegativeZero && negative && (digits === "" || digits === "0")) negative = false;

  let useExponent = false;
  let end = digits.length;
  if (kind === "e") {
    useExponent = true;
    end = precision;
  } else if (kind === "f") {
    end = point + precision;
  } else if (kind === "g") {
    if (point <= -4 || point > (flags.addDot0 ? precision - 1 : precision)) useExponent = true;
    if (flags.alternate) end = precision;
  } else if (point <= -4 || point > 16) {
    useExponent = true;
  }
  let exponent = 0;
  if (useExponent) {
    exponent = point - 1;
    point = 1;
  }
  // The output is the slice [start, end) of the digits padded with zeros on both sides, with the
  // decimal point before index `point`.
  const start = point <= 0 ? point - 1 : 0;
  end = Math.max(end, !useExponent && flags.addDot0 ? point + 1 : point);
  ctx.budget.checkSize(end - start);
  const padded = (from: number, to: number): string => {
    let s = from < 0 ? "0".repeat(Math.min(to, 0) - from) : "";
    s += digits.slice(Math.max(from, 0), Math.max(Math.min(to, digits.length), 0));
    const zerosFrom = Math.max(from, digits.length);
    return to > zerosFrom ? s + "0".repeat(to - zerosFrom) : s;
  };
  let text = padded(start, point);
  if (end > point || flags.alternate) text += "." + padded(point, end);
  if (useExponent) {
    text += (upper ? "E" : "e") + (exponent < 0 ? "-" : "+") + String(Math.abs(exponent)).padStart(2, "0");
  }
  return (negative ? "-" : "") + text;
}

/** Decimal digits without trailing zeros; the value is 0.DIGITS × 10^point. */
interface Decimal {
  digits: string;
  point: number;
}

/** The shortest digits that round-trip (repr's), as CPython's dtoa mode 0. */
function shortestDigits(ax: number): Decimal {
  const [mantissa, exp] = ax.toExponential().split("e") as [string, string];
  return { digits: mantissa.replace(".", ""), point: Number(exp) + 1 };
}

const powersOfFive: bigint[] = [1n];

function powerOfFive(k: number): bigint {
  while (powersOfFive.length <= k) powersOfFive.push(powersOfFive[powersOfFive.length - 1]! * 5n);
  return powersOfFive[k]!;
}

const float64 = new DataView(new ArrayBuffer(8));

/** Every digit of a positive finite double: a double is m × 2^e, which is m × 5^-e / 10^-e. */
function exactDigits(ax: number): Decimal {
  if (ax === 0) return { digits: "0", point: 1 };
  if (Number.isSafeInteger(ax)) return stripZeros(String(ax), String(ax).length);
  float64.setFloat64(0, ax);
  const high = float64.getUint32(0);
  const low = float64.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  let exp2 = -1074;
  if (biased !== 0) {
    mantissa |= 1n << 52n;
    exp2 = biased - 1075;
  }
  while (exp2 < 0 && (mantissa & 1n) === 0n) {
    mantissa >>= 1n;
    exp2++;
  }
  if (exp2 >= 0) {
    const s = (mantissa << BigInt(exp2)).toString();
    return stripZeros(s, s.length);
  }
  const s = (mantissa * powerOfFive(-exp2)).toString();
  return { digits: s, point: s.length + exp2 };
}

function stripZeros(digits: string, point: number): Decimal {
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
  return { digits: digits.slice(0, end), point };
}

/** `n` significant digits (dtoa mode 2). */
function significantDigits(ax: number, n: number): Decimal {
  const exact = exactDigits(ax);
  return roundDigits(exact, Math.max(n, 1));
}

/** `n` digits after the point (dtoa mode 3); no digits at all when the value rounds to zero. */
function fixedDigits(ax: number, n: number): Decimal {
  if (ax !== 0 && ax < 1e21 && n <= 100) {
    // toFixed rounds the exact value too, but ties away from zero. A tie needs the exact value to
    // end at decimal n+1 with a 5, that is ax × 2^(n+1) an odd integer; otherwise it agrees.
    const scaled = ax * 2 ** (n + 1);
    if (!Number.isInteger(scaled) || scaled % 2 === 0) return fromFixed(ax.toFixed(n));
  }
  const exact = exactDigits(ax);
  if (ax === 0) return exact;
  const keep = exact.point + n;
  if (keep < 0) return { digits: "", point: -n };
  return roundDigits(exact, keep);
}

/** The Decimal of toFixed's text ("0.0120" -> digits "12", point -1), as roundDigits makes it. */
function fromFixed(text: string): Decimal {
  const dot = text.indexOf(".");
  const all = dot < 0 ? text : text.slice(0, dot) + text.slice(dot + 1);
  let point = dot < 0 ? text.length : dot;
  let start = 0;
  while (start < all.length && all.charCodeAt(start) === 48) start++;
  point -= start;
  let end = all.length;
  while (end > start && all.charCodeAt(end - 1) === 48) end--;
  return { digits: all.slice(start, end), point };
}

/** Keeps the first `keep` digits, rounding half to even on the exact value. */
function roundDigits(d: Decimal, keep: number): Decimal {
  const { digits } = d;
  if (digits.length <= keep) return d;
  const next = digits.charCodeAt(keep) - 48;
  const previousOdd = keep > 0 && (digits.charCodeAt(keep - 1) - 48) % 2 === 1;
  const up = next > 5 || (next === 5 && (digits.length > keep + 1 || previousOdd));
  let kept = digits.slice(0, keep);
  if (!up) {
    const stripped = kept.replace(/0+$/, "");
    return stripped === "" ? { digits: "", point: d.point - keep } : { digits: stripped, point: d.point };
  }
  let i = kept.length - 1;
  while (i >= 0 && kept[i] === "9") i--;
  if (i < 0) return { digits: "1", point: d.point + 1 };
  kept = kept.slice(0, i) + String.fromCharCode(kept.charCodeAt(i) + 1);
  return { digits: kept, point: d.point };
}

// ------------------------------------------------------------------ laying out a number

/**
 * A number is laid out as CPython's calc_number_widths and fill_number do it: <left padding><sign>
 * <prefix><inner padding><grouped digits><tail><right padding>, where the tail is what follows the
 * integer digits (fraction, exponent, "%").
 */
function layoutInt(ctx: NativeContext, spec: Spec, sign: string, prefix: string, digits: string): string {
  if (spec.groupSize !== 0) return layoutGrouped(ctx, spec, sign, prefix, digits, "");
  // Without grouping, zero padding ('0' with '=' alignment) is the inner padding.
  return padNumber(ctx, spec, sign + prefix, digits, digits.length);
}

/** `body` is the text of the magnitude: digits, then maybe a fraction, an exponent, a "%". */
function layoutFloat(ctx: NativeContext, spec: Spec, negative: boolean, body: string): string {
  const sign = signOf(spec, negative);
  if (spec.groupSize === 0) return padNumber(ctx, spec, sign, body, body.length);
  let digitsEnd = 0;
  while (digitsEnd < body.length && isAsciiDigit(body.charCodeAt(digitsEnd))) digitsEnd++;
  return layoutGrouped(ctx, spec, sign, "", body.slice(0, digitsEnd), body.slice(digitsEnd));
}

/** Pads `head` + `body` (`length` code points) to the spec's width: inner padding goes between them. */
function padNumber(ctx: NativeContext, spec: Spec, head: string, body: string, length: number): string {
  const used = head.length + length;
  const padding = spec.width - used;
  reserve(ctx, padding > 0 ? spec.width : used);
  if (padding <= 0) return head + body;
  const fill = spec.fill;
  switch (spec.align) {
    case "<":
      return head + body + repeatFill(fill, padding);
    case "^": {
      const left = Math.floor(padding / 2);
      return repeatFill(fill, left) + head + body + repeatFill(fill, padding - left);
    }
    case "=":
      return head + repeatFill(fill, padding) + body;
    default:
      return repeatFill(fill, padding) + head + body;
  }
}

/**
 * A number whose integer digits are grouped. Zero padding ('0' with '=' alignment) goes into the
 * digits, so it is grouped too: format(1234, '08,') == '0,001,234'.
 */
function layoutGrouped(
  ctx: NativeContext,
  spec: Spec,
  sign: string,
  prefix: string,
  digits: string,
  tail: string,
): string {
  const separator = spec.thousands;
  const size = spec.groupSize;
  const nonDigits = sign.length + prefix.length + tail.length;
  const groupedLength = digits.length === 0 ? 0 : digits.length + Math.floor((digits.length - 1) / size);
  reserve(ctx, Math.max(spec.width, nonDigits + groupedLength));
  const zeroPadded = spec.fill === "0" && spec.align === "=";
  const grouped = digits.length === 0 ? "" : groupDigits(digits, zeroPadded ? spec.width - nonDigits : 0, size, separator);
  const padding = Math.max(0, spec.width - nonDigits - grouped.length);
  let left = 0;
  let inner = 0;
  let right = 0;
  if (spec.align === "<") right = padding;
  else if (spec.align === "^") {
    left = Math.floor(padding / 2);
    right = padding - left;
  } else if (spec.align === "=") inner = padding;
  else left = padding;
  const fill = spec.fill;
  return fill.repeat(left) + sign + prefix + fill.repeat(inner) + grouped + tail + fill.repeat(right);
}

/** CPython's _PyUnicode_InsertThousandsGrouping: groups from the right, zero-padding to minWidth. */
function groupDigits(digits: string, minWidth: number, size: number, separator: string): string {
  minWidth = Math.max(0, minWidth);
  const pieces: string[] = [];
  let remaining = digits.length;
  for (let first = true; ; first = false) {
    const groupSize = Math.min(size, Math.max(remaining, minWidth, 1));
    const zeros = Math.max(0, groupSize - remaining);
    const taken = Math.min(remaining, groupSize);
    if (!first) pieces.push(separator);
    pieces.push(digits.slice(remaining - taken, remaining));
    if (zeros > 0) pieces.push("0".repeat(zeros));
    remaining -= taken;
    minWidth -= groupSize;
    if (remaining <= 0 && minWidth <= 0) break;
    minWidth -= separator.length;
  }
  return pieces.reverse().join("");
}

// ------------------------------------------------------------------ the % operator

const F_LJUST = 1;
const F_SIGN = 2;
const F_BLANK = 4;
const F_ALT = 8;
const F_ZERO = 16;

/** A piece of a % template: literal text (charged, except the "%" of "%%") or a conversion. */
type PercentPiece = { text: string; charged: boolean } | Conversion;

/**
 * The pieces of `template`, parsed as they are asked for: a `*` width or a `(key)` takes from
 * `args` when its conversion is reached, and a parse error comes in its turn.
 */
function* percentPieces(template: string, args: PercentArgs): Generator<PercentPiece> {
  let i = 0;
  while (i < template.length) {
    const percent = template.indexOf("%", i);
    if (percent < 0) {
      yield { text: template.slice(i), charged: true };
      return;
    }
    if (percent > i) yield { text: template.slice(i, percent), charged: true };
    if (template[percent + 1] === "%") {
      yield { text: "%", charged: false };
      i = percent + 2;
      continue;
    }
    const conversion = parseConversion(template, percent + 1, args);
    i = conversion.end;
    yield conversion;
  }
}

/**
 * Pieces of templates by text (the 256 used last), for those whose parse takes no argument and
 * cannot fail: no `(key)`, no `*`, every conversion code known. Null marks a template parsed at
 * each use, where its errors and mapping keys come in their turn.
 */
const PERCENT_PLANS = new Map<string, PercentPiece[] | null>();
const PERCENT_CODES = new Set(["s", "r", "a", "d", "i", "u", "o", "x", "X", "e", "E", "f", "F", "g", "G", "c"]);

function percentPlan(template: string): PercentPiece[] | null {
  let plan = PERCENT_PLANS.get(template);
  if (plan !== undefined) return plan;
  try {
    // No arguments to parse with: a `*` or a `(key)` fails, and the template gets no plan.
    plan = [...percentPieces(template, new PercentArgs(EMPTY_TUPLE))];
    if (plan.some((piece) => "code" in piece && !PERCENT_CODES.has(piece.code))) plan = null;
  } catch {
    plan = null;
  }
  if (PERCENT_PLANS.size >= 256) PERCENT_PLANS.clear();
  PERCENT_PLANS.set(template, plan);
  return plan;
}

/** `template % args` for a str template (CPython's PyUnicode_Format). */
export function percentFormat(ctx: NativeContext, template: string, args: Value): string {
  const source = new PercentArgs(args);
  let out = "";
  const plan = percentPlan(template);
  // Two loops over one body: a loop that saw both an array and a generator ran ~40% slower.
  if (plan !== null) for (const piece of plan) out += percentPiece(ctx, template, piece, source);
  else for (const piece of percentPieces(template, source)) out += percentPiece(ctx, template, piece, source);
  source.checkAllUsed();
  return out;
}

/** The text of one piece of `template`, its conversion taking the next argument. */
function percentPiece(ctx: NativeContext, template: string, piece: PercentPiece, source: PercentArgs): string {
  if ("charged" in piece) return piece.charged ? charged(ctx, piece.text) : piece.text;
  const { code, flags, width, precision } = piece;
  const converted = percentConvert(ctx, code, source.next(), flags, precision);
  if (converted === null) throw unsupportedCode(template, piece);
  return percentOutput(ctx, code, flags, width, precision, converted.numeric, converted.text);
}

function unsupportedCode(template: string, { code, end }: Conversion): PyException {
  const c = code.codePointAt(0)!;
  const shown = c >= 31 && c <= 126 ? code : "?";
  const index = codePointLength(template.slice(0, end - code.length));
  return pyError("ValueError", `unsupported format character '${shown}' (0x${c.toString(16)}) at index ${index}`);
}

/**
 * Where the arguments of `%` come from: the items of a tuple in turn, or a single other value
 * used once. A mapping (anything subscriptable but a tuple or a str) may instead be indexed by
 * `%(key)s`, and then need not be used at all.
 */
class PercentArgs {
  private readonly tuple: readonly Value[] | null;
  private readonly mapping: Value | null;
  private current: Value;
  /** CPython's argidx/arglen: a single value has length -1 and index -2 until it is used. */
  private index: number;
  private length: number;

  constructor(args: Value) {
    this.tuple = args instanceof PyTuple ? args.items : null;
    const subscriptable =
      args instanceof PyDict || args instanceof PyList || args instanceof PyRange || args instanceof PyBytes;
    this.mapping = subscriptable ? args : null;
    this.current = args;
    this.length = this.tuple ? this.tuple.length : -1;
    this.index = this.tuple ? 0 : -2;
  }

  next(): Value {
    if (this.index >= this.length) throw pyError("TypeError", "not enough arguments for format string");
    this.index++;
    return this.length < 0 ? this.current : this.tuple![this.index - 1]!;
  }

  /** `%(key)`: the following conversion (and its `*`) uses mapping[key]. Needs `hasMapping`. */
  useKey(key: string): void {
    this.current = subscriptByStr(this.mapping!, key);
    this.length = -1;
    this.index = -2;
  }

  /** Whether `%(key)` may be used: the argument is a mapping. */
  get hasMapping(): boolean {
    return this.mapping !== null;
  }

  checkAllUsed(): void {
    if (this.index < this.length && this.mapping === null) {
      throw pyError("TypeError", "not all arguments converted during string formatting");
    }
  }
}

interface Conversion {
  /** The conversion character (d, s, f...), or whatever stands in its place. */
  code: string;
  flags: number;
  /** -1 when absent. */
  width: number;
  /** -1 when absent. */
  precision: number;
  /** Index just past the conversion character. */
  end: number;
}

/**
 * Parses `[(key)][flags][width][.precision][h|l|L]code` from just after a '%' (CPython's
 * unicode_format_arg_parse). A `*` width or precision takes the next argument.
 */
function parseConversion(template: string, i: number, args: PercentArgs): Conversion {
  const n = template.length;
  if (template[i] === "(") {
    if (!args.hasMapping) throw pyError("TypeError", "format requires a mapping");
    const keyStart = ++i;
    let depth = 1;
    while (depth > 0 && i < n) {
      if (template[i] === ")") depth--;
      else if (template[i] === "(") depth++;
      i++;
    }
    if (depth > 0) throw pyError("ValueError", "incomplete format key");
    args.useKey(template.slice(keyStart, i - 1));
  }
  // As CPython: `ch` is the last character read, and the template must not end before the code.
  let ch = "";
  let exhausted = false;
  const next = (): string => {
    if (i >= n) {
      exhausted = true;
      return ch;
    }
    const c = String.fromCodePoint(template.codePointAt(i)!);
    i += c.length;
    return c;
  };
  const digit = () => !exhausted && isAsciiDigit(ch.charCodeAt(0));
  let flags = 0;
  for (ch = next(); !exhausted; ch = next()) {
    const flag = PERCENT_FLAGS[ch] ?? 0;
    if (flag === 0) break;
    flags |= flag;
  }
  let width = -1;
  let precision = -1;
  if (!exhausted && ch === "*") {
    width = starArg(args.next(), "ssize_t");
    if (width < 0) {
      flags |= F_LJUST;
      width = -width;
    }
    ch = next();
  } else if (digit()) {
    let text = ch;
    for (ch = next(); digit(); ch = next()) text += ch;
    width = boundedInt(text, SSIZE_MAX, "width too big");
  }
  if (!exhausted && ch === ".") {
    precision = 0;
    ch = next();
    if (!exhausted && ch === "*") {
      precision = Math.max(0, starArg(args.next(), "int"));
      ch = next();
    } else if (digit()) {
      let text = ch;
      for (ch = next(); digit(); ch = next()) text += ch;
      precision = boundedInt(text, BigInt(INT_MAX), "precision too big");
    }
  }
  if (!exhausted && (ch === "h" || ch === "l" || ch === "L")) ch = next();
  if (exhausted) throw pyError("ValueError", "incomplete format");
  return { code: ch, flags, width, precision, end: i };
}

const PERCENT_FLAGS: Record<string, number> = { "-": F_LJUST, "+": F_SIGN, " ": F_BLANK, "#": F_ALT, "0": F_ZERO };

/** A `*` width or precision: an int (bools count) that fits a C ssize_t or int. */
function starArg(v: Value, cType: "ssize_t" | "int"): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v !== "number" && typeof v !== "bigint") throw pyError("TypeError", "* wants int");
  const limit = cType === "int" ? BigInt(INT_MAX) : SSIZE_MAX;
  const big = BigInt(v);
  if (big > limit || big < -limit - 1n) throw pyError("OverflowError", `Python int too large to convert to C ${cType}`);
  return Number(v);
}

function boundedInt(digits: string, max: bigint, message: string): number {
  if (digits.length >= 10 && BigInt(digits) > max) throw pyError("ValueError", message);
  return Number(digits);
}

/** Converts one argument; `numeric` results get sign handling and zero fill. Null: unknown code. */
function percentConvert(
  ctx: NativeContext,
  code: string,
  v: Value,
  flags: number,
  precision: number,
): { text: string; numeric: boolean } | null {
  const charge = textCharge(ctx.budget, 0);
  switch (code) {
    case "s":
      return { text: str(v, charge), numeric: false };
    case "r":
      return { text: repr(v, charge), numeric: false };
    case "a":
      return { text: ascii(v, charge), numeric: false };
    case "d":
    case "i":
    case "u":
    case "o":
    case "x":
    case "X":
      return { text: percentInt(ctx, v, code, flags, precision), numeric: true };
    case "e":
    case "E":
    case "f":
    case "F":
    case "g":
    case "G": {
      const alternate = (flags & F_ALT) !== 0;
      const text = doubleToString(ctx, percentFloatArg(v), code, precision < 0 ? 6 : precision, { alternate });
      return { text, numeric: true };
    }
    case "c":
      return { text: percentChar(v), numeric: false };
  }
  return null;
}

/** %d %i %u %o %x %X (CPython's mainformatlong and _PyUnicode_FormatLong). */
function percentInt(ctx: NativeContext, v: Value, ch: string, flags: number, precision: number): string {
  const needsIndex = ch === "o" || ch === "x" || ch === "X";
  let n: number | bigint;
  if (typeof v === "number" || typeof v === "bigint") n = v;
  else if (typeof v === "boolean") n = v ? 1 : 0;
  else if (v instanceof PyFloat && !needsIndex) n = truncateFloat(v.v);
  else {
    const what = needsIndex ? "an integer is required" : "a real number is required";
    throw pyError("TypeError", `%${ch} format: ${what}, not ${typeName(v)}`);
  }
  const base = ch === "o" ? 8 : needsIndex ? 16 : 10;
  const { negative, digits } = intDigits(ctx, n, base);
  const prefix = (flags & F_ALT) !== 0 && needsIndex ? (base === 8 ? "0o" : "0x") : "";
  let zeros = "";
  if (precision > digits.length) {
    reserve(ctx, precision);
    zeros = "0".repeat(precision - digits.length);
  }
  const text = (negative ? "-" : "") + prefix + zeros + digits;
  return ch === "X" ? text.toUpperCase() : text;
}

function truncateFloat(x: number): number | bigint {
  if (Number.isNaN(x)) throw pyError("ValueError", "cannot convert float NaN to integer");
  if (!Number.isFinite(x)) throw pyError("OverflowError", "cannot convert float infinity to integer");
  const t = Math.trunc(x);
  return Number.isSafeInteger(t) ? t + 0 : BigInt(t);
}

/** PyFloat_AsDouble. */
function percentFloatArg(v: Value): number {
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return intToFloat(v);
  throw pyError("TypeError", `must be real number, not ${typeName(v)}`);
}

/** %c: a one-character str or a code point. */
function percentChar(v: Value): string {
  if (typeof v === "string") {
    if (codePointLength(v) === 1) return v;
  } else if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") {
    const code = typeof v === "boolean" ? (v ? 1 : 0) : Number(v);
    if (code < 0 || code > 0x10ffff) throw pyError("OverflowError", "%c arg not in range(0x110000)");
    return String.fromCodePoint(code);
  }
  throw pyError("TypeError", "%c requires int or char");
}

/** Width, precision (truncation of s/r/a), sign and zero fill (CPython's unicode_format_arg_output). */
function percentOutput(
  ctx: NativeContext,
  ch: string,
  flags: number,
  width: number,
  precision: number,
  numeric: boolean,
  text: string,
): string {
  const fill = numeric && (flags & F_ZERO) !== 0 ? "0" : " ";
  let length = codePointLength(text);
  if ((ch === "s" || ch === "r" || ch === "a") && precision >= 0 && length > precision) {
    text = codePointPrefix(text, precision);
    length = precision;
  }
  reserve(ctx, Math.max(width, length + 1));
  let at = 0;
  let sign = "";
  if (numeric) {
    if (text[0] === "-" || text[0] === "+") {
      sign = text[0];
      at = 1;
      length--;
    } else if (flags & F_SIGN) sign = "+";
    else if (flags & F_BLANK) sign = " ";
  }
  if (width < length) width = length;
  let out = "";
  if (sign && fill !== " ") out += sign;
  if (sign && width > length) width--;
  const altPrefix = (flags & F_ALT) !== 0 && (ch === "x" || ch === "X" || ch === "o");
  if (altPrefix) {
    if (fill !== " ") {
      out += text.slice(at, at + 2);
      at += 2;
    }
    width = Math.max(0, width - 2);
    length -= 2;
  }
  if (width > length && (flags & F_LJUST) === 0) {
    out += fill.repeat(width - length);
    width = length;
  }
  if (fill === " ") {
    out += sign;
    if (altPrefix) {
      out += text.slice(at, at + 2);
      at += 2;
    }
  }
  out += text.slice(at);
  if (width > length) out += " ".repeat(width - length);
  return out;
}

// ------------------------------------------------------------------ str.format

interface AutoNumbering {
  state: "init" | "auto" | "manual";
  next: number;
}

/** `template.format(*args, **kwargs)`. */
export function strFormat(ctx: NativeContext, template: string, args: Value[], kwargs: Kwargs | null): string {
  return buildString(ctx, template, args, kwargs, 2, { state: "init", next: 0 });
}

/** Expands a template; `depth` bounds the nesting of fields in format specs ({0:{1}} is one level). */
function buildString(
  ctx: NativeContext,
  s: string,
  args: Value[],
  kwargs: Kwargs | null,
  depth: number,
  auto: AutoNumbering,
): string {
  if (depth <= 0) throw pyError("ValueError", "Max string recursion exceeded");
  const out: string[] = [];
  const n = s.length;
  let i = 0;
  while (i < n) {
    // Literal text up to a '{' or '}'; '{{' and '}}' are literal braces.
    const start = i;
    let c = "";
    let markup = false;
    while (i < n) {
      c = s[i++]!;
      if (c === "{" || c === "}") {
        markup = true;
        break;
      }
    }
    const atEnd = i >= n;
    let length = i - start;
    if (c === "}" && (atEnd || s[i] !== "}")) throw pyError("ValueError", "Single '}' encountered in format string");
    if (atEnd && c === "{") throw pyError("ValueError", "Single '{' encountered in format string");
    if (!atEnd) {
      if (s[i] === c) {
        i++;
        markup = false;
      } else length--;
    }
    if (length > 0) out.push(charged(ctx, s.slice(start, start + length)));
    if (!markup) continue;

    const field = parseField(s, i);
    i = field.end;
    let value = fieldValue(ctx, field.name, args, kwargs, auto);
    if (field.conversion !== "") value = convert(ctx, value, field.conversion);
    const spec = field.nested ? buildString(ctx, field.spec, args, kwargs, depth - 1, auto) : field.spec;
    out.push(formatValue(ctx, value, spec));
  }
  return out.join("");
}

interface Field {
  name: string;
  conversion: string;
  spec: string;
  /** The spec contains replacement fields of its own. */
  nested: boolean;
  /** Index just past the closing '}'. */
  end: number;
}

/** Parses a replacement field starting just after its '{' (CPython's parse_field). */
function parseField(s: string, i: number): Field {
  const n = s.length;
  const nameStart = i;
  let c = "";
  while (i < n) {
    c = s[i++]!;
    if (c === "{") throw pyError("ValueError", "unexpected '{' in field name");
    if (c === "[") {
      while (i < n && s[i] !== "]") i++;
      continue;
    }
    if (c === "}" || c === ":" || c === "!") break;
  }
  const name = s.slice(nameStart, i - 1);
  if (c !== "!" && c !== ":") {
    if (c !== "}") throw pyError("ValueError", "expected '}' before end of string");
    return { name, conversion: "", spec: "", nested: false, end: i };
  }
  let conversion = "";
  if (c === "!") {
    if (i >= n) throw pyError("ValueError", "end of string while looking for conversion specifier");
    conversion = String.fromCodePoint(s.codePointAt(i)!);
    i += conversion.length;
    if (i < n) {
      const after = s[i++];
      if (after === "}") return { name, conversion, spec: "", nested: false, end: i };
      if (after !== ":") throw pyError("ValueError", "expected ':' after conversion specifier");
    }
  }
  const specStart = i;
  let nested = false;
  let depth = 1;
  while (i < n) {
    const d = s[i++];
    if (d === "{") {
      nested = true;
      depth++;
    } else if (d === "}" && --depth === 0) {
      return { name, conversion, spec: s.slice(specStart, i - 1), nested, end: i };
    }
  }
  throw pyError("ValueError", "unmatched '{' in format spec");
}

/** The object a field name designates: `0`, `name`, `` (automatic), then any `[key]` lookups. */
function fieldValue(ctx: NativeContext, name: string, args: Value[], kwargs: Kwargs | null, auto: AutoNumbering): Value {
  let split = 0;
  while (split < name.length && name[split] !== "." && name[split] !== "[") split++;
  const first = name.slice(0, split);
  let index = fieldIndex(first);
  const empty = first === "";
  if (empty || index >= 0) {
    if (auto.state === "init") auto.state = empty ? "auto" : "manual";
    if (auto.state === "manual" && empty) {
      throw pyError("ValueError", "cannot switch from manual field specification to automatic field numbering");
    }
    if (auto.state === "auto" && !empty) {
      throw pyError("ValueError", "cannot switch from automatic field numbering to manual field specification");
    }
    if (empty) index = auto.next++;
  }
  let value: Value;
  if (index < 0) {
    const found = kwargs?.get(first);
    if (found === undefined) throw new PyException(EXC.KeyError, [first]);
    value = found;
  } else {
    if (index >= args.length) {
      const shown = empty ? String(index) : decimalBigInt(Array.from(first)).toString();
      throw pyError("IndexError", `Replacement index ${shown} out of range for positional args tuple`);
    }
    value = args[index]!;
  }

  const rest = name.slice(split);
  let i = 0;
  while (i < rest.length) {
    const c = rest[i++];
    if (c === ".") {
      const start = i;
      while (i < rest.length && rest[i] !== "." && rest[i] !== "[") i++;
      if (i === start) throw pyError("ValueError", "Empty attribute in format string");
      value = ctx.getAttr(value, rest.slice(start, i));
      continue;
    }
    if (c !== "[") throw pyError("ValueError", "Only '.' or '[' may follow ']' in format field specifier");
    const start = i;
    while (i < rest.length && rest[i] !== "]") i++;
    if (i >= rest.length) throw pyError("ValueError", "Missing ']' in format string");
    const key = rest.slice(start, i++);
    const keyIndex = fieldIndex(key);
    if (key === "") throw pyError("ValueError", "Empty attribute in format string");
    value = keyIndex < 0 ? subscriptByStr(value, key) : subscriptByIndex(value, keyIndex);
  }
  return value;
}

/** A field name made only of decimal digits is an index; otherwise -1. */
function fieldIndex(text: string): number {
  if (text === "") return -1;
  const chars = Array.from(text);
  for (const c of chars) if (decimalValue(c) < 0) return -1;
  return decimalNumber(chars);
}

function convert(ctx: NativeContext, v: Value, conversion: string): string {
  const charge = textCharge(ctx.budget, 0);
  if (conversion === "r") return repr(v, charge);
  if (conversion === "s") return str(v, charge);
  if (conversion === "a") return ascii(v, charge);
  const code = conversion.codePointAt(0)!;
  const shown = code > 32 && code < 127 ? conversion : `\\x${code.toString(16)}`;
  throw pyError("ValueError", `Unknown conversion specifier ${shown}`);
}

// ------------------------------------------------------------------ subscripts in templates

/** obj[key] for a str key: `{0[name]}` and `%(name)s`. */
function subscriptByStr(obj: Value, key: string): Value {
  if (obj instanceof PyDict) {
    const found = obj.get(key);
    if (found === undefined) throw new PyException(EXC.KeyError, [key]);
    return found;
  }
  if (typeof obj === "string") throw pyError("TypeError", "string indices must be integers, not 'str'");
  if (obj instanceof PyList || obj instanceof PyTuple || obj instanceof PyRange || obj instanceof PyBytes) {
    const kind = obj instanceof PyBytes ? "byte" : typeName(obj);
    throw pyError("TypeError", `${kind} indices must be integers or slices, not str`);
  }
  throw notSubscriptable(obj);
}

/** obj[index] for a non-negative index: `{0[1]}`. */
function subscriptByIndex(obj: Value, index: number): Value {
  if (obj instanceof PyList || obj instanceof PyTuple) {
    if (index < obj.items.length) return obj.items[index]!;
    throw pyError("IndexError", `${typeName(obj)} index out of range`);
  }
  if (typeof obj === "string") {
    const ch = codePointAt(obj, index);
    if (ch === undefined) throw pyError("IndexError", "string index out of range");
    return ch;
  }
  if (obj instanceof PyRange) {
    if (index < obj.length) return obj.at(index);
    throw pyError("IndexError", "range object index out of range");
  }
  if (obj instanceof PyBytes) {
    if (index < obj.bytes.length) return obj.bytes[index]!;
    throw pyError("IndexError", "index out of range");
  }
  if (obj instanceof PyDict) {
    const found = obj.get(index);
    if (found === undefined) throw new PyException(EXC.KeyError, [index]);
    return found;
  }
  throw notSubscriptable(obj);
}

function notSubscriptable(obj: Value): PyException {
  return pyError("TypeError", `'${typeName(obj)}' object is not subscriptable`);
}

// ------------------------------------------------------------------ code points and budget

/** Python's len() of a JS string: surrogate pairs are one character. */
function codePointLength(s: string): number {
  let pairs = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return s.length - pairs;
}

/** The first `count` code points of `s`. */
function codePointPrefix(s: string, count: number): string {
  let i = 0;
  for (let taken = 0; taken < count && i < s.length; taken++) {
    const c = s.codePointAt(i)!;
    i += c > 0xffff ? 2 : 1;
  }
  return s.slice(0, i);
}

function codePointAt(s: string, index: number): string | undefined {
  let i = 0;
  for (let k = 0; k < index && i < s.length; k++) i += s.codePointAt(i)! > 0xffff ? 2 : 1;
  if (i >= s.length) return undefined;
  return String.fromCodePoint(s.codePointAt(i)!);
}

/** Runs of spaces and zeros, the usual padding, made once: a table look-up is several times faster than repeat(). */
const SPACES = Array.from({ length: 65 }, (_, n) => " ".repeat(n));
const ZEROS = Array.from({ length: 65 }, (_, n) => "0".repeat(n));

/** `count` copies of `fill`. */
function repeatFill(fill: string, count: number): string {
  if (count < SPACES.length) {
    if (fill === " ") return SPACES[count]!;
    if (fill === "0") return ZEROS[count]!;
  }
  return fill.repeat(count);
}

/** Refuses an output of `length` characters that could never fit, then charges the work. */
function reserve(ctx: NativeContext, length: number): void {
  ctx.budget.checkSize(length);
  ctx.budget.step(length);
}

function charged(ctx: NativeContext, s: string): string {
  ctx.budget.step(s.length);
  return s;
}
