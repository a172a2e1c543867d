// Generator expressions are lazy, as CPython's: each item is computed when a consumer asks for
// it, consumers stop where CPython's stop, and a tool call inside one happens when, and only if,
// CPython would make it. Every snippet runs under python3 too (test/interpreter/cpython.ts).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { setCodegen } from "../../src/interpreter/tiering.js";
import { execute, type Hosts, type SandboxResult } from "../../src/interpreter/execute.js";
import { setYieldAlways } from "../../src/interpreter/runtime.js";
import { cpython } from "./cpython.js";

/** Snippets whose printed output and uncaught error (type and message) must be CPython's. */
const SNIPPETS: Record<string, string[]> = {
  "order of side effects": [
    `def src(n):
    print("iterable", n)
    return range(n)
def f(x):
    print("elt", x)
    return x
g = (f(x) for x in src(3))
print("created")
print(next(g))
print("between")
print(list(g))`,
    `def p(tag, v):
    print(tag, v)
    return v
g = (p("elt", (x, y)) for x in p("outer", [1, 2, 3]) if p("if1", x) != 2 for y in p("inner", [x, x + 1]) if p("if2", y % 2))
print("made")
print(list(g))`,
    `def p(v):
    print("p", v)
    return v
print(sorted(p(x) for x in [3, 1, 2]), min(p(x) for x in [2, 0, 1]), sum(p(x) for x in range(3)))
print("-".join(p(c) for c in "ab"), list(enumerate(p(c) for c in "xy")), dict((p(k), k) for k in "ab"))`,
    `def key(v):
    print("key", v)
    return -v
def p(v):
    print("item", v)
    return v
print(max((p(x) for x in [1, 3, 2]), key=key), min((p(x) for x in [1, 3, 2]), key=key))`,
  ],
  "consumers stop where CPython's stop": [
    `def f(x):
    print("f", x)
    return x
print(any(f(x) > 1 for x in range(5)))
print(all(f(x) < 2 for x in range(5)))
print(next(f(x) for x in range(5) if x > 2))
print(3 in (f(x) for x in range(10)), 9 not in (f(x) for x in range(3)))
print(list(zip((f(x) for x in range(5)), "ab")))
print(list(zip("ab", (f(x) for x in range(5)))))`,
    `def f(x):
    print("f", x)
    return x
a, b = (f(x) for x in range(2))
print(a, b)
try:
    a, b = (f(x) for x in range(5))
except ValueError as e:
    print(e)
try:
    a, b, c = (f(x) for x in range(2))
except ValueError as e:
    print(e)
first, *rest = (f(x) for x in range(4))
print(first, rest)`,
    `def f(x):
    print("f", x)
    return x
for v in (f(x) for x in range(10)):
    if v == 2:
        break
print([v for v in (f(x) for x in range(3)) if v])
print(list(map(lambda v: v * 10, (f(x) for x in range(2)))), list(filter(None, (f(x) for x in range(3)))))
it = enumerate(f(x) for x in range(3))
print(next(it), next(it))`,
  ],
  "exhaustion and sharing": [
    `g = (x * x for x in range(3))
print(list(g), list(g), next(g, "default"))
try:
    next(g)
except StopIteration:
    print("stop")
print(sum(g), any(g), all(g), sorted(g), tuple(g), set(g), dict(g), "".join(g))`,
    `g = (x for x in range(7))
print(next(g), list(zip(g, g)))
g = (x for x in "abcdef")
for c in g:
    print(c, next(g, None))
h = (x for x in range(5))
print(list(enumerate(h, 10)), list(h))
h = (x for x in range(6))
print(next(h), 3 in h, list(h))`,
    `g = (x for x in [])
print(type(g), iter(g) is g, bool(g), type(g) == type(x for x in "a"))
try:
    len(g)
except TypeError as e:
    print(e)
try:
    g[0]
except TypeError as e:
    print(e)`,
  ],
  "closures, outer variables and the walrus": [
    `fs = list(lambda: x for x in range(3))
print([f() for f in fs])
fs = list((lambda y=x: y) for x in range(3))
print([f() for f in fs])
n = 1
g = (x * n for x in range(3))
n = 10
print(list(g))`,
    `def outer():
    k = 2
    g = (x * k for x in range(3))
    k = 3
    return g
print(list(outer()))
def gens():
    return [(i * j for j in range(3)) for i in range(3)]
print([list(g) for g in gens()])
def late():
    gs = [(i * j for j in range(2)) for i in range(3)]
    return [list(g) for g in gs]
print(late())`,
    `print(any((y := x) > 2 for x in range(10)), y)
def w():
    total = sum((last := x) for x in range(4))
    return total, last
print(w())
def counter():
    seen = []
    g = (seen.append(x) or x for x in range(3))
    print(seen)
    print(list(g), seen)
counter()`,
    `print(list(sum(y for y in range(x)) for x in range(5)))
print(list(list(y for y in range(x)) for x in range(3)))
print([list(g) for g in ((x + y for y in range(2)) for x in range(2))])
print(list((x, y) for x in range(3) for y in range(x) if (x + y) % 2))
def depth(n):
    return 0 if n == 0 else 1 + max(depth(n - 1) for _ in [0])
print(depth(60))`,
  ],
  errors: [
    `g = (1 / x for x in [1, 0])
print(next(g))
print(next(g))`,
    `g = (1 // x for x in [1, 0, 2])
print(next(g))
try:
    next(g)
except ZeroDivisionError as e:
    print("caught", e)
print(list(g), next(g, "done"))`,
    `g = (x for x in 5)`,
    `def f():
    raise KeyError("k")
g = (x for x in f())`,
    `print(list(next(iter([])) for _ in range(2)))`,
    `g = (next(g) for _ in range(2))
next(g)`,
    `print(sum(x for x in ["a"]))`,
    `print(dict(x for x in [1]))`,
    `print(dict(x for x in ["ab", "c"]))`,
    `print(set([] for _ in range(1)))`,
    `print("".join(x for x in ["a", 1]))`,
    `print(min(x for x in []))`,
    `print(list(zip((x for x in range(2)), (x for x in range(3)), strict=True)))`,
    `print(list(zip((x for x in range(3)), (x for x in range(3)), (x for x in range(4)), strict=True)))`,
    `d = {1: 1}
g = (k for k in d)
d[2] = 2
print(list(g))`,
    `import asyncio
async def g(x):
    return x
async def f():
    return sum(await g(x) for x in range(3))
try:
    asyncio.run(f())
except TypeError as e:
    print(e)`,
  ],
};

