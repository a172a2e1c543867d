// Python source text for the stubs: literals as repr spells them, descriptions made safe
// inside comments and docstrings (CPython refuses NUL and lone surrogates in source), first
// sentences for one-line comments, and byte-bounded excerpts of long texts.

/** The one-line comment's bound, in characters. */
const COMMENT_CHARS = 120;


/** A JSON value as a Python literal, as `repr` would print it. */
export function pyLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${pyString(k)}: ${pyLiteral(v)}`).join(", ")}}`;
  }
  return "None";
}

function pyNumber(n: number): string {
  if (Number.isNaN(n)) return "float('nan')";
  if (!Number.isFinite(n)) return n > 0 ? "float('inf')" : "-float('inf')";
  if (Object.is(n, -0)) return "-0.0";
  // JS spells 1e21 as "1e+21" and 1e-7 as "1e-7": both are Python float literals.
  return String(n);
}

/** Python's printable characters (str.isprintable): everything but controls, formats, separators. */
const UNPRINTABLE = /[\p{C}\p{Z}]/u;

/** A string as Python's repr spells it: single quotes unless the text has ' and no ". */
export function pyString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && UNPRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0)!;
      const hex = cp.toString(16);
      out += cp < 0x100 ? `\\x${hex.padStart(2, "0")}` : cp < 0x10000 ? `\\u${hex.padStart(4, "0")}` : `\\U${hex.padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

// ---------------------------------------------------------------------------------------------
// Text helpers

const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|no|cf|eg|ie)|\.\.)$/i;

/** One line of a description: its first sentence, without markdown emphasis, within `max` chars. */
export function firstSentence(text: string | undefined, max = COMMENT_CHARS): string {
  if (!text) return "";
  const line =
    cleanText(text)
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "";
  let sentence = line.replace(/\*\*/g, "").replace(/^#+\s*/, "");
  const ends = /[.!?](?=\s|$)/g;
  for (let m = ends.exec(sentence); m; m = ends.exec(sentence)) {
    if (m[0] === "." && ABBREVIATIONS.test(sentence.slice(0, m.index))) continue;
    sentence = sentence.slice(0, m.index + (m[0] === "." ? 0 : 1));
    break;
  }
  sentence = sentence.replace(/\s+/g, " ").trim();
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:(-]+$/, "") + "…";
}

/**
 * Text safe inside Python source: newlines normalized, other control characters, NUL and lone
 * surrogates (which CPython refuses in source) replaced.
 */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[\u2028\u2029]/g, "\n")
    .replace(/\t/g, "    ")
    .replace(/[\p{Cc}]/gu, (c) => (c === "\n" ? c : " "))
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** Python's inspect.cleandoc, and at most one blank line in a row. */
export function cleanDoc(text: string): string[] {
  const lines = cleanText(text).split("\n").map((l) => l.trimEnd());
  if (lines.length > 0) lines[0] = lines[0]!.trimStart();
  const indents = lines.slice(1).filter((l) => l !== "").map((l) => l.length - l.trimStart().length);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  const out: string[] = [];
  lines.forEach((line, i) => {
    const dedented = i === 0 ? line : line.slice(common);
    if (dedented === "" && (out.length === 0 || out[out.length - 1] === "")) return;
    out.push(dedented);
  });
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

/** Lines as Python comments. */
export function commentLines(lines: string[]): string[] {
  return lines.map((l) => (l === "" ? "#" : `# ${l}`));
}

/** A docstring block indented by `indent`, in the quoting that keeps the text as written. */
export function docstring(lines: string[], indent: string): string[] {
  let text = lines.join("\n");
  let open = '"""';
  if (text.includes('"""')) text = text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  else if (text.includes("\\")) open = 'r"""'; // raw keeps regexes and paths readable
  const body = text.split("\n").map((l) => (l === "" ? "" : indent + l));
  // The first line follows the opening quotes; the closing quotes get a line of their own.
  return [`${indent}${open}${body[0]!.slice(indent.length)}`, ...body.slice(1), `${indent}"""`];
}

/** The first `limit` bytes (UTF-8) of a text, cut at a line or word boundary when one is near. */
export function trimBytes(text: string, limit: number): { text: string; trimmed: boolean } {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= limit) return { text, trimmed: false };
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, "utf8");
    if (used + size > limit) break;
    used += size;
    end += ch.length;
  }
  let cut = text.slice(0, end);
  const boundary = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(" "));
  if (boundary > end * 0.8) cut = cut.slice(0, boundary);
  return { text: cut.trimEnd(), trimmed: true };
}
