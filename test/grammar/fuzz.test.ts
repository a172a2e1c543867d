// Property tests: whatever the input, parsing ends quickly with an AST or a PySyntaxError,
// never another exception (no crash, no stack overflow, no hang).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PySyntaxError } from "../../grammar/errors.js";
import { parse } from "../../grammar/parse.js";

function outcome(source: string): "ok" | "syntax-error" {
  try {
    parse(source);
    return "ok";
  } catch (error) {
    if (error instanceof PySyntaxError) return "syntax-error";
    throw new Error(`non-SyntaxError for ${JSON.stringify(source)}: ${String(error)}`);
  }
}

const VOCABULARY = [
  "x", "y", "f", "print", "match", "case", "_", "None", "True", "False", "0", "1", "2.5", "1e9", "0x1f",
  "123456789012345678901234567890", "'s'", '"t"', "'''u'''", "b'b'", "r'\\d'", "f'{x}'", "f'{x!r:>{y}}'",
  "f'{'", "'", '"', "\\", "if", "elif", "else", "for", "in", "while", "def", "return", "lambda", "try",
  "except", "finally", "raise", "from", "import", "as", "and", "or", "not", "is", "pass", "break",
  "continue", "global", "nonlocal", "del", "assert", "async", "await", "class", "with", "yield",
  "(", ")", "[", "]", "{", "}", ",", ":", ";", ".", "...", "=", "==", "!=", "<", ">", "<=", ">=",
  "+", "-", "*", "**", "/", "//", "%", "@", "&", "|", "^", "~", "<<", ">>", "+=", "->", ":=", "!",
  "#c", "\n", "\n", "\n    ", "\n\t", "\n  ", " ", "$", "€", "\u00a0", "__x__", ".__class__",
];

describe("parsing arbitrary input", () => {
  it("random byte strings give an AST or a SyntaxError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const started = performance.now();
        outcome(Buffer.from(bytes).toString("latin1"));
        outcome(Buffer.from(bytes).toString("utf8"));
        expect(performance.now() - started).toBeLessThan(250);
      }),
      { numRuns: 1500, seed: 20261129 },
    );
  });

  it("random strings of printable and unusual characters give an AST or a SyntaxError", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120, unit: "grapheme" }), (text) => {
        outcome(text);
      }),
      { numRuns: 1500, seed: 7 },
    );
  });

  it("random token soups give an AST or a SyntaxError", () => {
    let parsed = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 60 }), (tokens) => {
        const started = performance.now();
        if (outcome(tokens.join(" ")) === "ok") parsed++;
        outcome(tokens.join(""));
        expect(performance.now() - started).toBeLessThan(250);
      }),
      { numRuns: 3000, seed: 42 },
    );
    // Some soups are valid programs: the property exercises the parser, not only the lexer.
    expect(parsed).toBeGreaterThan(10);
  });

  it("deep nesting of every kind gives a SyntaxError, not a stack overflow", () => {
    for (const [open, close] of [["(", ")"], ["[", "]"], ["{", "}"], ["f'{", "}'"], ["x[", "]"], ["f(", ")"]]) {
      expect(outcome(open!.repeat(10_000) + "1" + close!.repeat(10_000))).toBe("syntax-error");
    }
  });
});
