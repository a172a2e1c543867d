// The values of the typing module: special forms (Optional, Union, Literal, Final...), the aliases
// of classes (List, Dict, Iterable...), what subscripting them makes (`typing.Optional[int]`,
// `typing.Dict[str, typing.Any]`), TypeVar and ForwardRef. Each prints, compares, hashes,
// substitutes its type variables and refuses isinstance or a call as CPython 3.11's typing does.
import type { Budget } from "./budget.js";
import { pyError } from "./errors.js";
import {
  ARG_STEPS,
  isEllipsis,
  isUnionOperand,
  keyOf,
  NONE_TYPE,
  type Parameterized,
  parametersOf,
  sameArgs,
  sameMembers,
  subscriptArgs,
  substituted,
  substitution,
  TypeParameter,
  typeRepr,
  UnionType,
  uniqueValues,
} from "./generic-alias.js";
import { NOT_HANDLED, type NotHandled, type Operator, PyClass, PyInstance } from "./instance.js";
import type { Kwargs, NativeContext } from "./native.js";
import { equals } from "./ops.js";
import { bindPython } from "./py-bind.js";
import { repr } from "./repr.js";
import { type HashKey, hashKey, PyList, PyTuple, typeName, type Value } from "./values.js";

/** The classes typing's objects are instances of (what `type(typing.List[int])` shows). */
function typingClass(name: string, module = "typing"): PyClass {
  return new PyClass(name, module, () => {
    throw pyError("TypeError", `cannot create '${module}.${name}' instances`);
  });
}

const SPECIAL_FORM = typingClass("_SpecialForm");
const SPECIAL_ALIAS = typingClass("_SpecialGenericAlias");
const CALLABLE_TYPE = typingClass("_CallableType");
const TUPLE_TYPE = typingClass("_TupleType");
const ANY_META = typingClass("_AnyMeta");
const ALIAS_CLASSES = {
  generic: typingClass("_GenericAlias"),
  callable: typingClass("_CallableGenericAlias"),
  union: typingClass("_UnionGenericAlias"),
  literal: typingClass("_LiteralGenericAlias"),
  annotated: typingClass("_AnnotatedAlias"),
};

const argsKey = (tag: string, items: readonly Value[]) => keyOf(tag, items);


// ------------------------------------------------------------------ type checks

/** Forms that may stand alone as a type argument (`List[Any]`); the others may not (`List[Optional]`). */
const PLAIN_FORMS = new Set(["Any", "LiteralString", "NoReturn", "Never", "Self", "TypeAlias"]);

/**
 * CPython's typing._type_check: None reads as NoneType, a str as a ForwardRef, a plain special
 * form or a Final/ClassVar alias is refused; anything else goes (3.11 is lax: `List[1]` is fine).
 */
export function typeCheck(arg: Value, message: string): Value {
  if (arg === null) return NONE_TYPE;
  if (typeof arg === "string") return new ForwardRef(arg);
  if (arg instanceof TypingAlias && arg.kind === "generic" && (arg.origin === GENERIC || arg.origin === PROTOCOL || arg.name === "typing.Final" || arg.name === "typing.ClassVar")) {
    throw pyError("TypeError", `${repr(arg)} is not valid as type argument`);
  }
  if (arg instanceof SpecialForm && !PLAIN_FORMS.has(arg.name)) throw pyError("TypeError", `Plain ${repr(arg)} is not valid as type argument`);
  if (arg === GENERIC || arg === PROTOCOL) throw pyError("TypeError", `Plain ${repr(arg)} is not valid as type argument`);
  if (arg instanceof PyTuple) throw pyError("TypeError", `${message} Got ${repr(arg).slice(0, 100)}.`);
  return arg;
}

/** Values a `|` with a typing object accepts on its other side. */
function isTypeLike(v: Value): boolean {
  return isUnionOperand(v) || v instanceof SpecialForm || v instanceof SpecialAlias || v instanceof TypingAlias || v instanceof TypeParameter || v instanceof ForwardRef || v instanceof NewType || v instanceof AnyType;
}

