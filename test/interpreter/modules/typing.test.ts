// typing against CPython 3.11: every commonly imported name, the reprs, equality, hashing and
// errors of what subscripts make, isinstance with typing objects, `list[int]` and `int | None`,
// TypeVar substitution, NamedTuple and TypedDict's functional forms; and the stub header the
// gateway prints, run as a script.
import { describe, expect, it } from "vitest";
import type { CatalogServer, CatalogTool } from "../../../src/codemode/catalog.js";
import { canonicalName } from "../../../src/codemode/names.js";
import { serverStub, toolDocs, toolStub } from "../../../src/codemode/stubs.js";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsQuickly, printEach } from "./oracle.js";

const EXPRESSIONS: string[][] = [
  [
    "typing.Any",
    "typing.Optional[int]",
    "typing.Optional[typing.List[int]]",
    "typing.Union[int, str]",
    "typing.Union[int, None]",
    "typing.Union[None, int]",
    "typing.Union[int, str, None]",
    "typing.Union[int, int]",
    "typing.Union[int]",
    "typing.Union[int, typing.Union[str, float]]",
    "typing.Optional[None]",
    "typing.Union[None]",
    "typing.List",
    "typing.List[int]",
    "typing.List[None]",
    "typing.List[\"int\"]",
    "typing.Dict[str, typing.Any]",
    "typing.Dict[str]",
    "typing.Dict[str, int, float]",
    "typing.List[int, str]",
    "typing.Tuple",
    "typing.Tuple[int, ...]",
    "typing.Tuple[()]",
    "typing.Tuple[int, str]",
    "typing.Callable",
  ],
  [
    "typing.Callable[[int, str], bool]",
    "typing.Callable[..., typing.Any]",
    "typing.Callable[[], None]",
    "typing.Callable[int, str]",
    "typing.Literal[\"a\", \"b\"]",
    "typing.Literal[1, 1, 2]",
    "typing.Literal[None]",
    "typing.Literal[True, \"x\", b\"y\", -3]",
    "typing.Literal",
    "typing.Optional",
    "typing.Union",
    "typing.Final[int]",
    "typing.ClassVar[int]",
    "typing.Annotated[int, \"meta\"]",
    "typing.Annotated[int]",
    "typing.NoReturn",
    "typing.Never",
    "typing.Self",
    "typing.LiteralString",
    "typing.TypeAlias",
    "typing.Iterable[int]",
    "typing.Iterator[str]",
    "typing.Sequence[int]",
    "typing.Mapping[str, int]",
    "typing.MutableMapping[str, int]",
  ],
  [
    "typing.Awaitable[int]",
    "typing.Coroutine[typing.Any, typing.Any, int]",
    "typing.Generator[int, None, None]",
    "typing.Set[int]",
    "typing.FrozenSet[int]",
    "typing.Type[int]",
    "typing.DefaultDict[str, int]",
    "typing.Counter[str]",
    "typing.Deque[int]",
    "typing.OrderedDict[str, int]",
    "typing.Hashable",
    "typing.Sized",
    "typing.Hashable[int]",
    "typing.Text",
    "typing.AnyStr",
    "typing.TypeVar(\"T\")",
    "typing.TypeVar(\"T\", bound=int)",
    "typing.TypeVar(\"T\", covariant=True)",
    "typing.TypeVar(\"T\", contravariant=True)",
    "typing.TypeVar(\"T\", int, str)",
    "typing.Generic",
    "typing.Protocol",
    "typing.Generic[typing.TypeVar(\"T\")]",
    "typing.List[typing.TypeVar(\"T\")]",
    "typing.cast(int, \"x\")",
  ],
  [
    "typing.cast(\"int\", 5)",
    "typing.TYPE_CHECKING",
    "typing.Optional[int] == typing.Union[int, None]",
    "typing.Union[int, str] == typing.Union[str, int]",
    "typing.List[int] == typing.List[int]",
    "typing.List[int] == list[int]",
    "hash(typing.List[int]) == hash(typing.List[int])",
    "typing.get_origin(typing.List[int])",
    "typing.get_origin(typing.Optional[int])",
    "typing.get_origin(typing.Literal[1])",
    "typing.get_origin(int)",
    "typing.get_args(typing.Dict[str, int])",
    "typing.get_args(typing.Callable[[int], str])",
    "typing.get_args(typing.Optional[int])",
    "typing.get_args(int)",
    "typing.get_origin(list[int])",
    "typing.get_args(tuple[int, ...])",
    "list[int]",
    "dict[str, typing.Any]",
    "tuple[int, ...]",
    "tuple[()]",
    "list[None]",
    "list[\"x\"]",
    "dict[str, list[int]]",
    "type[int]",
  ],
  [
    "set[int]",
    "frozenset[str]",
    "list[int, str]",
    "list[1]",
    "typing.List[1]",
    "typing.Optional[1]",
    "typing.Union[1, 2]",
    "typing.Optional[int, str]",
    "typing.Any[int]",
    "typing.NoReturn[int]",
    "isinstance([], typing.List)",
    "isinstance([], list[int])",
    "isinstance([], typing.List[int])",
    "isinstance(1, typing.Any)",
    "isinstance(1, typing.Union[int, str])",
    "isinstance(1, typing.Optional[int])",
    "typing.List()",
    "typing.Any()",
    "list[int]()",
    "list[int]([1, 2])",
    "typing.List[int]([1])",
    "typing.Dict[str, int]()",
    "typing.Optional[int]()",
    "typing.List[int][int]",
    "typing.Union[int, str] | None",
  ],
  [
    "int | str",
    "int | None",
    "list[int] | None",
    "typing.Optional[int] | str",
    "typing.NewType(\"UserId\", int)",
    "typing.NewType(\"UserId\", int)(5)",
    "typing.Iterable",
    "typing.Callable[[int], str][int]",
    "typing.SupportsInt",
    "typing.IO",
    "typing.IO[str]",
    "typing.TextIO",
    "typing.Pattern",
    "typing.Match",
    "typing.Pattern[str]",
    "typing.ParamSpec(\"P\")",
    "typing.Concatenate",
    "typing.TypeGuard[int]",
    "typing.Required[int]",
    "typing.NotRequired[int]",
    "typing.Unpack",
    "typing.reveal_type(5)",
    "typing.assert_type(5, int)",
    "typing.ForwardRef(\"x\")",
    "typing.Literal[typing.Literal[1, 2], 3]",
  ],
  [
    "typing.Annotated[typing.Annotated[int, 1], 2]",
    "typing.Final",
    "typing.ClassVar",
    "typing.Optional[typing.Any]",
    "typing.Union[typing.Any, int]",
    "typing.Dict[(str, int)]",
    "typing.Tuple[int, str][0]",
    "type(typing.List[int])",
    "type(typing.List)",
    "type(list[int])",
    "type(typing.Any)",
    "type(typing.Optional)",
    "type(typing.Optional[int])",
    "type(typing.TypeVar(\"T\"))",
    "str(typing.List[int])",
    "typing.Annotated",
    "typing.Iterable()",
    "typing.Tuple()",
    "typing.Callable()",
    "typing.Type()",
    "typing.Set()",
    "typing.Generic[int]",
    "typing.Generic[T]",
    "typing.Protocol[T]",
    "typing.TypedDict(\"Movie\", {\"name\": str, \"year\": int})",
  ],
  [
    "typing.TypedDict(\"Movie\", {\"name\": str, \"year\": int})(name=\"x\", year=1)",
    "typing.TypedDict(\"Movie\", {\"name\": str})(name=\"x\", extra=2)",
    "typing.TypedDict(\"Movie\", {\"name\": str})({\"name\": 1})",
    "typing.TypedDict(\"Movie\", name=str)",
    "typing.TypedDict(\"Movie\", {\"name\": str}, total=False)",
    "isinstance({}, typing.TypedDict(\"Movie\", {\"name\": str}))",
    "typing.NamedTuple(\"P\", [(\"x\", int), (\"y\", str)])",
    "typing.NamedTuple(\"P\", [(\"x\", int), (\"y\", str)])(1, \"a\")",
    "typing.NamedTuple(\"P\", x=int, y=str)(1, \"a\")",
    "typing.NamedTuple(\"P\", [(\"x\", int)], y=str)",
    "typing.NamedTuple(\"P\")",
    "typing.NamedTuple(\"P\", [])()",
    "typing.NamedTuple(\"P\", [(\"lambda\", int)])",
    "typing.NamedTuple(\"P\", [(\"match\", int), (\"type\", str)])(1, \"a\")",
    "typing.TypeVar(5)",
    "typing.TypeVar(\"T\", int)",
    "typing.TypeVar(\"T\", bound=int, covariant=True, contravariant=True)",
    "typing.TypeVar()",
    "typing.cast(int)",
    "typing.cast(int, 1, 2)",
    "typing.cast(typ=int, val=3)",
    "typing.overload(lambda: 1)()",
    "typing.final(len)",
    "typing.get_origin(typing.Annotated[int, 1])",
    "typing.get_args(typing.Annotated[int, 1])",
    "typing.get_origin(typing.Generic[T])",
    "typing.get_origin(int | str)",
  ],
  [
    "typing.get_args(int | str)",
    "typing.get_origin(typing.List)",
    "typing.get_args(typing.List)",
    "typing.get_args(typing.Literal[1, 'a'])",
    "typing.get_args(typing.Callable[..., int])",
    "typing.get_origin(typing.Callable[..., int])",
    "typing.get_origin(typing.Iterable[int])",
    "typing.get_origin(typing.DefaultDict[str, int])",
    "typing.get_origin(typing.Type[int])",
    "typing.get_origin(typing.Final[int])",
    "typing.get_args(typing.Tuple[()])",
    "typing.get_origin(typing.Tuple[int])",
    "typing.assert_never(3)",
    "typing.NewType(\"UserId\", int)(\"x\")",
    "typing.NewType(5, int)",
    "typing.List[T][int]",
    "typing.Dict[str, T][int]",
    "typing.List[int] | None",
    "None | typing.List[int]",
    "typing.List | None",
    "typing.Any | None",
    "typing.Literal[1] | None",
    "typing.Optional[int] | typing.Optional[str]",
    "typing.Union[int, str] == int | str",
    "(int | str) == typing.Union[int, str]",
  ],
  [
    "hash(int | str) == hash(typing.Union[int, str])",
    "{typing.Optional[int]: 1}[typing.Union[None, int]]",
    "typing.Union[int, \"str\"]",
    "typing.Union[int, typing.List]",
    "typing.Optional[typing.Optional[int]]",
    "typing.Union[()]",
    "typing.Union[typing.Optional]",
    "typing.List[typing.Optional]",
    "typing.List[typing.Final[int]]",
    "typing.List[typing.Final]",
    "typing.ClassVar[int, str]",
    "typing.Final[int, str]",
    "typing.Literal[[1]]",
    "typing.Literal[int]",
    "typing.Callable[[int], str] == typing.Callable[[int], str]",
    "typing.Callable[int]",
    "typing.Callable[[int]]",
    "typing.Callable[(int,), str]",
    "typing.Tuple[int, ..., str]",
    "typing.Tuple[..., int]",
    "tuple[int, ..., str]",
    "type[int, str]",
    "typing.Type[int, str]",
    "typing.Concatenate[int, typing.ParamSpec(\"P\")]",
    "typing.Unpack[tuple[int]]",
  ],
  [
    "typing.TypeGuard[int, str]",
    "typing.Self[int]",
    "typing.Any == typing.Any",
    "typing.List == typing.List",
    "typing.List == list",
    "list[int] == list[int]",
    "list[int] == list[str]",
    "hash(list[int]) == hash(list[int])",
    "{list[int]: 1}[list[int]]",
    "repr(list[int])",
    "str(typing.Optional[int])",
    "f\"{typing.Optional[int]}\"",
    "print(typing.Dict[str, typing.Any])",
    "typing.Union[int, str][int]",
    "typing.Union[T, str][int]",
    "typing.Optional[T][int]",
    "typing.Iterable[typing.Tuple[str, int]]",
    "typing.Mapping[str, typing.List[typing.Dict[str, typing.Any]]]",
    "typing.List[list[int]]",
    "list[typing.List[int]]",
    "dict[str, typing.Optional[int]]",
    "typing.Awaitable",
    "typing.AsyncIterator[int]",
    "typing.ContextManager[int]",
    "typing.Collection[int]",
  ],
  [
    "typing.Container[int]",
    "typing.Reversible[int]",
    "typing.AbstractSet[int]",
    "typing.MutableSet[int]",
    "typing.MutableSequence[int]",
    "typing.KeysView[int]",
    "typing.ItemsView[int, str]",
    "typing.ValuesView[int]",
    "typing.MappingView[int]",
    "typing.ChainMap[str, int]",
    "typing.AsyncGenerator[int, None]",
    "typing.AsyncIterable[int]",
    "typing.AsyncContextManager[int]",
    "typing.BinaryIO",
    "typing.SupportsFloat",
    "typing.SupportsIndex",
    "typing.SupportsAbs",
    "typing.SupportsAbs[int]",
    "typing.SupportsRound[int]",
    "typing.SupportsBytes",
    "typing.SupportsComplex",
    "typing.Sized[int]",
    "typing.ByteString",
    "typing.NoReturn == typing.Never",
    "typing.Match[str]",
  ],
  [
    "typing.Text(\"x\")",
  ],
];

