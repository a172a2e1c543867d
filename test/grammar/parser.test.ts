// The parser: representative ASTs for each construct (the CPython differential test covers the
// rest), f-string structure, and the limits that keep hostile input from hurting the host.
import { describe, expect, it } from "vitest";
import type * as A from "../../grammar/ast.js";
import { ELLIPSIS } from "../../grammar/ast.js";
import { PySyntaxError } from "../../grammar/errors.js";
import { parse } from "../../grammar/parse.js";
import { DialectParser } from "../../grammar/parser.js";
import { walk } from "../../grammar/walk.js";

/** The AST without positions, for compact expectations. */
function shape(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shape);
  if (node === null || typeof node !== "object" || node instanceof Uint8Array) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k !== "line" && k !== "col" && k !== "endLine" && k !== "endCol") out[k] = shape(v);
  }
  return out;
}
const expr = (source: string) => shape((parse(source).body[0] as A.ExprStmt).value);
const stmt = (source: string) => shape(parse(source).body[0]);
const name = (id: string) => ({ kind: "Name", id });
const int = (v: number) => ({ kind: "Constant", value: BigInt(v) });
const str = (value: string) => ({ kind: "Constant", value });

describe("the grammar", () => {
  it("passes Chevrotain's grammar checks (no ambiguity, no left recursion) and is LL(1)", () => {
    expect(() => new DialectParser({ validate: true })).not.toThrow();
  });
});