function unionHook(self: Value, op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
  if (op !== "|" || !isTypeLike(other)) return NOT_HANDLED;
  return makeUnion(reflected ? [other, self] : [self, other], budget);
}

// ------------------------------------------------------------------ Any and the special forms

/** typing.Any: a class in 3.11, so `Any | None` is a types.UnionType. */
export class AnyType extends PyInstance {
  get cls(): PyClass {
    return ANY_META;
  }

  pyRepr(): string {
    return "typing.Any";
  }

  override pyGetItem(): Value {
    throw pyError("TypeError", "type 'Any' is not subscriptable");
  }

  override pyCall(): Value {
    throw pyError("TypeError", "Any cannot be instantiated");
  }

  override pyInstanceCheck(): boolean {
    throw pyError("TypeError", "typing.Any cannot be used with isinstance()");
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean): Value | NotHandled {
    if (op !== "|" || !isUnionOperand(other)) return NOT_HANDLED;
    const members = reflected ? [other === null ? NONE_TYPE : other, this] : [this, other === null ? NONE_TYPE : other];
    return new UnionType(members);
  }
}

/** Optional, Union, Literal, Final, ClassVar, NoReturn...: what `typing.X[...]` makes, if anything. */
export class SpecialForm extends PyInstance {
  constructor(
    readonly name: string,
    private readonly subscript: ((key: Value, form: SpecialForm, budget: Budget) => Value) | null,
  ) {
    super();
  }

  get cls(): PyClass {
    return SPECIAL_FORM;
  }

  pyRepr(): string {
    return `typing.${this.name}`;
  }

  override pyGetItem(key: Value, budget: Budget): Value {
    if (this.subscript === null) throw pyError("TypeError", `typing.${this.name} is not subscriptable`);
    return this.subscript(key, this, budget);
  }

  override pyCall(): Value {
    throw pyError("TypeError", `Cannot instantiate typing.${this.name}`);
  }

  override pyInstanceCheck(): boolean {
    throw pyError("TypeError", `typing.${this.name} cannot be used with isinstance()`);
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    return unionHook(this, op, other, reflected, budget);
  }
}

// ------------------------------------------------------------------ typing.List and the other aliases

/** How an alias's class is instantiated: not at all (List), by its class (Deque), or abstract (Iterable). */
export type Instantiation = { kind: "refused"; builtin: string } | { kind: "origin" } | { kind: "abstract"; className: string; methods: string[] };

/** typing.List, typing.Iterable...: an alias of a class, subscripted with a fixed number of types. */
export class SpecialAlias extends PyInstance {
  constructor(
    readonly name: string,
    /** The class it stands for (a builtin type, a collections or collections.abc class). */
    readonly origin: () => Value,
    /** How many types it takes (-1: Tuple, any number; -2: Callable's [args], result). */
    readonly params: number,
    readonly instantiation: Instantiation,
  ) {
    super();
  }

  get cls(): PyClass {
    return this.params === -1 ? TUPLE_TYPE : this.params === -2 ? CALLABLE_TYPE : SPECIAL_ALIAS;
  }

  pyRepr(): string {
    return `typing.${this.name}`;
  }

  override pyGetItem(key: Value, budget: Budget): Value {
    if (this.params === -2) return callableAlias(key, this, budget);
    if (this.params === -1) {
      const args = key instanceof PyTuple && key.items.length === 0 ? [] : subscriptArgs(key, budget);
      return new TypingAlias("generic", `typing.${this.name}`, this.origin(), args.map((a) => (isEllipsis(a) ? a : typeCheck(a, "Tuple[t0, t1, ...]: each t must be a type."))), this);
    }
    if (this.params === 0) throw pyError("TypeError", `typing.${this.name} is not a generic class`);
    const args = subscriptArgs(key, budget).map((a) => typeCheck(a, "Parameters to generic types must be types."));
    if (args.length !== this.params) {
      throw pyError("TypeError", `Too ${args.length > this.params ? "many" : "few"} arguments for typing.${this.name}; actual ${args.length}, expected ${this.params}`);
    }
    return new TypingAlias("generic", `typing.${this.name}`, this.origin(), args, this);
  }

