// Types that modules define (datetime.date, collections.deque, re.Match, hashlib's hashes...):
// a type object (PyClass) and the protocol its instances implement so that the operators, the
// builtins and attribute lookup treat them as CPython treats instances of those classes.
//
// An instance is a PyInstance: a JS subclass that overrides only the hooks its Python type has.
// A hook that is absent means what it means for a plain CPython object: equality and hashing by
// identity, no ordering, no arithmetic, not iterable, not subscriptable, always true. Dict
// subclasses (Counter, defaultdict, OrderedDict) are PyDicts instead (every dict operation
// applies to them) whose `cls` names their type; the hooks they may add are in DictHooks. Named
// tuples are PyTuples the same way (named-tuple.ts).
import type { Budget } from "./budget.js";
import type { Kwargs, NativeContext, NativeFn, NativeMethod } from "./native.js";
import { type DONE, PyIterator, PyType, type Step } from "./objects.js";
import { type HashKey, objectKey, PyDict, PyObject, PyTuple, type Value } from "./values.js";

/** A binary or comparison hook's answer when it does not handle the other operand. */
export const NOT_HANDLED: unique symbol = Symbol("not handled");
export type NotHandled = typeof NOT_HANDLED;

/** A binary operator, or `divmod` (the builtin, which CPython gives its own `__divmod__`). */
export type Operator = "+" | "-" | "*" | "/" | "//" | "%" | "**" | "<<" | ">>" | "&" | "|" | "^" | "@" | "divmod";
export type Ordering = "<" | "<=" | ">" | ">=";

/** The hooks shared by instances and dict subclasses. */
export interface CommonHooks {
  /**
   * `a op b` with this value as `a` (reflected false) or as `b` (reflected true), as CPython tries
   * `__add__` then the other's `__radd__`. NOT_HANDLED lets the other operand (or the TypeError) go.
   */
  pyBinary?(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled;
  /** `a < b` and the rest; NOT_HANDLED gives CPython's TypeError naming both types. */
  pyCompare?(op: Ordering, other: Value, budget: Budget): boolean | NotHandled;
  /** `a == b` (and `!=`, `in`, dict lookups once hashes agree). Absent: identity. */
  pyEquals?(other: Value): boolean;
  /**
   * `a op= b` in place (CPython's `__iadd__`...): the value to rebind, usually this one mutated.
   * NOT_HANDLED (or absent) makes it `a = a op b`.
   */
  pyInplace?(op: Operator, other: Value, budget: Budget): Value | NotHandled;
  /** `-x`, `+x`, `~x`; absent: TypeError. */
  pyUnary?(op: "-" | "+" | "~", budget: Budget): Value;
}

/** A value of a type a module defines. */
export abstract class PyInstance extends PyObject implements CommonHooks {
  abstract get cls(): PyClass;

  get typeName(): string {
    return this.cls.tpName;
  }

  /** What it holds in the heap (sizes.ts): charged by whoever stores it. */
  heapBytes(): number {
    return 64;
  }

  /** repr(); `repr` renders nested values with the caller's budget and recursion guard. */
  abstract pyRepr(repr: (v: Value) => string): string;
  /** str(); absent: repr(). */
  pyStr?(str: (v: Value) => string, repr: (v: Value) => string): string;

  /**
   * The hash key (values.ts HashKey) of a value-hashed type, or null when unhashable; identity
   * by default. A value key starts with "\u0000" and a tag of its type, so that it cannot meet
   * another type's key, and must agree with pyEquals.
   */
  pyHash(): HashKey | null {
    return objectKey(this);
  }