describe("expressions", () => {
  it("follows Python's precedence: ** binds tighter than unary minus on its left", () => {
    expect(expr("-2 ** 2")).toEqual({
      kind: "UnaryOp",
      op: "-",
      operand: { kind: "BinOp", op: "**", left: int(2), right: int(2) },
    });
  });

  it("makes ** right-associative and everything else left-associative", () => {
    expect(expr("a ** b ** c")).toMatchObject({ op: "**", left: name("a"), right: { op: "**" } });
    expect(expr("a - b - c")).toMatchObject({ op: "-", left: { op: "-" }, right: name("c") });
  });

  it("chains comparisons into one Compare, but not through parentheses", () => {
    expect(expr("a < b <= c")).toEqual({ kind: "Compare", left: name("a"), ops: ["<", "<="], comparators: [name("b"), name("c")] });
    expect(expr("(a < b) < c")).toMatchObject({ kind: "Compare", left: { kind: "Compare" }, ops: ["<"] });
  });

  it("reads `not in` and `is not` as single operators", () => {
    expect(expr("a not in b")).toMatchObject({ ops: ["not in"] });
    expect(expr("a is not b")).toMatchObject({ ops: ["is not"] });
  });

  it("gives `not` lower precedence than comparisons and flattens and/or", () => {
    expect(expr("not a == b")).toMatchObject({ kind: "UnaryOp", op: "not", operand: { kind: "Compare" } });
    expect(expr("a or b or c and d")).toMatchObject({
      kind: "BoolOp",
      op: "or",
      values: [name("a"), name("b"), { kind: "BoolOp", op: "and" }],
    });
  });

  it("parses conditional expressions right-nested", () => {
    expect(expr("a if b else c if d else e")).toMatchObject({ kind: "IfExp", body: name("a"), orelse: { kind: "IfExp" } });
  });

  it("parses calls with every kind of argument", () => {
    expect(expr("f(a, *b, c=1, **d)")).toEqual({
      kind: "Call",
      func: name("f"),
      args: [name("a"), { kind: "Starred", value: name("b") }],
      keywords: [
        { kind: "keyword", arg: "c", value: int(1) },
        { kind: "keyword", arg: null, value: name("d") },
      ],
    });
  });

  it("parses slices, and several subscripts as a tuple", () => {
    expect(expr("x[1:2, ::3]")).toMatchObject({
      kind: "Subscript",
      slice: {
        kind: "Tuple",
        elts: [
          { kind: "Slice", lower: int(1), upper: int(2), step: null },
          { kind: "Slice", lower: null, upper: null, step: int(3) },
        ],
      },
    });
  });

  it("parses displays and comprehensions", () => {
    expect(expr("{**a, 'k': 1}")).toEqual({ kind: "Dict", keys: [null, str("k")], values: [name("a"), int(1)] });
    expect(expr("{1, *s}")).toMatchObject({ kind: "Set", elts: [int(1), { kind: "Starred" }] });
    expect(expr("[x for x in y if x for z in x]")).toMatchObject({
      kind: "ListComp",
      generators: [{ target: name("x"), iter: name("y"), ifs: [name("x")] }, { target: name("z") }],
    });
    expect(expr("{k: v for k, v in d}")).toMatchObject({ kind: "DictComp", key: name("k"), value: name("v") });
    expect(expr("(x for x in y)")).toMatchObject({ kind: "GeneratorExp" });
  });

  it("marks parenthesized tuples", () => {
    expect(expr("(1, 2)")).toMatchObject({ kind: "Tuple", parenthesized: true });
    expect(expr("1, 2")).toMatchObject({ kind: "Tuple", parenthesized: false });
    expect(expr("()")).toMatchObject({ kind: "Tuple", elts: [] });
  });

  it("parses lambdas with every parameter form", () => {
    expect(expr("lambda a, /, b=1, *c, d, e=2, **f: a")).toMatchObject({
      kind: "Lambda",
      args: {
        posonlyargs: [{ arg: "a" }],
        args: [{ arg: "b" }],
        defaults: [int(1)],
        vararg: { arg: "c" },
        kwonlyargs: [{ arg: "d" }, { arg: "e" }],
        kwDefaults: [null, int(2)],
        kwarg: { arg: "f" },
      },
    });
  });

  it("parses the walrus operator where Python allows it", () => {
    expect(stmt("if (n := 10) > 5: pass")).toMatchObject({ test: { left: { kind: "NamedExpr", target: name("n") } } });
    expect(stmt("while x := f(): pass")).toMatchObject({ test: { kind: "NamedExpr" } });
  });

  it("keeps literal values exact: bigints, floats, bytes, None, booleans, Ellipsis", () => {
    expect(expr("123456789012345678901234567890")).toEqual(int(0) && { kind: "Constant", value: 123456789012345678901234567890n });
    expect(expr("0.1")).toEqual({ kind: "Constant", value: 0.1 });
    expect(expr("b'ab' b'c'")).toEqual({ kind: "Constant", value: new Uint8Array([97, 98, 99]) });
    expect(expr("None")).toEqual({ kind: "Constant", value: null });
    expect(expr("True")).toEqual({ kind: "Constant", value: true });
    expect(expr("...")).toEqual({ kind: "Constant", value: ELLIPSIS });
    expect(expr("'a' 'b' \"c\"")).toEqual(str("abc"));
  });

  it("accepts await inside async functions", () => {
    const fn = parse("async def f():\n    return await g()\n").body[0] as A.FunctionDef;
    expect(fn.isAsync).toBe(true);
    expect(shape(fn.body[0])).toMatchObject({ kind: "Return", value: { kind: "Await", value: { kind: "Call" } } });
  });
});

