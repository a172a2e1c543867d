// Differential test: for every program CPython's `ast.parse` accepts, our AST equals CPython's
// (node kinds, fields, values and source positions; positions inside f-strings excepted, where
// CPython 3.11 reports the whole string's span).
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/parse.js";
import { hasConformance, montyChunks, starlarkChunks } from "./corpus.js";
import { cpythonAsts, normalize } from "./normalize.js";
import { SNIPPETS } from "./snippets.js";

function firstDifference(ours: unknown, theirs: unknown, path = "$"): string | null {
  if (isDeepStrictEqual(ours, theirs)) return null;
  if (typeof ours !== "object" || typeof theirs !== "object" || ours === null || theirs === null) {
    return `${path}: ours ${JSON.stringify(ours)}, CPython ${JSON.stringify(theirs)}`;
  }
  const a = ours as Record<string, unknown>;
  const b = theirs as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDifference(a[key], b[key], `${path}.${key}`);
    if (d) return d;
  }
  return `${path}: differs`;
}

function compare(sources: { name: string; source: string }[]) {
  const theirs = cpythonAsts(sources.map((s) => s.source)) as ({ error?: unknown } & Record<string, unknown>)[];
  const differences: string[] = [];
  let compared = 0;
  sources.forEach(({ name, source }, i) => {
    if (theirs[i]!.error) return;
    let ours: unknown;
    try {
      ours = normalize(parse(source), source);
    } catch {
      return; // rejected constructs and compile-time errors are the conformance test's business
    }
    compared++;
    const d = firstDifference(ours, theirs[i]);
    if (d) differences.push(`${name}: ${d}`);
  });
  return { compared, differences };
}

describe("our AST equals CPython's", () => {
  it("on the grammar's own snippets (every construct of the dialect)", () => {
    const { compared, differences } = compare(SNIPPETS.map((source, i) => ({ name: `snippet ${i}: ${source.slice(0, 40)}`, source })));
    expect(differences).toEqual([]);
    expect(compared).toBe(SNIPPETS.length);
  });

  it.skipIf(!hasConformance)("on every conformance program", () => {
    const chunks = [...montyChunks(), ...starlarkChunks()];
    const { compared, differences } = compare(chunks);
    console.log(`compared ${compared} of ${chunks.length} conformance programs with CPython's ast`);
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(700);
  });
});
