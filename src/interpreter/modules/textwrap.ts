// textwrap of CPython 3.11: TextWrapper, wrap, fill, shorten, dedent and indent, with CPython's
// algorithms step for step: the text is split into chunks (whitespace runs, words, hyphenated
// parts and em-dashes, by the same pattern), chunks are laid onto lines of the width, a word
// longer than a line is broken (after a hyphen if it can), and max_lines truncates with the
// placeholder. Lengths count code points, as Python's do.
import { pyError } from "../errors.js";
import { PyClass, PyInstance } from "../instance.js";
import { lookupMethod } from "../methods/index.js";
import { bindPython } from "../py-bind.js";
import type { Kwargs, NativeContext, NativeFn } from "../native.js";
import { repr } from "../repr.js";
import { PyFloat, PyList, truthy, typeName, type Value } from "../values.js";

// ------------------------------------------------------------------ chunks

const WS = "[\\t\\n\\x0b\\x0c\\r ]";
const NWS = "[^\\t\\n\\x0b\\x0c\\r ]";
/** Python's \w on str: letters, numbers, underscore. */
const W = "[\\p{L}\\p{N}_]";
/** word_punct: `[\w!"'&.,?]`. */
const WP = "[\\p{L}\\p{N}_!\"'&.,?]";
/** letter: `[^\d\W]`, a \w that is not a decimal digit. */
const LT = "[\\p{L}\\p{Nl}\\p{No}_]";

/** CPython's wordsep_re: whitespace, an em-dash between words, or a word up to a break. */
const WORDSEP = new RegExp(
  `${WS}+|(?<=${WP})-{2,}(?=${W})|${NWS}+?(?:-(?:(?<=${LT}{2}-)|(?<=${LT}-${LT}-))(?=${LT}-?${LT})|(?=${WS}|$)|(?<=${WP})(?=-{2,}${W}))`,
  "gu",
);
const WORDSEP_SIMPLE = new RegExp(`${WS}+`, "g");
const SENTENCE_END = /[a-z][.!?]["']?$/;
/** Python's str.isspace characters: what str.strip() removes. */
const PY_SPACE = "[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const ALL_SPACE = new RegExp(`^${PY_SPACE}*$`);
const LEADING_SPACE = new RegExp(`^${PY_SPACE}+`);
const TRAILING_SPACE = new RegExp(`${PY_SPACE}+$`);
const TEXT_WHITESPACE = /[\t\n\x0b\x0c\r]/g;

/**
 * `re.split` of a pattern with one group around the whole: every piece, matched or not, in
 * order, each charged as it is found.
 */
function splitKeeping(ctx: NativeContext, text: string, re: RegExp): string[] {
  const out: string[] = [];
  let last = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    ctx.budget.step(CHUNK_STEPS);
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[0]) out.push(m[0]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const SURROGATE = /[\ud800-\udfff]/;

/** len() of a short str (an indent, the placeholder, a line): code points. */
const cpLen = (s: string): number => (SURROGATE.test(s) ? [...s].length : s.length);

/**
 * Code point lengths and slices of a text's chunks. Most texts have no surrogates: their units
 * are their code points. The others pay a step per 16 units for each length taken.
 */
class Measure {
  private readonly simple: boolean;

  constructor(
    private readonly ctx: NativeContext,
    text: string,
  ) {
    this.simple = !SURROGATE.test(text);
  }

  len(s: string): number {
    if (this.simple) return s.length;
    this.ctx.budget.step(s.length >> 4);
    return [...s].length;
  }

  slice(s: string, start: number, end?: number): string {
    if (this.simple) return s.slice(start, end);
    this.ctx.budget.step(s.length >> 4);
    return [...s].slice(start, end).join("");
  }
}

// ------------------------------------------------------------------ the wrapper

interface Options {
  width: number;
  /** The width as given, for the error that repeats it. */
  widthValue: Value;
  initialIndent: string;
  subsequentIndent: string;
  expandTabs: boolean;
  replaceWhitespace: boolean;
  fixSentenceEndings: boolean;
  breakLongWords: boolean;
  dropWhitespace: boolean;
  breakOnHyphens: boolean;
  tabsize: Value;
  maxLines: number | null;
  placeholder: string;
}

const NAMES = [
  "width",
  "initial_indent",
  "subsequent_indent",
  "expand_tabs",
  "replace_whitespace",
  "fix_sentence_endings",
  "break_long_words",
  "drop_whitespace",
  "break_on_hyphens",
  "tabsize",
  "max_lines",
  "placeholder",
];
const DEFAULTS: Value[] = [70, "", "", true, true, false, true, true, true, 8, null, " [...]"];
/** The last two are keyword-only. */
const POSITIONAL = 10;

function numberOf(v: Value, what: string): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof PyFloat) return v.v;
  throw pyError("TypeError", `'${what}' not supported between instances of '${typeName(v)}' and 'int'`);
}

