// Parsing in pieces (grammar/pieces.ts) gives exactly what parse() gives: the same Module for
// every script, the same error (type, wording, place) for every script that has one, however
// the source falls into pieces.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type * as A from "../../grammar/ast.js";
import { PySyntaxError } from "../../grammar/errors.js";
import { parse } from "../../grammar/parse.js";
import { PieceParse } from "../../grammar/pieces.js";
import { programs } from "../interpreter/generate.js";
import { montyFiles } from "./corpus.js";
import { ERROR_ROWS } from "./syntax-errors.table.js";

type Outcome = { module: A.Module; pieces: number } | { error: { type: string; message: string; line: number | null; column: number | null } };

function outcome(run: () => { module: A.Module; pieces: number }): Outcome {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof PySyntaxError)) throw e;
    return { error: { type: e.type, message: e.message, line: e.line, column: e.column } };
  }
}

/** The pieces' outcome, one piece per step (a step of 0 ms parses one piece). */
function inPieces(source: string): Outcome {
  return outcome(() => {
    const p = new PieceParse(source);
    for (let pieces = 1; ; pieces++) {
      const module = p.step(0);
      if (module) return { module, pieces };
    }
  });
}

function whole(source: string): Outcome {
  return outcome(() => ({ module: parse(source), pieces: 1 }));
}

/** Both outcomes, the piece count set aside. */
function compare(source: string): number {
  const a = whole(source);
  const b = inPieces(source);
  const pieces = "pieces" in b ? b.pieces : 0;
  if ("pieces" in a) a.pieces = pieces;
  expect(b).toEqual(a);
  return pieces;
}

const typical = readFileSync(fileURLToPath(new URL("../../bench/scripts/typical.py", import.meta.url)), "utf8");
const corpus = programs(18, 1500).join("\n");

describe("parsing in pieces", () => {
  it("gives parse()'s Module for 64 KB of realistic code, in many pieces", () => {
    let source = "";
    for (let i = 0; source.length < 64000; i++) source += typical.replace(/\b(score|summarize|RESULT)\b/g, `$1_${i}`) + "\n";
    expect(compare(source)).toBeGreaterThan(5);
  });

  it("gives parse()'s Module for the generated corpus", () => {
    expect(compare(corpus)).toBeGreaterThan(10);
  });

  it("keeps decorators with their definitions and else/except/finally with their statements", () => {
    const filler = (n: number, name: string) => `${name} = 1\n`.repeat(n);
    const source = [
      filler(600, "a"),
      "@dec\n@dec2(1)\ndef f():\n    pass\n",
      filler(600, "b"),
      "if a:\n    pass\nelif b:\n    pass\nelse:\n    pass\n",
      filler(600, "c"),
      "try:\n    pass\nexcept E:\n    pass\nelse:\n    pass\nfinally:\n    pass\n",
      filler(600, "d"),
      "for x in y:\n    pass\nelse:\n    pass\n@dec\nasync def g():\n    pass\n",
    ].join("");
    expect(compare(source)).toBeGreaterThan(3);
  });

  it("gives parse()'s error, wherever in the pieces it is", () => {
    const long = corpus.slice(0, corpus.indexOf("\n", 8000) + 1);
    for (const [source] of ERROR_ROWS) {
      compare(source);
      compare(long + source);
      compare(source + "\n" + long);
    }
  });

  it("gives parse()'s outcome for the Monty conformance files", () => {
    for (const { source } of montyFiles()) compare(source + "\n" + corpus.slice(0, corpus.indexOf("\n", 6000) + 1));
  });

  it("scans, parses and checks one long statement in three steps", () => {
    const source = `x = [${Array.from({ length: 5000 }, (_, i) => String(i)).join(", ")}]\n`;
    expect(compare(source)).toBe(3);
    const deep = `x = ${Array.from({ length: 1300 }, (_, i) => String(i)).join(" + ")}\n`;
    expect(inPieces(deep)).toMatchObject({ error: { message: "expression nested too deeply (more than 1200 levels)" } });
    compare(deep);
  });

  it("checks the whole module at the end: an await outside async, a return outside a function", () => {
    const long = "x = 1\n".repeat(2000);
    compare(long + "def f():\n    return 1\nawait g()\n");
    compare(long + "return 1\n");
    compare("await g()\n" + long);
  });
});
