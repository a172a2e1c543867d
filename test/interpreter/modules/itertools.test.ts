// The itertools module against CPython 3.11 (differential snippets: results, errors, and the
// order in which inputs are pulled, seen through a printing map), then what only the sandbox
// has: laziness of the endless ones, budgets, the event loop, and JavaScript names out of reach.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { measure } from "../stall.js";
import { agreesWithCPython } from "./differential.js";
import { expectBoundedStalls } from "./stalls.js";

const H = "import itertools\nfrom itertools import accumulate, chain, combinations, combinations_with_replacement, compress, count, cycle, dropwhile, filterfalse, groupby, islice, pairwise, permutations, product, repeat, starmap, takewhile, tee, zip_longest\n";
/** A source that prints each item as it is pulled. */
const NOISY = "def noisy(xs):\n    return map(lambda x: print('pull', x) or x, xs)\n";
/** batched is 3.12's: python3 (3.11) runs this reference of it instead. */
const BATCHED =
  "try:\n    from itertools import batched\nexcept ImportError:\n    def batched(iterable, n):\n        if n < 1:\n            raise ValueError('n must be at least one')\n        it = iter(iterable)\n        out = []\n        while True:\n            batch = tuple(islice(it, n))\n            if not batch:\n                return iter(out)\n            out.append(batch)\n";

agreesWithCPython("the endless itertools agree with CPython", [
  H + "c = count()\nprint(next(c), next(c), c, list(islice(count(10), 3)), list(islice(count(1, 3), 4)), list(islice(count(-2, -2), 3)))",
  H + "print(list(islice(count(0.5, 0.25), 5)), list(islice(count(1, 0.1), 12))[-1], list(islice(count(True), 3)), list(islice(count(10**20, 10**19), 2)))",
  H + "print(count(3), count(3, 2), count(1.5), count(0, 1.0), count(0, True), count(True), count(start=4, step=-1), count(step=2))",
  H + "c = count(5)\nnext(c)\nprint(repr(c), str(c))",
  H + "count('a')",
  H + "count(1, 'a')",
  H + "count(1, 2, 3)",
  H + "count(x=1)",
  H + "print(list(repeat('a', 3)), list(repeat(1, 0)), list(repeat(1, -2)), list(repeat(None, times=2)), list(islice(repeat([1]), 2)))",
  H + "r = repeat('a', 3)\nnext(r)\nprint(repr(r), list(r), repr(r), repeat(1), repeat(1, -5))",
  H + "repeat()",
  H + "repeat(1, 2.5)",
  H + "repeat(1, None)",
  H + "print(list(islice(cycle('abc'), 7)), list(cycle([])), list(islice(cycle(range(2)), 5)))",
  H + NOISY + "c = cycle(noisy([1, 2]))\nprint(next(c), next(c), next(c), next(c))",
  H + "cycle()",
  H + "cycle(1)",
  H + "cycle([1], [2])",
  H + "print(list(zip(count(), 'abc')), dict(zip('xyz', count(1))), [x for x, _ in zip(cycle('ab'), range(5))])",
]);