const all = Object.entries(SNIPPETS).flatMap(([area, sources]) => sources.map((source) => ({ area, source })));
const expected = cpython(all.map((c) => c.source));

describe("generator expressions behave as CPython's", () => {
  it.each(all.map((c, i) => [c.area, c.source, i] as const))("%s: %j", async (_area, source, i) => {
    const theirs = expected[i]!;
    const ours = await execute(source);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(ours.error?.type ?? null).toBe(theirs.error?.type ?? null);
    expect(ours.error?.message ?? null).toBe(theirs.error?.message ?? null);
  });
});

// ---------------------------------------------------------------- tracebacks

const TRACEBACK_DRIVER = String.raw`
import contextlib, io, json, sys, traceback
out = []
for source in json.load(sys.stdin):
    frames = None
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(source, "<script>", "exec"), {})
    except BaseException as e:
        frames = [[f.lineno, f.name] for f in traceback.extract_tb(e.__traceback__)[1:]]
    out.append(frames)
print(json.dumps(out))
`;

/** The frames (line, scope) of each source's uncaught exception under python3, outermost first. */
function cpythonFrames(sources: string[]): ([number, string][] | null)[] {
  const run = spawnSync("python3", ["-c", TRACEBACK_DRIVER], { input: JSON.stringify(sources) });
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString());
}

/** The frames of our traceback text, outermost first. */
function ourFrames(r: SandboxResult): [number, string][] | null {
  if (!r.error) return null;
  return [...r.error.traceback.matchAll(/line (\d+), in (\S+)/g)].map((m) => [Number(m[1]), m[2]!]);
}

const TRACEBACKS = [
  "g = (1/x\n     for x in [0])\nlist(g)",
  "g = (x\n     for y in [1]\n     for x in 5)\nlist(g)",
  "g = (x\n     for x in [1]\n     if 1/0)\nlist(g)",
  "def f():\n    return (1/x for x in [0])\ng = f()\nfor v in g:\n    pass",
  "g = (1/x for x in [1, 0])\nfor v in g:\n    print(v)\n    print('b')",
  "def f(): raise ValueError\ng = (x\n     for y in [1]\n     for x in f())\nlist(g)",
  "g = (x\n     for y, z in [1])\nsum(g)",
  "xs = [0]\ng = (\n  1/x\n  for x in xs)\nprint(sum(g))",
  "g = (x for x in 5)",
  "g = (next(g) for _ in range(2))\nnext(g)",
  "def bad(x):\n    return 1 / x\nprint(max(bad(x) for x in [1, 0]))",
  "g = (x for x in [1])\nnext(g)\nnext(g)",
  "x = [\n  1,\n  (y for y in 5)\n]",
  "x = [1, (y for y in\n  5)]",
];

