// The typing module of CPython 3.11. Annotations are never evaluated, so most of typing is there
// to be imported (`from typing import Any, Literal` heads every stub the gateway prints); what is
// evaluated (aliases `Rows = List[Dict[str, Any]]`, `cast`, isinstance with typing.List or a
// Union, TypeVar, NamedTuple and TypedDict's functional forms) behaves as CPython's does. The forms
// themselves are in typing-forms.ts; `list[int]` and `int | None` in generic-alias.ts.
import { isKeyword } from "../../../grammar/tokens.js";
import { TYPES } from "../builtins.js";
import { pyError } from "../errors.js";
import { GenericAlias, UnionType } from "../generic-alias.js";
import { PyClass, PyInstance } from "../instance.js";
import { NamedTupleClass } from "../named-tuple.js";
import { bindPython } from "../py-bind.js";
import { type NativeFn, repr } from "../native.js";
import { PyBuiltin, PyCoroutine, PyDictView, PyFuture, PyIterator, PyType } from "../objects.js";
import { iterate, length } from "../ops.js";
import {
  ANNOTATED,
  AnyType,
  CLASS_VAR,
  CONCATENATE,
  FINAL,
  FORWARD_REF,
  GENERIC,
  genericTypingClass,
  type Instantiation,
  LITERAL,
  NEW_TYPE,
  NOT_REQUIRED,
  OPTIONAL,
  PARAM_SPEC,
  PLAIN,
  plainTypingClass,
  PROTOCOL,
  REQUIRED,
  SpecialAlias,
  TYPE_GUARD,
  TYPE_VAR,
  TypeVar,
  TypingAlias,
  UNION,
  UNPACK,
} from "../typing-forms.js";
import { PyBytes, PyDict, PyList, PySet, PyTuple, typeName, type Value } from "../values.js";
import { STANDARD_MODULES } from "./index.js";

// ------------------------------------------------------------------ the classes the aliases stand for

/** collections.abc's classes, as isinstance tests of what the sandbox's values are. */
class AbstractClass extends PyType {
  constructor(
    name: string,
    readonly module: string,
    test: (v: Value) => boolean,
  ) {
    super(
      name,
      () => {
        throw pyError("TypeError", `Can't instantiate abstract class ${name}`);
      },
      test,
    );
  }

  override pyRepr(): string {
    return `<class '${this.module}.${this.name}'>`;
  }
}

const succeeds = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};
const isIterable = (v: Value) => succeeds(() => iterate(v));
const isSized = (v: Value) => succeeds(() => length(v));
const isSequence = (v: Value) => typeof v === "string" || v instanceof PyList || v instanceof PyTuple || v instanceof PyBytes || TYPES.range!.test(v);
const isCallable = (v: Value) => v instanceof PyType || (v instanceof PyInstance ? typeof v.pyCall === "function" : ["function", "builtin_function_or_method", "method"].includes(typeName(v)));
const isUnhashableType = (v: Value) => v instanceof PyList || (v instanceof PyDict && true) || (v instanceof PySet && !v.frozen);

const ABC: Record<string, AbstractClass> = {};
for (const [name, test] of [
  ["Iterable", isIterable],
  ["Iterator", (v: Value) => v instanceof PyIterator],
  ["Reversible", (v: Value) => isSequence(v) || v instanceof PyDict || v instanceof PyDictView],
  ["Sequence", isSequence],
  ["MutableSequence", (v: Value) => v instanceof PyList],
  ["Mapping", (v: Value) => v instanceof PyDict],
  ["MutableMapping", (v: Value) => v instanceof PyDict],
  ["Set", (v: Value) => v instanceof PySet || (v instanceof PyDictView && v.kind !== "values")],
  ["MutableSet", (v: Value) => v instanceof PySet && !v.frozen],
  ["Collection", isSized],
  ["Container", isSized],
  ["Hashable", (v: Value) => !isUnhashableType(v)],
  ["Sized", isSized],
  ["Awaitable", (v: Value) => v instanceof PyCoroutine || v instanceof PyFuture],
  ["Coroutine", (v: Value) => v instanceof PyCoroutine],
  ["AsyncIterable", () => false],
  ["AsyncIterator", () => false],
  ["Generator", (v: Value) => typeName(v) === "generator"],
  ["AsyncGenerator", () => false],
  ["KeysView", (v: Value) => v instanceof PyDictView && v.kind === "keys"],
  ["ValuesView", (v: Value) => v instanceof PyDictView && v.kind === "values"],
  ["ItemsView", (v: Value) => v instanceof PyDictView && v.kind === "items"],
  ["MappingView", (v: Value) => v instanceof PyDictView],
  ["ByteString", (v: Value) => v instanceof PyBytes],
  ["Callable", isCallable],
] as const) {
  ABC[name] = new AbstractClass(name, "collections.abc", test);
}
const CONTEXT_MANAGER = new AbstractClass("AbstractContextManager", "contextlib", () => false);
const ASYNC_CONTEXT_MANAGER = new AbstractClass("AbstractAsyncContextManager", "contextlib", () => false);