agreesWithCPython("chain, islice and the filters agree with CPython", [
  H + "print(list(chain()), list(chain([1, 2], 'ab', (3,), range(2), {'k': 1})), list(chain.from_iterable(['ab', [1], ()])))",
  H + NOISY + "c = chain(noisy([1, 2]), noisy([3]))\nprint(next(c))\nprint(list(c))",
  H + "c = chain([1], 2)\nprint(next(c))\nnext(c)",
  H + "list(chain.from_iterable([[1], 2]))",
  H + "chain.from_iterable(1)",
  H + "chain(x=1)",
  H + "chain.from_iterable()",
  H + "print(list(islice('abcdefg', 3)), list(islice('abcdefg', 2, 5)), list(islice('abcdefg', 1, None, 2)), list(islice('abc', None)), list(islice('abc', 0)), list(islice('abcdefg', 5, 2)), list(islice(range(10), 2, None, 3)), list(islice('ab', None, None, None)))",
  H + NOISY + "it = noisy(range(10))\nprint(list(islice(it, 2, 6, 2)))\nprint(next(it))",
  H + NOISY + "it = noisy(range(10))\nprint(list(islice(it, 3)))\nprint(list(islice(it, 1, 3)))\nprint(next(it))",
  H + "it = iter(range(10))\nprint(list(islice(it, 0, 9, 4)), list(it))",
  H + "print(next(islice(count(), 2**62)), list(islice('abcdef', 1, 2**63 - 1, 2**62)), list(islice('abc', True)))",
  H + "islice(count(), 2**63)",
  H + "islice(count(), 0, 5, 2**63)",
  H + "islice([1])",
  H + "islice([1], -1)",
  H + "islice([1], 'a')",
  H + "islice([1], 1, -1)",
  H + "islice([1], -1, 2)",
  H + "islice([1], 0, 2, 0)",
  H + "islice([1], 0, 2, 1.5)",
  H + "islice([1], 1.5)",
  H + "islice(1, 1)",
  H + "islice([1], 1, 2, 3, 4)",
  H + "islice([1], stop=1)",
  H + "print(list(takewhile(lambda x: x < 3, [1, 2, 3, 1])), list(takewhile(bool, [])), list(dropwhile(lambda x: x < 3, [1, 2, 3, 1, 5])), list(dropwhile(bool, [1, 1])))",
  H + NOISY + "t = takewhile(lambda x: x < 2, noisy(range(5)))\nprint(list(t))\nprint(list(t))",
  H + "print(list(filterfalse(None, [0, 1, '', 'a', [], [0]])), list(filterfalse(lambda x: x % 2, range(7))))",
  H + "print(list(compress('abcdef', [1, 0, 1, 0, 1])), list(compress('ab', [1, 1, 1, 1])), list(compress(data='abc', selectors=[0, 1, 1])), list(compress(count(), [0, 1, 0, 1])))",
  H + "print(list(starmap(pow, [(2, 3), [3, 2]])), list(starmap(lambda *a: sum(a), [(), (1,), (1, 2, 3)])), list(starmap(max, ['ab', 'zx'])))",
  H + "list(starmap(pow, [1]))",
  H + "list(takewhile(1, [2]))",
  H + "takewhile(None)",
  H + "dropwhile(1)",
  H + "filterfalse(None)",
  H + "starmap(pow)",
  H + "compress([1])",
  H + "compress(1, [2])",
  H + "takewhile(lambda x: x, [1], x=1)",
]);

