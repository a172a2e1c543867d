// The bisect module: CPython's probes, comparisons, key calls and insertions, and its refusals.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsOnBudget } from "./cpython-cases.js";

const searches = [
  "import bisect\na = [1, 2, 4, 4, 4, 8, 9]\nprint([bisect.bisect_left(a, x) for x in range(11)], [bisect.bisect_right(a, x) for x in range(11)], [bisect.bisect(a, x) for x in (0, 4, 10)])",
  "import bisect\na = [1, 2, 4, 4, 8]\nprint(bisect.bisect_left(a, 4, 3), bisect.bisect_left(a, 4, 0, 2), bisect.bisect_right(a, 4, hi=-1), bisect.bisect_right(a, 4, hi=-2), bisect.bisect_left(a, 4, lo=10), bisect.bisect_right(a, 4, 1, 100))",
  "import bisect\na = [1.5, 2, 2.0, 3]\nprint(bisect.bisect_left(a, 2), bisect.bisect_right(a, 2.0), bisect.bisect_left(a, True), bisect.bisect_right([], 1), bisect.bisect_left((1, 3, 5), 4), bisect.bisect_left('acegi', 'f'), bisect.bisect_right(range(0, 100, 5), 42))",
  "import bisect\nnames = [('a', 1), ('b', 5), ('c', 9)]\nprint(bisect.bisect_left(names, 5, key=lambda t: t[1]), bisect.bisect_right(names, 5, key=lambda t: t[1]), bisect.bisect(names, 0, key=lambda t: t[1]), bisect.bisect_left(names, 9, 1, 2, key=lambda t: t[1]))",
  "import bisect\nseen = []\ndef k(v):\n    seen.append(v)\n    return v\nprint(bisect.bisect_left(list(range(100)), 37, key=k), seen)",
  "import bisect\nscores = [60, 70, 80, 90]\nprint(['FDCBA'[bisect.bisect(scores, s)] for s in [33, 99, 77, 70, 89, 90, 100]])",
  "import bisect\na = [1, 2, 4, 4, 8]\nbisect.insort(a, 3)\nbisect.insort_left(a, 4)\nbisect.insort_right(a, 4.0)\nbisect.insort(a, 0, 0, 0)\nbisect.insort(a, 100, lo=20)\nprint(a)",
  "import bisect\na = [4.0, 4]\nbisect.insort_left(a, 4)\nbisect.insort_right(a, True)\nprint(a, [type(x) for x in a])",
  "import bisect\nrows = [('a', 1), ('c', 3)]\nbisect.insort(rows, ('b', 2), key=lambda r: r[1])\nbisect.insort_left(rows, ('z', 2), key=lambda r: r[1])\nprint(rows)",
  "import bisect\nprint(bisect.bisect, bisect.insort, bisect.bisect_left, bisect.insort_left)",
  "from bisect import bisect_left, insort\nxs = []\nfor v in [5, 1, 4, 1, 5, 9, 2, 6]:\n    insort(xs, v)\nprint(xs, bisect_left(xs, 5))",
];

const errors = [
  "import bisect\nbisect.bisect_left([1], 1, -1)",
  "import bisect\nbisect.bisect_left()",
  "import bisect\nbisect.bisect_left([1])",
  "import bisect\nbisect.bisect_right([1], 1, 0, 1, None)",
  "import bisect\nbisect.bisect_left([1], 1, k=2)",
  "import bisect\nbisect.bisect_left([1], 1, lo=1.5)",
  "import bisect\nbisect.bisect_left([1], 1, hi='a')",
  "import bisect\nbisect.bisect_left([1], 1, 0, a=2)",
  "import bisect\nbisect.insort(1, 2)",
  "import bisect\nbisect.insort([1], 2, 0, 1, 2)",
  "import bisect\nbisect.insort((1, 2), 2)",
  "import bisect\nbisect.bisect([1, 2, 3], 'a')",
  "import bisect\nbisect.bisect_left([1, 'a', 3], 2)",
  "import bisect\nbisect.bisect_left(5, 2)",
  "import bisect\nbisect.bisect_left([1, 2], 2, key=5)",
  "import bisect\nbisect.nope",
];

agreesWithCPython("bisect agrees with CPython", searches);
agreesWithCPython("bisect refuses what CPython refuses, with its messages", errors);

describe("bisect", () => {
  it("charges an insertion into a long list by the items it moves", () =>
    expectStopsOnBudget("import bisect\nx = list(range(200000))\nfor i in range(100):\n    bisect.insort(x, -i)", "max_steps"));

  it("has no JavaScript names as attributes", async () => {
    for (const expr of ["bisect.constructor", "bisect.bisect.call", "bisect.toString"]) {
      const r = await execute(`import bisect\nx = ${expr}`);
      expect(r.error?.type, expr).toBe("AttributeError");
    }
  });
});
