// Values crossing the sandbox boundary: tool arguments going out, tool results coming in, and the
// script's final result. Each crossing is bounded (max_value_bytes, max_nesting_depth, 4096-bit
// ints) and cycles are refused, so a script cannot make the host serialize something unbounded.
import type { Budget, Limits } from "./budget.js";
import { pyError, ResourceLimitError } from "./errors.js";
import { PyInstance } from "./instance.js";
import { floatRepr, str } from "./repr.js";
import { PyBytes, PyDict, PyFloat, PyList, PyObject, PySet, PyTuple, typeName, type Value } from "./values.js";

const MAX_INT_BITS = 4096;

/** A JSON-compatible value; integers beyond 2^53 are bigint. */
export type Plain = null | boolean | number | bigint | string | Plain[] | { [key: string]: Plain };

class Meter {
  bytes = 0;
  private readonly active = new Set<object>();

  constructor(
    private readonly limits: Limits,
    private readonly what: string,
  ) {}

  add(n: number): void {
    this.bytes += n;
    if (this.bytes > this.limits.max_value_bytes) {
      throw new ResourceLimitError("max_value_bytes", this.limits.max_value_bytes, `${this.what} is larger`);
    }
  }

  enter(container: object, depth: number): void {
    if (depth > this.limits.max_nesting_depth) {
      throw new ResourceLimitError("max_nesting_depth", this.limits.max_nesting_depth, `${this.what} nests deeper`);
    }
    if (this.active.has(container)) throw pyError("ValueError", `${this.what} contains a reference to itself (a cycle)`);
    this.active.add(container);
  }

  leave(container: object): void {
    this.active.delete(container);
  }
}

function checkIntSize(v: bigint, what: string): void {
  const bits = (v < 0n ? -v : v).toString(16).length * 4;
  if (bits > MAX_INT_BITS + 4) throw pyError("ValueError", `${what} holds an integer larger than ${MAX_INT_BITS} bits`);
}

function keyString(k: Value): string {
  if (typeof k === "string") return k;
  // A date key goes out as its ISO text, as the date itself would.
  if (k instanceof PyInstance && k.pyJson) {
    const json = k.pyJson();
    if (typeof json === "string") return json;
  }
  if (typeof k === "number" || typeof k === "bigint") return String(k);
  if (typeof k === "boolean") return k ? "true" : "false";
  if (k === null) return "null";
  if (k instanceof PyFloat) return floatRepr(k.v);
  throw pyError("TypeError", `keys must be str, int, float, bool or None, not ${typeName(k)}`);
}

/**
 * A Python value as a plain JS value. `strict` (tool arguments) refuses what JSON cannot hold;
 * otherwise (the script's result) anything else becomes its str(), as SPEC §8 says.
 */
export function toPlain(v: Value, limits: Limits, what: string, strict: boolean): Plain {
  const meter = new Meter(limits, what);
  const convert = (x: Value, depth: number): Plain => {
    switch (typeof x) {
      case "string":
        meter.add(x.length + 2);
        return x;
      case "number":
        meter.add(8);
        return x;
      case "bigint":
        checkIntSize(x, what);
        meter.add(x.toString().length);
        return x;
      case "boolean":
        meter.add(5);
        return x;
    }
    if (x === null) {
      meter.add(4);
      return null;
    }
    if (x instanceof PyFloat) {
      meter.add(8);
      if (Number.isFinite(x.v)) return x.v;
      if (strict) throw pyError("ValueError", `${what} holds ${floatRepr(x.v)}, which JSON cannot represent`);
      return floatRepr(x.v);
    }
    if (x instanceof PyList || x instanceof PyTuple || x instanceof PySet) {
      meter.enter(x, depth + 1);
      const items = x instanceof PySet ? [...x.values()] : x.items;
      const out: Plain[] = [];
      for (const item of items) {
        meter.add(1);
        out.push(convert(item, depth + 1));
      }
      meter.leave(x);
      return out;
    }
    if (x instanceof PyDict) {
      meter.enter(x, depth + 1);
      const out: { [key: string]: Plain } = {};
      for (const [k, item] of x.entries()) {
        const key = keyString(k);
        meter.add(key.length + 4);
        // A plain object is safe for any key: __proto__ is defined as an own property.
        Object.defineProperty(out, key, { value: convert(item, depth + 1), enumerable: true, writable: true, configurable: true });
      }
      meter.leave(x);
      return out;
    }
    if (x instanceof PyInstance && x.pyJson) {
      // A module's type that has a JSON form (a datetime's ISO text, a named tuple's array).
      return convert(x.pyJson(), depth);
    }
    if (x instanceof PyObject && x.pyWire) {
      // A value with a form of its own goes on in it: a tensor a tool returned, as the payload it
      // came as (to another tool, or out).
      const wire = x.pyWire(what, strict);
      if (wire !== null) {
        meter.add(wire.length + 2);
        return wire;
      }
    }
    if (x instanceof PyBytes && !strict) {
      meter.add(x.bytes.length);
      return str(x);
    }
    if (strict) throw pyError("TypeError", `${what} must be JSON values (str, int, float, bool, None, list, dict), not ${typeName(x)}`);
    const text = str(x);
    meter.add(text.length);
    return text;
  };
  return convert(v, 0);
}