  override pyCall(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
    return instantiate(this.name, this.instantiation, this.origin(), ctx, args, kwargs);
  }

  override pyInstanceCheck(v: Value, test: (cls: Value) => boolean): boolean {
    return test(this.origin());
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    return unionHook(this, op, other, reflected, budget);
  }
}

function instantiate(name: string, how: Instantiation, origin: Value, ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
  if (how.kind === "refused") throw pyError("TypeError", `Type ${name} cannot be instantiated; use ${how.builtin}() instead`);
  if (how.kind === "abstract") {
    const many = how.methods.length > 1;
    throw pyError("TypeError", `Can't instantiate abstract class ${how.className} with abstract method${many ? "s" : ""} ${how.methods.join(", ")}`);
  }
  return ctx.call(origin, args, kwargs);
}

/** `Callable[[int, str], bool]`, `Callable[..., Any]`, `Callable[P, int]`. */
function callableAlias(key: Value, alias: SpecialAlias, budget: Budget): Value {
  if (!(key instanceof PyTuple) || key.items.length !== 2) throw pyError("TypeError", "Callable must be used as Callable[[arg, ...], result].");
  const [params, result] = key.items as [Value, Value];
  const checkedResult = typeCheck(result, "Callable[args, result]: result must be a type.");
  if (isEllipsis(params)) return new TypingAlias("callable", "typing.Callable", alias.origin(), [params, checkedResult], alias);
  const list = params instanceof PyList ? params.items : params instanceof PyTuple ? params.items : [params];
  budget.step(1 + ARG_STEPS * list.length);
  const checked = list.map((a) => (a === null ? NONE_TYPE : typeof a === "string" ? new ForwardRef(a) : a));
  return new TypingAlias("callable", "typing.Callable", alias.origin(), [...checked, checkedResult], alias);
}

// ------------------------------------------------------------------ what a subscript makes

export type AliasKind = keyof typeof ALIAS_CLASSES;

/**
 * A subscripted form: `typing.List[int]` (generic), `typing.Callable[[int], str]` (callable: its
 * args are the parameters then the result), `typing.Union[int, str]`, `typing.Literal['a']`,
 * `typing.Annotated[int, 'meta']` (origin the type, args the metadata).
 */
export class TypingAlias extends PyInstance implements Parameterized {
  private key: HashKey | null | undefined = undefined;

  constructor(
    readonly kind: AliasKind,
    /** What its repr starts with: `typing.List`. */
    readonly name: string,
    /** get_origin(): the class (list), or the form (typing.Final, typing.Union). */
    readonly origin: Value,
    readonly args: readonly Value[],
    /** The unsubscripted alias it came from, for its instantiation rule. */
    readonly from: SpecialAlias | null = null,
  ) {
    super();
  }

  get cls(): PyClass {
    return ALIAS_CLASSES[this.kind];
  }

  override heapBytes(): number {
    return 80 + 8 * this.args.length;
  }

  pyRepr(r: (v: Value) => string): string {
    const t = (v: Value) => typeRepr(v, r);
    switch (this.kind) {
      case "union": {
        const none = this.args.indexOf(NONE_TYPE);
        if (this.args.length === 2 && none >= 0) return `typing.Optional[${t(this.args[1 - none]!)}]`;
        return `typing.Union[${this.args.map(t).join(", ")}]`;
      }
      case "literal":
        return `typing.Literal[${this.args.length ? this.args.map(t).join(", ") : "()"}]`;
      case "annotated":
        return `typing.Annotated[${t(this.origin)}, ${this.args.map(r).join(", ")}]`;
      case "callable": {
        const params = this.args.slice(0, -1);
        const result = t(this.args.at(-1)!);
        if (params.length === 1 && (isEllipsis(params[0]!) || params[0] instanceof TypeParameter)) return `typing.Callable[${t(params[0]!)}, ${result}]`;
        return `typing.Callable[[${params.map(t).join(", ")}], ${result}]`;
      }
      case "generic":
        if (this.name === "typing.Unpack") return `*${t(this.args[0]!)}`;
        return `${this.name}[${this.args.length ? this.args.map(t).join(", ") : "()"}]`;
    }
  }

