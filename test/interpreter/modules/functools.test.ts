// The functools module: reduce, partial, cmp_to_key, lru_cache and cache (CPython's keys, counts
// and eviction order), wraps; cached and partial functions that make tool calls; budgets.
import { describe, expect, it } from "vitest";
import { type FunctionCode, PyFunction } from "../../../src/interpreter/function.js";
import { execute, type Hosts } from "../../../src/interpreter/execute.js";
import { FUNCTOOLS_MODULE } from "../../../src/interpreter/modules/functools.js";
import type { NativeFn } from "../../../src/interpreter/native.js";
import { PyBuiltin } from "../../../src/interpreter/objects.js";
import { testContext } from "../native-context.js";
import { agreesWithCPython, expectStopsOnBudget } from "./cpython-cases.js";

const reduceAndPartial = [
  "from functools import reduce\nprint(reduce(lambda a, b: a + b, [1, 2, 3, 4]), reduce(lambda a, b: a * b, range(1, 6), 10), reduce(lambda a, b: a + b, [], 'init'), reduce(max, [3]), reduce(lambda a, b: a + [b], 'abc', []))",
  "from functools import reduce\nprint(reduce(lambda acc, d: {**acc, **d}, [{'a': 1}, {'b': 2}, {'a': 3}]), reduce(pow, [2, 3, 2]))",
  "from functools import partial\ndef f(a, b, c=0, *, d=1):\n    return (a, b, c, d)\np = partial(f, 1, d=5)\nprint(p(2), p(2, 3), p(2, d=9), p.func is f, p.args, p.keywords)\npp = partial(p, 7, c=4)\nprint(pp(), pp.args, pp.keywords, pp.func is f)",
  "from functools import partial\nprint(repr(partial(max, 1, key=abs)), partial(print, sep='+'), type(partial(print)), isinstance(partial(print), partial), callable(partial(print)))",
  "from functools import partial\np = partial(print, 1, sep='-')\np(2)\np(3, sep='+')\nq = partial(p, 0, end='!\\n')\nq()\nprint(q)",
  "from functools import partial\nsq = partial(pow, exp=2)\nprint(sq(5), list(map(partial(int, base=2), ['101', '11'])), sorted(['b', 'A', 'c'], key=partial(lambda n, s: s.lower()[:n], 1)))",
  "from functools import partial\np = partial(dict, a=1)\np.keywords['b'] = 2\nprint(p(), p(c=3), p(a=9))",
  "from functools import partial\nadd = partial(lambda *a, **k: (a, k))\nprint(add(), add(1, x=2), partial(add, 3)(4))",
];

const cmpToKey = [
  "from functools import cmp_to_key\nprint(sorted([5, 1, 4], key=cmp_to_key(lambda a, b: b - a)), sorted(['bb', 'a', 'ccc'], key=cmp_to_key(lambda x, y: len(x) - len(y)), reverse=True))",
  "from functools import cmp_to_key\ndef by_len_then_alpha(x, y):\n    if len(x) != len(y):\n        return len(x) - len(y)\n    return (x > y) - (x < y)\nprint(sorted(['pear', 'fig', 'apple', 'kiwi', 'date'], key=cmp_to_key(by_len_then_alpha)), min(['bb', 'a'], key=cmp_to_key(by_len_then_alpha)))",
  "from functools import cmp_to_key\nK = cmp_to_key(lambda a, b: a - b)\nprint(K(1) < K(2), K(3) <= K(3), K(1) == K(1), K(5) > K(2), K(2) >= K(9), K(1) != K(2), K(4).obj, K.obj, K(obj=3).obj, type(K), K)",
  "from functools import cmp_to_key\nprint(sorted([3, 1, 2], key=cmp_to_key(lambda a, b: 0.5 if a > b else -0.5 if a < b else 0)))",
];