const SETUP = "import typing\nT = typing.TypeVar('T')";

const SCRIPTS = [
  // Annotations (never evaluated here, evaluated by CPython) that hold valid types.
  "from typing import Any, Optional, List, Dict\nx: List[int] = []\ny: Optional[int] = None\ndef f(a: Dict[str, Any], b: 'Later' = None) -> Optional[List[int]]:\n    return [len(a)]\nprint(f({'k': 1}), x, y)",
  "x: list[int] = []\ny: dict[str, int | None] = {}\nprint(x, y)",
  "async def main(x: list[int]) -> dict[str, int]:\n    return {'n': len(x)}\nimport asyncio\nprint(asyncio.run(main([1, 2])))",
  // Aliases are evaluated.
  "from typing import Any, Dict, List, Optional, Union\nRow = Dict[str, Any]\nRows = List[Row]\nMaybe = Optional[Rows]\nprint(Row, Rows, Maybe, Union[Row, None])",
  "Alias = list[dict[str, int]]\nprint(Alias, Alias(), Alias([{'a': 1}]), type(Alias))",
  "from typing import cast, Any\nv = cast(dict, {'a': 1})\nw = cast('list[int]', [1])\nprint(v, w, cast(Any, 3))",
  "import typing\nprint(typing.TYPE_CHECKING)\nif typing.TYPE_CHECKING:\n    import nope\nprint('ok')",
  "from typing import TYPE_CHECKING, Literal, TypedDict, NamedTuple, Protocol, Generic, TypeVar, Callable, Iterable, Iterator, Sequence, Mapping, MutableMapping, Awaitable, Coroutine, Final, ClassVar, NoReturn, Annotated, overload, Tuple, Set, FrozenSet, Type\nprint('imported')",
  // isinstance with unions and aliases.
  "from typing import List, Dict, Union, Optional, Iterable, Mapping, Sequence, Callable, Hashable, Sized\nfor v in [1, 'a', [1], {'k': 1}, (1,), None, 1.5, len, {1}]:\n    print(repr(v), isinstance(v, (List, Dict)), isinstance(v, Union[int, str]), isinstance(v, Optional[int]), isinstance(v, int | None), isinstance(v, Iterable), isinstance(v, Mapping), isinstance(v, Sequence), isinstance(v, Callable), isinstance(v, Hashable), isinstance(v, Sized))",
  "import typing\ntry:\n    isinstance(1, typing.List[int])\nexcept TypeError as e:\n    print(e)\ntry:\n    isinstance(1, typing.Any)\nexcept TypeError as e:\n    print(e)\ntry:\n    isinstance(1, list[int])\nexcept TypeError as e:\n    print(e)",
  // Type variables and generics.
  "from typing import TypeVar, Generic, List, Dict, Callable, Optional\nT = TypeVar('T')\nK = TypeVar('K')\nV = TypeVar('V', bound=int)\nPair = Dict[K, List[T]]\nprint(Pair, Pair[str, int], Optional[T][int], Callable[[T], K][int, str], Generic[K, V], list[T][int])\ntry:\n    Pair[int]\nexcept TypeError as e:\n    print(e)",
  // NamedTuple and TypedDict's functional forms.
  "from typing import NamedTuple\nPoint = NamedTuple('Point', [('x', int), ('y', float)])\np = Point(1, 2.5)\nprint(p, p.x, p[1], p._asdict(), p._replace(x=3), Point._fields, p == (1, 2.5), type(p), isinstance(p, tuple))",
  "from typing import NamedTuple\nP = NamedTuple('P', x=int, y=int)\nprint(P(y=2, x=1))\ntry:\n    P(1)\nexcept TypeError as e:\n    print(e)",
  "from typing import NamedTuple\nfor fields in [[('_x', int)], [('x', int), ('x', int)], [('def', int)], [('1a', int)]]:\n    try:\n        NamedTuple('P', fields)\n    except ValueError as e:\n        print(e)",
  "from typing import TypedDict\nMovie = TypedDict('Movie', {'name': str, 'year': int})\nm = Movie(name='Blade Runner', year=1982)\nprint(m, type(m), Movie, m['name'])\ntry:\n    isinstance(m, Movie)\nexcept TypeError as e:\n    print(e)",
  "from typing import TypedDict\nprint(TypedDict('X', {'a': int}, total=False)({'a': 1}))",
  // Unions, equality and hashing across typing and types.
  "from typing import Union, Optional\nd = {Optional[int]: 'a', int | str: 'b', list[int]: 'c'}\nprint(d[Union[None, int]], d[Union[str, int]], d[list[int]], Optional[int] == (int | None), (int | None) == Optional[int])",
  "import typing\nprint(typing.Union[int, str] | None, None | typing.List[int], int | typing.List[int], typing.Optional[int] | str, typing.Any | None, (int | str) | float)",
  // Errors a model may meet.
  "import typing\ntry:\n    typing.List[int, str]\nexcept TypeError as e:\n    print(e)\ntry:\n    typing.Optional[int, str]\nexcept TypeError as e:\n    print(e)\ntry:\n    typing.List()\nexcept TypeError as e:\n    print(e)\ntry:\n    typing.nope\nexcept AttributeError as e:\n    print(e)",
  "from typing import Literal\nMode = Literal['r', 'w']\nprint(Mode, Mode == Literal['w', 'r'], Literal['r'] | None)",
  "from typing import Callable, Any, Awaitable\nHandler = Callable[[dict[str, Any]], Awaitable[None]]\nprint(Handler)",
  "import typing\nT = typing.TypeVar('T')\nprint(typing.get_origin(typing.Dict[str, T]), typing.get_args(typing.Dict[str, T]), typing.get_origin(int | None), typing.get_args(int | None))",
  "from typing import overload\ndef f(x: int) -> int: ...\nf = overload(f)\ntry:\n    f(1)\nexcept NotImplementedError as e:\n    print(e)\ndef f(x):\n    return x\nprint(f(3))",
  "import typing\nUserId = typing.NewType('UserId', int)\nprint(UserId, UserId(5), UserId | None)",
  "import typing\nRESULT = [str(typing.Optional[int]), repr(list[int]), f'{typing.Dict[str, typing.Any]}']",
];

