// The scanner: source text -> Chevrotain tokens, as CPython's tokenizer does it.
//
// Hand-written rather than a regex lexer because Python's lexical structure is stateful:
// INDENT/DEDENT from an indentation stack, newlines ignored inside brackets, backslash
// continuation, and f-strings whose replacement fields hold ordinary tokens (PEP 701 style, so
// quotes may be reused inside a field). It also produces CPython's messages for lexical errors
// and rejects the constructs the sandbox does not support as early as it can see them.
import type { IToken, TokenType } from "chevrotain";
import { PySyntaxError, syntaxErrorAt, type SyntaxErrorType } from "./errors.js";
import { READABLE_DUNDERS, unsupported } from "./unsupported.js";
import * as T from "./tokens.js";

/** A scanned token. Lines and columns are 1-based; `endColumn` and `endOffset` are exclusive. */
export interface Token extends IToken {
  /** Decoded value: bigint for Int, number for Float, string or Uint8Array for String and
   *  FStringMiddle, the conversion letter for FieldConversion, the `expr=` text for FieldEquals. */
  payload: unknown;
  /** For String: the prefix letters (lowercased) and whether the body was bytes. */
  bytes: boolean;
}

/** CPython's limits: 200 nested brackets, 100 indentation levels. */
export const MAX_BRACKET_DEPTH = 200;
export const MAX_INDENT_DEPTH = 100;

interface OpenBracket {
  char: string;
  offset: number;
  line: number;
  column: number;
  /** An f-string replacement field rather than a real bracket. */
  field: boolean;
}

const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

const enum Ch {
  Tab = 9, LF = 10, FF = 12, CR = 13, Space = 32, Bang = 33, DQuote = 34, Hash = 35,
  SQuote = 39, LParen = 40, RParen = 41, Dot = 46, Zero = 48, Nine = 57, Colon = 58, Eq = 61,
  Backslash = 92, Underscore = 95, LBrace = 123, RBrace = 125,
}

const identStartRe = /[\p{ID_Start}_]/uy;
const identRestRe = /[\p{ID_Continue}\u00b7\u2118\u212e\u309b\u309c]*/uy;

function isAsciiIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === Ch.Underscore;
}
function isAsciiIdentPart(c: number): boolean {
  return isAsciiIdentStart(c) || (c >= Ch.Zero && c <= Ch.Nine);
}
function isDigit(c: number): boolean {
  return c >= Ch.Zero && c <= Ch.Nine;
}
/** The bigints 0..255, shared by every literal that spells one (bigints are immutable values). */
const SMALL_INTS: bigint[] = Array.from({ length: 256 }, (_, i) => BigInt(i));

