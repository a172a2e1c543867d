// The JavaScript tier (src/interpreter/codegen.ts) against the closure tier: the same scripts,
// with tool calls that really suspend (they settle on a later turn of the event loop), must give
// the same result, output, error, tool calls and step count in both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledUnitCount, rejectedUnitCount } from "../../src/interpreter/codegen.js";
import { setCodegen, setTierUp } from "../../src/interpreter/tiering.js";
import { execute, type Hosts, type SandboxResult } from "../../src/interpreter/execute.js";
import { setYieldAlways } from "../../src/interpreter/runtime.js";
import { programs } from "./generate.js";
import { expectResultAsCPython } from "./cpython.js";

// The first-run scripts here are sized for moves at the 1000th call (compile.ts's defaults are higher).
beforeAll(() => setTierUp(1000, 1000));

afterAll(() => {
  // Every unit these tests compiled was valid JavaScript.
  expect(rejectedUnitCount()).toBe(0);
  setCodegen(process.env.PY_CODEGEN === "always" ? "always" : "auto");
  setYieldAlways(false);
  setTierUp();
});

/** A server whose tools answer after a timer, so every call suspends the script. */
function hosts(log: string[] = []): Hosts {
  const later = <T>(v: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(v), 1));
  return {
    srv: {
      double: async (args, kwargs) => {
        const n = (args[0] ?? kwargs.n) as number;
        log.push(`double ${n}`);
        return later(n * 2);
      },
      fail: async (args) => {
        log.push(`fail ${String(args[0])}`);
        await later(null);
        throw new Error(`no such item: ${String(args[0])}`);
      },
      items: async () => later([{ id: 1, tags: ["a"] }, { id: 2, tags: [] }, { id: 3, tags: ["b", "c"] }]),
    },
  };
}

interface Outcome {
  result: unknown;
  stdout: string;
  error: string | null;
  steps: number;
  /** The memory charged: the tier's shortcuts (dict and list items, displays, methods called at the site) charge as the general paths do. */
  memory: number;
  calls: string[];
}

async function run(source: string, tier: "never" | "always", limits?: Record<string, number>): Promise<Outcome> {
  setCodegen(tier);
  const log: string[] = [];
  const r: SandboxResult = await execute(source, { hosts: hosts(log), limits });
  return {
    result: r.result,
    stdout: r.stdout,
    error: r.error ? `${r.error.type}: ${r.error.message} (line ${r.error.line})` : null,
    steps: r.stats.steps,
    memory: r.stats.memory_bytes,
    calls: log,
  };
}

async function bothTiers(source: string, limits?: Record<string, number>): Promise<Outcome> {
  const closures = await run(source, "never", limits);
  const js = await run(source, "always", limits);
  expect(js).toEqual(closures);
  return js;
}

