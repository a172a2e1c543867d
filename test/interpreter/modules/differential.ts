// A differential table for a standard module's tests: every snippet runs under python3 (all in
// one process) and in the sandbox, which must agree on printed output, the uncaught error's type
// and message, and the result.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { cpython, normalizeResult, plainResult } from "../cpython.js";

/** A snippet, or one whose error message is deliberately not compared (`typeOnly` says why). */
export type Snippet = string | { source: string; typeOnly: string };

/** Describes `title` with one test per snippet, comparing it with CPython's run of it. */
export function agreesWithCPython(title: string, snippets: readonly Snippet[]): void {
  const sources = snippets.map((s) => (typeof s === "string" ? s : s.source));
  const expected = cpython(sources);
  describe(title, () => {
    it.each(sources.map((source, i) => [source, i] as const))("%s", async (source, i) => {
      const theirs = expected[i]!;
      const ours = await execute(source);
      expect(ours.stdout).toBe(theirs.stdout);
      expect(ours.error?.type ?? null).toBe(theirs.error?.type ?? null);
      if (theirs.error && typeof snippets[i] === "string") expect(ours.error?.message).toBe(theirs.error.message);
      if (!theirs.error) expect(plainResult(ours.result)).toEqual(normalizeResult(theirs.result));
    });
  });
}
