// max_memory_bytes against the real heap: for scripts that keep what they allocate, the memory an
// execution is charged (the size model of src/interpreter/sizes.ts) must be within a factor of 2
// of the heap growth V8 measures while those values are alive, and the attacks that once held
// hundreds of megabytes for a few charged must now stop at the budget.
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { execute, type SandboxResult } from "../../src/interpreter/execute.js";

// gc() without --expose-gc on the command line: the flag set now exposes it to a new context.
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
// A collection may also drop the bytecode of functions not run lately: heap that shrinks for
// reasons of its own, between the two measures of a row.
v8.setFlagsFromString("--no-flush-bytecode");
// Code optimized by TurboFan may hold an execution's values after it ends, until that code is
// replaced or a last-resort collection runs: a measure taken then counts the last run's `x` as
// the heap before this one (in about one row in seven). Without the optimizing tier, none is held.
v8.setFlagsFromString("--no-opt");

/** The heap after full collections, repeated until it stops shrinking (some garbage takes several). */
function heapUsed(): number {
  gc();
  let used = process.memoryUsage().heapUsed;
  for (let i = 0; i < 8; i++) {
    gc();
    const now = process.memoryUsage().heapUsed;
    if (used - now < 64 * 1024) return now;
    used = now;
  }
  return used;
}

interface Measure {
  charged: number;
  measured: number;
  result: SandboxResult;
}

/**
 * Runs `script` between two calls of a host method that measures the heap (after full
 * collections) and reads the memory charged so far: the script is suspended at each, so its
 * globals, and all they hold, are alive when measured.
 */
async function measure(script: string): Promise<Measure> {
  const marks: { heap: number; memory: number }[] = [];
  const result = await execute(`mark.now()\n${script}\nmark.now()\n`, {
    hosts: {
      mark: {
        now: async (_args, _kwargs, { budget }) => {
          marks.push({ heap: heapUsed(), memory: budget.memory });
          return null;
        },
      },
    },
  });
  expect(result.error).toBeNull();
  const [before, after] = marks as [(typeof marks)[0], (typeof marks)[0]];
  return { charged: after.memory - before.memory, measured: after.heap - before.heap, result };
}

const N = 100_000;
/** For rows of objects of 100 bytes or more: as much heap as N slots, or more, in less time. */
const few = N / 4;
const loopN = N / 10;

/** Scripts that keep what they allocate in the global `x`. */
const ROWS: Record<string, string> = {
  "a list of ints": `x = [i for i in range(${N})]`,
  "a list of ints by append": `x = []\nfor i in range(${N}):\n    x.append(i * 10**10)`,
  "a list of floats": `x = [i * 0.5 for i in range(${N})]`,
  "a list of strs": `x = [str(i) for i in range(${N})]`,
  "list(range)": `x = list(range(${N}))`,
  "list(str)": `x = list('a' * ${N})`,
  "list(str) of astral characters": `x = list('\\U0001F600' * ${N})`,
  // The text is joined from a generator, which keeps no list of its words to be charged for.
  // (Built by +=, it is a rope of 200,000 parts that V8 may keep beside the flat copy split makes.)
  "str.split": `s = ' '.join(str(i) for i in range(${N}))\nx = s.split()`,
  "a dict of ints": `x = {i: i for i in range(${N})}`,
  "a dict of strs": `x = {str(i): str(i) for i in range(${N})}`,
  "a list of small dicts": `x = [{'id': i, 'name': 'n'} for i in range(${few})]`,
  "a set": `x = set(range(${N}))`,
  "set algebra and copies": `y = set(range(${N / 2}))\nz = set(range(${N / 2}, ${N}))\nx = [y | z, y.copy(), y - z, y.union(z), y.intersection(y)]`,
  "a list of tuples": `x = [(i, str(i)) for i in range(${few})]`,
  "list(zip)": `x = list(zip(range(${few}), range(${few})))`,
  "dict(zip)": `x = dict(zip(range(${N}), range(${N})))`,
  "list(enumerate)": `x = list(enumerate(range(${few})))`,
  "a list of zip objects": `x = [zip([i], [i]) for i in range(${few})]`,
  "a list of map objects": `x = [map(abs, [i]) for i in range(${few})]`,
  "a list of enumerate objects": `x = [enumerate([i]) for i in range(${few})]`,
  "a list of list iterators": `x = [iter([i]) for i in range(${few})]`,
  "a list of range iterators": `x = [iter(range(i)) for i in range(${few})]`,
  "a list of dict views": `d = {1: 2}\nx = [d.items() for i in range(${few})]`,
  "nested lists": `x = [[i, i] for i in range(${few})]`,
  "exceptions kept in a list": `x = []\nfor i in range(${loopN}):\n    try:\n        raise ValueError(i)\n    except ValueError as e:\n        x.append(e)`,
  "chained exceptions kept": `x = []\nfor i in range(${loopN}):\n    try:\n        try:\n            {}[i]\n        except KeyError as k:\n            raise ValueError(i) from k\n    except ValueError as e:\n        x.append(e)`,
  "an implicit context chain": `x = ValueError(0)\nfor i in range(${loopN}):\n    try:\n        try:\n            raise x\n        except ValueError:\n            raise ValueError(i)\n    except ValueError as e:\n        x = e`,
  closures: `def make(i):\n    return lambda: i\nx = [make(i) for i in range(${few})]`,
  "bound methods": `y = []\nx = [y.append for i in range(${few})]`,
  "a, *x = ...": `a, *x = range(${N})`,
  "[*x] displays": `y = [1, 2]\nx = [[*y, 0.5] for i in range(${few})]`,
  "coroutines": `async def f(i):\n    return i\nx = [f(i) for i in range(${few})]`,
  "bytes objects": `x = [bytes(10) for i in range(${few})]`,
  "tuple()": `x = tuple(range(${N}))`,
  sorted: `x = sorted(range(${N / 2}))`,
  "sorted() of a generator of strs": `y = [str(i) for i in range(${few})]\nx = sorted(s for s in y)`,
  "generators kept, one item taken from each": `y = list(range(10))\nx = [(i * j for i in y if i) for j in range(${few})]\nfor g in x:\n    next(g)`,
  "list() of an iterator over tuples": `y = [(i, i) for i in range(${few})]\nx = [list(iter(y)), list(reversed(y))]`,
};

