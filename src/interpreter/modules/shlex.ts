// shlex of CPython 3.11: split (the shlex lexer with whitespace_split, in POSIX mode or not,
// comments off or on), quote and join. The lexer is CPython's state machine: a state for
// whitespace, one inside a word, one per open quote, one after a backslash.
import { pyError } from "../errors.js";
import { bindPython } from "../py-bind.js";
import type { NativeContext, NativeFn } from "../native.js";
import { PyList, truthy, typeName, type Value } from "../values.js";

/** The steps of one character lexed, charged before lexing, and of one token made. */
const CHAR_STEPS = 2;
const TOKEN_STEPS = 4;
/** The steps of one argument quoted by join (a test, perhaps a replace, a piece joined). */
const QUOTE_STEPS = 8;

const SPACE = 32;
const TAB = 9;
const CR = 13;
const LF = 10;
const SINGLE = 39;
const DOUBLE = 34;
const BACKSLASH = 92;
const HASH = 35;
/** The lexer's states besides the quotes and the backslash (their own character codes). */
const WHITESPACE_STATE = 0;
const WORD = 1;
const END = -1;
const EOF = -2;

const isSpace = (c: number) => c === SPACE || c === TAB || c === CR || c === LF;
const isQuote = (c: number) => c === SINGLE || c === DOUBLE;

/**
 * The tokens of `s`. Everything special is ASCII, so the text is read by UTF-16 units: a
 * surrogate pair is appended unit by unit, as one character would be.
 */
function lex(ctx: NativeContext, s: string, posix: boolean, comments: boolean): string[] {
  ctx.budget.step(1 + CHAR_STEPS * s.length);
  const tokens: string[] = [];
  let i = 0;
  const skipLine = () => {
    while (i < s.length && s.charCodeAt(i) !== LF) i++;
    if (i < s.length) i++;
  };
  for (;;) {
    let token = "";
    let quoted = false;
    let state = WHITESPACE_STATE;
    // The state a backslash returns to: a word, or the double quote it appeared in.
    let escaped = WORD;
    for (;;) {
      const c = i < s.length ? s.charCodeAt(i++) : EOF;
      if (state === WHITESPACE_STATE) {
        if (c === EOF) {
          state = END;
          break;
        }
        if (isSpace(c)) {
          if (token || (posix && quoted)) break;
          continue;
        }
        if (comments && c === HASH) skipLine();
        else if (posix && c === BACKSLASH) {
          escaped = WORD;
          state = BACKSLASH;
        } else if (isQuote(c)) {
          if (!posix) token = s[i - 1]!;
          state = c;
        } else {
          token = s[i - 1]!;
          state = WORD;
        }
      } else if (isQuote(state)) {
        quoted = true;
        if (c === EOF) throw pyError("ValueError", "No closing quotation");
        if (c === state) {
          if (!posix) {
            token += s[i - 1]!;
            state = WHITESPACE_STATE;
            break;
          }
          state = WORD;
        } else if (posix && c === BACKSLASH && state === DOUBLE) {
          escaped = state;
          state = BACKSLASH;
        } else token += s[i - 1]!;
      } else if (state === BACKSLASH) {
        if (c === EOF) throw pyError("ValueError", "No escaped character");
        // In POSIX shells only the quote itself or the backslash may be escaped in quotes.
        if (isQuote(escaped) && c !== BACKSLASH && c !== escaped) token += "\\";
        token += s[i - 1]!;
        state = escaped;
      } else {
        // Inside a word.
        if (c === EOF) {
          state = END;
          break;
        }
        if (isSpace(c)) {
          state = WHITESPACE_STATE;
          if (token || (posix && quoted)) break;
          continue;
        }
        if (comments && c === HASH) {
          skipLine();
          if (posix) {
            state = WHITESPACE_STATE;
            if (token || quoted) break;
            continue;
          }
        } else if (posix && isQuote(c)) state = c;
        else if (posix && c === BACKSLASH) {
          escaped = WORD;
          state = BACKSLASH;
        } else token += s[i - 1]!;
      }
    }
    // The end: an empty token (POSIX mode: an empty token that was not quoted).
    if (token === "" && !(posix && quoted)) return tokens;
    ctx.budget.step(TOKEN_STEPS);
    tokens.push(token);
  }
}

const split: NativeFn = (ctx, args, kwargs) => {
  const [s, comments, posix] = bindPython("split", ["s", "comments", "posix"], [false, true], args, kwargs);
  // CPython 3.11 reads standard input for None (and 3.12 refuses it); the sandbox has none.
  if (s === null) throw pyError("ValueError", "s argument must not be None");
  if (typeof s !== "string") throw pyError("AttributeError", `'${typeName(s!)}' object has no attribute 'read'`);
  return new PyList(lex(ctx, s, truthy(posix!), truthy(comments!)));
};

const UNSAFE = /[^\w@%+=:,./-]/;

function quoteText(s: Value): string {
  if (typeof s !== "string") throw pyError("TypeError", `expected string or bytes-like object, got '${typeName(s)}'`);
  if (s === "") return "''";
  if (!UNSAFE.test(s)) return s;
  // Single quotes keep everything literal; a single quote closes, is double-quoted, and reopens.
  return "'" + s.replace(/'/g, "'\"'\"'") + "'";
}

const quote: NativeFn = (ctx, args, kwargs) => {
  const [s] = bindPython("quote", ["s"], [], args, kwargs);
  if (typeof s === "string") ctx.budget.step(1 + (s.length >> 3));
  const out = quoteText(s!);
  ctx.budget.checkSize(2 * out.length);
  return out;
};

const join: NativeFn = (ctx, args, kwargs) => {
  const [command] = bindPython("join", ["split_command"], [], args, kwargs);
  const parts = ctx.toList(command!).map((arg) => {
    ctx.budget.step(QUOTE_STEPS + (typeof arg === "string" ? arg.length >> 3 : 0));
    return quoteText(arg);
  });
  ctx.budget.checkSize(2 * parts.reduce((n, p) => n + p.length + 1, 0));
  return parts.join(" ");
};

export const SHLEX_MODULE: Record<string, NativeFn | Value> = { split, quote, join };
