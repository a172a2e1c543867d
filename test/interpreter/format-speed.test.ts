// Differential tests of format()'s shortcuts against CPython (format-oracle.ts): the common specs
// (width and alignment, d/x/X/o/b, zero padding, '.Nf', '%', no type) have fast paths, and toFixed
// and String(x) are used where they agree with CPython.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PyException } from "../../src/interpreter/errors.js";
import { execute } from "../../src/interpreter/execute.js";
import { FormatSpec, formatValue } from "../../src/interpreter/format.js";
import { floatRepr, repr, str } from "../../src/interpreter/repr.js";
import { normInt, PyFloat, type Value } from "../../src/interpreter/values.js";
import { expectResultAsCPython } from "./cpython.js";
import { type Case, cpythonFormats, cross, differences, neighbour, type Outcome } from "./format-oracle.js";
import { testContext } from "./native-context.js";

const f = (x: number) => new PyFloat(x);

/** Doubles where the shortcuts change hands: toFixed's 1e21, repr's 1e16 and 1e-4, and ties. */
const EDGES = [
  0, -0, Infinity, -Infinity, NaN, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e21, 1e16,
  1e-4, 1e-5, 1e15, 1e20, 1e22, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 0.625, -0.875, 1.005, 2.675, 0.045, 9.995, 99.5,
  0.05, 0.005, 0.0005, 1 / 3, 2 / 3, Math.PI, 123456.789, 2 ** 53, 2 ** 53 - 1, 2 ** 63, 4503599627370495.5,
  9999999999999998, 1e-7, 0.1, 0.2, 0.3, 1e100, 1e-100,
];
const FLOAT_EDGES = [
  ...EDGES,
  ...EDGES.filter((x) => Number.isFinite(x) && x !== 0).flatMap((x) => [neighbour(x, true), neighbour(x, false)]),
].flatMap((x) => [f(x), f(-x)]);

/** Exact ties at every decimal: odd multiples of 2^-k have a 5 as their last of k decimals. */
const TIES = fc
  .sample(
    fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 2 ** 20 }), fc.boolean()),
    { seed: 3, numRuns: 400 },
  )
  .map(([k, m, negative]) => f(((2 * m + 1) / 2 ** k) * (negative ? -1 : 1)));

/**
 * Near-ties for '.nf': (m + 0.5) / 10^n is no double, so the nearest double lies just above or just
 * below the tie, and its neighbours a little further; integer parts up to 2^52 leave few bits to
 * the fraction. Each comes with the precisions around n.
 */
const NEAR_TIES: Case[] = fc
  .sample(
    fc.tuple(
      fc.integer({ min: 1, max: 16 }),
      fc.oneof(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 2 ** 30 }), fc.double({ min: 0, max: 2 ** 52, noNaN: true })),
      fc.integer({ min: 0, max: 10 ** 6 }),
      fc.integer({ min: -2, max: 2 }),
    ),
    { seed: 41, numRuns: 700 },
  )
  .flatMap(([n, whole, m, step]) => {
    let x = Math.floor(whole) + (m % 10 ** n + 0.5) / 10 ** n;
    for (let i = 0; i < Math.abs(step); i++) x = neighbour(x, step > 0);
    return [n - 1, n, n + 1].map((digits): Case => [f(x), `.${digits}f`]);
  });

function randomFloats(seed: number, count: number): Value[] {
  const value = fc.oneof(
    fc.double(),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    fc.double({ min: 1e15, max: 1e22, noNaN: true }),
    fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 1000),
    fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 64),
    fc.integer({ min: -100_000, max: 100_000 }).map((n) => n * 1.5),
    fc.integer({ min: -300, max: 300 }).map((e) => 10 ** e),
  );
  return fc.sample(value, { seed, numRuns: count }).map(f);
}

const FLOAT_SPECS = [
  "", ".0f", ".1f", ".2f", ".3f", ".6f", ".10f", ".17f", ".20f", ".100f", ".101f", "f", "F", ".2F", "%", ".0%",
  ".1%", ".2%", "10.2f", "<12.3f", "^15.1f", "=+12.2f", "012.2f", "+.0f", " .3f", "-.4f", ",.2f", "_.3f", "014,.2f",
  "0=14,.1f", "z.2f", "z.0f", "z", "#.0f", "#", "#%", ">10", "<10", "^11", "=10", "010", "+", " ", ",", "x^12",
  "😀>12.1f", ".3", "g", ".2e",
];

const INTS: Value[] = [
  0, 1, -1, 7, -7, 42, 65, 255, -255, 1000, 4095, -4096, 123456, -987654, 2 ** 31 - 1, -(2 ** 31), 2 ** 53 - 1,
  -(2 ** 53 - 1), normInt(2n ** 53n), normInt(-(2n ** 64n)), normInt(10n ** 30n), 0x1f600, 0x10ffff, 0x110000, true, false,
];

