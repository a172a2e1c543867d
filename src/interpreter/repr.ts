// repr() and str() of every value, with CPython's spelling: float repr, string quoting and
// escapes, container brackets, and "[...]" for a container that contains itself.
import type { Budget } from "./budget.js";
import type { DictHooks } from "./instance.js";
import { decimalText } from "./int-text.js";
import { Pending } from "./objects.js";
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

/**
 * What building text costs, called as it is built: `n` more units of work (the caller turns them
 * into steps) and `total`, the units this repr() has built so far (checked against the memory
 * budget). A long text is built in chunks of CHUNK units, each charged as soon as it exists, so a
 * refused repr stops within one chunk instead of after building gigabytes.
 */
export type Charge = (n: number, total: number) => void;

/**
 * repr(), str() and ascii() charge a step per 2^TEXT_SHIFT units they build: about what 10-20 ns
 * of building costs, so that the step budget bounds how long one call can hold the event loop.
 */
export const TEXT_SHIFT = 3;

/**
 * A Charge of a step per 2^shift units; two bytes a unit checked against max_memory_bytes. The
 * units short of a step carry over to the next charge: the items of a list of small ints are
 * charged a few units each, and dropping them let repr() of 900,000 of them run 300 ms unpaid
 * until the list's own text was charged, after the work.
 */
export function textCharge(budget: Budget, shift: number): Charge {
  const unit = 2 ** shift;
  let carried = 0;
  return (n, total) => {
    budget.checkSize(2 * total);
    carried += n;
    const steps = Math.floor(carried / unit);
    carried -= steps * unit;
    budget.step(steps);
  };
}

/** Input units escaped at a time in a long str or bytes repr. */
const CHUNK = 8192;

/** The escape of each code point below 128 that repr() may escape. */
const ASCII_ESCAPES = Array.from({ length: 128 }, (_, c) =>
  c === 0x5c ? "\\\\" : c === 0x27 || c === 0x22 ? "\\" + String.fromCharCode(c) : c === 0x0a ? "\\n" : c === 0x0d ? "\\r" : c === 0x09 ? "\\t" : "\\x" + c.toString(16).padStart(2, "0"),
);

/** The \x, \u or \U escape of a code point from 128 on (remembered for the BMP: a long text repeats them). */
function hexEscape(code: number): string {
  if (code > 0xffff) {
    let escape = ASTRAL_ESCAPES.get(code);
    if (escape === undefined) {
      if (ASTRAL_ESCAPES.size >= 4096) ASTRAL_ESCAPES.clear();
      ASTRAL_ESCAPES.set(code, (escape = "\\U" + code.toString(16).padStart(8, "0")));
    }
    return escape;
  }
  return (HEX_ESCAPES[code] ??= code <= 0xff ? "\\x" + code.toString(16).padStart(2, "0") : "\\u" + code.toString(16).padStart(4, "0"));
}

const HEX_ESCAPES: (string | undefined)[] = new Array<string | undefined>(0x10000);
const ASTRAL_ESCAPES = new Map<number, string>();

/** \x escapes of every code point of an ASCII-only repr that is not ASCII (for ascii() of objects with their own repr). */
export function asciiEscape(text: string): string {
  return text.replace(/[^\0-\x7f]/gu, (ch) => hexEscape(ch.codePointAt(0)!));
}

const NON_PRINTABLE = /(?! )[\p{C}\p{Z}]/u;

/**
 * Whether repr() shows each UTF-16 unit as is (1) or escapes it (2), learnt on first sight (0):
 * the backslash, controls, and what is unprintable (Unicode's C and Z but the space). Surrogates
 * are decided per code point.
 */
const UNIT_CLASS = new Uint8Array(0x10000);
for (let c = 0; c < 0x80; c++) UNIT_CLASS[c] = c < 0x20 || c === 0x5c || c === 0x7f ? 2 : 1;

/** UNIT_CLASS for code points beyond the BMP, as met. */
const ASTRAL_CLASS = new Map<number, boolean>();