const caches = [
  "from functools import lru_cache\ncalls = []\ndef g(x):\n    calls.append(x)\n    return x * 2\ncg = lru_cache(maxsize=2)(g)\nprint([cg(i) for i in [1, 2, 1, 3, 2, 1, 3]], calls, cg.cache_info())\ncg.cache_clear()\nprint(cg.cache_info(), cg(1), cg.cache_info())",
  "from functools import lru_cache\ncalls = []\ndef g(x):\n    calls.append(x)\n    return x\ng = lru_cache(maxsize=3)(g)\nfor x in [1, 2, 3, 1, 4, 2, 5, 1, 3, 3, 4]:\n    g(x)\nprint(calls, g.cache_info())",
  "from functools import lru_cache\ndef g(x):\n    return x\nh = lru_cache(g)\nprint(h(5), h(5), h.cache_info(), h.cache_parameters(), lru_cache(typed=True)(g).cache_parameters())",
  "from functools import cache, lru_cache\ndef g(*a, **k):\n    return len(a)\nu = cache(g)\nu(1); u(1.0); u(True); u(1,); u('1'); u((1,)); u(1, 2); u(1, 2.0)\nprint(u.cache_info())\nt = lru_cache(typed=True)(g)\nt(1); t(1.0); t(True); t('a'); t(1)\nprint(t.cache_info())",
  "from functools import lru_cache\ndef f(a, b=0):\n    return a + b\nk = lru_cache(None)(f)\nk(1, 2); k(1, b=2); k(a=1, b=2); k(b=2, a=1); k(1, 2); k(a=1, b=2)\nprint(k.cache_info())",
  "from functools import lru_cache\ndef g(x):\n    return x\nz = lru_cache(0)(g)\nz(1); z(1)\nn = lru_cache(-5)(g)\nn(1)\nprint(z.cache_info(), n.cache_info(), lru_cache(maxsize=True)(g).cache_info())",
  "from functools import lru_cache\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nfib = lru_cache(maxsize=None)(fib)\nprint(fib(80), fib(300), fib.cache_info())\ninfo = fib.cache_info()\nhits, misses, maxsize, currsize = info\nprint(info.hits, info[1], info[-1], len(info), list(info), info == (hits, misses, None, currsize), info[1:3], type(info), hash(info) == hash(tuple(info)), {info: 1}[(hits, misses, None, currsize)])",
  "from functools import lru_cache\nprint(repr(lru_cache()(len)), lru_cache()(len)('abc'), type(lru_cache()(len)), callable(lru_cache()(len)))",
  "from functools import lru_cache\ndef g(x):\n    return [x]\nc = lru_cache()(g)\na = c(1)\na.append(2)\nprint(c(1), c(1) is a)",
];

const wraps = [
  "from functools import wraps\ndef f(a, b):\n    return a - b\ndef deco(fn):\n    def wrapper(*a, **kw):\n        return fn(*a, **kw)\n    return wraps(fn)(wrapper)\nw = deco(f)\nprint(w(5, 2), w)",
  "from functools import update_wrapper, lru_cache\ndef g():\n    pass\ndef h():\n    pass\nprint(update_wrapper(h, g), update_wrapper(h, g) is h)",
  "import functools\nprint(functools.WRAPPER_ASSIGNMENTS, functools.WRAPPER_UPDATES)",
];