const SCRIPTS: Record<string, string> = {
  "a call in a loop in a function": `
def total(n):
    s = 0
    for i in range(n):
        s += srv.double(i)
    return s
RESULT = [total(4), total(0)]`,
  "left operands are evaluated before a call that suspends": `
x = 1
def bump():
    global x
    x = 10
    return srv.double(1)
RESULT = [x + bump(), x]`,
  "calls inside and/or, conditional expressions, f-strings and dicts": `
a = 0 or srv.double(2)
b = 1 and srv.double(3)
c = srv.double(4) if a > 3 else srv.fail("never")
d = f"{srv.double(5):>5}|{srv.double(6)!r}"
e = {"k": srv.double(7), srv.double(8): [srv.double(9)]}
RESULT = [a, b, c, d, e]`,
  "a call in a while test, break, continue and else": `
i = 0
seen = []
while srv.double(i) < 12:
    i += 1
    if i == 2:
        continue
    if i == 5:
        break
    seen.append(i)
else:
    seen.append("else")
for n in range(3):
    seen.append(srv.double(n))
else:
    seen.append("for-else")
RESULT = seen`,
  "tuple targets and nested loops over a tool's result": `
out = []
for item in srv.items():
    for j, tag in enumerate(item["tags"]):
        out.append((item["id"], j, tag, srv.double(item["id"])))
RESULT = out`,
  "a tool error raised where the call was, caught outside": `
def get(i):
    v = srv.fail(i)
    return v
try:
    get(3)
except ToolError as e:
    RESULT = ["caught", str(e)]`,
  "a tool error inside a loop ends the script with its line": `
s = 0
for i in range(3):
    s += srv.double(i)
    if i == 1:
        srv.fail(i)
RESULT = s`,
  "keyword arguments and method calls on results": `
r = srv.double(n=21)
parts = "a,b,c".split(",")
parts.append(str(r))
RESULT = "-".join(parts).upper()`,
  "recursion deep enough to unwind the stack": `
def depth(n):
    if n == 0:
        return 0
    return depth(n - 1) + 1
RESULT = depth(900)`,
  "recursion past the limit": `
def down(n):
    return down(n + 1)
down(0)`,
  "unbound local, free variables and closures": `
def outer():
    k = srv.double(1)
    def inner(y):
        return k + y
    return [inner(i) for i in range(3)]
def broken():
    if False:
        z = 1
    return z
r = outer()
try:
    broken()
except UnboundLocalError as e:
    r.append(str(e))
RESULT = r`,
  "globals shadowing builtins and deleted again": `
len = lambda x: 42
a = len([1])
del len
RESULT = [a, len([1, 2])]`,
  "big ints, floats and mixed arithmetic": `
a = 2 ** 62
b = a * 4 + 7
c = -(b // 3) % 11
d = 7.5 // 2 - 3 * 0.5
e = [x * -1 for x in (0, 3)]
RESULT = [b, c, d, e, 9007199254740991 + 2, -7 // 2, 7 % -3, -0 * 5]`,
  "dict.get under str, NUL-led, int and tuple keys, and on what is not a dict": `
d = {"a": 1, "\\x00b": 2, 3: 4, (1, 2): 5}
r = [d.get("a"), d.get("zz"), d.get("zz", srv.double(4)), d.get("\\x00b"), d.get(3), d.get((1, 2), 0)]
try:
    d.get([1])
except TypeError as e:
    r.append(str(e))
try:
    "s".get("x")
except AttributeError as e:
    r.append(str(e))
RESULT = r`,
  "list.append, and append on what is not a list": `
xs = []
for i in range(3):
    xs.append([i] * i)
xs.append(srv.double(5))
ys = xs
ys.append(xs)
try:
    (1, 2).append(3)
except AttributeError as e:
    xs.append(str(e))
try:
    xs.append()
except TypeError as e:
    xs.append(str(e))
RESULT = [len(xs), xs[:4], xs[5:], xs[4] is xs]`,
  "calls entered directly between compiled functions: locals, a callee that suspends, cells": `
def add(a, b):
    c = a + b
    return c
def fetch(i):
    v = srv.double(i)
    return add(v, 1)
def bad(d):
    return d["missing"]
def cells(n):
    def get():
        return n
    return get()
out = [add(i, fetch(i)) for i in range(3)]
out.append(cells(5))
try:
    bad({})
except KeyError as e:
    out.append(str(e))
RESULT = out`,
  "an error escaping calls entered directly keeps the innermost line": `
def inner(x):
    return x // 0
def outer(x):
    y = inner(x)
    return y
outer(srv.double(3))`,
  "callbacks given to built-ins: sort keys, map, an error inside, a tool call refused": `
def key(p):
    return (p[1], -p[0])
pairs = [(i, i % 3) for i in range(10)]
a = sorted(pairs, key=key)
b = list(map(lambda x: x * 2, range(5)))
c = sorted(["b", "A", "c"], key=str.lower)
def bad(x):
    return x["k"]
try:
    sorted([1, 2], key=bad)
except TypeError as e:
    d = str(e)
def tool_key(x):
    return srv.double(x)
try:
    sorted([1, 2], key=tool_key)
except RuntimeError as e:
    g = str(e)
RESULT = [a, b, c, d, g]`,
  "augmented assignment to subscripts and lists": `
d = {"a": 1}
d["a"] += srv.double(2)
xs = [1]
ys = xs
xs += [srv.double(3)]
m = [[0, 0], [0, 0]]
m[1][0] -= 5
RESULT = [d, xs is ys, xs, m]`,
  "the memory charged by displays, comprehensions, stores and unpacking of every kind of value": `
def f(i):
    return lambda: i
vals = [1, 2**40, 2**80, 0.5, "s", "longer str", "\u00e9t\u00e9", (1, "a"), [1], {"k": 1}, {1}, f(1), [].append, range(3), b"ab", None]
xs = [v for v in vals if v is not None]
d = {i: v for i, v in enumerate(vals)}
d2 = {"a": vals[3], "b": vals[7], (1, 2): "t"}
s = {v for v in vals if not isinstance(v, (list, dict, set))}
t = [(v, v) for v in vals]
ys = []
for v in vals:
    ys.append(v)
    d[str(v)] = v
a, b = t[0]
p, *q = vals
z = [*vals, *"ab", 1]
RESULT = [len(xs), len(d), len(d2), len(s), len(t), len(ys), len(z), srv.double(len(q))]`,
};

