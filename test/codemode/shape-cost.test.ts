// What learning a shape costs a call (issue 20): shapeOf on 1 MB results, as the bridge hands
// them over, stays far under the ~20 ms a single operation may hold the event loop.
import { describe, expect, it } from "vitest";
import { defaultCodecs } from "../../src/codemode/media.js";
import { normalizeResult } from "../../src/codemode/normalize.js";
import { shapeOf, shapeText } from "../../src/codemode/shape.js";
import { Budget, DEFAULT_LIMITS } from "../../src/interpreter/budget.js";

/** A JSON text of about `bytes` bytes, normalized as a tool's one text block is. */
async function result(payload: (n: number) => unknown, bytes: number) {
  let n = 64;
  let text = JSON.stringify(payload(n));
  while (text.length < bytes) {
    n *= 2;
    text = JSON.stringify(payload(n));
  }
  const budget = new Budget({ ...DEFAULT_LIMITS, max_value_bytes: 2 * bytes });
  const normalized = await normalizeResult({ content: [{ type: "text", text }] }, { codecs: defaultCodecs(), budget });
  return { text, value: normalized.value };
}

const rows = (n: number) => ({
  items: Array.from({ length: n }, (_, i) => ({ id: i, title: `row ${i}`, tags: ["a", "b"], owner: { login: "x", id: i }, score: i / 3 })),
  total: n,
});
const wide = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, { id: i, name: `n${i}` }]));
const deep = (n: number) => Array.from({ length: n }, (_, i) => ({ a: { b: { c: { d: { e: [i, `${i}`] } } } } }));
// Lists of lists of records: the most merging per value looked at (before MAX_VISITS was 500, 13 ms cold).
const grid = (n: number) => Array.from({ length: n / 32 }, (_, i) => Array.from({ length: 40 }, (_, j) => ({ a: i, b: { c: j, d: [{ e: 1, f: "x" }] } })));

describe("shapeOf on a 1 MB result", () => {
  for (const [name, payload] of [["a list of records", rows], ["a dict of 10k+ keys", wide], ["deeply nested records", deep], ["a grid of records", grid]] as const) {
    it(`takes well under 20 ms: ${name}`, async () => {
      const { text, value } = await result(payload, 1 << 20);
      expect(text.length).toBeGreaterThanOrEqual(1 << 20);
      const times: number[] = [];
      for (let i = 0; i < 21; i++) {
        const start = performance.now();
        shapeOf(value);
        times.push(performance.now() - start);
      }
      // The first run is the one a gateway pays: shapeOf runs rarely, so V8 has not optimized it.
      const first = times[0]!;
      times.sort((a, b) => a - b);
      const median = times[10]!;
      console.log(`shapeOf, ${name}, ${(text.length / 1e6).toFixed(2)} MB: first ${first.toFixed(2)} ms, median ${median.toFixed(2)} ms, max ${times[20]!.toFixed(2)} ms`);
      expect(first).toBeLessThan(15);
      expect(median).toBeLessThan(5);
      expect(shapeText(shapeOf(value)).length).toBeGreaterThan(0);
    });
  }
});
