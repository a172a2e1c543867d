// The statistics module: exact averages and spreads (int or float results as CPython's, the same
// floats to the last bit) over many generated datasets, the order statistics, StatisticsError,
// and budgets.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsOnBudget } from "./cpython-cases.js";

/** A small deterministic generator (an LCG), so that every run tests the same datasets. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SHOW = "import statistics as st\ndef show(f, *a, **k):\n    try:\n        r = f(*a, **k)\n    except Exception as e:\n        r = e\n    print(repr(r))\n";

/** Python literals of datasets of every kind the sandbox has: ints, floats of all sizes, bools, big ints, mixes. */
function datasets(): string[] {
  const out: string[] = ["[1]", "[1, 2]", "[1.5]", "[2, 2]", "[True, False, True]", "[0.1, 0.2, 0.3]", "[1e308, 1e308, -1e308]", "[5e-324, 5e-324, 1e300]", "[10**30, 1, -10**29]", "[-1, -2, -4]"];
  const next = lcg(2024);
  for (let d = 0; d < 60; d++) {
    const n = 2 + Math.floor(next() * 30);
    const kind = d % 6;
    const items: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = next();
      if (kind === 0) items.push(String(Math.floor(r * 200) - 50));
      else if (kind === 1) items.push(String(Math.round(r * 1e6) / 1e3));
      else if (kind === 2) items.push(`${(r * 10).toFixed(3)}e${Math.floor(next() * 40) - 20}`);
      else if (kind === 3) items.push(next() < 0.5 ? String(Math.floor(r * 100)) : (r * 100).toPrecision(17));
      else if (kind === 4) items.push(`${Math.floor(r * 1e9)} * 10**${Math.floor(next() * 30)}`);
      else items.push(r < 0.1 ? "True" : r < 0.2 ? "False" : `${(r * 1000).toFixed(1)}`);
    }
    out.push(`[${items.join(", ")}]`);
  }
  return out;
}

const calls = ["mean", "fmean", "median", "median_low", "median_high", "median_grouped", "mode", "multimode", "variance", "pvariance", "stdev", "pstdev", "harmonic_mean", "geometric_mean"];

const generated = datasets().map(
  (data) =>
    `${SHOW}data = ${data}\n` +
    calls.map((f) => `show(st.${f}, data)`).join("\n") +
    "\nshow(st.quantiles, data)\nshow(st.quantiles, data, n=10)\nshow(st.quantiles, data, n=3, method='inclusive')\nshow(st.variance, data, st.mean(data))\nshow(st.pstdev, data, 1)\nshow(st.mean, iter(data))\nshow(st.fmean, data, weights=range(1, len(data) + 1))\nshow(st.harmonic_mean, [abs(x) for x in data], weights=[1] * len(data))",
);