  override pyGetItem(key: Value, budget: Budget): Value {
    budget.step(1 + ARG_STEPS * this.args.length);
    return this.substitute(substitution(repr(this), this.parameters(), key, budget), budget);
  }

  override pyCall(ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
    if (this.kind === "annotated") return ctx.call(this.origin, args, kwargs);
    if (this.kind === "union") throw pyError("TypeError", "Cannot instantiate typing.Union");
    if (this.kind === "literal") throw pyError("TypeError", "Cannot instantiate typing.Literal");
    if (this.from !== null) return instantiate(this.from.name, this.from.instantiation, this.origin, ctx, args, kwargs);
    if (this.origin instanceof SpecialForm) throw pyError("TypeError", `Cannot instantiate ${repr(this.origin)}`);
    return ctx.call(this.origin, args, kwargs);
  }

  override pyInstanceCheck(v: Value, test: (cls: Value) => boolean): boolean {
    if (this.kind !== "union") throw pyError("TypeError", "Subscripted generics cannot be used with class and instance checks");
    for (const a of this.args) {
      if (a instanceof TypingAlias) throw pyError("TypeError", "Subscripted generics cannot be used with class and instance checks");
      if (test(a)) return true;
    }
    return false;
  }

  override pyEquals(other: Value): boolean {
    if (this.kind === "union" || this.kind === "literal") {
      const theirs = this.kind === "union" && other instanceof UnionType ? other.args : other instanceof TypingAlias && other.kind === this.kind ? other.args : null;
      if (theirs === null) return false;
      // Members compare without order: by their keys, made once, unless one is unhashable.
      const mine = this.pyHash();
      if (mine !== null) return mine === (other as TypingAlias | UnionType).pyHash();
      return this.kind === "union" ? sameMembers(this.args, theirs, null) : sameMembers(literalPairs(this.args), literalPairs(theirs), null);
    }
    if (!(other instanceof TypingAlias) || other.kind !== this.kind) return false;
    return equals(this.origin, other.origin) && sameArgs(this.args, other.args, equals);
  }

  override pyHash(): HashKey | null {
    // Immutable: the key is made once.
    if (this.key === undefined) {
      if (this.kind === "union") this.key = keyOf("union", this.args, true);
      else if (this.kind === "literal") this.key = keyOf("literal", literalPairs(this.args), true);
      else this.key = argsKey(`ty${this.kind}`, [this.origin, ...this.args]);
    }
    return this.key;
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    return unionHook(this, op, other, reflected, budget);
  }

  /** For types.UnionType's equality with typing.Union. */
  unionMembers(): readonly Value[] | null {
    return this.kind === "union" ? this.args : null;
  }

  parameters(): TypeParameter[] {
    if (this.kind === "literal") return [];
    return parametersOf(this.kind === "annotated" ? [this.origin] : this.args);
  }

  substitute(map: Map<TypeParameter, Value>, budget: Budget | null = null): Value {
    const args = this.args.map((a) => substituted(a, map));
    if (this.kind === "union") return makeUnion(args, budget);
    if (this.kind === "annotated") return new TypingAlias("annotated", this.name, substituted(this.origin, map), this.args, this.from);
    return new TypingAlias(this.kind, this.name, this.origin, args, this.from);
  }

  /** get_args(): Callable's parameters as a list, Annotated's type then its metadata. */
  getArgs(): Value[] {
    if (this.kind === "callable") {
      const params = this.args.slice(0, -1);
      const result = this.args.at(-1)!;
      return params.length === 1 && (isEllipsis(params[0]!) || params[0] instanceof TypeParameter) ? [params[0]!, result] : [new PyList(params), result];
    }
    if (this.kind === "annotated") return [this.origin, ...this.args];
    return [...this.args];
  }
}

/** Literal's members as (value, type) pairs: Literal[1] is not Literal[True]. */
function literalPairs(args: readonly Value[]): Value[] {
  return args.map((a) => new PyTuple([a, typeName(a)]));
}