describe("an exception inside a generator expression is reported where CPython reports it", () => {
  const theirs = cpythonFrames(TRACEBACKS);
  it.each(TRACEBACKS.map((s, i) => [s, i] as const))("%j", async (source, i) => {
    expect(ourFrames(await execute(source))).toEqual(theirs[i]);
  });
});

// ---------------------------------------------------------------- tool calls

/** The same tools under python3 (a prelude) and in the sandbox (a host): each call is printed. */
const TOOLS_PRELUDE = `class _Srv:
    def __getattr__(self, name):
        def call(**kw):
            print("->", name, " ".join(f"{k}={v!r}" for k, v in sorted(kw.items())))
            return _TOOLS[name](**kw)
        return call
_TOOLS = {"check": lambda x: x > 2, "size": lambda p: len(p), "get": lambda id: {"id": id}}
srv = _Srv()
`;

const TOOLS: Record<string, (k: Record<string, unknown>) => unknown> = {
  check: (k) => (k.x as number) > 2,
  size: (k) => (k.p as string).length,
  get: (k) => ({ id: k.id }),
};

/** Runs `source` with `srv` as a host; each call's line goes into stdout where it was made. */
async function withTools(source: string): Promise<{ transcript: string; result: SandboxResult }> {
  const calls: { at: number; line: string }[] = [];
  const methods: Hosts[string] = {};
  for (const [name, fn] of Object.entries(TOOLS)) {
    methods[name] = async (_args, kwargs, { budget }) => {
      const shown = Object.keys(kwargs).sort().map((k) => `${k}=${JSON.stringify(kwargs[k]).replace(/"/g, "'")}`);
      calls.push({ at: budget.logBytes, line: `-> ${name} ${shown.join(" ")}\n` });
      // A real tool answers later: the script must wait for it.
      await new Promise((resolve) => setTimeout(resolve, 1));
      return fn(kwargs);
    };
  }
  const result = await execute(source, { hosts: { srv: methods } });
  let transcript = "";
  let from = 0;
  const out = Buffer.from(result.stdout);
  for (const c of calls) {
    transcript += out.subarray(from, c.at).toString() + c.line;
    from = c.at;
  }
  return { transcript: transcript + out.subarray(from).toString(), result };
}

const TOOL_SNIPPETS = [
  `print(any(srv.check(x=x) for x in range(10)))`,
  `print(all(not srv.check(x=x) for x in range(10)))`,
  `print(sum(srv.size(p=p) for p in ["a", "bb", "ccc"]))`,
  `for r in (srv.get(id=i) for i in range(5)):
    print("got", r)
    if r["id"] == 2:
        break`,
  `g = (srv.get(id=i) for i in range(3))
print("made")
print(next(g))
print("then")
print(next(g), next((srv.get(id=i) for i in []), "none"))`,
  `print(list(srv.get(id=i)["id"] for i in range(3)), sorted(srv.size(p=p) for p in ["aaa", "b"]), tuple(srv.size(p=p) for p in ["ab"]))`,
  `print(",".join(str(srv.size(p=p)) for p in ["aaa", "b"]), max(srv.size(p=p) for p in ["aaa", "b"]), min((srv.size(p=p) for p in []), default=9))`,
  `print(list(enumerate(srv.get(id=i)["id"] for i in range(2))), list(zip("ab", (srv.size(p=p) for p in ["x", "yy", "zzz"]))))`,
  `print(dict((p, srv.size(p=p)) for p in ["a", "bb"]), set(srv.size(p=p) for p in ["a", "b"]))`,
  `a, b = (srv.size(p=p) for p in ["a", "bb"])
print(a, b, 2 in (srv.size(p=p) for p in ["a", "bb", "ccc"]), 5 not in (srv.size(p=p) for p in ["a"]))`,
  `print([x for x in (srv.size(p=p) for p in ["a", "bb"]) if x > 1])`,
  `print(list(srv.size(p=p) for p in ["a", "bb", "ccc", "dddd"] if srv.check(x=len(p))))`,
  `print(list(r["id"] for n in [1, 2] for r in (srv.get(id=n * 10 + i) for i in range(n))))`,
  `print(list(map(lambda x: x * 2, (srv.size(p=p) for p in ["a", "bb"]))), list(filter(None, (srv.size(p=p) for p in ["", "bb"]))))`,
  `def sizes(ps):
    return (srv.size(p=p) for p in ps)
g = sizes(["a", "bb"])
print("later")
print(sum(g))`,
  `ids = [3, 1, 2]
found = next((i for i in ids if srv.check(x=i)), None)
print(found)`,
];

