// Hostile scripts against a module: each must end with ResourceLimitError, and hold the event
// loop no longer than a built-in that spends the same budget (zip over two endless ranges) does
// in the same run (or 250 ms), the best of three runs each, since the machine's other work
// shows up as stalls too.
import { expect } from "vitest";
import { measure } from "../stall.js";

async function bestStall(source: string, bound: number): Promise<number> {
  let best = Infinity;
  for (let run = 0; run < 3 && best >= bound; run++) {
    const { result, stallMs } = await measure(source);
    expect(result.error?.type, source).toBe("ResourceLimitError");
    best = Math.min(best, stallMs);
  }
  return best;
}

export async function expectBoundedStalls(prefix: string, sources: readonly string[]): Promise<void> {
  const builtin = await bestStall("list(zip(range(10**9), range(10**9)))", 0);
  const bound = Math.max(250, 1.5 * builtin);
  for (const source of sources) expect(await bestStall(prefix + source, bound), `${source} (the built-in: ${builtin.toFixed(0)} ms)`).toBeLessThan(bound);
}
