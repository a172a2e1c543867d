// The interpreter's shortcuts (bench/interpreter.ts measures them) must not change what a script
// sees: each is checked here against CPython, or against the general path it bypasses.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { Budget, DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { execute, type Hosts } from "../../src/interpreter/execute.js";
import { formatValue } from "../../src/interpreter/format.js";
import { lessThan } from "../../src/interpreter/methods/containers.js";
import { fusedClosure, operatorClosure, negateClosure } from "../../src/interpreter/closure-ops.js";
import {
  BINARY_FAST_PATHS,
  COMPARE_FAST_PATHS,
  FAST_PATH_SCOPE,
  type FastPath,
  ITEM_FAST_PATH,
  NEGATE_FAST_PATH,
  SET_ITEM_FAST_PATH,
  STR_KEY_ITEM_FAST_PATH,
} from "../../src/interpreter/fast-paths.js";
import type { Expr, Frame } from "../../src/interpreter/frame.js";
import { binary, type BinaryOp, cmp, compare, equals, getItem, setItem, unary } from "../../src/interpreter/ops.js";
import { isIn, isNotIn } from "../../src/interpreter/stepping.js";
import { floatRepr } from "../../src/interpreter/repr.js";
import { PyDict, PyFloat, PyList, PySet, PyTuple, type Value } from "../../src/interpreter/values.js";
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

// ------------------------------------------------------------------ the fast-path table

/** What a fast path's caller falls back to: its own answer tells the checks the path did not answer. */
const FELL_THROUGH = Symbol("fell through");

/** The operand values of the checks: the edges of ints as JS numbers, big ints, bools, floats (with -0.0 and NaN), strs, None. */
const OPERANDS: Value[] = [
  0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 32 + 5, 2 ** 52, 2 ** 53 - 1, -(2 ** 53 - 1), 94906267, 123456789012,
  2n ** 53n, -(2n ** 53n), 10n ** 20n, true, false,
  new PyFloat(0), new PyFloat(-0), new PyFloat(1.5), new PyFloat(-2.5), new PyFloat(3), new PyFloat(NaN), new PyFloat(Infinity), new PyFloat(-Infinity), new PyFloat(1e308), new PyFloat(5e-324),
  "", "a", "ab", "\u0000a", null,
];

/** Random ints and floats besides the edges: a wrong sign or rounding rule shows on some of them. */
function randomOperands(n: number, seed: number): Value[] {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const out: Value[] = [];
  for (let i = 0; i < n; i++) {
    const r = next();
    out.push(r < 0.4 ? Math.round((next() - 0.5) * 2 ** (1 + Math.floor(next() * 53))) || 1 : r < 0.7 ? Math.round((next() - 0.5) * 200) : new PyFloat((next() - 0.5) * 10 ** Math.floor(next() * 8)));
  }
  return out;
}

/** The same value: ints and bools by Object.is (an int is never -0), floats by their doubles (-0.0 apart, NaN equal to NaN). */
function same(a: unknown, b: unknown): boolean {
  if (a instanceof PyFloat && b instanceof PyFloat) return Object.is(a.v, b.v);
  return Object.is(a, b);
}

type Outcome = { value: unknown; steps: number; memory: number } | { error: string };

const text = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x instanceof PyFloat ? `${x.v}f` : x));

/** What `run` gives on a fresh budget: its value and charges, or the error it raised. */
function outcome(run: (budget: Budget) => unknown): Outcome {
  const budget = new Budget({ ...DEFAULT_LIMITS, max_memory_bytes: 1 << 20 });
  try {
    const value = run(budget);
    return { value, steps: budget.steps, memory: budget.memory };
  } catch (e) {
    return { error: String(e) };
  }
}

/**
 * The disagreements of a shortcut with the general operation on `cases`: wherever the shortcut
 * answers, the general operation must give the same value with the same charges. A shortcut
 * that never answers on them is one too (it would make every check here pass).
 */
function disagreements(cases: Value[][], fast: (budget: Budget, operands: Value[]) => unknown, general: (budget: Budget, operands: Value[]) => unknown): string[] {
  const out: string[] = [];
  let answered = 0;
  for (const operands of cases) {
    const got = outcome((budget) => fast(budget, operands));
    if ("value" in got && got.value === FELL_THROUGH) continue;
    answered++;
    const want = outcome((budget) => general(budget, operands));
    const agree = "value" in got ? "value" in want && same(got.value, want.value) && got.steps === want.steps && got.memory === want.memory : "error" in want;
    if (!agree) out.push(`${text(operands)}: ${text(got)} against ${text(want)}`);
  }
  if (answered === 0) out.push("never answered");
  return out;
}