/** Arguments of a tool call, as the host receives them. */
export function toHost(v: Value, limits: Limits, what: string): Plain {
  return toPlain(v, limits, what, true);
}

/** A host's result as a Python value: objects become dicts, arrays lists, integral numbers ints. */
export function fromHost(js: unknown, limits: Limits, budget: Budget): Value {
  const meter = new Meter(limits, "a tool result");
  const convert = (x: unknown, depth: number): Value => {
    switch (typeof x) {
      case "string":
        meter.add(x.length + 2);
        return x;
      case "number":
        meter.add(8);
        return Number.isSafeInteger(x) ? x : new PyFloat(x);
      case "bigint":
        checkIntSize(x, "a tool result");
        meter.add(x.toString().length);
        return x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : x;
      case "boolean":
        meter.add(5);
        return x;
      case "undefined":
        return null;
    }
    if (x === null) return null;
    if (x instanceof PyList || x instanceof PyDict || x instanceof PyTuple || x instanceof PyFloat || x instanceof PySet || x instanceof PyBytes || x instanceof PyObject) {
      // Already a sandbox value (a host that builds them itself, e.g. a decoded Tensor).
      return x;
    }
    if (x instanceof Uint8Array) {
      meter.add(x.length);
      return new PyBytes(x);
    }
    if (Array.isArray(x)) {
      meter.enter(x, depth + 1);
      const items = x.map((item) => {
        meter.add(1);
        return convert(item, depth + 1);
      });
      meter.leave(x);
      return new PyList(items);
    }
    if (typeof x === "object") {
      meter.enter(x, depth + 1);
      const d = new PyDict();
      for (const key of Object.keys(x)) {
        meter.add(key.length + 4);
        d.set(key, convert((x as Record<string, unknown>)[key], depth + 1));
      }
      meter.leave(x);
      return d;
    }
    return String(x);
  };
  const value = convert(js, 0);
  budget.alloc(meter.bytes);
  return value;
}

/**
 * JSON text of a plain value, as JSON.stringify(v, null, indent) writes it, except that bigints
 * are written as exact integer literals. Written directly rather than through a marker object
 * replaced afterwards: a script's own dict (`{"__bigint__": "123"}`) could not be told apart from
 * such a marker. The parts without bigints (usually all of it) go through JSON.stringify, which
 * is several times faster than the walk.
 */
export function stringifyPlain(v: unknown, indent?: number): string {
  const gap = indent ? " ".repeat(Math.min(10, indent)) : "";
  const holdsBigInt = new Set<object>();
  const scan = (x: unknown): boolean => {
    if (typeof x === "bigint") return true;
    if (x === null || typeof x !== "object") return false;
    let found = false;
    for (const item of Array.isArray(x) ? x : Object.values(x)) if (scan(item)) found = true;
    if (found) holdsBigInt.add(x);
    return found;
  };
  scan(v);
  const write = (x: unknown, outer: string): string | undefined => {
    if (typeof x === "bigint") return x.toString();
    if (x === null || typeof x !== "object" || !holdsBigInt.has(x)) {
      const text = JSON.stringify(x, null, gap);
      // Newlines in JSON text are layout only (strings escape theirs): indent them to this depth.
      return gap && outer && text !== undefined ? text.replaceAll("\n", `\n${outer}`) : text;
    }
    const inner = outer + gap;
    const open = gap ? `\n${inner}` : "";
    const separator = gap ? `,\n${inner}` : ",";
    const close = gap ? `\n${outer}` : "";
    if (Array.isArray(x)) return `[${open}${x.map((item) => write(item, inner) ?? "null").join(separator)}${close}]`;
    const fields: string[] = [];
    for (const key of Object.keys(x)) {
      const text = write((x as Record<string, unknown>)[key], inner);
      if (text !== undefined) fields.push(`${JSON.stringify(key)}:${gap ? " " : ""}${text}`);
    }
    return `{${open}${fields.join(separator)}${close}}`;
  };
  return write(v, "") ?? "null";
}
