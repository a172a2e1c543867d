// Replacement templates of sub(), subn() and Match.expand(): literal text with group references
// (\1, \g<1>, \g<name>) and escapes (\n, \t, \0, \x..., octal), parsed as CPython's
// re._parser.parse_template parses them, with its errors.
import type { Budget } from "../../budget.js";
import { pyError } from "../../errors.js";
import { PyBytes, type Value } from "../../values.js";
import { type Compiled, patternText } from "./compiled.js";
import { cpLen, DIGITS, has, IDENTIFIER, OCTDIGITS, pythonInt, quoteName, Tokenizer } from "./tokenizer.js";

export interface Template {
  /** Literal pieces; a null piece is filled by the group at the same index of `groups`. */
  readonly pieces: readonly (string | null)[];
  readonly groups: readonly number[];
  /** The template was bytes: its pieces are latin-1 characters standing for bytes. */
  readonly bytes: boolean;
}

const ESCAPES: Record<string, string> = { "\\a": "\x07", "\\b": "\b", "\\f": "\f", "\\n": "\n", "\\r": "\r", "\\t": "\t", "\\v": "\v", "\\\\": "\\" };
const MAXGROUPS = 1073741823;

const isDigit = (c: string | null) => has(DIGITS, c);
const isOct = (c: string | null | undefined) => has(OCTDIGITS, c);

/** Parses `source` (a str or bytes template) for `compiled`, charging a step per character. */
export function parseTemplate(source: string | PyBytes, compiled: Compiled, budget: Budget): Template {
  const { chars } = patternText(source);
  budget.step(1 + chars.length);
  const istext = typeof source === "string";
  const s = new Tokenizer(chars, istext, source);
  const pieces: (string | null)[] = [];
  const groups: number[] = [];
  let literal = "";
  const addGroup = (index: number, offset: number) => {
    if (index > compiled.groups) throw s.error(`invalid group reference ${index}`, offset);
    if (literal) pieces.push(literal);
    literal = "";
    groups.push(index);
    pieces.push(null);
  };
  for (;;) {
    let token = s.get();
    if (token === null) break;
    if (token.length < 2 || token[0] !== "\\") {
      literal += token;
      continue;
    }
    const c = token.slice(1);
    if (c === "g") {
      if (!s.match("<")) throw s.error("missing <");
      const name = s.getuntil(">", "group name");
      let index: number;
      if (IDENTIFIER.test(name)) {
        const found = compiled.groupIndex.get(name);
        if (found === undefined) throw pyError("IndexError", `unknown group name ${quoteName(name)}`);
        index = found;
      } else {
        const n = pythonInt(name);
        if (n === null || n < 0) throw s.error(`bad character in group name ${quoteName(name)}`, cpLen(name) + 1);
        if (n >= MAXGROUPS) throw s.error(`invalid group reference ${n}`, cpLen(name) + 1);
        index = n;
      }
      addGroup(index, cpLen(name) + 1);
    } else if (c === "0") {
      if (isOct(s.next)) {
        token += s.get();
        if (isOct(s.next)) token += s.get();
      }
      literal += String.fromCharCode(parseInt(token.slice(1), 8) & 0xff);
    } else if (isDigit(c)) {
      let octal = false;
      if (isDigit(s.next)) {
        token += s.get();
        if (isOct(c) && isOct(token[2]) && isOct(s.next)) {
          token += s.get();
          octal = true;
          const code = parseInt(token.slice(1), 8);
          if (code > 0o377) throw s.error(`octal escape value ${token} outside of range 0-0o377`, token.length);
          literal += String.fromCharCode(code);
        }
      }
      if (!octal) addGroup(Number(token.slice(1)), token.length - 1);
    } else {
      const escaped = ESCAPES[token];
      if (escaped !== undefined) literal += escaped;
      else if (/^[a-zA-Z]$/.test(c)) throw s.error(`bad escape ${token}`, token.length);
      else literal += token;
    }
  }
  if (literal) pieces.push(literal);
  return { pieces, groups, bytes: !istext };
}

/** The template's text as the subject's type ('' pieces of str, or bytes). */
export function literalValue(piece: string, bytes: boolean): Value {
  return bytes ? new PyBytes(Uint8Array.from(piece, (ch) => ch.charCodeAt(0))) : piece;
}