const INT_SPECS = [
  "d", ">6", "<6", "^7", "=8", "x", "X", "#x", "#X", "o", "#o", "b", "#b", "03d", "05d", "+05d", " 5d", "-5d", "+",
  " ", "*>9x", "#010b", "#012_x", "#012_X", ",", "_", "_x", "08,", "012_d", "n", "010n", "c", "5c", "05c", "^5c",
  "😀^8x", "e", ".2f", "%", ".1d", "zd", "s",
];

const STRS: Value[] = ["", "a", "row", "hello world", "héllo", "日本語", "😀x😀", "-5"];

const STR_SPECS = ["", "s", "<5", ">5", "^6", "^7", ".2", "x^9.3", "10", "😀<4", "05", "=5", "+5", "d"];

describe("format()'s shortcuts match CPython", () => {
  it("on floats at the edges of the shortcuts, every spec", () => {
    expect(differences(cross(FLOAT_EDGES, FLOAT_SPECS))).toEqual([]);
  });

  it("on exact ties at every decimal, where toFixed and CPython round apart", () => {
    expect(differences(cross(TIES, FLOAT_SPECS))).toEqual([]);
  });

  it("on near-ties at every decimal up to 17, where the rounding is decided far down", () => {
    expect(differences(NEAR_TIES)).toEqual([]);
  });

  it("on random floats, every spec (fixed seed)", () => {
    expect(differences(cross(randomFloats(17, 250), FLOAT_SPECS))).toEqual([]);
  });

  it("on ints and bools, every spec", () => {
    const random = fc.sample(fc.integer(), { seed: 5, numRuns: 60 });
    expect(differences(cross([...INTS, ...random], INT_SPECS))).toEqual([]);
  });

  it("on strs, every spec", () => {
    expect(differences(cross(STRS, STR_SPECS))).toEqual([]);
  });

  it("repr() of a float is CPython's, at the edges and at random (fixed seed)", () => {
    const values = [...FLOAT_EDGES, ...TIES, ...randomFloats(23, 3000)];
    expect(differences(values.map((v): Case => [v, null]))).toEqual([]);
    // floatRepr is what repr() uses; format(x, '') is str(x), the same text.
    for (const v of values) expect(floatRepr((v as PyFloat).v)).toBe(repr(v));
  });
});

describe("a FormatSpec kept by its caller", () => {
  it("formats every kind of value with that kind's defaults, even after the cache has moved on", () => {
    const texts = ["", ">7", "^9", "07", ".3", "+", "x<6"];
    const values: Value[] = [5, f(-2.5), "ab", true, normInt(-(10n ** 20n)), f(1e16)];
    const cases = cross(values, texts);
    const theirs = cpythonFormats(cases);
    const kept = new Map(texts.map((t) => [t, FormatSpec.of(t)]));
    const run = () =>
      cases.map(([v, text]): Outcome => {
        try {
          return kept.get(text!)!.format(testContext(), v);
        } catch (e) {
          if (e instanceof PyException) return [e.type.name, e.message((x) => str(x), (x) => repr(x))];
          throw e;
        }
      });
    expect(run()).toEqual(theirs);
    // A thousand other specs evict these texts from the cache; the kept objects still work.
    for (let width = 0; width < 1000; width++) formatValue(testContext(), 1, String(width));
    expect(FormatSpec.of(">7")).not.toBe(kept.get(">7"));
    expect(run()).toEqual(theirs);
  });
});

describe("f-strings with the common specs match CPython end to end", () => {
  it("on the benchmark's line and its neighbours", async () => {
    const source = [
      "lines = []",
      "for i in range(-300, 300, 7):",
      "    x = i * 1.5 + i / 64",
      "    lines.append(f\"{i:>6}|{x:10.2f}|{i:x}|{'row':<5}{i % 7:03d}|{x!r}|{x:%}|{x}|{-x:^12.3f}|{i:+08,}|{i:#_b}\")",
      "RESULT = lines",
    ].join("\n");
    await expectResultAsCPython(source);
  });
});

describe("a % template parsed once and kept (format.ts percentPlan)", () => {
  it("charges its literal text on every use, as the parse at each use does", async () => {
    const literal = `t = "a" * 6400 + "%d %%"\n`;
    const once = await execute(`${literal}x = t % 5`);
    const twice = await execute(`${literal}x = t % 5\ny = t % 6`);
    const none = await execute(literal);
    // 6400 literal characters are 6400 steps each time (plus a statement and the conversion).
    expect(once.stats.steps - none.stats.steps).toBeGreaterThanOrEqual(6400);
    expect(twice.stats.steps - once.stats.steps).toBeGreaterThanOrEqual(6400);
  });
});
