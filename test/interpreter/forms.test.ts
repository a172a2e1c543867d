// The forms of issue 19 as they run: top-level await, decorators, the answer of a script (RESULT,
// else result, else its final expression), `__name__`, `__class__` and `__doc__`.
//
// Differential against python3: each script is compiled there with PyCF_ALLOW_TOP_LEVEL_AWAIT
// (as asyncio's REPL and notebooks run code) and, when that makes a coroutine, run by
// asyncio.run. The answer CPython would give is computed the same way the sandbox defines it: the
// script's final expression statement becomes an assignment to a hidden name, read after
// RESULT and result. A server `srv` has `echo(x=...)` (returns x) and its awaitable form; the
// tool calls each side made, in order, are compared too, and so are the lines of a traceback.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { execute, type Hosts } from "../../src/interpreter/execute.js";
import { setYieldAlways } from "../../src/interpreter/runtime.js";
import { normalizeResult, plainResult } from "./cpython.js";

const DRIVER = String.raw`
import ast, asyncio, contextlib, inspect, io, json, sys, traceback

def plain(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple, set, frozenset)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {(k if isinstance(k, str) else str(k)): plain(x) for k, x in v.items()}
    return str(v)

class Server:
    def __init__(self, calls):
        self.calls = calls
    def echo(self, x=None):
        self.calls.append(["echo", x])
        return x
    async def echo_async(self, x=None):
        self.calls.append(["echo", x])
        await asyncio.sleep(0)
        return x

ANSWER = "_answer_of_the_script"

out = []
for source in json.load(sys.stdin):
    calls = []
    g = {"srv": Server(calls), "__name__": "__main__"}
    buf = io.StringIO()
    error = None
    frames = []
    try:
        tree = ast.parse(source, "<script>")
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = tree.body[-1]
            tree.body[-1] = ast.copy_location(ast.Assign(targets=[ast.Name(ANSWER, ast.Store())], value=last.value), last)
            ast.fix_missing_locations(tree)
        code = compile(tree, "<script>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        with contextlib.redirect_stdout(buf):
            r = eval(code, g)
            if inspect.iscoroutine(r):
                asyncio.run(r)
    except BaseException as e:
        error = {"type": type(e).__name__, "message": e.msg if isinstance(e, SyntaxError) else str(e)}
        frames = [[f.lineno, f.name] for f in traceback.extract_tb(e.__traceback__) if f.filename == "<script>"]
    value = g.get("RESULT", g.get("result", g.get(ANSWER))) if error is None else None
    out.append({"stdout": buf.getvalue(), "error": error, "result": json.dumps(plain(value)), "calls": calls, "frames": frames})
print(json.dumps(out))
`;

interface Outcome {
  stdout: string;
  error: { type: string; message: string } | null;
  result: string;
  calls: [string, unknown][];
  frames: [number, string][];
}

