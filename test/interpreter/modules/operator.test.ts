// The operator module: the operators as functions, itemgetter, attrgetter and methodcaller with
// CPython's reprs, and the refusals.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython } from "./cpython-cases.js";

const functions = [
  "import operator as o\nprint(o.add(1, 2), o.sub(5, 7), o.mul('ab', 3), o.truediv(7, 2), o.floordiv(-7, 2), o.mod(-7, 3), o.pow(2, -1), o.pow(2, 100), o.mod('%s!', 'a'))",
  "import operator as o\nprint(o.add([1], [2]), o.add(1.5, True), o.sub(2**70, 1), o.mul(3, [0]), o.truediv(1, 3), o.floordiv(7.5, 2), o.lshift(1, 70), o.rshift(-9, 1), o.and_(12, 10), o.or_(12, 3), o.xor(5, 3), o.or_({1}, {2}))",
  "import operator as o\nprint(o.neg(5), o.neg(-0.0), o.pos(-2.5), o.abs(-3), o.abs(-2.5), o.abs(True), o.abs(-2**80), o.index(7), o.index(False), o.invert(5), o.inv(-1))",
  "import operator as o\nprint(o.eq(1, 1.0), o.ne('a', 'a'), o.lt(1, 2), o.le(2, 2), o.gt('b', 'a'), o.ge([1], [1, 0]), o.eq([1], (1,)), o.lt((1, 2), (1, 3)))",
  "import operator as o\nprint(o.not_([]), o.not_(0.0), o.truth('x'), o.truth(None), o.is_(None, None), o.is_not(1, None), o.is_(1, 1), o.is_([], []))",
  "import operator as o\nprint(o.contains([1, 2], 2), o.contains('abc', 'bc'), o.contains({'k': 1}, 'k'), o.getitem({'a': 1}, 'a'), o.getitem('hello', slice(1, 3)), o.getitem([1, 2, 3], -1))",
  "import operator as o\nprint(o.concat([1], [2]), o.concat('a', 'b'), o.concat((1,), (2,)), o.countOf([1, 2, 1.0, True], 1), o.indexOf('abc', 'c'), o.indexOf([0, 1, 1], True))",
  "import operator as o\nl = [1, 2, 3]\no.setitem(l, 0, 9)\no.delitem(l, 1)\nd = {}\no.setitem(d, 'k', 1)\nprint(l, d, o.delitem(d, 'k'), d)",
  "import operator\nfrom functools import reduce\nprint(reduce(operator.mul, range(1, 10)), list(map(operator.add, [1, 2], [10, 20])), sorted([3, 1, 2], key=operator.neg), operator.add, type(operator.add))",
];

const getters = [
  "from operator import itemgetter\ng = itemgetter(1)\nprint(g, g([5, 6]), g('xy'), g({1: 'one'}), itemgetter(0, -1)('hello'), itemgetter('a', 'b')({'a': 1, 'b': 2}), itemgetter(slice(1, None))([1, 2, 3]))",
  "from operator import itemgetter\nrows = [(1, 'b'), (0, 'z'), (1, 'a')]\nprint(sorted(rows, key=itemgetter(1)), sorted(rows, key=itemgetter(0, 1)), max(rows, key=itemgetter(0)), min(rows, key=itemgetter(1)), list(map(itemgetter(0), rows)))",
  "from operator import itemgetter\nprint(repr(itemgetter('a', 1)), repr(itemgetter(None)), type(itemgetter(1)), callable(itemgetter(1)), itemgetter(1) == itemgetter(1))",
  "from operator import attrgetter\ne = ValueError('x', 2)\nprint(attrgetter('args'), attrgetter('a.b', 'c'), attrgetter('a..b'), attrgetter('args')(e), attrgetter('args', 'args')(e), [attrgetter('args')(ValueError(i)) for i in range(2)], attrgetter('args.count')(e)(2), attrgetter('args.index')(e)('x'))",
  "from operator import methodcaller\nprint(methodcaller('split', ',', maxsplit=1), methodcaller('split', ',', maxsplit=1)('a,b,c'), methodcaller('upper')('x'), list(map(methodcaller('strip'), [' a ', 'b '])), methodcaller('get', 'k', 0)({}))",
  "from operator import methodcaller\nitems = [[3, 1], [2]]\nlist(map(methodcaller('append', 0), items))\nlist(map(methodcaller('sort'), items))\nprint(items, methodcaller('a', 'b', c=1, d=[1]))",
  "import operator\nd = {'x': 1}\nprint(operator.itemgetter('x')(d), isinstance(operator.itemgetter(1), operator.itemgetter), operator.itemgetter, operator.attrgetter, operator.methodcaller)",
];

const errors = [
  "import operator\noperator.add(1)",
  "import operator\noperator.add(1, 2, 3)",
  "import operator\noperator.add(1, b=2)",
  "import operator\noperator.neg()",
  "import operator\noperator.neg(1, 2)",
  "import operator\noperator.neg(a=2)",
  "import operator\noperator.add(1, 'a')",
  "import operator\noperator.truediv(1, 0)",
  "import operator\noperator.lt(1, 'a')",
  "import operator\noperator.contains(1, 1)",
  "import operator\noperator.abs('a')",
  "import operator\noperator.index(1.5)",
  "import operator\noperator.concat({}, {})",
  "import operator\noperator.concat(1, 2)",
  "import operator\noperator.concat(range(1), range(2))",
  "import operator\noperator.concat([1], (2,))",
  "import operator\noperator.indexOf([1], 2)",
  "import operator\noperator.getitem([1], 5)",
  "import operator\noperator.setitem((1,), 0, 2)",
  "import operator\noperator.itemgetter()",
  "import operator\noperator.itemgetter(1)([1], 2)",
  "import operator\noperator.itemgetter(1)(x=1)",
  "import operator\noperator.itemgetter(5)([1])",
  "import operator\noperator.itemgetter(1)(1)",
  "import operator\noperator.attrgetter()",
  "import operator\noperator.attrgetter(1)",
  "import operator\noperator.attrgetter('a', 1)",
  "import operator\noperator.attrgetter('nope')('x')",
  "import operator\noperator.attrgetter('x.y')({})",
  "import operator\noperator.methodcaller()",
  "import operator\noperator.methodcaller(1)",
  "import operator\noperator.methodcaller('nope')('abc')",
  "import operator\nlen(operator.itemgetter(1))",
  "import operator\nprint(operator.nope)",
];

agreesWithCPython("operator's functions agree with CPython", functions);
agreesWithCPython("itemgetter, attrgetter and methodcaller agree with CPython", getters);
agreesWithCPython("operator refuses what CPython refuses, with its messages", errors);

describe("operator", () => {
  it("lets a methodcaller forward a tool call", async () => {
    const hosts = { srv: { echo: async (_args: unknown[], kwargs: Record<string, unknown>) => kwargs } };
    const r = await execute("import operator\nRESULT = operator.methodcaller('echo', x=1)(srv)", { hosts });
    expect(r.error).toBeNull();
    expect(r.result).toEqual({ x: 1 });
  });

  it("has no JavaScript names as attributes", async () => {
    for (const expr of ["operator.constructor", "operator.itemgetter(1).constructor", "operator.itemgetter.prototype", "operator.itemgetter(1).items", "operator.methodcaller('x').name", "operator.attrgetter('x').toString"]) {
      const r = await execute(`import operator\nx = ${expr}`);
      expect(r.error?.type, expr).toBe("AttributeError");
    }
  });
});
