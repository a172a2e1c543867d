// The forms of issue 19 at the grammar level: decorators, top-level await and return, the
// readable double-underscore attributes, and CPython's checks of `global` and `nonlocal`.
// CPython's `compile()` (with PyCF_ALLOW_TOP_LEVEL_AWAIT, as asyncio's REPL compiles) is the oracle
// for what is accepted and for each SyntaxError's message and range; its `ast` for the trees.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { tryParse } from "../../grammar/parse.js";
import { cpythonAsts, normalize } from "./normalize.js";

const COMPILE = String.raw`
import ast, json, sys
out = []
for src in json.load(sys.stdin):
    try:
        compile(src, "<script>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        out.append(None)
    except SyntaxError as e:
        out.append([type(e).__name__, e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset])
print(json.dumps(out))
`;

type Outcome = [string, string, number, number, number, number] | null;

function compiled(sources: readonly string[]): Outcome[] {
  const run = spawnSync("python3", ["-c", COMPILE], { input: JSON.stringify(sources) });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as Outcome[];
}

function ours(source: string): Outcome {
  const r = tryParse(source);
  if (r.ok) return null;
  const e = r.error;
  return [e.type, e.message, e.line, e.column, e.endLine, e.endColumn];
}

/** Sources whose outcome (accepted, or the SyntaxError and its range) must be CPython's. */
const AS_CPYTHON: Record<string, string[]> = {
  decorators: [
    "@d\ndef f():\n    pass\n",
    "@a.b(c)\n@d\n@e(1, k=2)\ndef f(x):\n    return x\n",
    "@d\n\n# a comment\n\ndef f():\n    pass\n",
    "@d\nasync def f():\n    await g()\n",
    "@x := y\ndef f(): pass\n",
    "@lambda f: f\ndef f(): pass\n",
    "@x if y else z\ndef f(): pass\n",
    "@x[0].y(1)(2)\ndef f(): pass\n",
    "@(a)\ndef f(): pass\n",
    "if c:\n    @d\n    def f(): pass\n",
    "def outer():\n    @d\n    def inner(): pass\n    return inner\n",
    "@await make()\ndef f(): pass\n",
    "@",
    "@\n",
    "@x y\ndef f(): pass\n",
    "@x\n@\ndef f(): pass\n",
    "@x,\ndef f(): pass\n",
    "@x = 1\ndef f(): pass\n",
    "@x\nx = 1\n",
    "@x\nif 1: pass\n",
    "@x\nreturn 1\n",
    "x = 1 @ 2\n",
  ],
  "top-level await": [
    "r = await srv.tool_async(x=1)\n",
    "await asyncio.gather(a(), b())\n",
    "await asyncio.sleep(0)\n",
    "if await f():\n    pass\nwhile await g():\n    break\nfor x in await h():\n    print(await x)\n",
    "try:\n    await f()\nexcept E:\n    await g()\nfinally:\n    await h()\n",
    "xs = [await f(x) for x in y]\n",
    "d = {k: await f(k) for k in y}\n",
    "async def m(a=await d()):\n    pass\n",
    "def f(a=await d()):\n    pass\n",
    "x = (await f()) + await g()\n",
    "x = lambda: await f()\n",
    "def f():\n    await g()\n",
    "async def f():\n    def g():\n        await h()\n",
    "async def f():\n    return lambda: await x\n",
    "def f():\n    [await x for x in y]\n",
    "def f():\n    {x: await x for x in y}\n",
    "def f():\n    [x for x in y if await x]\n",
    "def f():\n    [[await x for x in y] for z in w]\n",
    "def f():\n    [x for x in await y]\n",
    "def f():\n    [x for x in [await y for y in z]]\n",
    "lambda: [await x for x in y]\n",
    "async def f():\n    lambda: [await x for x in y]\n",
    "async def f():\n    return [await x for x in y]\n",
    "def f():\n    for x in y:\n        pass\n    break\n",
  ],
  "nonlocal and global": [
    "def f():\n    nonlocal x\n",
    "def f():\n    def g():\n        nonlocal x\n",
    "x = 1\ndef f():\n    def g():\n        nonlocal x\n",
    "def f():\n    x = 1\n    def g():\n        global x\n        def h():\n            nonlocal x\n",
    "def f():\n    x = 1\n    def g():\n        def h():\n            nonlocal x\n",
    "def f():\n    global x\n    def g():\n        nonlocal x\n",
    "def f():\n    nonlocal x, y\n",
    "def f():\n    def g():\n        nonlocal y\n    def h():\n        nonlocal x\n",
    "def f():\n    x = 1\n    def g():\n        nonlocal x\n    nonlocal y\n",
    "def f():\n    def g():\n        nonlocal x\n    nonlocal y\n",
    "def g():\n    print(x)\n    def f():\n        nonlocal x\n",
    "def g():\n    def f():\n        nonlocal x\n    x = 2\n",
    "def g(x):\n    def f():\n        nonlocal x\n",
    "def g(*x):\n    def f():\n        nonlocal x\n",
    "def g():\n    import x\n    def f():\n        nonlocal x\n",
    "def g():\n    [x := 1 for _ in r]\n    def f():\n        nonlocal x\n",
    "def g():\n    try:\n        pass\n    except E as x:\n        pass\n    def f():\n        nonlocal x\n",
    "def g():\n    def x():\n        pass\n    def f():\n        nonlocal x\n",
    "def g():\n    for x in y:\n        pass\n    def f():\n        nonlocal x\n",
    "def g():\n    x: int\n    def f():\n        nonlocal x\n",
    "def h():\n    x = 1\n    def g():\n        nonlocal x\n        def f():\n            nonlocal x\n",
    "def g():\n    nonlocal x\n    def f():\n        nonlocal x\n",
    "def g():\n    x = 1\n    def f():\n        nonlocal x, x\n",
    "def g():\n    x = 1\n    def f():\n        nonlocal x\n        global x\n",
    "def g():\n    x = 1\n    def f():\n        global x\n        nonlocal x\n",
    "def f(a):\n    nonlocal a\n",
    "def f(a):\n    global a\n",
    "def f():\n    x = 1\n    nonlocal x\n",
    "def f():\n    print(x)\n    global x\n",
    "def f():\n    x: int\n    global x\n",
    "def g():\n    x = 1\n    def f():\n        x: int = 1\n        nonlocal x\n",
    "def g():\n    x = 1\n    def f():\n        nonlocal x\n        x: int = 1\n",
    "def f():\n    global x\n    x: int = 1\n",
    "global x\nx: int = 1\n",
    "x = 1\nglobal x\n",
    "print(x)\nglobal x\n",
    "import x\nglobal x\n",
    "def f():\n    x += 1\n    global x\n",
    "def f():\n    x[0] = 1\n    global x\n",
    "def f():\n    x.y = 1\n    global x\n",
    "def f():\n    del x\n    global x\n",
    "def f():\n    (x := 1)\n    global x\n",
    "def f():\n    [(x := 1) for _ in r]\n    global x\n",
    "def f():\n    [x for x in y]\n    global x\n",
    "def f():\n    [y for y in x]\n    global x\n",
    "def f():\n    lambda x: 0\n    global x\n",
    "def f():\n    @x\n    def g():\n        pass\n    global x\n",
    "def f():\n    def g(a=x):\n        pass\n    global x\n",
    "def f():\n    def g(a: x):\n        pass\n    global x\n",
    "def f():\n    try:\n        pass\n    except E:\n        global x\n    else:\n        x = 1\n",
    "def f():\n    for x in []:\n        pass\n    else:\n        global x\n",
    "def f():\n    global x\n    x = 1\n    global x\n",
    "nonlocal x\n",
    "if c:\n    nonlocal x\n",
    "def f():\n    return 1\nnonlocal x\n",
    "break\ndef f():\n    nonlocal x\n",
    "def f():\n    nonlocal x\nbreak\n",
    "def outer():\n    x = 1\n    def inner():\n        nonlocal x\n        x += 1\n        return x\n    return inner\n",
  ],
  "double-underscore attributes": [
    "x = type(e).__name__\ny = e.__class__.__name__\nz = f.__doc__\n",
  ],
};

