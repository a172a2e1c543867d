// re.error: what a bad pattern or replacement template raises, worded and positioned as CPython's.
import { EXC, PyExcType, PyException } from "../../errors.js";
import { PyBytes, type Value } from "../../values.js";

/** The class `re.error` (a subclass of Exception, as in CPython). */
export const RE_ERROR: PyExcType = new PyExcType("error", EXC.Exception, "re");

/**
 * re.error(msg, pattern, pos): the message gains " at position N", and " (line L, column C)" when
 * the pattern has several lines; `msg`, `pattern`, `pos`, `lineno` and `colno` are attributes.
 * `pattern` is the pattern (or template) as the script gave it: a str, or bytes.
 */
export function reError(msg: string, pattern: Value = null, pos: number | null = null, hint?: string): PyException {
  let text = msg;
  let lineno: Value = null;
  let colno: Value = null;
  if (pattern !== null && pos !== null) {
    text = `${msg} at position ${pos}`;
    const chars = patternChars(pattern);
    let line = 1;
    let lastBreak = -1;
    for (let i = 0; i < pos && i < chars.length; i++) {
      if (chars[i] === "\n") {
        line++;
        lastBreak = i;
      }
    }
    lineno = line;
    colno = pos - lastBreak;
    if (chars.includes("\n")) text = `${text} (line ${line}, column ${colno})`;
  }
  const error = new PyException(RE_ERROR, [text]);
  error.attrs.set("msg", msg);
  error.attrs.set("pattern", pattern);
  error.attrs.set("pos", pos);
  error.attrs.set("lineno", lineno);
  error.attrs.set("colno", colno);
  if (hint !== undefined) error.hints.push(hint);
  return error;
}

/** The characters of a str pattern (code points) or of a bytes one (a character per byte). */
function patternChars(pattern: Value): string[] {
  if (typeof pattern === "string") return Array.from(pattern);
  if (pattern instanceof PyBytes) return Array.from(pattern.bytes, (b) => String.fromCharCode(b));
  return [];
}