/** A fast path as the code generator emits it: its text in a function of its operands, falling through to FELL_THROUGH. */
function emitted(path: FastPath, arity: number): (budget: Budget, operands: Value[]) => unknown {
  const names = Array.from({ length: arity }, (_, i) => `x${i}`);
  const run = new Function("rt", "FELL", ...Object.keys(FAST_PATH_SCOPE), ...names, `let t; ${path("t", ...names)} else return FELL; return t;`);
  return (budget, operands) => run({ budget }, FELL_THROUGH, ...Object.values(FAST_PATH_SCOPE), ...operands);
}

/** As emitted, with each operand a JS literal where it can be one (generated code writes constants inline). */
function emittedWithLiterals(path: FastPath): (budget: Budget, operands: Value[]) => unknown {
  return (budget, operands) => {
    const literal = (v: Value, i: number) => (typeof v === "number" && v >= 0 ? String(v) : typeof v === "string" ? JSON.stringify(v) : v === null || typeof v === "boolean" ? String(v) : `x${i}`);
    const texts = operands.map(literal);
    const run = new Function("rt", "FELL", ...Object.keys(FAST_PATH_SCOPE), "x0", "x1", `let t; ${path("t", ...texts)} else return FELL; return t;`);
    return run({ budget }, FELL_THROUGH, ...Object.values(FAST_PATH_SCOPE), ...operands);
  };
}

/** A frame as the closure tier's operators read it: its runtime's budget, and its slots. */
function frameOf(budget: Budget, slots: Value[] = []): Frame {
  return { rt: { budget }, slots } as unknown as Frame;
}

const constant = (v: Value): Expr => () => v;
const fellThrough = () => FELL_THROUGH as unknown as Value;

const PAIRS: Value[][] = [];
for (const a of [...OPERANDS, ...randomOperands(40, 7)]) for (const b of [...OPERANDS, ...randomOperands(40, 11)]) PAIRS.push([a, b]);

const GENERAL_COMPARE: Record<string, (budget: Budget, a: Value, b: Value) => unknown> = {
  "<": (budget, a, b) => compare("<", a, b, budget),
  "<=": (budget, a, b) => compare("<=", a, b, budget),
  ">": (budget, a, b) => compare(">", a, b, budget),
  ">=": (budget, a, b) => compare(">=", a, b, budget),
  "==": (_budget, a, b) => equals(a, b),
  "!=": (_budget, a, b) => !equals(a, b),
  in: (budget, a, b) => isIn(b, a, budget),
  "not in": (budget, a, b) => isNotIn(b, a, budget),
};

