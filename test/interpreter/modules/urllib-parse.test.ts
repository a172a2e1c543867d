// urllib.parse against CPython 3.11: splitting, joining, quoting and query strings, their named
// tuple results, dotted imports, budgets, and no JavaScript names on what the module defines.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsQuickly, printEach } from "./oracle.js";

const URLS = [
  "https://user:pw@Example.COM:8080/a/b;p?q=1&r=2#frag",
  "http://example.com",
  "http://example.com/",
  "http://example.com/path/to/file.html?x=1#top",
  "HTTP://EXAMPLE.com/UPPER",
  "ftp://ftp.is.co.za/rfc/rfc1808.txt",
  "mailto:John.Doe@example.com",
  "news:comp.infosystems.www.servers.unix",
  "tel:+1-816-555-1212",
  "telnet://192.0.2.16:80/",
  "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
  "ldap://[2001:db8::7]/c=GB?objectClass?one",
  "http://[::1]:8080/",
  "http://[fe80::1%25eth0]/",
  "http://[fe80::822a:a8ff:fe49:470c%tESt]:1234/keys",
  "http://[::ffff:192.0.2.1]/",
  "http://[v1.fe80::a+en1]/",
  "//example.com/path",
  "/just/a/path?q",
  "relative/path;params?x#y",
  "path;p1;p2",
  "http://a/b/c/d;p?q",
  "http://a/b;p/c;q",
  "file:///etc/passwd",
  "file://localhost/c:/windows",
  "svn+ssh://host/repo",
  "git+ssh://git@github.com/u/r.git",
  "ws://h:1/chat",
  "  \t http://leading.space/",
  "http://ex\tam\nple.com/pa\rth",
  "http://example.com/trailing ",
  "http://u@h",
  "http://u:@h:",
  "http://:p@h:99",
  "http://h:0/",
  "http://h:65535/",
  "http://h:65536/",
  "http://h:abc/",
  "http://h:-1/",
  "http://h:00080/",
  "http://h:/",
  "http://a@b@c/",
  "http://[::1/",
  "http://::1]/",
  "http://[1.2.3.4]/",
  "http://[zzz]/",
  "http://[vX.abc]/",
  "http://[::1]x:80/",
  "1http://not.a.scheme/",
  "h_ttp://not/",
  "a+b-c.d://x/",
  "path:with:colons",
  "localhost:8080",
  "localhost:8080/path",
  "?only=query",
  "#only-fragment",
  "",
  ":",
  "http:",
  "http:/",
  "http://",
  "http:///path",
  "HTTPS://Ü.example/ä?ö#ü",
  "http://a/b?c#d#e",
  "http://a/b#c?d",
  "http://host/p?q=1;x",
  "sip:alice@atlanta.com;transport=tcp",
  "javascript:alert(1)",
  "data:text/plain;base64,SGVsbG8=",
  "https://example.com/a%20b/%7Euser",
  "https://\u2100.example/",
  "https://ex\u00e4mple.com/",
];

const urlSnippets = URLS.map((u) =>
  printEach(`from urllib.parse import urlsplit, urlparse, urlunsplit, urlunparse\nu = ${JSON.stringify(u)}`, [
    "urlsplit(u)",
    "urlparse(u)",
    "urlsplit(u).geturl()",
    "urlparse(u).geturl()",
    "urlunsplit(urlsplit(u))",
    "urlunparse(urlparse(u))",
    "(urlsplit(u).username, urlsplit(u).password, urlsplit(u).hostname)",
    "urlsplit(u).port",
    "urlparse(u, allow_fragments=False)",
    "urlsplit(u, scheme='https')",
  ]),
);