describe("a tool call inside a generator expression happens when, and only if, CPython makes it", () => {
  const theirs = cpython(TOOL_SNIPPETS.map((s) => TOOLS_PRELUDE + s));
  it.each(TOOL_SNIPPETS.map((s, i) => [s, i] as const))("%j", async (source, i) => {
    const { transcript, result } = await withTools(source);
    expect(result.error).toBeNull();
    expect(theirs[i]!.error).toBeNull();
    expect(transcript).toBe(theirs[i]!.stdout);
  });

  it("waits for a tool call in a generator consumed by an async function's loop", async () => {
    const { transcript, result } = await withTools(`import asyncio
async def main():
    return [r["id"] for r in (srv.get(id=i) for i in range(2))]
print(asyncio.run(main()))`);
    expect(result.error).toBeNull();
    expect(transcript).toBe("-> get id=0\n-> get id=1\n[0, 1]\n");
  });

  it("refuses, with a RuntimeError, a tool call in a generator a consumer cannot wait for", async () => {
    const { result } = await withTools(`import math
print(math.fsum(srv.size(p=p) for p in ["a", "bb"]))`);
    expect(result.error?.type).toBe("RuntimeError");
    expect(result.error?.message).toMatch(/tool call inside a generator expression cannot run here/);
    // The call was made (as CPython would have made it), and nothing after it.
    expect(result.tool_calls.map((c) => c.arguments)).toEqual([{ p: "a" }]);
  });

  it("waits for a tool call in a generator math.prod consumes (it takes its items paced, as list() does)", async () => {
    const { result } = await withTools(`import math
print(math.prod(srv.size(p=p) for p in ["a", "bb"]))`);
    expect(result.error).toBeNull();
    expect(result.stdout).toBe("2\n");
    expect(result.tool_calls.map((c) => c.arguments)).toEqual([{ p: "a" }, { p: "bb" }]);
  });

  it("refuses a tool call in a generator a sort key consumes, as any tool call in a callback", async () => {
    const { result } = await withTools(`print(sorted(["a", "bb"], key=lambda p: sum(srv.size(p=c) for c in p)))`);
    expect(result.error?.type).toBe("RuntimeError");
    expect(result.tool_calls).toHaveLength(1);
  });

  it("ends a generator whose item a consumer refused: it gives nothing more", async () => {
    const { result } = await withTools(`import math
g = (srv.size(p=p) for p in ["a", "bb"])
try:
    math.fsum(g)
except RuntimeError:
    pass
RESULT = list(g)`);
    expect(result.error).toBeNull();
    expect(result.result).toEqual([]);
  });

  it("raises ValueError when a second task asks a generator for an item while it waits for a tool", async () => {
    const { result } = await withTools(`import asyncio
g = (srv.get(id=i) for i in range(3))
async def take():
    return next(g)
async def main():
    return await asyncio.gather(take(), take())
RESULT = asyncio.run(main())`);
    expect(result.error?.type).toBe("ValueError");
    expect(result.error?.message).toBe("generator already executing");
  });
});

// ---------------------------------------------------------------- budgets and laziness