/** Float arithmetic, which the JS tier does inline (signed zeros, inf, nan, mixed with ints and bools). */
const FLOATS = `
a, b, x, z, n = 7, 2, 1.5, 0.0, -0.0
big = 2**60
values = [a / b, -a / b, 1 / 3, 10**15 / 7, 0 / 5, x * 2, 2 * x, x + 1, 1 + x, x - 3, 3 - x, x / 2, 2 / x,
          x * x, n * 1, 1 * n, n + 0, 0 + n, n - 0, 0 - n, z * -1, 1e308 * 10, -1e308 * 10, True / 2, x + True,
          big / 3, big * 0.5, 9007199254740993 / 1, 2**53 + 1.0, float("inf") - float("inf"), float("nan") * 0]
s = 0.5
for i in range(5):
    s += i * 0.25
    s -= 0.125
errors = []
for p, q in [(1, 0), (1.5, 0), (1, 0.0), (0.0, -0.0)]:
    try:
        p / q
    except ZeroDivisionError as e:
        errors.append(str(e))
RESULT = [repr(v) for v in values] + [repr(s), errors]`;

/** Comparisons the JS tier does inline: floats against floats and ints, str keys in dicts. */
const COMPARISONS = `
d = {"a": 1, "\\0x": 2, 3: 4, (1, 2): 5}
s = {"a", 3}
x, y, n = 1.5, 2, float("nan")
out = []
for k in ["a", "b", "\\0x", "", 3, 3.0, (1, 2), True]:
    out.append([k in d, k not in d])
out.append(["a" in s, "b" not in s, "bc" in "abc", "x" in "abc", 3 in [1, 2, 3], 1 in range(3)])
out.append([x < y, y < x, x <= 1.5, 1.5 >= x, x > 1, 1 > x, n < 1, n > 1, n <= n, 2**60 < 1.5e18, 1.5e18 < 2**60,
            2**53 + 1 > 2.0**53, -0.0 < 0, 0 <= -0.0, True < 1.5, 1.5 > False])
for bad in [lambda: 5 in 5, lambda: [] in d, lambda: 1.5 < "a", lambda: 3 in "abc"]:
    try:
        bad()
    except TypeError as e:
        out.append(str(e))
RESULT = out`;

