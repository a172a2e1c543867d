// Sorting by int keys and by tuples of ints skips the comparison sort: the keys become numbers
// that are radix-sorted (or, for a few keys, sorted by insertion; for a wide span, with a
// comparator). These tests hold each of those paths to CPython's order, stability included
// (sorting indices by key shows which of two equal keys came first), and to the budget charge
// documented in methods/containers.ts.
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { sortValues } from "../../src/interpreter/methods/containers.js";
import { normInt, PyTuple, type Value } from "../../src/interpreter/values.js";
import { cpython } from "./cpython.js";
import { testContext } from "./native-context.js";

/** Pseudo-random ints from lo to hi, the same in both interpreters. */
const PRELUDE = `
def randoms(seed, count, lo, hi):
    out = []
    s = seed
    for _ in range(count):
        s = (s * 1103515245 + 12345) % 2147483648
        out.append(lo + (s * (hi - lo + 1)) // 2147483648)
    return out

def show(keys):
    n = len(keys)
    print(sorted(range(n), key=lambda i: keys[i]))
    print(sorted(range(n), key=lambda i: keys[i], reverse=True))
    copy = list(keys)
    copy.sort(reverse=True)
    print(copy == sorted(keys, reverse=True), copy[:3], copy[-3:])
`;

/**
 * Key lists, each built in Python. Sizes on both sides of 16 (up to it an insertion sort) and 256
 * (below it a comparator sorts), spans small beside the count (one counting pass), wide (several
 * radix passes) and beyond 2^53 (a comparator), all with repeated keys.
 */
const KEYS: string[] = [
  // ints
  `randoms(31, 16, -3, 3)`,
  `randoms(32, 5, -2, 2)`,
  `randoms(33, 12, -(10**15), 10**15)`,
  `[1, 1, 1, 0, 0, 2]`,
  `[7]`,
  `[]`,
  `randoms(34, 17, -3, 3)`,
  `randoms(1, 300, -50, 50)`,
  `randoms(2, 2000, -50, 50)`,
  `randoms(3, 2000, -10**6, 10**6)`,
  `randoms(4, 1500, -(2**53 - 1), 2**53 - 1) + [0, 0, 2**53 - 1, -(2**53 - 1)]`,
  `randoms(5, 1000, 0, 2**40) + randoms(5, 500, 0, 2**40)`,
  `randoms(29, 800, 0, 2**31 - 1) + randoms(30, 800, 2**30, 2**32 - 1)`,
  `[a * 2**26 + b for a, b in zip(randoms(23, 1000, -(2**24), 2**24), randoms(24, 1000, 0, 2**26 - 1))]`,
  `[a * 2**26 + b for a, b in zip(randoms(25, 700, 0, 2**18), randoms(26, 700, 0, 2**26 - 1))]`,
  `randoms(6, 1200, -3, 3) + [2**60, -2**60]`,
  `[-x for x in randoms(7, 600, 0, 3)] + [0 * -1, -0]`,
  `randoms(8, 100, -10**12, 10**12)`,
  `[5] * 400 + [4] * 300`,
  // tuples of ints
  `[(x % 100, -x) for x in randoms(9, 1500, 0, 10**4)]`,
  `[(x % 100, -x) for x in randoms(10, 200, 0, 10**4)]`,
  `[(a, b, c) for a, b, c in zip(randoms(11, 900, -2, 2), randoms(12, 900, -10**9, 10**9), randoms(13, 900, 0, 3))]`,
  `[(a, b) for a, b in zip(randoms(14, 700, -(2**40), 2**40), randoms(15, 700, -(2**30), 2**30))]`,
  `[(a, -a) for a in randoms(16, 800, -(2**52), 2**52)]`,
  `[(a % 4, a * 2**20 + b) for a, b in zip(randoms(27, 900, 0, 2**25), randoms(28, 900, 0, 2**20 - 1))]`,
  `[(x,) for x in randoms(17, 500, -9, 9)]`,
  `[(x % 3, -x) for x in randoms(35, 14, 0, 9)]`,
  `[() for _ in range(300)]`,
  `[(x % 3, -x * 0) for x in randoms(18, 400, 0, 50)]`,
  // not all ints of one length: the comparison sort
  `[(x % 5, 2**60 if x == 7 else x) for x in randoms(19, 400, 0, 20)]`,
  `[(x % 2 == 0, x % 3) for x in randoms(20, 300, 0, 20)] + [(1, 1), (True, 1)]`,
  `[(x % 4,) * (1 + x % 2) for x in randoms(21, 300, 0, 20)]`,
  `[(x % 4, x * 0.5) for x in randoms(22, 300, 0, 20)]`,
];

