// repr() and str() of containers against python3: nesting, keys of several types, quotes, empty
// containers, and containers that hold themselves ([...] and {...}, as repr.ts's Printer tracks
// the containers it is inside).
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { setYieldAlways } from "../../src/interpreter/runtime.js";
import { cpython, expectResultAsCPython } from "./cpython.js";

const SCRIPT = `
a = [1]
a.append(a)
d = {"k": 1}
d["self"] = d
t = (a, d, [a, a])
e = {1: "one", True: "t", 1.5: [1, {"x": (1,)}], None: {}, (): set(), "q'\\"": frozenset()}
RESULT = [repr(a), repr(d), repr(t), repr(e), str(e), repr({}), repr([d, d]), repr({"a": [1, 2], "b": {"c": d}})]`;

describe("repr() of containers", () => {
  it("prints nesting, keys and self-containing containers as CPython does", async () => {
    await expectResultAsCPython(SCRIPT);
  });
});

// Containers past a few hundred items are printed by the paced path (repr.ts reprPaced), which
// pauses between items: the same text as CPython's, for every kind, nested, and holding itself.
const LONG = `
a = list(range(300))
a.append(a)
d = {i: (i, [i, str(i)]) for i in range(400)}
d["self"] = d
s = set(range(500))
f = frozenset(range(300))
t = tuple(range(260)) + ((1,), (), [a[:3]])
n = [[j * i for j in range(150)] for i in range(150)]
print(t, f, sep=" | ")
RESULT = [repr(a), str(d), repr(s), repr(f), repr(t), str(n), repr([a, d]), str((t,)), repr([[], {}, set()] * 200)]`;

describe("repr() of long containers, paced", () => {
  it("gives CPython's text and output", async () => {
    await expectResultAsCPython(LONG);
    const [theirs] = cpython([LONG]);
    const mine = await execute(LONG, { limits: { max_log_bytes: 1 << 20 } });
    expect(mine.stdout).toBe(theirs!.stdout);
    // Again with a pause taken at every other look at the clock: each long container then
    // waits mid-text, and its text must come out the same.
    setYieldAlways(true);
    try {
      const paused = await execute(LONG, { limits: { max_log_bytes: 1 << 20 } });
      expect(paused.result).toEqual(mine.result);
      expect(paused.stdout).toBe(theirs!.stdout);
    } finally {
      setYieldAlways(false);
    }
  });
});