const examples = [
  "import statistics as st\nprint(st.mean([1, 2, 3]), st.mean([1, 2]), st.mean([1.5, 2.5]), st.mean([True, False]), st.mean([True, True]), st.mean(range(10)), st.mean([10**30, 1]), st.mean([0.1, 0.2, 0.3]))",
  "import statistics as st\nprint(st.mean([1e308, 1e308, -1e308]), st.mean([float('inf'), 1]), st.mean([float('inf'), float('-inf')]), st.mean(iter([2, 4])), st.mean([10**400, 1]), st.mean((x for x in [1, 2, 3, 4])))",
  "import statistics as st\nprint(st.fmean([1, 2, 3]), st.fmean([0.1, 0.2, 0.3]), st.fmean(iter([1, 2])), st.fmean([1, 2, 3], weights=[3, 2, 1]), st.fmean([3.5, 4.0, 5.25]), st.fmean(range(5), weights=iter([1, 1, 1, 1, 6])))",
  "import statistics as st\nprint(st.geometric_mean([54, 24, 36]), st.geometric_mean([1, 10, 100]), st.geometric_mean([2**1100, 2**900]), st.harmonic_mean([40, 60]), st.harmonic_mean([40, 60], weights=[5, 30]), st.harmonic_mean([2.5, 3, 10]), st.harmonic_mean([5]), st.harmonic_mean([1, 0, 3]), st.harmonic_mean([0.5]), st.harmonic_mean([1, 2], weights=[0, 1]))",
  "import statistics as st\nprint(st.median([1, 3, 5]), st.median([1, 3, 5, 7]), st.median([1.5, 2]), st.median(['a', 'c', 'b']), st.median_low([1, 3, 5, 7]), st.median_high([1, 3, 5, 7]), st.median_low([1]), st.median_high('cab'), st.median(range(1001)), st.median(range(1000)))",
  "import statistics as st\nprint(st.median_grouped([52, 52, 53, 54]), st.median_grouped([1, 3, 3, 5, 7], interval=1), st.median_grouped([1, 3, 3, 5, 7], interval=2), st.median_grouped([2, 2, 3, 3, 3, 4]), st.median_grouped([1.5]), st.median_grouped(['1', '2', '2']))",
  "import statistics as st\nprint(st.mode([1, 1, 2, 3, 3, 3, 3, 4]), st.mode(['red', 'blue', 'blue', 'red', 'green', 'red', 'red']), st.mode(['red', 'red', 'green', 'blue', 'blue']), st.mode([1, 1.0, True, 2, 2]), st.mode([(1, 2), (1, 2), None]), st.mode('abracadabra'))",
  "import statistics as st\nprint(st.multimode('aabbbbbbbbcc'), st.multimode('aabbbbccddddeeffffgg'), st.multimode(''), st.multimode([1, 2, 2, 1]), st.multimode(iter([3.0, 3, 1])))",
  "import statistics as st\nprint(st.quantiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), st.quantiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], n=10), st.quantiles([1, 2, 3, 4, 5], method='inclusive'), st.quantiles([1.5, 2.5], n=3), st.quantiles([10, 20], n=1), st.quantiles(range(100), n=4, method='inclusive'))",
  "import statistics as st\nprint(st.variance([2.75, 1.75, 1.25, 0.25, 0.5, 1.25, 3.5]), st.variance([1, 2, 3]), st.variance([1, 2, 3, 4]), st.pvariance([0.0, 0.25, 0.25, 1.25, 1.5, 1.75, 2.75, 3.25]), st.pvariance([1, 2, 3, 4]), st.pvariance([1, 3]), st.variance([True, False]))",
  "import statistics as st\nprint(st.stdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75]), st.pstdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75]), st.stdev([1, 2, 3, 4]), st.pstdev([2, 4, 4, 4, 5, 5, 7, 9]), st.stdev([1, 1]), st.pstdev([5]), st.stdev([10**200, 3 * 10**200]))",
  "import statistics as st\nprint(st.variance([1e10 + 1, 1e10 + 2, 1e10 + 3]), st.variance([0.1] * 5 + [0.3]), st.stdev([1e-300, 2e-300, 3e-300]), st.pvariance([float('inf'), 1]), st.variance([10**20, 10**20 + 1, 10**20 + 7]), st.pvariance([float('nan'), 1]))",
  "import statistics as st\nprint(st.stdev([0.1 * i for i in range(100)]), st.pstdev(range(1000)), st.variance(range(1000)), st.mean([0.1 * i for i in range(1000)]), st.fmean([0.1 * i for i in range(1000)]))",
  "import statistics as st\nprint(st.variance([1, 2, 3], 2), st.pvariance([1, 2, 3], 2.5), st.stdev([1, 2, 3], 2), st.pstdev([1.0, 2.0], 1), st.variance([1, 2, 4], xbar=2), st.pvariance([1, 2], mu=True))",
  "import statistics\ntry:\n    statistics.mean([])\nexcept ValueError as e:\n    print('ValueError', repr(e), isinstance(e, statistics.StatisticsError), isinstance(e, ValueError))\ntry:\n    statistics.variance([1])\nexcept statistics.StatisticsError as e:\n    print('caught', e, e.args)\nprint(statistics.StatisticsError)",
];