describe("a lazy generator costs what its consumer takes", () => {
  it.each([
    ["next()", "RESULT = next(x for x in range(10**9))", 0],
    ["next() past a filter", "RESULT = next(x for x in range(10**9) if x == 500)", 500],
    ["any()", "RESULT = any(x > 10 for x in range(10**9))", true],
    ["all()", "RESULT = all(x < 10 for x in range(10**9))", false],
    ["in", "RESULT = 20 in (x for x in range(10**9))", true],
    ["zip()", "RESULT = list(zip('ab', (x for x in range(10**9))))", [["a", 0], ["b", 1]]],
    ["a for loop with break", "for RESULT in (x * 2 for x in range(10**9)):\n    if RESULT > 10:\n        break", 12],
  ])("over range(10**9), %s is instant", async (_name, source, value) => {
    const started = performance.now();
    const r = await execute(source);
    expect(r.error).toBeNull();
    expect(r.result).toEqual(value);
    expect(r.stats.steps).toBeLessThan(5000);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("keeps no list: summing 100k items charges no memory per item", async () => {
    const r = await execute("RESULT = sum(x for x in range(100000))");
    expect(r.result).toBe(4999950000);
    expect(r.stats.memory_bytes).toBeLessThan(1000);
  });

  it("charges a step per item, as CPython's work grows", async () => {
    const steps = async (n: number) => (await execute(`RESULT = sum(x for x in range(${n}))`)).stats.steps;
    const [small, large] = [await steps(1000), await steps(11000)];
    // Two steps per item (the generator's, sum's), whatever the start-up costs.
    expect(large - small).toBe(20000);
  });

  it("charges what list() collects, as it collects it", async () => {
    const r = await execute("RESULT = len(list(str(x) for x in range(10000)))");
    expect(r.result).toBe(10000);
    // A slot and a short str each.
    expect(r.stats.memory_bytes).toBeGreaterThanOrEqual(10000 * 8);
    expect(r.stats.memory_bytes).toBeLessThan(10000 * 64);
  });

  it("stops an endless consumer at max_steps", async () => {
    const r = await execute("RESULT = sum(x for x in range(10**9))");
    expect(r.error?.type).toBe("ResourceLimitError");
    expect(r.error?.message).toMatch(/max_steps/);
  });

  it("gives the event loop turns while a long generator is consumed", async () => {
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      const r = await execute("RESULT = sum(x for x in range(400000))");
      expect(r.error).toBeNull();
    } finally {
      clearInterval(timer);
    }
    expect(turns).toBeGreaterThan(0);
  });

  it("charges a kept generator for its frame", async () => {
    const r = await execute("gs = [(x for x in range(3)) for i in range(1000)]");
    expect(r.error).toBeNull();
    expect(r.stats.memory_bytes).toBeGreaterThan(1000 * 200);
  });
});

describe("both tiers", () => {
  const sources = [...all.map((c) => c.source), "t = 0\nfor k in range(3000):\n    t += sum(x * k for x in range(5) if x % 2)\nRESULT = t"];
  it.each(sources.map((s) => [s] as const))("agree, and a second (hot) run agrees with the first: %j", async (source) => {
    const outcome = (r: SandboxResult) => ({ stdout: r.stdout, result: r.result, error: r.error?.message ?? null });
    try {
      setCodegen("never");
      const closures = outcome(await execute(source));
      setCodegen("always");
      expect(outcome(await execute(source))).toEqual(closures);
      setCodegen("auto");
      expect(outcome(await execute(source))).toEqual(closures);
      expect(outcome(await execute(source))).toEqual(closures);
    } finally {
      setCodegen(process.env.PY_CODEGEN === "always" ? "always" : "auto");
    }
  });
});

describe("suspending anywhere", () => {
  it.each(["never", "always"] as const)("gives CPython's output with every loop head and call suspending (codegen %s)", async (tier) => {
    const differences: string[] = [];
    try {
      setCodegen(tier);
      setYieldAlways(true);
      for (let i = 0; i < all.length; i++) {
        const ours = await execute(all[i]!.source);
        const theirs = expected[i]!;
        if (ours.stdout !== theirs.stdout || (ours.error?.message ?? null) !== (theirs.error?.message ?? null)) {
          differences.push(`${all[i]!.source}\n--- ours ${JSON.stringify([ours.stdout, ours.error?.message])}\n--- CPython ${JSON.stringify([theirs.stdout, theirs.error?.message])}`);
        }
      }
    } finally {
      setYieldAlways(false);
      setCodegen(process.env.PY_CODEGEN === "always" ? "always" : "auto");
    }
    expect(differences.slice(0, 3).join("\n\n")).toBe("");
  });
});

describe("what a generator is", () => {
  it("prints as CPython's, without an address", async () => {
    const r = await execute("print((x for x in []))\nprint(type(x for x in []))");
    expect(r.stdout).toBe("<generator object <genexpr>>\n<class 'generator'>\n");
  });

  it("is an async_generator when it awaits", async () => {
    const r = await execute("async def f(ys):\n    g = (await y for y in ys)\n    print(g)\nimport asyncio\nasyncio.run(f([]))");
    expect(r.stdout).toBe("<async_generator object <genexpr>>\n");
  });
});