function printable(code: number): boolean {
  if (code >= 0xd800 && code <= 0xdfff) return false;
  if (code > 0xffff) {
    let shown = ASTRAL_CLASS.get(code);
    if (shown === undefined) {
      if (ASTRAL_CLASS.size >= 4096) ASTRAL_CLASS.clear();
      ASTRAL_CLASS.set(code, (shown = !NON_PRINTABLE.test(String.fromCodePoint(code))));
    }
    return shown;
  }
  let k = UNIT_CLASS[code]!;
  if (k === 0) UNIT_CLASS[code] = k = NON_PRINTABLE.test(String.fromCharCode(code)) ? 2 : 1;
  return k === 1;
}

/**
 * Pushes onto `parts` the repr of units [from, to) of `s` (no quotes), whose quote is `quote`
 * (a unit), escaping non-ASCII too when `asciiOnly`; the units before `start` need no escape.
 * Returns how many escapes it made.
 */
function escapeInto(s: string, from: number, to: number, quote: number, asciiOnly: boolean, parts: string[], start: number): number {
  let escapes = 0;
  let done = from;
  for (let u = start; u < to; u++) {
    const c = s.charCodeAt(u);
    let width = 1;
    let escape: string;
    if (c < 0x80) {
      if (UNIT_CLASS[c] === 1 && c !== quote) continue;
      escape = ASCII_ESCAPES[c]!;
    } else {
      let code = c;
      if (c >= 0xd800 && c <= 0xdbff && u + 1 < s.length) {
        const low = s.charCodeAt(u + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = (c - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      if (!asciiOnly && printable(code)) {
        u += width - 1;
        continue;
      }
      escape = hexEscape(code);
    }
    if (done < u) parts.push(s.slice(done, u));
    parts.push(escape);
    escapes++;
    u += width - 1;
    done = u + 1;
  }
  if (done < to) parts.push(done === 0 && to === s.length ? s : s.slice(done, to));
  return escapes;
}

/** Units that repr() may escape (all of them are, but the non-ASCII printable), for each quote. */
const MAY_ESCAPE = [/[\\'\0-\x1f\x7f-\uffff]/g, /[\\"\0-\x1f\x7f-\uffff]/g];

/** What an escape costs over its length, in units of work: it is made piece by piece. */
const ESCAPE_WORK = 12;

/**
 * The quoted repr of `length` units built by `escape` (which pushes the text of [from, to) onto
 * its `parts` and returns how many escapes it made), charged to `charge` after `builtBefore`
 * units already built by the same repr: at once when short, else chunk by chunk, each charged
 * as soon as it exists, so that a refused repr stops within one chunk.
 */
function quoted(
  open: string,
  close: string,
  length: number,
  escape: (from: number, to: number, parts: string[]) => number,
  charge: Charge | undefined,
  builtBefore: number,
): string {
  const parts: string[] = [];
  if (length <= CHUNK) {
    const escapes = escape(0, length, parts);
    const out = open + (parts.length === 1 ? parts[0]! : parts.join("")) + close;
    charge?.(out.length + 1 + ESCAPE_WORK * escapes, builtBefore + out.length);
    return out;
  }
  const chunks: string[] = [];
  let built = builtBefore + open.length + close.length;
  for (let from = 0; from < length; ) {
    parts.length = 0;
    const to = Math.min(from + CHUNK, length);
    const escapes = escape(from, to, parts);
    const chunk = parts.join("");
    built += chunk.length;
    charge?.(chunk.length + ESCAPE_WORK * escapes, built);
    chunks.push(chunk);
    from = to;
  }
  charge?.(open.length + close.length + 1, built);
  return open + chunks.join("") + close;
}

/**
 * Python's repr of a str (ascii() when `asciiOnly`): quotes chosen as CPython chooses them,
 * escapes for the unprintable. Charges `charge` (when given) for the text it builds.
 */
export function strRepr(s: string, charge?: Charge, asciiOnly = false, builtBefore = 0): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const unit = quote.charCodeAt(0);
  const special = MAY_ESCAPE[quote === '"' ? 1 : 0]!;
  // The first unit from which escapes may be needed, found by the regular expression (much
  // faster than a loop over plain ASCII), and kept for the chunks it lies beyond.
  let next = -1;
  return quoted(
    quote,
    quote,
    s.length,
    (from, to, parts) => {
      // A surrogate pair is one code point: a chunk that ends inside one takes its second half,
      // which escapeInto skips at the start of the next.
      if (from > 0 && isLowAfterHigh(s, from)) from++;
      if (to < s.length && isLowAfterHigh(s, to)) to++;
      if (next < from) {
        special.lastIndex = from;
        next = special.test(s) ? special.lastIndex - 1 : s.length;
      }
      if (next >= to) {
        parts.push(from === 0 && to === s.length ? s : s.slice(from, to));
        return 0;
      }
      return escapeInto(s, from, to, unit, asciiOnly, parts, next);
    },
    charge,
    builtBefore,
  );
}

/** Whether unit `u` of `s` is the second half of a surrogate pair. */
function isLowAfterHigh(s: string, u: number): boolean {
  const c = s.charCodeAt(u);
  const before = s.charCodeAt(u - 1);
  return c >= 0xdc00 && c <= 0xdfff && before >= 0xd800 && before <= 0xdbff;
}

/** The escape of each byte in a bytes repr, for each quote (null: shown as is). */
const BYTE_ESCAPES = ["'", '"'].map((quote) =>
  Array.from({ length: 256 }, (_, c) =>
    c === 0x5c || c === quote.charCodeAt(0) || c < 0x20 || c >= 0x7f ? (c < 0x80 ? ASCII_ESCAPES[c]! : hexEscape(c)) : null,
  ),
);

// Runs of printable bytes (all ASCII) as text. Made on first use: a TextDecoder made at import
// cannot be kept in code-mode-exec's start-up snapshot (src/cli/exec-snapshot.ts).
let asciiDecoder: InstanceType<typeof TextDecoder> | undefined;

/** Python's repr of bytes; charges `charge` (when given) for the text it builds, as strRepr does. */
export function bytesRepr(b: Uint8Array, charge?: Charge, builtBefore = 0): string {
  const quote = b.includes(0x27) && !b.includes(0x22) ? '"' : "'";
  const escapes = BYTE_ESCAPES[quote === '"' ? 1 : 0]!;
  return quoted(
    "b" + quote,
    quote,
    b.length,
    (from, to, parts) => {
      const ascii = (asciiDecoder ??= new TextDecoder("latin1"));
      let count = 0;
      let done = from;
      for (let i = from; i < to; i++) {
        const escape = escapes[b[i]!]!;
        if (escape === null) continue;
        if (done < i) parts.push(ascii.decode(b.subarray(done, i)));
        parts.push(escape);
        count++;
        done = i + 1;
      }
      if (done < to) parts.push(ascii.decode(b.subarray(done, to)));
      return count;
    },
    charge,
    builtBefore,
  );
}

/** repr(v), charging `charge` (when given) for the text as it is built. */
export function repr(v: Value, charge?: Charge): string {
  if (typeof v === "string") return strRepr(v, charge);
  const scalar = scalarRepr(v, charge);
  if (scalar !== undefined) {
    charge?.(scalar.length + 1, scalar.length);
    return scalar;
  }
  return new Printer(charge, false).repr(v);
}

/** str(v): like repr except for strings themselves and objects with their own str. */
export function str(v: Value, charge?: Charge): string {
  if (typeof v === "string") return v;
  const scalar = scalarRepr(v, charge);
  if (scalar !== undefined) {
    charge?.(scalar.length + 1, scalar.length);
    return scalar;
  }
  const printer = new Printer(charge, false);
  if (v instanceof PyObject && hasRepr(v) && v.pyStr) {
    return v.pyStr((x) => printer.str(x), (x) => printer.repr(x));
  }
  return printer.repr(v);
}

/** ascii(v): repr(v) with every non-ASCII character escaped as \xhh, \uXXXX or \UXXXXXXXX. */
export function ascii(v: Value, charge?: Charge): string {
  if (typeof v === "string") return strRepr(v, charge, true);
  return new Printer(charge, true).repr(v);
}

/** What lets a long repr give the event loop a turn (NativeContext.pause; null: go on). */
export interface ReprPacer {
  pause?(): Pending | null;
}

/** Items printed between two looks at the clock by a paced repr (about 30 µs of small ints). */
const PACE_ITEMS = 128;

/**
 * repr(v), or str(v) with `asStr`, for the built-ins that may wait (repr(), str(), print()): a
 * list, tuple, dict or set is printed item by item, pausing through `pacer` every PACE_ITEMS
 * items however deep they lie, so that printing 900,000 ints does not hold the event loop for
 * a quarter of a second. The text and its charges are repr()'s and str()'s.
 */
export function reprPaced(v: Value, charge: Charge, pacer: ReprPacer, asStr = false): string | Pending {
  if (!isPlainContainer(v)) return asStr ? str(v, charge) : repr(v, charge);
  return new Printer(charge, false).paced(v, pacer);
}

/** The containers whose text a paced repr builds itself (subclasses spell themselves). */
function isPlainContainer(v: Value): v is PyList | PyTuple | PyDict | PySet {
  return v instanceof PyList || v instanceof PySet || ((v instanceof PyTuple || v instanceof PyDict) && v.cls === null);
}

/** The repr of a value that is neither a str nor contains anything (no Printer needed). */
function scalarRepr(v: Value, charge?: Charge): string | undefined {
  switch (typeof v) {
    case "number":
      return String(v);
    case "bigint":
      // Quadratic work, and a ValueError past 4300 digits, as in CPython.
      // The conversion's steps, as units of text work (its memory is charged with the text).
      return charge === undefined ? decimalText(v) : decimalText(v, (steps) => charge(steps << TEXT_SHIFT, 0));
    case "boolean":
      return v ? "True" : "False";
  }
  if (v === null) return "None";
  if (v instanceof PyFloat) return floatRepr(v.v);
  return undefined;
}

/** What a container being printed shows where it holds itself, by its opening bracket. */
function cycleMark(open: string): string {
  return open === "[" ? "[...]" : open === "{" ? "{...}" : "(...)";
}

class Printer {
  /**
   * Containers being printed, outermost first, to print a self-containing one as [...] as CPython
   * does (an array: a printed value is rarely more than a few containers deep).
   */
  private readonly active: object[] = [];
  /** Units built so far, parts and the joined texts made of them (all alive until the end). */
  private built = 0;

  constructor(
    private readonly charge: Charge | undefined,
    private readonly asciiOnly: boolean,
  ) {}

  str(v: Value): string {
    return typeof v === "string" ? v : this.repr(v);
  }

  repr(v: Value): string {
    // Texts and bytes charge for themselves, chunk by chunk when long.
    if (typeof v === "string" || v instanceof PyBytes) {
      const out = typeof v === "string" ? strRepr(v, this.charge, this.asciiOnly, this.built) : bytesRepr(v.bytes, this.charge, this.built);
      this.built += out.length;
      return out;
    }
    const out = this.reprInner(v);
    this.built += out.length;
    this.charge?.(out.length + 1, this.built);
    return out;
  }

  /** Items printed since the last pause (paced only). */
  private sincePause = 0;

  /** repr() of a plain container, its items (and theirs) paced; see reprPaced. */
  paced(v: PyList | PyTuple | PyDict | PySet, pacer: ReprPacer): string | Pending {
    if (v instanceof PySet && v.size === 0) return this.repr(v);
    const [open, close] = v instanceof PyList ? ["[", "]"] : v instanceof PyTuple ? ["(", v.items.length === 1 ? ",)" : ")"] : ["{", "}"];
    if (this.active.includes(v)) return cycleMark(open);
    this.active.push(v);
    const keys: Value[] | null = v instanceof PyDict ? [...v.map.keys()].map((k) => v.keyOf(k)) : null;
    const items: readonly Value[] = v instanceof PyDict ? [...v.map.values()] : v instanceof PySet ? [...v.values()] : v.items;
    // The items' texts, joined PACE_ITEMS at a time into chunks: one join of them all at the end
    // took 100 ms for 900,000 ints.
    const chunks: string[] = [];
    let parts: string[] = [];
    let i = 0;
    const take = (text: string): void => {
      parts.push(keys === null ? text : `${this.repr(keys[i]!)}: ${text}`);
      if (parts.length === PACE_ITEMS) {
        chunks.push(parts.join(", "));
        parts = [];
      }
      i++;
    };
    const loop = (): string | Pending => {
      while (i < items.length) {
        if (++this.sincePause === PACE_ITEMS) {
          this.sincePause = 0;
          const paused = pacer.pause?.() ?? null;
          if (paused !== null) return paused.then(loop);
        }
        const item = items[i]!;
        const text = isPlainContainer(item) ? this.paced(item, pacer) : this.repr(item);
        if (text instanceof Pending) return text.then((t: string) => (take(t), loop()));
        take(text);
      }
      this.active.pop();
      if (parts.length) chunks.push(parts.join(", "));
      const inner = open + chunks.join(", ") + close;
      const out = v instanceof PySet && v.frozen ? `frozenset(${inner})` : inner;
      this.built += out.length;
      this.charge?.(out.length + 1, this.built);
      return out;
    };
    return loop();
  }

  private reprInner(v: Value): string {
    if (typeof v !== "object" || v === null || v instanceof PyFloat) return scalarRepr(v as Exclude<Value, string>, this.charge)!;
    if (v instanceof PyList) return this.container(v, "[", "]", () => v.items.map((x) => this.repr(x)));
    if (v instanceof PyTuple) {
      // A named tuple spells itself; a cycle through it passes through a list or dict, which guard.
      if (v.cls !== null && hasRepr(v)) return v.pyRepr((x) => this.repr(x));
      if (v.items.length === 1) return this.container(v, "(", ",)", () => [this.repr(v.items[0]!)]);
      return this.container(v, "(", ")", () => v.items.map((x) => this.repr(x)));
    }
    if (v instanceof PyDict) {
      // A dict subclass (Counter, defaultdict, OrderedDict) spells itself.
      const own = v.cls === null ? undefined : (v as DictHooks).pyRepr;
      if (own !== undefined) return own.call(v, (x) => this.repr(x), () => this.dict(v));
      return this.dict(v);
    }
    if (v instanceof PySet) {
      if (v.size === 0) return v.frozen ? "frozenset()" : "set()";
      const inner = this.container(v, "{", "}", () => [...v.values()].map((x) => this.repr(x)));
      return v.frozen ? `frozenset(${inner})` : inner;
    }
    if (v instanceof PyRange) return v.step === 1 ? `range(${v.start}, ${v.stop})` : `range(${v.start}, ${v.stop}, ${v.step})`;
    if (hasRepr(v)) {
      const text = v.pyRepr((x) => this.repr(x));
      return this.asciiOnly ? asciiEscape(text) : text;
    }
    return `<${(v as PyObject).typeName} object>`;
  }

  private dict(v: PyDict): string {
    return this.container(v, "{", "}", () => {
      const parts: string[] = [];
      for (const [k, x] of v.map) parts.push(`${this.repr(v.keyOf(k))}: ${this.repr(x)}`);
      return parts;
    });
  }

  private container(v: object, open: string, close: string, parts: () => string[]): string {
    if (this.active.includes(v)) return cycleMark(open);
    this.active.push(v);
    try {
      return open + parts().join(", ") + close;
    } finally {
      this.active.pop();
    }
  }
}