const CASES = Object.entries(AS_CPYTHON).flatMap(([area, sources]) => sources.map((source) => ({ area, source })));
const theirs = compiled(CASES.map((c) => c.source));

describe("accepted and rejected as CPython compiles it", () => {
  it.each(CASES.map((c, i) => [c.area, c.source, i] as const))("%s: %j", (_area, source, i) => {
    expect(ours(source)).toEqual(theirs[i]);
  });
});

describe("deliberate differences", () => {
  it("accepts `return` at module level (CPython: 'return' outside function)", () => {
    const sources = ["return 42\n", "if x:\n    return\ny = 1\n", "for x in y:\n    return x\n", "try:\n    return 1\nfinally:\n    pass\n"];
    const cpython = compiled(sources);
    for (const [i, source] of sources.entries()) {
      expect(cpython[i]?.[1]).toBe("'return' outside function");
      expect(ours(source)).toBeNull();
    }
  });

  it("reports a decorator at the end of the script after it, where CPython reports column 0", () => {
    expect(compiled(["@x\n"])[0]).toEqual(["SyntaxError", "invalid syntax", 1, 0, 1, 0]);
    expect(ours("@x\n")).toEqual(["SyntaxError", "invalid syntax", 2, 1, 2, 1]);
  });
});

describe("what stays refused", () => {
  it.each([
    ["a decorated class", "@d\nclass C:\n    pass\n", "class definitions are not supported in the sandbox"],
    ["async for after a decorator", "@d\nasync for a in b:\n    pass\n", "'async for' is not supported in the sandbox"],
    ["async for", "async def f():\n    async for x in y:\n        pass\n", "'async for' is not supported in the sandbox"],
    ["async with", "async def f():\n    async with y:\n        pass\n", "'async with' is not supported in the sandbox"],
    ["with", "with x:\n    pass\n", "'with' statements are not supported in the sandbox"],
    ["yield in a decorated def", "@d\ndef f():\n    yield 1\n", "'yield' (generators) is not supported in the sandbox"],
    ["match", "match x:\n    case 1:\n        pass\n", "'match' statements are not supported in the sandbox"],
    ["__dict__", "x = f.__dict__\n", "attribute '__dict__' is not accessible in the sandbox"],
    ["__qualname__", "x = f.__qualname__\n", "attribute '__qualname__' is not accessible in the sandbox"],
    ["__globals__", "x = f.__globals__\n", "attribute '__globals__' is not accessible in the sandbox"],
    ["__subclasses__", "x = object.__subclasses__()\n", "attribute '__subclasses__' is not accessible in the sandbox"],
  ])("%s", (_label, source, message) => {
    const outcome = ours(source);
    expect(outcome?.[0]).toBe("SyntaxError");
    expect(outcome?.[1]).toContain(message);
  });

  it("names the readable ones in the refusal", () => {
    expect(ours("x = f.__dict__\n")?.[1]).toContain("other than __name__, __class__ and __doc__");
  });
});

describe("the tree of a decorated def and of top-level await equals CPython's", () => {
  const sources = [
    "@d\ndef f():\n    pass\n",
    "@a.b(c)\n@d\n@e(1, k=2)\nasync def f(x):\n    return await x\n",
    "@x := y\n@lambda f: f\n@x if y else z\ndef f(): pass\n",
    "if c:\n    @d\n    def f(): pass\n",
    "r = await srv.tool_async(x=1)\nawait asyncio.sleep(0)\n[await f(x) for x in y]\n",
    "return 42\n",
    "x = type(e).__name__, e.__class__, f.__doc__\n",
  ];
  it.each(sources.map((s, i) => [s, i] as const))("%j", (source, i) => {
    const cpython = cpythonAsts([source])[0];
    const parsed = tryParse(source);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(normalize(parsed.module, source)).toEqual(cpython);
    void i;
  });
});