const BASES = ["http://a/b/c/d;p?q", "http://a/b/c/", "http://a", "https://h/x/y.html?z#w", "ftp://f/a/", "file:///tmp/x", "mailto:x@y", "http://a/b/../c/./d", ""];
const REFS = [
  "g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s", "", ".", "./", "..", "../", "../g",
  "../..", "../../", "../../g", "../../../g", "../../../../g", "/./g", "/../g", "g.", ".g", "g..", "..g", "./../g", "./g/.", "g/./h", "g/../h",
  "g;x=1/./y", "g;x=1/../y", "g?y/./x", "g?y/../x", "g#s/./x", "g#s/../x", "http:g", "https:g", "http://other/x", "//other/../x", "a//b//c", "mailto:z",
];
const joinSnippets = BASES.map((b) =>
  printEach(`from urllib.parse import urljoin\nb = ${JSON.stringify(b)}`, [...REFS.map((r) => `urljoin(b, ${JSON.stringify(r)})`), `urljoin(b, "g#s", allow_fragments=False)`]),
);

const QUOTED = ["", "abc", "a b", "a+b", "a/b", "~user", "é", "€uro", "日本語", "\u{1F600}", "a%20b", "100%", "%zz%2", "%E2%82", "%e2%82%ac", "!*'();:@&=+$,/?#[]", "\x00\x7f", "tab\there"];
const quoteSnippets = [
  printEach("from urllib.parse import quote, quote_plus, unquote, unquote_plus, quote_from_bytes, unquote_to_bytes", [
    ...QUOTED.flatMap((s) => [`quote(${JSON.stringify(s)})`, `quote_plus(${JSON.stringify(s)})`, `unquote(${JSON.stringify(s)})`, `unquote_plus(${JSON.stringify(s)})`, `unquote_to_bytes(${JSON.stringify(s)})`]),
    "quote('a/b c', safe='')",
    "quote('a/b c', safe=' ')",
    "quote('a/b c', safe='/é')",
    "quote('a/b c', safe=b' ')",
    "quote_plus('a/b c', safe='/')",
    "quote_plus('a b', safe=b'/')",
    "quote(b'a b\\xff')",
    "quote_plus(b'a b\\xff')",
    "quote_from_bytes(b'abc def\\x3f')",
    "quote_from_bytes('x')",
    "quote(None)",
    "quote(5)",
    "quote(b'x', encoding='utf-8')",
    "quote(b'x', errors='strict')",
    "quote('é', encoding='latin-1')",
    "quote('é', encoding='ascii')",
    "quote('é', encoding='ascii', errors='replace')",
    "quote('\\ud800')",
    "unquote(b'a%20b')",
    "unquote('%E9', encoding='latin-1')",
    "unquote('%E9')",
    "unquote(None)",
    "unquote(5)",
    "unquote('a%2', 'utf-8', 'replace')",
    "unquote_plus(b'a+b')",
    "unquote_plus(None)",
    "unquote_to_bytes(None)",
    "unquote_to_bytes(b'%41%4')",
    "quote_plus('x', safe=None)",
  ]),
];

const querySnippets = [
  printEach("from urllib.parse import urlencode, parse_qs, parse_qsl, quote", [
    "urlencode({'a': 1, 'b': 'x y', 'c': 'é'})",
    "urlencode([('a', 1), ('a', 2), ('b', None), ('c', True), ('d', 1.5)])",
    "urlencode({'a': [1, 2], 'b': (3,), 'c': 'str', 'd': b'by tes'}, doseq=True)",
    "urlencode({'a': [1, 2]})",
    "urlencode({'a': {'k': 1}}, doseq=True)",
    "urlencode({'a': 5}, doseq=True)",
    "urlencode({'a b': 'c/d'}, safe='/')",
    "urlencode({'a b': 'c/d'}, quote_via=quote)",
    "urlencode({'a b': 'c/d'}, quote_via=quote, safe='/')",
    "urlencode({'x': 'é'}, encoding='latin-1')",
    "urlencode({b'k': b'v w'})",
    "urlencode({})",
    "urlencode([])",
    "urlencode('abc')",
    "urlencode(5)",
    "urlencode([['a', 1]])",
    "urlencode([('a', 1, 2)])",
    "urlencode({'q': 'x'}, quote_via=lambda s, safe, enc, err: s.upper())",
    "parse_qs('a=1&a=2&b=3')",
    "parse_qs('a=1&b=&c')",
    "parse_qs('a=1&b=&c', keep_blank_values=True)",
    "parse_qs('a=%20x+y&b=%E2%82%AC')",
    "parse_qs('a=1;b=2')",
    "parse_qs('a=1;b=2', separator=';')",
    "parse_qs('')",
    "parse_qs('&&a=1&&')",
    "parse_qs(b'a=1&b=2')",
    "parse_qsl('a=1&b=2&a=3')",
    "parse_qsl('a=1&&b', strict_parsing=True)",
    "parse_qsl('a=1&b', strict_parsing=True)",
    "parse_qsl('=1&b=')",
    "parse_qsl('=1&b=', keep_blank_values=True)",
    "parse_qsl('a=1&b=2&c=3', max_num_fields=2)",
    "parse_qsl('a=1&b=2', max_num_fields=2)",
    "parse_qsl('a=1', separator='')",
    "parse_qsl('a=%E9', encoding='latin-1')",
    "parse_qsl(b'a=%C3%A9')",
    "parse_qsl('x=a=b=c')",
  ]),
];

