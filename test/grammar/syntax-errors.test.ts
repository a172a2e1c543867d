// Syntax errors: CPython's exception type and wording, 1-based line and column, the offending
// line with a caret, and never anything but a PySyntaxError.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PySyntaxError } from "../../grammar/errors.js";
import { parse, tryParse } from "../../grammar/parse.js";
import { ERROR_ROWS } from "./syntax-errors.table.js";

function errorOf(source: string): PySyntaxError {
  const outcome = tryParse(source);
  if (outcome.ok) throw new Error(`parsed without error: ${JSON.stringify(source)}`);
  return outcome.error;
}

describe("syntax errors", () => {
  it("the table covers at least 40 malformed inputs", () => {
    expect(ERROR_ROWS.length).toBeGreaterThanOrEqual(40);
    expect(ERROR_ROWS.filter((r) => r[5] === "same").length).toBeGreaterThanOrEqual(100);
  });

  it.each(ERROR_ROWS)("%j -> %s: %s (%i:%i)", (source, type, message, line, column) => {
    const error = errorOf(source);
    expect({ type: error.type, message: error.message, line: error.line, column: error.column }).toEqual({
      type,
      message,
      line,
      column,
    });
  });

  it("rows marked as CPython's agree with python3's ast.parse", () => {
    const rows = ERROR_ROWS.filter((r) => r[5] !== "ours");
    const script = [
      "import ast, json, sys",
      "out = []",
      "for src in json.load(sys.stdin):",
      "    try:",
      "        ast.parse(src); out.append(None)",
      "    except SyntaxError as e:",
      "        out.append([type(e).__name__, e.msg, e.lineno, e.offset])",
      "print(json.dumps(out))",
    ].join("\n");
    const run = spawnSync("python3", ["-c", script], { input: JSON.stringify(rows.map((r) => r[0])) });
    expect(run.status).toBe(0);
    const cpython = JSON.parse(run.stdout.toString()) as ([string, string, number, number] | null)[];
    const disagreements = rows.flatMap(([source, type, message, line, column, agreement], i) => {
      const theirs = cpython[i];
      const ours = agreement === "same" ? [type, message, line, column] : [type, message, line];
      const expected = theirs && (agreement === "same" ? theirs : theirs.slice(0, 3));
      return JSON.stringify(ours) === JSON.stringify(expected) ? [] : [`${JSON.stringify(source)}: CPython ${JSON.stringify(theirs)}`];
    });
    expect(disagreements).toEqual([]);
  });

  it("renders CPython's traceback form: file and line, the source line, a caret, type and message", () => {
    const error = errorOf("x = 1\nif x\n    pass\n");
    expect(error.format()).toBe(['  File "<script>", line 2', "    if x", "        ^", "SyntaxError: expected ':'"].join("\n"));
  });

  it("underlines the whole offending range", () => {
    const error = errorOf("f() = 1\n");
    expect(error.format("tool.py").split("\n").slice(1, 3)).toEqual(["    f() = 1", "    ^^^"]);
  });

  it("shows a long line as the part around the caret, each cut marked", () => {
    const items = Array.from({ length: 8000 }, (_, i) => String(i)).join(", ");
    const [, shown, caret] = errorOf(`x = [${items} $ 1]\n`).format().split("\n");
    expect(shown!.length).toBeLessThan(200);
    expect(shown).toMatch(/^    \.\.\..*, 7999 \$ 1\]$/);
    // The caret still stands under the `$`.
    expect(shown![caret!.indexOf("^")]).toBe("$");
    const start = errorOf(`x = $ [${items}]\n`).format().split("\n");
    expect(start[1]).toMatch(/^    x = \$ \[0, 1, .*\.\.\.$/);
    expect(start[1]![start[2]!.indexOf("^")]).toBe("$");
  });

  it("counts columns in code points, as CPython does", () => {
    const error = errorOf("s = '🌍🌍' $\n");
    expect(error.column).toBe(10);
    expect(error.text).toBe("s = '🌍🌍' $");
  });

  it("serializes to plain JSON", () => {
    const error = errorOf("x = (1,\n");
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      type: "SyntaxError",
      message: "'(' was never closed",
      line: 1,
      column: 5,
      endLine: 1,
      endColumn: 5,
      text: "x = (1,",
    });
  });

  it("is thrown by parse as a PySyntaxError, an Error subclass", () => {
    expect(() => parse("x = = 1")).toThrow(PySyntaxError);
    expect(() => parse("x = = 1")).toThrow(Error);
  });
});