agreesWithCPython("groupby, accumulate, zip_longest, pairwise, batched and tee agree with CPython", [
  H + "print([(k, list(g)) for k, g in groupby('aaabbcaa')], [k for k, g in groupby([1, 1, 2, 3, 3])], list(groupby([])))",
  H + "rows = [('a', 1), ('a', 2), ('b', 3), ('a', 4)]\nprint([(k, [v for _, v in g]) for k, g in groupby(rows, key=lambda r: r[0])])",
  H + "print([(k, len(list(g))) for k, g in groupby(sorted('mississippi'))], [(k, list(g)) for k, g in groupby(range(10), lambda x: x // 3)])",
  H + "groups = groupby('aabbc')\nk1, g1 = next(groups)\nk2, g2 = next(groups)\nprint(k1, list(g1), k2, list(g2), next(groups)[0])",
  H + "g = groupby('aaabbb')\n_, first = next(g)\nprint(next(first))\n_, second = next(g)\nprint(list(first), list(second))",
  H + NOISY + "for k, g in groupby(noisy([1, 1, 2]), key=lambda x: print('key', x) or x):\n    print('group', k)\n    print(list(g))",
  H + NOISY + "g = groupby(noisy([1, 1, 2, 2, 3]))\nfor k, _ in g:\n    print('skip', k)",
  H + "print([(k, list(g)) for k, g in groupby([1, 1.0, True, 2])])",
  H + "groupby()",
  H + "groupby(1)",
  H + "groupby([1], 2, 3)",
  H + "groupby([1], keyfunc=None)",
  H + "print(list(accumulate([1, 2, 3, 4])), list(accumulate([1, 2, 3], initial=10)), list(accumulate([], initial=10)), list(accumulate([])), list(accumulate([3, 1, 4, 1, 5], max)), list(accumulate([1, 2, 3], func=lambda a, b: a * b)))",
  H + "print(list(accumulate(['a', 'b', 'c'])), list(accumulate([[1], [2]])), list(accumulate([1.5, 2])), list(accumulate(range(5), initial=None)))",
  H + "list(accumulate([1, 'a']))",
  H + "accumulate()",
  H + "accumulate(1)",
  H + "list(accumulate([1, 2], max, 3))",
  H + "accumulate([1], nope=1)",
  H + "print(list(zip_longest('ab', 'xyz')), list(zip_longest('ab', 'xyz', fillvalue='-')), list(zip_longest()), list(zip_longest([1])), list(zip_longest([], [], fillvalue=0)))",
  H + NOISY + "print(list(zip_longest(noisy([1]), noisy([2, 3]))))",
  H + "zip_longest(1)",
  H + "zip_longest([1], x=1)",
  H + "print(list(pairwise('abcd')), list(pairwise([1])), list(pairwise([])), list(pairwise(range(4))))",
  H + NOISY + "p = pairwise(noisy([1, 2, 3]))\nprint(next(p))\nprint(list(p))",
  H + "pairwise()",
  H + "pairwise(1)",
  H + "pairwise([1], [2])",
  H + BATCHED + "print(list(batched('abcdefg', 3)), list(batched([], 2)), list(batched(range(4), 2)), list(batched('ab', 5)), list(batched('abc', 1)))",
  H + BATCHED + "batched('abc', 0)",
  H + BATCHED + "RESULT = [list(b) for b in batched(range(10), 4)]",
  H + "a, b = tee([1, 2, 3])\nprint(list(a), list(b))\nx, y, z = tee('ab', 3)\nprint(next(x), list(y), list(x), list(z), tee([1], 0))",
  H + NOISY + "a, b = tee(noisy([1, 2, 3]))\nprint(next(a), next(a))\nprint(next(b))\nprint(list(a), list(b))",
  H + "it = iter([1, 2, 3, 4])\na, b = tee(it)\nprint(next(a), next(it), list(b))",
  H + "a, b = tee([1, 2])\nc, d = tee(a)\nprint(list(c), list(d), list(b), list(a))",
  H + "tee()",
  H + "tee([1], -1)",
  H + "tee([1], 'a')",
  H + "tee(1)",
]);

agreesWithCPython("the combinatoric itertools agree with CPython", [
  H + "print(list(product('ab', 'xy')), list(product('ab', repeat=2)), list(product()), list(product(repeat=0)), list(product('ab', [])), list(product([1, 2], repeat=3))[:5])",
  H + "print(len(list(product(range(3), range(4), range(2)))), list(product(range(2), 'ab', repeat=2))[-3:])",
  H + "print(list(permutations('abc')), list(permutations('abcd', 2)), list(permutations([1, 2], None)), list(permutations('ab', 3)), list(permutations([], 0)), list(permutations('ab', 0)))",
  H + "p = list(permutations(range(5)))\nprint(len(p), p[:3], p[-3:], p[57], len(set(p)))",
  H + "print(list(combinations('abcd', 2)), list(combinations(range(4), 3)), list(combinations('ab', 3)), list(combinations('ab', 0)), list(combinations([], 0)))",
  H + "c = list(combinations(range(8), 4))\nprint(len(c), c[:3], c[-2:], c[33])",
  H + "print(list(combinations_with_replacement('abc', 2)), list(combinations_with_replacement([], 0)), list(combinations_with_replacement([], 1)), list(combinations_with_replacement('a', 3)))",
  H + "c = list(combinations_with_replacement(range(5), 3))\nprint(len(c), c[:4], c[-2:])",
  H + NOISY + "p = product(noisy([1, 2]), noisy('ab'))\nprint('made')\nprint(next(p))",
  H + "print(sum(1 for _ in permutations(range(7))), next(combinations(range(50), 25)), next(product(range(10**5), repeat=3)))",
  H + "product(1)",
  H + "product([1], repeat=-1)",
  H + "product([1], repeat='a')",
  H + "product([1], x=1)",
  H + "permutations()",
  H + "permutations([1], -1)",
  H + "permutations([1], 'a')",
  H + "permutations(1)",
  H + "combinations([1])",
  H + "combinations([1], -1)",
  H + "combinations([1], 'a')",
  H + "combinations(1, 1)",
  H + "combinations_with_replacement([1])",
  H + "combinations_with_replacement([1], -1)",
  H + "print(list(combinations(iterable='abc', r=2)), list(permutations(r=1, iterable='ab')))",
  H + "print(itertools.chain, itertools.count, type(itertools.chain()) is itertools.chain, isinstance(count(), itertools.count), isinstance(chain(), count))",
  H + "itertools.nope",
  H + "print(list(map(sum, product(range(3), repeat=2))), dict(zip(combinations('abc', 2), count())))",
  H + "RESULT = [list(pairwise('abc')), list(product([1], 'x')), next(groupby('aab'))[0]]",
  H + "for i, (a, b) in zip(count(1), pairwise([3, 5, 9])):\n    print(i, b - a)",
  H + "pages = iter(['p1', 'p2', 'p3', 'p4', 'p5'])\nwhile chunk := list(islice(pages, 2)):\n    print(chunk)",
]);

