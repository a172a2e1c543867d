// The grammar's entry point: source text -> Module, or a PySyntaxError with CPython's wording.
import type { IRecognitionException, TokenType } from "chevrotain";
import type * as A from "./ast.js";
import { PySyntaxError, syntaxErrorAt } from "./errors.js";
import { scan, type Token } from "./lexer.js";
import { DialectParser, ParseFailure, type RecognitionRecord } from "./parser.js";
import * as T from "./tokens.js";
import { checkContext } from "./validate.js";
import { depthExceeds } from "./walk.js";

let parser: DialectParser | undefined;

/**
 * The deepest AST accepted. Consumers (the interpreter's compiler) may recurse over the tree, so
 * depth is bounded here; CPython's compiler gives up between 1,000 and 3,000 levels.
 */
export const MAX_AST_DEPTH = 1200;

/** The parser is built once (Chevrotain analyses the grammar then) and reused; parsing is synchronous. */
export function getParser(): DialectParser {
  parser ??= new DialectParser({ validate: false });
  return parser;
}

/** Parses a script. Throws PySyntaxError (SyntaxError, IndentationError or TabError). */
export function parse(source: string): A.Module {
  const { tokens, unclosed, unclosedLine, keywordsSeen } = scan(source);
  try {
    const parser = getParser();
    const module = parser.parseTokens(tokens);
    checkTree(module, tokens, keywordsSeen, parser.strayAwait);
    return module;
  } catch (error) {
    if (unclosed) {
      // CPython blames the open bracket when parsing fails past the bracket's line or at the end.
      const at = isRecognition(error) ? (error.token as Token) : getParser().tok();
      if (at.tokenType === T.EOF || at.tokenType === T.Newline || at.startLine! > unclosedLine) throw unclosed;
    }
    throw toSyntaxError(error, source, tokens);
  }
}

/** The checks of a parsed tree that parse() makes: its depth, then its context (await, return, ...). */
function checkTree(module: A.Module, tokens: Token[], keywordsSeen: ReadonlySet<TokenType>, strayAwait: boolean): void {
  // Each level of nesting takes at least one token, so short scripts cannot be too deep. The
  // depth is checked first: the context checks recurse over the tree.
  if (tokens.length > MAX_AST_DEPTH) {
    const deep = depthExceeds(module, MAX_AST_DEPTH);
    if (deep) throw new ParseFailure(`expression nested too deeply (more than ${MAX_AST_DEPTH} levels)`, deep);
  }
  checkContext(module, keywordsSeen, strayAwait);
}

/**
 * parse()'s checks of a Module parsed from `tokens` (the scan of `source`, with no unclosed
 * bracket) by other means, such as in pieces: the Module, or parse()'s PySyntaxError.
 */
export function checkParsed(module: A.Module, source: string, tokens: Token[], keywordsSeen: ReadonlySet<TokenType>, strayAwait: boolean): A.Module {
  try {
    checkTree(module, tokens, keywordsSeen, strayAwait);
  } catch (error) {
    throw toSyntaxError(error, source, tokens);
  }
  return module;
}

/** Like parse, but returns the error instead of throwing it. */
export function tryParse(source: string): { ok: true; module: A.Module } | { ok: false; error: PySyntaxError } {
  try {
    return { ok: true, module: parse(source) };
  } catch (error) {
    if (error instanceof PySyntaxError) return { ok: false, error };
    throw error;
  }
}

function isRecognition(error: unknown): error is IRecognitionException {
  return typeof error === "object" && error !== null && "token" in error && "context" in error;
}

function toSyntaxError(error: unknown, source: string, tokens: Token[]): PySyntaxError {
  if (error instanceof PySyntaxError) return error;
  if (error instanceof ParseFailure) {
    const [line, col] = start(error.from);
    const [endLine, endCol] = end(error.to);
    return syntaxErrorAt(source, error.message, line, col, endLine, endCol, error.type);
  }
  if (error instanceof RangeError) {
    // A safety net: the depth limits should stop every input long before the JS stack does.
    return syntaxErrorAt(source, "too many nested expressions (the sandbox's parser limit)", 1, 1);
  }
  if (isRecognition(error)) return fromRecognition(error, source, tokens);
  throw error;
}

function start(x: Token | A.Span): [number, number] {
  return "tokenType" in x ? [x.startLine!, x.startColumn!] : [x.line, x.col];
}

function end(x: Token | A.Span): [number, number] {
  return "tokenType" in x ? [x.endLine!, x.endColumn!] : [x.endLine, x.endCol];
}

