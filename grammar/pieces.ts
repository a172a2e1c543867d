// parse(), a piece at a time. A 64 KB script takes 15-40 ms to parse on this project's machines,
// longer than anything may hold the gateway's event loop (issue 18), so the interpreter parses
// a long script in pieces and lets the event loop turn between them. The source is scanned at
// once (a few ms); its top-level statements are then parsed in runs of about a thousand tokens,
// each run a token vector of its own ended by a copy of the EOF token. What comes out is what
// parse() gives: the same Module, and on any failure parse()'s own error (the whole source is
// parsed again then, to word it exactly as parse() does; only failing scripts pay for that).
import type * as A from "./ast.js";
import { scan, type Token } from "./lexer.js";
import { getParser, MAX_AST_DEPTH, parse } from "./parse.js";
import * as T from "./tokens.js";
import type { TokenType } from "chevrotain";
import { checkContext } from "./validate.js";
import { depthExceeds } from "./walk.js";

/** Tokens a piece holds at least (it ends at the next top-level statement's start). */
const PIECE_TOKENS = 1024;

/** Keywords that continue the compound statement before them: no piece starts at one. */
const CONTINUATIONS = new Set<TokenType>([T.Else, T.Elif, T.Except, T.Finally]);

export class PieceParse {
  private readonly tokens: Token[];
  private readonly keywordsSeen: ReadonlySet<TokenType>;
  /** Where the next piece starts, a top-level statement's first token. */
  private at = 0;
  private readonly body: A.Stmt[] = [];
  private strayAwait = false;
  /** Set once the pieces gave up: parse(source) then decides (and words any error). */
  private whole = false;

  constructor(private readonly source: string) {
    const scanned = scan(source);
    this.tokens = scanned.tokens;
    this.keywordsSeen = scanned.keywordsSeen;
    // An unclosed bracket is an error whose wording depends on where parsing fails: parse() knows.
    this.whole = scanned.unclosed !== null;
  }

  /**
   * Parses for about `ms` (at least one piece); returns the Module once the whole source is
   * parsed, else null. Throws parse()'s PySyntaxError for a script that has one.
   */
  step(ms: number): A.Module | null {
    if (this.whole) return parse(this.source);
    const until = performance.now() + ms;
    const parser = getParser();
    const eof = this.tokens[this.tokens.length - 1]!;
    do {
      const end = this.pieceEnd(this.at);
      const last = end === this.tokens.length - 1;
      // One piece is the whole script (one long statement): parse() words its errors directly,
      // instead of after a failed piece (that doubled a refused 40 KB expression's time).
      if (last && this.at === 0) return parse(this.source);
      const piece = this.tokens.slice(this.at, end);
      piece.push(last ? eof : { ...eof, startLine: this.tokens[end]!.startLine, startColumn: this.tokens[end]!.startColumn });
      try {
        this.body.push(...parser.parseTokens(piece).body);
      } catch {
        return parse(this.source);
      }
      this.strayAwait ||= parser.strayAwait;
      this.at = end;
      if (last) return this.finish(eof);
    } while (performance.now() < until);
    return null;
  }

  /** The Module of all pieces, checked as parse() checks it (its error, if any, is parse()'s). */
  private finish(eof: Token): A.Module {
    const module: A.Module = { kind: "Module", body: this.body, line: 1, col: 1, endLine: eof.startLine!, endCol: eof.startColumn! };
    try {
      if (this.tokens.length > MAX_AST_DEPTH && depthExceeds(module, MAX_AST_DEPTH)) return parse(this.source);
      checkContext(module, this.keywordsSeen, this.strayAwait);
    } catch {
      return parse(this.source);
    }
    return module;
  }

  /**
   * Where the piece starting at `from` ends: the first top-level statement start at least
   * PIECE_TOKENS tokens on (a token at indentation 0 after a NEWLINE or the DEDENT back to it,
   * that neither continues a compound statement nor follows a decorator line), or the EOF.
   */
  private pieceEnd(from: number): number {
    const tokens = this.tokens;
    let depth = 0;
    let statement = from;
    for (let i = from + 1; i < tokens.length - 1; i++) {
      const previous = tokens[i - 1]!.tokenType;
      if (previous === T.Indent) depth++;
      else if (previous === T.Dedent) depth--;
      if (depth !== 0 || (previous !== T.Newline && previous !== T.Dedent)) continue;
      const type = tokens[i]!.tokenType;
      if (type === T.Dedent || type === T.Indent || CONTINUATIONS.has(type)) continue;
      // A decorator line belongs with the definition after it.
      if (tokens[statement]!.tokenType === T.At) {
        statement = i;
        continue;
      }
      if (i - from >= PIECE_TOKENS) return i;
      statement = i;
    }
    return tokens.length - 1;
  }
}
