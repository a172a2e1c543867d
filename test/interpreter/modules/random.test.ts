// The random module: a seeded generator gives CPython's exact sequence for every function, each
// execution has a generator of its own, hostile sizes stop on the budget, and JS names are not
// attributes.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsOnBudget } from "./cpython-cases.js";

const SEEDS = ["0", "1", "42", "-7", "12345", "2**32", "2**32 - 1", "2**64 + 3", "10**40", "True", "1.5", "-2.25", "0.1", "1e100", "-1.0", "'hello'", "''", "'ünïcode 🌍'", "b'bytes'", "b''"];

/** Every function once or more, after each seed: any drift in the generator or an algorithm shows. */
const everyFunction = SEEDS.map(
  (seed) => `import random
random.seed(${seed})
print(random.random(), random.random(), random.getrandbits(1), random.getrandbits(31), random.getrandbits(32), random.getrandbits(33), random.getrandbits(53), random.getrandbits(54), random.getrandbits(64), random.getrandbits(200))
print(random.randint(1, 6), random.randint(-10**20, 10**20), random.randrange(10), random.randrange(3, 300, 7), random.randrange(50, 10, -3), random.randrange(10**30), random.randrange(2**53 + 5))
print(random.choice('abcdef'), random.choice([1, 2, 3]), random.choice(range(1000)), random.choice((None,)))
l = list(range(30)); random.shuffle(l); print(l)
print(random.sample(range(100), 5), random.sample('abcdefgh', 8), random.sample(range(10**6), 10), random.sample([1, 2, 3], 0), random.sample(range(40), 30))
print(random.sample(['red', 'blue'], counts=[4, 2], k=5), random.sample(range(5), k=3, counts=[1, 0, 2, 5, 1]))
print(random.choices('abc', k=5), random.choices('abc', weights=[1, 5, 10], k=5), random.choices('abc', [0.5, 0, 2.5], k=4), random.choices('abc', cum_weights=[1, 2, 3], k=3), random.choices([1, 2]), random.choices('ab', k=-1))
print(random.uniform(1, 5), random.uniform(2.5, -1), random.triangular(), random.triangular(1, 10, 2), random.triangular(5, 1), random.triangular(3, 3))
print(random.gauss(), random.gauss(10, 2), random.gauss(), random.normalvariate(), random.normalvariate(5, 0.5), random.lognormvariate(0, 1))
print(random.expovariate(1.5), random.expovariate(-2), random.betavariate(2, 5), random.betavariate(0.5, 0.5), random.gammavariate(0.5, 2), random.gammavariate(1, 3), random.gammavariate(7.5, 1))
print(random.vonmisesvariate(1, 4), random.vonmisesvariate(0, 0), random.paretovariate(3), random.weibullvariate(1, 1.5), random.randbytes(7), random.randbytes(0))`,
);