const EXPRESSION_END = new Set([
  T.Name, T.Int, T.Float, T.String, T.FStringEnd, T.RParen, T.RBracket, T.RBrace, T.KwNone, T.KwTrue,
  T.KwFalse, T.Ellipsis,
]);
const EXPRESSION_START = new Set([
  T.Name, T.Int, T.Float, T.String, T.FStringStart, T.LParen, T.LBracket, T.LBrace, T.KwNone, T.KwTrue,
  T.KwFalse, T.Ellipsis, T.Lambda, T.Await, T.Tilde,
]);
const LINE_START = new Set([T.Newline, T.Indent, T.Dedent]);
const OPENERS = new Set([T.LParen, T.LBracket, T.LBrace]);
const CLOSERS = new Set([T.RParen, T.RBracket, T.RBrace]);

/** Maps a Chevrotain recognition error (its message is a RecognitionRecord) to CPython's wording. */
function fromRecognition(error: IRecognitionException, source: string, tokens: Token[]): PySyntaxError {
  const token = error.token as Token;
  const record = JSON.parse(error.message) as RecognitionRecord;
  const index = tokens.indexOf(token);
  const previous = index > 0 ? tokens[index - 1] : undefined;
  const at = (message: string, from: Token | A.Span, to: Token | A.Span = from, type: "SyntaxError" | "IndentationError" = "SyntaxError") => {
    const [line, col] = start(from);
    const [endLine, endCol] = end(to);
    return syntaxErrorAt(source, message, line, col, endLine, endCol, type);
  };

  if (token.tokenType === T.Indent) {
    // CPython points at the last character of the indentation.
    const column = Math.max(1, token.startColumn! - 1);
    return syntaxErrorAt(source, "unexpected indent", token.startLine!, column, token.startLine!, column, "IndentationError");
  }

  if (previous && previous.tokenType === T.Name && (previous.image === "print" || previous.image === "exec")) {
    const before = tokens[index - 2];
    if ((before === undefined || LINE_START.has(before.tokenType)) && EXPRESSION_START.has(token.tokenType)) {
      let last = index;
      while (tokens[last + 1] && tokens[last + 1]!.tokenType !== T.Newline && tokens[last + 1]!.tokenType !== T.EOF) last++;
      return at(
        `Missing parentheses in call to '${previous.image}'. Did you mean ${previous.image}(...)?`,
        previous,
        tokens[last]!,
      );
    }
  }

  if (record.kind === "mismatch" && record.expected === "Colon" && previous) {
    if (token.tokenType === T.Assign && /^(ifStatement|whileStatement)$/.test(record.rule)) {
      const from = expressionStart(tokens, index - 1);
      return at("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", from, tokenAfterAssign(tokens, index));
    }
    if (token.tokenType !== T.Assign) {
      return syntaxErrorAt(source, "expected ':'", previous.endLine!, previous.endColumn!);
    }
  }

  if (record.kind === "mismatch" && record.rule === "decorated" && token.tokenType === T.Assign && previous) {
    return at("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", expressionStart(tokens, index - 1), tokenAfterAssign(tokens, index));
  }

  if (record.rule === "tryStatement" && record.kind === "noViableAlt") {
    return at("expected 'except' or 'finally' block", token);
  }

  if (
    previous &&
    EXPRESSION_END.has(previous.tokenType) &&
    EXPRESSION_START.has(token.tokenType) &&
    insideBrackets(tokens, index)
  ) {
    return at("invalid syntax. Perhaps you forgot a comma?", expressionStart(tokens, index - 1), token);
  }

  return at("invalid syntax", token);
}

/** True when the token at `index` sits inside (), [] or {}. */
function insideBrackets(tokens: Token[], index: number): boolean {
  let depth = 0;
  for (let i = 0; i < index; i++) {
    const type = tokens[i]!.tokenType;
    if (OPENERS.has(type)) depth++;
    else if (CLOSERS.has(type)) depth--;
  }
  return depth > 0;
}

/** Walks back from the token at `index` over one primary expression (`a.b(c)[d]`). */
function expressionStart(tokens: Token[], index: number): Token {
  let i = index;
  for (;;) {
    const token = tokens[i]!;
    if (CLOSERS.has(token.tokenType)) {
      let depth = 0;
      for (; i >= 0; i--) {
        const type = tokens[i]!.tokenType;
        if (CLOSERS.has(type)) depth++;
        else if (OPENERS.has(type) && --depth === 0) break;
      }
      const before = tokens[i - 1];
      if (before && EXPRESSION_END.has(before.tokenType) && before.tokenType !== T.String) {
        i--;
        continue;
      }
      return tokens[i]!;
    }
    if (token.tokenType === T.FStringEnd) {
      while (i > 0 && tokens[i]!.tokenType !== T.FStringStart) i--;
      return tokens[i]!;
    }
    const before = tokens[i - 1];
    if (before?.tokenType === T.Dot && i >= 2) {
      i -= 2;
      continue;
    }
    return token;
  }
}

function tokenAfterAssign(tokens: Token[], index: number): Token {
  const next = tokens[index + 1];
  return next && next.tokenType !== T.Newline && next.tokenType !== T.EOF ? next : tokens[index]!;
}