const errors = [
  "import functools\nfunctools.reduce(lambda a, b: a + b, [])",
  "import functools\nfunctools.reduce(lambda a, b: a + b, 5)",
  "import functools\nfunctools.reduce()",
  "import functools\nfunctools.reduce(lambda a, b: a, [1], 2, 3)",
  "import functools\nfunctools.reduce(lambda a, b: a, [1], initial=3)",
  "import functools\nfunctools.reduce(1, [1, 2])",
  "import functools\nfunctools.partial()",
  "import functools\nfunctools.partial(1)",
  "import functools\nfunctools.partial(print, 1).nope",
  "import functools\nlen(functools.partial(print))",
  "import functools\nfunctools.partial(lambda a: a)(1, 2)",
  "import functools\nfunctools.lru_cache(maxsize='x')",
  "import functools\nfunctools.lru_cache(maxsize=3)(1)",
  "import functools\nfunctools.lru_cache(lambda: 1, typed=1)",
  "import functools\nfunctools.cache()",
  "import functools\nfunctools.cache(1)",
  "import functools\nc = functools.cache(len)\nc([1])",
  "import functools\nfunctools.lru_cache()(len).nope",
  "import functools\nfunctools.cmp_to_key()",
  "import functools\nK = functools.cmp_to_key(lambda a, b: a - b)\nK()",
  "import functools\nK = functools.cmp_to_key(lambda a, b: a - b)\nK(1, 2)",
  "import functools\nK = functools.cmp_to_key(lambda a, b: a - b)\nK(1) < 2",
  "import functools\nK = functools.cmp_to_key(lambda a, b: a - b)\nK(1) == 1",
  "import functools\nhash(functools.cmp_to_key(lambda a, b: a - b)(1))",
  "import functools\nfunctools.cmp_to_key(1)(1) < functools.cmp_to_key(1)(2)",
  "import functools\nsorted([1, 'a'], key=functools.cmp_to_key(lambda a, b: a - b))",
  "import functools\nfunctools.update_wrapper(len, lambda: 1)",
  "import functools\nfunctools.wraps()",
  "import functools\nprint(functools.total_ordering_nope)",
];

agreesWithCPython("functools.reduce and partial agree with CPython", reduceAndPartial);
agreesWithCPython("functools.cmp_to_key agrees with CPython", cmpToKey);
agreesWithCPython("functools.lru_cache and cache agree with CPython", caches);
agreesWithCPython("functools.wraps agrees with CPython", wraps);
agreesWithCPython("functools refuses what CPython refuses, with its messages", errors);

describe("cached and partial functions that make tool calls", () => {
  const hosts = (log: unknown[]): Hosts => ({
    srv: {
      lookup: async (_args, kwargs) => {
        log.push(kwargs.k);
        await new Promise((r) => setTimeout(r, 5));
        return { value: `v-${String(kwargs.k)}` };
      },
      fail: async () => {
        log.push("fail");
        throw new Error("upstream says no");
      },
    },
  });

  it("store the tool's result once it arrives, and answer later calls from the cache", async () => {
    const log: unknown[] = [];
    const source = [
      "import functools",
      "def get(k):",
      "    return srv.lookup(k=k)['value']",
      "get = functools.lru_cache(maxsize=None)(get)",
      "RESULT = [get('a'), get('b'), get('a'), get('a'), str(get.cache_info())]",
    ].join("\n");
    const r = await execute(source, { hosts: hosts(log) });
    expect(r.error).toBeNull();
    expect(r.result).toEqual(["v-a", "v-b", "v-a", "v-a", "CacheInfo(hits=2, misses=2, maxsize=None, currsize=2)"]);
    expect(log).toEqual(["a", "b"]);
  });

  it("store nothing when the call fails, so the next call tries again", async () => {
    const log: unknown[] = [];
    const source = [
      "import functools",
      "def bad():",
      "    return srv.fail()",
      "bad = functools.cache(bad)",
      "out = []",
      "for _ in range(2):",
      "    try:",
      "        bad()",
      "    except ToolError as e:",
      "        out.append(e.message)",
      "RESULT = [out, str(bad.cache_info())]",
    ].join("\n");
    const r = await execute(source, { hosts: hosts(log) });
    expect(r.error).toBeNull();
    expect(r.result).toEqual([["upstream says no", "upstream says no"], "CacheInfo(hits=0, misses=2, maxsize=None, currsize=0)"]);
    expect(log).toEqual(["fail", "fail"]);
  });

  it("forward a partial's call to a tool, and to a function that calls one", async () => {
    const log: unknown[] = [];
    const source = [
      "import functools",
      "look = functools.partial(srv.lookup, k='x')",
      "def twice(prefix, k):",
      "    return prefix + srv.lookup(k=k)['value']",
      "t = functools.partial(twice, '>')",
      "RESULT = [look()['value'], t('y'), t(k='z')]",
    ].join("\n");
    const r = await execute(source, { hosts: hosts(log) });
    expect(r.error).toBeNull();
    expect(r.result).toEqual(["v-x", ">v-y", ">v-z"]);
    expect(log).toEqual(["x", "y", "z"]);
  });

  it("refuse a tool call inside reduce's function with the built-ins' advice", async () => {
    const r = await execute("import functools\nRESULT = functools.reduce(lambda a, k: a + srv.lookup(k=k)['value'], ['a'], '')", { hosts: hosts([]) });
    expect(r.error?.type).toBe("RuntimeError");
    expect(r.error?.message).toContain("call it in a loop instead");
  });
});

