// The dialect's abstract syntax tree. Node kinds and fields follow CPython's `ast` module so that
// anyone who knows Python's AST can read ours; only what the dialect supports is here.
//
// Every node carries its source span: 1-based `line` and `col`, and an exclusive end
// (`endLine`, `endCol`), with columns in UTF-16 code units of the source line.

export interface Span {
  line: number;
  col: number;
  endLine: number;
  endCol: number;
}

// ------------------------------------------------------------------ module and statements

export interface Module extends Span {
  kind: "Module";
  body: Stmt[];
}

export type Stmt =
  | ExprStmt
  | Assign
  | AugAssign
  | AnnAssign
  | If
  | For
  | While
  | Break
  | Continue
  | Pass
  | FunctionDef
  | Return
  | Global
  | Nonlocal
  | Delete
  | Assert
  | Try
  | Raise
  | Import
  | ImportFrom;

export interface ExprStmt extends Span {
  kind: "Expr";
  value: Expr;
}

/** `a = b = value`: every target receives the same value, left to right. */
export interface Assign extends Span {
  kind: "Assign";
  targets: Target[];
  value: Expr;
}

export interface AugAssign extends Span {
  kind: "AugAssign";
  target: Name | Attribute | Subscript;
  op: BinaryOperator;
  value: Expr;
}

/** `x: int = 1`. Annotations are parsed and kept but never evaluated. */
export interface AnnAssign extends Span {
  kind: "AnnAssign";
  target: Name | Attribute | Subscript;
  annotation: Expr;
  value: Expr | null;
}

export interface If extends Span {
  kind: "If";
  test: Expr;
  body: Stmt[];
  orelse: Stmt[];
}

export interface For extends Span {
  kind: "For";
  target: Target;
  iter: Expr;
  body: Stmt[];
  orelse: Stmt[];
}

export interface While extends Span {
  kind: "While";
  test: Expr;
  body: Stmt[];
  orelse: Stmt[];
}

export interface Break extends Span {
  kind: "Break";
}

export interface Continue extends Span {
  kind: "Continue";
}

export interface Pass extends Span {
  kind: "Pass";
}

/** `def` or `async def`; its span starts at `def` (or `async`), after any decorators, as in CPython. */
export interface FunctionDef extends Span {
  kind: "FunctionDef";
  name: string;
  args: Arguments;
  body: Stmt[];
  /** `@expression` lines above the def, top to bottom (applied bottom-up). */
  decoratorList: Expr[];
  returns: Expr | null;
  isAsync: boolean;
}

export interface Arguments {
  posonlyargs: Arg[];
  args: Arg[];
  vararg: Arg | null;
  kwonlyargs: Arg[];
  /** One entry per keyword-only argument; null where it has no default. */
  kwDefaults: (Expr | null)[];
  kwarg: Arg | null;
  /** Defaults of the last positional arguments (positional-only included), as in CPython. */
  defaults: Expr[];
}

export interface Arg extends Span {
  kind: "arg";
  arg: string;
  annotation: Expr | null;
}

export interface Return extends Span {
  kind: "Return";
  value: Expr | null;
}

export interface Global extends Span {
  kind: "Global";
  names: string[];
}

export interface Nonlocal extends Span {
  kind: "Nonlocal";
  names: string[];
}

export interface Delete extends Span {
  kind: "Delete";
  targets: Target[];
}

export interface Assert extends Span {
  kind: "Assert";
  test: Expr;
  msg: Expr | null;
}

export interface Try extends Span {
  kind: "Try";
  body: Stmt[];
  handlers: ExceptHandler[];
  orelse: Stmt[];
  finalbody: Stmt[];
}

export interface ExceptHandler extends Span {
  kind: "ExceptHandler";
  /** null for a bare `except:`. */
  type: Expr | null;
  name: string | null;
  body: Stmt[];
}

export interface Raise extends Span {
  kind: "Raise";
  exc: Expr | null;
  cause: Expr | null;
}

export interface Alias extends Span {
  kind: "alias";
  /** Dotted module name for `import`, a plain name for `from ... import`. */
  name: string;
  asname: string | null;
}

export interface Import extends Span {
  kind: "Import";
  names: Alias[];
}

export interface ImportFrom extends Span {
  kind: "ImportFrom";
  /** null for `from . import x`. */
  module: string | null;
  names: Alias[];
  /** Number of leading dots (relative import level). */
  level: number;
}

// ------------------------------------------------------------------ expressions

export type Expr =
  | BoolOp
  | NamedExpr
  | BinOp
  | UnaryOp
  | Lambda
  | IfExp
  | Dict
  | Set
  | ListComp
  | SetComp
  | DictComp
  | GeneratorExp
  | Await
  | Compare
  | Call
  | FormattedValue
  | JoinedStr
  | Constant
  | Attribute
  | Subscript
  | Starred
  | Name
  | List
  | Tuple
  | Slice;