describe("the fast-path table, in both tiers' forms", () => {
  const binaryGeneral = (op: BinaryOp) => (budget: Budget, [a, b]: Value[]) => binary(op, a!, b!, budget);

  for (const [op, path] of Object.entries(BINARY_FAST_PATHS) as [BinaryOp, FastPath][]) {
    it(`\`a ${op} b\` answers as ops.binary wherever it answers`, () => {
      expect(disagreements(PAIRS, emitted(path, 2), binaryGeneral(op))).toEqual([]);
      expect(disagreements(PAIRS, emittedWithLiterals(path), binaryGeneral(op))).toEqual([]);
      const closure = (budget: Budget, [a, b]: Value[]) => operatorClosure(op, constant(a!), constant(b!), fellThrough)!(frameOf(budget));
      expect(disagreements(PAIRS, closure, binaryGeneral(op))).toEqual([]);
    });
  }

  const dict = new PyDict();
  dict.set("a", 1);
  dict.set(2, "two");
  dict.set(true, "true");
  const set = new PySet();
  for (const v of ["a", 2, 2 ** 53 - 1, new PyFloat(3), "\u0000a"] as Value[]) set.add(v);
  const withDicts = [...PAIRS, ...OPERANDS.map((a) => [a, dict]), ...OPERANDS.map((a) => [a, set])];
  for (const [op, path] of Object.entries(COMPARE_FAST_PATHS)) {
    it(`\`a ${op} b\` answers as the general comparison wherever it answers`, () => {
      const general = (budget: Budget, [a, b]: Value[]) => GENERAL_COMPARE[op]!(budget, a!, b!);
      expect(disagreements(withDicts, emitted(path, 2), general)).toEqual([]);
      expect(disagreements(withDicts, emittedWithLiterals(path), general)).toEqual([]);
      const closure = (budget: Budget, [a, b]: Value[]) => operatorClosure(op, constant(a!), constant(b!), fellThrough)!(frameOf(budget));
      expect(disagreements(withDicts, closure, general)).toEqual([]);
    });
  }

  it("fused on ints in slots, each operator answers as the general operation", () => {
    const ints = PAIRS.filter(([a, b]) => typeof a === "number" && typeof b === "number");
    for (const op of ["+", "-", "*", "%", "//", "<", "<=", ">", ">=", "==", "!="]) {
      const general = (budget: Budget, [a, b]: Value[]) => (op in GENERAL_COMPARE ? GENERAL_COMPARE[op]!(budget, a!, b!) : binary(op as BinaryOp, a!, b!, budget));
      const slots = (budget: Budget, [a, b]: Value[]) => fusedClosure(op, 0, { slot: 1 }, fellThrough)!(frameOf(budget, [a!, b!]));
      const withConstant = (budget: Budget, [a, b]: Value[]) => fusedClosure(op, 0, { constant: b as number }, fellThrough)!(frameOf(budget, [a!]));
      expect([op, disagreements(ints, slots, general)]).toEqual([op, []]);
      expect([op, disagreements(ints, withConstant, general)]).toEqual([op, []]);
    }
  });

  it("`-v` answers as ops.unary wherever it answers", () => {
    const singles = [...OPERANDS, ...randomOperands(60, 3)].map((v) => [v]);
    const general = (budget: Budget, [v]: Value[]) => unary("-", v!, budget);
    expect(disagreements(singles, emitted(NEGATE_FAST_PATH, 1), general)).toEqual([]);
    expect(disagreements(singles, (budget, [v]) => negateClosure(constant(v!), fellThrough)(frameOf(budget)), general)).toEqual([]);
  });

  const containers = (): Value[] => {
    const d = new PyDict();
    for (const [k, v] of [["a", 1], ["\u0000a", 2], [3, "three"], [-1, "minus one"], [true, "true"], [new PyFloat(2.5), "float"], [null, "none"]] as [Value, Value][]) d.set(k, v);
    return [d, new PyDict(), new PyList([10, 20, 30]), new PyList([]), new PyTuple([1, "b", null]), "abc", null];
  };
  const KEYS: Value[] = ["a", "\u0000a", "b", "", 0, 1, 2, 3, -1, -3, -4, 5, 2 ** 53 - 1, 2n ** 60n, true, false, new PyFloat(1), new PyFloat(2.5), new PyFloat(-0), null];

  it("`c[k]` answers as ops.getItem wherever it answers, with a str literal key too", () => {
    const cases = containers().flatMap((c) => KEYS.map((k) => [c, k]));
    const general = (budget: Budget, [c, k]: Value[]) => getItem(c!, k!, budget);
    expect(disagreements(cases, emitted(ITEM_FAST_PATH, 2), general)).toEqual([]);
    const strKeys = cases.filter(([, k]) => typeof k === "string" && k.length > 0 && !k.startsWith("\u0000"));
    expect(disagreements(strKeys, emitted(STR_KEY_ITEM_FAST_PATH, 2), general)).toEqual([]);
  });

  it("`c[k] = v` stores and charges as ops.setItem wherever it stores", () => {
    const store = emitted(SET_ITEM_FAST_PATH, 3);
    const problems: string[] = [];
    let stores = 0;
    for (let i = 0; i < containers().length; i++) {
      for (const k of KEYS) {
        const mine = containers()[i]!;
        const theirs = containers()[i]!;
        const got = outcome((budget) => store(budget, [mine, k, "new"]));
        if ("value" in got && got.value === FELL_THROUGH) continue;
        stores++;
        const want = outcome((budget) => setItem(theirs, k, "new", budget));
        const contents = (c: Value) => (c instanceof PyDict ? [...c.map.entries()] : c instanceof PyList ? c.items : c);
        const stored = JSON.stringify(contents(mine)) === JSON.stringify(contents(theirs));
        if (!("memory" in got) || !("memory" in want) || got.memory !== want.memory || !stored) problems.push(`${i} ${String(k)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(stores).toBeGreaterThan(10);
  });

  it("catch a wrong entry: JavaScript's own % on ints disagrees", () => {
    const jsModulo: FastPath = (t, a, b) => `if (typeof ${a} === "number" && typeof ${b} === "number" && ${b} !== 0) ${t} = ${a} % ${b};`;
    expect(disagreements(PAIRS, emitted(jsModulo, 2), binaryGeneral("%")).length).toBeGreaterThan(0);
    const noNegativeZeroFix: FastPath = (t, a, b) => `if (typeof ${a} === "number" && typeof ${b} === "number" && Number.isSafeInteger(${t} = ${a} * ${b})) {}`;
    expect(disagreements(PAIRS, emitted(noNegativeZeroFix, 2), binaryGeneral("*")).length).toBeGreaterThan(0);
  });
});
