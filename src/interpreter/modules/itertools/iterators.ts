// What the itertools share: each name is a class (`<class 'itertools.chain'>`, callable, with
// isinstance) whose instances are lazy iterators pulling from their inputs one item at a time.
import { pyError } from "../../errors.js";
import { ClassedIterator, PyClass } from "../../instance.js";
import type { Kwargs, NativeFn } from "../../native.js";
import { DONE, PyDictView, PyIterator, type Step } from "../../objects.js";
import { CLOSURE, headerSize, ITERATOR } from "../../sizes.js";
import { PyDict, PyList, PyRange, PySet, PyTuple, typeName, type Value } from "../../values.js";

export type Cursor = () => Value | typeof DONE;

/** The class `itertools.<name>`, made by `construct`. */
export function itertoolsClass(name: string, construct: NativeFn): PyClass {
  return new PyClass(name, "itertools", construct, null, `itertools.${name}`);
}

/**
 * An iterator of class `cls` giving what `next` gives. It holds `closures` closures and keeps
 * `inputs` alive; `paid` says its items are its inputs' own, stored and paid for already.
 */
export function iteratorOf(cls: PyClass, next: Cursor, closures: number, inputs: readonly Value[], paid: boolean, step: Step | null = null): ClassedIterator {
  let bytes = ITERATOR + CLOSURE * closures;
  for (const v of inputs) bytes += headerSize(v);
  return new ClassedIterator(cls, next, bytes, paid, step);
}

/** Whether the items an iterable gives are stored (and paid for) where they are. */
export function itemsPaid(v: Value): boolean {
  return (
    typeof v === "string" ||
    v instanceof PyList ||
    v instanceof PyTuple ||
    v instanceof PyDict ||
    v instanceof PySet ||
    v instanceof PyRange ||
    (v instanceof PyDictView && v.kind !== "items") ||
    (v instanceof PyIterator && v.paid)
  );
}

/** Refuses keyword arguments as CPython's itertools do: `chain() takes no keyword arguments`. */
export function noKeywords(name: string, kwargs: Kwargs | null): void {
  if (kwargs && kwargs.size) throw pyError("TypeError", `${name}() takes no keyword arguments`);
}

/** `name expected N arguments, got M` for the itertools that take a fixed number. */
export function exactly(name: string, args: readonly Value[], n: number): void {
  if (args.length !== n) throw pyError("TypeError", `${name} expected ${n} argument${n === 1 ? "" : "s"}, got ${args.length}`);
}

/** Keyword arguments restricted to `allowed`, worded as CPython's argument clinic words them. */
export function onlyKeywords(name: string, kwargs: Kwargs | null, allowed: readonly string[]): void {
  for (const k of kwargs?.keys() ?? []) if (!allowed.includes(k)) throw pyError("TypeError", `'${k}' is an invalid keyword argument for ${name}()`);
}

/** An index-sized int argument (a bool counts), as CPython's `n`, `r` and `times` are read. */
export function indexArg(v: Value): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") throw pyError("OverflowError", "Python int too large to convert to C ssize_t");
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
}