  pyBinary?(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled;
  pyCompare?(op: Ordering, other: Value, budget: Budget): boolean | NotHandled;
  pyEquals?(other: Value): boolean;
  pyInplace?(op: Operator, other: Value, budget: Budget): Value | NotHandled;
  pyUnary?(op: "-" | "+" | "~", budget: Budget): Value;
  /** `abs(x)`; absent: TypeError. */
  pyAbs?(budget: Budget): Value;
  /** `format(x, spec)` and f-string fields (`__format__`); absent: str() for '', else TypeError. */
  pyFormat?(ctx: NativeContext, spec: string): string;
  /**
   * What crosses the JSON boundary (a tool argument, the result) in its place: a datetime's
   * isoformat() text, a named tuple's tuple. Absent: refused as an argument, str() as a result.
   */
  pyJson?(): Value;

  /** `bool(x)`; absent: true. */
  pyBool?(): boolean;
  /** `reversed(x)`: a cursor from the last item back. Absent: not reversible. */
  pyReversed?(): () => Value | typeof import("./objects.js").DONE;
  /** `x[key] = value`. */
  pySetItem?(key: Value, value: Value, budget: Budget): void;
  /** `del x[key]`. */
  pyDelItem?(key: Value, budget: Budget): void;
  /**
   * `x(...)` for callable instances (functools.partial, a cached function). May return a Pending
   * (the call waits on a tool call), so it is typed as a native function's result.
   */
  pyCall?(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value;
  /**
   * `isinstance(v, this)` for an instance that stands for types (`int | str`, typing.List);
   * `test` checks `v` against one class. Absent: not usable in isinstance.
   */
  pyInstanceCheck?(v: Value, test: (cls: Value) => boolean): boolean;
  /** `copy.copy(x)`: a shallow copy. Absent: x itself (an immutable value, or one copy cannot see into). */
  pyCopy?(ctx: NativeContext): Value;
  /** `copy.deepcopy(x)`: a copy whose parts are `deep(part)`. Absent: x itself. */
  pyDeepCopy?(deep: (v: Value) => Value, ctx: NativeContext): Value;
}

/** What a dict subclass may add to the dict it is. */
export interface DictHooks extends CommonHooks {
  /** A data attribute (`d.default_factory`); methods come from the class's table. */
  pyAttr?(name: string): Value | undefined;
  /** `d[key]` of a missing key (CPython's `__missing__`): a value, or undefined for the KeyError. */
  pyMissing?(key: Value, budget: Budget): Value | undefined;
  /**
   * repr(), in place of the dict's `{...}`: `repr` renders nested values, `dict` the dict's own
   * repr (`{'a': 1}`, or `{...}` inside itself). A repr that does not use `dict` guards its own cycles.
   */
  pyRepr?(repr: (v: Value) => string, dict: () => string): string;
  /**
   * `copy.copy(d)`: an empty-or-full dict of the same class with the same extra state (a
   * defaultdict's factory); copy.deepcopy refills it with deep copies. Absent: `cls(d)`.
   */
  pyCopy?(ctx: NativeContext): PyDict;
}

/**
 * A type defined by a module: callable (its constructor), usable with isinstance (its instances
 * and those of its subclasses), with class attributes (`datetime.now`, `timedelta.max`) and the
 * methods its instances have (looked up on own-property Maps, never on JavaScript prototypes).
 */
export class PyClass extends PyType {
  readonly attrs = new Map<string, Value>();
  readonly methods = new Map<string, NativeMethod<any>>();
  /** `cls[key]` (CPython's __class_getitem__: `deque[int]`, `Generic[T]`); null: not subscriptable. */
  classGetItem: ((key: Value, budget: Budget) => Value) | null = null;

  constructor(
    name: string,
    /** The module it belongs to: repr shows `<class 'module.name'>`. */
    readonly module: string,
    construct: NativeFn,
    /** The type it derives from (date for datetime, dict for Counter): methods fall back to it. */
    readonly base: PyClass | null = null,
    /**
     * What error messages call its instances (CPython's tp_name): a type CPython writes in C names
     * its module too (`'collections.deque' object has no attribute 'x'`), one written in Python not.
     */
    readonly tpName: string = name,
    /** isinstance's test, when it is not "an instance of this class or of a subclass". */
    test?: (v: Value) => boolean,
  ) {
    super(name, construct, test ?? ((v) => isInstanceOf(v, this)));
  }

  override pyRepr(): string {
    return `<class '${this.module}.${this.name}'>`;
  }

  /** The method `name` of this class or of its bases. */
  method(name: string): NativeMethod<any> | undefined {
    for (let c: PyClass | null = this; c !== null; c = c.base) {
      const m = c.methods.get(name);
      if (m !== undefined) return m;
    }
    return undefined;
  }

  /** A class attribute of this class or of its bases. */
  attr(name: string): Value | undefined {
    for (let c: PyClass | null = this; c !== null; c = c.base) {
      const v = c.attrs.get(name);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** This class, or one of its bases, is `other`. */
  derivesFrom(other: PyClass): boolean {
    for (let c: PyClass | null = this; c !== null; c = c.base) if (c === other) return true;
    return false;
  }
}

/**
 * An iterator whose type a module defines (`itertools.chain`, `itertools.count`): a PyIterator,
 * so that next() and every consumer take it, with its class for type() and isinstance.
 */
export class ClassedIterator extends PyIterator {
  constructor(
    readonly cls: PyClass,
    next: () => Value | typeof DONE,
    bytes?: number,
    paid = false,
    step: Step | null = null,
  ) {
    super(next, cls.tpName, bytes, paid, step);
  }
}

/** The module-defined class of a value, if it has one (an instance, a dict subclass, a named tuple). */
export function classOf(v: Value): PyClass | null {
  if (v instanceof PyInstance) return v.cls;
  if (v instanceof PyDict || v instanceof PyTuple) return v.cls;
  if (v instanceof ClassedIterator) return v.cls;
  return null;
}

function isInstanceOf(v: Value, cls: PyClass): boolean {
  const c = classOf(v);
  return c !== null && c.derivesFrom(cls);
}

/** The hooks of a dict subclass, or null for a plain dict. */
export function dictHooks(d: PyDict): DictHooks | null {
  return d.cls === null ? null : (d as unknown as DictHooks);
}

/** The binary hook of either operand, tried as CPython tries `__op__` then `__rop__`. */
export function instanceBinary(op: Operator, a: Value, b: Value, budget: Budget): Value | NotHandled {
  const ha = hooksOf(a);
  if (ha?.pyBinary) {
    const r = ha.pyBinary(op, b, false, budget);
    if (r !== NOT_HANDLED) return r;
  }
  const hb = hooksOf(b);
  if (hb?.pyBinary && hb !== ha) return hb.pyBinary(op, a, true, budget);
  return NOT_HANDLED;
}

/** An ordering through either operand's hook (the reflected one with the mirrored operator). */
export function instanceCompare(op: Ordering, a: Value, b: Value, budget: Budget): boolean | NotHandled {
  const ha = hooksOf(a);
  if (ha?.pyCompare) {
    const r = ha.pyCompare(op, b, budget);
    if (r !== NOT_HANDLED) return r;
  }
  const hb = hooksOf(b);
  if (hb?.pyCompare && hb !== ha) return hb.pyCompare(MIRROR[op], a, budget);
  return NOT_HANDLED;
}

const MIRROR: Record<Ordering, Ordering> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" };

/** Equality through either operand's hook; undefined when neither has one. */
export function instanceEquals(a: Value, b: Value): boolean | undefined {
  const ha = hooksOf(a);
  if (ha?.pyEquals) return ha.pyEquals(b);
  const hb = hooksOf(b);
  if (hb?.pyEquals) return hb.pyEquals(a);
  return undefined;
}

/** `a op= b` through `a`'s in-place hook, or NOT_HANDLED for `a = a op b`. */
export function instanceInplace(op: Operator, a: Value, b: Value, budget: Budget): Value | NotHandled {
  const h = hooksOf(a);
  return h?.pyInplace ? h.pyInplace(op, b, budget) : NOT_HANDLED;
}

/** The unary hook of an instance or a dict subclass. */
export function instanceUnary(v: Value): ((op: "-" | "+" | "~", budget: Budget) => Value) | undefined {
  const h = hooksOf(v);
  return h?.pyUnary?.bind(h);
}

function hooksOf(v: Value): CommonHooks | null {
  if (v instanceof PyInstance) return v;
  if (v instanceof PyDict && v.cls !== null) return v as unknown as CommonHooks;
  return null;
}
