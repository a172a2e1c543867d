// The differential harness of the module tests: each snippet runs under python3 (one process for
// the whole file) and in the sandbox, and both must print the same, fail with the same error type
// and message, and leave the same result.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { cpython, normalizeResult, plainResult } from "../cpython.js";
import { loadSlack, measure } from "../stall.js";

/** One `it` per snippet under `title`, each compared with CPython 3.11's outcome. */
export function agreesWithCPython(title: string, sources: readonly string[]): void {
  const expected = cpython([...sources]);
  describe(title, () => {
    const label = (s: string) => s.replace(/\n/g, " ⏎ ").slice(-120);
    it.each(sources.map((s, i) => [label(s), s, i] as const))("%s", async (_label, source, i) => {
      const theirs = expected[i]!;
      const ours = await execute(source);
      // Line by line, so that a failure shows the lines that differ.
      expect(ours.stdout.split("\n")).toEqual(theirs.stdout.split("\n"));
      expect(ours.error === null ? null : `${ours.error.type}: ${ours.error.message}`).toBe(
        theirs.error === null ? null : `${theirs.error.type}: ${theirs.error.message}`,
      );
      if (!theirs.error) expect(plainResult(ours.result)).toEqual(normalizeResult(theirs.result));
    });
  });
}

/**
 * A program printing the repr of each expression, or its error's type and message (read off its
 * repr: the sandbox has no `__name__`; its UnicodeErrors hold their message only, not CPython's
 * five arguments, so their reprs differ).
 */
export function printEach(setup: string, expressions: readonly string[]): string {
  const caught = `except Exception as e:\n    r = repr(e)\n    print("!", r[:r.find("(")], e)`;
  const body = expressions.map((e) => `try:\n    print(repr(${e}))\n${caught}`).join("\n");
  return `${setup}\n${body}`;
}

/**
 * Runs a hostile script at default limits: it must end with a ResourceLimitError, quickly and
 * without holding the event loop long. The bounds are generous, and the best of three runs
 * counts, and the bounds scale with the load (a loaded machine runs these several times slower): what they catch is work done
 * before a refusal, seconds of it.
 */
export async function expectStopsQuickly(source: string): Promise<void> {
  const wallBound = () => 1000 * loadSlack();
  const stallBound = () => 200 * loadSlack();
  let best = { wallMs: Infinity, stallMs: Infinity, type: "" };
  for (let run = 0; run < 3 && (best.wallMs >= wallBound() || best.stallMs >= stallBound()); run++) {
    const { result, wallMs, stallMs } = await measure(source);
    best = { wallMs: Math.min(best.wallMs, wallMs), stallMs: Math.min(best.stallMs, stallMs), type: result.error?.type ?? "none" };
  }
  expect(best.type).toBe("ResourceLimitError");
  expect(best.wallMs).toBeLessThan(wallBound());
  expect(best.stallMs).toBeLessThan(stallBound());
}