const sequences = [
  // Many draws: the state is regenerated every 624 words.
  "import random\nrandom.seed(5)\nx = [random.random() for _ in range(2000)]\nprint(x[-1], sum(x))",
  "import random\nrandom.seed(6)\nprint([random.randrange(1000) for _ in range(1500)][-8:])",
  "import random\nrandom.seed(7)\nprint([random.getrandbits(100) for _ in range(400)][-2:])",
  "import random\nrandom.seed(3)\nbig = list(range(1000))\nrandom.shuffle(big)\nprint(big[:20], big[-20:])",
  "import random\nrandom.seed(11)\nprint(random.sample(range(30), 25), random.sample(range(10**9), 25))",
  "import random\nrandom.seed(12)\nprint(random.choices(range(10), weights=range(10), k=30))",
  "import random\nrandom.seed(13)\nprint([random.gauss(0, 1) for _ in range(7)])",
  "import random\nrandom.seed(14)\nprint([round(random.gammavariate(a, 1), 12) for a in (0.1, 0.9, 1.0, 1.5, 30)])",
  "import random\nrandom.seed(2**100 + 17)\nprint(random.random(), random.sample('abcdefghij', 4))",
  "import random\nrandom.seed(9)\nprint(random.randbytes(1), random.randbytes(5), random.randbytes(8), random.randbytes(0), random.randbytes(13), random.randbytes(True), len(random.randbytes(100000)), random.random())",
  // Bounds where a bit length computed from a logarithm would be one off.
  "import random\nrandom.seed(9)\nprint([random.randrange(2**53 - 1) for _ in range(5)], [random.randrange(2**40) for _ in range(3)], random.randrange(2**32), random.randrange(2**32 + 1), random.randrange(2**53), random.randrange(2**53 + 1), random.randrange(2**31 - 1))",
  "import random\nrandom.seed('abc', version=1)\nprint(random.random())\nrandom.seed(b'abc', version=1)\nprint(random.random())\nrandom.seed('abc', version=2)\nprint(random.random())",
  "import random\nrandom.seed(1, version=1)\nprint(random.random())",
  "import random\nrandom.seed(5)\nprint(random.randrange(5.0), random.randrange(1.0, 4), random.randrange(0, 10, 2.0), random.randint(1.0, 3.0))",
  // Random instances: their own state, getstate/setstate, gauss's kept value.
  `import random
r = random.Random(7)
s = random.Random(7)
print(r.random() == s.random(), r.randint(1, 6), s.randint(1, 6), type(r), isinstance(r, random.Random), repr(r))
st = r.getstate()
a = [r.random() for _ in range(3)]
r.setstate(st)
b = [r.random() for _ in range(3)]
print(a == b, st[0], len(st[1]), st[2], st[1][-1])
r.seed(99)
print(r.gauss(), r.getstate()[2] is not None, r.gauss(), r.getstate()[2])
t = random.Random()
print(0 <= t.random() < 1, random.Random(x=3).random() == random.Random(3).random(), random.Random('x').random())`,
  `import random
r = random.Random(1)
random.seed(1)
print(r.random() == random.random(), random.Random.random(r) < 1)
random.seed(2)
print(random.random, random.Random, random.getstate()[1][:3])`,
];

const errors = [
  "import random\nrandom.randrange(1, 5, 0)",
  "import random\nrandom.randrange(0)",
  "import random\nrandom.randrange(10, 1)",
  "import random\nrandom.randrange(1, 5, -1)",
  "import random\nrandom.randrange(1.5)",
  "import random\nrandom.randrange(1, 2.5)",
  "import random\nrandom.randrange(1, 9, 1.5)",
  "import random\nrandom.randrange('5')",
  "import random\nrandom.randrange([5])",
  "import random\nrandom.randrange(float('nan'))",
  "import random\nrandom.randrange(5, step=2)",
  "import random\nrandom.randint(1)",
  "import random\nrandom.randint(1, 2, 3)",
  "import random\nrandom.randint(1, 2, a=1)",
  "import random\nrandom.randint(1, 2, c=1)",
  "import random\nrandom.randint(1, 'a')",
  "import random\nrandom.choice([])",
  "import random\nrandom.choice(5)",
  "import random\nrandom.choice({1: 2})",
  "import random\nrandom.choice({1, 2})",
  "import random\nrandom.sample({1, 2}, 1)",
  "import random\nrandom.sample([1, 2, 3], 4)",
  "import random\nrandom.sample([1, 2, 3], -1)",
  "import random\nrandom.sample([1, 2, 3], 2.0)",
  "import random\nrandom.sample([1, 2, 3], 'a')",
  "import random\nrandom.sample([1, 2])",
  "import random\nrandom.sample([1], 1, 2, counts=3)",
  "import random\nrandom.sample([1, 2], 1, counts=[1])",
  "import random\nrandom.sample([1, 2], 1, counts=[1.5, 1])",
  "import random\nrandom.sample([1, 2], 1, counts=[0, 0])",
  "import random\nrandom.choices([1, 2], 3)",
  "import random\nrandom.choices([1, 2], k=2.5)",
  "import random\nrandom.choices([1, 2], [1])",
  "import random\nrandom.choices([1, 2], [0, 0])",
  "import random\nrandom.choices([1, 2], [1, float('inf')])",
  "import random\nrandom.choices([], [])",
  "import random\nrandom.choices([1, 2], [1, 2], cum_weights=[1, 2])",
  "import random\nrandom.choices([1, 2], ['a', 'b'])",
  "import random\nrandom.choices([1, 2], cum_weights=5)",
  "import random\nrandom.random(1)",
  "import random\nrandom.random(x=1)",
  "import random\nrandom.getrandbits()",
  "import random\nrandom.getrandbits(-1)",
  "import random\nrandom.getrandbits(1.5)",
  "import random\nrandom.getrandbits(2**40)",
  "import random\nrandom.getrandbits(k=3)",
  "import random\nrandom.seed([1])",
  "import random\nrandom.seed(1, 2, 3)",
  "import random\nrandom.Random(1, 2)",
  "import random\nrandom.Random([1])",
  "import random\nrandom.shuffle((1, 2))",
  "import random\nrandom.shuffle('ab')",
  "import random\nrandom.shuffle([1], 2)",
  "import random\nrandom.uniform(1)",
  "import random\nrandom.uniform('a', 'b')",
  "import random\nrandom.gauss('a')",
  "import random\nrandom.gauss(1, 2, 3)",
  "import random\nrandom.triangular(1, 2, 3, 4)",
  "import random\nrandom.expovariate(0)",
  "import random\nrandom.gammavariate(0, 1)",
  "import random\nrandom.gammavariate(1, -1)",
  "import random\nrandom.betavariate(-1, 1)",
  "import random\nrandom.randbytes(-1)",
  "import random\nrandom.setstate((1, 2, 3))",
  "import random\nrandom.setstate((3, (1, 2), None))",
  "import random\nrandom.setstate(5)",
  "import random\nrandom.nope",
];

