// The re module against CPython: every snippet of re-corpus.ts runs under python3 and in the
// sandbox, and must print the same text (reprs of matches, patterns, lists...) and raise, if it
// raises, the same exception with the same message.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { cpython, type CPythonOutcome } from "../cpython.js";
import { API, ERRORS, FLAGGED, IGNORECASE, probe, py, SPLITS, SUBS, SYNTAX, UNICODE } from "./re-corpus.js";

const areas = new Map<string, string[]>();
const add = (area: string, sources: string[]) => areas.set(area, sources);

add(
  "syntax",
  SYNTAX.flatMap(([p, texts]) => texts.map((t) => probe(p, t))),
);
add(
  "ignorecase",
  IGNORECASE.flatMap(([p, texts]) => texts.map((t) => probe(p, t, "re.I"))),
);
add(
  "flags",
  FLAGGED.flatMap(([p, flags, texts]) => texts.map((t) => probe(p, t, flags))),
);
add(
  "unicode",
  UNICODE.flatMap(([p, texts]) => texts.map((t) => probe(p, t))),
);
add(
  "sub",
  SUBS.map(([p, repl, t]) => `import re\nprint(re.subn(${py(p)}, ${repl}, ${py(t)}))`),
);
add(
  "split",
  SPLITS.map(([p, t, max]) => `import re\nprint(re.split(${py(p)}, ${py(t)}, ${max}))`),
);
add(
  "errors",
  ERRORS.map((p) => `import re\nre.compile(${py(p)})`),
);
add("api", API);

const all = [...areas.values()].flat();
const expected = cpython(all);

function theirs(o: CPythonOutcome): { stdout: string; error: string | null } {
  return { stdout: o.stdout, error: o.error ? `${o.error.type}: ${o.error.message}` : null };
}

async function ours(source: string): Promise<{ stdout: string; error: string | null }> {
  const r = await execute(source);
  return { stdout: r.stdout, error: r.error ? `${r.error.type}: ${r.error.message}` : null };
}

describe("re agrees with CPython 3.11", () => {
  let offset = 0;
  for (const [area, sources] of areas) {
    const first = offset;
    offset += sources.length;
    it(`${area} (${sources.length} snippets)`, async () => {
      const failures: string[] = [];
      for (let i = 0; i < sources.length; i++) {
        const want = theirs(expected[first + i]!);
        const got = await ours(sources[i]!);
        if (got.stdout !== want.stdout || got.error !== want.error) {
          failures.push(`${sources[i]}\n--- ours:\n${got.stdout}${got.error ?? ""}\n--- CPython:\n${want.stdout}${want.error ?? ""}`);
        }
      }
      expect(failures.join("\n\n=====\n")).toBe("");
    });
  }
});
