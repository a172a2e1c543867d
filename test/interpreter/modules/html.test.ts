// html against CPython 3.11: escape, and unescape of every HTML 4 name (with and without `;`),
// numeric references of every kind, and text around them; the documented subset of HTML5's names.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsQuickly, printEach } from "./oracle.js";

const TEXTS = [
  "&amp;&lt;&gt;&quot;&#39;&#x27;&apos;",
  "&nbsp;&copy&COPY;&notit;&notin;&amp",
  "&#0;&#13;&#128;&#x80;&#x9F;&#1;&#xD800;&#x110000;&#99999999999;&#x1F600;&#65;&#x41",
  "&#9;&#10;&#11;&#12;&#127;&#xFDD0;&#xFFFE;&#x1FFFF;&#x10FFFF;&#xFEFF;&#0065;&#x000041;",
  "&unknown; & &#; &#x; &# 65; &&amp; &;",
  "Fish &amp; Chips &mdash; &euro;5 &hellip; &ldquo;quoted&rdquo; &lang;x&rang;",
  "&AMP &LT; &GT &QUOT; &REG &copy; &reg &eacute &Eacute; &szlig &yuml; &thorn",
  "&ampx &ltfoo &amp;x &notin &frac12x &sup2x &plusmnx",
  "no references at all",
  "",
  "&" + "a".repeat(40) + ";",
  "&\u00e9t\u00e9; &\u{1F600}; &a\u00e9;",
  "a&#x41;b&#65c&#x;d",
  "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;",
];

const HTML4_NAMES = [
  "quot", "amp", "lt", "gt", "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy",
  "ordf", "laquo", "not", "shy", "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute", "micro", "para",
  "middot", "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest", "Agrave", "Aacute",
  "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil", "Egrave", "Eacute", "Ecirc", "Euml", "Igrave",
  "Iacute", "Icirc", "Iuml", "ETH", "Ntilde", "Ograve", "Oacute", "Ocirc", "Otilde", "Ouml", "times", "Oslash",
  "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute", "THORN", "szlig", "agrave", "aacute", "acirc", "atilde",
  "auml", "aring", "aelig", "ccedil", "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc", "iuml",
  "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml", "divide", "oslash", "ugrave", "uacute",
  "ucirc", "uuml", "yacute", "thorn", "yuml", "OElig", "oelig", "Scaron", "scaron", "Yuml", "fnof", "circ",
  "tilde", "Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa", "Lambda",
  "Mu", "Nu", "Xi", "Omicron", "Pi", "Rho", "Sigma", "Tau", "Upsilon", "Phi", "Chi", "Psi", "Omega", "alpha",
  "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi",
  "omicron", "pi", "rho", "sigmaf", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "thetasym",
  "upsih", "piv", "ensp", "emsp", "thinsp", "zwnj", "zwj", "lrm", "rlm", "ndash", "mdash", "lsquo", "rsquo",
  "sbquo", "ldquo", "rdquo", "bdquo", "dagger", "Dagger", "bull", "hellip", "permil", "prime", "Prime",
  "lsaquo", "rsaquo", "oline", "frasl", "euro", "image", "weierp", "real", "trade", "alefsym", "larr", "uarr",
  "rarr", "darr", "harr", "crarr", "lArr", "uArr", "rArr", "dArr", "hArr", "forall", "part", "exist", "empty",
  "nabla", "isin", "notin", "ni", "prod", "sum", "minus", "lowast", "radic", "prop", "infin", "ang", "and",
  "or", "cap", "cup", "int", "there4", "sim", "cong", "asymp", "ne", "equiv", "le", "ge", "sub", "sup", "nsub",
  "sube", "supe", "oplus", "otimes", "perp", "sdot", "lceil", "rceil", "lfloor", "rfloor", "lang", "rang",
  "loz", "spades", "clubs", "hearts", "diams", "apos", "AMP", "COPY", "GT", "LT", "QUOT", "REG",
];

agreesWithCPython("html agrees with CPython", [
  printEach("import html", [
    ...TEXTS.map((t) => `html.unescape(${JSON.stringify(t)})`),
    ...TEXTS.map((t) => `html.escape(${JSON.stringify(t)})`),
    ...TEXTS.map((t) => `html.escape(${JSON.stringify(t)}, quote=False)`),
    ...TEXTS.map((t) => `html.unescape(html.escape(${JSON.stringify(t)})) == ${JSON.stringify(t)}`),
    "html.escape('<a href=\"x\">\\'&\\'</a>')",
    "html.escape('<\"\\'>', False)",
    "html.escape(s='&')",
    "html.unescape(5)",
    "html.escape(5)",
    "html.escape(None)",
    "html.unescape()",
  ]),
  // Every HTML 4 name, with and without its semicolon, and followed by text.
  `import html\nfor name in ${JSON.stringify(HTML4_NAMES)}:\n    print(name, repr(html.unescape('&' + name + ';')), repr(html.unescape('&' + name)), repr(html.unescape('&' + name + 'x;')))`,
  "import html\nRESULT = html.unescape('&lt;b&gt;bold&lt;/b&gt; &amp; more')",
]);

describe("html in the sandbox", () => {
  it("leaves HTML5's names beyond HTML 4 as written (a documented difference)", async () => {
    const r = await execute("import html\nRESULT = html.unescape('&Tab;&NewLine;&check;')");
    expect(r.result).toBe("&Tab;&NewLine;&check;");
  });

  it.each(["import html\nhtml.unescape('&amp;' * 10**6)", "import html\nhtml.escape('<>' * 4 * 10**6)", "import html\nhtml.unescape('&#65;' * 10**6)"])(
    "stops a hostile input with a ResourceLimitError: %s",
    async (source) => {
      await expectStopsQuickly(source);
    },
  );
});