/**
 * A class another module defines (collections.deque, re.Pattern): that module's own class when it
 * is in the sandbox, else a stand-in of the same name. Looked up on first use, then kept.
 */
function moduleClass(module: string, name: string): () => Value {
  let found: Value | undefined;
  return () => {
    if (found !== undefined) return found;
    const own = STANDARD_MODULES.get(module)?.().attrs.get(name);
    found = own instanceof PyType ? own : new PyClass(name, module, () => {
      throw pyError("TypeError", `cannot create '${module}.${name}' instances`);
    });
    return found;
  };
}

const builtin = (name: string) => () => TYPES[name]!;
const refused = (name: string): Instantiation => ({ kind: "refused", builtin: name });
const ORIGIN: Instantiation = { kind: "origin" };
const abstract = (className: string, ...methods: string[]): Instantiation => ({ kind: "abstract", className, methods });
const abc = (name: string) => () => ABC[name]!;

const ALIASES: [string, () => Value, number, Instantiation][] = [
  ["List", builtin("list"), 1, refused("list")],
  ["Dict", builtin("dict"), 2, refused("dict")],
  ["Set", builtin("set"), 1, refused("set")],
  ["FrozenSet", builtin("frozenset"), 1, refused("frozenset")],
  ["Tuple", builtin("tuple"), -1, refused("tuple")],
  ["Type", builtin("type"), 1, refused("type")],
  ["Callable", abc("Callable"), -2, abstract("Callable", "__call__")],
  ["DefaultDict", moduleClass("collections", "defaultdict"), 2, ORIGIN],
  ["OrderedDict", moduleClass("collections", "OrderedDict"), 2, ORIGIN],
  ["Counter", moduleClass("collections", "Counter"), 1, ORIGIN],
  ["Deque", moduleClass("collections", "deque"), 1, ORIGIN],
  ["ChainMap", moduleClass("collections", "ChainMap"), 2, ORIGIN],
  ["Iterable", abc("Iterable"), 1, abstract("Iterable", "__iter__")],
  ["Iterator", abc("Iterator"), 1, abstract("Iterator", "__next__")],
  ["Reversible", abc("Reversible"), 1, abstract("Reversible", "__iter__", "__reversed__")],
  ["Sequence", abc("Sequence"), 1, abstract("Sequence", "__getitem__", "__len__")],
  ["MutableSequence", abc("MutableSequence"), 1, abstract("MutableSequence", "__delitem__", "__getitem__", "__len__", "__setitem__", "insert")],
  ["Mapping", abc("Mapping"), 2, abstract("Mapping", "__getitem__", "__iter__", "__len__")],
  ["MutableMapping", abc("MutableMapping"), 2, abstract("MutableMapping", "__delitem__", "__getitem__", "__iter__", "__len__", "__setitem__")],
  ["AbstractSet", abc("Set"), 1, abstract("Set", "__contains__", "__iter__", "__len__")],
  ["MutableSet", abc("MutableSet"), 1, abstract("MutableSet", "__contains__", "__iter__", "__len__", "add", "discard")],
  ["Collection", abc("Collection"), 1, abstract("Collection", "__contains__", "__iter__", "__len__")],
  ["Container", abc("Container"), 1, abstract("Container", "__contains__")],
  ["Hashable", abc("Hashable"), 0, abstract("Hashable", "__hash__")],
  ["Sized", abc("Sized"), 0, abstract("Sized", "__len__")],
  ["Awaitable", abc("Awaitable"), 1, abstract("Awaitable", "__await__")],
  ["Coroutine", abc("Coroutine"), 3, abstract("Coroutine", "__await__", "send", "throw")],
  ["AsyncIterable", abc("AsyncIterable"), 1, abstract("AsyncIterable", "__aiter__")],
  ["AsyncIterator", abc("AsyncIterator"), 1, abstract("AsyncIterator", "__anext__")],
  ["Generator", abc("Generator"), 3, abstract("Generator", "send", "throw")],
  ["AsyncGenerator", abc("AsyncGenerator"), 2, abstract("AsyncGenerator", "asend", "athrow")],
  ["KeysView", abc("KeysView"), 1, ORIGIN],
  ["ValuesView", abc("ValuesView"), 1, ORIGIN],
  ["ItemsView", abc("ItemsView"), 2, ORIGIN],
  ["MappingView", abc("MappingView"), 1, ORIGIN],
  ["ByteString", abc("ByteString"), 0, abstract("ByteString", "__getitem__", "__len__")],
  ["ContextManager", () => CONTEXT_MANAGER, 1, abstract("AbstractContextManager", "__exit__")],
  ["AsyncContextManager", () => ASYNC_CONTEXT_MANAGER, 1, abstract("AbstractAsyncContextManager", "__aexit__")],
  ["Pattern", moduleClass("re", "Pattern"), 1, ORIGIN],
  ["Match", moduleClass("re", "Match"), 1, ORIGIN],
];