describe("itertools in the sandbox", () => {
  it("print as CPython's objects do, without an address", async () => {
    const r = await execute(`${H}print(chain(), islice([], 1), groupby([]), product(), tee([])[0])`);
    expect(r.stdout).toBe("<itertools.chain object> <itertools.islice object> <itertools.groupby object> <itertools.product object> <itertools._tee object>\n");
  });

  it("never materialize the endless ones", async () => {
    const { result, wallMs } = await measure(`${H}RESULT = [next(count()), list(islice(count(), 5)), next(cycle(count())), list(islice(repeat(0), 3)), next(zip_longest(count(), []))]`);
    expect(result.error).toBeNull();
    expect(result.result).toEqual([0, [0, 1, 2, 3, 4], 0, [0, 0, 0], [0, null]]);
    expect(wallMs).toBeLessThan(1000);
  });

  it("keep JavaScript names out of the module, its classes and its iterators", async () => {
    for (const v of ["itertools", "itertools.chain", "chain()", "count()", "tee([1])[0]", "next(groupby('a'))[1]"]) {
      for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "next", "kind", "cls", "call"]) {
        const r = await execute(`${H}x = ${v}\nx.${name}`);
        expect(r.error?.type, `${v}.${name}`).toBe("AttributeError");
      }
    }
  });

  it("stop hostile iterators at the budget without holding the event loop", async () => {
    await expectBoundedStalls(H, [
      "for _ in count():\n    pass",
      "list(count())",
      "sum(islice(count(), 10**9))",
      "list(product(range(1000), repeat=4))",
      "list(product(range(10**6), range(10**6)))",
      "for _ in permutations(range(20)):\n    pass",
      "list(combinations(range(100), 50))",
      "list(combinations_with_replacement(range(100), 50))",
      "list(cycle('abc'))",
      "list(repeat([1] * 100))",
      "list(accumulate(repeat(1)))",
      "list(zip_longest(count(), count()))",
      "a, b = tee(count())\nlist(a)",
      "list(chain.from_iterable(repeat(range(10))))",
      "list(islice(count(), 0, None, 10**6))",
      "for _ in groupby(count()):\n    pass",
      "list(dropwhile(lambda x: True, count()))",
      "list(filterfalse(None, repeat(0)))",
      "list(pairwise(count()))",
      "list(compress(count(), repeat(0)))",
    ]);
  });

  it("refuses a key function that waits on a tool call", async () => {
    const hosts = { srv: { key: async () => 1 } };
    const r = await execute(`${H}list(groupby([1, 2], key=lambda x: srv.key()))`, { hosts });
    expect(r.error?.type).toBe("RuntimeError");
  });
});