describe("functools", () => {
  it("reaches the recursion limit through a cached function, as CPython does", async () => {
    const r = await execute("import functools\ndef f(n):\n    return f(n + 1)\nf = functools.lru_cache(None)(f)\nf(0)");
    expect(r.error?.type).toBe("RecursionError");
    const p = await execute("import functools\ndef f(n):\n    return g(n + 1)\ng = functools.partial(f)\ng(0)");
    expect(p.error?.type).toBe("RecursionError");
  });

  it("copies the wrapped function's __name__ and __doc__ onto the wrapper", () => {
    const code = (name: string, doc: string | null) => ({ name, doc }) as unknown as FunctionCode;
    const wrapped = new PyFunction(code("wrapped", "What it does."), [], new Map(), [], null as never);
    const wrapper = new PyFunction(code("wrapper", null), [], new Map(), [], null as never);
    const ctx = testContext();
    const update = FUNCTOOLS_MODULE.update_wrapper as PyBuiltin;
    // wraps(wrapped) is partial(update_wrapper, wrapped=wrapped, ...), as in CPython.
    const decorator = (FUNCTOOLS_MODULE.wraps as NativeFn)(ctx, [wrapped], null) as unknown as { func: unknown };
    expect(decorator.func).toBe(update);
    expect(update.fn(ctx, [wrapper, wrapped], null)).toBe(wrapper);
    expect(wrapper.dunders).toEqual(new Map<string, unknown>([["__name__", "wrapped"], ["__doc__", "What it does."]]));
    expect(wrapper.pyRepr()).toBe("<function wrapped>");
    const other = new PyFunction(code("other", null), [], new Map(), [], null as never);
    update.fn(ctx, [other, new PyBuiltin("len", () => null)], null);
    expect(other.dunders?.get("__name__")).toBe("len");
  });

  it.each([
    ["import functools\nx = functools.reduce(lambda a, b: a + b, range(10**9))", "max_steps"],
    ["import functools\nx = functools.reduce(max, iter(range(10**9)))", "max_steps"],
    ["import functools\nf = functools.cache(lambda i: 'x' * 1000)\nfor i in range(10**6):\n    f(i)", "max_"],
    ["import functools\np = functools.partial(print)\nfor i in range(10**5):\n    p = functools.partial(p, i)", "max_"],
  ])("%s stops on the budget without holding the event loop", (source, limit) => expectStopsOnBudget(source, limit));

  it("has no JavaScript names as attributes", async () => {
    const exprs = [
      "functools.constructor",
      "functools.partial(print).constructor",
      "functools.partial.prototype",
      "functools.lru_cache()(len).entries",
      "functools.lru_cache()(len).func",
      "functools.lru_cache()(len).cache_info().tuple",
      "functools.cmp_to_key(len)(1).cmp",
      "functools.partial(print).toString",
    ];
    for (const expr of exprs) {
      const r = await execute(`import functools\nx = ${expr}`);
      expect(r.error?.type, expr).toBe("AttributeError");
    }
  });
});
