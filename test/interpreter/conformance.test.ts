// The conformance suites (../shared/conformance, run by `npm run conformance`): the pass counts
// recorded in bench/RESULTS.md must not drop, and every Monty file we fail is a documented
// divergence.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { conformanceDir, DIVERGENCES, runSuites, tally } from "../../bench/conformance.js";

/** The figures of bench/RESULTS.md's Conformance section. Raise them when a fix lands. */
const RECORDED = { starlark: 283, monty: 295 };

describe.skipIf(!existsSync(conformanceDir()))("the conformance suites", () => {
  it("pass at least as many cases as recorded", { timeout: 60_000 }, async () => {
    const outcomes = await runSuites();
    const { suites } = tally(outcomes);
    expect(suites.get("starlark")!.passed).toBeGreaterThanOrEqual(RECORDED.starlark);
    expect(suites.get("monty")!.passed).toBeGreaterThanOrEqual(RECORDED.monty);
    const unexplained = outcomes.filter((o) => o.suite === "monty" && !o.pass && !DIVERGENCES[`monty/${o.case.file}:1`]);
    expect(unexplained.map((o) => `${o.case.file}: ${o.got}`)).toEqual([]);
  });
});
