// Every program of the public conformance suites parses, except chunks that are meant to fail
// with the syntax error we give, and chunks that use a construct the sandbox rejects.
import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/parse.js";
import { PySyntaxError } from "../../grammar/errors.js";
import { type Chunk, hasConformance, montyChunks, starlarkChunks } from "./corpus.js";

/** The starlark rule: lower-cased, a substring or a regular expression search; monty: a substring. */
function expectationMatches(expected: string, message: string): boolean {
  const text = message.toLowerCase();
  const want = expected.toLowerCase();
  if (text.includes(want)) return true;
  const monty = /^\w+(?:\("(.*)"\)|\('(.*)'\)|: (.*))$/.exec(expected);
  if (monty) return message.includes(monty[1] ?? monty[2] ?? monty[3] ?? "\u0000");
  try {
    return new RegExp(want).test(text);
  } catch {
    return false;
  }
}

/** Starlark names its parse errors "syntax error" or "parse error"; ours are all SyntaxErrors. */
const ANY_SYNTAX_ERROR = /syntax error|parse error/;

const REJECTED = /is not supported in the sandbox|are not supported in the sandbox|not accessible in the sandbox/;

function classify(chunks: Chunk[]) {
  const counts = { parsed: 0, expectedSyntaxError: 0, rejectedConstruct: 0 };
  const unexpected: string[] = [];
  for (const chunk of chunks) {
    try {
      parse(chunk.source);
      counts.parsed++;
    } catch (error) {
      if (!(error instanceof PySyntaxError)) throw error;
      const expected = chunk.expectedError;
      if (expected && (expectationMatches(expected, error.message) || ANY_SYNTAX_ERROR.test(expected))) {
        counts.expectedSyntaxError++;
      }
      else if (REJECTED.test(error.message)) counts.rejectedConstruct++;
      else unexpected.push(`${chunk.name}: ${error.type}: ${error.message} (line ${error.line})`);
    }
  }
  return { counts, unexpected };
}

describe.skipIf(!hasConformance)("the conformance suites parse", () => {
  it("monty: every file parses or fails as it expects", () => {
    const chunks = montyChunks();
    const { counts, unexpected } = classify(chunks);
    console.log(`monty: ${chunks.length} files`, counts);
    expect(unexpected).toEqual([]);
    expect(counts.parsed).toBeGreaterThan(280);
  });

  it("starlark: every chunk parses or fails as it expects", () => {
    const chunks = starlarkChunks();
    const { counts, unexpected } = classify(chunks);
    console.log(`starlark: ${chunks.length} chunks`, counts);
    expect(unexpected).toEqual([]);
    expect(counts.parsed).toBeGreaterThan(420);
  });
});
