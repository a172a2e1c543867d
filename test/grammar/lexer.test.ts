// The scanner: token kinds, indentation, line joining, literals and their decoded values.
import { describe, expect, it } from "vitest";
import { type Token, tokenize } from "../../grammar/lexer.js";

const kinds = (source: string) => tokenize(source).map((t) => t.tokenType.name);
const only = (source: string, kind: string) => tokenize(source).filter((t) => t.tokenType.name === kind);
const value = (source: string) => (tokenize(source)[0] as Token).payload;

describe("layout", () => {
  it("emits NEWLINE, INDENT and DEDENT from indentation", () => {
    expect(kinds("if x:\n    y\nz\n")).toEqual([
      "KwIf", "Name", "Colon", "Newline", "Indent", "Name", "Newline", "Dedent", "Name", "Newline", "EOF",
    ]);
  });

  it("closes every open block at the end of the file", () => {
    expect(kinds("if a:\n  if b:\n    c").slice(-4)).toEqual(["Newline", "Dedent", "Dedent", "EOF"]);
  });

  it("ignores blank lines and comment-only lines, whatever their indentation", () => {
    expect(kinds("x\n\n      # note\n   \ny\n")).toEqual(["Name", "Newline", "Name", "Newline", "EOF"]);
  });

  it("joins lines inside brackets and after a backslash", () => {
    expect(kinds("f(a,\n  b)\n")).toEqual(["Name", "LParen", "Name", "Comma", "Name", "RParen", "Newline", "EOF"]);
    expect(kinds("x = 1 + \\\n    2\n")).toEqual(["Name", "Assign", "Int", "Plus", "Int", "Newline", "EOF"]);
  });

  it("treats a tab as advancing to the next multiple of eight", () => {
    expect(kinds("if x:\n\ty\n\ty\n")).toContain("Indent");
  });

  it("accepts \\r\\n and \\r line endings", () => {
    expect(kinds("a\r\nb\rc")).toEqual(["Name", "Newline", "Name", "Newline", "Name", "Newline", "EOF"]);
  });

  it("records 1-based lines and columns with exclusive ends", () => {
    const [x, , one] = tokenize("x = 10\n");
    expect([x!.startLine, x!.startColumn, x!.endColumn]).toEqual([1, 1, 2]);
    expect([one!.startColumn, one!.endColumn]).toEqual([5, 7]);
  });
});

describe("names and keywords", () => {
  it("separates keywords from names, and soft keywords stay names", () => {
    expect(kinds("lambda match case type _")).toEqual(["KwLambda", "Name", "Name", "Name", "Name", "Newline", "EOF"]);
  });

  it("reads Unicode names, normalized as CPython does (NFKC)", () => {
    expect(value("café")).toBe("café");
    expect(value("ﬁle")).toBe("file");
  });
});

describe("numbers", () => {
  it("keeps integers exact at any size", () => {
    expect(value("123456789012345678901234567890")).toBe(123456789012345678901234567890n);
    expect(value("0xFF")).toBe(255n);
    expect(value("0o17")).toBe(15n);
    expect(value("0b1010")).toBe(10n);
    expect(value("1_000_000")).toBe(1000000n);
    expect(value("0")).toBe(0n);
    expect(value("00")).toBe(0n);
  });

  it("reads floats in every form", () => {
    expect(value("1.5")).toBe(1.5);
    expect(value(".5")).toBe(0.5);
    expect(value("5.")).toBe(5);
    expect(value("1e10")).toBe(1e10);
    expect(value("1.5E-3")).toBe(0.0015);
    expect(value("1_0.0_1")).toBe(10.01);
    expect(value("1e400")).toBe(Infinity);
    expect(tokenize("1.0")[0]!.tokenType.name).toBe("Float");
    expect(tokenize("1e3")[0]!.tokenType.name).toBe("Float");
  });
});

describe("strings", () => {
  it("decodes every escape", () => {
    expect(value(String.raw`'\n\t\\\'\"\a\b\f\v\r'`)).toBe("\n\t\\'\"\x07\b\f\v\r");
    expect(value(String.raw`'\x41\u00e9\U0001F600'`)).toBe("Aé😀");
    expect(value(String.raw`'\101\0\7'`)).toBe("A\0\x07");
  });

  it("keeps unknown escapes, as CPython does", () => {
    expect(value(String.raw`'\d\q'`)).toBe("\\d\\q");
  });

  it("leaves raw strings alone, even before a quote", () => {
    expect(value(String.raw`r'\n\d'`)).toBe("\\n\\d");
    expect(value(String.raw`r'\''`)).toBe("\\'");
  });

  it("reads triple-quoted strings across lines, and backslash-newline continuations", () => {
    expect(value("'''a\nb'''")).toBe("a\nb");
    expect(value("'a\\\nb'")).toBe("ab");
    expect(value('"""say "hi" """')).toBe('say "hi" ');
  });

  it("reads bytes literals as bytes, keeping \\u sequences literal", () => {
    expect(value(String.raw`b'\x00\xff\u1234'`)).toEqual(new Uint8Array([0, 255, 92, 117, 49, 50, 51, 52]));
    expect(tokenize("B'x'")[0]!.bytes).toBe(true);
  });

  it("accepts every prefix in any case", () => {
    for (const prefix of ["r", "R", "u", "U", "b", "B", "br", "Br", "bR", "BR", "rb", "rB", "Rb", "RB"]) {
      expect(tokenize(`${prefix}'x'`)[0]!.tokenType.name).toBe("String");
    }
    for (const prefix of ["f", "F", "fr", "Fr", "fR", "FR", "rf", "rF", "Rf", "RF"]) {
      expect(tokenize(`${prefix}'x'`)[0]!.tokenType.name).toBe("FStringStart");
    }
  });
});

describe("f-strings", () => {
  it("splits an f-string into literal parts and replacement fields holding ordinary tokens", () => {
    expect(kinds("f'a{x!r:>{w}}b'").slice(0, -2)).toEqual([
      "FStringStart", "FStringMiddle", "FieldStart", "Name", "FieldConversion", "FieldSpecStart", "FStringMiddle",
      "FieldStart", "Name", "FieldEnd", "FieldEnd", "FStringMiddle", "FStringEnd",
    ]);
  });

  it("decodes doubled braces and escapes in the literal parts", () => {
    expect(only("f'{{a}}\\n{x}'", "FStringMiddle").map((t) => t.payload)).toEqual(["{a}\n"]);
  });

  it("keeps the source text of a self-documenting field", () => {
    expect(only("f'{ x + 1 = }'", "FieldEquals")[0]!.payload).toBe(" x + 1 = ");
  });

  it("allows the enclosing quote inside a field (PEP 701)", () => {
    expect(only(`f'{d['k']}'`, "String")[0]!.payload).toBe("k");
  });

  it("treats comparison and != operators in a field as operators, not field syntax", () => {
    expect(kinds("f'{a != b}{a == b}{a <= b}'")).toContain("NotEq");
  });
});