/** Union[...] of `operands`: nested unions flattened, duplicates dropped, one member is itself. */
export function makeUnion(operands: readonly Value[], budget: Budget | null): Value {
  const flat = operands.flatMap((o) => (o instanceof TypingAlias && o.kind === "union" ? o.args : o instanceof UnionType ? o.args : [typeCheck(o, "Union[arg, ...]: each arg must be a type.")]));
  const members = uniqueValues(flat, budget);
  if (members.length === 0) throw pyError("TypeError", "Cannot take a Union of no types.");
  return members.length === 1 ? members[0]! : new TypingAlias("union", "typing.Union", UNION, members);
}

/** Literal[...]: nested literals flattened, duplicates (same value, same type) dropped. */
export function makeLiteral(key: Value, budget: Budget): Value {
  const values = key instanceof PyTuple && key.items.length === 0 ? [] : subscriptArgs(key, budget);
  const flat = values.flatMap((v) => (v instanceof TypingAlias && v.kind === "literal" ? v.args : [v]));
  budget.step((ARG_STEPS >> 1) * flat.length);
  // Deduplicated by value and type (Literal[1, True] keeps both), unless a value is unhashable.
  const seen = new Set<string>();
  const kept: Value[] = [];
  let hashable = true;
  for (const x of flat) {
    let k: string;
    try {
      const h = hashKey(x);
      k = `${typeName(x)}:${typeof h}:${String(h)}`;
    } catch {
      hashable = false;
      break;
    }
    if (!seen.has(k)) kept.push(x);
    seen.add(k);
  }
  return new TypingAlias("literal", "typing.Literal", LITERAL, hashable ? kept : flat);
}

// ------------------------------------------------------------------ type variables and forward references

const TYPE_VAR_NAMES = ["name", "bound", "covariant", "contravariant"];

/** TypeVar(name, *constraints, bound=None, covariant=False, contravariant=False), and ParamSpec. */
function newTypeVar(ctx: NativeContext, args: Value[], kwargs: Kwargs | null, paramSpec: boolean): TypeVar {
  const fn = paramSpec ? "ParamSpec.__init__" : "TypeVar.__init__";
  const [name, ...constraints] = args;
  const options = new Map<string, Value>();
  for (const [k, v] of kwargs ?? []) {
    if (!TYPE_VAR_NAMES.includes(k)) throw pyError("TypeError", `${fn}() got an unexpected keyword argument '${k}'`);
    if (k === "name" && name !== undefined) throw pyError("TypeError", `${fn}() got multiple values for argument 'name'`);
    options.set(k, v);
  }
  const label = name !== undefined ? name : options.get("name");
  if (label === undefined) throw pyError("TypeError", `${fn}() missing 1 required positional argument: 'name'`);
  if (paramSpec && constraints.length > 0) throw pyError("TypeError", `${fn}() takes 2 positional arguments but ${args.length + 1} were given`);
  if (typeof label !== "string") throw pyError("TypeError", `can only concatenate str (not "${typeName(label)}") to str`);
  const set = (v: Value | undefined) => v !== undefined && v !== null && v !== false && v !== 0;
  const covariant = set(options.get("covariant"));
  const contravariant = set(options.get("contravariant"));
  if (covariant && contravariant) throw pyError("ValueError", "Bivariant types are not supported.");
  if (constraints.length === 1) throw pyError("TypeError", "A single constraint is not allowed");
  if (constraints.length > 0 && set(options.get("bound"))) throw pyError("TypeError", "Constraints cannot be combined with bound=...");
  ctx.budget.step(1 + constraints.length);
  return new TypeVar(label, covariant ? "+" : contravariant ? "-" : "~", paramSpec);
}

export const TYPE_VAR = new PyClass("TypeVar", "typing", (ctx, args, kwargs) => newTypeVar(ctx, args, kwargs, false));
export const PARAM_SPEC = new PyClass("ParamSpec", "typing", (ctx, args, kwargs) => newTypeVar(ctx, args, kwargs, true));