const tupleSnippets = [
  printEach("from urllib.parse import urlsplit, urlparse, urldefrag, ParseResult, SplitResult, DefragResult\nr = urlparse('https://u:p@H.com:81/p;q?x=1#f')\ns = urlsplit('http://h/p?q#f')", [
    "r",
    "r.scheme, r.netloc, r.path, r.params, r.query, r.fragment",
    "r[0], r[-1], r[1:3]",
    "len(r), list(r), tuple(r)",
    "r == ('https', 'u:p@H.com:81', '/p', 'q', 'x=1', 'f')",
    "r != s, s == s",
    "hash(s) == hash(tuple(s))",
    "{s: 1}[('http', 'h', '/p', 'q', 'f')]",
    "r._replace(scheme='ftp', query='')",
    "r._replace(nope=1)",
    "r._replace('x')",
    "r._asdict()",
    "r._fields, SplitResult._fields",
    "r.count('q'), r.index('/p')",
    "r + (1,)",
    "r.geturl(), s.geturl()",
    "r.encode()",
    "r.encode().decode()",
    "r.encode().hostname, r.encode().port, r.encode().username",
    "isinstance(r, tuple), isinstance(r, ParseResult), isinstance(s, ParseResult)",
    "type(r), type(s)",
    "ParseResult('a', 'b', 'c', 'd', 'e', 'f')",
    "ParseResult('a', 'b')",
    "ParseResult(scheme='a', netloc='b', path='c', params='', query='', fragment='')",
    "ParseResult('a', 'b', 'c', 'd', 'e', 'f', 'g')",
    "ParseResult('a', 'b', 'c', 'd', 'e', scheme='f')",
    "ParseResult('a', 'b', 'c', 'd', 'e', zzz='f')",
    "SplitResult._make(['a', 'b', 'c', 'd', 'e'])",
    "SplitResult._make(['a'])",
    "ParseResult('http', 'h:1', '/', '', '', '').port",
    "urldefrag('http://h/p?q#frag')",
    "urldefrag('http://h/p?q')",
    "urldefrag('http://h/p#f').geturl()",
    "urldefrag(b'http://h/p#f')",
    "a, b, c, d, e = s; (a, e)",
    "sorted([urlsplit('http://b/'), urlsplit('http://a/')])",
    "r.nope",
    "s.params",
    "str(r)",
    "f'{s}'",
  ]),
  printEach("from urllib.parse import urlunsplit, urlunparse, urlsplit", [
    "urlunsplit(('http', 'h', 'p', 'q', 'f'))",
    "urlunsplit(('', '', 'p', '', ''))",
    "urlunsplit(('file', '', '/x', '', ''))",
    "urlunsplit(('mailto', '', 'x@y', '', ''))",
    "urlunsplit(['http', 'h', '//p', '', ''])",
    "urlunsplit(('http', 'h', 'p', 'q'))",
    "urlunsplit(('http', 'h', 'p', 'q', 'f', 'x'))",
    "urlunparse(('http', 'h', '/p', 'par', 'q', 'f'))",
    "urlunparse(('http', 'h', '/p', '', '', ''))",
    "urlunsplit((b'http', b'h', b'/p', b'', b''))",
    "urlunsplit(('http', b'h', '/p', '', ''))",
    "urlunsplit(('http', '', '', '', ''))",
    "urlsplit('http://h/p', b'')",
    "urlsplit(b'http://h/p', 'x')",
    "urlsplit(b'http://h/\\xff')",
  ]),
];

