// The dialect's parser: Chevrotain tokens -> AST (ast.ts), as an embedded-actions parser.
//
// Design notes:
// - Binary and boolean operators, comparisons and the prefix operators are parsed by one rule
//   (`operators`) as a flat sequence and folded by precedence in an action (shunting-yard). This
//   keeps the parser to a handful of rule calls per operand instead of one per precedence level,
//   which is most of its speed, and keeps the JavaScript stack shallow.
// - Where Python's grammar needs two tokens of lookahead (keyword arguments, walrus, slices,
//   assignment targets), we parse the general form and check it in an action, which is also
//   where CPython's specific messages ("cannot assign to function call here...") come from.
// - Grammar DSL calls must not depend on parsed values (Chevrotain records the grammar by running
//   the rules once), so every computation on values sits inside ACTION or a GATE.
import {
  EmbeddedActionsParser,
  tokenMatcher,
  type IOrAlt,
  type IParserErrorMessageProvider,
  type IRecognitionException,
  type TokenType,
} from "chevrotain";
import type * as A from "./ast.js";
import { ELLIPSIS } from "./ast.js";
import { syntaxErrorAt, PySyntaxError } from "./errors.js";
import type { Token } from "./lexer.js";
import * as T from "./tokens.js";
import { unsupported } from "./unsupported.js";

/** Expressions nest at most this deep (brackets alone stop at 200 in the scanner). */
export const MAX_EXPRESSION_DEPTH = 250;

// Flags of the `expression` rule: which of Python's expression levels is wanted.
/** `*x` is allowed (display elements, assignment and `for` targets). */
const STAR = 1;
/** `x := y` is allowed. */
const WALRUS = 2;
/** An operand only: no conditional expression, no lambda (comprehension clauses, `*x`). */
const OPERAND = 4;
/** Stop before a bare `in` (`for` targets). */
const NO_IN = 8;

// ------------------------------------------------------------------ node helpers

type Located = A.Span;

function tokenSpan(t: Token): A.Span {
  return { line: t.startLine!, col: t.startColumn!, endLine: t.endLine!, endCol: t.endColumn! };
}

function isToken(x: Token | Located): x is Token {
  return (x as Token).tokenType !== undefined;
}

// Nodes spell their span fields out (`line: lineOf(a), ...`) rather than spreading a span object:
// a spread in an object literal is several times slower to build, and nodes are built by the thousand.
function lineOf(x: Token | Located): number {
  return isToken(x) ? x.startLine! : x.line;
}
function colOf(x: Token | Located): number {
  return isToken(x) ? x.startColumn! : x.col;
}
function endLineOf(x: Token | Located): number {
  return isToken(x) ? x.endLine! : x.endLine;
}
function endColOf(x: Token | Located): number {
  return isToken(x) ? x.endColumn! : x.endCol;
}

function spanOf(from: Token | Located, to: Token | Located): A.Span {
  const a = isToken(from);
  const b = isToken(to);
  return {
    line: a ? (from as Token).startLine! : (from as Located).line,
    col: a ? (from as Token).startColumn! : (from as Located).col,
    endLine: b ? (to as Token).endLine! : (to as Located).endLine,
    endCol: b ? (to as Token).endColumn! : (to as Located).endCol,
  };
}

/** A parse failure the error mapper turns into a CPython-style message. */
export class ParseFailure extends Error {
  constructor(
    message: string,
    readonly from: Token | Located,
    readonly to: Token | Located = from,
    readonly type: "SyntaxError" | "IndentationError" = "SyntaxError",
  ) {
    super(message);
  }
}

// ------------------------------------------------------------------ operators

interface OperatorInfo {
  precedence: number;
  kind: "bool" | "compare" | "binary";
  op: string;
}

const binaryInfo = new Map<TokenType, OperatorInfo>([
  [T.Or, { precedence: 1, kind: "bool", op: "or" }],
  [T.And, { precedence: 2, kind: "bool", op: "and" }],
  [T.In, { precedence: 4, kind: "compare", op: "in" }],
  [T.Is, { precedence: 4, kind: "compare", op: "is" }],
  [T.Less, { precedence: 4, kind: "compare", op: "<" }],
  [T.Greater, { precedence: 4, kind: "compare", op: ">" }],
  [T.LessEq, { precedence: 4, kind: "compare", op: "<=" }],
  [T.GreaterEq, { precedence: 4, kind: "compare", op: ">=" }],
  [T.EqEq, { precedence: 4, kind: "compare", op: "==" }],
  [T.NotEq, { precedence: 4, kind: "compare", op: "!=" }],
  [T.Pipe, { precedence: 5, kind: "binary", op: "|" }],
  [T.Caret, { precedence: 6, kind: "binary", op: "^" }],
  [T.Amp, { precedence: 7, kind: "binary", op: "&" }],
  [T.LShift, { precedence: 8, kind: "binary", op: "<<" }],
  [T.RShift, { precedence: 8, kind: "binary", op: ">>" }],
  [T.Plus, { precedence: 9, kind: "binary", op: "+" }],
  [T.Minus, { precedence: 9, kind: "binary", op: "-" }],
  [T.Star, { precedence: 10, kind: "binary", op: "*" }],
  [T.At, { precedence: 10, kind: "binary", op: "@" }],
  [T.Slash, { precedence: 10, kind: "binary", op: "/" }],
  [T.DoubleSlash, { precedence: 10, kind: "binary", op: "//" }],
  [T.Percent, { precedence: 10, kind: "binary", op: "%" }],
  [T.DoubleStar, { precedence: 12, kind: "binary", op: "**" }],
]);
const NOT_IN: OperatorInfo = { precedence: 4, kind: "compare", op: "not in" };
const IS_NOT: OperatorInfo = { precedence: 4, kind: "compare", op: "is not" };
const NOT_PRECEDENCE = 3;
const UNARY_PRECEDENCE = 11;

/** One element of an operator sequence: a prefix operator, an operand, or a binary operator. */
type SeqItem =
  | { t: "prefix"; token: Token }
  | { t: "operand"; expr: A.Expr; first: Token; last: Token }
  | { t: "binary"; info: OperatorInfo; token: Token };

interface StackOp {
  prefix: boolean;
  precedence: number;
  info: OperatorInfo | null;
  token: Token;
}

/** Folds `[prefix*] operand (binary [prefix*] operand)*` by Python's precedence rules. */
function foldOperators(items: SeqItem[]): A.Expr {
  if (items.length === 1) return (items[0] as { expr: A.Expr }).expr;
  if (items.length === 3 && items[0]!.t === "operand" && items[1]!.t === "binary" && items[2]!.t === "operand") {
    return foldPair(items[0], items[1].info, items[2]);
  }
  const out: A.Expr[] = [];
  // Each operand's span with its parentheses: `(a) + b` starts at the `(`, as in CPython.
  const outer: A.Span[] = [];
  const push = (e: A.Expr, span: A.Span = e) => {
    out.push(e);
    outer.push(span);
  };
  const ops: StackOp[] = [];
  // Nodes built in this sequence may be extended: `a < b < c` is one Compare, `a or b or c` one BoolOp.
  const chains = new Set<A.Expr>();
  const reduce = () => {
    const top = ops.pop()!;
    if (top.prefix) {
      const operand = out.pop()!;
      const operandSpan = outer.pop()!;
      const image = top.token.image;
      push({
        kind: "UnaryOp",
        op: image as A.UnaryOperator,
        operand,
        line: lineOf(top.token), col: colOf(top.token), endLine: endLineOf(operandSpan), endCol: endColOf(operandSpan),
      });
      return;
    }
    const right = out.pop()!;
    const rightSpan = outer.pop()!;
    const left = out.pop()!;
    const leftSpan = outer.pop()!;
    const span = spanOf(leftSpan, rightSpan);
    const info = top.info!;
    if (info.kind === "compare") {
      if (left.kind === "Compare" && chains.has(left)) {
        left.ops.push(info.op as A.CompareOperator);
        left.comparators.push(right);
        left.endLine = span.endLine;
        left.endCol = span.endCol;
        push(left);
        return;
      }
      const node: A.Compare = {
        kind: "Compare",
        left,
        ops: [info.op as A.CompareOperator],
        comparators: [right],
        line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol,
      };
      chains.add(node);
      push(node);
    } else if (info.kind === "bool") {
      if (left.kind === "BoolOp" && left.op === info.op && chains.has(left)) {
        left.values.push(right);
        left.endLine = span.endLine;
        left.endCol = span.endCol;
        push(left);
        return;
      }
      const node: A.BoolOp = {
        kind: "BoolOp",
        op: info.op as "and" | "or",
        values: [left, right],
        line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol,
      };
      chains.add(node);
      push(node);
    } else {
      push({
        kind: "BinOp",
        op: info.op as A.BinaryOperator,
        left,
        right,
        line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol,
      });
    }
  };
  let previous: SeqItem | null = null;
  for (const item of items) {
    if (item.t === "operand") {
      push(item.expr, spanOf(item.first, item.last));
    } else if (item.t === "prefix") {
      const isNot = item.token.tokenType === T.Not;
      if (isNot) {
        // `not` binds looser than comparisons, so it may only start an operand of and/or/not.
        const ok =
          previous === null ||
          (previous.t === "binary" && previous.info.kind === "bool") ||
          (previous.t === "prefix" && previous.token.tokenType === T.Not);
        if (!ok) throw new ParseFailure("invalid syntax", item.token);
      }
      ops.push({ prefix: true, precedence: isNot ? NOT_PRECEDENCE : UNARY_PRECEDENCE, info: null, token: item.token });
    } else {
      const p = item.info.precedence;
      const rightAssoc = p === 12;
      while (ops.length > 0) {
        const top = ops[ops.length - 1]!;
        if (top.precedence > p || (top.precedence === p && !rightAssoc)) reduce();
        else break;
      }
      ops.push({ prefix: false, precedence: p, info: item.info, token: item.token });
    }
    previous = item;
  }
  while (ops.length > 0) reduce();
  return out[0]!;
}

