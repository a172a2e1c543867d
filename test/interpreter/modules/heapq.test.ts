// The heapq module: CPython's sifts (the same list layout after every operation), nlargest and
// nsmallest with keys and ties, the lazy merge, and the refusals.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsOnBudget } from "./cpython-cases.js";

/** Pseudo-random lists (a linear congruence), so that both sides heapify the same data. */
const lists = [7, 13, 64, 101].map((n) => `[(i * 7919 + ${n}) % ${n * 3} - ${n} for i in range(${n})]`);

const layouts = [
  ...lists.map((l) => `import heapq\nh = []\nfor x in ${l}:\n    heapq.heappush(h, x)\nprint(h)\nprint([heapq.heappop(h) for _ in range(len(h) // 2)], h)`),
  ...lists.map((l) => `import heapq\nl = ${l}\nheapq.heapify(l)\nprint(l)\nprint(heapq.heapreplace(l, 1000), heapq.heappushpop(l, -1000), heapq.heappushpop(l, 5), l)`),
  "import heapq\nl = [(3, 'c'), (1, 'z'), (1, 'a'), (2, 'b'), (1, 'a')]\nheapq.heapify(l)\nprint(l, heapq.heappop(l), l)",
  "import heapq\nl = [1.0, 1, True, 0.5, 2]\nheapq.heapify(l)\nprint(l, [heapq.heappop(l) for _ in range(5)])",
  "import heapq\nh = []\nprint(heapq.heappushpop(h, 3), h)\nheapq.heappush(h, 'b')\nheapq.heappush(h, 'a')\nprint(h, heapq.heappop(h), heapq.heappop(h), h)",
  "import heapq\nh = [5, 6, 7]\nprint(heapq.heappushpop(h, 1), heapq.heappushpop(h, 9), h)",
  "import heapq\ntasks = []\nfor p, t in [(3, 'write'), (1, 'plan'), (2, 'test'), (1, 'review')]:\n    heapq.heappush(tasks, (p, t))\nwhile tasks:\n    print(heapq.heappop(tasks))",
];

const selections = [
  ...lists.map((l) => `import heapq\nl = ${l}\nprint(heapq.nlargest(3, l), heapq.nsmallest(3, l), heapq.nlargest(5, iter(l)), heapq.nsmallest(5, iter(l)), heapq.nlargest(1, l), heapq.nsmallest(1, l))`),
  ...lists.map((l) => `import heapq\nl = ${l}\nprint(heapq.nlargest(4, l, key=abs), heapq.nsmallest(4, iter(l), key=lambda x: x % 7), heapq.nlargest(2, l, key=lambda x: -x))`),
  "import heapq\nprint(heapq.nlargest(2, iter(['a', 'bbb', 'cc', 'dddd', 'ee'])), heapq.nlargest(2, iter(['a', 'bbb', 'cc', 'dddd']), key=len), heapq.nsmallest(2, ['aa', 'b', 'cc', 'd'], key=len))",
  "import heapq\nprint(heapq.nlargest(10, [3, 1, 2]), heapq.nsmallest(3, [3, 1, 2]), heapq.nlargest(0, [1]), heapq.nsmallest(-1, iter([1])), heapq.nlargest(1, []), heapq.nsmallest(2, iter([])), heapq.nlargest(True, [4, 5]))",
  "import heapq\nrows = [('x', 2), ('y', 1), ('z', 2), ('w', 2), ('v', 0)]\nprint(heapq.nlargest(2, iter(rows), key=lambda r: r[1]), heapq.nsmallest(2, iter(rows), key=lambda r: r[1]), heapq.nlargest(3, rows, key=lambda r: r[1]))",
  "import heapq\nprint(heapq.nlargest(2, {'a': 1, 'b': 2, 'c': 0}), heapq.nsmallest(2, 'hello'), heapq.nlargest(2, range(10)), heapq.nsmallest(3, {5, 1, 3, 9}))",
  "import heapq\nprint(heapq.nlargest(2.0, [1, 5, 3]))",
  "import heapq\nprint(heapq.nlargest(1.0, [1, 5, 3]))",
];

