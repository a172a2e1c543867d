// Runtime.primeYields: as a loop or function moves to the JS tier in a first run, the execution
// yields at every other one of its next clock checks, so that the new unit takes its ways of
// suspending while V8 still runs it unoptimized (runtime.ts says why).
import { describe, expect, it } from "vitest";
import { Budget, DEFAULT_LIMITS, type Limits } from "../../src/interpreter/budget.js";
import { Runtime } from "../../src/interpreter/runtime.js";

/** A runtime of its own, with a deadline and a slice far away: only primed yields fall due. */
function runtime(): Runtime {
  const now = performance.now();
  return new Runtime({ budget: new Budget({ ...DEFAULT_LIMITS } as Limits), builtins: new Map(), modules: new Map(), hosts: new Map(), deadline: now + 60_000, started: now });
}

/** The clock checks, of the next `checks`, at which a yield fell due (each taken as it does). */
function yieldsOver(rt: Runtime, checks: number): number[] {
  const at: number[] = [];
  for (let check = 0; check < checks; check++) {
    // A clock check every 1024 steps (runtime.ts CLOCK_STEPS).
    for (let i = 0; i < 1024; i++) rt.tick();
    if (rt.shouldYield()) {
      at.push(check);
      void rt.yieldNow().promise;
    }
  }
  return at;
}

describe("priming the yields of code that moved to the JS tier", () => {
  it("yields at every other clock check of the next 16, then at the slice's end only", () => {
    const rt = runtime();
    // The first slice is short: let it end and be granted a long one.
    (rt as unknown as { sliceEnd: number }).sliceEnd = Infinity;
    (rt as unknown as { grantedMs: number }).grantedMs = 60_000;
    expect(yieldsOver(rt, 4)).toEqual([]);
    rt.primeYields();
    expect(yieldsOver(rt, 24)).toEqual([1, 3, 5, 7, 9, 11, 13, 15]);
    rt.finish();
  });
});