describe("f-strings", () => {
  it("splits into constants and formatted values", () => {
    expect(expr("f'a{x}b'")).toEqual({
      kind: "JoinedStr",
      values: [str("a"), { kind: "FormattedValue", value: name("x"), conversion: null, formatSpec: null }, str("b")],
    });
  });

  it("parses conversions and format specs with nested fields", () => {
    expect(expr("f'{x!r:>{w}.{p}f}'")).toEqual({
      kind: "JoinedStr",
      values: [
        {
          kind: "FormattedValue",
          value: name("x"),
          conversion: "r",
          formatSpec: {
            kind: "JoinedStr",
            values: [
              str(">"),
              { kind: "FormattedValue", value: name("w"), conversion: null, formatSpec: null },
              str("."),
              { kind: "FormattedValue", value: name("p"), conversion: null, formatSpec: null },
              str("f"),
            ],
          },
        },
      ],
    });
  });

  it("turns doubled braces into literal braces", () => {
    expect(expr("f'{{x}}'")).toEqual({ kind: "JoinedStr", values: [str("{x}")] });
  });

  it("expands a self-documenting field into its text and the repr of its value", () => {
    expect(expr("f'{x + 1=}'")).toMatchObject({
      values: [str("x + 1="), { kind: "FormattedValue", conversion: "r", formatSpec: null }],
    });
    // With a format spec the value is formatted, not repr'd, as in CPython.
    expect(expr("f'{x=:>4}'")).toMatchObject({ values: [str("x="), { conversion: null, formatSpec: { kind: "JoinedStr" } }] });
    expect(expr("f'{x=!s}'")).toMatchObject({ values: [str("x="), { conversion: "s" }] });
  });

  it("merges adjacent literals, plain strings included", () => {
    expect(expr("'a' f'b{x}c' 'd'")).toMatchObject({ values: [str("ab"), { kind: "FormattedValue" }, str("cd")] });
  });

  it("parses nested f-strings and any expression in a field", () => {
    expect(expr("f'{f\"{x}\"}'")).toMatchObject({ values: [{ value: { kind: "JoinedStr" } }] });
    expect(expr("f'{a if b else c}'")).toMatchObject({ values: [{ value: { kind: "IfExp" } }] });
    expect(expr("f'{x, y}'")).toMatchObject({ values: [{ value: { kind: "Tuple" } }] });
    expect(expr("f'{d[\"k\"]:%Y-%m}'")).toMatchObject({ values: [{ value: { kind: "Subscript" }, formatSpec: { values: [str("%Y-%m")] } }] });
  });

  it("keeps raw f-strings raw", () => {
    expect(expr("rf'\\d{x}'")).toMatchObject({ values: [str("\\d"), { kind: "FormattedValue" }] });
  });
});

describe("statements", () => {
  it("turns elif chains into nested If nodes", () => {
    expect(stmt("if a:\n  x\nelif b:\n  y\nelse:\n  z\n")).toMatchObject({
      kind: "If",
      test: name("a"),
      orelse: [{ kind: "If", test: name("b"), orelse: [{ kind: "Expr", value: name("z") }] }],
    });
  });

  it("parses chained and unpacking assignments", () => {
    expect(stmt("a = b = 1")).toMatchObject({ kind: "Assign", targets: [name("a"), name("b")], value: int(1) });
    expect(stmt("a, *b = c")).toMatchObject({ targets: [{ kind: "Tuple", elts: [name("a"), { kind: "Starred" }] }] });
    expect(stmt("x.y[0] += 2")).toMatchObject({ kind: "AugAssign", op: "+", target: { kind: "Subscript" } });
    expect(stmt("x: int = 1")).toMatchObject({ kind: "AnnAssign", target: name("x"), annotation: name("int"), value: int(1) });
  });

  it("parses try with every clause", () => {
    expect(stmt("try:\n  a\nexcept (A, B) as e:\n  raise C from e\nelse:\n  b\nfinally:\n  c\n")).toMatchObject({
      kind: "Try",
      handlers: [{ type: { kind: "Tuple" }, name: "e", body: [{ kind: "Raise", exc: name("C"), cause: name("e") }] }],
      orelse: [{ kind: "Expr" }],
      finalbody: [{ kind: "Expr" }],
    });
  });

  it("parses imports", () => {
    expect(stmt("import a.b as c, d")).toMatchObject({
      names: [{ name: "a.b", asname: "c" }, { name: "d", asname: null }],
    });
    expect(stmt("from ..m import (x, y as z,)")).toMatchObject({ module: "m", level: 2, names: [{ name: "x" }, { name: "y", asname: "z" }] });
  });

  it("parses functions with defaults, keyword-only parameters, annotations and closures", () => {
    const fn = parse("def f(a: int, b=2, *args, c, **kw) -> str:\n    def g():\n        nonlocal a\n    return g\n")
      .body[0] as A.FunctionDef;
    expect(shape(fn)).toMatchObject({
      name: "f",
      args: { args: [{ arg: "a", annotation: name("int") }, { arg: "b" }], vararg: { arg: "args" }, kwonlyargs: [{ arg: "c" }] },
      returns: name("str"),
      body: [{ kind: "FunctionDef", name: "g", body: [{ kind: "Nonlocal", names: ["a"] }] }, { kind: "Return" }],
    });
  });

  it("lets soft keywords (match, case, type) be ordinary names", () => {
    expect(stmt("match = case")).toMatchObject({ targets: [name("match")], value: name("case") });
    expect(stmt("match(x)")).toMatchObject({ kind: "Expr", value: { kind: "Call" } });
  });

  it("accepts top-level control flow and an empty module", () => {
    expect(parse("").body).toEqual([]);
    expect(parse("for i in x:\n    if i: break\n").body).toHaveLength(1);
  });
});

