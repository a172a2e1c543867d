// Tiering up during a script's first run (compile.ts loopTier and functionBody): a loop that turns
// hot moves to its JavaScript-tier unit at a loop head, with the frame as it is, and a function
// called often moves at a call. A first run that moves mid-loop must give what the closure tier
// alone and the JS tier alone give: result, output, error and its traceback, tool calls, steps and
// memory charged. And a kept script is analysed and compiled once (compile.ts compileModule).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "../../grammar/parse.js";
import { compiledUnitCount, rejectedUnitCount } from "../../src/interpreter/codegen.js";
import { setTextSharing, unitTextCount } from "../../src/interpreter/unit-texts.js";
import { compiledModuleCount } from "../../src/interpreter/compile.js";
import { setCodegen, setTierUp } from "../../src/interpreter/tiering.js";
import { execute, type Hosts } from "../../src/interpreter/execute.js";
import { analyse, analysisCount } from "../../src/interpreter/scope.js";
import { CASES } from "./cases.js";
import { programs } from "./generate.js";

const DEFAULT_TIER = process.env.PY_CODEGEN === "always" ? "always" : "auto";

// The scripts here are sized for moves at the 1000th head and call (the defaults are higher:
// compile.ts says why); the counts are what is tested, not the defaults.
beforeAll(() => setTierUp(1000, 1000));

afterAll(() => {
  expect(rejectedUnitCount()).toBe(0);
  setCodegen(DEFAULT_TIER);
  setTierUp();
});

/** A server whose tools answer on a later turn of the event loop: every call suspends the script. */
function hosts(log: string[]): Hosts {
  const later = <T>(v: T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(v)));
  return {
    srv: {
      double: async (args) => {
        log.push(`double ${String(args[0])}`);
        return later((args[0] as number) * 2);
      },
      fail: async (args) => {
        log.push(`fail ${String(args[0])}`);
        await later(null);
        throw new Error(`no such item: ${String(args[0])}`);
      },
    },
  };
}

interface Outcome {
  result: unknown;
  stdout: string;
  error: string | null;
  traceback: string | null;
  steps: number;
  memory: number;
  calls: string[];
}

let fresh = 0;

/** An outcome as comparable text (a result may hold big ints). */
const text = (o: unknown): string => JSON.stringify(o, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));

/**
 * Runs `source` once as a new script: closures only ("never"), the JS tier only ("always"), or as
 * a first run does ("auto": closures, moving to the JS tier as loops and functions turn hot).
 */
async function run(source: string, tier: "never" | "always" | "auto", limits?: Record<string, number>): Promise<Outcome> {
  setCodegen(tier);
  const log: string[] = [];
  // A new text each time: a kept script's compiled code would carry its tier over.
  const r = await execute(`${source}\n_fresh = ${fresh++}\n`, { hosts: hosts(log), limits });
  return {
    result: r.result,
    stdout: r.stdout,
    error: r.error ? `${r.error.type}: ${r.error.message} (line ${r.error.line})` : null,
    traceback: r.error?.traceback.replace(/_fresh = \d+/, "") ?? null,
    steps: r.stats.steps,
    memory: r.stats.memory_bytes,
    calls: log,
  };
}

/** The three runs of `source` agree; returns the first run's outcome. */
/**
 * `unordered`: the script's concurrent tasks call tools in an order the time slices decide (a
 * slice ends by the clock), so the calls are compared as a multiset.
 */
async function agree(source: string, limits?: Record<string, number>, unordered = false): Promise<Outcome> {
  const order = (o: Outcome): Outcome => (unordered ? { ...o, calls: [...o.calls].sort() } : o);
  const closures = order(await run(source, "never", limits));
  const js = order(await run(source, "always", limits));
  const before = compiledUnitCount();
  const first = order(await run(source, "auto", limits));
  expect(first).toEqual(closures);
  expect(js).toEqual(closures);
  return { ...first, calls: [...first.calls, `units ${compiledUnitCount() - before}`] };
}