agreesWithCPython(
  "typing's names, subscripts and functions agree with CPython",
  EXPRESSIONS.map((chunk) => printEach(SETUP, chunk)),
);
agreesWithCPython("scripts using typing agree with CPython", SCRIPTS);

function tool(name: string, inputSchema: Record<string, unknown>, description: string): CatalogTool {
  return { server: "demo", name, python: canonicalName(name), inputSchema, description };
}

const SERVER: CatalogServer = {
  name: "demo",
  instructions: "Use search first.",
  tools: [
    tool("search", { type: "object", properties: { query: { type: "string" }, mode: { enum: ["fast", "deep"] }, limit: { type: "integer", default: 10 } }, required: ["query"] }, "Search things."),
    tool("get-item", { type: "object", properties: { id: { type: "string" }, fields: { type: "array", items: { type: "string" } }, filter: { type: "object", additionalProperties: { type: "number" } } }, required: ["id"] }, "Get one item."),
  ],
};

describe("the stubs the gateway prints", () => {
  const texts = [serverStub(SERVER), ...SERVER.tools.flatMap((t) => [toolStub(SERVER, t), toolDocs(SERVER, t)])];

  it("start with a typing import that runs as a script", async () => {
    for (const text of texts) {
      const imports = text.split("\n").filter((line) => line.startsWith("from typing import"));
      expect(imports.length).toBeGreaterThan(0);
      for (const line of imports) {
        const r = await execute(line);
        expect(r.error, line).toBeNull();
      }
    }
  });

  it("run as scripts whole: their annotations and defaults mean nothing at run time", async () => {
    for (const text of texts) {
      const r = await execute(text);
      expect(r.error, text).toBeNull();
    }
  });
});

