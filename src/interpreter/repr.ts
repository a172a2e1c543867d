// repr() and str() of every value, with CPython's spelling: float repr, string quoting and
// escapes, container brackets, and "[...]" for a container that contains itself.
import { decimalText } from "./int-text.js";
import { PyBytes, PyDict, PyFloat, PyList, PyObject, PyRange, PySet, PyTuple, type Value } from "./values.js";

/** Objects that know their own repr (functions, modules, exceptions...). */
export interface SelfRepr {
  pyRepr(repr: (v: Value) => string): string;
  pyStr?(str: (v: Value) => string, repr: (v: Value) => string): string;
}

function hasRepr(v: object): v is SelfRepr {
  return typeof (v as Partial<SelfRepr>).pyRepr === "function";
}

/** Python's repr of a float: the shortest digits that round-trip, in CPython's layout. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // Between 1e-4 and 1e16 both languages write the same shortest digits without an exponent.
  const ax = Math.abs(x);
  if (ax >= 1e-4 && ax < 1e16) {
    const short = ax < 2147483 ? thousandthsRepr(ax) : null;
    if (short !== null) return x < 0 ? "-" + short : short;
    const text = String(x);
    return text.includes(".") ? text : text + ".0";
  }
  // toExponential() without an argument gives the shortest round-trip digits.
  const [mantissa, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exp >= 16 || exp < -4) {
    const frac = digits.length > 1 ? "." + digits.slice(1) : "";
    const e = Math.abs(exp).toString().padStart(2, "0");
    return `${sign}${digits[0]}${frac}e${exp < 0 ? "-" : "+"}${e}`;
  }
  if (exp >= 0) {
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
    const fracPart = digits.slice(exp + 1);
    return `${sign}${intPart}.${fracPart || "0"}`;
  }
  return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
}

/**
 * The repr of 1e-4 <= `ax` < 2147483 when three decimals or fewer spell it, else null: without
 * String(x), which is slow for a double that is no integer. Below 2^22 a double's neighbours are
 * 2^-31 away or closer, so every number that rounds to ax lies within 2^-32 of it. Hence if the
 * three-decimal number c nearest to ax rounds to ax, no other number of three decimals or fewer
 * does (they are 0.001 apart), and one with more decimals that did would lie within 2^-31 of c,
 * that is, have more significant digits: c's digits are the shortest, repr's. Math.round finds
 * c × 1000 exactly (ax × 1000 < 2^31 is off from it by far less than 0.5), the division checks
 * that c rounds to ax, and c lies between the same integers as ax.
 */
function thousandthsRepr(ax: number): string | null {
  const thousandths = Math.round(ax * 1000);
  if (thousandths / 1000 !== ax) return null;
  // An int32 (ax < 2^31) goes to the quick int-to-string conversion.
  const whole = Math.floor(ax) | 0;
  return whole + DECIMALS[thousandths - whole * 1000]!;
}

/** ".0" for 0, else "." and the three decimals of n / 1000 without trailing zeros: ".5", ".125". */
const DECIMALS = Array.from({ length: 1000 }, (_, n) => "." + (n === 0 ? "0" : String(n).padStart(3, "0").replace(/0+$/, "")));

const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

/** Python's repr of a str: quotes chosen as CPython chooses them, escapes for the unprintable. */
export function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  let plainFrom = 0;
  let i = 0;
  const flush = (to: number) => {
    if (to > plainFrom) out += s.slice(plainFrom, to);
  };
  while (i < s.length) {
    const code = s.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    let escape: string | null = null;
    if (code === 0x5c) escape = "\\\\";
    else if (code === quote.charCodeAt(0)) escape = "\\" + quote;
    else if (code === 0x0a) escape = "\\n";
    else if (code === 0x0d) escape = "\\r";
    else if (code === 0x09) escape = "\\t";
    else if (code < 0x20 || code === 0x7f) escape = "\\x" + code.toString(16).padStart(2, "0");
    else if (code > 0x7f && code !== 0x20 && NON_PRINTABLE.test(String.fromCodePoint(code))) {
      escape =
        code <= 0xff
          ? "\\x" + code.toString(16).padStart(2, "0")
          : code <= 0xffff
            ? "\\u" + code.toString(16).padStart(4, "0")
            : "\\U" + code.toString(16).padStart(8, "0");
    }
    if (escape !== null) {
      flush(i);
      out += escape;
      plainFrom = i + width;
    }
    i += width;
  }
  flush(s.length);
  return out + quote;
}