/** `a OP b`, the commonest sequence, built as foldOperators would build it without its stacks. */
function foldPair(
  a: { expr: A.Expr; first: Token },
  info: OperatorInfo,
  b: { expr: A.Expr; last: Token },
): A.Expr {
  const left = a.expr;
  const right = b.expr;
  const line = a.first.startLine!;
  const col = a.first.startColumn!;
  const endLine = b.last.endLine!;
  const endCol = b.last.endColumn!;
  if (info.kind === "compare") {
    const ops = [info.op as A.CompareOperator];
    return { kind: "Compare", left, ops, comparators: [right], line, col, endLine, endCol };
  }
  if (info.kind === "bool") {
    return { kind: "BoolOp", op: info.op as "and" | "or", values: [left, right], line, col, endLine, endCol };
  }
  return { kind: "BinOp", op: info.op as A.BinaryOperator, left, right, line, col, endLine, endCol };
}

// ------------------------------------------------------------------ targets

/** CPython's name for an expression kind, used in "cannot assign to ..." messages. */
export function describeExpr(e: A.Expr): string {
  switch (e.kind) {
    case "Attribute": return "attribute";
    case "Subscript": return "subscript";
    case "Starred": return "starred";
    case "Name": return "name";
    case "List": return "list";
    case "Tuple": return "tuple";
    case "Lambda": return "lambda";
    case "Call": return "function call";
    case "BoolOp": case "BinOp": case "UnaryOp": return "expression";
    case "GeneratorExp": return "generator expression";
    case "Await": return "await expression";
    case "ListComp": return "list comprehension";
    case "SetComp": return "set comprehension";
    case "DictComp": return "dict comprehension";
    case "Dict": return "dict literal";
    case "Set": return "set display";
    case "JoinedStr": case "FormattedValue": return "f-string expression";
    case "Compare": return "comparison";
    case "IfExp": return "conditional expression";
    case "NamedExpr": return "named expression";
    case "Slice": return "slice";
    case "Constant":
      if (e.value === null) return "None";
      if (e.value === true) return "True";
      if (e.value === false) return "False";
      if (e.value === ELLIPSIS) return "ellipsis";
      return "literal";
  }
}

type TargetContext = "assign" | "single-assign" | "for" | "del" | "comprehension";

/** Kinds at CPython's `bitwise_or` level, where a stray `=` was probably meant as `==`. */
const COMPARABLE = new Set<A.Expr["kind"]>([
  "Call", "Constant", "BinOp", "UnaryOp", "Dict", "Set", "ListComp", "SetComp", "DictComp", "JoinedStr", "Await",
]);

/** Checks that `e` can be assigned to (or deleted) and returns it as a Target. */
function checkTarget(e: A.Expr, context: TargetContext, top = true): A.Target {
  switch (e.kind) {
    case "Name":
    case "Attribute":
    case "Subscript":
      return e;
    case "Tuple":
    case "List": {
      let starred = 0;
      for (const elt of e.elts) {
        if (elt.kind === "Starred") {
          if (context === "del") throw new ParseFailure("cannot delete starred", elt);
          starred++;
          if (starred > 1) throw new ParseFailure("multiple starred expressions in assignment", elt);
          checkTarget(elt.value, context, false);
        } else {
          checkTarget(elt, context, false);
        }
      }
      return e;
    }
    case "Starred":
      if (context === "del") throw new ParseFailure("cannot delete starred", e);
      if (top) throw new ParseFailure("starred assignment target must be in a list or tuple", e);
      return e;
  }
  const what = describeExpr(e);
  if (context === "del") throw new ParseFailure(`cannot delete ${what}`, e);
  if (what === "True" || what === "False" || what === "None") {
    throw new ParseFailure(`cannot assign to ${what}`, e);
  }
  const probablyComparison =
    context === "single-assign" && top && COMPARABLE.has(e.kind) && !(e.kind === "UnaryOp" && e.op === "not");
  const here = probablyComparison ? " here. Maybe you meant '==' instead of '='?" : "";
  throw new ParseFailure(`cannot assign to ${what}${here}`, e);
}

/**
 * `e` where a lone `*x` is not allowed (an expression statement, a value, an iterable, a
 * comprehension's element): a SyntaxError with CPython's message, so that no Starred outside a
 * display or a call reaches the compiler.
 */
function notStarred<E extends A.Expr>(e: E, message = "can't use starred expression here"): E {
  if (e.kind === "Starred") throw new ParseFailure(message, e);
  return e;
}

const IN_COMPREHENSION = "iterable unpacking cannot be used in comprehension";

function checkAugTarget(e: A.Expr): A.Name | A.Attribute | A.Subscript {
  if (e.kind === "Name" || e.kind === "Attribute" || e.kind === "Subscript") return e;
  throw new ParseFailure(`'${describeExpr(e)}' is an illegal expression for augmented assignment`, e);
}

// ------------------------------------------------------------------ strings

type StringPiece = Token | { start: Token; values: (A.Constant | A.FormattedValue)[]; end: Token };

function joinStrings(pieces: StringPiece[]): A.Constant | A.JoinedStr {
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const span = spanOf("tokenType" in first ? first : first.start, "tokenType" in last ? last : last.end);
  let hasBytes = false;
  let hasText = false;
  let formatted = false;
  for (const p of pieces) {
    if ("tokenType" in p) {
      if (p.bytes) hasBytes = true;
      else hasText = true;
    } else {
      formatted = true;
      hasText = true;
    }
  }
  if (hasBytes && hasText) {
    throw new ParseFailure("cannot mix bytes and nonbytes literals", first as Token, last as Token);
  }
  if (hasBytes) {
    const parts = pieces.map((p) => (p as Token).payload as Uint8Array);
    const total = parts.reduce((n, b) => n + b.length, 0);
    const value = new Uint8Array(total);
    let at = 0;
    for (const b of parts) {
      value.set(b, at);
      at += b.length;
    }
    return { kind: "Constant", value, line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol };
  }
  if (!formatted) {
    let value = "";
    for (const p of pieces) value += (p as Token).payload as string;
    return { kind: "Constant", value, line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol };
  }
  const values: (A.Constant | A.FormattedValue)[] = [];
  const addText = (text: string, where: A.Span) => {
    if (text === "") return;
    const prev = values[values.length - 1];
    if (prev && prev.kind === "Constant") {
      prev.value = (prev.value as string) + text;
      prev.endLine = where.endLine;
      prev.endCol = where.endCol;
    } else {
      values.push({ kind: "Constant", value: text, ...where });
    }
  };
  for (const p of pieces) {
    if ("tokenType" in p) {
      addText(p.payload as string, tokenSpan(p));
      continue;
    }
    for (const v of p.values) {
      if (v.kind === "Constant") addText(v.value as string, v);
      else values.push(v);
    }
  }
  return { kind: "JoinedStr", values, line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol };
}

// ------------------------------------------------------------------ parameters

type ParamItem =
  | { t: "slash"; token: Token }
  | { t: "star"; token: Token; arg: A.Arg | null }
  | { t: "kwarg"; token: Token; arg: A.Arg }
  | { t: "param"; arg: A.Arg; default: A.Expr | null };

function buildArguments(items: ParamItem[], what: "function definition" | "lambda"): A.Arguments {
  const args: A.Arguments = {
    posonlyargs: [],
    args: [],
    vararg: null,
    kwonlyargs: [],
    kwDefaults: [],
    kwarg: null,
    defaults: [],
  };
  let sawStar = false;
  let sawSlash = false;
  let bareStar: Token | null = null;
  const seen = new Set<string>();
  const name = (arg: A.Arg) => {
    if (seen.has(arg.arg)) throw new ParseFailure(`duplicate argument '${arg.arg}' in ${what}`, arg);
    seen.add(arg.arg);
  };
  for (const item of items) {
    if (args.kwarg) {
      const at = item.t === "param" ? item.arg : item.token;
      throw new ParseFailure("arguments cannot follow var-keyword argument", at);
    }
    switch (item.t) {
      case "slash":
        if (sawSlash) throw new ParseFailure("/ may appear only once", item.token);
        if (sawStar) throw new ParseFailure("/ must be ahead of *", item.token);
        if (args.args.length === 0) throw new ParseFailure("at least one argument must precede /", item.token);
        sawSlash = true;
        args.posonlyargs = args.args;
        args.args = [];
        break;
      case "star":
        if (sawStar) throw new ParseFailure("* argument may appear only once", item.token);
        sawStar = true;
        if (item.arg) {
          name(item.arg);
          args.vararg = item.arg;
        } else {
          bareStar = item.token;
        }
        break;
      case "kwarg":
        if (bareStar && args.kwonlyargs.length === 0) {
          throw new ParseFailure("named arguments must follow bare *", bareStar);
        }
        name(item.arg);
        args.kwarg = item.arg;
        break;
      case "param":
        name(item.arg);
        if (sawStar) {
          args.kwonlyargs.push(item.arg);
          args.kwDefaults.push(item.default);
        } else {
          if (item.default) args.defaults.push(item.default);
          else if (args.defaults.length > 0) {
            throw new ParseFailure("non-default argument follows default argument", item.arg);
          }
          args.args.push(item.arg);
        }
        break;
    }
  }
  if (bareStar && args.kwonlyargs.length === 0 && !args.kwarg) {
    throw new ParseFailure("named arguments must follow bare *", bareStar);
  }
  return args;
}

// ------------------------------------------------------------------ call arguments

type CallItem =
  | { t: "positional"; expr: A.Expr }
  | { t: "star"; expr: A.Starred }
  | { t: "keyword"; keyword: A.Keyword }
  | { t: "doublestar"; keyword: A.Keyword }
  | { t: "genexp"; expr: A.GeneratorExp };

function buildCall(func: A.Expr, first: Token, items: CallItem[], open: Token, close: Token): A.Call {
  const args: A.Expr[] = [];
  const keywords: A.Keyword[] = [];
  let sawKeyword = false;
  let sawDoubleStar = false;
  for (const item of items) {
    switch (item.t) {
      case "genexp":
        if (items.length > 1) throw new ParseFailure("Generator expression must be parenthesized", item.expr);
        // The call's parentheses are the generator's own: CPython's span includes them.
        Object.assign(item.expr, spanOf(open, close));
        args.push(item.expr);
        break;
      case "positional":
        if (sawDoubleStar) throw new ParseFailure("positional argument follows keyword argument unpacking", item.expr);
        if (sawKeyword) throw new ParseFailure("positional argument follows keyword argument", item.expr);
        args.push(item.expr);
        break;
      case "star":
        if (sawDoubleStar) {
          throw new ParseFailure("iterable argument unpacking follows keyword argument unpacking", item.expr);
        }
        args.push(item.expr);
        break;
      case "keyword":
        sawKeyword = true;
        keywords.push(item.keyword);
        break;
      case "doublestar":
        sawDoubleStar = true;
        keywords.push(item.keyword);
        break;
    }
  }
  return {
    kind: "Call",
    func,
    args,
    keywords,
    line: lineOf(first), col: colOf(first), endLine: endLineOf(close), endCol: endColOf(close),
  };
}