/** dict.get and list.append, which the JS tier does at the call site. */
const METHODS = `
d = {"a": 1, "\\0x": 2, 3: 4, (1, 2): 5, "n": None}
out = [d.get("a"), d.get("b"), d.get("b", 7), d.get("\\0x"), d.get(3), d.get(3.0), d.get((1, 2)), d.get("n", 9), d.get(True, "t")]
xs = []
for i in range(5):
    xs.append(i)
    xs.append(str(i) * i)
out.append(xs)
out.append([xs.append(None), len(xs)])
for bad in [lambda: d.get(), lambda: d.get(1, 2, 3), lambda: d.get([]), lambda: xs.append(), lambda: xs.append(1, 2), lambda: "s".get("a"), lambda: d.append(1), lambda: (1,).append(1)]:
    try:
        bad()
    except (TypeError, AttributeError) as e:
        out.append(["TypeError" if isinstance(e, TypeError) else "AttributeError", str(e)])
RESULT = out`;

/** Negative indexes and tuple unpacking, which the JS tier does inline. */
const UNPACKING = `
xs, tup = [1, 2, 3], (4, 5)
out = [xs[-1], xs[-3], tup[-2], tup[-1], xs[0]]
xs[-1] += 10
out.append(xs)
for k, v in {"a": 1, "b": 2}.items():
    out.append([k, v])
for i, (a, b) in enumerate([(1, 2), (3, 4)]):
    out.append([i, a, b])
a, b = "xy"
c, d = [7, 8]
out.append([a, b, c, d])
for bad in [lambda: xs[-4], lambda: tup[-3], lambda: xs[3]]:
    try:
        bad()
    except IndexError as e:
        out.append(str(e))
for value in [(1, 2, 3), (1,), 5, [1]]:
    try:
        p, q = value
    except (ValueError, TypeError) as e:
        out.append(str(e))
RESULT = out`;

/** Starred elements in list and tuple displays, which the JS tier splices itself. */
const STARRED = `
xs = [1, 2]
d = {"a": 1}
out = [[*xs, 5], (*xs,), (*xs, *d), [*"ab", *range(3), *d.items()], [*map(str, xs)], (*[],), [*xs][0]]
for bad in [lambda: [*5], lambda: (1, *None)]:
    try:
        bad()
    except TypeError as e:
        out.append(str(e))
RESULT = [repr(v) for v in out]`;

/** Scripts of the JS tier's inline paths, which both tiers must run as CPython does. */
const AS_CPYTHON: Record<string, string> = {
  "computes float arithmetic": FLOATS,
  "calls dict.get and list.append": METHODS,
  "indexes from the end and unpacks tuples": UNPACKING,
  "splices starred elements into list and tuple displays": STARRED,
  "compares floats and finds str keys in dicts": COMPARISONS,
};

