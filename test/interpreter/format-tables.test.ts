// Differential tests against python3 for the formatting shortcuts that replace a String() call by
// arithmetic and look-up tables: repr() of a float that three decimals spell (repr.ts), '.nf' with
// n <= 3 and an integer part on either side of 2^31 (format.ts fixedByArithmetic), zero and space
// padding from tables (repeatFill), and ints in base 10 by String(). Each case sits at an edge of
// a shortcut: the doubles next to a short decimal, the bounds of the ranges, signs and zeros.
// Each case goes through format-oracle.ts, which also holds every output to its step charge.
import { describe, expect, it } from "vitest";
import { floatRepr } from "../../src/interpreter/repr.js";
import { normInt, PyFloat, type Value } from "../../src/interpreter/values.js";
import { expectResultAsCPython } from "./cpython.js";
import { type Case, differences, neighbour } from "./format-oracle.js";

/** The doubles one and two steps up and down from `x` (x > 0). */
function neighbours(x: number): number[] {
  const [down, up] = [neighbour(x, false), neighbour(x, true)];
  return [neighbour(down, false), down, up, neighbour(up, true)];
}

const f = (x: number) => new PyFloat(x);

/** Short decimals (three places or fewer) across the shortcut's range, and the doubles beside them. */
const SHORT = [
  1e-4, 5e-4, 0.00015, 0.001, 0.0015, 0.002, 0.01, 0.05, 0.1, 0.125, 0.2, 0.3, 0.5, 0.999, 1, 1.001, 1.5, 2.675, 9.995,
  10.25, 99.9, 100, 123.456, 999.999, 1000.5, 65535.125, 1048575.875, 2097151.999, 2097152.001, 2147482.999,
  2147483 - 0.001, 2147483, 2147483.001, 2147483.5, 2147484.25, 4294967296.5, 1e15 + 0.5, 1e16 - 2, 1e16, 1e17,
  ...Array.from({ length: 400 }, (_, i) => (i * 7919) % 100003 / 1000),
  ...Array.from({ length: 100 }, (_, i) => i * 1.5 + 0.25),
];
const REPR_VALUES = [
  ...SHORT,
  ...SHORT.filter((x) => x > 0 && x < 1e16).flatMap(neighbours),
  0.1 + 0.2, 1 / 3, 2 / 3, Math.PI, 1e-5, 9.999e-5, 5e-324, 1.7976931348623157e308, 0, -0, NaN, Infinity, -Infinity,
].flatMap((x) => [f(x), f(-x)]);

describe("repr() of a float by its thousandths", () => {
  it("is CPython's for short decimals, the doubles beside them, and the edges", () => {
    expect(differences(REPR_VALUES.map((v): Case => [v, null]))).toEqual([]);
  });

  it("agrees with String() wherever it applies", () => {
    for (const v of REPR_VALUES) {
      const x = (v as PyFloat).v;
      if (Math.abs(x) >= 1e-4 && Math.abs(x) < 1e16) expect(floatRepr(x).replace(/\.0$/, "")).toBe(String(x));
    }
  });
});

describe("'.nf' with the fraction from a table", () => {
  const values = [
    0, -0, 0.004, 0.005, 0.0051, 0.015, 0.125, 0.375, 0.9949, 0.995, 0.9951, 0.9999, 1.0005, 2.675, 9.9995, 99.995,
    2147483647.25, 2147483647.995, 2147483647.9995, 2147483648, 2147483648.125, 2147483648.5, 4294967295.75,
    4294967296.0625, 2 ** 52 - 0.5, 2 ** 52, 1e15 + 0.3, 123456789.987654, NaN, Infinity,
    ...Array.from({ length: 200 }, (_, i) => ((i * 2654435761) % 1000003) / 997),
  ].flatMap((x) => [f(x), f(-x)]);
  const specs = [".1f", ".2f", ".3f", ".4f", "10.2f", "<12.3f", "012.1f", "+.2f", "%", ".1%", ".2F"];

  it("is CPython's for every precision and layout", () => {
    expect(differences(values.flatMap((v) => specs.map((s): Case => [v, s])))).toEqual([]);
  });
});

describe("padding and ints in base 10", () => {
  const ints: Value[] = [
    0, 1, -1, 7, -7, 42, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53 - 1, -(2 ** 53 - 1), normInt(2n ** 53n), normInt(-(2n ** 70n)),
    true, false,
  ];
  const specs = ["d", "03d", "05", "-05", "+07d", "0>8", "0<8", "0^9", "0=9", "064d", "065", "070x", "0>70", "< 66", ">6", "^64", "x>5", "#010b", "03x"];

  it("is CPython's for ints, bools and big ints, zeros and spaces up to the tables' bound and beyond", () => {
    expect(differences(ints.flatMap((v) => specs.map((s): Case => [v, s])))).toEqual([]);
  });

  it("pads floats with zeros as CPython does", () => {
    const floats = [0, -0, 1.5, -2.25, 1e-7, 1e22, NaN, -Infinity].map(f);
    expect(differences(floats.flatMap((v) => ["010", "010.2f", "0<9", "0^11.3f", "070.1f"].map((s): Case => [v, s])))).toEqual([]);
  });
});

describe("f-strings on these paths", () => {
  it("print what CPython prints", async () => {
    const source = [
      "lines = []",
      "for i in range(-40, 40, 3):",
      "    x = i * 1.5 + i / 8",
      "    y = i / 1000 + 2147483 * (i % 2)",
      "    lines.append(f\"{i:>6}|{x:10.2f}|{i:x}|{'row':<5}{i % 7:03d}|{x!r}|{y!r}|{-y}|{y:.3f}|{i:0>4}|{x:012.1f}\")",
      "RESULT = lines",
    ].join("\n");
    await expectResultAsCPython(source);
  });
});