/** The value of at most 15 decimal digits: exact as a double, and faster than BigInt(string). */
function smallInt(digits: string): bigint {
  let value = 0;
  for (let i = 0; i < digits.length; i++) value = value * 10 + digits.charCodeAt(i) - Ch.Zero;
  return value < 256 ? SMALL_INTS[value]! : BigInt(value);
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

const STRING_PREFIXES = new Set(["r", "u", "b", "f", "br", "rb", "fr", "rf"]);

interface Spelling {
  text: string;
  type: TokenType;
}

// Dense tables (filled up front so V8 keeps them as fast arrays) indexed by character codes.
/** Keywords by first character and length, so names are checked without slicing the source. */
const KEYWORDS_BY_START: (Spelling[] | null)[] = new Array<Spelling[] | null>(128 * 16).fill(null);
for (const [text, type] of T.keywords) {
  (KEYWORDS_BY_START[text.charCodeAt(0) * 16 + text.length] ??= []).push({ text, type });
}

/** Operators by their first character, longest first, so the scanner tries at most three. */
const OPERATORS_BY_CHAR: (Spelling[] | null)[] = new Array<Spelling[] | null>(128).fill(null);
for (const [text, type] of [...T.operators].sort((a, b) => b[0].length - a[0].length)) {
  (OPERATORS_BY_CHAR[text.charCodeAt(0)] ??= []).push({ text, type });
}

export interface ScanResult {
  /** The tokens, ending with EOF. */
  tokens: Token[];
  /**
   * A bracket still open at the end of the source. CPython reports it ("'(' was never closed")
   * unless the parser fails earlier on the bracket's own line, so the parser decides.
   */
  unclosed: PySyntaxError | null;
  /** The line of that bracket. */
  unclosedLine: number;
  /** The keywords that occur, so later passes can skip work (no `return`: no return checks). */
  keywordsSeen: ReadonlySet<TokenType>;
}

/** Scans `source` into tokens. Throws PySyntaxError for lexical errors. */
export function scan(source: string): ScanResult {
  return new Scanner(source).run();
}

/** Scans `source` into tokens ending with EOF; an unclosed bracket is an error here too. */
export function tokenize(source: string): Token[] {
  const { tokens, unclosed } = scan(source);
  if (unclosed) throw unclosed;
  return tokens;
}

class Scanner {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private readonly tokens: Token[] = [];
  private readonly brackets: OpenBracket[] = [];
  private readonly indents: number[] = [0];
  private readonly altIndents: number[] = [0];
  /** Index in `tokens` of the first token of the current logical line, or -1. */
  private lineFirstToken = -1;
  private atLineStart = true;
  /** Depth of replacement fields inside format specs (CPython allows two levels). */
  private specDepth = 0;
  private readonly keywordsSeen = new Set<TokenType>();
  /** The quote characters of the f-strings whose replacement fields are being scanned. */
  private readonly fieldQuotes: number[] = [];
  /** Offset of the body of the string being scanned, for CPython's escape-error positions. */
  private bodyStart = 0;

  constructor(private readonly src: string) {}

  run(): ScanResult {
    this.scanTokens(false);
    const open = this.brackets[this.brackets.length - 1];
    this.finish();
    return {
      tokens: this.tokens,
      unclosed: open ? this.error(`'${open.char}' was never closed`, open.line, open.column) : null,
      unclosedLine: open?.line ?? 0,
      keywordsSeen: this.keywordsSeen,
    };
  }

  // ---------------------------------------------------------------- errors

  private error(
    message: string,
    line = this.line,
    column = this.pos - this.lineStart + 1,
    type: SyntaxErrorType = "SyntaxError",
    endLine = line,
    endColumn = column,
  ): PySyntaxError {
    return syntaxErrorAt(this.src, message, line, column, endLine, endColumn, type);
  }

  private col(offset: number): number {
    return offset - this.lineStart + 1;
  }

  // ---------------------------------------------------------------- emitting

  private push(
    tokenType: TokenType,
    image: string,
    startOffset: number,
    startLine: number,
    startColumn: number,
    payload: unknown = undefined,
    bytes = false,
  ): Token {
    const token: Token = {
      image,
      startOffset,
      endOffset: this.pos,
      startLine,
      startColumn,
      endLine: this.line,
      endColumn: this.pos - this.lineStart + 1,
      tokenType,
      tokenTypeIdx: tokenType.tokenTypeIdx!,
      payload,
      bytes,
    };
    if (this.lineFirstToken < 0) this.lineFirstToken = this.tokens.length;
    this.tokens.push(token);
    return token;
  }

  /** A token that covers [start, this.pos) on the current line. */
  private pushHere(tokenType: TokenType, start: number, payload: unknown = undefined): Token {
    return this.push(tokenType, this.src.slice(start, this.pos), start, this.line, this.col(start), payload);
  }

  private pushVirtual(tokenType: TokenType, image: string): void {
    const column = this.col(this.pos);
    this.tokens.push({
      image,
      startOffset: this.pos,
      endOffset: this.pos,
      startLine: this.line,
      startColumn: column,
      endLine: this.line,
      endColumn: column,
      tokenType,
      tokenTypeIdx: tokenType.tokenTypeIdx!,
      payload: undefined,
      bytes: false,
    });
  }

  // ---------------------------------------------------------------- lines

  private newline(): void {
    const c = this.src.charCodeAt(this.pos);
    this.pos += c === Ch.CR && this.src.charCodeAt(this.pos + 1) === Ch.LF ? 2 : 1;
    this.line++;
    this.lineStart = this.pos;
  }

  private endLogicalLine(): void {
    if (this.lineFirstToken >= 0) {
      this.checkMatchStatement();
      this.pushVirtual(T.Newline, "\n");
      this.lineFirstToken = -1;
    }
  }

  /** `match` is a soft keyword: a logical line `match <subject>:` can only be a match statement. */
  private checkMatchStatement(): void {
    const first = this.tokens[this.lineFirstToken]!;
    const last = this.tokens[this.tokens.length - 1]!;
    if (
      first.tokenType === T.Name &&
      first.image === "match" &&
      last.tokenType === T.Colon &&
      this.tokens.length - this.lineFirstToken > 2
    ) {
      throw this.unsupportedAt("match", first);
    }
  }

  private unsupportedAt(construct: Parameters<typeof unsupported>[0], token: Token): PySyntaxError {
    return syntaxErrorAt(
      this.src,
      unsupported(construct),
      token.startLine!,
      token.startColumn!,
      token.endLine!,
      token.endColumn!,
    );
  }

  /** At the start of a logical line outside brackets: measure indentation, emit INDENT/DEDENT. */
  private indentation(): void {
    let column = 0;
    let alt = 0;
    const src = this.src;
    for (;;) {
      const c = src.charCodeAt(this.pos);
      if (c === Ch.Space) {
        column++;
        alt++;
      } else if (c === Ch.Tab) {
        column = (Math.floor(column / 8) + 1) * 8;
        alt++;
      } else if (c === Ch.FF) {
        column = 0;
        alt = 0;
      } else break;
      this.pos++;
    }
    const c = src.charCodeAt(this.pos);
    // Blank lines and comment-only lines do not take part in indentation.
    if (c === Ch.Hash || c === Ch.LF || c === Ch.CR || Number.isNaN(c)) return;
    if (c === Ch.Backslash) return;
    this.atLineStart = false;
    const top = this.indents[this.indents.length - 1]!;
    const altTop = this.altIndents[this.altIndents.length - 1]!;
    if (column === top) {
      if (alt !== altTop) throw this.tabError();
    } else if (column > top) {
      if (this.indents.length >= MAX_INDENT_DEPTH) {
        throw this.error("too many levels of indentation", this.line, this.col(this.pos), "IndentationError");
      }
      if (alt <= altTop) throw this.tabError();
      this.indents.push(column);
      this.altIndents.push(alt);
      this.pushVirtual(T.Indent, "");
    } else {
      while (this.indents.length > 1 && column < this.indents[this.indents.length - 1]!) {
        this.indents.pop();
        this.altIndents.pop();
        this.pushVirtual(T.Dedent, "");
      }
      if (column !== this.indents[this.indents.length - 1]) {
        // CPython points just past the end of the offending line.
        let end = this.pos;
        while (end < src.length && src[end] !== "\n" && src[end] !== "\r") end++;
        throw this.error(
          "unindent does not match any outer indentation level",
          this.line,
          this.col(end),
          "IndentationError",
        );
      }
      if (alt !== this.altIndents[this.altIndents.length - 1]) throw this.tabError();
    }
  }

  private tabError(): PySyntaxError {
    return this.error("inconsistent use of tabs and spaces in indentation", this.line, 1, "TabError");
  }

  private finish(): void {
    this.endLogicalLine();
    while (this.indents.length > 1) {
      this.indents.pop();
      this.pushVirtual(T.Dedent, "");
    }
    this.pushVirtual(T.EOF, "");
  }

  // ---------------------------------------------------------------- main loop

  /**
   * Scans ordinary tokens. In field mode (inside an f-string replacement field) it stops, without
   * consuming it, at a character that ends the field's expression: `}`, `:`, `!` or a lone `=`
   * at the field's own bracket level.
   */
  private scanTokens(fieldMode: boolean): void {
    const src = this.src;
    const fieldLevel = this.brackets.length;
    for (;;) {
      if (this.atLineStart && this.brackets.length === 0) {
        this.indentation();
      }
      const c = src.charCodeAt(this.pos);
      if (Number.isNaN(c)) return;
      switch (c) {
        case Ch.Space:
        case Ch.Tab:
        case Ch.FF:
          this.pos++;
          continue;
        case Ch.Hash:
          while (this.pos < src.length) {
            const d = src.charCodeAt(this.pos);
            if (d === Ch.LF || d === Ch.CR) break;
            this.pos++;
          }
          continue;
        case Ch.LF:
        case Ch.CR:
          if (this.brackets.length === 0) {
            this.endLogicalLine();
            this.newline();
            this.atLineStart = true;
          } else {
            this.newline();
          }
          continue;
        case Ch.Backslash: {
          const d = src.charCodeAt(this.pos + 1);
          if (d === Ch.LF || d === Ch.CR) {
            const column = this.col(this.pos + 1);
            this.pos++;
            this.newline();
            if (this.pos >= src.length) throw this.error("unexpected EOF while parsing", this.line - 1, column);
            continue;
          }
          if (Number.isNaN(d)) throw this.error("unexpected EOF while parsing", this.line, this.col(this.pos + 1));
          this.pos++;
          throw this.error("unexpected character after line continuation character");
        }
      }
      if (fieldMode && this.brackets.length === fieldLevel) {
        if (c === Ch.RBrace || c === Ch.Colon) return;
        if (c === Ch.Bang && src.charCodeAt(this.pos + 1) !== Ch.Eq) return;
        if (c === Ch.Eq && src.charCodeAt(this.pos + 1) !== Ch.Eq) return;
      }
      if (isAsciiIdentStart(c) || c > 127) {
        this.identifierOrString();
      } else if (isDigit(c) || (c === Ch.Dot && isDigit(src.charCodeAt(this.pos + 1)))) {
        this.number();
      } else if (c === Ch.SQuote || c === Ch.DQuote) {
        this.string(this.pos, "");
      } else {
        this.operator(c);
      }
    }
  }

  // ---------------------------------------------------------------- names

  private identifierOrString(): void {
    const src = this.src;
    const start = this.pos;
    let end = start;
    let ascii = true;
    if (src.charCodeAt(start) > 127) {
      identStartRe.lastIndex = start;
      if (!identStartRe.test(src)) this.invalidCharacter();
      end = identStartRe.lastIndex;
      ascii = false;
    }
    while (end < src.length && isAsciiIdentPart(src.charCodeAt(end))) end++;
    if (end < src.length && src.charCodeAt(end) > 127) {
      // ID_Continue covers ASCII name characters too, so one match takes the rest of the name.
      identRestRe.lastIndex = end;
      identRestRe.test(src);
      if (identRestRe.lastIndex > end) ascii = false;
      end = identRestRe.lastIndex;
    }
    const q = src.charCodeAt(end);
    if ((q === Ch.SQuote || q === Ch.DQuote) && end - start <= 2) {
      const prefix = src.slice(start, end).toLowerCase();
      if (STRING_PREFIXES.has(prefix)) {
        this.pos = end;
        this.string(start, prefix);
        return;
      }
    }
    this.pos = end;
    if (ascii && end - start <= 8) {
      const keyword = this.keywordAt(start, end - start);
      if (keyword) {
        this.keyword(keyword.type, keyword.text, start);
        return;
      }
    }
    let image = src.slice(start, end);
    // CPython compares names after NFKC normalization.
    if (!ascii) image = image.normalize("NFKC");
    const previous = this.tokens[this.tokens.length - 1];
    const token = this.push(T.Name, image, start, this.line, this.col(start), image);
    if (previous?.tokenType === T.Dot && image.length > 4 && image.startsWith("__") && image.endsWith("__") && !READABLE_DUNDERS.has(image)) {
      throw syntaxErrorAt(
        this.src,
        unsupported("dunder", image),
        token.startLine!,
        token.startColumn!,
        token.endLine!,
        token.endColumn!,
      );
    }
  }

  /** The keyword spelled at `start` (length `length`), found without slicing the source. */
  private keywordAt(start: number, length: number): Spelling | null {
    const c = this.src.charCodeAt(start);
    const candidates = c < 128 ? KEYWORDS_BY_START[c * 16 + length] : null;
    if (candidates) {
      for (let i = 0; i < candidates.length; i++) {
        if (this.src.startsWith(candidates[i]!.text, start)) return candidates[i]!;
      }
    }
    return null;
  }

  private keyword(type: TokenType, text: string, start: number): void {
    this.keywordsSeen.add(type);
    const token = this.push(type, text, start, this.line, this.col(start));
    if (type === T.For || type === T.With) {
      const previous = this.tokens[this.tokens.length - 2];
      if (previous?.tokenType === T.Async) {
        throw this.unsupportedAt(type === T.For ? "async for" : "async with", previous);
      }
    }
    if (type === T.Class) throw this.unsupportedAt("class", token);
    if (type === T.With) throw this.unsupportedAt("with", token);
    if (type === T.Yield) throw this.unsupportedAt("yield", token);
  }

  private invalidCharacter(): never {
    const code = this.src.codePointAt(this.pos)!;
    const char = String.fromCodePoint(code);
    const hex = code.toString(16).toUpperCase().padStart(4, "0");
    const printable = !/[\p{C}\p{Z}]/u.test(char) || char === " ";
    const message = printable
      ? `invalid character '${char}' (U+${hex})`
      : `invalid non-printable character U+${hex}`;
    throw this.error(message);
  }

  // ---------------------------------------------------------------- operators

  private operator(c: number): void {
    const src = this.src;
    const start = this.pos;
    const line = this.line;
    const column = this.col(start);
    let type: TokenType | undefined;
    let image = "";
    const candidates = c < 128 ? OPERATORS_BY_CHAR[c] : null;
    if (candidates) {
      for (let i = 0; i < candidates.length; i++) {
        const spelling = candidates[i]!;
        const text = spelling.text;
        if (text.length === 1 || src.startsWith(text, start)) {
          type = spelling.type;
          image = text;
          break;
        }
      }
    }
    if (!type) {
      if (c < 128) {
        throw this.error("invalid syntax", line, column, "SyntaxError", line, column + 1);
      }
      this.invalidCharacter();
    }
    const char = src[start]!;
    if (char === "(" || char === "[" || char === "{") {
      if (this.brackets.length >= MAX_BRACKET_DEPTH) throw this.error("too many nested parentheses");
      this.brackets.push({ char, offset: start, line, column, field: false });
    } else if (char === ")" || char === "]" || char === "}") {
      const open = this.brackets[this.brackets.length - 1];
      if (!open) throw this.error(`unmatched '${char}'`);
      if (open.field || open.char !== CLOSERS[char]) {
        const opener = open.field ? "{" : open.char;
        const where = open.line === line ? "" : ` on line ${open.line}`;
        throw this.error(`closing parenthesis '${char}' does not match opening parenthesis '${opener}'${where}`);
      }
      this.brackets.pop();
    }
    this.pos += image.length;
    this.push(type, image, start, line, column);
  }

  // ---------------------------------------------------------------- numbers

  private number(): void {
    const src = this.src;
    const start = this.pos;
    const c1 = src.charCodeAt(start + 1) | 0x20;
    if (src.charCodeAt(start) === Ch.Zero && (c1 === 0x78 || c1 === 0x6f || c1 === 0x62)) {
      this.radixNumber(start, c1 === 0x78 ? 16 : c1 === 0x6f ? 8 : 2);
      return;
    }
    let isFloat = false;
    if (src.charCodeAt(this.pos) !== Ch.Dot) this.digits();
    if (src.charCodeAt(this.pos) === Ch.Dot) {
      isFloat = true;
      this.pos++;
      if (isDigit(src.charCodeAt(this.pos))) this.digits();
    }
    const e = src.charCodeAt(this.pos) | 0x20;
    if (e === 0x65) {
      const save = this.pos;
      this.pos++;
      const sign = src.charCodeAt(this.pos);
      if (sign === 43 || sign === 45) this.pos++;
      if (!isDigit(src.charCodeAt(this.pos))) {
        this.pos = save;
        throw this.error("invalid decimal literal", this.line, this.col(start));
      }
      this.digits();
      isFloat = true;
    }
    const j = src.charCodeAt(this.pos) | 0x20;
    if (j === 0x6a) {
      this.pos++;
      throw syntaxErrorAt(src, unsupported("complex"), this.line, this.col(start), this.line, this.col(this.pos));
    }
    this.checkNumberEnd(start, "decimal");
    const text = src.slice(start, this.pos);
    const clean = text.includes("_") ? text.replace(/_/g, "") : text;
    if (isFloat) {
      this.pushHere(T.Float, start, Number(clean));
      return;
    }
    if (clean.length > 1 && clean.charCodeAt(0) === Ch.Zero && /[1-9]/.test(clean)) {
      throw this.error(
        "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
        this.line,
        this.col(start),
        "SyntaxError",
        this.line,
        this.col(this.pos),
      );
    }
    // CPython's limit on decimal int text (src/interpreter/int-text.ts), which reading is quadratic.
    if (clean.length > 4300) {
      throw this.error(
        `Exceeds the limit (4300 digits) for integer string conversion: value has ${clean.length} digits; use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals to avoid decimal conversion limits.`,
        this.line,
        this.col(start),
      );
    }
    this.push(T.Int, text, start, this.line, this.col(start), clean.length <= 15 ? smallInt(clean) : BigInt(clean));
  }

  /** Decimal digits with single underscores between them. */
  private digits(): void {
    const src = this.src;
    for (;;) {
      while (isDigit(src.charCodeAt(this.pos))) this.pos++;
      if (src.charCodeAt(this.pos) !== Ch.Underscore) return;
      this.pos++;
      if (!isDigit(src.charCodeAt(this.pos))) {
        throw this.error("invalid decimal literal", this.line, this.col(this.pos - 1));
      }
    }
  }

  private radixNumber(start: number, radix: 2 | 8 | 16): void {
    const src = this.src;
    const kind = radix === 16 ? "hexadecimal" : radix === 8 ? "octal" : "binary";
    const valid = (c: number) =>
      radix === 16 ? isHex(c) : radix === 8 ? c >= Ch.Zero && c <= 55 : c === Ch.Zero || c === 49;
    this.pos += 2;
    let count = 0;
    for (;;) {
      if (src.charCodeAt(this.pos) === Ch.Underscore) this.pos++;
      const c = src.charCodeAt(this.pos);
      if (!valid(c)) {
        if (isDigit(c)) {
          throw this.error(`invalid digit '${src[this.pos]}' in ${kind} literal`);
        }
        if (count === 0 || src.charCodeAt(this.pos - 1) === Ch.Underscore) {
          throw this.error(`invalid ${kind} literal`, this.line, this.col(this.pos - 1));
        }
        break;
      }
      while (valid(src.charCodeAt(this.pos))) {
        this.pos++;
        count++;
      }
    }
    this.checkNumberEnd(start, kind);
    const text = src.slice(start, this.pos).replace(/_/g, "");
    this.pushHere(T.Int, start, BigInt(text));
  }

  /** A number directly followed by a name character (`1abc`) is CPython's "invalid ... literal". */
  private checkNumberEnd(start: number, kind: string): void {
    const c = this.src.charCodeAt(this.pos);
    if (isAsciiIdentPart(c) || (c > 127 && /[\p{ID_Continue}]/u.test(this.src[this.pos]!))) {
      // CPython 3.11 still accepts `1if x else y` and `0x1for`; keywords directly after a number.
      const rest = this.src.slice(this.pos, this.pos + 6);
      if (/^(and|else|for|if|in|is|not|or)\b/.test(rest)) return;
      throw this.error(`invalid ${kind} literal`, this.line, this.col(start));
    }
  }

  // ---------------------------------------------------------------- strings

  /** `start` is where the prefix begins; `this.pos` is at the opening quote. */
  private string(start: number, prefix: string): void {
    if (prefix.includes("f")) {
      this.fstring(start, prefix);
      return;
    }
    const src = this.src;
    const raw = prefix.includes("r");
    const bytes = prefix.includes("b");
    const { startLine, startColumn, quote, triple } = this.openQuote(start);
    let value = "";
    let chunk = this.pos;
    for (;;) {
      const c = src.charCodeAt(this.pos);
      if (Number.isNaN(c)) throw this.unterminatedInField(quote, startLine, startColumn, triple);
      if (c === quote) {
        if (!triple) break;
        if (src.charCodeAt(this.pos + 1) === quote && src.charCodeAt(this.pos + 2) === quote) break;
        this.pos++;
      } else if (c === Ch.LF || c === Ch.CR) {
        if (!triple) throw this.unterminatedInField(quote, startLine, startColumn, false);
        value += src.slice(chunk, this.pos) + "\n";
        this.newline();
        chunk = this.pos;
      } else if (c === Ch.Backslash) {
        value += src.slice(chunk, this.pos);
        value += raw ? this.rawEscape() : this.escape(bytes, startLine, startColumn);
        chunk = this.pos;
      } else {
        if (bytes && c > 127) {
          throw this.error(
            "bytes can only contain ASCII literal characters",
            startLine,
            startColumn,
            "SyntaxError",
          );
        }
        this.pos++;
      }
    }
    value += src.slice(chunk, this.pos);
    this.pos += triple ? 3 : 1;
    const image = src.slice(start, this.pos);
    const payload = bytes ? latin1Bytes(value) : value;
    this.push(T.String, image, start, startLine, startColumn, payload, bytes);
  }

  /**
   * In a replacement field, a string opened with the f-string's own quote and never closed was
   * almost surely meant to close the f-string (`f'{x'`): CPython 3.11 says a `}` is missing.
   */
  private unterminatedInField(quote: number, line: number, column: number, triple: boolean): PySyntaxError {
    const enclosing = this.fieldQuotes[this.fieldQuotes.length - 1];
    if (!triple && enclosing === quote) return this.error("f-string: expecting '}'", line, column);
    return this.unterminated(line, column, triple);
  }

  /** Steps over an opening quote (single or triple) at `this.pos`; `start` is where the prefix began. */
  private openQuote(start: number): { startLine: number; startColumn: number; quote: number; triple: boolean } {
    const src = this.src;
    const startLine = this.line;
    const startColumn = this.col(start);
    const quote = src.charCodeAt(this.pos);
    const triple = src.charCodeAt(this.pos + 1) === quote && src.charCodeAt(this.pos + 2) === quote;
    this.pos += triple ? 3 : 1;
    this.bodyStart = this.pos;
    return { startLine, startColumn, quote, triple };
  }

  private unterminated(line: number, column: number, triple: boolean): PySyntaxError {
    // CPython counts the last line that has text, not an empty line after a final newline.
    const atEmptyLastLine = this.pos >= this.src.length && this.lineStart === this.src.length && this.line > line;
    const detected = triple ? this.line - (atEmptyLastLine ? 1 : 0) : line;
    const kind = triple ? "triple-quoted string literal" : "string literal";
    return this.error(`unterminated ${kind} (detected at line ${detected})`, line, column);
  }

  /** In a raw string a backslash keeps itself and protects the next character (even a quote). */
  private rawEscape(): string {
    const src = this.src;
    const next = src.charCodeAt(this.pos + 1);
    if (next === Ch.LF || next === Ch.CR) {
      this.pos++;
      this.newline();
      return "\\\n";
    }
    if (Number.isNaN(next)) {
      this.pos++;
      return "\\";
    }
    this.pos += 2;
    return src.slice(this.pos - 2, this.pos);
  }

  /** Decodes one escape sequence at `this.pos` (a backslash). Bytes keep `\u`, `\U`, `\N`. */
  private escape(bytes: boolean, stringLine: number, stringColumn: number): string {
    const src = this.src;
    const escapeStart = this.pos;
    const c = src[this.pos + 1];
    this.pos += 2;
    switch (c) {
      case "\n":
      case "\r":
        this.pos--;
        this.newline();
        return "";
      case "\\":
        return "\\";
      case "'":
        return "'";
      case '"':
        return '"';
      case "a":
        return "\x07";
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      case "v":
        return "\v";
      case "0": case "1": case "2": case "3": case "4": case "5": case "6": case "7": {
        let end = this.pos;
        while (end < this.pos + 2 && /[0-7]/.test(src[end] ?? "")) end++;
        const code = parseInt(src.slice(this.pos - 1, end), 8);
        this.pos = end;
        return String.fromCharCode(bytes ? code & 0xff : code);
      }
      case "x":
        return this.hexEscape(escapeStart, 2, "\\xXX", bytes);
      case "u":
        return bytes ? "\\u" : this.hexEscape(escapeStart, 4, "\\uXXXX", false);
      case "U":
        return bytes ? "\\U" : this.hexEscape(escapeStart, 8, "\\UXXXXXXXX", false);
      case "N":
        if (bytes) return "\\N";
        throw this.error(unsupported("named escape"), this.line, this.col(escapeStart));
      case undefined:
        throw this.unterminated(stringLine, stringColumn, false);
      default:
        // Unknown escapes keep the backslash, as CPython does (with a warning there).
        this.pos--;
        return "\\";
    }
  }

  private hexEscape(escapeStart: number, digits: number, form: string, bytes: boolean): string {
    const src = this.src;
    const text = src.slice(this.pos, this.pos + digits);
    if (text.length < digits || !/^[0-9a-fA-F]+$/.test(text)) {
      const valid = text.search(/[^0-9a-fA-F]|$/);
      const at = escapeStart - this.bodyStart;
      const message = bytes
        ? `(value error) invalid \\x escape at position ${at}`
        : `(unicode error) 'unicodeescape' codec can't decode bytes in position ${at}-${at + 1 + valid}: truncated ${form} escape`;
      throw this.error(message, this.line, this.col(escapeStart));
    }
    this.pos += digits;
    const code = parseInt(text, 16);
    if (code > 0x10ffff) {
      throw this.error(
        `(unicode error) 'unicodeescape' codec can't decode bytes in position ${escapeStart - this.bodyStart}-${escapeStart - this.bodyStart + digits + 1}: illegal Unicode character`,
        this.line,
        this.col(escapeStart),
      );
    }
    return String.fromCodePoint(code);
  }

  // ---------------------------------------------------------------- f-strings

  private fstring(start: number, prefix: string): void {
    const src = this.src;
    const raw = prefix.includes("r");
    const { startLine, startColumn, quote, triple } = this.openQuote(start);
    this.push(T.FStringStart, src.slice(start, this.pos), start, startLine, startColumn, prefix);
    const closed = this.fstringLiteral(raw, quote, triple, startLine, startColumn, false);
    if (!closed) throw this.unterminated(startLine, startColumn, triple);
    const endStart = this.pos;
    this.pos += triple ? 3 : 1;
    this.pushHere(T.FStringEnd, endStart);
  }

  /**
   * Scans literal text (and replacement fields) up to the closing quote, or in a format spec up
   * to the `}` that closes the field. Returns true when it stopped at the closing quote.
   */
  private fstringLiteral(
    raw: boolean,
    quote: number,
    triple: boolean,
    startLine: number,
    startColumn: number,
    inSpec: boolean,
  ): boolean {
    const src = this.src;
    let value = "";
    let chunk = this.pos;
    let partStart = this.pos;
    let partLine = this.line;
    let partColumn = this.col(this.pos);
    const flush = () => {
      value += src.slice(chunk, this.pos);
      if (value !== "" || this.pos > partStart) {
        this.push(T.FStringMiddle, src.slice(partStart, this.pos), partStart, partLine, partColumn, value);
      }
      value = "";
    };
    const restart = () => {
      chunk = partStart = this.pos;
      partLine = this.line;
      partColumn = this.col(this.pos);
    };
    for (;;) {
      const c = src.charCodeAt(this.pos);
      if (Number.isNaN(c)) throw this.unterminated(startLine, startColumn, triple);
      if (c === quote && (!triple || (src.charCodeAt(this.pos + 1) === quote && src.charCodeAt(this.pos + 2) === quote))) {
        if (inSpec) throw this.error("f-string: expecting '}'");
        flush();
        return true;
      }
      if (c === Ch.LF || c === Ch.CR) {
        if (!triple) throw this.unterminated(startLine, startColumn, false);
        value += src.slice(chunk, this.pos) + "\n";
        this.newline();
        chunk = this.pos;
      } else if (c === Ch.LBrace) {
        if (!inSpec && src.charCodeAt(this.pos + 1) === Ch.LBrace) {
          value += src.slice(chunk, this.pos + 1);
          this.pos += 2;
          chunk = this.pos;
          continue;
        }
        flush();
        this.field(raw, quote, triple, startLine, startColumn, inSpec);
        restart();
      } else if (c === Ch.RBrace) {
        if (inSpec) {
          flush();
          return false;
        }
        if (src.charCodeAt(this.pos + 1) === Ch.RBrace) {
          value += src.slice(chunk, this.pos + 1);
          this.pos += 2;
          chunk = this.pos;
          continue;
        }
        throw this.error("f-string: single '}' is not allowed");
      } else if (c === Ch.Backslash) {
        const next = src.charCodeAt(this.pos + 1);
        if (next === Ch.LBrace || next === Ch.RBrace) {
          // The backslash stays literal text; the brace is read as a brace on the next turn.
          this.pos++;
          continue;
        }
        value += src.slice(chunk, this.pos);
        value += raw ? this.rawEscape() : this.escape(false, startLine, startColumn);
        chunk = this.pos;
      } else {
        this.pos++;
      }
    }
  }

  /** A replacement field `{expr[=][!c][:spec]}`; `this.pos` is at the `{`. */
  private field(
    raw: boolean,
    quote: number,
    triple: boolean,
    startLine: number,
    startColumn: number,
    inSpec: boolean,
  ): void {
    const src = this.src;
    if (inSpec) {
      if (this.specDepth >= 2) throw this.error("f-string: expressions nested too deeply");
    }
    if (this.brackets.length >= MAX_BRACKET_DEPTH) throw this.error("too many nested parentheses");
    const open = this.pos;
    const line = this.line;
    const column = this.col(open);
    this.pos++;
    this.pushHere(T.FieldStart, open);
    this.brackets.push({ char: "{", offset: open, line, column, field: true });
    const exprStart = this.pos;
    const tokenCount = this.tokens.length;
    this.fieldQuotes.push(quote);
    this.scanInField(triple, startLine, startColumn);
    this.fieldQuotes.pop();
    if (this.tokens.length === tokenCount) {
      throw this.error("f-string: empty expression not allowed");
    }
    let c = src.charCodeAt(this.pos);
    if (c === Ch.Eq) {
      this.pos++;
      while (src.charCodeAt(this.pos) === Ch.Space) this.pos++;
      this.push(T.FieldEquals, "=", this.pos - 1, this.line, this.col(this.pos - 1), src.slice(exprStart, this.pos));
      c = src.charCodeAt(this.pos);
    }
    if (c === Ch.Bang) {
      const conversion = src[this.pos + 1];
      if (conversion !== "r" && conversion !== "s" && conversion !== "a") {
        if (conversion === undefined || conversion === "}" || conversion === ":" || conversion === String.fromCharCode(quote)) {
          throw this.error("f-string: invalid conversion character: expected 's', 'r', or 'a'");
        }
        throw this.error("f-string: invalid conversion character: expected 's', 'r', or 'a'");
      }
      const at = this.pos;
      this.pos += 2;
      this.pushHere(T.FieldConversion, at, conversion);
      c = src.charCodeAt(this.pos);
    }
    if (c === Ch.Colon) {
      const at = this.pos;
      this.pos++;
      this.pushHere(T.FieldSpecStart, at);
      this.specDepth++;
      this.fstringLiteral(raw, quote, triple, startLine, startColumn, true);
      this.specDepth--;
      c = src.charCodeAt(this.pos);
    }
    if (c !== Ch.RBrace) {
      throw this.error("f-string: expecting '}'");
    }
    this.brackets.pop();
    const at = this.pos;
    this.pos++;
    this.pushHere(T.FieldEnd, at);
  }

  private scanInField(triple: boolean, startLine: number, startColumn: number): void {
    const src = this.src;
    const lineBefore = this.line;
    this.scanTokens(true);
    if (this.pos >= src.length) throw this.unterminated(startLine, startColumn, triple);
    if (!triple && this.line !== lineBefore) {
      throw this.error("f-string: expecting '}'", lineBefore);
    }
  }
}

/** Bytes literal bodies are decoded as char codes 0..255 and then packed. */
function latin1Bytes(value: string): Uint8Array {
  const out = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) out[i] = value.charCodeAt(i) & 0xff;
  return out;
}
