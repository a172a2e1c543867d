// parse(), a piece at a time. A 64 KB script takes 15-40 ms to parse on this project's machines,
// longer than anything may hold the gateway's event loop (issue 18), so the interpreter parses
// a long script in steps and lets the event loop turn between them: the source is scanned in a
// step of its own (a few ms); its top-level statements are then parsed in runs of about a
// thousand tokens, each run a token vector of its own ended by a copy of the EOF token; the
// whole module is checked (depth, context) in a last step. A script of one long statement is
// one piece, still apart from its scan and its checks. What comes out is what parse() gives:
// the same Module, and on any failure parse()'s own error (a failed piece has the whole source
// parsed again, to word it exactly as parse() does; only failing scripts pay for that).
import type * as A from "./ast.js";
import { scan, type Token } from "./lexer.js";
import { checkParsed, getParser, parse } from "./parse.js";
import * as T from "./tokens.js";
import type { TokenType } from "chevrotain";

/** Tokens a piece holds at least (it ends at the next top-level statement's start). */
const PIECE_TOKENS = 1024;

/** Keywords that continue the compound statement before them: no piece starts at one. */
const CONTINUATIONS = new Set<TokenType>([T.Else, T.Elif, T.Except, T.Finally]);

export class PieceParse {
  /** The source's tokens, once its own step has scanned them. */
  private tokens: Token[] | null = null;
  private keywordsSeen: ReadonlySet<TokenType> = new Set();
  /** Where the next piece starts, a top-level statement's first token. */
  private at = 0;
  private readonly body: A.Stmt[] = [];
  private strayAwait = false;
  /** Set once the pieces gave up: parse(source) then decides (and words any error). */
  private whole = false;
  /** Set once every piece is parsed: the next step checks the Module. */
  private parsed: A.Module | null = null;

  constructor(private readonly source: string) {}

  /**
   * Does one stage: the scan, then pieces for about `ms` (at least one), then the checks of the
   * whole Module. Returns the Module once it is checked, else null. Throws parse()'s
   * PySyntaxError for a script that has one.
   */
  step(ms: number): A.Module | null {
    if (this.whole) return parse(this.source);
    if (this.tokens === null) {
      const scanned = scan(this.source);
      this.tokens = scanned.tokens;
      this.keywordsSeen = scanned.keywordsSeen;
      // An unclosed bracket is an error whose wording depends on where parsing fails: parse() knows.
      this.whole = scanned.unclosed !== null;
      return null;
    }
    if (this.parsed) return checkParsed(this.parsed, this.source, this.tokens, this.keywordsSeen, this.strayAwait);
    const until = performance.now() + ms;
    const parser = getParser();
    const tokens = this.tokens;
    const eof = tokens[tokens.length - 1]!;
    do {
      const end = this.pieceEnd(this.at);
      const last = end === tokens.length - 1;
      // One piece is the whole script (one long statement): its own token vector is the piece.
      const piece = last && this.at === 0 ? tokens : tokens.slice(this.at, end);
      if (piece !== tokens) piece.push(last ? eof : { ...eof, startLine: tokens[end]!.startLine, startColumn: tokens[end]!.startColumn });
      try {
        this.body.push(...parser.parseTokens(piece).body);
      } catch {
        return parse(this.source);
      }
      this.strayAwait ||= parser.strayAwait;
      this.at = end;
      if (last) {
        this.parsed = { kind: "Module", body: this.body, line: 1, col: 1, endLine: eof.startLine!, endCol: eof.startColumn! };
        return null;
      }
    } while (performance.now() < until);
    return null;
  }

  /**
   * Where the piece starting at `from` ends: the first top-level statement start at least
   * PIECE_TOKENS tokens on (a token at indentation 0 after a NEWLINE or the DEDENT back to it,
   * that neither continues a compound statement nor follows a decorator line), or the EOF.
   */
  private pieceEnd(from: number): number {
    const tokens = this.tokens!;
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
