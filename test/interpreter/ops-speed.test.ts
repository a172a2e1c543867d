// Differential tests of the fast paths of the core operations: dict items under str and int keys
// (getItem, setItem, `in` of dicts and sets, dict.get, dict literals), list and tuple indexing by int, str + str, str(int),
// chr(), range(), isinstance() with one type, enumerate's counter, sorting rows of ints and strs.
// Random programs mix the fast cases with the ones beside them (NUL-prefixed strs, 1 == 1.0 ==
// True keys, negative and out-of-range indices, big ints, surrogates); all go to ONE python3
// process, and ours must print the same, errors included. Budget charges are pinned to the
// figures of the build before the fast paths.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { outputDifferences } from "./cpython.js";

const KEYS = [
  `"a"`, `"b"`, `""`, `"\\x00a"`, `"\\x00\\x00"`, `"\\x00N"`, `"\\x00(1,2)"`, `"é"`, `"😀x"`, `"1"`,
  `0`, `1`, `-1`, `2**60`, `True`, `False`, `1.0`, `2.5`, `None`, `(1, 2)`, `("a",)`, `[1]`,
];
const INDICES = [`0`, `1`, `-1`, `-6`, `5`, `6`, `True`, `False`, `2**70`, `-2**70`, `"0"`, `1.0`, `None`];
const STR_ARGS = [`0`, `-7`, `123456789`, `2**53`, `-2**64`, `True`, `1.5`, `None`, `"x"`, `""`, `[1, "a"]`, `(1,)`];
const CHR_ARGS = [`0`, `65`, `0xd7ff`, `0xd800`, `0xdfff`, `0xe000`, `0xffff`, `0x10000`, `0x10ffff`, `0x110000`, `-1`, `True`, `2**31`, `2**70`, `1.5`, `"a"`];
const CONCAT_ARGS = [`"x"`, `""`, `"\\x00"`, `"😀"`, `1`, `None`, `["a"]`, `2.0`];
// Not 2**70: our ranges hold numbers, so range(2**70, 0) is an OverflowError (CPython: empty).
const RANGE_ARGS = [`0`, `3`, `-2`, `10`, `0`, `True`, `1.5`, `"a"`, `None`];
const TYPES = [`int`, `str`, `bool`, `tuple`, `(int, str)`, `(float, list)`, `list`, `3`, `"int"`];
const STARTS = [`0`, `-3`, `2**53 - 2`, `2**53`, `2**60`, `-2**53 - 1`];

const pick = (xs: string[]) => fc.constantFrom(...xs);

/** One statement, printing what it computed or the error it raised. */
const STATEMENT = fc.oneof(
  fc.tuple(pick(KEYS)).map(([k]) => `d[${k}] = d.get(${k}, 0) + 1`),
  fc.tuple(pick(KEYS), pick(KEYS)).map(([k, v]) => `d[${k}] = ${v}`),
  fc.tuple(pick(KEYS)).map(([k]) => `show(lambda: d[${k}])`),
  fc.tuple(pick(KEYS)).map(([k]) => `show(lambda: ${k} in d)`),
  fc.tuple(pick(KEYS), pick(KEYS)).map(([k, v]) => `show(lambda: {${k}: 1, "a": 2, ${v}: 3, "b": ${k}})`),
  fc.tuple(pick(INDICES)).map(([i]) => `show(lambda: xs[${i}])`),
  fc.tuple(pick(INDICES)).map(([i]) => `show(lambda: ts[${i}])`),
  fc.tuple(pick(INDICES), pick(KEYS)).map(([i, v]) => `xs[${i}] = ${v}`),
  fc.tuple(pick(STR_ARGS)).map(([x]) => `show(lambda: str(${x}))`),
  fc.tuple(pick(CHR_ARGS)).map(([x]) => `show(lambda: chr(${x}))`),
  fc.tuple(pick(CONCAT_ARGS)).map(([x]) => `s += ${x}`),
  fc.tuple(pick(CONCAT_ARGS)).map(([x]) => `show(lambda: s + ${x})`),
  fc.tuple(pick(STARTS)).map(([n]) => `show(lambda: list(enumerate("abc", ${n})))`),
  fc.tuple(pick(KEYS)).map(([k]) => `show(lambda: (${k} in set(d), ${k} in frozenset(d.keys())))`),
  fc.array(pick(RANGE_ARGS), { minLength: 0, maxLength: 4 }).map((xs) => `show(lambda: list(range(${xs.join(", ")}))[-3:])`),
  fc.tuple(pick(KEYS), pick(TYPES)).map(([v, t]) => `show(lambda: isinstance(${v}, ${t}))`),
);

const PRELUDE = `
KINDS = ((KeyError, "KeyError"), (IndexError, "IndexError"), (TypeError, "TypeError"), (ValueError, "ValueError"), (OverflowError, "OverflowError"))
def failed(e):
    print([n for t, n in KINDS if isinstance(e, t)], e)
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        failed(e)
d = {}
xs = [10, 20, 30, 40, 50]
ts = ("p", "q", "r", "s", "t")
s = ""
`;

