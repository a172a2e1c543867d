// The scripts code-mode-exec's start-up snapshot runs before its heap is saved
// (src/cli/snapshot-warm-up.ts): each must run to CPython's result, so that what the snapshot
// compiles is the interpreter's ordinary path, not an error path; and none may leave state a
// later run would inherit.
import { describe, expect, it } from "vitest";
import { WARM_UP } from "../../src/cli/snapshot-warm-up.js";
import { execute } from "../../src/interpreter/execute.js";
import { cpython, normalizeResult, plainResult } from "../interpreter/cpython.js";

describe("the snapshot's warm-up scripts", () => {
  it("run to CPython's result, with nothing printed and no error", async () => {
    const theirs = cpython([...WARM_UP]);
    for (const [i, script] of WARM_UP.entries()) {
      expect(theirs[i]!.error, `script ${i} under CPython`).toBeNull();
      const ours = await execute(script);
      expect(ours.error, `script ${i}`).toBeNull();
      expect(ours.stdout).toBe("");
      expect(plainResult(ours.result)).toEqual(normalizeResult(theirs[i]!.result));
    }
  });

  it("import nothing whose state a run would inherit", () => {
    for (const script of WARM_UP) {
      const imported = [...script.matchAll(/^\s*(?:import|from)\s+([\w.]+)/gm)].map((m) => m[1]);
      expect(imported.filter((name) => /^(random|time|datetime|uuid|workspace|asyncio)\b/.test(name!))).toEqual([]);
    }
  });
});
