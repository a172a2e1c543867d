// The differential section of a module's tests: each snippet runs under python3 (all in one
// process) and in the sandbox, and must print the same text (reprs included), fail with the same
// error type and message, and leave the same result.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { cpython, normalizeResult, plainResult } from "../cpython.js";
import { measure } from "../stall.js";

/** CPython's reprs of objects carry their address; the sandbox's do not. */
const ADDRESS = / at 0x[0-9a-f]+/g;

export function agreesWithCPython(title: string, sources: readonly string[]): void {
  const expected = cpython([...sources]);
  describe(title, () => {
    it.each(sources.map((s, i) => [s, i] as const))("%s", async (source, i) => {
      const theirs = expected[i]!;
      const ours = await execute(source);
      expect(ours.stdout).toBe(theirs.stdout.replace(ADDRESS, ""));
      expect(ours.error?.type ?? null).toBe(theirs.error?.type ?? null);
      if (theirs.error) expect(ours.error?.message).toBe(theirs.error.message);
      else expect(plainResult(ours.result)).toEqual(normalizeResult(theirs.result));
    });
  });
}

/**
 * Runs a hostile script (once at a lower step limit first, so that compiling the code it reaches
 * is not what gets timed) and expects it to end on the `limit` budget quickly, without holding the
 * event loop. Warm, these stall 20-130 ms on the 2-core machine the tests run on, shared by other
 * work; the bound is loose so that only a native that is not charged (seconds) fails it.
 */
export async function expectStopsOnBudget(source: string, limit: string): Promise<void> {
  await execute(source, { limits: { max_steps: 300_000 } });
  const { result, wallMs, stallMs } = await measure(source);
  expect(result.error?.type).toBe("ResourceLimitError");
  expect(result.error?.message).toContain(limit);
  expect(wallMs).toBeLessThan(3000);
  expect(stallMs).toBeLessThan(400);
}
