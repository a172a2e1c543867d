// Type expressions evaluated at run time: `list[int]`, `dict[str, Any]`, `tuple[int, ...]`
// (types.GenericAlias) and `int | None` (types.UnionType). Annotations are never evaluated, but an
// alias (`Rows = list[dict[str, Any]]`) or an isinstance test (`isinstance(x, int | str)`) is, and
// CPython gives printable values for both. typing.ts builds its own forms on the same pieces: the
// repr of a type inside a subscript, type parameters (TypeVar) and their substitution.
import type { Budget } from "./budget.js";
import { pyError } from "./errors.js";
import { NOT_HANDLED, type NotHandled, type Operator, PyClass, PyInstance } from "./instance.js";
import type { Kwargs, NativeContext } from "./native.js";
import { PyType } from "./objects.js";
import { PyExcType } from "./errors.js";
import { equals } from "./ops.js";
import { repr } from "./repr.js";
import { type HashKey, hashKey, PyList, PyObject, PyTuple, UnhashableError, type Value } from "./values.js";

/** `type(None)`: the builtin `type` gives this object, so that `type(None) in get_args(t)` holds. */
export const NONE_TYPE = new PyType(
  "NoneType",
  (_ctx, args, kwargs) => {
    if (args.length > 0 || (kwargs !== null && kwargs.size > 0)) throw pyError("TypeError", "NoneType takes no arguments");
    return null;
  },
  (v) => v === null,
);

/** The builtin types that `T[...]` subscripts (CPython's __class_getitem__ on them). */
const GENERIC_BUILTINS = new Set(["list", "dict", "tuple", "set", "frozenset", "type"]);

/** `...` (the interpreter's Ellipsis object). */
export function isEllipsis(v: Value): boolean {
  return v instanceof PyObject && v.typeName === "ellipsis";
}

/** A class object as typing spells it inside brackets: `int`, `datetime.date`, `NoneType`. */
function className(v: PyType | PyExcType): string {
  const module = (v as { module?: unknown }).module;
  return typeof module === "string" && module !== "builtins" ? `${module}.${v.name}` : v.name;
}

/**
 * CPython's typing._type_repr (and GenericAlias's item repr): a class by its qualified name,
 * `...` for Ellipsis, a list of types in brackets, anything else by its repr.
 */
export function typeRepr(v: Value, repr: (v: Value) => string): string {
  if (v instanceof PyType || v instanceof PyExcType) return className(v);
  if (isEllipsis(v)) return "...";
  if (v instanceof PyList) return `[${v.items.map((x) => typeRepr(x, repr)).join(", ")}]`;
  return repr(v);
}

/** A TypeVar or ParamSpec: what a subscript of a generic alias substitutes. */
export abstract class TypeParameter extends PyInstance {
  abstract readonly name: string;
}

/** The type parameters of `args`, in order of first appearance, looking inside nested aliases. */
export function parametersOf(args: readonly Value[]): TypeParameter[] {
  const out: TypeParameter[] = [];
  const visit = (v: Value): void => {
    if (v instanceof TypeParameter) {
      if (!out.includes(v)) out.push(v);
    } else if (v instanceof PyList) v.items.forEach(visit);
    else if (v instanceof PyInstance && typeof (v as Partial<Parameterized>).parameters === "function") (v as unknown as Parameterized).parameters().forEach(visit);
  };
  args.forEach(visit);
  return out;
}

/** An alias that may hold type parameters and substitute them. */
export interface Parameterized {
  parameters(): TypeParameter[];
  substitute(map: Map<TypeParameter, Value>): Value;
}

/** `v` with its type parameters replaced as `map` says. */
export function substituted(v: Value, map: Map<TypeParameter, Value>): Value {
  if (v instanceof TypeParameter) return map.has(v) ? map.get(v)! : v;
  if (v instanceof PyList) return new PyList(v.items.map((x) => substituted(x, map)));
  if (v instanceof PyInstance && typeof (v as Partial<Parameterized>).substitute === "function") return (v as unknown as Parameterized).substitute(map);
  return v;
}

/**
 * `alias[args]` of an alias whose parameters are `params`: the substitution map, or CPython's
 * TypeError when it has none left or the count is wrong.
 */
export function substitution(shown: string, params: readonly TypeParameter[], key: Value, budget: Budget): Map<TypeParameter, Value> {
  if (params.length === 0) throw pyError("TypeError", `${shown} is not a generic class`);
  const args = subscriptArgs(key, budget);
  if (args.length !== params.length) {
    throw pyError("TypeError", `Too ${args.length > params.length ? "many" : "few"} arguments for ${shown}; actual ${args.length}, expected ${params.length}`);
  }
  return new Map(params.map((p, i) => [p, args[i]!]));
}

