// a ** b and pow(a, b) of ints against python3: the shortcut for a base below 2^31 (ops.ts
// intPow: Math.pow when the power is a safe integer, BigInt beyond) and the general path for
// larger bases and negative exponents, with the step charge both make for the result's size.
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { expectResultAsCPython } from "./cpython.js";

const SCRIPT = `
out = []
for a in [0, 1, -1, 2, -2, 3, 7, -7, 10, 46340, 46341, 2**31 - 1, -(2**31) + 1, 2**31, 2**40, -(2**52), 2**60]:
    for b in [0, 1, 2, 3, 5, 16, 31, 32, 53, 64, 100, -1, -2]:
        try:
            out.append(repr(a ** b))
            out.append(repr(pow(a, b)))
        except ZeroDivisionError as e:
            out.append(str(e))
out.append(repr(True ** 2))
out.append(repr(2 ** True))
RESULT = out`;

describe("int ** int", () => {
  it("gives CPython's value, int or float, and CPython's errors", async () => {
    await expectResultAsCPython(SCRIPT);
  });

  it("charges a step per 64 bits of the result and the squarings' work, on the shortcut as on the general path", async () => {
    const steps = async (source: string) => (await execute(source)).stats.steps;
    // 3 has 2 bits: 3 ** 4000 has 8000, ceil(8000 / 64) = 125 steps, plus bigint-cost.ts's
    // powSteps: two squarings of 63 words (2 × 1118), one multiply by 3 (281), a linear pass (125).
    expect((await steps("x = 3 ** 4000")) - (await steps("x = 3 ** 0"))).toBe(125 + 2236 + 281 + 125);
    // 2 ** 40 is above 2^31, on the general path: 41 bits × 100 = 4100 bits, 65 steps; a power
    // of two is a shift, linear: 65 words, 65 steps.
    expect((await steps("x = (2 ** 40) ** 100")) - (await steps("x = (2 ** 40) ** 0"))).toBe(65 + 65);
  });
});
