// Differential tests: every snippet of cases.ts runs under python3 and in the sandbox; printed
// output, the result (SPEC §8 serialization) and the type of an uncaught error must agree.
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { CASES } from "./cases.js";
import { cpython, normalizeResult, plainResult } from "./cpython.js";

const all = Object.entries(CASES).flatMap(([area, sources]) => sources.map((source) => ({ area, source })));
const expected = cpython(all.map((c) => c.source));

describe("the sandbox agrees with CPython", () => {
  it.each(all.map((c, i) => [c.area, c.source, i] as const))("%s: %j", async (_area, source, i) => {
    const theirs = expected[i]!;
    const ours = await execute(source);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(ours.error?.type ?? null).toBe(theirs.error?.type ?? null);
    if (!theirs.error) {
      expect(ours.error).toBeNull();
      expect(plainResult(ours.result)).toEqual(normalizeResult(theirs.result));
    }
  });
});