function textOf(v: Value): string {
  if (typeof v === "string") return v;
  throw pyError("TypeError", `object of type '${typeName(v)}' has no len()`);
}

/** TextWrapper's arguments, bound and read as CPython's code would use them. */
function options(args: Value[], kwargs: Kwargs | null, fn = "TextWrapper.__init__"): Value[] {
  if (args.length > POSITIONAL) throw pyError("TypeError", `${fn}() takes from 1 to ${POSITIONAL + 1} positional arguments but ${args.length + 1} were given`);
  return bindPython(fn, NAMES, DEFAULTS, args, kwargs, 1);
}

function read(values: Value[]): Options {
  const [width, initialIndent, subsequentIndent, expandTabs, replaceWhitespace, fixSentenceEndings, breakLongWords, dropWhitespace, breakOnHyphens, tabsize, maxLines, placeholder] = values as Value[];
  return {
    width: numberOf(width!, "<="),
    widthValue: width!,
    initialIndent: textOf(initialIndent!),
    subsequentIndent: textOf(subsequentIndent!),
    expandTabs: truthy(expandTabs!),
    replaceWhitespace: truthy(replaceWhitespace!),
    fixSentenceEndings: truthy(fixSentenceEndings!),
    breakLongWords: truthy(breakLongWords!),
    dropWhitespace: truthy(dropWhitespace!),
    // CPython tests `is True`: only the bool True splits on hyphens.
    breakOnHyphens: breakOnHyphens === true,
    tabsize: tabsize!,
    maxLines: maxLines === null ? null : numberOf(maxLines!, ">"),
    placeholder: typeof placeholder === "string" ? placeholder : (placeholder as never),
  };
}

/** The steps of a character munged and split, and of a chunk laid on a line. */
const CHAR_STEPS = 2;
const CHUNK_STEPS = 8;
/** The steps of a line indented (split off, tested, prefixed, kept). */
const LINE_STEPS = 16;

function chunksOf(ctx: NativeContext, o: Options, text: Value): [string[], Measure] {
  let t = text;
  if (o.expandTabs) {
    const expand = lookupMethod(t, "expandtabs");
    if (expand === undefined) throw pyError("AttributeError", `'${typeName(t)}' object has no attribute 'expandtabs'`);
    t = expand(ctx, t, [o.tabsize], null);
  }
  if (typeof t !== "string") {
    if (o.replaceWhitespace) throw pyError("AttributeError", `'${typeName(t)}' object has no attribute 'translate'`);
    throw pyError("TypeError", `expected string or bytes-like object, got '${typeName(t)}'`);
  }
  if (o.replaceWhitespace) t = t.replace(TEXT_WHITESPACE, " ");
  ctx.budget.step(1 + CHAR_STEPS * t.length);
  return [splitKeeping(ctx, t, o.breakOnHyphens ? WORDSEP : WORDSEP_SIMPLE), new Measure(ctx, t)];
}