/**
 * The steps of one argument of a type subscript or union: checked, hashed, deduplicated, kept.
 * Real aliases have a handful; 32 steps (about the work, on a loaded machine) keep a hostile
 * Literal of 10**5 values from holding the event loop.
 */
export const ARG_STEPS = 32;

/** The arguments of a subscript: `X[a, b]` is keyed by the tuple (a, b). */
export function subscriptArgs(key: Value, budget: Budget): Value[] {
  budget.step(1 + ARG_STEPS * (key instanceof PyTuple ? key.items.length : 1));
  return key instanceof PyTuple ? [...key.items] : [key];
}

/**
 * `values` without repeats (the first of equal values kept), as CPython's typing deduplicates
 * them: by hash where they have one, by `==` among the unhashable rest. A step each.
 */
export function uniqueValues(values: readonly Value[], budget: Budget | null): Value[] {
  budget?.step((ARG_STEPS >> 1) * values.length);
  const seen = new Set<HashKey>();
  const unhashable: Value[] = [];
  const out: Value[] = [];
  for (const v of values) {
    let k: HashKey | null;
    try {
      k = hashKey(v);
    } catch (e) {
      if (!(e instanceof UnhashableError)) throw e;
      k = null;
    }
    if (k === null) {
      budget?.step(unhashable.length);
      if (unhashable.some((u) => equals(u, v))) continue;
      unhashable.push(v);
    } else if (seen.has(k)) continue;
    else seen.add(k);
    out.push(v);
  }
  return out;
}

/**
 * Whether two collections hold the same values, in any order (unions compare so). Equality hooks
 * get no budget (null): their work is bounded by what building the two operands was charged.
 */
export function sameMembers(a: readonly Value[], b: readonly Value[], budget: Budget | null): boolean {
  const ua = uniqueValues(a, budget);
  const ub = uniqueValues(b, budget);
  return ua.length === ub.length && uniqueValues([...ua, ...ub], budget).length === ua.length;
}

/** The HashKey of a sequence of values, tagged; null when one of them is unhashable. */
export function keyOf(tag: string, items: readonly Value[], unordered = false): HashKey | null {
  try {
    const keys = items.map((v) => {
      const k = hashKey(v);
      return `${typeof k}:${String(k)}`;
    });
    if (unordered) keys.sort();
    return `\u0000${tag}(${keys.join(",")})`;
  } catch (e) {
    if (e instanceof UnhashableError) return null;
    throw e;
  }
}

/** Equality of two argument lists, item by item, through the interpreter's `==`. */
export function sameArgs(a: readonly Value[], b: readonly Value[], equals: (x: Value, y: Value) => boolean): boolean {
  return a.length === b.length && a.every((x, i) => equals(x, b[i]!));
}

// ------------------------------------------------------------------ list[int]

const GENERIC_ALIAS = new PyClass("GenericAlias", "types", () => {
  throw pyError("TypeError", "GenericAlias expected 2 arguments");
});

/** `list[int]`: types.GenericAlias, whose call makes the origin's value. */
export class GenericAlias extends PyInstance implements Parameterized {
  private key: HashKey | null | undefined = undefined;

  constructor(
    readonly origin: PyType,
    readonly args: readonly Value[],
  ) {
    super();
  }

  get cls(): PyClass {
    return GENERIC_ALIAS;
  }

  override heapBytes(): number {
    return 64 + 8 * this.args.length;
  }

  pyRepr(repr: (v: Value) => string): string {
    return `${className(this.origin)}[${this.args.length === 0 ? "()" : this.args.map((a) => typeRepr(a, repr)).join(", ")}]`;
  }

  override pyCall(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
    return this.origin.construct(ctx, args, kwargs);
  }

  override pyEquals(other: Value): boolean {
    return other instanceof GenericAlias && other.origin === this.origin && sameArgs(this.args, other.args, equals);
  }

  override pyHash(): HashKey | null {
    // Immutable: the key is made once.
    if (this.key === undefined) this.key = keyOf("ga", [this.origin, ...this.args]);
    return this.key;
  }

  override pyGetItem(key: Value, budget: Budget): Value {
    budget.step(1 + ARG_STEPS * this.args.length);
    return this.substitute(substitution(repr(this), this.parameters(), key, budget));
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    if (op !== "|" || !isUnionOperand(other)) return NOT_HANDLED;
    return reflected ? unionType([other, this], budget) : unionType([this, other], budget);
  }

