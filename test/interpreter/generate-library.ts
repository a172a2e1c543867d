// Generated statements for the forms and standard modules models bring (issue 19): decorators,
// lazy generator expressions with side effects, names such as `type(e).__name__`, top-level
// await, and collections, itertools, functools, operator, heapq, bisect, statistics, seeded
// random, string, textwrap, shlex, html, base64, hashlib, urllib.parse, copy, re, datetime.
//
// Everything printed is deterministic under CPython: no clock, no unseeded randomness, no
// identities, and sets only sorted. The surrounding program (generate.ts) defines a, d, s, t, x, y.
import type { Rng } from "./generate.js";

const IMPORTS = [
  "import collections, itertools, functools, operator, heapq, bisect, statistics, random, string, textwrap, shlex, html, base64, hashlib, copy, re, datetime, asyncio",
  "import urllib.parse",
  "from typing import Any, Optional",
].join("\n");

const TEXTS = ["'the quick brown fox jumps over the lazy dog'", "'a,b;c d'", "'2024-01-15 and 2023-12-31'", "'x=1&y=two&y=3'", "'Hello World'", "''", "'aaa bbb aaa'", "'é ü ß'"];
const NUMBER_LISTS = ["[3, 1, 4, 1, 5, 9, 2, 6]", "[1, 2, 3, 4]", "[2.5, 3.5, 1.0]", "[7]", "[10, 20, 30, 40, 50]", "[1, 1, 2, 3, 3, 3]", "[-1, 0, 1]"];
const PATTERNS = ["r'\\d+'", "r'(\\w+)@(\\w+)'", "r'[aeiou]'", "r'(?P<y>\\d{4})-(?P<m>\\d\\d)'", "r'\\s+'", "r'^a'", "r'o(x)?'", "r'\\bfox\\b'", "r'[A-Z]\\w*'"];

