// The interpreter's shortcuts (bench/interpreter.ts measures them) must not change what a script
// sees: each is checked here against CPython, or against the general path it bypasses.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { Budget, DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { execute, type Hosts } from "../../src/interpreter/execute.js";
import { formatValue } from "../../src/interpreter/format.js";
import { lessThan } from "../../src/interpreter/methods/containers.js";
import { cmp, compare } from "../../src/interpreter/ops.js";
import { floatRepr } from "../../src/interpreter/repr.js";
import { PyFloat, PyTuple } from "../../src/interpreter/values.js";
import { testContext } from "./native-context.js";

/** Runs `source` under python3 and returns the JSON it prints. */
function cpython(source: string, input: unknown): unknown {
  const run = spawnSync("python3", ["-c", source], { input: JSON.stringify(input), encoding: "utf8", maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

async function result(source: string): Promise<unknown> {
  const r = await execute(source);
  if (r.error) throw new Error(`${r.error.type}: ${r.error.message}`);
  return r.result;
}

describe("repeated scripts", () => {
  it("start from fresh globals each time, though their parse is reused", async () => {
    const source = "seen.append(1)\nRESULT = len(seen)\n";
    const defining = "seen = []\n" + source;
    // The first run parses, the second keeps the AST, the third reuses it.
    for (let run = 0; run < 3; run++) expect(await result(defining)).toBe(1);
    const r = await execute(source);
    expect(r.error?.type).toBe("NameError");
  });

  it("still run correctly after many other scripts pushed them out of the cache", async () => {
    const first = "RESULT = sum(range(10))\n";
    expect(await result(first)).toBe(45);
    expect(await result(first)).toBe(45);
    for (let i = 0; i < 300; i++) {
      expect(await result(`RESULT = ${i} * 2\n`)).toBe(i * 2);
      expect(await result(`RESULT = ${i} * 2\n`)).toBe(i * 2);
    }
    expect(await result(first)).toBe(45);
  });
});

describe("module globals", () => {
  it("fall back to the built-in of the same name once deleted", async () => {
    expect(await result("len = 5\nbefore = len\ndel len\nRESULT = [before, len([1, 2])]")).toEqual([5, 2]);
  });

  it("raise NameError when deleted twice or read after deletion", async () => {
    const twice = await execute("x = 1\ndel x\ndel x");
    expect(twice.error?.message).toBe("name 'x' is not defined");
    const read = await execute("x = 1\ndel x\nRESULT = x");
    expect(read.error?.message).toBe("name 'x' is not defined");
  });

  it("are shared by the module and `global` declarations in functions", async () => {
    const source = `
count = 0
def bump(n):
    global count
    count += n
    return count
bump(2)
bump(3)
RESULT = [count, bump(0)]
`;
    expect(await result(source)).toEqual([5, 5]);
  });

  it("can be a result deleted before the end: no RESULT then", async () => {
    expect(await result("RESULT = 1\ndel RESULT")).toBe(null);
  });
});

describe("int arithmetic and comparisons on locals", () => {
  it("agree with CPython at the edges: overflow to big ints, negative zero, modulo signs, mixed types", async () => {
    const cases = [
      "a + b", "a - b", "a * b", "a % b", "a < b", "a <= b", "a > b", "a >= b", "a == b", "a != b",
      "a + 1", "a - 1", "a * 3", "a % 7", "a < 2", "a == 0", "a != 1",
    ];
    const pairs = [
      [2 ** 53 - 1, 1], [-(2 ** 53) + 1, 1], [2 ** 52, 2 ** 2], [0, -5], [-7, 3], [7, -3], [-7, -3], [0, 7],
      [3, "1.5"], ["2.0", 2], [true, 1], [-1, 2 ** 31],
    ];
    const body = cases.map((c) => `        out.append(${c})`).join("\n");
    const source = `
def run(a, b):
    out = []
    for _ in range(2):
${body}
    return out
def value(v):
    return float(v) if isinstance(v, str) else v
RESULT = [[repr(x) for x in run(value(a), value(b))] for a, b in PAIRS]
`;
    const ours = await result(`PAIRS = ${JSON.stringify(pairs).replaceAll("true", "True")}\n${source}`);
    const expected = cpython(
      `import json, sys\nPAIRS = json.load(sys.stdin)\n${source}\nprint(json.dumps(RESULT))`,
      pairs,
    );
    expect(ours).toEqual(expected);
  });

  it("still raise ZeroDivisionError and UnboundLocalError as the general path does", async () => {
    const zero = await execute("def f(a, b):\n    return a % b\nRESULT = f(1, 0)");
    expect(zero.error?.message).toBe("integer modulo by zero");
    const unbound = await execute("def f():\n    if False:\n        x = 1\n    return x + 1\nRESULT = f()");
    expect(unbound.error?.type).toBe("UnboundLocalError");
  });
});

describe("calls", () => {
  it("bind arguments as CPython does, whether or not they take the plain-parameters path", async () => {
    const source = `
def one(a):
    return a * 2
def two(a, b=10):
    return a - b
def captured(a):
    return lambda: a + 1
def star(*xs):
    return len(xs)
def kw(a, *, b=3):
    return a + b
def deep(n):
    return 0 if n == 0 else 1 + deep(n - 1)
keys = sorted([3, 1, 2], key=lambda v: -v)
out = [one(4), two(5), two(5, 1), two(b=2, a=9), captured(7)(), star(), star(1, 2), kw(1), kw(1, b=1), deep(300), keys]
errors = []
for call in [lambda: one(), lambda: one(1, 2), lambda: two(), lambda: kw(1, 2)]:
    try:
        call()
    except TypeError as e:
        errors.append(str(e).split("() ")[1])
RESULT = [out, errors]
`;
    const expected = cpython(`import json\n${source}\nprint(json.dumps(RESULT))`, null);
    expect(await result(source)).toEqual(expected);
  });
});

describe("method calls", () => {
  it("find the right method when one call site sees receivers of different types", async () => {
    const source = `
out = []
for x in [{1, 2}, frozenset({3}), [4, 4], {"a": 1}, {5}, frozenset(), (6, 6)]:
    if isinstance(x, tuple):
        out.append(repr(x.count(6)))
    else:
        out.append(repr(x.copy()))
for x in ["a-b", [1, 2], "c"]:
    try:
        out.append(repr(x.split("-")))
    except AttributeError as e:
        out.append(str(e))
RESULT = out
`;
    const expected = cpython(`import json\n${source}\nprint(json.dumps(RESULT))`, null);
    expect(await result(source)).toEqual(expected);
  });
});

describe("float formatting shortcuts", () => {
  // Random doubles over many magnitudes, dyadic fractions (where rounding ties happen), and edges.
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const floats: number[] = [0.125, 0.375, 2.5, 0.5, 1.5, -0.5, 1e-5, 1e-4, 9.999e15, 1e16, 5e-324, 1.7976931348623157e308, 0.045, 1.005, 2.675, 1e21, 1e22];
  for (let i = 0; i < 1500; i++) floats.push((random() - 0.5) * 10 ** Math.floor(random() * 30 - 8));
  for (let i = 0; i < 1500; i++) floats.push(Math.round((random() - 0.5) * 2e6) / 2 ** Math.floor(random() * 11));
  const precisions = [0, 1, 2, 3, 6, 12];
  const expected = cpython(
    `import json, sys\nxs, ps = json.load(sys.stdin)\nxs = [float(x) for x in xs]\nprint(json.dumps([[format(x, f".{p}f") for p in ps] for x in xs] + [[repr(x) for x in xs]]))`,
    // As text: JSON would turn 2.0 into the int 2.
    [floats.map(String), precisions],
  ) as string[][];

  it("'.nf' equals CPython's correctly rounded, ties-to-even output", () => {
    const ctx = testContext();
    const ours = floats.map((x) => precisions.map((p) => formatValue(ctx, new PyFloat(x), `.${p}f`)));
    expect(ours).toEqual(expected.slice(0, floats.length));
  });

  it("repr equals CPython's shortest round-trip spelling", () => {
    expect(floats.map(floatRepr)).toEqual(expected[floats.length]);
  });
});

describe("sorting by tuples of ints", () => {
  it("orders and charges as the two-pass comparison it replaces", () => {
    let seed = 99;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const tuple = () => new PyTuple(Array.from({ length: 1 + random(3) }, () => random(3) - 1));
    for (let k = 0; k < 500; k++) {
      const a = tuple();
      const b = tuple();
      const fast = new Budget(DEFAULT_LIMITS);
      const slow = new Budget(DEFAULT_LIMITS);
      const expected = compare("<", a, b, slow) ? -1 : compare("<", b, a, slow) ? 1 : 0;
      expect([cmp(a, b, fast), fast.steps]).toEqual([expected, slow.steps]);
    }
  });
});

describe("sorting by ints, strs and tuples of ints", () => {
  it("gives CPython's order, stable, ascending and descending, counted, packed or neither", async () => {
    const source = `
small = [(i * 7919) % 101 - 50 for i in range(300)]
mid = [(i * 7919) % 100003 - 50000 for i in range(300)] + [7, 7, 7]
wide = [(i * 2654435761) % 2**52 - 2**51 for i in range(300)] + [2**53 - 1, -(2**53 - 1)]
choices = ["b", "a", "ab", "é", "", "aa" * 40]
words = [choices[(i * 31) % 7 % 6] for i in range(200)]
RESULT = [
    sorted(range(300), key=lambda i: small[i]),
    sorted(range(300), key=lambda i: small[i], reverse=True),
    sorted(range(303), key=lambda i: mid[i]),
    sorted(range(303), key=lambda i: mid[i], reverse=True),
    sorted(range(302), key=lambda i: wide[i]),
    sorted(range(302), key=lambda i: wide[i], reverse=True),
    sorted(range(200), key=lambda i: words[i]),
    sorted(range(200), key=lambda i: (small[i] % 3, -small[i] % 4), reverse=True),
    sorted(small), sorted([5]), sorted([]), sorted([True, 0, 2, False, -1]),
]
`;
    const expected = cpython(`import json\n${source}\nprint(json.dumps(RESULT))`, null);
    expect(await result(source)).toEqual(expected);
  });

  it("keep CPython's errors for mixed keys and raising key functions", async () => {
    const mixed = await execute("RESULT = sorted([3, 1, 'a', 2])");
    expect([mixed.error?.type, mixed.error?.message]).toEqual(["TypeError", "'<' not supported between instances of 'str' and 'int'"]);
    const tuples = await execute("RESULT = sorted([(1, 2), (1, 'x')])");
    expect(tuples.error?.message).toBe("'<' not supported between instances of 'str' and 'int'");
    const raising = await execute("xs = [3, 0, 1]\ntry:\n    xs.sort(key=lambda x: 1 // x)\nexcept ZeroDivisionError:\n    pass\nRESULT = xs");
    expect(raising.result).toEqual([3, 0, 1]);
  });

  it("compare str and int-tuple keys as compare does, step for step", () => {
    let seed = 5;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % n;
    const strs: string[] = Array.from({ length: 40 }, () => "x".repeat(random(3) * 64) + "ab".slice(random(3)));
    const tuples = Array.from({ length: 40 }, () => new PyTuple(Array.from({ length: random(4) }, () => random(3) - 1)));
    for (const keys of [strs, tuples]) {
      const fast = testContext();
      const lt = lessThan(fast, keys);
      const slow = new Budget(DEFAULT_LIMITS);
      for (let a = 0; a < keys.length; a++) {
        for (let b = 0; b < keys.length; b++) {
          expect(lt(a, b)).toBe(compare("<", keys[a]!, keys[b]!, slow));
          expect(fast.budget.steps).toBe(slow.steps);
        }
      }
      expect(slow.steps).toBeGreaterThan(0);
    }
  });
});

describe("tuple, list and set displays", () => {
  // Built in arrays of their exact length (1, 2, 3 items by hand, more by copying).
  const displays = (item: (i: number) => string) =>
    [1, 2, 3, 4, 5].flatMap((n) => {
      const items = Array.from({ length: n }, (_, i) => item(i)).join(", ");
      return [`(${items},)`, `[${items}]`, `sorted({${items}})`];
    });

  it("give CPython's values, items evaluated left to right", async () => {
    const source = `
order = []
def v(i):
    order.append(i)
    return i * 10
RESULT = [${displays((i) => `v(${i})`).join(", ")}, order]
`;
    const expected = cpython(`import json\n${source}\nprint(json.dumps(RESULT))`, null);
    expect(await result(source)).toEqual(expected);
  });

  it("resume in order when any item suspends on a tool call", async () => {
    const log: string[] = [];
    const hosts: Hosts = {
      srv: {
        echo: async (args) => {
          log.push(`tool ${String(args[0])}`);
          await new Promise((r) => setTimeout(r, 1));
          return args[0];
        },
      },
    };
    for (let n = 1; n <= 5; n++) {
      for (let at = 0; at < n; at++) {
        log.length = 0;
        const items = Array.from({ length: n }, (_, i) => (i === at ? `tool(${i})` : `note(${i})`)).join(", ");
        const source = [
          "def note(i):\n    seen.append(i)\n    return i",
          "def tool(i):\n    r = srv.echo(i)\n    seen.append(i)\n    return r",
          `seen = []\nRESULT = [(${items},), [${items}], seen]`,
        ].join("\n");
        const r = await execute(source, { hosts });
        expect(r.error).toBeNull();
        const values = Array.from({ length: n }, (_, i) => i);
        expect(r.result).toEqual([values, values, [...values, ...values]]);
        expect(log).toEqual([`tool ${at}`, `tool ${at}`]);
      }
    }
  });
});

describe("split() of a long text", () => {
  it("gives CPython's words when the same words recur (shared strings) and when they do not", async () => {
    const source = `
vocab = ["a", "ab", "ba", "aXb", "axb", "é", "\\U0001F600", "\\U0001F601x", "w" * 24, "w" * 25, "w" * 25 + "v", "0", "00", "1" * 3]
seps = [" ", "  ", "\\t", "\\n", "\\u3000", "\\x1c", " \\r\\n "]
text = "".join(vocab[(i * 7) % len(vocab)] + seps[(i * 3) % len(seps)] for i in range(3000))
distinct = " ".join(str(i) for i in range(400))
words = text.split()
RESULT = [words, len(words), text.split(None, 2000)[-1][:40], distinct.split(), ("  " + text).split(maxsplit=5)[:6]]
`;
    const expected = cpython(`import json\n${source}\nprint(json.dumps(RESULT))`, null);
    expect(await result(source)).toEqual(expected);
  });
});
