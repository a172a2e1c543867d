// Differential tests of the closure tier's shortcuts: unpacking into names, calls that leave
// trailing parameters to their defaults, and the innermost clause of a list or set comprehension
// run inline. Random programs mix the fast cases with the ones beside them (a wrong length, a str,
// an iterator, a starred target, a subscript target, keywords, too few or too many arguments,
// nested clauses, two conditions, a dict comprehension), all in ONE python3 process, and ours
// must print the same, errors included. Budget charges are pinned to the figures of the build
// before the shortcuts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { outputDifferences } from "./cpython.js";

const SOURCES = [`(1, 2)`, `[1, 2]`, `(1, 2, 3)`, `[1, 2, 3]`, `()`, `(1,)`, `"ab"`, `"abc"`, `iter([4, 5])`, `{7: 1, 8: 2}`, `range(2)`, `None`, `5`, `[[1, 2], 3]`];
const TARGETS = [`a, b`, `a, b, c`, `(a, b)`, `[a, b]`, `a, *b`, `a, box[0]`, `a, (b, c)`, `g, b`];
const COMPREHENSIONS = [
  `[a for a in SRC]`, `[a * 2 for a in SRC if a]`, `sorted({a for a in SRC if a != 1}, key=repr)`, `[a for a in SRC if a if a != 2]`,
  `[(a, b) for a in SRC for b in SRC if b]`, `{a: 1 for a in SRC if a}`, `[a + b for a, b in [SRC, SRC]]`, `[[b for b in a] for a in [SRC]]`,
  `[a for a in SRC if 1 / a]`, `[1 / a for a in SRC]`, `[g for g in SRC]`, `[a for a in SRC if (g := a)]`,
];
const CALLS = [`f()`, `f(1)`, `f(1, 2)`, `f(1, 2, 3)`, `f(1, 2, 3, 4)`, `f(1, 2, 3, 4, 5)`, `f(1, c=9)`, `f(a=1, b=2)`, `h(1)`, `h(1, 2)`, `h()`];

const pick = (xs: string[]) => fc.constantFrom(...xs);
const STATEMENT = fc.oneof(
  fc.tuple(pick(TARGETS), pick(SOURCES)).map(([t, s]) => `${t} = ${s}\n    show(a, b)`),
  fc.tuple(pick(TARGETS), pick(SOURCES)).map(([t, s]) => `for ${t} in [${s}, ${s}]:\n        show(a, b)`),
  fc.tuple(pick(TARGETS), pick(SOURCES)).map(([t, s]) => `show([a for ${t} in [${s}]], a)`),
  fc.tuple(pick(SOURCES)).map(([s]) => `show(list(a + b for a, b in [${s}]))`),
  fc.tuple(pick(CALLS)).map(([c]) => `show(${c})`),
  fc.tuple(pick(COMPREHENSIONS), pick(SOURCES)).map(([c, s]) => `show(${c.replace(/SRC/g, s)})`),
);

const PRELUDE = `
g = 0
def show(*xs):
    print(repr(xs))
def f(a, b=2, c=[3], d="d"):
    return (a, b, c, d)
def h(x, y=None):
    def inner():
        return (x, y)
    return inner()
`;

/** Each statement in its own function and try, at module level and in a function, so that names are locals or globals. */
function program(statements: string[]): string {
  const body = statements.map((st, i) => `def t${i}():\n    a = b = c = None\n    box = [0]\n    ${st}\ntry:\n    t${i}()\nexcept Exception as e:\n    print(type(e).__name__, e)`).join("\n");
  const top = statements.map((st) => `try:\n    a = b = c = None\n    box = [0]\n    ${st.replace(/\n    /g, "\n    ")}\nexcept Exception as e:\n    print(type(e).__name__, e)`).join("\n");
  return `${PRELUDE}${body}\n${top}\nprint(g)\n`;
}

const PROGRAMS = fc.sample(fc.array(STATEMENT, { minLength: 3, maxLength: 12 }), { seed: 21, numRuns: 120 }).map(program);

describe("unpacking into names and calls with defaults agree with CPython", () => {
  it("prints what CPython prints for 120 random programs", async () => {
    expect((await outputDifferences(PROGRAMS)).slice(0, 2)).toEqual([]);
  });

  it("charges the budget as before the shortcuts", async () => {
    const r = await execute(SCRIPT);
    expect(r.error).toBeNull();
    expect(JSON.stringify(r.result)).toBe(RESULT);
    expect([r.stats.steps, r.stats.memory_bytes]).toEqual([586, 8552]);
  });
});

const SCRIPT = `def f(p, q, r=10, s="x"):
    return [p, q, r, s]
def g(n, pairs):
    total = 0
    for a, b in pairs:
        total += a * b
    x, y = pairs[0]
    u, v, w = [n, n + 1, n + 2]
    return [total, x, y, u + v + w, f(n, 2), f(n, 2, 3), f(n, 2, s="y")]
pairs = [(i, i + 1) for i in range(50)] + [[7, 8]]
out = [g(3, pairs)]
out.append(sum(a * b for a, b in zip(range(20), range(20, 40))))
out.append([k + str(v) for k, v in {"a": 1, "b": 2}.items()])
m1, m2 = "ab"
out.append(m1 + m2)
RESULT = out
RESULT.append([[x * y for x in range(12) if x % 3] for y in range(9)])
RESULT.append(sorted({w[0] for w in ["ab", "cd", "ae"] if w}))
RESULT.append(len([p for p in RESULT[0][6]]))
`;
const RESULT = `[[41706,0,1,12,[3,2,10,"x"],[3,2,3,"x"],[3,2,10,"y"]],6270,["a1","b2"],"ab",[[0,0,0,0,0,0,0,0],[1,2,4,5,7,8,10,11],[2,4,8,10,14,16,20,22],[3,6,12,15,21,24,30,33],[4,8,16,20,28,32,40,44],[5,10,20,25,35,40,50,55],[6,12,24,30,42,48,60,66],[7,14,28,35,49,56,70,77],[8,16,32,40,56,64,80,88]],["a","c"],4]`;
