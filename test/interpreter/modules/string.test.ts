// string against CPython 3.11: its constants, capwords, and Template's substitutions and errors.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsQuickly, printEach } from "./oracle.js";

const TEMPLATES = [
  "$who likes $what",
  "${who}x likes ${what}y",
  "$$ is a dollar, $who",
  "$who$what",
  "${who}${what}",
  "$",
  "a $",
  "line one\nline $two $",
  "a\r\nb\r\n  $1",
  "\u00e9\u00e9 $5",
  "\u{1F600} $-",
  "${",
  "${who",
  "${1}",
  "${ who }",
  "$_private $A1 $1a",
  "$whoever",
  "$who.attr",
  "$who_ $who1",
  "$\u00e9t\u00e9",
  "$$$who",
  "$$$",
  "no placeholders",
  "",
  "\u2028$x \x0b$",
];

agreesWithCPython("string agrees with CPython", [
  printEach("import string", [
    "string.ascii_letters",
    "string.ascii_lowercase",
    "string.ascii_uppercase",
    "string.digits",
    "string.hexdigits",
    "string.octdigits",
    "string.punctuation",
    "string.printable",
    "string.whitespace",
    "string.capwords('  hello   world  ')",
    "string.capwords('hello world', ' ')",
    "string.capwords('a-b c-d', '-')",
    "string.capwords('ÉCOLE élève straße')",
    "string.capwords('')",
    "string.capwords('x', '')",
    "string.capwords(5)",
    "string.capwords('a b', 5)",
    "string.capwords(s='one two')",
    "string.Template.delimiter, string.Template.idpattern, string.Template.braceidpattern",
    "string.Template('$a').template",
    "string.Template(template='$a').substitute(a=1)",
    "string.Template()",
    "string.Template('$a', 'b')",
    "string.Template(5).substitute()",
    "string.Template('$a').substitute({'a': 1}, a=2)",
    "string.Template('$a $b').substitute({'a': 1}, b=2)",
    "string.Template('$a').substitute({}, {})",
    "string.Template('$a').substitute([])",
    "string.Template('$a').substitute({'a': [1, 'x']})",
    "string.Template('$a').safe_substitute()",
    "string.Template('$a ${b} $$ $c $1').get_identifiers()",
    "string.Template('$a $a ${a}').get_identifiers()",
    "string.Template('$a ${b}').is_valid(), string.Template('$').is_valid(), string.Template('$1').is_valid()",
    "isinstance(string.Template('x'), string.Template)",
    "string.Template('x').nope",
  ]),
  ...TEMPLATES.map((t) =>
    printEach(`import string\nt = string.Template(${JSON.stringify(t)})\nd = {'who': 'tim', 'what': 'kung pao', 'two': 2, 'x': None, '_private': 'p', 'A1': 'a'}`, [
      "t.substitute(d)",
      "t.safe_substitute(d)",
      "t.substitute(**d)",
      "t.safe_substitute()",
      "t.substitute()",
      "t.get_identifiers()",
      "t.is_valid()",
    ]),
  ),
  "import string\nfrom string import Template\nRESULT = Template('Hello, $name!').substitute(name='world')",
]);

describe("string in the sandbox", () => {
  it("has no JavaScript names on the module, Template and its instances", async () => {
    for (const target of ["string", "string.Template", "string.Template('x')"]) {
      for (const name of ["constructor", "toString", "valueOf", "text", "cls", "pyAttr"]) {
        const r = await execute(`import string\nRESULT = hasattr(${target}, ${JSON.stringify(name)})`);
        expect(r.result, `${target}.${name}`).toBe(false);
      }
    }
  });

  it.each([
    "import string\nt = string.Template('$a' * 10**6)\nt.substitute(a='x' * 1000)",
    "import string\nt = string.Template('$$' * 3 * 10**6)\nt.substitute()",
    "import string\nstring.capwords('a ' * 5 * 10**6)",
  ])("stops a hostile template with a ResourceLimitError: %s", async (source) => {
    await expectStopsQuickly(source);
  });
});