// ------------------------------------------------------------------ error messages

/**
 * Chevrotain's messages are replaced by JSON records that the error mapper in parse.ts reads
 * back, so message wording lives in one place and follows CPython's.
 */
export interface RecognitionRecord {
  kind: "mismatch" | "noViableAlt" | "earlyExit" | "notAllInput";
  expected: string | null;
  rule: string;
}

const errorRecords: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, ruleName }) =>
    JSON.stringify({ kind: "mismatch", expected: expected.name, rule: ruleName } satisfies RecognitionRecord),
  buildNotAllInputParsedMessage: ({ ruleName }) =>
    JSON.stringify({ kind: "notAllInput", expected: null, rule: ruleName } satisfies RecognitionRecord),
  buildNoViableAltMessage: ({ ruleName }) =>
    JSON.stringify({ kind: "noViableAlt", expected: null, rule: ruleName } satisfies RecognitionRecord),
  buildEarlyExitMessage: ({ ruleName }) =>
    JSON.stringify({ kind: "earlyExit", expected: null, rule: ruleName } satisfies RecognitionRecord),
};

// ------------------------------------------------------------------ the parser

type BlockHeader = [Token, string];

interface ListFrame {
  items: unknown[];
  commas: number;
  more: boolean;
}

type StatementTail =
  | { t: "expr" }
  | { t: "assign"; values: A.Expr[] }
  | { t: "aug"; op: A.BinaryOperator; value: A.Expr }
  | { t: "ann"; annotation: A.Expr; value: A.Expr | null };
const EXPR_TAIL: StatementTail = { t: "expr" };

type Trailer =
  | { t: "attribute"; name: Token }
  | { t: "call"; open: Token; items: CallItem[]; close: Token }
  | { t: "subscript"; slice: A.Expr; close: Token };

/** The node for `value` followed by one trailer (`.name`, `(args)` or `[index]`). */
function applyTrailer(value: A.Expr, first: Token, trailer: Trailer): A.Expr {
  switch (trailer.t) {
    case "attribute":
      return {
        kind: "Attribute",
        value,
        attr: trailer.name.image,
        line: lineOf(first), col: colOf(first), endLine: endLineOf(trailer.name), endCol: endColOf(trailer.name),
      };
    case "call":
      return buildCall(value, first, trailer.items, trailer.open, trailer.close);
    case "subscript":
      return {
        kind: "Subscript",
        value,
        slice: trailer.slice,
        line: lineOf(first), col: colOf(first), endLine: endLineOf(trailer.close), endCol: endColOf(trailer.close),
      };
  }
}

/**
 * What the hottest rules return while Chevrotain records the grammar. They test RECORDING_PHASE
 * instead of wrapping their node-building in ACTION, which would allocate a closure per call.
 */
const RECORDED = undefined as never;

/** The tokens a trailer (`.name`, `(args)`, `[index]`) starts with. */
const TRAILER_START = new Set<TokenType>([T.Dot, T.LParen, T.LBracket]);

// Shared argument objects for the hottest subrule calls (one allocation fewer per call).
const FLAG_ARGS: { ARGS: [number] }[] = Array.from({ length: 16 }, (_, flags) => ({ ARGS: [flags] as [number] }));
const NO_IN_ARGS: { ARGS: [boolean] }[] = [{ ARGS: [false] }, { ARGS: [true] }];

export class DialectParser extends EmbeddedActionsParser {
  private depth = 0;
  /** Whether the expression being parsed sits directly in an async def's body (not in a lambda). */
  private inAsyncBody = false;
  /**
   * Set when an `await` was parsed outside an async def's body. Without one, the context checks
   * (validate.ts) need not visit expressions at all.
   */
  strayAwait = false;

  /**
   * `validate` runs Chevrotain's grammar checks (ambiguities, left recursion, duplicate DSL
   * indices). The tests build the parser with them; the runtime skips them to start faster.
   */
  constructor(options: { validate?: boolean } = {}) {
    super(T.allTokens, {
      maxLookahead: 1,
      recoveryEnabled: false,
      errorMessageProvider: errorRecords,
      skipValidations: options.validate === false,
    });
    this.performSelfAnalysis();
  }

  /** Parses a token vector into a Module, or throws ParseFailure / a recognition exception. */
  parseTokens(tokens: Token[]): A.Module {
    this.input = tokens;
    this.depth = 0;
    this.inAsyncBody = false;
    this.strayAwait = false;
    const module = this.file();
    if (this.errors.length > 0) throw this.errors[0] as IRecognitionException;
    return module;
  }

  /** The next token: after a failure, the token the parser stopped at. */
  tok(): Token {
    return this.LA(1) as Token;
  }

  /** The last token consumed: node spans run from a rule's first token to it, as in CPython. */
  private last(): Token {
    return this.input[(this as unknown as { exportLexerState(): number }).exportLexerState()] as Token;
  }

  // ---------------------------------------------------------------- statements

  public file = this.RULE("file", (): A.Module => {
    const body: A.Stmt[] = [];
    this.MANY(() => {
      const stmts = this.SUBRULE(this.statement);
      this.ACTION(() => body.push(...stmts));
    });
    const eof = this.CONSUME(T.EOF) as Token;
    return this.ACTION(() => ({
      kind: "Module" as const,
      body,
      line: 1,
      col: 1,
      endLine: eof.startLine!,
      endCol: eof.startColumn!,
    }));
  });

  private statement = this.RULE("statement", (): A.Stmt[] => this.OR(this.statementAlternatives));

  private readonly statementAlternatives: IOrAlt<A.Stmt[]>[] = [
    { ALT: () => [this.SUBRULE(this.ifStatement)] },
    { ALT: () => [this.SUBRULE(this.whileStatement)] },
    { ALT: () => [this.SUBRULE(this.forStatement)] },
    { ALT: () => [this.SUBRULE(this.tryStatement)] },
    { ALT: () => [this.SUBRULE(this.functionDef, { ARGS: [[]] })] },
    { ALT: () => [this.SUBRULE(this.decorated)] },
    { ALT: () => this.SUBRULE(this.simpleStatements) },
  ];

  private simpleStatements = this.RULE("simpleStatements", (): A.Stmt[] => {
    const stmts: A.Stmt[] = [this.OR(this.simpleAlternatives)];
    if (this.RECORDING_PHASE || this.LA(1).tokenType === T.Semicolon) {
      this.MANY({
        GATE: () => this.LA(2).tokenType !== T.Newline,
        DEF: () => {
          this.CONSUME(T.Semicolon);
          stmts.push(this.SUBRULE(this.simpleStatement));
        },
      });
      this.OPTION(() => this.CONSUME2(T.Semicolon));
    }
    this.CONSUME(T.Newline);
    return stmts;
  });

  /** A simple statement after `;` (the first one on a line is parsed inline, which is faster). */
  private simpleStatement = this.RULE("simpleStatement", (): A.Stmt => this.OR(this.simpleAlternatives));

  private readonly simpleAlternatives: IOrAlt<A.Stmt>[] = [
    { ALT: () => this.SUBRULE(this.expressionStatement) },
    { ALT: () => this.keywordStatement(this.CONSUME(T.Pass) as Token, "Pass") },
    { ALT: () => this.keywordStatement(this.CONSUME(T.Break) as Token, "Break") },
    { ALT: () => this.keywordStatement(this.CONSUME(T.Continue) as Token, "Continue") },
    { ALT: () => this.SUBRULE(this.returnStatement) },
    { ALT: () => this.SUBRULE(this.raiseStatement) },
    { ALT: () => this.SUBRULE(this.globalStatement) },
    { ALT: () => this.SUBRULE(this.delStatement) },
    { ALT: () => this.SUBRULE(this.assertStatement) },
    { ALT: () => this.SUBRULE(this.importStatement) },
    { ALT: () => this.SUBRULE(this.fromImportStatement) },
  ];

  private keywordStatement(token: Token, kind: "Pass" | "Break" | "Continue"): A.Stmt {
    return this.ACTION(() => ({
      kind,
      line: token.startLine!, col: token.startColumn!, endLine: token.endLine!, endCol: token.endColumn!,
    }) as A.Stmt);
  }

  private expressionStatement = this.RULE("expressionStatement", (): A.Stmt => {
    const start = this.tok();
    const first = this.SUBRULE(this.starExpressions);
    const tail = this.OR(this.statementTails);
    return this.ACTION((): A.Stmt => {
      const span = spanOf(start, this.last());
      switch (tail.t) {
        case "expr":
          return {
            kind: "Expr",
            value: notStarred(first),
            line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol,
          };
        case "assign": {
          const chain = [first, ...tail.values];
          const value = notStarred(chain.pop()!);
          const context = chain.length === 1 ? "single-assign" : "assign";
          return {
            kind: "Assign",
            targets: chain.map((t) => checkTarget(t, context)),
            value,
            line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol,
          };
        }
        case "aug":
          return {
            kind: "AugAssign",
            target: checkAugTarget(first),
            op: tail.op,
            value: notStarred(tail.value),
            line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol,
          };
        case "ann":
          if (first.kind === "Tuple") throw new ParseFailure("only single target (not tuple) can be annotated", first);
          if (first.kind === "List") throw new ParseFailure("only single target (not list) can be annotated", first);
          if (first.kind !== "Name" && first.kind !== "Attribute" && first.kind !== "Subscript") {
            throw new ParseFailure("illegal target for annotation", first);
          }
          return {
            kind: "AnnAssign",
            target: first,
            annotation: tail.annotation,
            value: tail.value && notStarred(tail.value),
            line: span.line, col: span.col, endLine: span.endLine, endCol: span.endCol,
          };
      }
    });
  });