/** A TypeVar (`~T`, `+T` covariant, `-T` contravariant) or a ParamSpec (`~P`). */
export class TypeVar extends TypeParameter {
  constructor(
    readonly name: string,
    readonly variance: "~" | "+" | "-",
    readonly paramSpec = false,
  ) {
    super();
  }

  get cls(): PyClass {
    return this.paramSpec ? PARAM_SPEC : TYPE_VAR;
  }

  pyRepr(): string {
    return `${this.variance}${this.name}`;
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    return unionHook(this, op, other, reflected, budget);
  }
}

export const FORWARD_REF = new PyClass("ForwardRef", "typing", (_ctx, args, kwargs) => {
  const [arg] = bindPython("ForwardRef.__init__", ["arg", "is_argument", "module", "is_class"], [true, null, false], args, kwargs, 1);
  if (typeof arg !== "string") throw pyError("TypeError", `Forward reference must be a string -- got ${repr(arg!)}`);
  return new ForwardRef(arg);
});

/** A type written as a string (`List["int"]`). */
export class ForwardRef extends PyInstance {
  constructor(readonly arg: string) {
    super();
  }

  get cls(): PyClass {
    return FORWARD_REF;
  }

  pyRepr(r: (v: Value) => string): string {
    return `ForwardRef(${r(this.arg)})`;
  }

  override pyEquals(other: Value): boolean {
    return other instanceof ForwardRef && other.arg === this.arg;
  }

  override pyHash(): HashKey {
    return `\u0000fwd${this.arg}`;
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    return unionHook(this, op, other, reflected, budget);
  }
}

export const NEW_TYPE = new PyClass("NewType", "typing", (_ctx, args, kwargs) => {
  const [name, tp] = bindPython("NewType.__init__", ["name", "tp"], [], args, kwargs, 1);
  if (typeof name !== "string") throw pyError("TypeError", `argument of type '${typeName(name!)}' is not iterable`);
  return new NewType(name, tp!);
});

/** NewType("UserId", int): calling it returns its argument. */
export class NewType extends PyInstance {
  constructor(
    readonly name: string,
    readonly supertype: Value,
  ) {
    super();
  }

  get cls(): PyClass {
    return NEW_TYPE;
  }

  pyRepr(): string {
    return `__main__.${this.name}`;
  }

  override pyCall(_ctx: NativeContext, args: Value[], kwargs: Kwargs | null): Value {
    if ((kwargs !== null && kwargs.size > 0) || args.length !== 1) {
      throw pyError("TypeError", `NewType.__call__() takes 2 positional arguments but ${args.length + 1} were given`);
    }
    return args[0]!;
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    return unionHook(this, op, other, reflected, budget);
  }
}

// ------------------------------------------------------------------ the forms

/** `typing.Final[int]` and the other forms of one type. */
function wrapping(message: (form: SpecialForm) => string): (key: Value, form: SpecialForm, budget: Budget) => Value {
  return (key, form, budget) => {
    budget.step(1);
    return new TypingAlias("generic", `typing.${form.name}`, form, [typeCheck(key, message(form))]);
  };
}

export const UNION = new SpecialForm("Union", (key, _form, budget) => makeUnion(subscriptArgs(key, budget), budget));
export const OPTIONAL = new SpecialForm("Optional", (key, _form, budget) => makeUnion([typeCheck(key, "typing.Optional requires a single type."), null], budget));
export const LITERAL = new SpecialForm("Literal", (key, _form, budget) => makeLiteral(key, budget));
export const FINAL = new SpecialForm("Final", wrapping((f) => `typing.${f.name} accepts only single type.`));
export const CLASS_VAR = new SpecialForm("ClassVar", wrapping((f) => `typing.${f.name} accepts only single type.`));
export const TYPE_GUARD = new SpecialForm("TypeGuard", wrapping((f) => `typing.${f.name} accepts only single type.`));
export const REQUIRED = new SpecialForm("Required", wrapping((f) => `${f.name} accepts only a single type.`));
export const NOT_REQUIRED = new SpecialForm("NotRequired", wrapping((f) => `${f.name} accepts only a single type.`));
export const UNPACK = new SpecialForm("Unpack", wrapping(() => "Unpack accepts only single type."));
export const CONCATENATE = new SpecialForm("Concatenate", (key, form, budget) => {
  const args = subscriptArgs(key, budget);
  const last = args.at(-1);
  if (!(last instanceof TypeVar && last.paramSpec) && !(last !== undefined && isEllipsis(last))) {
    throw pyError("TypeError", "The last parameter to Concatenate should be a ParamSpec variable or ellipsis.");
  }
  return new TypingAlias("generic", "typing.Concatenate", form, args.map((a) => typeCheck(a, "Concatenate[arg, ...]: each arg must be a type.")));
});
export const PLAIN = ["NoReturn", "Never", "Self", "LiteralString", "TypeAlias"].map((name) => new SpecialForm(name, null));