agreesWithCPython("random agrees with CPython after every kind of seed", everyFunction);
agreesWithCPython("random agrees with CPython over long sequences and on Random instances", sequences);
agreesWithCPython("random refuses what CPython refuses, with its messages", errors);

describe("random's generators", () => {
  it("are one per execution: a seed in one run does not reach another", async () => {
    const seeded = await execute("import random\nrandom.seed(1)\nRESULT = random.random()");
    const a = await execute("import random\nRESULT = [random.random() for _ in range(3)]");
    const b = await execute("import random\nRESULT = [random.random() for _ in range(3)]");
    expect(seeded.result).toBe(0.13436424411240122);
    expect(a.result).not.toEqual(b.result);
    expect((a.result as number[])[0]).not.toBe(0.13436424411240122);
  });

  it("share one state among the module's functions within an execution", async () => {
    const r = await execute("import random\nfrom random import random as rnd, seed\nseed(3)\na = rnd()\nimport random as again\nagain.seed(3)\nRESULT = a == random.random()");
    expect(r.result).toBe(true);
  });

  it("have no JavaScript names as attributes", async () => {
    for (const expr of ["random.constructor", "random.Random.constructor", "random.Random().toString", "random.Random().mt", "random.random.call", "random.Random.prototype"]) {
      const r = await execute(`import random\nx = ${expr}`);
      expect(r.error?.type, expr).toBe("AttributeError");
    }
  });
});

describe("random's budgets", () => {
  it.each([
    ["import random\nx = random.getrandbits(2**31 - 1)", "max_memory_bytes"],
    ["import random\nx = random.choices([1], k=10**9)", "max_steps"],
    ["import random\nx = random.sample(range(10**9), 10**8)", "max_steps"],
    ["import random\nx = list(range(10**5))\nfor _ in range(100):\n    random.shuffle(x)", "max_steps"],
    ["import random\nx = random.randbytes(10**8)", "max_memory_bytes"],
    ["import random\nfor _ in range(1000):\n    x = random.randbytes(10**6)", "max_steps"],
    ["import random\nfor i in range(10**6):\n    random.seed(i)", "max_steps"],
  ])("%s stops on the budget quickly, without holding the event loop", (source, limit) => expectStopsOnBudget(source, limit));
});