function cpythonForms(sources: readonly string[]): Outcome[] {
  const run = spawnSync("python3", ["-c", DRIVER], { input: JSON.stringify(sources), maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as Outcome[];
}

const hosts = (): Hosts => ({ srv: { echo: async (_args, kwargs) => kwargs["x"] ?? null } });

/** The frames of a sandbox traceback, outermost first: [line, scope]. */
function framesOf(traceback: string): [number, string][] {
  return [...traceback.matchAll(/File "<script>", line (\d+), in (\S+)/g)].map((m) => [Number(m[1]), m[2]!]);
}

async function sandbox(source: string) {
  const r = await execute(source, { hosts: hosts() });
  return {
    stdout: r.stdout,
    error: r.error && { type: r.error.type, message: r.error.message },
    result: plainResult(r.result),
    calls: r.tool_calls.map((c) => [c.tool, c.arguments["x"] ?? null]),
    frames: r.error ? framesOf(r.error.traceback) : [],
  };
}

const CASES: Record<string, string[]> = {
  "top-level await": [
    "r = await srv.echo_async(x=1)\nprint(r)",
    "import asyncio\nrs = await asyncio.gather(srv.echo_async(x=1), srv.echo_async(x=2))\nprint(rs)",
    "import asyncio\nawait asyncio.sleep(0)\nprint('slept')",
    "import asyncio\nprint(await asyncio.sleep(0, result='r'))",
    "total = 0\nfor i in range(3):\n    if await srv.echo_async(x=i) == 1:\n        total += 10\n    total += await srv.echo_async(x=i)\nprint(total)",
    "n = 3\nwhile await srv.echo_async(x=n):\n    n -= 1\nprint(n)",
    "xs = [await srv.echo_async(x=i) for i in range(3)]\nd = {k: await srv.echo_async(x=k * 2) for k in 'ab'}\nprint(xs, d)",
    "print(f\"got {await srv.echo_async(x='v')}\")",
    "x = (await srv.echo_async(x=2)) * 10 + await srv.echo_async(x=3)\nprint(x)",
    "async def twice(n):\n    return 2 * await srv.echo_async(x=n)\nprint(await twice(4))",
    "async def boom():\n    await srv.echo_async(x=0)\n    raise ValueError('inside')\ntry:\n    await boom()\nexcept ValueError as e:\n    print('caught', e)",
    "async def boom():\n    raise KeyError('k')\nawait boom()",
    "await 5",
    "def make(n=None):\n    return n\nasync def f(a=await srv.echo_async(x=5)):\n    return a\nprint(await f())",
    "import asyncio\nasync def one(i):\n    await asyncio.sleep(0)\n    return await srv.echo_async(x=i)\nresults = await asyncio.gather(*[one(i) for i in range(4)])\nprint(sum(results))",
    "import asyncio\nasync def main():\n    return await asyncio.gather(srv.echo_async(x='a'), srv.echo_async(x='b'))\nRESULT = asyncio.run(main())",
    "import asyncio\nasync def ok():\n    return 1\nasync def bad():\n    raise RuntimeError('no')\nprint(await asyncio.gather(ok(), bad(), return_exceptions=True))",
  ],
  decorators: [
    "def shout(f):\n    def wrapper(*a, **k):\n        return str(f(*a, **k)).upper()\n    return wrapper\n@shout\ndef greet(name):\n    return 'hi ' + name\nprint(greet('bo'))",
    "def mk(n):\n    print('eval', n)\n    def deco(f):\n        print('apply', n)\n        return lambda *a: [n, f(*a)]\n    return deco\n@mk(1)\n@mk(2)\ndef g(x):\n    return x * 2\nprint(g(3))",
    "def mk(n):\n    print('eval', n)\n    def d(f):\n        print('apply', n)\n        return f\n    return d\n@mk(1)\n@mk(2)\ndef g(a=print('default')):\n    pass",
    "registry = {}\ndef register(name):\n    def d(f):\n        registry[name] = f\n        return f\n    return d\n@register('add')\ndef add(a, b):\n    return a + b\n@register('neg')\ndef neg(a):\n    return -a\nprint(sorted(registry), registry['add'](2, 3), registry['neg'](4))",
    "def memo(f):\n    cache = {}\n    def wrapper(n):\n        if n not in cache:\n            cache[n] = f(n)\n        return cache[n]\n    return wrapper\n@memo\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nprint(fib(80))",
    "calls = []\ndef counted(f):\n    def wrapper(*a):\n        calls.append(f.__name__)\n        return f(*a)\n    return wrapper\nd = {'deco': counted}\n@d['deco']\ndef one():\n    return 1\n@(lambda f: f)\ndef two():\n    return 2\nprint(one(), two(), calls)",
    "tools = {'wrap': lambda f: (lambda: [f()])}\nclass_like = {'tools': tools}\n@class_like['tools']['wrap']\ndef f():\n    return 1\nprint(f())",
    "@(lambda f: 5)\ndef g():\n    pass\nprint(g)",
    "def logged(fn):\n    async def wrapper(*a, **k):\n        print('call', fn.__name__)\n        return await fn(*a, **k)\n    return wrapper\n@logged\nasync def get(n):\n    return await srv.echo_async(x=n)\nprint(await get(4))",
    "import asyncio\ndef retry(times):\n    def d(fn):\n        async def wrapper(*a):\n            for i in range(times):\n                try:\n                    return await fn(*a)\n                except ValueError as e:\n                    print('retry', i, e)\n            return None\n        return wrapper\n    return d\nattempts = []\n@retry(3)\nasync def flaky(x):\n    attempts.append(x)\n    if len(attempts) < 3:\n        raise ValueError('flaky')\n    return await srv.echo_async(x=x)\nRESULT = asyncio.run(flaky(7))",
    "def outer(k):\n    def add(f):\n        return lambda x: f(x) + k\n    @add\n    def inner(x):\n        return x * 10\n    return inner(1)\nprint(outer(5))",
    "def bad(f):\n    raise ValueError('x')\n@bad\ndef g(): pass",
    "@nosuch\ndef g(): pass",
    "def ok(f):\n    return f\ndef bad(f):\n    return 1 / 0\n@ok\n@bad\ndef g(): pass",
    "def bad(f):\n    raise ValueError('x')\ndef ok(f):\n    return f\n@bad\n@ok\ndef g(): pass",
    "def mk(n):\n    def d(f):\n        raise ValueError(n)\n    return d\n@mk(1)\n@mk(2)\ndef g(): pass",
    "def d(f):\n    return 1 / 0\n@d\n\n\ndef g(): pass",
    "@len\ndef g(): pass",
    "@bool\ndef g(): pass\nprint(g)",
    "def takes_two(a, b):\n    return a\n@takes_two\ndef g(): pass",
    "def run(f):\n    return f()\n@run\ndef value():\n    return 42\nprint(value)",
  ],
  "the answer": [
    "x = 5\nx",
    "srv.echo(x=3)",
    "await srv.echo_async(x=4)",
    "RESULT = 1\n2",
    "result = 7\n8",
    "result = 7\nRESULT = None\n8",
    "print('hi')",
    "x = 1\nif x:\n    x + 1",
    "def main():\n    return {'n': 1, 'items': [1, 2]}\nmain()",
    "import asyncio\nasync def main():\n    return [1, 2]\nasyncio.run(main())",
    "x = 1\nx\ny = 2",
    "'a string'",
    "for i in range(2):\n    i\n[i, 'done']",
    "undefined_name",
    "1\n1 / 0",
  ],
  names: [
    "print(__name__)\nif __name__ == '__main__':\n    print('main')",
    "def main():\n    return __name__\nprint(main())",
    "out = []\nfor f in [lambda: 1 / 0, lambda: {}['k'], lambda: [][1], lambda: int('x'), lambda: undefined, lambda: None.x]:\n    try:\n        f()\n    except Exception as e:\n        out.append([type(e).__name__, e.__class__.__name__, e.__class__ is type(e)])\nprint(out)",
    "try:\n    raise ValueError('bad')\nexcept Exception as e:\n    print(f'{type(e).__name__}: {e}', '{0.__class__.__name__}'.format(e))",
    "print([t.__name__ for t in [int, str, float, bool, list, dict, tuple, set, frozenset, bytes, range, type, ValueError, KeyError, Exception]])",
    "print(type(None).__name__, type(1).__name__, type('s').__name__, type(len).__name__, type(lambda: 0).__name__)",
    "def f():\n    pass\nasync def g():\n    pass\nprint(f.__name__, g.__name__, (lambda: 0).__name__, len.__name__, print.__name__, sorted.__name__)",
    "print('a'.upper.__name__, [].append.__name__, {}.get.__name__, dict.fromkeys.__name__, str.maketrans.__name__)",
    "import json, math, asyncio\nprint(json.__name__, math.__name__, asyncio.__name__, json.dumps.__name__, math.sqrt.__name__, asyncio.gather.__name__)",
    "print((1).__class__, 's'.__class__.__name__, [].__class__ is list, True.__class__, 1.5.__class__, None.__class__, {}.__class__ is dict)",
    "print(int.__class__, ValueError.__class__, type.__class__, len.__class__.__name__)",
    "def f():\n    pass\nprint(f.__class__.__name__, type(f) is f.__class__)",
    "print(getattr(int, '__name__'), getattr(1, '__name__', 'none'), hasattr(1, '__name__'), hasattr(int, '__name__'), hasattr(1, '__class__'))",
    "async def g():\n    return 1\nc = g()\nprint(c.__name__)\nprint(await c)",
    "x = (1).__name__",
    "try:\n    raise KeyError('k')\nexcept KeyError as e:\n    e.__name__",
    "def f():\n    '''The docstring.'''\n    return 1\ndef g():\n    return 1\nprint(repr(f.__doc__), repr(g.__doc__), repr((lambda: 0).__doc__))",
    "def f():\n    'one' 'two'\ndef g():\n    x = 1\n    'not a docstring'\ndef h():\n    f'{1}'\ndef i():\n    b'bytes'\nasync def j():\n    \"\"\"async doc\"\"\"\nprint([k.__doc__ for k in [f, g, h, i, j]])",
    "def outer():\n    def inner():\n        'inner doc'\n    return inner\nprint(outer().__doc__, outer().__name__)",
    "def deco(f):\n    def wrapper():\n        'wrapper doc'\n        return f()\n    return wrapper\n@deco\ndef g():\n    'g doc'\nprint(g.__name__, g.__doc__)",
  ],
};

const ALL = Object.entries(CASES).flatMap(([area, sources]) => sources.map((source) => ({ area, source })));
const EXPECTED = cpythonForms(ALL.map((c) => c.source));

describe("the forms run as CPython runs them", () => {
  it.each(ALL.map((c, i) => [c.area, c.source, i] as const))("%s: %j", async (_area, source, i) => {
    const theirs = EXPECTED[i]!;
    const ours = await sandbox(source);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(ours.error).toEqual(theirs.error);
    expect(ours.frames).toEqual(theirs.frames);
    expect(ours.calls).toEqual(theirs.calls);
    if (!theirs.error) expect(ours.result).toEqual(normalizeResult(theirs.result));
  });
});

describe("the forms resume where they suspended", () => {
  // Every call and loop head suspends: each Pending path of decorators and top-level await runs.
  it("gives CPython's outcomes while suspending at every call and loop head", async () => {
    const differences: string[] = [];
    setYieldAlways(true);
    try {
      for (const [i, { source }] of ALL.entries()) {
        const theirs = EXPECTED[i]!;
        const ours = await sandbox(source);
        const expected = { stdout: theirs.stdout, error: theirs.error, result: theirs.error ? null : normalizeResult(theirs.result) };
        const got = { stdout: ours.stdout, error: ours.error, result: ours.error ? null : ours.result };
        if (JSON.stringify(got) !== JSON.stringify(expected)) differences.push(`${source}: ${JSON.stringify(got)}`);
      }
    } finally {
      setYieldAlways(false);
    }
    expect(differences).toEqual([]);
  });
});

describe("a top-level return (a deliberate difference: CPython rejects it)", () => {
  it("ends the script with its value as the answer", async () => {
    const r = await execute("x = 2\nreturn x * 21\nprint('never')");
    expect(r.error).toBeNull();
    expect(r.result).toBe(42);
    expect(r.stdout).toBe("");
  });

  it("ends it from inside a block, and a bare return answers null", async () => {
    const source = "items = []\nif not items:\n    return\nprint('never')";
    const r = await execute(source);
    expect([r.error, r.result, r.stdout]).toEqual([null, null, ""]);
    const looped = await execute("for i in range(10):\n    if i == 3:\n        return i\n99");
    expect(looped.result).toBe(3);
  });

  it("runs the finally blocks it leaves", async () => {
    const r = await execute("try:\n    return 'from try'\nfinally:\n    print('finally ran')");
    expect([r.result, r.stdout]).toEqual(["from try", "finally ran\n"]);
  });

  it("gives way to RESULT and result, wherever they were bound", async () => {
    expect((await execute("RESULT = [1]\nreturn 2")).result).toEqual([1]);
    expect((await execute("result = 'r'\nreturn 2")).result).toBe("r");
    expect((await execute("def f():\n    global RESULT\n    RESULT = 'set in f'\nf()\nreturn 2")).result).toBe("set in f");
  });

  it("returns an awaited value", async () => {
    const r = await execute("return await srv.echo_async(x='tool')", { hosts: hosts() });
    expect(r.result).toBe("tool");
    expect(r.tool_calls.map((c) => c.tool)).toEqual(["echo"]);
  });
});

describe("the answer is serialized as RESULT is (SPEC §8)", () => {
  it("turns a final expression's tuple, set and object into JSON values and text", async () => {
    expect((await execute("(1, 'a')")).result).toEqual([1, "a"]);
    expect((await execute("{3}")).result).toEqual([3]);
    expect((await execute("def f():\n    pass\nf")).result).toBe("<function f>");
  });

  it("fails on a final expression that contains itself, as RESULT does", async () => {
    const r = await execute("l = [1]\nl.append(l)\nl");
    expect(r.error?.message).toContain("cycle");
  });

  it("a script whose last statement is not an expression answers null", async () => {
    for (const source of ["x = 1", "def f():\n    return 1", "if True:\n    5", "try:\n    5\nexcept Exception:\n    pass"]) {
      expect((await execute(source)).result).toBeNull();
    }
  });
});

describe("double-underscore attributes the sandbox still refuses", () => {
  it.each([
    ["getattr of __dict__", "getattr(len, '__dict__')"],
    ["getattr of __globals__ on a function", "def f():\n    pass\ngetattr(f, '__globals__')"],
    ["a format field of __dict__", "'{0.__dict__}'.format(1)"],
    ["__doc__ of a built-in (CPython's docstrings are not here)", "getattr(len, '__doc__')"],
    ["__doc__ of a type", "getattr(int, '__doc__')"],
  ])("%s", async (_label, source) => {
    const r = await execute(source);
    expect(r.error?.type).toBe("AttributeError");
    expect(r.error?.message).toMatch(/^attribute '__\w+__' is not accessible in the sandbox$/);
  });

  it("hasattr answers False for them, and getattr gives its default", async () => {
    const r = await execute("RESULT = [hasattr(len, '__dict__'), getattr(len, '__doc__', 'd'), hasattr(int, '__name__')]");
    expect(r.result).toEqual([false, "d", true]);
  });
});