const merges = [
  "import heapq\nprint(list(heapq.merge([1, 3, 5, 7], [0, 2, 4, 8], [5, 10, 15, 20], [], [25])))",
  "import heapq\nprint(list(heapq.merge(['dog', 'horse'], ['cat', 'fish', 'kangaroo'], key=len)))",
  "import heapq\nprint(list(heapq.merge([7, 5, 1], [8, 2], [], [6, 6], reverse=True)), list(heapq.merge([3, 1], [2], key=lambda x: -x)), list(heapq.merge([1, 2], [3], reverse=True, key=lambda x: -x)))",
  "import heapq\nprint(list(heapq.merge([(1, 'a'), (2, 'b')], [(1, 'c')], [(0, 'z'), (1, 'a')])))",
  "import heapq\nm = heapq.merge([1, 2], [1.0, 3], iter([True]))\nprint(next(m), next(m), next(m), list(m), list(m))",
  "import heapq\nprint(list(heapq.merge()), list(heapq.merge([1])), list(heapq.merge([], [])), list(heapq.merge('ace', 'bd')))",
  "import heapq\nlist(heapq.merge([1], 5))",
  "import heapq\nlist(heapq.merge([1, 2], ['a']))",
];

const errors = [
  "import heapq\nheapq.heappush([])",
  "import heapq\nheapq.heappush(1, 2)",
  "import heapq\nheapq.heappush([], 1, k=1)",
  "import heapq\nheapq.heappush([1, 'a'], 2)",
  "import heapq\nh = [1, 2]\nheapq.heappush(h, 'x')",
  "import heapq\nheapq.heappop([])",
  "import heapq\nheapq.heappop()",
  "import heapq\nheapq.heappop(1)",
  "import heapq\nheapq.heapify((1,))",
  "import heapq\nheapq.heapify()",
  "import heapq\nheapq.heapify([1, 'a', 2])",
  "import heapq\nheapq.heapreplace([], 1)",
  "import heapq\nheapq.heappushpop([], 1, 2)",
  "import heapq\nheapq.heappushpop([1], 'a')",
  "import heapq\nheapq.nlargest(1)",
  "import heapq\nheapq.nlargest(2, [1, 2, 'a'])",
  "import heapq\nheapq.nsmallest(2, iter([1, None, 3]))",
  "import heapq\nheapq.nlargest('a', [1])",
  "import heapq\nheapq.nlargest(2, 5)",
  "import heapq\nheapq.merge([1], key=1, x=2)",
  "import heapq\nheapq.nope",
];

agreesWithCPython("heapq leaves the same layout as CPython", layouts);
agreesWithCPython("heapq.nlargest and nsmallest agree with CPython", selections);
agreesWithCPython("heapq.merge agrees with CPython", merges);
agreesWithCPython("heapq refuses what CPython refuses, with its messages", errors);

describe("heapq", () => {
  it("merges lazily: an input is read only as far as the output needs", async () => {
    const r = await execute("import heapq\nm = heapq.merge(range(10**9), range(5, 10**9))\nRESULT = [next(m) for _ in range(6)]");
    expect(r.error).toBeNull();
    expect(r.result).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it.each([
    ["import heapq\nx = heapq.nlargest(5, range(10**9))", "max_steps"],
    ["import heapq\nx = list(range(300000))\nheapq.heapify(x)\nheapq.heapify(x)\nheapq.heapify(x)\nheapq.heapify(x)", "max_steps"],
    ["import heapq\nh = []\nfor i in range(10**6):\n    heapq.heappush(h, -i)", "max_steps"],
    ["import heapq\nfor x in heapq.merge(range(10**9), range(10**9)):\n    pass", "max_steps"],
    ["import heapq\nx = heapq.nsmallest(3, iter(range(10**9)), key=abs)", "max_steps"],
  ])("%s stops on the budget without holding the event loop", (source, limit) => expectStopsOnBudget(source, limit));

  it("has no JavaScript names as attributes", async () => {
    for (const expr of ["heapq.constructor", "heapq.heappush.apply", "heapq.merge([1]).next"]) {
      const r = await execute(`import heapq\nx = ${expr}`);
      expect(r.error?.type, expr).toBe("AttributeError");
    }
  });
});