/** Generic and Protocol: bases for classes, subscripted with type variables only. */
function parameterBase(name: string): PyClass {
  const cls = new PyClass(name, "typing", () => {
    throw pyError("TypeError", `Type ${name} cannot be instantiated; it can be used only as a base class`);
  });
  cls.classGetItem = (key, budget) => {
    const args = key instanceof PyTuple && key.items.length === 0 ? [] : subscriptArgs(key, budget);
    if (args.length === 0) throw pyError("TypeError", `Parameter list to ${name}[...] cannot be empty`);
    if (!args.every((a) => a instanceof TypeParameter)) {
      throw pyError("TypeError", `Parameters to ${name}[...] must all be type variables or parameter specification variables.`);
    }
    if (uniqueValues(args, budget).length !== args.length) throw pyError("TypeError", `Parameters to ${name}[...] must all be unique`);
    return new TypingAlias("generic", `typing.${name}`, cls, args);
  };
  return cls;
}

export const GENERIC = parameterBase("Generic");
export const PROTOCOL = parameterBase("Protocol");

/** Annotated[T, x, ...]: a class in 3.11, whose subscript keeps the metadata. */
export const ANNOTATED = new PyClass("Annotated", "typing", () => {
  throw pyError("TypeError", "Type Annotated cannot be instantiated.");
});
ANNOTATED.classGetItem = (key, budget) => {
  budget.step(1 + ARG_STEPS * (key instanceof PyTuple ? key.items.length : 1));
  if (!(key instanceof PyTuple) || key.items.length < 2) {
    throw pyError("TypeError", "Annotated[...] should be used with at least two arguments (a type and an annotation).");
  }
  const [type, ...metadata] = key.items;
  const origin = type === null ? NONE_TYPE : typeof type === "string" ? new ForwardRef(type) : type!;
  if (origin instanceof TypingAlias && origin.kind === "annotated") return new TypingAlias("annotated", "typing.Annotated", origin.origin, [...origin.args, ...metadata]);
  return new TypingAlias("annotated", "typing.Annotated", origin, metadata);
};

/** A generic class of typing (IO[str], SupportsAbs[int]): one type parameter. */
export function genericTypingClass(name: string): PyClass {
  const cls = new PyClass(name, "typing", () => {
    throw pyError("TypeError", `Protocols cannot be instantiated`);
  });
  cls.classGetItem = (key, budget) => {
    const args = subscriptArgs(key, budget).map((a) => typeCheck(a, "Parameters to generic types must be types."));
    if (args.length !== 1) throw pyError("TypeError", `Too ${args.length > 1 ? "many" : "few"} arguments for <class 'typing.${name}'>; actual ${args.length}, expected 1`);
    return new TypingAlias("generic", `typing.${name}`, cls, args);
  };
  return cls;
}

/** A class of typing that takes no parameters (SupportsInt, TextIO). */
export function plainTypingClass(name: string): PyClass {
  const cls = new PyClass(name, "typing", () => {
    throw pyError("TypeError", "Protocols cannot be instantiated");
  });
  cls.classGetItem = () => {
    throw pyError("TypeError", `<class 'typing.${name}'> is not a generic class`);
  };
  return cls;
}