// ------------------------------------------------------------------ functions

const cast: NativeFn = (_ctx, args, kwargs) => bindPython("cast", ["typ", "val"], [], args, kwargs)[1]!;

const identity = (name: string, param: string): NativeFn => (_ctx, args, kwargs) => bindPython(name, [param], [], args, kwargs)[0]!;

const OVERLOADED = new PyBuiltin("_overload_dummy", () => {
  throw pyError(
    "NotImplementedError",
    "You should not call an overloaded function. A series of @overload-decorated functions outside a stub module should always be followed by an implementation that is not @overload-ed.",
  );
});

const overload: NativeFn = (_ctx, args, kwargs) => {
  bindPython("overload", ["func"], [], args, kwargs);
  return OVERLOADED;
};

const assertNever: NativeFn = (_ctx, args, kwargs) => {
  const [arg] = bindPython("assert_never", ["arg"], [], args, kwargs);
  const text = repr(arg!);
  throw pyError("AssertionError", `Expected code to be unreachable, but got: ${text.length > 100 ? text.slice(0, 100) + "..." : text}`);
};

const assertType: NativeFn = (_ctx, args, kwargs) => bindPython("assert_type", ["val", "typ"], [], args, kwargs)[0]!;

const dataclassTransform: NativeFn = (_ctx, args) => {
  if (args.length > 0) throw pyError("TypeError", `dataclass_transform() takes 0 positional arguments but ${args.length} were given`);
  return new PyBuiltin("decorator", (_c, a, k) => bindPython("decorator", ["cls_or_fn"], [], a, k)[0]!);
};

const getOrigin: NativeFn = (_ctx, args, kwargs) => {
  const [tp] = bindPython("get_origin", ["tp"], [], args, kwargs);
  if (tp instanceof TypingAlias) return tp.kind === "union" ? UNION : tp.kind === "literal" ? LITERAL : tp.kind === "annotated" ? ANNOTATED : tp.origin;
  if (tp instanceof GenericAlias) return tp.origin;
  if (tp instanceof UnionType) return tp.cls;
  if (tp instanceof SpecialAlias) return tp.origin();
  if (tp === GENERIC) return GENERIC;
  return null;
};

const getArgs: NativeFn = (_ctx, args, kwargs) => {
  const [tp] = bindPython("get_args", ["tp"], [], args, kwargs);
  if (tp instanceof TypingAlias) return new PyTuple(tp.getArgs());
  if (tp instanceof GenericAlias || tp instanceof UnionType) return new PyTuple(tp.args);
  return new PyTuple([]);
};

const IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

/** The field names of a named tuple, checked as collections.namedtuple checks them. */
function fieldNames(typename: string, names: string[]): string[] {
  for (const name of [typename, ...names]) {
    if (!IDENTIFIER.test(name)) throw pyError("ValueError", `Type names and field names must be valid identifiers: ${repr(name)}`);
    if (isKeyword(name)) throw pyError("ValueError", `Type names and field names cannot be a keyword: ${repr(name)}`);
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (name.startsWith("_")) throw pyError("ValueError", `Field names cannot start with an underscore: ${repr(name)}`);
    if (seen.has(name)) throw pyError("ValueError", `Encountered duplicate field name: ${repr(name)}`);
    seen.add(name);
  }
  return names;
}

