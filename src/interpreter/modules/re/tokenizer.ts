// Reading a pattern or a replacement template a token at a time, as CPython's
// re._parser.Tokenizer does: a character, or a backslash and the character after it. Positions
// count characters (code points of a str, bytes of a bytes), as CPython's error positions do.
import type { Value } from "../../values.js";
import { reError } from "./error.js";

export const DIGITS = "0123456789";
export const OCTDIGITS = "01234567";
export const HEXDIGITS = "0123456789abcdefABCDEF";

/** str.isidentifier(): what a group name must be. */
export const IDENTIFIER = /^[\p{XID_Start}_]\p{XID_Continue}*$/u;

/** The length of a token or name in characters (code points). */
export const cpLen = (s: string) => (s.length === 1 ? 1 : Array.from(s).length);

/** Whether token `c` is one of the single characters of `set`. */
export const has = (set: string, c: string | null | undefined) => c !== null && c !== undefined && c.length === 1 && set.includes(c);

/** Reads a pattern a character (or a backslash escape) at a time, as re._parser.Tokenizer. */
export class Tokenizer {
  private index = 0;
  /** The current token: a character, or a backslash and the character after it. */
  next: string | null = null;
  private nextWidth = 0;

  constructor(
    private readonly chars: readonly string[],
    readonly istext: boolean,
    /** The pattern as the script gave it, for errors. */
    readonly source: Value,
  ) {
    this.advance();
  }

  private advance(): void {
    let index = this.index;
    if (index >= this.chars.length) {
      this.next = null;
      this.nextWidth = 0;
      return;
    }
    let char = this.chars[index]!;
    if (char === "\\") {
      index++;
      if (index >= this.chars.length) throw reError("bad escape (end of pattern)", this.source, this.chars.length - 1);
      char += this.chars[index]!;
    }
    this.nextWidth = index + 1 - this.index;
    this.index = index + 1;
    this.next = char;
  }

  match(char: string): boolean {
    if (char === this.next) {
      this.advance();
      return true;
    }
    return false;
  }

  get(): string | null {
    const t = this.next;
    this.advance();
    return t;
  }

  getwhile(n: number, charset: string): string {
    let result = "";
    for (let i = 0; i < n; i++) {
      const c = this.next;
      if (!has(charset, c)) break;
      result += c;
      this.advance();
    }
    return result;
  }

  getuntil(terminator: string, name: string): string {
    let result = "";
    for (;;) {
      const c = this.next;
      this.advance();
      if (c === null) {
        if (!result) throw this.error(`missing ${name}`);
        throw this.error(`missing ${terminator}, unterminated name`, cpLen(result));
      }
      if (c === terminator) {
        if (!result) throw this.error(`missing ${name}`, 1);
        break;
      }
      result += c;
    }
    return result;
  }

  tell(): number {
    return this.index - this.nextWidth;
  }

  seek(index: number): void {
    this.index = index;
    this.advance();
  }

  error(msg: string, offset = 0, hint?: string) {
    return reError(this.istext ? msg : asciiText(msg), this.source, this.tell() - offset, hint);
  }

  checkGroupName(name: string, offset: number): void {
    if (!IDENTIFIER.test(name)) throw this.error(`bad character in group name ${quoteName(name)}`, cpLen(name) + offset);
  }
}

/** Python's repr of a name in an error message (the quotes repr() would choose). */
export function quoteName(name: string): string {
  const quote = name.includes("'") && !name.includes('"') ? '"' : "'";
  return quote + name.replace(/\\/g, "\\\\").replace(new RegExp(quote, "g"), `\\${quote}`) + quote;
}

/** msg.encode('ascii', 'backslashreplace'): how a bytes pattern's errors show other characters. */
function asciiText(msg: string): string {
  return msg.replace(/[^\0-\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** int(text) as Python reads a group number (spaces around, a sign, "_" between digits, any decimal digits), or null. */
export function pythonInt(text: string): number | null {
  const m = /^\s*([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)\s*$/u.exec(text);
  if (m === null) return null;
  let n = 0;
  for (const d of m[2]!.replace(/_/g, "")) n = n * 10 + digitValue(d);
  return m[1] === "-" ? -n : n;
}

/** The value of a decimal digit of any script (they come in runs of ten from a zero). */
function digitValue(d: string): number {
  const c = d.codePointAt(0)!;
  if (c <= 0x39) return c - 0x30;
  for (let zero = c; zero > c - 10; zero--) if (!/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) return c - zero;
  return 0;
}