describe("positions", () => {
  it("gives every node a 1-based line and column and an exclusive end", () => {
    const module = parse("total = sum(\n    x * 2 for x in items\n)\n");
    const assign = module.body[0] as A.Assign;
    expect([assign.line, assign.col, assign.endLine, assign.endCol]).toEqual([1, 1, 3, 2]);
    const call = assign.value as A.Call;
    expect([call.func.line, call.func.col, call.func.endCol]).toEqual([1, 9, 12]);
    let count = 0;
    walk(module, (node) => {
      if ("line" in node) {
        count++;
        expect(node.line).toBeGreaterThanOrEqual(1);
        expect(node.col).toBeGreaterThanOrEqual(1);
      }
    });
    expect(count).toBeGreaterThan(8);
  });
});

describe("limits", () => {
  it("rejects 10,000 nested brackets with a SyntaxError", () => {
    expect(() => parse("(".repeat(10_000) + ")".repeat(10_000))).toThrow("too many nested parentheses");
    expect(() => parse("[".repeat(10_000))).toThrow(PySyntaxError);
  });

  it("accepts 199 nested brackets", () => {
    expect(() => parse("x = " + "(".repeat(199) + "1" + ")".repeat(199))).not.toThrow();
  });

  it("bounds other nesting without overflowing the stack", () => {
    for (const source of [
      "-".repeat(100_000) + "1",
      "not " .repeat(50_000) + "x",
      "lambda: ".repeat(5_000) + "1",
      "x " + "if y else x ".repeat(5_000),
      "2" + " ** 2".repeat(50_000),
      "x" + ".a".repeat(50_000),
      "f" + "()".repeat(50_000),
      "f'{" .repeat(300) + "x" + "}'".repeat(300),
    ]) {
      const started = performance.now();
      let outcome: unknown;
      try {
        parse(source);
        outcome = "parsed";
      } catch (error) {
        outcome = error;
      }
      expect(outcome === "parsed" || outcome instanceof PySyntaxError).toBe(true);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });

  it("bounds the depth of the tree, so consumers can recurse over it safely", () => {
    expect(() => parse("x = " + "1 + ".repeat(1000) + "1")).not.toThrow();
    expect(() => parse("x = " + "1 + ".repeat(1300) + "1")).toThrow("expression nested too deeply (more than 1200 levels)");
    expect(() => parse("x = " + "-".repeat(2000) + "1")).toThrow("nested too deeply");
    expect(() => parse("x" + ".a".repeat(2000))).toThrow("nested too deeply");
  });

  it("rejects more than 100 levels of indentation", () => {
    let source = "";
    for (let i = 0; i < 101; i++) source += " ".repeat(i) + "if x:\n";
    source += " ".repeat(101) + "pass\n";
    expect(() => parse(source)).toThrow("too many levels of indentation");
  });
});
