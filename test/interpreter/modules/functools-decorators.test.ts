// functools in decorator form (`@functools.lru_cache`, `@functools.wraps(f)`), as models write
// it: the same results, cache statistics, names and docstrings as CPython.
import { expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython } from "./cpython-cases.js";

agreesWithCPython("functools decorators agree with CPython", [
  `import functools
@functools.lru_cache(maxsize=None)
def fib(n):
    "Fibonacci."
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(80), fib.cache_info(), fib.__name__, fib.__doc__)`,
  `import functools
@functools.cache
def sq(x):
    return x * x
print(sq(3), sq(3), sq.cache_info())`,
  `from functools import lru_cache
@lru_cache
def g(x):
    return x + 1
print(g(1), g(1), g.__name__, g.cache_info().hits)`,
  `from functools import lru_cache
@lru_cache(maxsize=2)
def h(x):
    print("miss", x)
    return -x
for v in [1, 2, 1, 3, 2, 1]:
    h(v)
print(h.cache_info())
h.cache_clear()
print(h.cache_info())`,
  `import functools
def logged(f):
    @functools.wraps(f)
    def wrapper(*a, **k):
        print("call", f.__name__, a, k)
        return f(*a, **k)
    return wrapper
@logged
def add(a, b=0):
    "Adds."
    return a + b
print(add(1, b=2), add.__name__, add.__doc__)`,
  `import functools
def twice(f):
    @functools.wraps(f)
    def inner(x):
        return f(f(x))
    return inner
@twice
@functools.lru_cache(maxsize=None)
def inc(x):
    return x + 1
print(inc(1), inc.__name__)`,
]);

it("a cached function whose body calls a tool calls it once per argument", async () => {
  let calls = 0;
  const srv = {
    lookup: async (_args: unknown[], kwargs: Record<string, unknown>) => {
      calls++;
      return `v${String(kwargs.id)}`;
    },
  };
  const source = `import functools
@functools.lru_cache(maxsize=None)
def get(i):
    return srv.lookup(id=i)
RESULT = [get(i % 3) for i in range(9)]`;
  const r = await execute(source, { hosts: { srv } });
  expect(r.error).toBeNull();
  expect(r.result).toEqual(["v0", "v1", "v2", "v0", "v1", "v2", "v0", "v1", "v2"]);
  expect(calls).toBe(3);
});