export function bytesRepr(b: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const c of b) {
    if (c === 0x27) hasSingle = true;
    if (c === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? '"' : "'";
  let out = "b" + quote;
  for (const c of b) {
    if (c === 0x5c) out += "\\\\";
    else if (c === quote.charCodeAt(0)) out += "\\" + quote;
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c < 0x20 || c >= 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else out += String.fromCharCode(c);
  }
  return out + quote;
}

/**
 * repr(v). `charge` is called with the length of each piece produced, so a caller can bill the
 * work to a budget (a repr of a million-item list is a million steps).
 */
export function repr(v: Value, charge?: (n: number) => void): string {
  const scalar = scalarRepr(v, charge);
  if (scalar !== undefined) {
    charge?.(scalar.length + 1);
    return scalar;
  }
  return new Printer(charge).repr(v);
}

/** str(v): like repr except for strings themselves and objects with their own str. */
export function str(v: Value, charge?: (n: number) => void): string {
  if (typeof v === "string") return v;
  const scalar = scalarRepr(v, charge);
  if (scalar !== undefined) {
    charge?.(scalar.length + 1);
    return scalar;
  }
  const printer = new Printer(charge);
  if (v instanceof PyObject && hasRepr(v) && v.pyStr) {
    return v.pyStr((x) => printer.str(x), (x) => printer.repr(x));
  }
  return printer.repr(v);
}

/** The repr of a value that contains nothing (no Printer, with its set of open containers, needed). */
function scalarRepr(v: Value, charge?: (n: number) => void): string | undefined {
  switch (typeof v) {
    case "string":
      return strRepr(v);
    case "number":
      return String(v);
    case "bigint":
      // Quadratic work, and a ValueError past 4300 digits, as in CPython.
      return decimalText(v, charge);
    case "boolean":
      return v ? "True" : "False";
  }
  if (v === null) return "None";
  if (v instanceof PyFloat) return floatRepr(v.v);
  return undefined;
}

class Printer {
  /**
   * Containers being printed, outermost first, to print a self-containing one as [...] as CPython
   * does (an array: a printed value is rarely more than a few containers deep).
   */
  private readonly active: object[] = [];

  constructor(private readonly charge?: (n: number) => void) {}

  str(v: Value): string {
    return typeof v === "string" ? v : this.repr(v);
  }

  repr(v: Value): string {
    const out = this.reprInner(v);
    this.charge?.(out.length + 1);
    return out;
  }

  private reprInner(v: Value): string {
    if (typeof v !== "object" || v === null || v instanceof PyFloat) return scalarRepr(v, this.charge)!;
    if (v instanceof PyList) return this.container(v, "[", "]", () => v.items.map((x) => this.repr(x)));
    if (v instanceof PyTuple) {
      if (v.items.length === 1) return this.container(v, "(", ",)", () => [this.repr(v.items[0]!)]);
      return this.container(v, "(", ")", () => v.items.map((x) => this.repr(x)));
    }
    if (v instanceof PyDict) {
      return this.container(v, "{", "}", () => {
        const parts: string[] = [];
        for (const [k, x] of v.map) parts.push(`${this.repr(v.keyOf(k))}: ${this.repr(x)}`);
        return parts;
      });
    }
    if (v instanceof PySet) {
      if (v.size === 0) return v.frozen ? "frozenset()" : "set()";
      const inner = this.container(v, "{", "}", () => [...v.values()].map((x) => this.repr(x)));
      return v.frozen ? `frozenset(${inner})` : inner;
    }
    if (v instanceof PyBytes) return bytesRepr(v.bytes);
    if (v instanceof PyRange) return v.step === 1 ? `range(${v.start}, ${v.stop})` : `range(${v.start}, ${v.stop}, ${v.step})`;
    if (hasRepr(v)) return v.pyRepr((x) => this.repr(x));
    return `<${v.typeName} object>`;
  }

  private container(v: object, open: string, close: string, parts: () => string[]): string {
    if (this.active.includes(v)) return open === "[" ? "[...]" : open === "{" ? "{...}" : "(...)";
    this.active.push(v);
    try {
      return open + parts().join(", ") + close;
    } finally {
      this.active.pop();
    }
  }
}
