// Syntax errors as values: CPython's exception name, a message close to CPython's, a 1-based
// position and the offending line, so a model (or a person) sees exactly what to fix.

export type SyntaxErrorType = "SyntaxError" | "IndentationError" | "TabError";

export interface SyntaxErrorInfo {
  type: SyntaxErrorType;
  message: string;
  /** 1-based line. */
  line: number;
  /** 1-based column, counted in code points as CPython counts them. */
  column: number;
  endLine: number;
  endColumn: number;
  /** The source line the error is on, without its line break. */
  text: string;
}

/** The longest source line a SyntaxError's rendering shows whole, in code points. */
const SHOWN_LINE_CHARS = 160;

export class PySyntaxError extends Error implements SyntaxErrorInfo {
  readonly type: SyntaxErrorType;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly text: string;

  constructor(info: SyntaxErrorInfo) {
    super(info.message);
    this.name = info.type;
    this.type = info.type;
    this.line = info.line;
    this.column = info.column;
    this.endLine = info.endLine;
    this.endColumn = info.endColumn;
    this.text = info.text;
  }

  toJSON(): SyntaxErrorInfo {
    const { type, message, line, column, endLine, endColumn, text } = this;
    return { type, message, line, column, endLine, endColumn, text };
  }

  /**
   * CPython's rendering: file and line, the source line, a caret, then `Type: message`. A line
   * longer than SHOWN_LINE_CHARS is shown as the part around the caret, each cut marked `...`
   * (a 60 KB one-line script's error stays short).
   */
  format(filename = "<script>"): string {
    const trimmed = this.text.replace(/^[ \t\f]+/, "");
    const shift = [...this.text].length - [...trimmed].length;
    let shown = [...trimmed.trimEnd()];
    let caretAt = Math.max(1, this.column - shift);
    let width =
      this.endLine === this.line && this.endColumn > this.column ? this.endColumn - this.column : 1;
    if (shown.length > SHOWN_LINE_CHARS) {
      width = Math.min(width, SHOWN_LINE_CHARS / 2);
      const from = Math.max(0, Math.min(caretAt - 1 - SHOWN_LINE_CHARS / 4, shown.length - SHOWN_LINE_CHARS));
      const head = from > 0 ? [..."..."] : [];
      const tail = from + SHOWN_LINE_CHARS < shown.length ? [..."..."] : [];
      shown = [...head, ...shown.slice(from, from + SHOWN_LINE_CHARS), ...tail];
      caretAt += head.length - from;
    }
    const lines = [`  File "${filename}", line ${this.line}`];
    if (shown.join("").trim() !== "") {
      lines.push(`    ${shown.join("")}`);
      lines.push(`    ${" ".repeat(caretAt - 1)}${"^".repeat(width)}`);
    }
    lines.push(`${this.type}: ${this.message}`);
    return lines.join("\n");
  }
}

/** Positions in the scanner and AST are UTF-16 offsets; users see code points, as CPython. */
export function codePointColumn(lineText: string, utf16Column: number): number {
  let column = utf16Column;
  const limit = Math.min(utf16Column - 1, lineText.length);
  for (let i = 0; i < limit; i++) {
    const c = lineText.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < limit) {
      const d = lineText.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) column--;
    }
  }
  return column;
}

/** The text of 1-based `line` in `source`. */
export function sourceLine(source: string, line: number): string {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = nextLineStart(source, start);
    if (next < 0) return "";
    start = next;
  }
  let end = start;
  while (end < source.length && source[end] !== "\n" && source[end] !== "\r") end++;
  return source.slice(start, end);
}

function nextLineStart(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === "\n") return i + 1;
    if (c === "\r") return source[i + 1] === "\n" ? i + 2 : i + 1;
  }
  return -1;
}

/** Builds an error at UTF-16 positions of `source`, converting columns to code points. */
export function syntaxErrorAt(
  source: string,
  message: string,
  line: number,
  column: number,
  endLine = line,
  endColumn = column,
  type: SyntaxErrorType = "SyntaxError",
): PySyntaxError {
  const text = sourceLine(source, line);
  const endText = endLine === line ? text : sourceLine(source, endLine);
  return new PySyntaxError({
    type,
    message,
    line,
    column: codePointColumn(text, column),
    endLine,
    endColumn: codePointColumn(endText, endColumn),
    text,
  });
}
