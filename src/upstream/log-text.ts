// Text from an upstream server (its error messages, the end of its stderr) as one bounded line
// of the gateway's log. A server can send anything: raw newlines would forge log lines, and
// control characters (ANSI escapes, bidirectional overrides) would drive the operator's terminal
// or hide text. They are shown escaped instead.
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** Characters of upstream text kept in one log message. */
export const MAX_LOG_TEXT = 1000;

/** `text` on one line, control characters escaped (`\n`, `\x1b`, `\u202e`), at most `max` characters of it. */
export function logText(text: string, max = MAX_LOG_TEXT): string {
  let cut = text.length > max ? text.slice(0, max) : text;
  // Never end on half of a surrogate pair.
  if (cut.length < text.length && /[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const escaped = cut.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return NAMED[c] ?? (code < 256 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`);
  });
  return cut.length < text.length ? `${escaped}... (${text.length - cut.length} more characters)` : escaped;
}