describe("the JavaScript tier matches the closure tier", () => {
  for (const [name, source] of Object.entries(SCRIPTS)) {
    it(name, async () => {
      await bothTiers(source);
    });
  }

  for (const [name, source] of Object.entries(AS_CPYTHON)) {
    it(`${name} as the closure tier and CPython do`, async () => {
      await bothTiers(source);
      await expectResultAsCPython(source);
    });
  }

  it("charges list.append's memory as it stores: both tiers stop at the same item", async () => {
    await bothTiers("xs = []\nfor i in range(100000):\n    xs.append('x' * 50)", { max_memory_bytes: 1_000_000 });
  });

  it("suspends at every call: results are the tools' answers, in call order", async () => {
    const r = await bothTiers(SCRIPTS["calls inside and/or, conditional expressions, f-strings and dicts"]!);
    expect(r.error).toBeNull();
    expect(r.result).toEqual([4, 6, 8, "   10|12", { k: 14, "16": [18] }]);
    expect(r.calls).toEqual(["double 2", "double 3", "double 4", "double 5", "double 6", "double 7", "double 8", "double 9"]);
  });

  it("answers dict.get, called at its site, as CPython's dict.get", async () => {
    const r = await bothTiers(SCRIPTS["dict.get under str, NUL-led, int and tuple keys, and on what is not a dict"]!);
    expect(r.result).toEqual([1, null, 8, 2, 4, 5, "unhashable type: 'list'", "'str' object has no attribute 'get'"]);
  });

  it("evaluates operands left to right around a suspension", async () => {
    const r = await bothTiers(SCRIPTS["left operands are evaluated before a call that suspends"]!);
    expect(r.result).toEqual([3, 10]);
  });

  it("raises a tool's error at the call, inside the loop's line", async () => {
    const r = await bothTiers(SCRIPTS["a tool error inside a loop ends the script with its line"]!);
    expect(r.error).toBe("ToolError: no such item: 1 (line 6)");
  });

  it("counts the same steps, so max_steps stops both tiers at the same point", async () => {
    const source = "s = 0\nfor i in range(100000):\n    s += i\nRESULT = s";
    const r = await bothTiers(source, { max_steps: 5000 });
    expect(r.error).toMatch(/max_steps/);
  });

  it("moves a hot function of a first run to the JS tier mid-run, suspended calls included", async () => {
    const source = `
def step(i, acc):
    if i % 700 == 0:
        acc = acc + srv.double(i)
    return acc + i % 3
acc = 0
for i in range(3000):
    acc = step(i, acc)
RESULT = acc`;
    const closures = await run(source, "never");
    setCodegen("auto");
    const log: string[] = [];
    const before = compiledUnitCount();
    const first = await execute(source + "\n# a new script: its first run", { hosts: hosts(log) });
    // step() was compiled at its 1000th call, the module's loop at its 1000th iteration; the
    // module body was not (a first run).
    expect(compiledUnitCount() - before).toBe(2);
    expect(first.error).toBeNull();
    expect(first.result).toBe(closures.result);
    expect(first.stats.steps).toBe(closures.steps);
    expect(log).toEqual(closures.calls);
  });

  it("compiles a repeated script only when its runs do enough work", async () => {
    setCodegen("auto");
    const light = "total = 0\nfor i in range(50):\n    total += i\nRESULT = total # light";
    const heavy = "total = 0\nfor i in range(20000):\n    total += i\nRESULT = total # heavy";
    const units: number[] = [];
    for (let run = 0; run < 4; run++) {
      const before = compiledUnitCount();
      expect((await execute(light)).result).toBe(1225);
      units.push(compiledUnitCount() - before);
    }
    // A short script never pays for compiling, however often it runs.
    expect(units).toEqual([0, 0, 0, 0]);
    units.length = 0;
    for (let run = 0; run < 6; run++) {
      const before = compiledUnitCount();
      expect((await execute(heavy)).result).toBe(199990000);
      units.push(compiledUnitCount() - before);
    }
    // Each of the first two runs (a new parse each: the second is kept) moves its loop to the JS
    // tier at its 1000th iteration; the run after them compiles the module body, once.
    expect(units).toEqual([1, 1, 1, 0, 0, 0]);
  });

  it("gives the event loop turns during a long loop", async () => {
    setCodegen("always");
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const r = await execute("t = 0\nfor i in range(3000000):\n    t += i & 3\nRESULT = t", { limits: { max_steps: 10_000_000 } });
    clearInterval(timer);
    expect(r.error).toBeNull();
    expect(r.result).toBe(4500000);
    expect(ticks).toBeGreaterThan(2);
  });

  it("resumes correctly anywhere: generated programs suspending at every loop head and call", { timeout: 60_000 }, async () => {
    const differences: string[] = [];
    for (const source of programs(4242, 300)) {
      const closures = await run(source, "never");
      setYieldAlways(true);
      let js: Outcome;
      try {
        js = await run(source, "always");
      } finally {
        setYieldAlways(false);
      }
      // Steps differ only by budget errors (a yield is not a step); compare what the script did.
      if (JSON.stringify([js.result, js.stdout, js.error]) !== JSON.stringify([closures.result, closures.stdout, closures.error])) {
        differences.push(`${source}\n--- js tier, yielding: ${JSON.stringify(js)}\n--- closures: ${JSON.stringify(closures)}`);
      }
    }
    expect(differences.slice(0, 3).join("\n\n")).toBe("");
  });
});