/** One statement that uses a library module or one of the new forms. */
export function library(r: Rng): string {
  const words = r.pick(TEXTS);
  const nums = r.pick(NUMBER_LISTS);
  switch (r.int(0, 27)) {
    case 0: return `c = collections.Counter(${words})\nprint(c.most_common(${r.int(1, 4)}), c[${r.pick(["'a'", "'z'", "' '"])}], sorted(c.elements())[:5])`;
    case 1: return `dd = collections.defaultdict(${r.pick(["list", "int", "set"])})\nfor i, w in enumerate(${words}.split()):\n    dd[w[:1]]${r.pick([".append(i)" , " += 1" , ".add(i)"].slice(0, 1))}\nprint(sorted(dd.items()), dd['?'])`;
    case 2: return `q = collections.deque(${nums}, maxlen=${r.int(2, 6)})\nq.${r.pick(["append(0)", "appendleft(0)", "rotate(2)", "rotate(-1)", "extend([8, 9])", "popleft()", "pop()"])}\nprint(q, list(q), len(q), ${r.pick(["q[0]", "q[-1]", "0 in q", "q.count(1)"])})`;
    case 3: return `P = collections.namedtuple('P', ${r.pick(["'x y'", "['x', 'y']", "'x, y'"])})\np = P(${r.pick(["1, 2", "x=3, y=4", "*'ab'"])})\nprint(p, p.x, p[1], p._asdict(), p._replace(x=0), p == (p.x, p.y), tuple(p))`;
    case 4: return `print(list(itertools.${r.pick([`islice(itertools.count(${r.int(0, 5)}), ${r.int(0, 6)})`, `chain(${nums}, 'ab')`, `accumulate(${nums})`, `accumulate(${nums}, operator.mul)`, `zip_longest(${nums}, 'abc', fillvalue='-')`, `pairwise(${nums})`, `combinations(${nums}[:4], 2)`, `permutations('abc', ${r.int(0, 3)})`, `product('ab', repeat=2)`, `takewhile(lambda v: v < 4, ${nums})`, `dropwhile(lambda v: v < 4, ${nums})`, `starmap(pow, [(2, 3), (3, 2)])`, `compress('abcdef', [1, 0, 1, 0, 1, 1])`, `filterfalse(lambda v: v % 2, ${nums})`, `combinations_with_replacement('ab', 2)`, "islice(itertools.cycle('xy'), 5)", "repeat('z', 3)"])}))`;
    case 5: return `print([(k, list(g)) for k, g in itertools.groupby(sorted(${words}.split(), key=len), key=len)])`;
    case 6: return `print(functools.reduce(${r.pick(["operator.add", "lambda p, q: p * q", "max", "operator.sub"])}, ${nums}${r.chance(0.3) ? ", 100" : ""}))`;
    case 7: return `add3 = functools.partial(${r.pick(["operator.add", "pow"])}, 3)\nprint(add3(${r.int(0, 4)}), sorted(${nums}, key=functools.cmp_to_key(lambda p, q: (q > p) - (q < p))))`;
    case 8: return `@functools.lru_cache(maxsize=None)\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nprint(fib(${r.int(0, 60)}), fib.cache_info().hits >= 0)`;
    case 9: return `def shout(f):\n    def wrapper(*args, **kwargs):\n        return str(f(*args, **kwargs)).upper()\n    return wrapper\n\n@shout\ndef greet(name${r.pick(["", "='world'"])}):\n    return f'hi {name}'\n\nprint(greet(${r.pick(["'ann'", "name='bob'"])}), greet.__name__)`;
    case 10: return `print(${r.pick(["operator.itemgetter(1)(a) if len(a) > 1 else 0", "sorted([(2, 'b'), (1, 'a'), (2, 'a')], key=operator.itemgetter(0, 1))", "list(map(operator.neg, range(3)))", "operator.attrgetter('real')(3) if False else 3", "operator.methodcaller('upper')(t) if isinstance(t, str) else t"])})`;
    case 11: return `h = list(${nums})\nheapq.heapify(h)\nheapq.heappush(h, ${r.int(-3, 9)})\nprint(h, heapq.heappop(h), heapq.nsmallest(2, h), heapq.nlargest(${r.int(1, 3)}, ${nums}))`;
    case 12: return `srt = sorted(${nums})\nprint(bisect.bisect_left(srt, ${r.int(0, 9)}), bisect.bisect_right(srt, ${r.int(0, 9)}))\nbisect.insort(srt, ${r.int(0, 9)})\nprint(srt)`;
    case 13: return `print(statistics.${r.pick(["mean", "median", "median_low", "median_high", "mode", "multimode", "pstdev", "pvariance", "fmean"])}(${nums}))`;
    case 14: return `print(statistics.${r.pick(["stdev", "variance", "quantiles"])}(${r.pick(NUMBER_LISTS.filter((l) => l.includes(",")))}))`;
    case 15: return `random.seed(${r.int(0, 1000)})\nprint(random.random(), random.randint(1, ${r.int(1, 100)}), random.choice(${nums}), random.randrange(${r.int(1, 50)}))\nbag = list(range(${r.int(1, 8)}))\nrandom.shuffle(bag)\nprint(bag, random.sample(range(20), 3), random.uniform(1, 2))`;
    case 16: return `print(string.capwords(${words}), string.Template('$who likes ${"${what}"}').${r.pick(["substitute(who='tim', what='kung pao')", "safe_substitute(who='tim')"])}, string.digits, string.ascii_lowercase[:5])`;
    case 17: return `print(textwrap.${r.pick([`wrap(${words}, ${r.int(5, 20)})`, `fill(${words}, width=${r.int(5, 20)})`, `shorten(${words}, width=${r.int(10, 30)})`, "dedent('    a\\n      b\\n    c')", "indent('a\\nb', '> ')"])})`;
    case 18: return `print(${r.pick(["shlex.split('a \"b c\" d\\\\ e')", "shlex.quote(\"it's\")", "shlex.join(['a b', 'c'])", "html.escape('<a href=\"x\">&</a>')", "html.unescape('&lt;p&gt; &amp;amp; &#39; &eacute;')"])})`;
    case 19: return `raw = ${words}.encode()\nenc = base64.${r.pick(["b64encode", "urlsafe_b64encode", "b32encode", "b16encode"])}(raw)\nprint(enc, base64.${r.pick(["b64decode", "urlsafe_b64decode"])}(base64.b64encode(raw)) == raw, hashlib.${r.pick(["md5", "sha1", "sha256"])}(raw).hexdigest())`;
    case 20: return `u = urllib.parse.urlparse(${r.pick(["'https://user@example.com:8080/a/b;p?q=1&r=2#frag'", "'http://x.org/path/'", "'/relative?x=1'", "'mailto:a@b.c'"])})\nprint(u.scheme, u.netloc, u.path, u.query, u.fragment, urllib.parse.parse_qs(u.query), urllib.parse.quote(${words}), urllib.parse.urlencode({'k': ${words}, 'n': 1}), urllib.parse.urljoin('http://a/b/c/d', ${r.pick(["'g'", "'../g'", "'/g'", "'?y'", "'//h/x'"])}))`;
    case 21: return `orig = {'k': [1, [2, 3]], 'j': a}\ncp = copy.${r.pick(["copy", "deepcopy"])}(orig)\ncp['k'][1].append(4)\nprint(orig, cp, cp['j'] is a)`;
    case 22: return `print(re.${r.pick(["findall", "split"])}(${r.pick(PATTERNS)}, ${words}), re.sub(${r.pick(PATTERNS)}, ${r.pick(["'#'", "r'<\\g<0>>'", "lambda m: m.group(0).upper()"])}, ${words}))`;
    case 23: return `m = re.${r.pick(["search", "match", "fullmatch"])}(${r.pick(PATTERNS)}, ${words}${r.chance(0.3) ? ", re.I" : ""})\nprint(m and (m.group(0), m.span(), m.groups()))`;
    case 24: {
      const day = `datetime.date(${r.int(1990, 2030)}, ${r.int(1, 12)}, ${r.int(1, 28)})`;
      return `dd0 = ${day}\ndd1 = dd0 + datetime.timedelta(days=${r.int(-400, 400)}, hours=${r.int(0, 30)})\nprint(dd0, dd1, repr(dd1 - dd0), dd1.isoformat(), dd1.weekday(), dd1.strftime('%Y/%m/%d %a %b %j'), dd0 < dd1)`;
    }
    case 25: return `when = datetime.datetime(${r.int(1990, 2030)}, ${r.int(1, 12)}, ${r.int(1, 28)}, ${r.int(0, 23)}, ${r.int(0, 59)}${r.chance(0.5) ? ", tzinfo=datetime.timezone.utc" : ""})\nprint(repr(when), when.isoformat(), when + datetime.timedelta(minutes=${r.int(0, 5000)}), datetime.datetime.fromisoformat(when.isoformat()) == when, when.replace(year=2000).year)`;
    case 26: return `seen = []\ndef check(v):\n    seen.append(v)\n    return v ${r.pick(["> 2", "== 1", "< 0", "% 2 == 0"])}\nprint(${r.pick(["any", "all", "next", "sum", "list", "max"])}(check(v) for v in ${nums}), seen)`;
    default: return `try:\n    ${r.pick(["1 / 0", "[][1]", "{}['k']", "int('z')", "None.x"])}\nexcept Exception as e:\n    print(type(e).__name__, e.__class__.__name__)`;
  }
}

/** A program of library statements: the imports, then 2 to 5 statements. */
export function libraryProgram(r: Rng, prelude: string[]): string {
  const lines = [IMPORTS, ...prelude];
  const n = r.int(2, 5);
  for (let i = 0; i < n; i++) lines.push(library(r));
  return lines.join("\n") + "\n";
}