const importSnippets = [
  "import urllib.parse\nprint(urllib.parse.quote('a b'), urllib.parse.urlsplit('http://h').netloc)",
  "import urllib.parse as up\nprint(up.quote('a b'))",
  "from urllib.parse import quote as q, unquote\nprint(q('a b'), unquote('%41'))",
  "from urllib import parse\nprint(parse.quote('a b'))",
  "from urllib import parse as p2\nprint(p2.unquote('%41'))",
  "import urllib\nprint(urllib.parse.quote is not None)",
  "import urllib.parse\nimport urllib\nprint(urllib.parse.quote('x y'))",
  "import urllib.parse, json\nprint(json.dumps(urllib.parse.parse_qs('a=1')))",
  "import urllib.parse\nprint(urllib.parse.nope)",
  "def f():\n    import urllib.parse\n    return urllib.parse.quote('a b')\nprint(f())",
  "import urllib.parse\nRESULT = urllib.parse.urlsplit('http://h/p?q')",
];

agreesWithCPython("urlsplit and urlparse agree with CPython", urlSnippets);
agreesWithCPython("urljoin agrees with CPython", joinSnippets);
agreesWithCPython("quote and unquote agree with CPython", quoteSnippets);
agreesWithCPython("urlencode, parse_qs and parse_qsl agree with CPython", querySnippets);
agreesWithCPython("the named tuple results agree with CPython", tupleSnippets);
agreesWithCPython("dotted imports agree with CPython", importSnippets);

describe("urllib.parse in the sandbox", () => {
  it("lists the package and the submodule among the available modules", async () => {
    const r = await execute("import nope");
    expect(r.error?.message).toContain("urllib, urllib.parse");
    const sub = await execute("import urllib.nope");
    expect(sub.error?.message).toMatch(/^module 'urllib.nope' is not available in the sandbox \(available: .*urllib.parse/);
    const name = await execute("from urllib import nope");
    expect(name.error?.message).toBe("cannot import name 'nope' from 'urllib' (available: parse)");
  });

  it("has no JavaScript names on the module, its classes and its results", async () => {
    for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "items", "type", "cls", "make", "fields"]) {
      for (const target of ["up", "up.ParseResult", "up.urlparse('http://h/')"]) {
        const r = await execute(`import urllib.parse as up\nRESULT = hasattr(${target}, ${JSON.stringify(name)})`);
        expect(r.error).toBeNull();
        expect(r.result, `${target}.${name}`).toBe(false);
      }
    }
    const r = await execute("import urllib.parse as up\nRESULT = getattr(up.urlparse('http://h/'), '__proto__')");
    expect(r.error?.type).toBe("AttributeError");
  });

  it("gives each execution its own field defaults", async () => {
    const r = await execute("import urllib.parse as up\nd = up.ParseResult._field_defaults\nd['x'] = 1\nRESULT = up.ParseResult._field_defaults");
    expect(r.result).toEqual({});
  });

  const HOSTILE = [
    "import urllib.parse as up\nup.urlsplit('a' * 10**7)",
    "import urllib.parse as up\nup.quote('\\xe9' * 2 * 10**6)",
    "import urllib.parse as up\nup.unquote('%41' * 3 * 10**6)",
    "import urllib.parse as up\nup.parse_qsl('a=1&' * 10**6)",
    "import urllib.parse as up\nup.urlencode({'k': ['v'] * 10**6}, doseq=True)",
    "import urllib.parse as up\nup.urljoin('http://a/' + 'b/' * 10**6, '../' * 10**6)",
    "import urllib.parse as up\ns = 'a' * 10**6\nfor i in range(100): up.quote(s)",
  ];
  it.each(HOSTILE)("stops a hostile input with a ResourceLimitError, without holding the event loop: %s", async (source) => {
    await expectStopsQuickly(source);
  });
});
