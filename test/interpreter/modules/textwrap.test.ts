// textwrap against CPython 3.11: wrap, fill and shorten of many texts at many widths with every
// option, TextWrapper, dedent and indent; budgets.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsQuickly, printEach } from "./oracle.js";

const TEXTS = [
  "The quick brown fox jumps over the lazy dog.",
  "Look, goof-ball -- use the -b option!",
  "Hello there, how are you this fine day?  I'm glad to hear it!",
  "This is a very long paragraph of text that must be wrapped at several widths, with words of many lengths: a, an, the, antidisestablishmentarianism, and supercalifragilisticexpialidous.",
  "well-known self-contained state-of-the-art e-mail co-operate re-enter T-shirt x-ray 3-d a--b --option -x -- --- ----",
  "first line\nsecond line\tafter a tab\r\nthird\x0bline\x0cfour",
  "  leading and trailing spaces   ",
  "",
  "   ",
  "word",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  "https://example.com/a/very/long/path/that-has-hyphens-in-it/and/more?query=string&and=more",
  "Caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u00fcber-schnell Stra\u00dfe \u65e5\u672c\u8a9e\u306e\u6587\u7ae0 \u{1F600}\u{1F601} emoji-\u{1F600}-hyphen",
  "End of sentence. Next sentence! Another? \"Quoted.\" 'Single.' Mr. Smith went e.g. there.",
  "tab\tseparated\tcolumns\tof\tdata\t\tend",
  "a - b -- c --- d ---- e",
  "under_score_words and_more_words_here mixed-with-hyphens_and_underscores",
  "12345-67890 1-2-3 a1-b2 x-1 1-x --1 1--",
  "non\u00a0breaking\u00a0spaces and\u2003em\u2003spaces",
  "- leading hyphen and trailing hyphen -",
];
const WIDTHS = [1, 2, 5, 10, 12, 20, 33, 70];

const wrapCalls = (t: string) =>
  WIDTHS.flatMap((w) => [
    `textwrap.wrap(t, ${w})`,
    `textwrap.fill(t, width=${w})`,
    `textwrap.wrap(t, ${w}, break_long_words=False)`,
    `textwrap.wrap(t, ${w}, break_on_hyphens=False)`,
    `textwrap.wrap(t, ${w}, drop_whitespace=False)`,
    // (An indent wider than the width never ends in CPython on blank text: see below.)
    `textwrap.wrap(t, ${Math.max(w, 3)}, initial_indent='* ', subsequent_indent='  ')`,
    `textwrap.wrap(t, ${w}, max_lines=2)`,
    `textwrap.wrap(t, ${w}, max_lines=1, placeholder='...')`,
    `textwrap.shorten(t, ${Math.max(w, 6)})`,
    `textwrap.shorten(t, ${w + 10}, placeholder=' [+]')`,
  ]).concat([
    "textwrap.wrap(t, 15, expand_tabs=False)",
    "textwrap.wrap(t, 15, replace_whitespace=False)",
    "textwrap.wrap(t, 15, expand_tabs=False, replace_whitespace=False)",
    "textwrap.wrap(t, 15, tabsize=4)",
    "textwrap.wrap(t, 25, fix_sentence_endings=True)",
    "textwrap.wrap(t, 20, drop_whitespace=False, break_on_hyphens=False, break_long_words=False)",
    "textwrap.fill(t, 30, max_lines=3, initial_indent='>> ')",
    "textwrap.wrap(t, 10, max_lines=3, drop_whitespace=False)",
    "textwrap.TextWrapper(width=18, subsequent_indent='    ').fill(t)",
  ]);

agreesWithCPython("textwrap wrap, fill and shorten agree with CPython", TEXTS.map((t) => printEach(`import textwrap\nt = ${JSON.stringify(t)}`, wrapCalls(t))));

const DEDENTS = [
  "    hello\n      world\n    again",
  "\thello\n\tworld",
  "  \thello\n  world",
  "hello\n    world",
  "    a\n\n    b\n  \n    c",
  "    a\r\n    b\r\n",
  "  x\n \n  y\n",
  "\n\n    spaced\n",
  "",
  "no indent",
  "   ",
  "  a\n\tb",
  "    def f():\n        return 1\n",
  "  \u00e9\n  \u00fc",
  "\t\ta\n\tb\n\t\t\tc",
];