function fixSentenceEndings(chunks: string[]): void {
  for (let i = 0; i < chunks.length - 1; ) {
    if (chunks[i + 1] === " " && SENTENCE_END.test(chunks[i]!)) {
      chunks[i + 1] = "  ";
      i += 2;
    } else i += 1;
  }
}

const isBlank = (s: string) => ALL_SPACE.test(s);

/** _handle_long_word: put as much of a chunk too long for any line on this one as fits. */
function handleLongWord(o: Options, m: Measure, reversed: string[], line: string[], lineLength: number, width: number): void {
  const spaceLeft = width < 1 ? 1 : width - lineLength;
  if (o.breakLongWords) {
    let end = spaceLeft;
    const chunk = reversed.at(-1)!;
    if (o.breakOnHyphens && m.len(chunk) > spaceLeft) {
      // Break after the last hyphen that fits, if something other than hyphens precedes it.
      const head = m.slice(chunk, 0, Math.max(0, spaceLeft));
      const hyphen = m.len(head.slice(0, Math.max(0, head.lastIndexOf("-"))));
      if (head.includes("-") && hyphen > 0 && /[^-]/.test(m.slice(chunk, 0, hyphen))) end = hyphen + 1;
    }
    line.push(m.slice(chunk, 0, Math.max(0, end)));
    reversed[reversed.length - 1] = m.slice(chunk, Math.max(0, end));
  } else if (line.length === 0) line.push(reversed.pop()!);
}

/** _wrap_chunks: the lines, each at most `width` long (unless a word cannot be broken). */
function wrapChunks(ctx: NativeContext, o: Options, chunks: string[], m: Measure): string[] {
  const len = (s: string) => m.len(s);
  const lines: string[] = [];
  if (o.width <= 0) throw pyError("ValueError", `invalid width ${repr(o.widthValue)} (must be > 0)`);
  if (o.maxLines !== null) {
    const indent = o.maxLines > 1 ? o.subsequentIndent : o.initialIndent;
    if (cpLen(indent) + cpLen(o.placeholder.replace(LEADING_SPACE, "")) > o.width) throw pyError("ValueError", "placeholder too large for max width");
  }
  const reversed = chunks.filter((c) => c !== "").reverse();
  while (reversed.length > 0) {
    ctx.budget.step(CHUNK_STEPS);
    const line: string[] = [];
    let lineLength = 0;
    const indent = lines.length > 0 ? o.subsequentIndent : o.initialIndent;
    const width = o.width - cpLen(indent);
    // A line does not start with whitespace, except the very first.
    if (o.dropWhitespace && isBlank(reversed.at(-1)!) && lines.length > 0) reversed.pop();
    while (reversed.length > 0) {
      const l = len(reversed.at(-1)!);
      if (lineLength + l > width) break;
      ctx.budget.step(CHUNK_STEPS);
      line.push(reversed.pop()!);
      lineLength += l;
    }
    if (reversed.length > 0 && len(reversed.at(-1)!) > width) {
      handleLongWord(o, m, reversed, line, lineLength, width);
      lineLength = line.reduce((n, c) => n + len(c), 0);
    }
    if (o.dropWhitespace && line.length > 0 && isBlank(line.at(-1)!)) {
      lineLength -= len(line.at(-1)!);
      line.pop();
    }
    if (line.length === 0) continue;
    const rest = reversed;
    const fits =
      o.maxLines === null ||
      lines.length + 1 < o.maxLines ||
      ((rest.length === 0 || (o.dropWhitespace && rest.length === 1 && isBlank(rest[0]!))) && lineLength <= width);
    if (fits) {
      lines.push(indent + line.join(""));
      continue;
    }
    // The last line allowed: end it with the placeholder, dropping chunks until it fits.
    let placed = false;
    while (line.length > 0) {
      if (!isBlank(line.at(-1)!) && lineLength + cpLen(o.placeholder) <= width) {
        line.push(o.placeholder);
        lines.push(indent + line.join(""));
        placed = true;
        break;
      }
      lineLength -= len(line.at(-1)!);
      line.pop();
    }
    if (!placed) {
      if (lines.length > 0) {
        const previous = lines.at(-1)!.replace(TRAILING_SPACE, "");
        if (cpLen(previous) + cpLen(o.placeholder) <= o.width) {
          lines[lines.length - 1] = previous + o.placeholder;
          break;
        }
      }
      lines.push(indent + o.placeholder.replace(LEADING_SPACE, ""));
    }
    break;
  }
  return lines;
}

