// copy against CPython 3.11: shallow and deep copies of every built-in container, shared
// references and cycles, immutable values copied as themselves, named tuples; budgets.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsQuickly, printEach } from "./oracle.js";

agreesWithCPython("copy agrees with CPython", [
  printEach("import copy\nfrom urllib.parse import urlsplit\nl = [1, [2, 3], {'a': [4]}]\nd = {'k': [1], 't': (1, [2]), 's': {1, 2}}\nt = (1, 2, (3, 4))\nu = (1, [2])", [
    "copy.copy(l), copy.copy(l) == l, copy.copy(l) is l, copy.copy(l)[1] is l[1]",
    "copy.deepcopy(l), copy.deepcopy(l) == l, copy.deepcopy(l)[1] is l[1], copy.deepcopy(l)[2]['a'] is l[2]['a']",
    "copy.copy(d), copy.copy(d)['k'] is d['k'], copy.deepcopy(d)['k'] is d['k'], copy.deepcopy(d)['t'] is d['t']",
    "copy.deepcopy(d) == d",
    "copy.copy(t) is t, copy.deepcopy(t) is t",
    "copy.copy(u) is u, copy.deepcopy(u) is u, copy.deepcopy(u) == u, copy.deepcopy(u)[1] is u[1]",
    "copy.copy({1, 2}), copy.copy({1, 2}) == {1, 2}",
    "f = frozenset([1, 2]); copy.copy(f) is f, copy.deepcopy(f) == f",
    "[copy.copy(v) is v for v in (1, 2**100, 1.5, 'str', b'bytes', None, True, range(3), len, int, copy)]",
    "[copy.deepcopy(v) is v for v in (1, 2**100, 1.5, 'str', b'bytes', None, True, range(3), len, int, copy)]",
    "copy.copy([]), copy.deepcopy({}), copy.copy(()), copy.deepcopy(())",
    "r = urlsplit('http://h/p'); (copy.copy(r), copy.copy(r) == r, type(copy.deepcopy(r)), copy.deepcopy(r) is r)",
    "copy.copy({}.keys())",
    "copy.copy(iter([1]))",
    "copy.copy()",
    "copy.copy(1, 2)",
    "copy.deepcopy([1], None)",
    "copy.deepcopy([1], memo=None)",
  ]),
  // Shared references stay shared, cycles stay cycles.
  "import copy\nshared = [1]\nx = [shared, shared, {'s': shared}]\ny = copy.deepcopy(x)\nprint(y, y[0] is y[1], y[0] is y[2]['s'], y[0] is shared)",
  "import copy\na = [1]\na.append(a)\nb = copy.deepcopy(a)\nprint(b, b[1] is b, b is a, len(b))",
  "import copy\nd = {'k': 1}\nd['self'] = d\ne = copy.deepcopy(d)\nprint(e['self'] is e, e is d)",
  "import copy\nl = []\nt = (l,)\nl.append(t)\nc = copy.deepcopy(t)\nprint(c[0][0] is c, c is t, type(c))",
  "import copy\nl = [1, 2]\nc = copy.copy(l)\nc.append(3)\nd = copy.deepcopy(l)\nd.append(4)\nprint(l, c, d)",
  "import copy\nx = {'a': {'b': {'c': [1, 2, {'d': (1, 2)}]}}}\ny = copy.deepcopy(x)\ny['a']['b']['c'][2]['d'] = 0\nprint(x, y)",
  "import copy\nx = [[0] * 3] * 3\ny = copy.deepcopy(x)\ny[0][0] = 1\nprint(y, y[0] is y[1])",
  "import copy\nx = {(1, 2): [3], frozenset([4]): {5}}\ny = copy.deepcopy(x)\nprint(y, y == x)",
  "import copy, typing\nP = typing.NamedTuple('P', [('x', list), ('y', int)])\np = P([1], 2)\nq = copy.copy(p)\nr = copy.deepcopy(p)\nprint(q, r, q is p, q.x is p.x, r.x is p.x, type(r))",
  "import copy\ndef f(): return 1\nprint(copy.copy(f) is f, copy.deepcopy([f])[0] is f)",
  "import copy\ntry:\n    raise ValueError('x')\nexcept ValueError as e:\n    print(copy.copy(e) is e or True)",
  "import copy\nRESULT = copy.deepcopy({'rows': [{'id': 1}, {'id': 2}]})",
]);

describe("copy in the sandbox", () => {
  it("copies module-defined values through their hooks, or as themselves", async () => {
    const r = await execute("import copy, uuid, string\nu = uuid.UUID(int=5)\nt = string.Template('$a')\nRESULT = [copy.copy(u) == u, copy.deepcopy(u) == u, copy.copy(t) is t]");
    expect(r.result).toEqual([true, true, true]);
  });

  it("ends deep nesting with a RecursionError, not a stack overflow", async () => {
    const r = await execute("import copy\nx = []\nfor i in range(5000):\n    x = [x]\ncopy.deepcopy(x)");
    expect(r.error?.type).toBe("RecursionError");
    const ok = await execute("import copy\nx = []\nfor i in range(400):\n    x = [x]\nRESULT = copy.deepcopy(x) == x");
    expect(ok.result).toBe(true);
  });

  it.each([
    "import copy\nx = [list(range(1000)) for i in range(1000)]\ncopy.deepcopy(x)",
    "import copy\nx = list(range(10**6))\nfor i in range(100): copy.copy(x)",
    "import copy\nx = [[i] for i in range(10**5)]\nfor i in range(100): copy.deepcopy(x)",
  ])("stops a hostile input with a ResourceLimitError: %s", async (source) => {
    await expectStopsQuickly(source);
  });
});