describe("a first run that moves to the JS tier mid-loop", () => {
  it("gives the same sums as both tiers, and compiles the loop while it runs", async () => {
    const first = await agree("s = 0\nfor i in range(5000):\n    s += i * 2 % 7\nRESULT = s");
    expect(first.result).toBe(14996);
    // The loop, at its 1000th head; not the module body (a first run).
    expect(first.calls).toEqual(["units 1"]);
  });

  it("keeps break, continue and else of for and while loops", async () => {
    await agree(`
out = []
for i in range(3000):
    if i % 500 == 0:
        continue
    if i == 2750:
        out.append(('broke', i))
        break
else:
    out.append('no break')
for i in range(2500):
    pass
else:
    out.append(('exhausted', i))
n = 0
while n < 4000:
    n += 1
    if n == 3999:
        break
else:
    out.append('while else')
while n < 6000:
    n += 3
else:
    out.append(('while done', n))
RESULT = out`);
  });

  it("moves nested loops, loops in functions and loops at module level", async () => {
    const first = await agree(`
def grid(n):
    total = 0
    for y in range(n):
        row = []
        for x in range(n):
            row.append(x * y % 5)
        total += sum(row)
    return total
def search(limit):
    i = 0
    while True:
        i += 1
        if i * i > limit:
            return i
acc = []
for k in range(3):
    acc.append(grid(40 + k))
    for j in range(1200):
        acc[-1] += j % 3
RESULT = [acc, search(10 ** 7)]`);
    expect(first.error).toBeNull();
  });

  it("raises in the middle of a moved loop with the traceback and line of the closure tier", async () => {
    const first = await agree(`
def pick(xs, i):
    return xs[i]
xs = list(range(100))
total = 0
for i in range(5000):
    if i < 2500:
        total += pick(xs, i % 100)
    else:
        total += pick(xs, i)
RESULT = total`);
    expect(first.error).toBe("IndexError: list index out of range (line 3)");
    expect(first.traceback).toContain("line 10");
  });

  it("catches an exception raised in a moved loop, inside and outside the loop", async () => {
    await agree(`
caught = 0
last = None
for i in range(3000):
    try:
        if i % 250 == 0:
            raise ValueError(i)
    except ValueError as e:
        caught += 1
        last = e.args
try:
    for i in range(3000):
        if i == 2999:
            {}['missing']
except KeyError as e:
    last = ('outside', repr(e), i)
RESULT = [caught, last]`);
  });

  it("stops at exactly max_steps inside a moved loop", async () => {
    for (const limit of [2500, 5001, 12_345]) {
      const first = await agree("t = 0\nwhile True:\n    t += 1\n    if t < 0:\n        break", { max_steps: limit });
      expect(first.error).toMatch(/^ResourceLimitError: max_steps exceeded/);
      expect(first.steps).toBe(limit + 1);
    }
  });

  it("suspends for tool calls inside a moved loop and resumes in it", async () => {
    const first = await agree(`
out = 0
for i in range(3000):
    if i % 400 == 0:
        out += srv.double(i)
    out += 1
try:
    for i in range(1500):
        if i == 1400:
            srv.fail(i)
except Exception as e:
    out = [out, str(e)]
RESULT = out`);
    expect(first.calls.slice(0, 2)).toEqual(["double 0", "double 400"]);
    expect(first.result).toEqual([25400, "no such item: 1400"]);
  });

  it("runs awaits and generator expressions inside moved loops", async () => {
    await agree(`
import asyncio
async def work(n):
    total = 0
    for i in range(n):
        if i % 300 == 0:
            await asyncio.sleep(0)
            total += srv.double(i)
        total += sum(x * x for x in range(i % 4))
    return total
async def main():
    return await asyncio.gather(work(2000), work(1500))
gen = (i * 2 for i in range(3000))
count = 0
for v in gen:
    count += v % 3
RESULT = [asyncio.run(main()), count]`, undefined, true);
  });

  it("moves a function called often while the loop calling it stays where it is", async () => {
    const first = await agree(`
def f(a, b):
    return (a * 31 + b) % 97
t = 0
for i in range(1500):
    t += f(i, t)
RESULT = t`);
    // f at its 1000th call; the loop, with 500 of its 1500 heads left at its 1000th, stays.
    expect(first.calls).toEqual(["units 1"]);
  });

  it("keeps a first run on closures when its iterable has fewer heads left than it has run", async () => {
    const first = await agree(`
s = 0
for i in range(1800):
    s += i % 7
for j in [3] * 2500:
    s -= j
for k in {n: n for n in range(1900)}:
    s += k
RESULT = s`);
    // At the 1000th head the range has 801 heads left, the list 1501, the dict 901: the list's
    // loop alone moves.
    expect(first.calls).toEqual(["units 1"]);
  });
});