agreesWithCPython("textwrap dedent, indent and the wrapper agree with CPython", [
  printEach("import textwrap", [
    ...DEDENTS.map((d) => `textwrap.dedent(${JSON.stringify(d)})`),
    ...DEDENTS.map((d) => `textwrap.indent(${JSON.stringify(d)}, '> ')`),
    ...DEDENTS.map((d) => `textwrap.indent(${JSON.stringify(d)}, '+', lambda line: True)`),
    "textwrap.indent('a\\rb\\x0bc\\x0cd\\x1ce\\x85f\\u2028g\\r\\nh', '-')",
    "textwrap.indent('a\\n\\nb', '  ', lambda l: l.strip() != 'b')",
    "textwrap.indent(5, '>')",
    "textwrap.indent('a', 5)",
    "textwrap.dedent(5)",
    "textwrap.wrap(5)",
    "textwrap.wrap('a b', 0)",
    "textwrap.wrap('a b', -1.5)",
    "textwrap.wrap('a b', '3')",
    "textwrap.wrap('a b', 3, nope=1)",
    "textwrap.wrap('a b c', 3, initial_indent=5)",
    "textwrap.wrap('a b c', 3, max_lines=1, placeholder=' [long placeholder]')",
    "textwrap.wrap('a\\tb', 10, tabsize=2.5)",
    "textwrap.shorten('Hello  world!', width=12)",
    "textwrap.shorten('Hello  world!', width=11)",
    "textwrap.shorten('Hello  world!', 5)",
    "textwrap.shorten('Hello', 10, max_lines=2)",
    "textwrap.shorten('x')",
    "textwrap.shorten(text='a b c d e f', width=8)",
    "textwrap.fill('a b c', 2, 3)",
    "textwrap.wrap()",
    "w = textwrap.TextWrapper(width=10, max_lines=2); (w.width, w.max_lines, w.placeholder, w.fill('one two three four five six'))",
    "textwrap.TextWrapper(10, '', '', True, True, False, True, True, True, 8).wrap('aaa bbb ccc ddd')",
    "textwrap.TextWrapper(10, '', '', True, True, False, True, True, True, 8, 3)",
    "textwrap.TextWrapper(width=5).wrap(text='abcdefghij')",
    "type(textwrap.TextWrapper())",
    "textwrap.TextWrapper().nope",
  ]),
  "import textwrap\nRESULT = textwrap.fill('The sandbox wraps text as CPython does, word by word.', 20)",
  "import textwrap\ndoc = '''\n    Usage:\n      tool --flag\n    '''\nprint(textwrap.dedent(doc).strip())",
]);

describe("textwrap in the sandbox", () => {
  it("has no JavaScript names on the module, TextWrapper and its instances", async () => {
    for (const target of ["textwrap", "textwrap.TextWrapper", "textwrap.TextWrapper()"]) {
      for (const name of ["constructor", "toString", "values", "cls", "__proto__"]) {
        const r = await execute(`import textwrap\nRESULT = hasattr(${target}, ${JSON.stringify(name)})`);
        expect(r.result, `${target}.${name}`).toBe(false);
      }
    }
  });

  it("ends with max_steps where CPython loops for ever (an indent wider than the width, blank text)", async () => {
    const r = await execute("import textwrap\ntextwrap.wrap('   ', 1, initial_indent='* ')");
    expect(r.error?.type).toBe("ResourceLimitError");
  });

  it.each([
    "import textwrap\ntextwrap.wrap('ab ' * 10**6, 10)",
    "import textwrap\ntextwrap.wrap('a' * 10**6, 1)",
    "import textwrap\ntextwrap.fill('word-' * 2 * 10**5, 7)",
    "import textwrap\ntextwrap.dedent('  x\\n' * 10**6)",
    "import textwrap\ntextwrap.indent('x\\n' * 10**6, '> ')",
    "import textwrap\ntextwrap.shorten('a ' * 10**6, 50)",
  ])("stops a hostile input with a ResourceLimitError: %s", async (source) => {
    await expectStopsQuickly(source);
  });
});

// The functions written in Python check keywords before the positional count, as a def does.
agreesWithCPython("textwrap refuses bad calls in CPython's order", [
  printEach("import textwrap", ["textwrap.dedent('x', 'y', z=1)", "textwrap.dedent('x', text='y')", "textwrap.indent('x', '> ', None, 4)", "textwrap.TextWrapper().wrap('a', 'b')"]),
]);
