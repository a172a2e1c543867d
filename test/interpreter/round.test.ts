// round(x, n) of floats against python3: the toFixed shortcut (builtins.ts roundFloat) and the
// exact path it leaves ties to. The values are exact ties (multiples of 1/8 and 1/1024), decimals
// just off a half (2.675, 1.005), sevenths, edges of the double range and pseudo-random values over
// nine decades, each rounded to 0-7 digits; the script computes them the same way in both.
import { describe, it } from "vitest";
import { expectResultAsCPython } from "./cpython.js";

const SCRIPT = `
vals = [i / 8 for i in range(-80, 80)] + [i / 1024 for i in range(-300, 300, 7)] + [i * 0.001 + 0.0005 for i in range(-200, 200)]
vals += [x / 7 for x in range(-100, 100)] + [2.675, 1.005, 0.125, 0.375, 1e15 + 0.5, 123456.789, -0.0001, 1e-20, 5e-324]
vals += [1.7976931348623157e308, 0.5, 1.5, 2.5, -2.5, 4503599627370495.5]
seed = 12345
for i in range(1500):
    seed = (seed * 1103515245 + 12345) % 2**31
    vals.append((seed / 2**31 - 0.5) * 10 ** (seed % 9 - 3))
out = []
for v in vals:
    for d in range(8):
        out.append(repr(round(v, d)))
out.append([repr(round(2.5)), repr(round(-0.5)), repr(round(0.001, 2)), repr(round(-0.001, 2)), repr(round(7, -1)), repr(round(1.25, ndigits=1))])
RESULT = out`;

describe("round() of a float", () => {
  it("rounds half to even on the exact binary value, as CPython does", async () => {
    await expectResultAsCPython(SCRIPT);
  });
});