describe("a loop of short runs", () => {
  // Each run of the inner loop takes 4 heads, fewer than MIN_HEADS_PER_RUN (tiering.ts): past
  // its 1000th head it waits for its runs to reach the count of calls at which a function moves.
  const nested = `
t = 0
for i in range(600):
    for j in (1, 2, 3):
        t += i * j
RESULT = t`;

  it("stays on closures past its heads' count while its runs are few", async () => {
    const first = await agree(nested);
    expect(first.result).toBe(1_078_200);
    expect(first.calls).toEqual(["units 0"]);
  });

  it("moves at the run at which a function would move at a call", async () => {
    setTierUp(1000, 300);
    try {
      expect((await agree(nested)).calls).toEqual(["units 1"]);
    } finally {
      setTierUp(1000, 1000);
    }
  });
});

describe("a new script whose loop has the shape of one seen before", () => {
  // The same loop under other names and further down: the loop moves at its 1000th head, and
  // raises at its 2000th, in a unit whose JavaScript the first script's unit made.
  const shaped = (suffix: string, pad: string) => `${pad}
def total${suffix}(n${suffix}):
    s${suffix} = 0
    for i${suffix} in range(n${suffix}):
        if i${suffix} == 1999:
            print(later${suffix})
        s${suffix} += i${suffix}
    later${suffix} = 1
    return s${suffix}
RESULT = total${suffix}(3000)`;

  it("shares the unit's JavaScript, with its own names and lines in errors", async () => {
    const first = await agree(shaped("", ""));
    expect(first.error).toBe("UnboundLocalError: cannot access local variable 'later' where it is not associated with a value (line 6)");
    setCodegen("auto");
    await execute(shaped("_a", ""));
    const texts = unitTextCount();
    const moved = await execute(shaped("_of_the_second", "\n\n\n# three lines down"));
    expect(unitTextCount()).toBe(texts);
    expect(moved.error?.message).toBe("cannot access local variable 'later_of_the_second' where it is not associated with a value");
    expect(moved.error?.line).toBe(9);
    expect(moved.error?.traceback).toContain("line 13");
  });
});

describe("a new script whose units have a known shape", () => {
  // At the default counts a unit moves at its 1000th head, call or generator made if its
  // JavaScript text is a known shape (tiering.ts KNOWN_SHAPE_TIER_UP): seen once before, or
  // compiled before. The shapes here are written for this test, so no earlier test made them.
  const calls = (v: string) => `
def mix${v}(a${v}):
    return (a${v} << 3) ^ 0x5a
s${v} = 0
for i${v} in range(4000):
    s${v} ^= mix${v}(i${v}) | 6
RESULT = s${v}`;
  const generators = (v: string) => `
t${v} = 0
for i${v} in range(3000):
    t${v} += sum(x${v} * 3 - 1 for x${v} in (i${v}, 7))
RESULT = t${v}`;

  it.each([
    ["a loop and the function it calls", calls, 2],
    ["a loop and the generator expression it makes", generators, 2],
  ])("keeps %s on closures the first time, moves them early from the second, warm from the third", async (_name, script, units) => {
    setTierUp();
    try {
      const counts: number[][] = [];
      for (const v of ["", "_b", "_c"]) {
        const closures = await run(script(v), "never");
        const compiled = compiledUnitCount();
        const texts = unitTextCount();
        expect(await run(script(v), "auto")).toEqual(closures);
        counts.push([compiledUnitCount() - compiled, unitTextCount() - texts]);
      }
      // With no text shared, a script of the same shape again stays on closures.
      setTextSharing(false);
      const closures = await run(script("_d"), "never");
      const compiled = compiledUnitCount();
      expect(await run(script("_d"), "auto")).toEqual(closures);
      counts.push([compiledUnitCount() - compiled]);
      // Units compiled, and texts new to V8, in each of the runs.
      expect(counts).toEqual([[0, 0], [units, units], [units, 0], [0]]);
    } finally {
      setTextSharing(true);
      setTierUp(1000, 1000);
    }
  });
});

