// The generated differential corpus: random programs of the dialect (generate.ts) run under
// python3 and in the sandbox; printed output, the uncaught error's type and its message must
// agree. CI runs a few hundred with a fixed seed; more on demand:
//
//   GEN_COUNT=5000 GEN_SEED=7 npm run diff:generated
//
// GEN_DUMP=file.json writes every difference to that file.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { cpython } from "./cpython.js";
import { programs } from "./generate.js";

const COUNT = Number(process.env.GEN_COUNT ?? 300);
const SEED = Number(process.env.GEN_SEED ?? 20261130);

interface Difference {
  source: string;
  ours: string;
  theirs: string;
}

/** What a run printed and how it ended, as one comparable text. */
function transcript(stdout: string, error: { type: string; message: string } | null): string {
  return error ? `${stdout}!! ${error.type}: ${error.message}` : stdout;
}

describe("generated programs agree with CPython", () => {
  it(`${COUNT} programs from seed ${SEED}`, { timeout: 30_000 + COUNT * 50 }, async () => {
    const sources = programs(SEED, COUNT);
    const expected = cpython(sources);
    const differences: Difference[] = [];
    let slow = 0;
    let limited = 0;
    for (const [i, source] of sources.entries()) {
      const theirs = expected[i]!;
      // A program CPython cannot finish in 2 s (a huge power) proves nothing either way.
      if (theirs.error?.type === "Timeout") {
        slow++;
        continue;
      }
      const ours = await execute(source);
      // A budget that runs out (where CPython has no budget, or a MemoryError) is a documented
      // divergence (grammar/LANGUAGE.md), as long as the output up to there agrees.
      if (ours.error?.type === "ResourceLimitError" && theirs.stdout.startsWith(ours.stdout)) {
        limited++;
        continue;
      }
      const a = transcript(ours.stdout, ours.error);
      const b = transcript(theirs.stdout, theirs.error);
      if (a !== b) differences.push({ source, ours: a, theirs: b });
    }
    if (process.env.GEN_DUMP) writeFileSync(process.env.GEN_DUMP, JSON.stringify(differences, null, 1));
    const clip = (text: string) => (text.length > 2000 ? `${text.slice(0, 2000)}... (${text.length} characters)` : text);
    for (const d of differences.slice(0, 20)) console.log(`--- program\n${d.source}--- ours\n${clip(d.ours)}\n--- python3\n${clip(d.theirs)}\n`);
    expect(slow, "programs too slow for python3").toBeLessThan(COUNT / 50 + 1);
    expect(limited, "programs stopped by a budget").toBeLessThan(COUNT / 50 + 1);
    expect(differences.length, `${differences.length} of ${COUNT} programs differ (the first 20 are printed above)`).toBe(0);
  });
});