const PROGRAMS = KEYS.map((keys) => `${PRELUDE}\nshow(${keys})\n`);

/** Sorts that must raise CPython's TypeError, whichever path the other keys would take. */
const FAILING = [
  `sorted([(1, 2), (1, 'a')])`,
  `sorted([(1, 2)] * 300 + [3])`,
  `sorted([3] * 300 + [(1, 2)])`,
  `sorted([(i, i) for i in range(300)] + [(5, None)])`,
  `sorted(list(range(300)) + ['x'], reverse=True)`,
  `sorted([(i % 3, i) for i in range(300)] + [(1, 'x')], key=lambda t: t)`,
].map((expr) => `${PRELUDE}\nprint(${expr})\n`);

describe("sorting by ints and by tuples of ints", () => {
  it("gives CPython's order, equal keys in their first order, ascending and descending", async () => {
    const theirs = cpython(PROGRAMS);
    for (let i = 0; i < PROGRAMS.length; i++) {
      const ours = await execute(PROGRAMS[i]!, { limits: { max_steps: 50_000_000 } });
      expect([KEYS[i], ours.error ?? ours.stdout]).toEqual([KEYS[i], theirs[i]!.error ?? theirs[i]!.stdout]);
    }
  });

  it("raises CPython's TypeError for keys that do not compare", async () => {
    const theirs = cpython(FAILING);
    for (let i = 0; i < FAILING.length; i++) {
      const ours = await execute(FAILING[i]!);
      expect(theirs[i]!.error?.type).toBe("TypeError");
      expect([ours.error?.type, ours.error?.message]).toEqual([theirs[i]!.error!.type, theirs[i]!.error!.message]);
    }
  });
});

describe("the charge for sorting tuples of ints", () => {
  const tuples = (n: number, length: number, seed: number): PyTuple[] => {
    let s = seed;
    const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 16) % 7;
    return Array.from({ length: n }, () => new PyTuple(Array.from({ length }, next)));
  };
  const steps = (keys: Value[], reverse: boolean): number => {
    const ctx = testContext({ max_steps: 1e12 });
    sortValues(ctx, keys, null, reverse);
    return ctx.budget.steps;
  };

  it("is ceil(n·log2 n) steps for the sort plus the tuple length for each of as many comparisons", () => {
    for (const [n, length] of [[1, 2], [2, 2], [3, 1], [255, 2], [256, 3], [5000, 2], [300, 0]] as const) {
      const sort = n > 1 ? Math.ceil(n * Math.log2(n)) : 1;
      const comparisons = n > 1 ? Math.ceil(n * Math.log2(n)) * length : 0;
      for (const reverse of [false, true]) expect(steps(tuples(n, length, n), reverse)).toBe(sort + comparisons);
    }
  });

  it("is at least what the comparison sort charges for the same list and one more item", () => {
    // A tuple holding a big int (no double) sends a list the general way, which charges a step
    // for each position looked at in each comparison; keys equal but for the last position make
    // every comparison look at all of them.
    const big = new PyTuple([normInt(2n ** 60n), 0, 0]);
    for (const n of [10, 64, 65, 300, 1025, 3000]) {
      let s = n;
      const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8);
      const lists = [
        Array.from({ length: n }, () => new PyTuple([0, 0, next()])),
        Array.from({ length: n }, (_, i) => new PyTuple([0, 0, i])),
        Array.from({ length: n }, (_, i) => new PyTuple([0, 0, -i])),
        Array.from({ length: n }, () => new PyTuple([next() % 2, next() % 2, next() % 2])),
      ];
      for (const keys of lists) {
        for (const reverse of [false, true]) expect(steps(keys, reverse)).toBeGreaterThanOrEqual(steps([...keys, big], reverse));
      }
    }
  });
});