/** NamedTuple("P", [("x", int), ("y", str)]) or NamedTuple("P", x=int, y=str). */
const namedTuple: NativeFn = (ctx, args, kwargs) => {
  if (args.length === 0) throw pyError("TypeError", "NamedTuple() missing 1 required positional argument: 'typename'");
  if (args.length > 2) throw pyError("TypeError", `NamedTuple() takes from 1 to 2 positional arguments but ${args.length} were given`);
  const [typename, fields] = args as [Value, Value | undefined];
  if (typeof typename !== "string") throw pyError("TypeError", `type.__new__() argument 1 must be str, not ${typeName(typename)}`);
  let names: string[];
  if (fields !== undefined && fields !== null) {
    if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", "Either list of fields or keywords can be provided to NamedTuple, not both");
    names = ctx.toList(fields).map((pair) => {
      const items = ctx.toList(pair);
      if (items.length !== 2) throw pyError("ValueError", items.length < 2 ? `not enough values to unpack (expected 2, got ${items.length})` : "too many values to unpack (expected 2)");
      if (typeof items[0] !== "string") throw pyError("TypeError", `Type names and field names must be valid identifiers: ${repr(items[0]!)}`);
      return items[0];
    });
  } else names = [...(kwargs?.keys() ?? [])];
  ctx.budget.step(1 + names.length);
  return new NamedTupleClass(typename, "__main__", fieldNames(typename, names));
};

/** What TypedDict makes: a class whose call makes a plain dict, refused by isinstance. */
class TypedDictClass extends PyClass {}

const typedDict: NativeFn = (ctx, args, kwargs) => {
  if (args.length === 0) throw pyError("TypeError", "TypedDict() missing 1 required positional argument: 'typename'");
  if (args.length > 2) throw pyError("TypeError", `TypedDict() takes from 1 to 2 positional arguments but ${args.length} were given`);
  const [typename, fields] = args as [Value, Value | undefined];
  if (typeof typename !== "string") throw pyError("TypeError", `type.__new__() argument 1 must be str, not ${typeName(typename)}`);
  if (fields !== undefined && fields !== null && !(fields instanceof PyDict)) throw pyError("AttributeError", `'${typeName(fields)}' object has no attribute 'items'`);
  ctx.budget.step(1 + (fields instanceof PyDict ? fields.size : 0));
  return new TypedDictClass(typename, "__main__", (c, a, k) => TYPES.dict!.construct(c, a, k), null, typename, () => {
    throw pyError("TypeError", "TypedDict does not support instance and class checks");
  });
};

const isTypedDict: NativeFn = (_ctx, args, kwargs) => bindPython("is_typeddict", ["tp"], [], args, kwargs)[0] instanceof TypedDictClass;

const noTypeCheck = identity("no_type_check", "arg");

// ------------------------------------------------------------------ the module

const ANY = new AnyType();
const ANY_STR = new TypeVar("AnyStr", "~");
const [NO_RETURN, NEVER, SELF, LITERAL_STRING, TYPE_ALIAS] = PLAIN as unknown as [Value, Value, Value, Value, Value];

export const TYPING_MODULE: Record<string, NativeFn | Value> = {
  Any: ANY,
  Optional: OPTIONAL,
  Union: UNION,
  Literal: LITERAL,
  Final: FINAL,
  ClassVar: CLASS_VAR,
  Annotated: ANNOTATED,
  TypeGuard: TYPE_GUARD,
  Required: REQUIRED,
  NotRequired: NOT_REQUIRED,
  Unpack: UNPACK,
  Concatenate: CONCATENATE,
  NoReturn: NO_RETURN,
  Never: NEVER,
  Self: SELF,
  LiteralString: LITERAL_STRING,
  TypeAlias: TYPE_ALIAS,
  Generic: GENERIC,
  Protocol: PROTOCOL,
  TypeVar: TYPE_VAR,
  ParamSpec: PARAM_SPEC,
  NewType: NEW_TYPE,
  ForwardRef: FORWARD_REF,
  AnyStr: ANY_STR,
  Text: TYPES.str!,
  TYPE_CHECKING: false,
  ...Object.fromEntries(ALIASES.map(([name, origin, params, how]) => [name, new SpecialAlias(name, origin, params, how)])),
  IO: genericTypingClass("IO"),
  TextIO: plainTypingClass("TextIO"),
  BinaryIO: plainTypingClass("BinaryIO"),
  SupportsAbs: genericTypingClass("SupportsAbs"),
  SupportsRound: genericTypingClass("SupportsRound"),
  SupportsInt: plainTypingClass("SupportsInt"),
  SupportsFloat: plainTypingClass("SupportsFloat"),
  SupportsComplex: plainTypingClass("SupportsComplex"),
  SupportsBytes: plainTypingClass("SupportsBytes"),
  SupportsIndex: plainTypingClass("SupportsIndex"),
  NamedTuple: namedTuple,
  TypedDict: typedDict,
  cast,
  overload,
  final: identity("final", "f"),
  no_type_check: noTypeCheck,
  runtime_checkable: identity("runtime_checkable", "cls"),
  dataclass_transform: dataclassTransform,
  assert_never: assertNever,
  assert_type: assertType,
  reveal_type: identity("reveal_type", "obj"),
  get_origin: getOrigin,
  get_args: getArgs,
  is_typeddict: isTypedDict,
};