function wrapText(ctx: NativeContext, o: Options, text: Value): string[] {
  const [chunks, measure] = chunksOf(ctx, o, text);
  if (o.fixSentenceEndings) fixSentenceEndings(chunks);
  if (o.maxLines !== null && typeof o.placeholder !== "string") throw pyError("AttributeError", `'${typeName(o.placeholder)}' object has no attribute 'lstrip'`);
  return wrapChunks(ctx, o, chunks, measure);
}

function linesOf(ctx: NativeContext, lines: string[]): PyList {
  ctx.budget.step(lines.length);
  return new PyList(lines);
}

function fillText(ctx: NativeContext, o: Options, text: Value): string {
  const lines = wrapText(ctx, o, text);
  ctx.budget.checkSize(2 * lines.reduce((n, l) => n + l.length + 1, 0));
  return lines.join("\n");
}

// ------------------------------------------------------------------ TextWrapper

const TEXT_WRAPPER = new PyClass("TextWrapper", "textwrap", (_ctx, args, kwargs) => new TextWrapper(options(args, kwargs)));

class TextWrapper extends PyInstance {
  constructor(readonly values: Value[]) {
    super();
  }

  get cls(): PyClass {
    return TEXT_WRAPPER;
  }

  pyRepr(): string {
    return "<textwrap.TextWrapper object>";
  }

  override pyAttr(name: string): Value | undefined {
    const i = NAMES.indexOf(name);
    return i < 0 ? undefined : this.values[i];
  }
}

TEXT_WRAPPER.methods.set("wrap", (ctx, self: TextWrapper, args, kwargs) => {
  const [text] = bindPython("TextWrapper.wrap", ["text"], [], args, kwargs, 1);
  return linesOf(ctx, wrapText(ctx, read(self.values), text!));
});
TEXT_WRAPPER.methods.set("fill", (ctx, self: TextWrapper, args, kwargs) => {
  const [text] = bindPython("TextWrapper.fill", ["text"], [], args, kwargs, 1);
  return fillText(ctx, read(self.values), text!);
});

// ------------------------------------------------------------------ the functions

/** `f(text, width=70, **kwargs)`: the wrapper's options with `width` given here. */
function withWidth(fn: string, args: Value[], kwargs: Kwargs | null, required: boolean): [Value, Options] {
  const own = new Map(kwargs ?? []);
  const take = (name: string, i: number): Value | undefined => {
    const named = own.get(name);
    if (named !== undefined) {
      if (args.length > i) throw pyError("TypeError", `${fn}() got multiple values for argument '${name}'`);
      own.delete(name);
      return named;
    }
    return args[i];
  };
  if (args.length > 2) throw pyError("TypeError", `${fn}() takes from 1 to 2 positional arguments but ${args.length} were given`);
  const text = take("text", 0);
  const width = take("width", 1);
  if (text === undefined) throw pyError("TypeError", `${fn}() missing 1 required positional argument: 'text'`);
  if (width === undefined && required) throw pyError("TypeError", `${fn}() missing 1 required positional argument: 'width'`);
  const extra = new Map([["width", width ?? 70], ...own]);
  if (fn === "shorten") {
    if (own.has("max_lines")) throw pyError("TypeError", "textwrap.TextWrapper() got multiple values for keyword argument 'max_lines'");
    extra.set("max_lines", 1);
  }
  return [text, read(options([], extra))];
}

