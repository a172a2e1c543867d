// shlex against CPython 3.11: split in POSIX and non-POSIX modes, with and without comments, on
// quotes, escapes and their errors; quote and join.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsQuickly, printEach } from "./oracle.js";

const LINES = [
  "a b  c", 'a "b c" d', "a 'b c' d", "a\\ b", '"a\\"b"', "'a\\'", '"unterminated', "'unterminated", "trailing\\\\", "esc\\", "a#b c", "a #b c", "#all comment", "a # b\nc d",
  '""', "''", 'a "" b', "", "   ", 'x="1 2" y', "a\nb\tc", "\u00e9 \u00fc", '"a\\\\b\\$c\\`d\\x"', "a;b|c&d", "a'b'c", 'a"b"c', "'a\"b'", '"a\'b"', '\\"', "\\'", "\\\\",
  "a\\\nb", '"\\\n"', "'\\n'", "\x0ba\x0cb", "a\rb", "\\\u00e9", "\u{1F600} '\u{1F600} x'", 'git commit -m "fix: the \\"thing\\""', "ls -la /tmp/'my dir'/*.txt", "a 'b'\"c\" d", "\"'\" '\"'",
];

agreesWithCPython("shlex agrees with CPython", [
  printEach("import shlex", [
    ...LINES.flatMap((l) => [`shlex.split(${JSON.stringify(l)})`, `shlex.split(${JSON.stringify(l)}, comments=True)`, `shlex.split(${JSON.stringify(l)}, posix=False)`, `shlex.split(${JSON.stringify(l)}, True, False)`]),
  ]),
  printEach("import shlex", [
    ...["", "abc", "a b", "it's", "a@b%c+d=e:f,g./h-", "\u00e9", "$HOME", "a\nb", "'", '"', "-n", "x=1", "*.txt", "a\\b", "\u{1F600}"].map((s) => `shlex.quote(${JSON.stringify(s)})`),
    ...["", "abc", "a b", "it's", "$HOME", "'\"", "a\\b \\\\"].map((s) => `shlex.split(shlex.quote(${JSON.stringify(s)})) == [${JSON.stringify(s)}]`),
    "shlex.join(['a', 'b c', ''])",
    "shlex.join([])",
    "shlex.join(('ls', '-l', \"it's here\"))",
    "shlex.split(shlex.join(['x y', 'z', \"q'q\"]))",
    "shlex.quote(5)",
    "shlex.join([1])",
    "shlex.join(5)",
    "shlex.split(5)",
    "shlex.split(b'a')",
    "shlex.split('a #b', True)",
    "shlex.split(s='a b', comments=False, posix=True)",
    "shlex.split()",
    "shlex.split('a', nope=1)",
  ]),
  "import shlex\nRESULT = shlex.split('curl -H \"Accept: application/json\" https://x.test/a?b=c')",
]);

describe("shlex in the sandbox", () => {
  it("refuses None, which CPython 3.11 would read standard input for", async () => {
    const r = await execute("import shlex\nshlex.split(None)");
    expect(r.error?.message).toBe("s argument must not be None");
  });

  it.each(["import shlex\nshlex.split('a ' * 3 * 10**6)", "import shlex\nshlex.join(['a b'] * 10**6)", "import shlex\nshlex.quote(\"'\" * 10**7)"])(
    "stops a hostile input with a ResourceLimitError: %s",
    async (source) => {
      await expectStopsQuickly(source);
    },
  );
});