  /** What follows the first expression of a statement: `= ...`, `+= ...`, `: annotation`, or nothing. */
  private readonly statementTails: IOrAlt<StatementTail>[] = [
    {
      ALT: () => {
        const values: A.Expr[] = [];
        this.AT_LEAST_ONE(() => {
          this.CONSUME(T.Assign);
          values.push(this.SUBRULE2(this.starExpressions));
        });
        return { t: "assign", values };
      },
    },
    {
      ALT: () => {
        const op = this.CONSUME(T.AugAssign) as Token;
        const value = this.SUBRULE3(this.starExpressions);
        return { t: "aug", op: op.image.slice(0, -1) as A.BinaryOperator, value };
      },
    },
    {
      ALT: () => {
        this.CONSUME(T.Colon);
        const annotation = this.SUBRULE(this.expression, FLAG_ARGS[0]);
        let value: A.Expr | null = null;
        this.OPTION(() => {
          this.CONSUME2(T.Assign);
          value = this.SUBRULE4(this.starExpressions);
        });
        return { t: "ann", annotation, value };
      },
    },
    { ALT: () => EXPR_TAIL },
  ];

  private returnStatement = this.RULE("returnStatement", (): A.Return => {
    const kw = this.CONSUME(T.Return) as Token;
    const value = this.OPTION(() => this.SUBRULE(this.starExpressions)) ?? null;
    return this.ACTION(() => ({
      kind: "Return" as const,
      value: value && notStarred(value),
      line: lineOf(kw), col: colOf(kw), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
    }));
  });

  private raiseStatement = this.RULE("raiseStatement", (): A.Raise => {
    const kw = this.CONSUME(T.Raise) as Token;
    let exc: A.Expr | null = null;
    let cause: A.Expr | null = null;
    this.OPTION(() => {
      exc = this.SUBRULE(this.expression, { ARGS: [0] });
      this.OPTION2(() => {
        this.CONSUME(T.From);
        cause = this.SUBRULE2(this.expression, { ARGS: [0] });
      });
    });
    return this.ACTION(() => ({
      kind: "Raise" as const,
      exc,
      cause,
      line: lineOf(kw), col: colOf(kw), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
    }));
  });

  private globalStatement = this.RULE("globalStatement", (): A.Global | A.Nonlocal => {
    const kw = this.OR([
      { ALT: () => this.CONSUME(T.Global) as Token },
      { ALT: () => this.CONSUME(T.Nonlocal) as Token },
    ]);
    const names = [this.CONSUME(T.Name) as Token];
    this.MANY(() => {
      this.CONSUME(T.Comma);
      names.push(this.CONSUME2(T.Name) as Token);
    });
    return this.ACTION(() => ({
      kind: kw.tokenType === T.Global ? ("Global" as const) : ("Nonlocal" as const),
      names: names.map((n) => n.image),
      line: lineOf(kw), col: colOf(kw),
      endLine: endLineOf(names[names.length - 1]!), endCol: endColOf(names[names.length - 1]!),
    }));
  });

  private delStatement = this.RULE("delStatement", (): A.Delete => {
    const kw = this.CONSUME(T.Del) as Token;
    const targets = this.SUBRULE(this.starExpressions);
    return this.ACTION((): A.Delete => {
      const list = targets.kind === "Tuple" && !targets.parenthesized ? targets.elts : [targets];
      return {
        kind: "Delete",
        targets: list.map((t) => checkTarget(t, "del")),
        line: lineOf(kw), col: colOf(kw), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
      };
    });
  });

  private assertStatement = this.RULE("assertStatement", (): A.Assert => {
    const kw = this.CONSUME(T.Assert) as Token;
    const test = this.SUBRULE(this.expression, { ARGS: [0] });
    let msg: A.Expr | null = null;
    this.OPTION(() => {
      this.CONSUME(T.Comma);
      msg = this.SUBRULE2(this.expression, { ARGS: [0] });
    });
    return this.ACTION(() => ({
      kind: "Assert" as const,
      test,
      msg,
      line: lineOf(kw), col: colOf(kw), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
    }));
  });

  private dottedName = this.RULE("dottedName", (): [string, Token, Token] => {
    const first = this.CONSUME(T.Name) as Token;
    let last = first;
    let name = first.image;
    this.MANY(() => {
      this.CONSUME(T.Dot);
      last = this.CONSUME2(T.Name) as Token;
      name += "." + last.image;
    });
    return [name, first, last];
  });