const errors = [
  "import statistics\nstatistics.mean([])",
  "import statistics\nstatistics.mean(['a', 'b'])",
  "import statistics\nstatistics.mean([[1]])",
  "import statistics\nstatistics.mean(5)",
  "import statistics\nstatistics.mean()",
  "import statistics\nstatistics.mean([1], [2])",
  "import statistics\nstatistics.mean([10**400, 1.5])",
  "import statistics\nstatistics.stdev([1, float('inf')])",
  "import statistics\nstatistics.stdev([1])",
  "import statistics\nstatistics.pstdev([])",
  "import statistics\nstatistics.variance([])",
  "import statistics\nstatistics.pvariance([])",
  "import statistics\nstatistics.variance([1, 'a'])",
  "import statistics\nstatistics.variance([1, 2], 'a')",
  "import statistics\nstatistics.median([])",
  "import statistics\nstatistics.median(['a', 'b'])",
  "import statistics\nstatistics.median([1, 'a'])",
  "import statistics\nstatistics.median_low([])",
  "import statistics\nstatistics.median_high([])",
  "import statistics\nstatistics.median_grouped([])",
  "import statistics\nstatistics.median_grouped(['a', 'b'])",
  "import statistics\nstatistics.median_grouped([[1], [2]])",
  "import statistics\nstatistics.mode([])",
  "import statistics\nstatistics.mode([[1], [1]])",
  "import statistics\nstatistics.mode(5)",
  "import statistics\nstatistics.quantiles([1])",
  "import statistics\nstatistics.quantiles([1, 2], n=0)",
  "import statistics\nstatistics.quantiles([1, 2], n=2.5)",
  "import statistics\nstatistics.quantiles([1, 2], n='4')",
  "import statistics\nstatistics.quantiles([1, 2], method='x')",
  "import statistics\nstatistics.quantiles([1, 2], 3)",
  "import statistics\nstatistics.quantiles([1, 2], m=3)",
  "import statistics\nstatistics.quantiles(['a', 'b'])",
  "import statistics\nstatistics.harmonic_mean([-1, 2])",
  "import statistics\nstatistics.harmonic_mean([])",
  "import statistics\nstatistics.harmonic_mean(['a'])",
  "import statistics\nstatistics.harmonic_mean([1, 2], weights=[1])",
  "import statistics\nstatistics.harmonic_mean([1, 2], weights=[1, -1])",
  "import statistics\nstatistics.harmonic_mean([0, 0], weights=[0, 0])",
  "import statistics\nstatistics.geometric_mean([1, 0])",
  "import statistics\nstatistics.geometric_mean([])",
  "import statistics\nstatistics.geometric_mean([-1, 2])",
  "import statistics\nstatistics.geometric_mean(['a'])",
  "import statistics\nstatistics.fmean([])",
  "import statistics\nstatistics.fmean(['a'])",
  "import statistics\nstatistics.fmean([10**400])",
  "import statistics\nstatistics.fmean([1, 2], weights=[1])",
  "import statistics\nstatistics.fmean([1, 2], weights=[1, -1])",
  "import statistics\nstatistics.nope",
];

agreesWithCPython("statistics agrees with CPython on its examples", examples);
agreesWithCPython("statistics agrees with CPython on generated datasets, to the last bit", generated);
agreesWithCPython("statistics refuses what CPython refuses, with its messages", errors);

describe("statistics", () => {
  it.each([
    ["import statistics\nx = statistics.mean(range(10**9))", "max_steps"],
    ["import statistics\nx = statistics.stdev(iter(range(10**9)))", "max_steps"],
    ["import statistics\nx = statistics.median(range(10**8))", "max_steps"],
    ["import statistics\nx = statistics.variance([10**5000 + i for i in range(2000)])", "max_steps"],
    ["import statistics\nx = statistics.fmean(iter(range(10**9)))", "max_"],
    ["import statistics\nx = statistics.mode(iter(range(10**9)))", "max_"],
  ])("%s stops on the budget without holding the event loop", (source, limit) => expectStopsOnBudget(source, limit));

  it("has no JavaScript names as attributes", async () => {
    for (const expr of ["statistics.constructor", "statistics.mean.call", "statistics.StatisticsError.prototype"]) {
      const r = await execute(`import statistics\nx = ${expr}`);
      expect(r.error?.type, expr).toBe("AttributeError");
    }
  });
});