describe("memory charged against memory used", () => {
  const within = (m: Measure) => m.measured >= 0.5 * m.charged && m.measured <= 2 * m.charged;
  it.each(Object.entries(ROWS))("%s: charged within a factor of 2 of the heap growth", async (_name, script) => {
    let m = await measure(script);
    if (!within(m)) {
      // The heap of a test worker now and then frees a few MB of its own between two measures:
      // a row out of bounds is measured twice more, and the median decides.
      const runs = [m, await measure(script), await measure(script)].sort((x, y) => x.measured - y.measured);
      m = runs[1]!;
    }
    const ratio = m.measured / m.charged;
    expect(ratio, `charged ${m.charged} bytes, measured ${m.measured}`).toBeGreaterThanOrEqual(0.5);
    expect(ratio, `charged ${m.charged} bytes, measured ${m.measured}`).toBeLessThanOrEqual(2);
  });
});

describe("allocation attacks stop at max_memory_bytes", () => {
  // A quarter of the default budget, to be quick; steps are no object: memory must stop each.
  const budget = 16 * 2 ** 20;
  const stops = async (script: string): Promise<SandboxResult> => {
    const before = heapUsed();
    const started = performance.now();
    const r = await execute(script, { limits: { max_steps: 100_000_000, max_memory_bytes: budget } });
    expect(r.error?.type).toBe("ResourceLimitError");
    expect(r.error?.message).toMatch(/max_memory_bytes/);
    expect(r.stats.memory_bytes).toBeLessThanOrEqual(budget);
    // What the script made is still in the heap, uncollected: far less than the 10x of old.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(3 * budget);
    expect(performance.now() - started).toBeLessThan(5000);
    return r;
  };

  it("a list of zip objects", async () => {
    await stops("big = [zip([i], [i]) for i in range(300000)]");
  });

  it("list() of a long str is refused before its characters are split", async () => {
    await stops("s = 'a' * 3 * 10**7\nbig = list(s)");
  });

  it("exceptions a loop keeps", async () => {
    await stops("errs = []\nwhile True:\n    try:\n        raise ValueError('x')\n    except ValueError as e:\n        errs.append(e)");
  });

  it("a chain of exceptions linked by raise ... from", async () => {
    await stops("e = None\nwhile True:\n    try:\n        raise ValueError('x') from e\n    except ValueError as caught:\n        e = caught");
  });

  it("an implicit chain: each exception raised while handling the last", async () => {
    await stops("e = ValueError(0)\nwhile True:\n    try:\n        try:\n            raise e\n        except ValueError:\n            raise ValueError(1)\n    except ValueError as caught:\n        e = caught");
  });
});

describe("temporaries are not charged as if kept", () => {
  it("iterating pairs, raising and catching, and unpacking charge nothing per item", async () => {
    const r = await execute(`
d = {i: i for i in range(1000)}
before = 0
t = 0
for k, v in d.items():
    t += k
for i, (a, b) in enumerate(zip(d, d)):
    t += a
for i in range(1000):
    try:
        {}[i]
    except KeyError:
        t += 1
for c in 'x' * 1000:
    t += 1
RESULT = t`);
    expect(r.error).toBeNull();
    // The dict comprehension alone: 1000 entries of MAP_ENTRY (32) bytes; the loops add nothing.
    expect(r.stats.memory_bytes).toBe(32_000);
  });
});