/** What may stand on the left of `=`, after `for`, or after `del`. */
export type Target = Name | Attribute | Subscript | Tuple | List | Starred;

export type BinaryOperator =
  | "+" | "-" | "*" | "/" | "//" | "%" | "**" | "<<" | ">>" | "&" | "|" | "^" | "@";
export type UnaryOperator = "-" | "+" | "~" | "not";
export type CompareOperator = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in" | "is" | "is not";

export interface BoolOp extends Span {
  kind: "BoolOp";
  op: "and" | "or";
  values: Expr[];
}

export interface NamedExpr extends Span {
  kind: "NamedExpr";
  target: Name;
  value: Expr;
}

export interface BinOp extends Span {
  kind: "BinOp";
  op: BinaryOperator;
  left: Expr;
  right: Expr;
}

export interface UnaryOp extends Span {
  kind: "UnaryOp";
  op: UnaryOperator;
  operand: Expr;
}

export interface Lambda extends Span {
  kind: "Lambda";
  args: Arguments;
  body: Expr;
}

export interface IfExp extends Span {
  kind: "IfExp";
  test: Expr;
  body: Expr;
  orelse: Expr;
}

/** `keys[i]` is null for a `**mapping` entry, whose mapping is `values[i]`. */
export interface Dict extends Span {
  kind: "Dict";
  keys: (Expr | null)[];
  values: Expr[];
}

export interface Set extends Span {
  kind: "Set";
  elts: Expr[];
}

export interface Comprehension extends Span {
  kind: "comprehension";
  target: Target;
  iter: Expr;
  ifs: Expr[];
}

export interface ListComp extends Span {
  kind: "ListComp";
  elt: Expr;
  generators: Comprehension[];
}

export interface SetComp extends Span {
  kind: "SetComp";
  elt: Expr;
  generators: Comprehension[];
}

export interface DictComp extends Span {
  kind: "DictComp";
  key: Expr;
  value: Expr;
  generators: Comprehension[];
}

export interface GeneratorExp extends Span {
  kind: "GeneratorExp";
  elt: Expr;
  generators: Comprehension[];
}

export interface Await extends Span {
  kind: "Await";
  value: Expr;
}

/** `a < b <= c`: ops and comparators pair up, left to right. */
export interface Compare extends Span {
  kind: "Compare";
  left: Expr;
  ops: CompareOperator[];
  comparators: Expr[];
}

export interface Keyword extends Span {
  kind: "keyword";
  /** null for `**mapping`. */
  arg: string | null;
  value: Expr;
}

export interface Call extends Span {
  kind: "Call";
  func: Expr;
  /** Positional arguments; `*iterable` appears as Starred. */
  args: Expr[];
  keywords: Keyword[];
}

/** One replacement field of an f-string. */
export interface FormattedValue extends Span {
  kind: "FormattedValue";
  value: Expr;
  conversion: "r" | "s" | "a" | null;
  formatSpec: JoinedStr | null;
}

/** An f-string (with any adjacent literals): literal parts and formatted values in order. */
export interface JoinedStr extends Span {
  kind: "JoinedStr";
  values: (Constant | FormattedValue)[];
}

export type ConstantValue = string | bigint | number | boolean | null | Uint8Array | typeof ELLIPSIS;

/** The value of the `...` literal. */
export const ELLIPSIS: unique symbol = Symbol("Ellipsis");

/**
 * A literal. Integers are bigint (exact at any size; the interpreter picks its own
 * representation), floats are number, bytes are Uint8Array, `...` is ELLIPSIS.
 */
export interface Constant extends Span {
  kind: "Constant";
  value: ConstantValue;
}

export interface Attribute extends Span {
  kind: "Attribute";
  value: Expr;
  attr: string;
}

export interface Subscript extends Span {
  kind: "Subscript";
  value: Expr;
  /** A Slice, a Tuple (for `a[1:2, 3]`) or any expression. */
  slice: Expr;
}

export interface Starred extends Span {
  kind: "Starred";
  value: Expr;
}

export interface Name extends Span {
  kind: "Name";
  id: string;
}

export interface List extends Span {
  kind: "List";
  elts: Expr[];
}

export interface Tuple extends Span {
  kind: "Tuple";
  elts: Expr[];
  /** Written with parentheses: `(a, b)` rather than `a, b`. */
  parenthesized: boolean;
}

export interface Slice extends Span {
  kind: "Slice";
  lower: Expr | null;
  upper: Expr | null;
  step: Expr | null;
}

export type Node = Module | Stmt | Expr | ExceptHandler | Arg | Alias | Keyword | Comprehension;