const wrap: NativeFn = (ctx, args, kwargs) => {
  const [text, o] = withWidth("wrap", args, kwargs, false);
  return linesOf(ctx, wrapText(ctx, o, text));
};

const fill: NativeFn = (ctx, args, kwargs) => {
  const [text, o] = withWidth("fill", args, kwargs, false);
  return fillText(ctx, o, text);
};

const shorten: NativeFn = (ctx, args, kwargs) => {
  const [text, o] = withWidth("shorten", args, kwargs, true);
  const call = (v: Value, name: string, margs: Value[]) => {
    const m = lookupMethod(v, name);
    if (m === undefined) throw pyError("AttributeError", `'${typeName(v)}' object has no attribute '${name}'`);
    return m(ctx, v, margs, null);
  };
  // ' '.join(text.strip().split()): whitespace collapsed, as Python's str methods see it.
  const collapsed = call(" ", "join", [call(call(text, "strip", []), "split", [])]);
  return fillText(ctx, o, collapsed);
};

const dedent: NativeFn = (ctx, args, kwargs) => {
  const [text] = bindPython("dedent", ["text"], [], args, kwargs);
  if (typeof text !== "string") throw pyError("TypeError", `expected string or bytes-like object, got '${typeName(text!)}'`);
  ctx.budget.step(1 + CHAR_STEPS * text.length);
  // Lines of spaces and tabs only become empty; the margin is the longest common indent of the
  // others (a line of `^` in Python's MULTILINE patterns ends at "\n" only).
  const lines = text.split("\n").map((l) => (/^[ \t]+$/.test(l) ? "" : l));
  let margin: string | null = null;
  for (const line of lines) {
    const indent = /^[ \t]*/.exec(line)![0];
    if (indent.length === line.length) continue;
    if (margin === null || indent.startsWith(margin)) margin ??= indent;
    else if (margin.startsWith(indent)) margin = indent;
    else {
      let i = 0;
      while (i < margin.length && i < indent.length && margin[i] === indent[i]) i++;
      margin = margin.slice(0, i);
    }
  }
  const m = margin ?? "";
  return lines.map((l) => (m && l.startsWith(m) ? l.slice(m.length) : l)).join("\n");
};

/** Python's str.splitlines(keepends=True), one line at a time. */
function* linesKeeping(s: string): Generator<string> {
  let start = 0;
  const re = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/g;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    yield s.slice(start, m.index + m[0].length);
    start = m.index + m[0].length;
  }
  if (start < s.length) yield s.slice(start);
}

const indent: NativeFn = (ctx, args, kwargs) => {
  const [text, prefix, predicate] = bindPython("indent", ["text", "prefix", "predicate"], [null], args, kwargs);
  if (typeof text !== "string") throw pyError("AttributeError", `'${typeName(text!)}' object has no attribute 'splitlines'`);
  ctx.budget.step(1 + (text.length >> 2));
  const out: string[] = [];
  let size = 0;
  for (const line of linesKeeping(text)) {
    ctx.budget.step(LINE_STEPS);
    const keep = predicate === null ? !isBlank(line) : truthy(ctx.call(predicate!, [line]));
    if (keep && typeof prefix !== "string") throw pyError("TypeError", `unsupported operand type(s) for +: '${typeName(prefix!)}' and 'str'`);
    const piece = keep ? (prefix as string) + line : line;
    size += piece.length;
    ctx.budget.checkSize(2 * size);
    out.push(piece);
  }
  return out.join("");
};

export const TEXTWRAP_MODULE: Record<string, NativeFn | Value> = {
  TextWrapper: TEXT_WRAPPER,
  wrap,
  fill,
  shorten,
  dedent,
  indent,
};