  private importStatement = this.RULE("importStatement", (): A.Import => {
    const kw = this.CONSUME(T.Import) as Token;
    const names: A.Alias[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: T.Comma,
      DEF: () => {
        const dotted = this.SUBRULE(this.dottedName);
        let asname: Token | null = null;
        this.OPTION(() => {
          this.CONSUME(T.As);
          asname = this.CONSUME(T.Name) as Token;
        });
        this.ACTION(() => {
          const [name, first, last] = dotted;
          names.push({
            kind: "alias",
            name,
            asname: asname?.image ?? null,
            line: lineOf(first), col: colOf(first),
            endLine: endLineOf(asname ?? last), endCol: endColOf(asname ?? last),
          });
        });
      },
    });
    return this.ACTION(() => ({
      kind: "Import" as const,
      names,
      line: lineOf(kw), col: colOf(kw),
      endLine: endLineOf(names[names.length - 1]!), endCol: endColOf(names[names.length - 1]!),
    }));
  });

  private fromImportStatement = this.RULE("fromImportStatement", (): A.ImportFrom => {
    const kw = this.CONSUME(T.From) as Token;
    let level = 0;
    let module: string | null = null;
    this.MANY(() =>
      this.OR([
        { ALT: () => { this.CONSUME(T.Dot); level += 1; } },
        { ALT: () => { this.CONSUME(T.Ellipsis); level += 3; } },
      ]),
    );
    this.OPTION(() => {
      const dotted = this.SUBRULE(this.dottedName);
      module = this.ACTION(() => dotted[0]);
    });
    this.CONSUME(T.Import);
    const names: A.Alias[] = [];
    const end = this.OR2([
      {
        ALT: () => {
          const star = this.CONSUME(T.Star) as Token;
          this.ACTION(() => {
            throw new ParseFailure(unsupported("star import"), star);
          });
          return star;
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.LParen);
          names.push(this.SUBRULE(this.importAsName));
          let more = true;
          this.MANY2({
            GATE: () => more,
            DEF: () => {
              this.CONSUME(T.Comma);
              more = false;
              this.OPTION2(() => {
                names.push(this.SUBRULE2(this.importAsName));
                more = true;
              });
            },
          });
          return this.CONSUME(T.RParen) as Token;
        },
      },
      {
        ALT: () => {
          names.push(this.SUBRULE3(this.importAsName));
          let trailing: Token | null = null;
          this.MANY3({
            GATE: () => trailing === null,
            DEF: () => {
              trailing = this.CONSUME2(T.Comma) as Token;
              this.OPTION3(() => {
                names.push(this.SUBRULE4(this.importAsName));
                trailing = null;
              });
            },
          });
          this.ACTION(() => {
            if (trailing) throw new ParseFailure("trailing comma not allowed without surrounding parentheses", this.tok());
          });
          return names[names.length - 1]!;
        },
      },
    ]);
    return this.ACTION(() => ({
      kind: "ImportFrom" as const,
      module,
      names,
      level,
      line: lineOf(kw), col: colOf(kw), endLine: endLineOf(end), endCol: endColOf(end),
    }));
  });

  private importAsName = this.RULE("importAsName", (): A.Alias => {
    const name = this.CONSUME(T.Name) as Token;
    let asname: Token | null = null;
    this.OPTION(() => {
      this.CONSUME(T.As);
      asname = this.CONSUME2(T.Name) as Token;
    });
    return this.ACTION(() => ({
      kind: "alias" as const,
      name: name.image,
      asname: asname?.image ?? null,
      line: lineOf(name), col: colOf(name), endLine: endLineOf(asname ?? name), endCol: endColOf(asname ?? name),
    }));
  });

  // ---------------------------------------------------------------- compound statements

  /** An indented block, or simple statements on the header's line. */
  private block = this.RULE("block", (header: BlockHeader): A.Stmt[] =>
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Newline);
          this.ACTION(() => {
            if (this.LA(1).tokenType !== T.Indent) {
              const [token, what] = header;
              throw new ParseFailure(
                `expected an indented block after ${what} on line ${token.startLine}`,
                this.tok(),
                this.tok(),
                "IndentationError",
              );
            }
          });
          this.CONSUME(T.Indent);
          const body: A.Stmt[] = [];
          this.AT_LEAST_ONE(() => {
            const stmts = this.SUBRULE(this.statement);
            this.ACTION(() => body.push(...stmts));
          });
          this.CONSUME(T.Dedent);
          return body;
        },
      },
      { ALT: () => this.SUBRULE(this.simpleStatements) },
    ]),
  );

  private ifStatement = this.RULE("ifStatement", (): A.If => {
    const kw = this.CONSUME(T.If) as Token;
    const test = this.SUBRULE(this.expression, { ARGS: [WALRUS] });
    this.CONSUME(T.Colon);
    const body = this.SUBRULE(this.block, { ARGS: [[kw, "'if' statement"]] });
    const elifs: [Token, A.Expr, A.Stmt[]][] = [];
    this.MANY(() => {
      const ekw = this.CONSUME(T.Elif) as Token;
      const etest = this.SUBRULE2(this.expression, { ARGS: [WALRUS] });
      this.CONSUME2(T.Colon);
      const ebody = this.SUBRULE2(this.block, { ARGS: [[ekw, "'elif' statement"]] });
      elifs.push([ekw, etest, ebody]);
    });
    let orelse: A.Stmt[] = [];
    this.OPTION(() => {
      const ekw = this.CONSUME(T.Else) as Token;
      this.CONSUME3(T.Colon);
      orelse = this.SUBRULE3(this.block, { ARGS: [[ekw, "'else' statement"]] });
    });
    return this.ACTION((): A.If => {
      for (let i = elifs.length - 1; i >= 0; i--) {
        const [ekw, etest, ebody] = elifs[i]!;
        const end = orelse.length > 0 ? orelse[orelse.length - 1]! : ebody[ebody.length - 1]!;
        orelse = [{
          kind: "If",
          test: etest,
          body: ebody,
          orelse,
          line: lineOf(ekw), col: colOf(ekw), endLine: endLineOf(end), endCol: endColOf(end),
        }];
      }
      const end = orelse.length > 0 ? orelse[orelse.length - 1]! : body[body.length - 1]!;
      return {
        kind: "If",
        test,
        body,
        orelse,
        line: lineOf(kw), col: colOf(kw), endLine: endLineOf(end), endCol: endColOf(end),
      };
    });
  });

  private elseBlock = this.RULE("elseBlock", (): A.Stmt[] => {
    const kw = this.CONSUME(T.Else) as Token;
    this.CONSUME(T.Colon);
    return this.SUBRULE(this.block, { ARGS: [[kw, "'else' statement"]] });
  });

  private whileStatement = this.RULE("whileStatement", (): A.While => {
    const kw = this.CONSUME(T.While) as Token;
    const test = this.SUBRULE(this.expression, { ARGS: [WALRUS] });
    this.CONSUME(T.Colon);
    const body = this.SUBRULE(this.block, { ARGS: [[kw, "'while' statement"]] });
    const orelse = this.OPTION(() => this.SUBRULE(this.elseBlock)) ?? [];
    return this.ACTION(() => {
      const last = (orelse.length > 0 ? orelse : body)[(orelse.length > 0 ? orelse : body).length - 1]!;
      return {
        kind: "While" as const,
        test,
        body,
        orelse,
        line: lineOf(kw), col: colOf(kw), endLine: endLineOf(last), endCol: endColOf(last),
      };
    });
  });

  private forStatement = this.RULE("forStatement", (): A.For => {
    const kw = this.CONSUME(T.For) as Token;
    const target = this.SUBRULE(this.targetList);
    this.CONSUME(T.In);
    const iter = this.SUBRULE(this.starExpressions);
    this.ACTION(() => notStarred(iter));
    this.CONSUME(T.Colon);
    const body = this.SUBRULE(this.block, { ARGS: [[kw, "'for' statement"]] });
    const orelse = this.OPTION(() => this.SUBRULE(this.elseBlock)) ?? [];
    return this.ACTION(() => {
      const last = orelse.length > 0 ? orelse[orelse.length - 1]! : body[body.length - 1]!;
      return {
        kind: "For" as const,
        target: checkTarget(target, "for"),
        iter,
        body,
        orelse,
        line: lineOf(kw), col: colOf(kw), endLine: endLineOf(last), endCol: endColOf(last),
      };
    });
  });

  /** `for` targets stop before `in`: operands of the operator rule without membership tests. */
  private targetList = this.RULE("targetList", (): A.Expr => {
    const first = this.tok();
    const elts: A.Expr[] = [this.SUBRULE(this.expression, { ARGS: [STAR | OPERAND | NO_IN] })];
    let comma = false;
    let more = true;
    this.MANY({
      GATE: () => more,
      DEF: () => {
        this.CONSUME(T.Comma);
        comma = true;
        more = false;
        this.OPTION(() => {
          elts.push(this.SUBRULE2(this.expression, { ARGS: [STAR | OPERAND | NO_IN] }));
          more = true;
        });
      },
    });
    return this.ACTION(() =>
      comma
        ? ({
          kind: "Tuple",
          elts,
          parenthesized: false,
          line: lineOf(first), col: colOf(first), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
        } as A.Tuple)
        : elts[0]!,
    );
  });

  private tryStatement = this.RULE("tryStatement", (): A.Try => {
    const kw = this.CONSUME(T.Try) as Token;
    this.CONSUME(T.Colon);
    const body = this.SUBRULE(this.block, { ARGS: [[kw, "'try' statement"]] });
    const handlers: A.ExceptHandler[] = [];
    let orelse: A.Stmt[] = [];
    let finalbody: A.Stmt[] = [];
    let finallyKw: Token | null = null;
    this.OR([
      {
        ALT: () => {
          this.AT_LEAST_ONE(() => handlers.push(this.SUBRULE(this.exceptClause)));
          this.OPTION(() => {
            orelse = this.SUBRULE(this.elseBlock);
          });
          this.OPTION2(() => {
            finallyKw = this.CONSUME(T.Finally) as Token;
            this.CONSUME2(T.Colon);
            finalbody = this.SUBRULE2(this.block, { ARGS: [[finallyKw, "'finally' statement"]] });
          });
        },
      },
      {
        ALT: () => {
          finallyKw = this.CONSUME2(T.Finally) as Token;
          this.CONSUME3(T.Colon);
          finalbody = this.SUBRULE3(this.block, { ARGS: [[finallyKw, "'finally' statement"]] });
        },
      },
    ]);
    return this.ACTION((): A.Try => {
      const lastBlock = finalbody.length > 0 ? finalbody : orelse.length > 0 ? orelse : null;
      const end = lastBlock ? lastBlock[lastBlock.length - 1]! : handlers[handlers.length - 1]!;
      return {
        kind: "Try",
        body,
        handlers,
        orelse,
        finalbody,
        line: lineOf(kw), col: colOf(kw), endLine: endLineOf(end), endCol: endColOf(end),
      };
    });
  });

  private exceptClause = this.RULE("exceptClause", (): A.ExceptHandler => {
    const kw = this.CONSUME(T.Except) as Token;
    let type: A.Expr | null = null;
    let name: string | null = null;
    this.ACTION(() => {
      if (this.LA(1).tokenType === T.Star) throw new ParseFailure(unsupported("except star"), kw, this.tok());
    });
    this.OPTION(() => {
      type = this.SUBRULE(this.expression, { ARGS: [0] });
      this.OPTION2(() =>
        this.OR([
          {
            ALT: () => {
              this.CONSUME(T.As);
              name = (this.CONSUME(T.Name) as Token).image;
            },
          },
          {
            ALT: () => {
              const comma = this.CONSUME(T.Comma) as Token;
              this.ACTION(() => {
                throw new ParseFailure("multiple exception types must be parenthesized", type!, comma);
              });
            },
          },
        ]),
      );
    });
    this.CONSUME(T.Colon);
    const body = this.SUBRULE(this.block, { ARGS: [[kw, "'except' statement"]] });
    return this.ACTION(() => ({
      kind: "ExceptHandler" as const,
      type,
      name,
      body,
      line: lineOf(kw), col: colOf(kw),
      endLine: endLineOf(body[body.length - 1]!), endCol: endColOf(body[body.length - 1]!),
    }));
  });

  /** `@expression` lines (any expression, PEP 614), then the def they decorate. */
  private decorated = this.RULE("decorated", (): A.FunctionDef => {
    const decorators: A.Expr[] = [];
    this.AT_LEAST_ONE(() => {
      this.CONSUME(T.At);
      decorators.push(this.SUBRULE(this.expression, { ARGS: [WALRUS] }));
      this.CONSUME(T.Newline);
    });
    return this.SUBRULE(this.functionDef, { ARGS: [decorators] });
  });

  private functionDef = this.RULE("functionDef", (decorators: A.Expr[]): A.FunctionDef => {
    const asyncKw = this.OPTION(() => this.CONSUME(T.Async) as Token);
    const kw = this.CONSUME(T.Def) as Token;
    const name = this.CONSUME(T.Name) as Token;
    this.CONSUME(T.LParen);
    const items = this.OPTION2(() => this.SUBRULE(this.parameters, { ARGS: [true] })) ?? [];
    this.CONSUME(T.RParen);
    let returns: A.Expr | null = null;
    this.OPTION3(() => {
      this.CONSUME(T.Arrow);
      returns = this.SUBRULE(this.expression, { ARGS: [0] });
    });
    this.CONSUME(T.Colon);
    const outerAsync = this.inAsyncBody;
    this.inAsyncBody = asyncKw !== undefined;
    const body = this.SUBRULE(this.block, { ARGS: [[kw, "function definition"]] });
    this.inAsyncBody = outerAsync;
    return this.ACTION(() => ({
      kind: "FunctionDef" as const,
      name: name.image,
      args: buildArguments(items, "function definition"),
      body,
      decoratorList: decorators,
      returns,
      isAsync: asyncKw !== undefined,
      line: lineOf(asyncKw ?? kw), col: colOf(asyncKw ?? kw),
      endLine: endLineOf(body[body.length - 1]!), endCol: endColOf(body[body.length - 1]!),
    }));
  });

  /** Parameters of a def (annotations allowed) or a lambda (not: its `:` ends the list). */
  private parameters = this.RULE("parameters", (annotations: boolean): ParamItem[] => {
    const items: ParamItem[] = [this.SUBRULE(this.parameter, { ARGS: [annotations] })];
    let more = true;
    this.MANY({
      GATE: () => more,
      DEF: () => {
        this.CONSUME(T.Comma);
        more = false;
        this.OPTION(() => {
          items.push(this.SUBRULE2(this.parameter, { ARGS: [annotations] }));
          more = true;
        });
      },
    });
    return items;
  });

  private parameter = this.RULE("parameter", (annotations: boolean): ParamItem =>
    this.OR([
      { ALT: () => ({ t: "slash", token: this.CONSUME(T.Slash) as Token }) },
      {
        ALT: () => {
          const token = this.CONSUME(T.Star) as Token;
          const arg = this.OPTION(() => this.SUBRULE(this.parameterName, { ARGS: [annotations] })) ?? null;
          return { t: "star", token, arg };
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(T.DoubleStar) as Token;
          const arg = this.SUBRULE2(this.parameterName, { ARGS: [annotations] });
          return { t: "kwarg", token, arg };
        },
      },
      {
        ALT: () => {
          const arg = this.SUBRULE3(this.parameterName, { ARGS: [annotations] });
          let value: A.Expr | null = null;
          this.OPTION2(() => {
            this.CONSUME(T.Assign);
            value = this.SUBRULE(this.expression, { ARGS: [0] });
          });
          return { t: "param", arg, default: value };
        },
      },
    ]),
  );

  private parameterName = this.RULE("parameterName", (annotations: boolean): A.Arg => {
    const name = this.CONSUME(T.Name) as Token;
    let annotation: A.Expr | null = null;
    this.OPTION({
      GATE: () => annotations,
      DEF: () => {
        this.CONSUME(T.Colon);
        annotation = this.SUBRULE(this.expression, { ARGS: [0] });
      },
    });
    return this.ACTION(() => ({
      kind: "arg" as const,
      arg: name.image,
      annotation,
      line: lineOf(name), col: colOf(name), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
    }));
  });

  // ---------------------------------------------------------------- expressions

  /** `a, *b, c` (a Tuple when there is a comma) */
  private starExpressions = this.RULE("starExpressions", (): A.Expr => {
    const first = this.tok();
    const saved = this.list;
    const list: ListFrame = { items: [], commas: 0, more: true };
    this.list = list;
    this.AT_LEAST_ONE(this.starExpressionStep);
    this.list = saved;
    return this.ACTION(() => {
      const elts = list.items as A.Expr[];
      if (elts.length === 0) throw new ParseFailure("invalid syntax", this.tok());
      if (list.commas === 0) return elts[0]!;
      return {
        kind: "Tuple",
        elts,
        parenthesized: false,
        line: lineOf(first), col: colOf(first), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
      } as A.Tuple;
    });
  });

  /** The comma-separated list being parsed (starExpressions, callArguments); nested lists save it. */
  private list: ListFrame = { items: [], commas: 0, more: false };

  private readonly listContinues = () => this.list.more;

  private readonly listComma = () => {
    this.CONSUME(T.Comma);
    this.list.commas++;
    this.list.more = true;
  };

  private readonly starExpressionStep = {
    GATE: this.listContinues,
    DEF: () => {
      const item = this.SUBRULE(this.expression, FLAG_ARGS[STAR]);
      this.list.items.push(item);
      this.list.more = false;
      this.OPTION(this.listComma);
    },
  };

  /**
   * One expression. `flags` say which of Python's expression levels this is: `*x` allowed (STAR),
   * `x := y` allowed (WALRUS), an operand only, without conditional or lambda (OPERAND), and
   * stopping before `in` (NO_IN, for `for` targets). One rule for all of them keeps the number
   * of rule calls per operand small, which is most of the parser's speed.
   */
  public expression = this.RULE("expression", (flags: number): A.Expr => {
    if (++this.depth > MAX_EXPRESSION_DEPTH && !this.RECORDING_PHASE) {
      throw new ParseFailure("too many nested expressions (the sandbox's parser limit)", this.tok());
    }
    const first = this.tok();
    this.expressionFlags = flags;
    let result = this.OR(this.expressionAlternatives);
    // The optional tails are entered only when their keyword is next (or while Chevrotain records
    // the grammar), so the common case allocates no closures for them.
    if (this.RECORDING_PHASE || ((flags & OPERAND) === 0 && this.LA(1).tokenType === T.If)) {
      const body = result;
      this.OPTION(() => {
        this.ACTION(() => notStarred(body, "invalid syntax"));
        this.CONSUME(T.If);
        const test = this.SUBRULE2(this.operators, NO_IN_ARGS[0]!);
        this.ACTION(() => {
          if (this.LA(1).tokenType !== T.Else) {
            throw new ParseFailure("expected 'else' after 'if' expression", body, test);
          }
        });
        this.CONSUME(T.Else);
        const orelse = this.SUBRULE2(this.expression, FLAG_ARGS[0]);
        result = this.ACTION((): A.IfExp => ({
          kind: "IfExp",
          test,
          body,
          orelse,
          line: lineOf(first), col: colOf(first), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
        }));
      });
    }
    if (this.RECORDING_PHASE || ((flags & WALRUS) !== 0 && this.LA(1).tokenType === T.Walrus)) {
      const target = result;
      this.OPTION2(() => {
        const walrus = this.CONSUME(T.Walrus) as Token;
        const value = this.SUBRULE3(this.expression, FLAG_ARGS[0]);
        result = this.ACTION((): A.NamedExpr => {
          if (target.kind !== "Name") {
            throw new ParseFailure(`cannot use assignment expressions with ${describeExpr(target)}`, target, walrus);
          }
          return {
            kind: "NamedExpr",
            target,
            value,
            line: lineOf(first), col: colOf(first), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
          };
        });
      });
    }
    this.depth--;
    return result;
  });

  /** The flags of the innermost `expression` call, read by its alternatives before they recurse. */
  private expressionFlags = 0;

  // The alternatives carry no GATE (a gated alternation is much slower in Chevrotain); what the
  // flags forbid is rejected in an action instead.
  private readonly expressionAlternatives: IOrAlt<A.Expr>[] = [
    {
      ALT: () => {
        const flags = this.expressionFlags;
        const star = this.CONSUME(T.Star) as Token;
        const value = this.SUBRULE(this.expression, FLAG_ARGS[OPERAND | (flags & NO_IN)]);
        return this.ACTION((): A.Starred => {
          if ((flags & STAR) === 0) throw new ParseFailure("can't use starred expression here", star, this.last());
          return {
            kind: "Starred",
            value,
            line: lineOf(star), col: colOf(star), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
          };
        });
      },
    },
    {
      ALT: () => {
        const flags = this.expressionFlags;
        const lambda = this.SUBRULE(this.lambda);
        return this.ACTION(() => {
          if ((flags & OPERAND) !== 0) throw new ParseFailure("invalid syntax", lambda);
          return lambda;
        });
      },
    },
    { ALT: () => this.SUBRULE(this.operators, NO_IN_ARGS[(this.expressionFlags & NO_IN) !== 0 ? 1 : 0]) },
  ];

  private lambda = this.RULE("lambda", (): A.Lambda => {
    const kw = this.CONSUME(T.Lambda) as Token;
    const items = this.OPTION(() => this.SUBRULE(this.parameters, { ARGS: [false] })) ?? [];
    this.CONSUME(T.Colon);
    const outerAsync = this.inAsyncBody;
    this.inAsyncBody = false;
    const body = this.SUBRULE(this.expression, { ARGS: [0] });
    this.inAsyncBody = outerAsync;
    return this.ACTION(() => ({
      kind: "Lambda" as const,
      args: buildArguments(items, "lambda"),
      body,
      line: lineOf(kw), col: colOf(kw), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
    }));
  });

  /**
   * Everything from `or` down to `**`: prefix operators, operands and binary operators as a flat
   * sequence, folded by precedence. With `noIn`, a bare `in` ends it (for `for` targets).
   */
  private operators = this.RULE("operators", (noIn: boolean): A.Expr => {
    // The steps below are built once and keep their state on the parser; a nested `operators`
    // call (inside brackets) saves and restores it.
    const saved = this.seq;
    const items: SeqItem[] = [];
    this.seq = { items, more: true, noIn, isNot: false };
    this.AT_LEAST_ONE(this.operandStep);
    const frame = this.seq;
    this.seq = saved;
    if (this.RECORDING_PHASE) return RECORDED;
    if (frame.more || items.length === 0) throw new ParseFailure("invalid syntax", this.tok());
    return foldOperators(items);
  });

  private seq: { items: SeqItem[]; more: boolean; noIn: boolean; isNot: boolean } = {
    items: [],
    more: false,
    noIn: false,
    isNot: false,
  };

  private readonly prefixStep = (): void => {
    this.seq.items.push({ t: "prefix", token: this.CONSUME(T.UnaryOp) as Token });
  };

  private readonly operandStep = {
    GATE: () => this.seq.more,
    DEF: () => {
      // Repetitions and options are entered only when their first token is next (or while
      // Chevrotain records the grammar): declining one costs a lookahead call otherwise.
      if (this.RECORDING_PHASE || tokenMatcher(this.LA(1), T.UnaryOp)) this.MANY2(this.prefixStep);
      const first = this.tok();
      const expr = this.SUBRULE(this.primary);
      const seq = this.seq;
      seq.items.push({ t: "operand", expr, first, last: this.last() });
      seq.more = false;
      const next = this.LA(1);
      if (this.RECORDING_PHASE || tokenMatcher(next, T.BinaryOp) || next.tokenType === T.Not) {
        this.OPTION(this.binaryStep);
      }
    },
  };

  private readonly binaryStep = {
    GATE: () => !(this.seq.noIn && this.LA(1).tokenType === T.In),
    DEF: () => {
      this.seq.more = true;
      this.OR(this.binaryAlternatives);
    },
  };

  private readonly binaryAlternatives: IOrAlt<void>[] = [
    {
      ALT: () => {
        const token = this.CONSUME(T.BinaryOp) as Token;
        const seq = this.seq;
        seq.isNot = false;
        this.OPTION2(this.isNotStep);
        seq.items.push({ t: "binary", info: seq.isNot ? IS_NOT : binaryInfo.get(token.tokenType)!, token });
      },
    },
    {
      ALT: () => {
        const token = this.CONSUME2(T.Not) as Token;
        this.CONSUME(T.In);
        this.seq.items.push({ t: "binary", info: NOT_IN, token });
      },
    },
  ];

  private readonly isNotStep = {
    GATE: () => this.last().tokenType === T.Is,
    DEF: () => {
      this.CONSUME(T.Not);
      this.seq.isNot = true;
    },
  };

  // Alternatives that use no local variables are built once: Chevrotain's OR takes an array,
  // and allocating it (and its closures) on every call was a large part of the parse time.
  private readonly atomAlternatives: IOrAlt<A.Expr>[] = [
    {
      ALT: () => {
        const t = this.CONSUME2(T.Name) as Token;
        if (this.RECORDING_PHASE) return RECORDED;
        return {
          kind: "Name",
          id: t.payload as string,
          line: t.startLine!,
          col: t.startColumn!,
          endLine: t.endLine!,
          endCol: t.endColumn!,
        };
      },
    },
    { ALT: () => this.constant(this.CONSUME(T.Int) as Token) },
    { ALT: () => this.constant(this.CONSUME(T.Float) as Token) },
    { ALT: () => this.constant(this.CONSUME(T.KwNone) as Token, null) },
    { ALT: () => this.constant(this.CONSUME(T.KwTrue) as Token, true) },
    { ALT: () => this.constant(this.CONSUME(T.KwFalse) as Token, false) },
    { ALT: () => this.constant(this.CONSUME(T.Ellipsis) as Token, ELLIPSIS) },
    { ALT: () => this.SUBRULE(this.strings) },
    { ALT: () => this.SUBRULE(this.parenthesized) },
    { ALT: () => this.SUBRULE(this.listDisplay) },
    { ALT: () => this.SUBRULE(this.braceDisplay) },
  ];

  /** `await`? atom followed by calls, subscripts and attribute accesses. */
  private primary = this.RULE("primary", (): A.Expr => {
    const awaitKw =
      this.RECORDING_PHASE || this.LA(1).tokenType === T.Await ? this.OPTION(this.awaitStep) : undefined;
    const first = this.tok();
    this.primaryFirst = first;
    this.primaryValue = this.OR2(this.atomAlternatives);
    this.primaryFirst = first;
    if (this.RECORDING_PHASE || TRAILER_START.has(this.LA(1).tokenType)) this.MANY(this.trailerStep);
    const value = this.primaryValue;
    if (this.RECORDING_PHASE || !awaitKw) return value;
    if (!this.inAsyncBody) this.strayAwait = true;
    return {
      kind: "Await",
      value,
      line: lineOf(awaitKw), col: colOf(awaitKw), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
    } as A.Await;
  });

  /** The expression a trailer applies to, and where it started (for the trailer's span). */
  private primaryValue: A.Expr = null as unknown as A.Expr;
  private primaryFirst: Token = null as unknown as Token;

  private readonly awaitStep = (): Token => this.CONSUME(T.Await) as Token;

  private readonly trailerStep = (): void => {
    // Read before the alternative runs: calls and subscripts parse nested primaries.
    const value = this.primaryValue;
    const first = this.primaryFirst;
    const trailer = this.OR(this.trailerAlternatives);
    this.primaryValue = this.RECORDING_PHASE ? RECORDED : applyTrailer(value, first, trailer);
    this.primaryFirst = first;
  };

  private readonly trailerAlternatives: IOrAlt<Trailer>[] = [
    {
      ALT: () => {
        this.CONSUME(T.Dot);
        return { t: "attribute", name: this.CONSUME(T.Name) as Token };
      },
    },
    {
      ALT: () => {
        const open = this.CONSUME(T.LParen) as Token;
        const items = this.OPTION2(this.callArgumentsStep) ?? [];
        return { t: "call", open, items, close: this.CONSUME(T.RParen) as Token };
      },
    },
    {
      ALT: () => {
        this.CONSUME(T.LBracket);
        const slice = this.SUBRULE(this.slices);
        return { t: "subscript", slice, close: this.CONSUME(T.RBracket) as Token };
      },
    },
  ];

  private readonly callArgumentsStep = (): CallItem[] => this.SUBRULE(this.callArguments);

  private callArguments = this.RULE("callArguments", (): CallItem[] => {
    const saved = this.list;
    const list: ListFrame = { items: [], commas: 0, more: true };
    this.list = list;
    this.AT_LEAST_ONE(this.callArgumentStep);
    this.list = saved;
    return list.items as CallItem[];
  });

  private readonly callArgumentStep = {
    GATE: this.listContinues,
    DEF: () => {
      const item = this.OR(this.callArgumentAlternatives);
      this.list.items.push(item);
      this.list.more = false;
      this.OPTION(this.listComma);
    },
  };

  private readonly callArgumentAlternatives: IOrAlt<CallItem>[] = [
    {
      ALT: () => {
        const stars = this.CONSUME(T.DoubleStar) as Token;
        const value = this.SUBRULE2(this.expression, FLAG_ARGS[0]);
        return this.ACTION(
          (): CallItem => ({ t: "doublestar", keyword: {
            kind: "keyword",
            arg: null,
            value,
            line: lineOf(stars), col: colOf(stars), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
          } }),
        );
      },
    },
    {
      ALT: () => {
        const expr = this.SUBRULE(this.expression, FLAG_ARGS[STAR | WALRUS]);
        const tail = this.OR2(this.argumentTails);
        return this.ACTION((): CallItem => {
          if (tail === null) return expr.kind === "Starred" ? { t: "star", expr } : { t: "positional", expr };
          if (Array.isArray(tail)) {
            return { t: "genexp", expr: {
              kind: "GeneratorExp",
              elt: notStarred(expr, IN_COMPREHENSION),
              generators: tail,
              line: lineOf(expr), col: colOf(expr),
              endLine: endLineOf(tail[tail.length - 1]!), endCol: endColOf(tail[tail.length - 1]!),
            } };
          }
          if (expr.kind !== "Name") {
            const message =
              expr.kind === "Constant" && (expr.value === true || expr.value === false || expr.value === null)
                ? `cannot assign to ${describeExpr(expr)}`
                : 'expression cannot contain assignment, perhaps you meant "=="?';
            throw new ParseFailure(message, expr, tail.eq);
          }
          return { t: "keyword", keyword: {
            kind: "keyword",
            arg: expr.id,
            value: tail.value,
            line: lineOf(expr), col: colOf(expr), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
          } };
        });
      },
    },
  ];

  /** After an argument's expression: `= value` (a keyword), comprehension clauses, or nothing. */
  private readonly argumentTails: IOrAlt<{ eq: Token; value: A.Expr } | A.Comprehension[] | null>[] = [
    {
      ALT: () => {
        const eq = this.CONSUME(T.Assign) as Token;
        return { eq, value: this.SUBRULE3(this.expression, FLAG_ARGS[0]) };
      },
    },
    { ALT: () => this.SUBRULE(this.comprehensionClauses) },
    { ALT: () => null },
  ];

  /** The inside of `x[...]`: one index or slice, or several making a Tuple. */
  private slices = this.RULE("slices", (): A.Expr => {
    const first = this.tok();
    const elts: A.Expr[] = [this.SUBRULE(this.slice)];
    let comma: Token | null = null;
    let more = true;
    this.MANY({
      GATE: () => more,
      DEF: () => {
        comma = this.CONSUME(T.Comma) as Token;
        more = false;
        // A slice may be empty (`a[:]`), so only the bracket tells a trailing comma (`a[1,]`) apart.
        this.OPTION({
          GATE: () => this.LA(1).tokenType !== T.RBracket,
          DEF: () => {
            elts.push(this.SUBRULE2(this.slice));
            more = true;
          },
        });
      },
    });
    return this.ACTION(() => {
      if (!comma && elts[0]!.kind !== "Starred") return elts[0]!;
      return {
        kind: "Tuple",
        elts,
        parenthesized: false,
        line: lineOf(first), col: colOf(first), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
      } as A.Tuple;
    });
  });

  private slice = this.RULE("slice", (): A.Expr => {
    const start = this.tok();
    const lower = this.OPTION(() => this.SUBRULE(this.expression, { ARGS: [STAR | WALRUS] })) ?? null;
    let result: A.Expr | null = lower;
    this.OPTION2(() => {
      this.CONSUME(T.Colon);
      this.ACTION(() => lower && notStarred(lower, "invalid syntax"));
      const upper = this.OPTION3(() => this.SUBRULE3(this.expression, { ARGS: [0] })) ?? null;
      let step: A.Expr | null = null;
      this.OPTION4(() => {
        this.CONSUME2(T.Colon);
        step = this.OPTION5(() => this.SUBRULE2(this.expression, { ARGS: [0] })) ?? null;
      });
      result = this.ACTION((): A.Slice => ({
        kind: "Slice",
        lower,
        upper,
        step,
        line: lineOf(start), col: colOf(start), endLine: endLineOf(this.last()), endCol: endColOf(this.last()),
      }));
    });
    return this.ACTION(() => {
      if (!result) throw new ParseFailure("invalid syntax", this.tok());
      return result;
    });
  });

  private comprehensionClauses = this.RULE("comprehensionClauses", (): A.Comprehension[] => {
    const clauses: A.Comprehension[] = [];
    this.AT_LEAST_ONE(() => {
      const kw = this.CONSUME(T.For) as Token;
      const target = this.SUBRULE(this.targetList);
      this.CONSUME(T.In);
      const iter = this.SUBRULE2(this.expression, { ARGS: [OPERAND] });
      const ifs: A.Expr[] = [];
      this.MANY(() => {
        this.CONSUME(T.If);
        ifs.push(this.SUBRULE3(this.expression, { ARGS: [OPERAND] }));
      });
      this.ACTION(() => {
        const last = ifs.length > 0 ? ifs[ifs.length - 1]! : iter;
        clauses.push({
          kind: "comprehension",
          target: checkTarget(target, "comprehension"),
          iter,
          ifs,
          line: lineOf(kw), col: colOf(kw), endLine: endLineOf(last), endCol: endColOf(last),
        });
      });
    });
    return clauses;
  });

  // ---------------------------------------------------------------- atoms

  private constant(t: Token, value?: A.ConstantValue): A.Constant {
    if (this.RECORDING_PHASE) return RECORDED;
    return {
      kind: "Constant" as const,
      value: value === undefined ? (t.payload as A.ConstantValue) : value,
      line: t.startLine!,
      col: t.startColumn!,
      endLine: t.endLine!,
      endCol: t.endColumn!,
    };
  }

  private strings = this.RULE("strings", (): A.Constant | A.JoinedStr => {
    const saved = this.pieces;
    const pieces: StringPiece[] = [];
    this.pieces = pieces;
    this.AT_LEAST_ONE(this.stringPieceStep);
    this.pieces = saved;
    return this.ACTION(() => joinStrings(pieces));
  });

  /** The pieces of the string literal being parsed; f-string fields may hold nested ones. */
  private pieces: StringPiece[] = [];

  private readonly stringPieceStep = (): void => {
    const piece = this.OR(this.stringPieceAlternatives);
    this.pieces.push(piece);
  };

  private readonly stringPieceAlternatives: IOrAlt<StringPiece>[] = [
    { ALT: () => this.CONSUME(T.String) as Token },
    { ALT: () => this.SUBRULE(this.fstring) },
  ];

  private fstring = this.RULE("fstring", () => {
    const start = this.CONSUME(T.FStringStart) as Token;
    const values = this.SUBRULE(this.fstringParts);
    const end = this.CONSUME(T.FStringEnd) as Token;
    return { start, values, end };
  });

  private fstringParts = this.RULE("fstringParts", (): (A.Constant | A.FormattedValue)[] => {
    const values: (A.Constant | A.FormattedValue)[] = [];
    this.MANY(() =>
      this.OR([
        {
          ALT: () => {
            const t = this.CONSUME(T.FStringMiddle) as Token;
            this.ACTION(() => values.push({
              kind: "Constant",
              value: t.payload as string,
              line: t.startLine!, col: t.startColumn!, endLine: t.endLine!, endCol: t.endColumn!,
            }));
          },
        },
        {
          ALT: () => {
            const field = this.SUBRULE(this.replacementField);
            this.ACTION(() => values.push(...field));
          },
        },
      ]),
    );
    return values;
  });

  /** `{expr[=][!conversion][:spec]}`; self-documenting `=` adds the source text before the value. */
  private replacementField = this.RULE("replacementField", (): (A.Constant | A.FormattedValue)[] => {
    const open = this.CONSUME(T.FieldStart) as Token;
    const value = this.SUBRULE(this.starExpressions);
    this.ACTION(() => notStarred(value, "f-string: cannot use starred expression here"));
    const equals = this.OPTION(() => this.CONSUME(T.FieldEquals) as Token);
    const conversion = this.OPTION2(() => this.CONSUME(T.FieldConversion) as Token);
    let spec: A.JoinedStr | null = null;
    this.OPTION3(() => {
      const colon = this.CONSUME(T.FieldSpecStart) as Token;
      const parts = this.SUBRULE(this.fstringParts);
      spec = this.ACTION((): A.JoinedStr => {
        const last = parts[parts.length - 1];
        return {
          kind: "JoinedStr",
          values: parts,
          line: lineOf(colon), col: colOf(colon), endLine: endLineOf(last ?? colon), endCol: endColOf(last ?? colon),
        };
      });
    });
    const close = this.CONSUME(T.FieldEnd) as Token;
    return this.ACTION(() => {
      const out: (A.Constant | A.FormattedValue)[] = [];
      let conv = (conversion?.payload as "r" | "s" | "a" | undefined) ?? null;
      if (equals) {
        out.push({
          kind: "Constant",
          value: equals.payload as string,
          line: lineOf(open), col: colOf(open), endLine: endLineOf(equals), endCol: endColOf(equals),
        });
        if (!conv && !spec) conv = "r";
      }
      out.push({
        kind: "FormattedValue",
        value,
        conversion: conv,
        formatSpec: spec,
        line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
      });
      return out;
    });
  });

  private parenthesized = this.RULE("parenthesized", (): A.Expr => {
    const open = this.CONSUME(T.LParen) as Token;
    return this.OR([
      {
        ALT: () => {
          const close = this.CONSUME(T.RParen) as Token;
          return this.ACTION((): A.Tuple => ({
            kind: "Tuple",
            elts: [],
            parenthesized: true,
            line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
          }));
        },
      },
      {
        ALT: () => {
          const first = this.SUBRULE(this.expression, { ARGS: [STAR | WALRUS] });
          return this.OR2([
            {
              ALT: () => {
                const generators = this.SUBRULE(this.comprehensionClauses);
                const close = this.CONSUME2(T.RParen) as Token;
                return this.ACTION((): A.GeneratorExp => ({
                  kind: "GeneratorExp",
                  elt: notStarred(first, IN_COMPREHENSION),
                  generators,
                  line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
                }));
              },
            },
            {
              ALT: () => {
                const rest = this.SUBRULE(this.displayRest, { ARGS: [first] });
                const close = this.CONSUME3(T.RParen) as Token;
                return this.ACTION((): A.Expr => {
                  const [elts, comma] = rest;
                  if (!comma) {
                    if (first.kind === "Starred") throw new ParseFailure("cannot use starred expression here", first);
                    return first;
                  }
                  return {
                    kind: "Tuple",
                    elts,
                    parenthesized: true,
                    line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
                  };
                });
              },
            },
          ]);
        },
      },
    ]);
  });

  /** After a display's first element: `, elt` pairs with an optional trailing comma. */
  private displayRest = this.RULE("displayRest", (first: A.Expr): [A.Expr[], boolean] => {
    const elts: A.Expr[] = [first];
    let comma = false;
    let more = true;
    this.MANY({
      GATE: () => more,
      DEF: () => {
        this.CONSUME(T.Comma);
        comma = true;
        more = false;
        this.OPTION(() => {
          elts.push(this.SUBRULE(this.expression, { ARGS: [STAR | WALRUS] }));
          more = true;
        });
      },
    });
    return [elts, comma];
  });

  private listDisplay = this.RULE("listDisplay", (): A.Expr => {
    const open = this.CONSUME(T.LBracket) as Token;
    return this.OR([
      {
        ALT: () => {
          const close = this.CONSUME(T.RBracket) as Token;
          return this.ACTION((): A.List => ({
            kind: "List",
            elts: [],
            line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
          }));
        },
      },
      {
        ALT: () => {
          const first = this.SUBRULE(this.expression, { ARGS: [STAR | WALRUS] });
          return this.OR2([
            {
              ALT: () => {
                const generators = this.SUBRULE(this.comprehensionClauses);
                const close = this.CONSUME2(T.RBracket) as Token;
                return this.ACTION((): A.ListComp => ({
                  kind: "ListComp",
                  elt: notStarred(first, IN_COMPREHENSION),
                  generators,
                  line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
                }));
              },
            },
            {
              ALT: () => {
                const rest = this.SUBRULE(this.displayRest, { ARGS: [first] });
                this.ACTION(() => this.checkComprehensionTarget(rest[0]));
                const close = this.CONSUME3(T.RBracket) as Token;
                return this.ACTION((): A.List => ({
                  kind: "List",
                  elts: rest[0],
                  line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
                }));
              },
            },
          ]);
        },
      },
    ]);
  });

  /** `[x, y for ...]`: CPython's hint about parenthesizing the comprehension target. */
  private checkComprehensionTarget(elts: A.Expr[]): void {
    if (elts.length > 1 && this.LA(1).tokenType === T.For) {
      throw new ParseFailure("did you forget parentheses around the comprehension target?", elts[0]!, elts[elts.length - 1]!);
    }
  }

  private braceDisplay = this.RULE("braceDisplay", (): A.Expr => {
    const open = this.CONSUME(T.LBrace) as Token;
    return this.OR([
      {
        ALT: () => {
          const close = this.CONSUME(T.RBrace) as Token;
          return this.ACTION((): A.Dict => ({
            kind: "Dict",
            keys: [],
            values: [],
            line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
          }));
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.DoubleStar);
          const value = this.SUBRULE3(this.expression, { ARGS: [OPERAND] });
          const entries = this.SUBRULE(this.dictRest, { ARGS: [null, value] });
          const close = this.CONSUME2(T.RBrace) as Token;
          return this.ACTION((): A.Dict => ({
            kind: "Dict",
            keys: entries[0],
            values: entries[1],
            line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
          }));
        },
      },
      {
        ALT: () => {
          const first = this.SUBRULE(this.expression, { ARGS: [STAR | WALRUS] });
          return this.OR2([
            {
              ALT: () => {
                this.ACTION(() => notStarred(first, "invalid syntax"));
                this.CONSUME(T.Colon);
                const value = this.SUBRULE2(this.expression, { ARGS: [0] });
                return this.OR3([
                  {
                    ALT: () => {
                      const generators = this.SUBRULE(this.comprehensionClauses);
                      const close = this.CONSUME3(T.RBrace) as Token;
                      return this.ACTION((): A.DictComp => ({
                        kind: "DictComp",
                        key: first,
                        value,
                        generators,
                        line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
                      }));
                    },
                  },
                  {
                    ALT: () => {
                      const entries = this.SUBRULE2(this.dictRest, { ARGS: [first, value] });
                      const close = this.CONSUME4(T.RBrace) as Token;
                      return this.ACTION((): A.Dict => ({
                        kind: "Dict",
                        keys: entries[0],
                        values: entries[1],
                        line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
                      }));
                    },
                  },
                ]);
              },
            },
            {
              ALT: () => {
                const generators = this.SUBRULE2(this.comprehensionClauses);
                const close = this.CONSUME5(T.RBrace) as Token;
                return this.ACTION((): A.SetComp => ({
                  kind: "SetComp",
                  elt: notStarred(first, IN_COMPREHENSION),
                  generators,
                  line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
                }));
              },
            },
            {
              ALT: () => {
                const rest = this.SUBRULE(this.displayRest, { ARGS: [first] });
                this.ACTION(() => this.checkComprehensionTarget(rest[0]));
                const close = this.CONSUME6(T.RBrace) as Token;
                return this.ACTION((): A.Set => ({
                  kind: "Set",
                  elts: rest[0],
                  line: lineOf(open), col: colOf(open), endLine: endLineOf(close), endCol: endColOf(close),
                }));
              },
            },
          ]);
        },
      },
    ]);
  });

  /** The rest of a dict display after its first entry (`key: value` or `**mapping`). */
  private dictRest = this.RULE(
    "dictRest",
    (firstKey: A.Expr | null, firstValue: A.Expr): [(A.Expr | null)[], A.Expr[]] => {
      const keys: (A.Expr | null)[] = [firstKey];
      const values: A.Expr[] = [firstValue];
      let more = true;
      this.MANY({
        GATE: () => more,
        DEF: () => {
          this.CONSUME(T.Comma);
          more = false;
          this.OPTION(() => {
            this.SUBRULE(this.dictEntry, { ARGS: [keys, values] });
            more = true;
          });
        },
      });
      return [keys, values];
    },
  );

  private dictEntry = this.RULE("dictEntry", (keys: (A.Expr | null)[], values: A.Expr[]): void => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.DoubleStar);
          const value = this.SUBRULE3(this.expression, { ARGS: [OPERAND] });
          this.ACTION(() => {
            keys.push(null);
            values.push(value);
          });
        },
      },
      {
        ALT: () => {
          const key = this.SUBRULE(this.expression, { ARGS: [0] });
          this.ACTION(() => {
            if (this.LA(1).tokenType !== T.Colon) {
              throw new ParseFailure("':' expected after dictionary key", key);
            }
          });
          this.CONSUME(T.Colon);
          const value = this.SUBRULE2(this.expression, { ARGS: [0] });
          this.ACTION(() => {
            keys.push(key);
            values.push(value);
          });
        },
      },
    ]);
  });
}

export { PySyntaxError, syntaxErrorAt };