  override pyInstanceCheck(): boolean {
    throw pyError("TypeError", "isinstance() argument 2 cannot be a parameterized generic");
  }

  parameters(): TypeParameter[] {
    return parametersOf(this.args);
  }

  substitute(map: Map<TypeParameter, Value>): Value {
    return new GenericAlias(this.origin, this.args.map((a) => substituted(a, map)));
  }
}

/** `T[key]` of a type: a GenericAlias for the generic builtins, a class's own subscript, or CPython's TypeError. */
export function subscriptType(type: PyType | PyExcType, key: Value, budget: Budget): Value {
  if (type instanceof PyExcType) throw pyError("TypeError", `type '${type.name}' is not subscriptable`);
  if (type instanceof PyClass) {
    if (type.classGetItem !== null) return type.classGetItem(key, budget);
    throw pyError("TypeError", `type '${className(type)}' is not subscriptable`);
  }
  if (GENERIC_BUILTINS.has(type.name)) return new GenericAlias(type, subscriptArgs(key, budget));
  throw pyError("TypeError", `type '${type.name}' is not subscriptable`);
}

/** A class's `classGetItem` that makes a GenericAlias, as deque[int] or defaultdict[str, int] do. */
export function genericClassGetItem(cls: PyClass): (key: Value, budget: Budget) => Value {
  return (key, budget) => new GenericAlias(cls, subscriptArgs(key, budget));
}

// ------------------------------------------------------------------ int | None

const UNION_TYPE = new PyClass("UnionType", "types", () => {
  throw pyError("TypeError", "cannot create 'types.UnionType' instances");
});

/** What `|` joins into a types.UnionType: classes, None, `list[int]`, and unions of them. */
export function isUnionOperand(v: Value): boolean {
  return v === null || v instanceof PyType || v instanceof PyExcType || v instanceof GenericAlias || v instanceof UnionType || (v instanceof PyInstance && v.typeName === "_AnyMeta");
}

/** `int | str`: types.UnionType. Its args never repeat; None is NoneType. */
export class UnionType extends PyInstance {
  private key: HashKey | null | undefined = undefined;

  constructor(readonly args: readonly Value[]) {
    super();
  }

  get cls(): PyClass {
    return UNION_TYPE;
  }

  override heapBytes(): number {
    return 64 + 8 * this.args.length;
  }

  pyRepr(repr: (v: Value) => string): string {
    return this.args.map((a) => (a === NONE_TYPE ? "None" : typeRepr(a, repr))).join(" | ");
  }

  override pyEquals(other: Value): boolean {
    const theirs = unionArgs(other);
    if (theirs === null || theirs.length !== this.args.length) return false;
    const mine = hashKeyOf(this);
    return mine !== null && mine === hashKeyOf(other);
  }

  override pyHash(): HashKey | null {
    // Immutable: the key is made once (equality with another union compares keys).
    if (this.key === undefined) this.key = keyOf("union", this.args, true);
    return this.key;
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    if (op !== "|" || !isUnionOperand(other)) return NOT_HANDLED;
    return reflected ? unionType([other, this], budget) : unionType([this, other], budget);
  }

  override pyInstanceCheck(v: Value, test: (cls: Value) => boolean): boolean {
    return this.args.some(test);
  }
}

/** The members of a union (types.UnionType or typing.Union), for equality across the two. */
function unionArgs(v: Value): readonly Value[] | null {
  if (v instanceof UnionType) return v.args;
  const own = v instanceof PyInstance ? (v as { unionMembers?: () => readonly Value[] | null }).unionMembers : undefined;
  return typeof own === "function" ? own.call(v) : null;
}

/** `a | b | ...` as CPython's `|` of types makes it: flattened, None as NoneType, duplicates dropped. */
export function unionType(operands: readonly Value[], budget: Budget): Value {
  const flat = operands.flatMap((o) => (o instanceof UnionType ? o.args : [o === null ? NONE_TYPE : o]));
  const members = uniqueValues(flat, budget);
  return members.length === 1 ? members[0]! : new UnionType(members);
}

/** `a | b` of two operands no other rule handled (`int | str`, `None | int`), or null. */
export function typeUnion(a: Value, b: Value, budget: Budget): Value | null {
  if (a === null && b === null) return null;
  if (!isUnionOperand(a) || !isUnionOperand(b)) return null;
  return unionType([a, b], budget);
}

/** The HashKey of a value, or null when it is unhashable. */
function hashKeyOf(v: Value): HashKey | null {
  try {
    return hashKey(v);
  } catch (e) {
    if (e instanceof UnhashableError) return null;
    throw e;
  }
}
