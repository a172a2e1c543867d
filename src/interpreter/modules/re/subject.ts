// The string a pattern runs over. The machine works on a JS string in UTF-16 units; Python's
// positions are code points (for str) or bytes (for bytes, which run as one character per byte),
// so positions are converted at the edges, and only for strings that hold a surrogate pair.
import type { Budget } from "../../budget.js";
import { pyError } from "../../errors.js";
import { intArg } from "../../native.js";
import { cpLength, isSimple, toCpIndex, toUnitOffset } from "../../strings.js";
import { PyBytes, typeName, type Value } from "../../values.js";
import type { Compiled } from "./compiled.js";

export class Subject {
  /** The length in Python positions. */
  readonly length: number;
  private readonly simple: boolean;

  constructor(
    /** The str or bytes the script gave. */
    readonly value: string | PyBytes,
    /** The text the machine runs over. */
    readonly text: string,
  ) {
    this.simple = value instanceof PyBytes || isSimple(text);
    this.length = value instanceof PyBytes ? value.bytes.length : this.simple ? text.length : cpLength(text);
  }

  get isBytes(): boolean {
    return this.value instanceof PyBytes;
  }

  /** The unit offset of Python position `i` (0 <= i <= length). */
  unit(i: number): number {
    return this.simple ? i : toUnitOffset(this.text, i);
  }

  /** The Python position of unit offset `u`. */
  index(u: number): number {
    return this.simple ? u : toCpIndex(this.text, u);
  }

  /** The text between two unit offsets, as a str or bytes like the subject. */
  slice(from: number, to: number): Value {
    if (this.value instanceof PyBytes) return new PyBytes(this.value.bytes.slice(from, to));
    return this.text.slice(from, to);
  }

  /** The empty value of the subject's type ('' or b''). */
  get empty(): Value {
    return this.value instanceof PyBytes ? new PyBytes(new Uint8Array(0)) : "";
  }
}

/** The subject for `compiled`, with CPython's errors for a value of the wrong type. */
export function subjectOf(compiled: Compiled, v: Value, budget: Budget): Subject {
  if (typeof v === "string") {
    if (!compiled.istext) throw pyError("TypeError", "cannot use a bytes pattern on a string-like object");
    return new Subject(v, v);
  }
  if (v instanceof PyBytes) {
    if (compiled.istext) throw pyError("TypeError", "cannot use a string pattern on a bytes-like object");
    budget.step(1 + (v.bytes.length >> 4));
    budget.checkSize(2 * v.bytes.length);
    return new Subject(v, latin1(v.bytes));
  }
  throw pyError("TypeError", `expected string or bytes-like object, got '${typeName(v)}'`);
}

/** Bytes as a string of one character per byte (not TextDecoder's "latin1", which is windows-1252). */
export function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/** A pos/endpos argument clamped into [0, length], as CPython's state_init does. */
export function position(v: Value | undefined, fallback: number, length: number): number {
  if (v === undefined) return fallback;
  let i: number;
  if (typeof v === "bigint") {
    if (v >= 1n << 63n || v < -(1n << 63n)) throw pyError("OverflowError", "Python int too large to convert to C ssize_t");
    i = v < 0n ? 0 : length;
  } else i = intArg("", v);
  return i < 0 ? 0 : i > length ? length : i;
}
