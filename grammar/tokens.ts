// The dialect's token vocabulary. Tokens are Chevrotain token types so the parser (and the
// syntax-diagram generator) can use them, but they are produced by our own scanner (lexer.ts):
// indentation, f-string modes and CPython's error messages need more than a regex lexer gives.
import { createToken, EOF, Lexer, type TokenType } from "chevrotain";

export { EOF };

const make = (name: string, categories: TokenType[] = [], label?: string): TokenType =>
  createToken({ name, pattern: Lexer.NA, categories, label });

// Categories let one grammar alternative match a family of tokens (all binary operators, say),
// which keeps lookahead at one token and the parser fast.
export const BinaryOp = make("BinaryOp");
export const UnaryOp = make("UnaryOp");
export const AugAssign = make("AugAssign");
export const StringLike = make("StringLike");

export const Newline = make("Newline", [], "NEWLINE");
export const Indent = make("Indent", [], "INDENT");
export const Dedent = make("Dedent", [], "DEDENT");

export const Name = make("Name", [], "NAME");
export const Int = make("Int", [], "INT");
export const Float = make("Float", [], "FLOAT");
export const String = make("String", [StringLike], "STRING");

// f-strings are split into parts (the approach of PEP 701): start, literal middles,
// replacement fields holding ordinary tokens, end.
export const FStringStart = make("FStringStart", [StringLike], "FSTRING_START");
export const FStringMiddle = make("FStringMiddle", [], "FSTRING_MIDDLE");
export const FStringEnd = make("FStringEnd", [], "FSTRING_END");
export const FieldStart = make("FieldStart", [], "'{'");
export const FieldEnd = make("FieldEnd", [], "'}'");
export const FieldEquals = make("FieldEquals", [], "'='");
export const FieldConversion = make("FieldConversion", [], "'!' CONVERSION");
export const FieldSpecStart = make("FieldSpecStart", [], "':'");

const keywordNames = [
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
  "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
  "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
  "yield",
] as const;
export type Keyword = (typeof keywordNames)[number];

export const KwFalse = make("KwFalse", [], "'False'");
export const KwNone = make("KwNone", [], "'None'");
export const KwTrue = make("KwTrue", [], "'True'");
export const And = make("KwAnd", [BinaryOp], "'and'");
export const As = make("KwAs", [], "'as'");
export const Assert = make("KwAssert", [], "'assert'");
export const Async = make("KwAsync", [], "'async'");
export const Await = make("KwAwait", [], "'await'");
export const Break = make("KwBreak", [], "'break'");
export const Class = make("KwClass", [], "'class'");
export const Continue = make("KwContinue", [], "'continue'");
export const Def = make("KwDef", [], "'def'");
export const Del = make("KwDel", [], "'del'");
export const Elif = make("KwElif", [], "'elif'");
export const Else = make("KwElse", [], "'else'");
export const Except = make("KwExcept", [], "'except'");
export const Finally = make("KwFinally", [], "'finally'");
export const For = make("KwFor", [], "'for'");
export const From = make("KwFrom", [], "'from'");
export const Global = make("KwGlobal", [], "'global'");
export const If = make("KwIf", [], "'if'");
export const Import = make("KwImport", [], "'import'");
export const In = make("KwIn", [BinaryOp], "'in'");
export const Is = make("KwIs", [BinaryOp], "'is'");
export const Lambda = make("KwLambda", [], "'lambda'");
export const Nonlocal = make("KwNonlocal", [], "'nonlocal'");
export const Not = make("KwNot", [UnaryOp], "'not'");
export const Or = make("KwOr", [BinaryOp], "'or'");
export const Pass = make("KwPass", [], "'pass'");
export const Raise = make("KwRaise", [], "'raise'");
export const Return = make("KwReturn", [], "'return'");
export const Try = make("KwTry", [], "'try'");
export const While = make("KwWhile", [], "'while'");
export const With = make("KwWith", [], "'with'");
export const Yield = make("KwYield", [], "'yield'");

export const LParen = make("LParen", [], "'('");
export const RParen = make("RParen", [], "')'");
export const LBracket = make("LBracket", [], "'['");
export const RBracket = make("RBracket", [], "']'");
export const LBrace = make("LBrace", [], "'{'");
export const RBrace = make("RBrace", [], "'}'");
export const Comma = make("Comma", [], "','");
export const Colon = make("Colon", [], "':'");
export const Semicolon = make("Semicolon", [], "';'");
export const Dot = make("Dot", [], "'.'");
export const Ellipsis = make("Ellipsis", [], "'...'");
export const Assign = make("Assign", [], "'='");
export const Arrow = make("Arrow", [], "'->'");
export const Walrus = make("Walrus", [], "':='");
export const At = make("At", [BinaryOp], "'@'");