/** Each statement in its own try, so that one error does not hide the rest. */
function program(statements: string[]): string {
  const body = statements.map((st) => `try:\n    ${st}\nexcept Exception as e:\n    failed(e)`).join("\n");
  return `${PRELUDE}${body}\nprint(repr(list(d.items())), repr(xs), repr(s))\n`;
}

const PROGRAMS = fc.sample(fc.array(STATEMENT, { minLength: 5, maxLength: 25 }), { seed: 11, numRuns: 150 }).map(program);

describe("the fast paths of the core operations agree with CPython", () => {
  it("prints what CPython prints for 150 random programs", async () => {
    expect((await outputDifferences(PROGRAMS)).slice(0, 2)).toEqual([]);
  });
});

const ELEMENTS = [`0`, `1`, `-1`, `7`, `2**60`, `"a"`, `"b"`, `"ab"`, `""`, `"é"`, `"😀"`, `"\ud7ff"`, `"\ue000"`, `"x" * 70`, `"x" * 69 + "y"`];
const TUPLE = fc.array(pick(ELEMENTS), { minLength: 0, maxLength: 3 }).map((xs) => `(${xs.join(", ")}${xs.length === 1 ? "," : ""})`);
/** A list of tuples where each position mostly holds one type (as rows do), sometimes another. */
const ROWS = fc.oneof(
  fc.array(fc.tuple(fc.integer({ min: -3, max: 3 }), pick([`"a"`, `"b"`, `"ab"`, `"😀"`, `"é"`])), { maxLength: 40 }).map((rows) => `[${rows.map(([n, t]) => `(${t}, ${n})`).join(", ")}]`),
  fc.array(TUPLE, { maxLength: 12 }).map((rows) => `[${rows.join(", ")}]`),
);
const SORTS = fc.sample(fc.tuple(ROWS, fc.boolean()), { seed: 5, numRuns: 200 }).map(
  ([rows, reverse]) => `rows = ${rows}
show(lambda: sorted(rows, reverse=${reverse ? "True" : "False"}))
rows.sort(key=lambda t: t)
show(lambda: rows)`,
);

describe("sorting tuples of ints and strs agrees with CPython", () => {
  it("sorts 200 random lists of tuples as CPython does, TypeErrors included", async () => {
    const programs = SORTS.map((body) => `${PRELUDE}${body}
`);
    expect((await outputDifferences(programs)).slice(0, 2)).toEqual([]);
  });
});

/** Scripts through the fast paths, and [steps, memory_bytes] as the general paths charge them (memory: the size model of sizes.ts). */
const CHARGED: [string, [number, number]][] = [
  [`counts = {}\nfor w in "a b c a b a".split() * 200:\n    counts[w] = counts.get(w, 0) + 1\nRESULT = sorted(counts.items())`, [3621, 10056]],
  [`d = {}\nfor i in range(300):\n    d[str(i)] = "v" * (i % 7)\n    d[i] = i\n    d[(i, 1)] = None\nRESULT = len(d)`, [1461, 69696]],
  [`parts = []\nfor i in range(500):\n    parts.append(str(i))\ntext = ""\nfor i in range(500):\n    text += chr(97 + i % 26)\nRESULT = [len(",".join(parts)), text[-5:]]`, [2657, 15800]],
  [`ts = [(i % 10, -i) for i in range(400)]\nRESULT = sum(t[0] + t[1] + t[-1] for t in ts) + sum(i for i, _ in enumerate(ts, 5))`, [3205, 41600]],
  [`rows = [(w * (i % 3 + 1), i % 5, str(i)) for i in range(300) for w in ("a", "b" * 70)]\nrows.sort(key=lambda r: r[:2])\nRESULT = [sorted(rows)[:3], sorted(rows, reverse=True)[:3]]`, [51841, 185328]],
  [`rs = [{"id": i, "name": f"u{i}", "tags": ["a"] * (i % 3)} for i in range(300)]\nRESULT = sum(r["id"] for r in rs if r["tags"])`, [1894, 153600]],
  // Int keys of a dict and a set (getItem, setItem, `in`, dict.get), a True key among them.
  [`dist = {0: 0, True: "t"}\nseen = set()\nq = [0]\nh = 0\nc = 0\nwhile h < len(q):\n    n = q[h]\n    h += 1\n    for m in ((n * 3 + 1) % 50, (n * 7 + 2) % 50, 2**60 + n % 3):\n        if m not in dist:\n            dist[m] = dist[n] + 1 if n != 1 else 1\n            q.append(m)\n        seen.add(m)\n        g = dist.get(m, -1)\n        c += (m in seen) + (n in dist) + (0 if isinstance(g, str) else g)\ndist[1] = "one"\nRESULT = [len(dist), sum(v for v in dist.values() if isinstance(v, int)), c, repr(dist)[:40]]`, [1478, 8624]],
];

describe("the fast paths charge the budget as before", () => {
  it.each(CHARGED)("%j", async (source, [steps, memory]) => {
    const r = await execute(source);
    expect(r.error).toBeNull();
    expect([r.stats.steps, r.stats.memory_bytes]).toEqual([steps, memory]);
  });
});