describe("every loop and function moving at once", () => {
  // With the counts at their lowest, each loop moves at its second head and each function at its
  // first call: every case of the corpora runs its loops across the move. Then with a move asked
  // first at the first head or call (a known shape moves there), and again at the third.
  const differential = Object.values(CASES).flat();

  it.each([
    [1, 1, 1000],
    [3, 3, 1],
  ])(`agrees on the ${differential.length} differential cases and 200 generated programs (moving at head %i and call %i, a known shape at %i)`, { timeout: 300_000 }, async (heads, calls, known) => {
    const differences: string[] = [];
    const before = compiledUnitCount();
    try {
      for (const source of [...differential, ...programs(2111, 200)]) {
        setTierUp(1000, 1000);
        // Once first: some modules keep what they compile for later runs (re's patterns), which
        // then cost fewer steps.
        await run(source, "never");
        const closures = await run(source, "never");
        setTierUp(heads, calls, known);
        const first = await run(source, "auto");
        const { calls: _c, ...a } = closures;
        const { calls: _f, ...b } = first;
        if (text(a) !== text(b) || closures.calls.join() !== first.calls.join()) {
          differences.push(`${source}\n  closures: ${text(closures)}\n  first run: ${text(first)}`);
        }
      }
    } finally {
      setTierUp(1000, 1000);
    }
    expect(differences.slice(0, 3)).toEqual([]);
    // The moves did happen: loops, functions and generator expressions by the hundred.
    expect(compiledUnitCount() - before).toBeGreaterThan(100);
  });
});

describe("a kept script", () => {
  it("is analysed and compiled once, on the run that keeps its parse", async () => {
    setCodegen(DEFAULT_TIER);
    const source = `def f(x):\n    return x + 1\nRESULT = [f(i) for i in range(10)]  # kept ${fresh++}`;
    const analysed: number[] = [];
    const compiled: number[] = [];
    for (let i = 0; i < 5; i++) {
      const [a, c] = [analysisCount(), compiledModuleCount()];
      expect((await execute(source)).result).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      analysed.push(analysisCount() - a);
      compiled.push(compiledModuleCount() - c);
    }
    // A first run keeps nothing (most scripts run once); the second keeps its parse and its
    // compiled module, which every later run reuses.
    expect(analysed).toEqual([1, 1, 0, 0, 0]);
    expect(compiled).toEqual([1, 1, 0, 0, 0]);
  });

  it("is compiled again, once and without a new analysis, when its runs turn out heavy", async () => {
    setCodegen("auto");
    const source = `t = 0\nfor i in range(20000):\n    t += i\nRESULT = t  # heavy ${fresh++}`;
    const [a, c] = [analysisCount(), compiledModuleCount()];
    for (let i = 0; i < 5; i++) expect((await execute(source)).result).toBe(199990000);
    expect(analysisCount() - a).toBe(2);
    // Closures on the first two runs, every unit on the JS tier from the third (the kept parse's
    // second run), without analysing it again.
    expect(compiledModuleCount() - c).toBe(3);
    setCodegen(DEFAULT_TIER);
  });

  it("has every slot assigned before compiling: handler, def and import names too", () => {
    const module = parse("def f():\n    try:\n        pass\n    except ValueError as e:\n        pass\n    import json as j\n    from math import floor\n    def g():\n        pass\n    return 1\n");
    const info = analyse(module);
    const scope = info.scopes.get(module.body[0]!)!;
    expect([...scope.variables.keys()].sort()).toEqual(["e", "floor", "g", "j"]);
    expect(scope.slotCount).toBe(4);
    expect(scope.frozen).toBe(true);
    expect(() => scope.declare("late")).toThrow(/after the scope analysis was closed/);
  });
});