export const Plus = make("Plus", [BinaryOp, UnaryOp], "'+'");
export const Minus = make("Minus", [BinaryOp, UnaryOp], "'-'");
export const Star = make("Star", [BinaryOp], "'*'");
export const DoubleStar = make("DoubleStar", [BinaryOp], "'**'");
export const Slash = make("Slash", [BinaryOp], "'/'");
export const DoubleSlash = make("DoubleSlash", [BinaryOp], "'//'");
export const Percent = make("Percent", [BinaryOp], "'%'");
export const LShift = make("LShift", [BinaryOp], "'<<'");
export const RShift = make("RShift", [BinaryOp], "'>>'");
export const Amp = make("Amp", [BinaryOp], "'&'");
export const Pipe = make("Pipe", [BinaryOp], "'|'");
export const Caret = make("Caret", [BinaryOp], "'^'");
export const Tilde = make("Tilde", [UnaryOp], "'~'");
export const Less = make("Less", [BinaryOp], "'<'");
export const Greater = make("Greater", [BinaryOp], "'>'");
export const LessEq = make("LessEq", [BinaryOp], "'<='");
export const GreaterEq = make("GreaterEq", [BinaryOp], "'>='");
export const EqEq = make("EqEq", [BinaryOp], "'=='");
export const NotEq = make("NotEq", [BinaryOp], "'!='");

const augOps = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=", ">>=", "&=", "|=", "^=", "@="];
export const augAssignTokens: ReadonlyMap<string, TokenType> = new Map(
  augOps.map((op) => [op, make(`AugAssign${op}`, [AugAssign], `'${op}'`)]),
);

export const keywords: ReadonlyMap<string, TokenType> = new Map<string, TokenType>([
  ["False", KwFalse], ["None", KwNone], ["True", KwTrue], ["and", And], ["as", As],
  ["assert", Assert], ["async", Async], ["await", Await], ["break", Break], ["class", Class],
  ["continue", Continue], ["def", Def], ["del", Del], ["elif", Elif], ["else", Else],
  ["except", Except], ["finally", Finally], ["for", For], ["from", From], ["global", Global],
  ["if", If], ["import", Import], ["in", In], ["is", Is], ["lambda", Lambda],
  ["nonlocal", Nonlocal], ["not", Not], ["or", Or], ["pass", Pass], ["raise", Raise],
  ["return", Return], ["try", Try], ["while", While], ["with", With], ["yield", Yield],
]);
if (keywords.size !== keywordNames.length) throw new Error("keyword table is incomplete");

/**
 * Is `name` one of the dialect's keywords (Python 3.11's keyword.kwlist)? The one list every layer
 * asks: a tool or client name, a namedtuple field. Soft keywords (match, case, type, _) are names.
 */
export function isKeyword(name: string): boolean {
  return keywords.has(name);
}

// Operators and delimiters, longest first within each leading character, for the scanner.
export const operators: ReadonlyMap<string, TokenType> = new Map<string, TokenType>([
  ["(", LParen], [")", RParen], ["[", LBracket], ["]", RBracket], ["{", LBrace], ["}", RBrace],
  [",", Comma], [":", Colon], [";", Semicolon], [".", Dot], ["...", Ellipsis], ["=", Assign],
  ["->", Arrow], [":=", Walrus], ["@", At], ["+", Plus], ["-", Minus], ["*", Star],
  ["**", DoubleStar], ["/", Slash], ["//", DoubleSlash], ["%", Percent], ["<<", LShift],
  [">>", RShift], ["&", Amp], ["|", Pipe], ["^", Caret], ["~", Tilde], ["<", Less], [">", Greater],
  ["<=", LessEq], [">=", GreaterEq], ["==", EqEq], ["!=", NotEq],
  ...augAssignTokens,
]);

export const allTokens: TokenType[] = [
  BinaryOp, UnaryOp, AugAssign, StringLike,
  Newline, Indent, Dedent, Name, Int, Float, String,
  FStringStart, FStringMiddle, FStringEnd, FieldStart, FieldEnd, FieldEquals, FieldConversion,
  FieldSpecStart,
  ...keywords.values(),
  ...new Set(operators.values()),
];