describe("typing in the sandbox", () => {
  it("has no JavaScript names on the module and its values", async () => {
    const targets = ["typing", "typing.List", "typing.List[int]", "typing.Optional[int]", "typing.Any", "typing.TypeVar('T')", "list[int]", "int | None", "typing.Generic", "typing.Iterable"];
    for (const target of targets) {
      for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "origin", "args", "kind", "name", "cls"]) {
        const r = await execute(`import typing\nRESULT = hasattr(${target}, ${JSON.stringify(name)})`);
        expect(r.error, `${target}.${name}`).toBeNull();
        expect(r.result, `${target}.${name}`).toBe(false);
      }
    }
  });

  it.each([
    "import typing\nx = tuple(range(200000))\nfor i in range(20):\n    typing.Literal[x]",
    "import typing\nx = tuple(range(200000))\nfor i in range(20):\n    typing.Union[x]",
    "import typing\nx = tuple([int] * 200000)\nfor i in range(20):\n    typing.Union[x]",
    "x = tuple(range(200000))\nfor i in range(20):\n    list[x]",
    "import typing\nu = typing.Union[tuple(range(100000))]\nfor i in range(20):\n    u = u | str",
    "import typing\nT = typing.TypeVar('T')\nu = typing.Dict[str, T]\nx = tuple(range(100000))\nfor i in range(20):\n    typing.Literal[x] == typing.Literal[x]",
  ])("charges a huge subscript or union to the budget: %s", async (source) => {
    await expectStopsQuickly(source);
  });
});
