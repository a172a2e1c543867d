// str methods, differential against CPython: a table of calls (receiver, method, arguments) runs
// here and in one python3 process, and the results must be equal (exception types for errors).
// Then every code point's case mappings and character classes, and the budget on large results.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PyException, ResourceLimitError } from "../../src/interpreter/errors.js";
import { maketrans, STR_METHODS } from "../../src/interpreter/methods/str.js";
import type { Kwargs } from "../../src/interpreter/native.js";
import { PyBytes, PyDict, PyFloat, PyList, PyTuple, type Value } from "../../src/interpreter/values.js";
import { testContext } from "./native-context.js";

// ------------------------------------------------------------------ values as tagged JSON

type Tagged = null | boolean | string | { i: string } | { f: string } | { t: Tagged[] } | { l: Tagged[] } | { d: [Tagged, Tagged][] } | { b: string };

function tag(v: Value): Tagged {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint") return { i: String(v) };
  if (v instanceof PyFloat) return { f: String(v.v) };
  if (v instanceof PyTuple) return { t: v.items.map(tag) };
  if (v instanceof PyList) return { l: v.items.map(tag) };
  if (v instanceof PyDict) return { d: [...v.entries()].map(([k, x]) => [tag(k), tag(x)] as [Tagged, Tagged]) };
  if (v instanceof PyBytes) return { b: Buffer.from(v.bytes).toString("hex") };
  throw new Error(`cannot tag ${String(v)}`);
}

const PYTHON_PRELUDE = String.raw`
import json, sys
def dec(v):
    if isinstance(v, dict):
        (k, x), = v.items()
        if k == 'i': return int(x)
        if k == 'f': return float(x)
        if k == 't': return tuple(dec(y) for y in x)
        if k == 'l': return [dec(y) for y in x]
        if k == 'd': return {dec(a): dec(b) for a, b in x}
        if k == 'b': return bytes.fromhex(x)
    return v
def enc(v):
    if v is None or isinstance(v, (bool, str)): return v
    if isinstance(v, int): return {'i': str(v)}
    if isinstance(v, float): return {'f': repr(v)}
    if isinstance(v, tuple): return {'t': [enc(y) for y in v]}
    if isinstance(v, list): return {'l': [enc(y) for y in v]}
    if isinstance(v, dict): return {'d': [[enc(a), enc(b)] for a, b in v.items()]}
    if isinstance(v, bytes): return {'b': v.hex()}
    raise TypeError(type(v))
data = json.loads(sys.stdin.buffer.read().decode('utf-8'))
`;

function python(script: string, input: unknown): unknown {
  const run = spawnSync("python3", ["-c", PYTHON_PRELUDE + script], {
    input: JSON.stringify(input),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

// ------------------------------------------------------------------ the call table

interface Call {
  self: string;
  method: string;
  args: Value[];
  kwargs?: Record<string, Value>;
}

/** How many calls of the last table raised in CPython (the table must exercise errors too). */
let errorsSeen = 0;

type Outcome = { ok: Tagged } | { error: string };

function runOurs(call: Call): Outcome {
  const ctx = testContext();
  const kwargs: Kwargs | null = call.kwargs ? new Map(Object.entries(call.kwargs)) : null;
  try {
    return { ok: tag(STR_METHODS[call.method]!(ctx, call.self, call.args, kwargs)) };
  } catch (e) {
    if (e instanceof PyException) return { error: e.type.name };
    throw e;
  }
}

function runCpython(calls: Call[]): Outcome[] {
  const script = String.raw`
out = []
for recv, method, args, kwargs in data:
    try:
        r = getattr(recv, method)(*[dec(a) for a in args], **{k: dec(v) for k, v in kwargs.items()})
        out.append({'ok': enc(r)})
    except Exception as e:
        out.append({'error': type(e).__name__})
print(json.dumps(out))
`;
  const input = calls.map((c) => [c.self, c.method, c.args.map(tag), Object.fromEntries(Object.entries(c.kwargs ?? {}).map(([k, v]) => [k, tag(v)]))]);
  return python(script, input) as Outcome[];
}

function differences(calls: Call[]): string[] {
  const theirs = runCpython(calls);
  errorsSeen = theirs.filter((t) => "error" in t).length;
  const out: string[] = [];
  calls.forEach((call, i) => {
    const ours = runOurs(call);
    const expected = theirs[i]!;
    if (JSON.stringify(ours) !== JSON.stringify(expected)) {
      const kw = call.kwargs ? ` ${JSON.stringify(call.kwargs)}` : "";
      out.push(`${JSON.stringify(call.self)}.${call.method}(${JSON.stringify(call.args.map(tag))}${kw}): ours ${JSON.stringify(ours)}, CPython ${JSON.stringify(expected)}`);
    }
  });
  return out;
}

const RECEIVERS = [
  "",
  "abc",
  "a",
  "Hello, World!",
  "  leading and trailing  ",
  "a,b,,c,",
  "aaaa",
  "ß",
  "straße STRASSE",
  "İstanbul ıi",
  "ΑΣ ΣΑΣ ΟΔΟΣ. Σ",
  "ὈΔΥΣΣΕΎΣ",
  "ΑΣ'Α ΑΣ\u0301",
  "café Café CAFÉ",
  "cafe\u0301",
  "日本語のテキスト、です。",
  "שלום עולם",
  "مرحبا بالعالم ٣٤٥",
  "😀a😀b😀",
  "a😀😀b😀",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝕿𝖊𝖝𝖙 𐐀𐐨",
  "a\tb\tc\n\td\r\te😀\tf",
  "line1\nline2\r\nline3\rline4\x0bline5\x0c\x1cx\x1dy\x1ez\x85w\u2028v\u2029end\n",
  "\n\n",
  "ǅungla ǆ Ǆ ǈ",
  "ﬁne ﬂow ﬃ",
  "they're bill's friends from the UK",
  "hello world",
  "Hello World",
  "HELLO WORLD",
  "123",
  "-42",
  "+7",
  "²³①⑴",
  "一二三百",
  "٣٤٥",
  "ⅫⅦ",
  "\u00a0\u2003\u3000 \t",
  "\x1c\x1d\x1e\x1f\x85",
  "\ufeff",
  "x\u200by",
  "A1b2C3",
  "_ident",
  "ident9_ä",
  "1abc",
  "ab\x00cd\x7f",
  "ǰŉΐ",
  "ꭰꮒ Ꭰ ᏸ",
  "Σ",
  "ΣΑ",
  "ᾳ ᾼ ῳ ᾀ ᾈ",
  "ა ბ გ",
  "Ⓐⓑ",
  "ʰello",
  "a\ud800b",
  "\udc00x",
  "µſ",
  "the quick brown fox jumps over the lazy dog",
  "they're BILL's 3rd-place x_y\tZ",
  // Long enough for strings.ts's cached path: two-byte without surrogates, and astral.
  "中文 text, ΣΑΣ\t".repeat(120),
  "a😀b, 𝔘Σ \t".repeat(150),
];

const NO_ARG_METHODS = [
  "capitalize",
  "casefold",
  "lower",
  "upper",
  "swapcase",
  "title",
  "isalnum",
  "isalpha",
  "isascii",
  "isdecimal",
  "isdigit",
  "isidentifier",
  "islower",
  "isnumeric",
  "isprintable",
  "isspace",
  "istitle",
  "isupper",
  "splitlines",
  "split",
  "rsplit",
  "strip",
  "lstrip",
  "rstrip",
  "expandtabs",
  "encode",
];

type ArgSet = [Value[], Record<string, Value>?];

const SUBS = ["a", "", "😀", "b", "ΣΑ", "Σ", "aa", "\udc00", ", ", "o"];
const BOUNDS: Value[][] = [[], [1], [-3], [1, -1], [null, 2], [100], [-100, 100], [2n ** 70n], [null, -(2n ** 70n)], [true], [4, 2], [0, 0]];

const ARGS: Record<string, ArgSet[]> = {
  center: [[[0]], [[5]], [[20]], [[-1]], [[10, "*"]], [[11, "😀"]], [[10, "ab"]], [[10, ""]], [[10, 1]], [["5"]], [[]], [[5], { fillchar: "x" }]],
  ljust: [[[7]], [[9, "."]], [[9, "ab"]], [[2n ** 70n]], [[3.5 as unknown as Value]]],
  rjust: [[[7]], [[9, "."]], [[9, "😀"]], [[true]]],
  zfill: [[[0]], [[8]], [[3]], [["x"]], [[]]],
  count: [...SUBS.flatMap((sub) => BOUNDS.map((b): ArgSet => [[sub, ...b]])), [[1]], [[]], [["a", "x"]], [["a", 1.5 as unknown as Value]]],
  find: [...SUBS.flatMap((sub) => BOUNDS.map((b): ArgSet => [[sub, ...b]])), [[1]], [[]], [["a", 1, 2, 3]]],
  rfind: SUBS.flatMap((sub) => BOUNDS.map((b): ArgSet => [[sub, ...b]])),
  index: SUBS.flatMap((sub) => BOUNDS.slice(0, 6).map((b): ArgSet => [[sub, ...b]])),
  rindex: SUBS.flatMap((sub) => BOUNDS.slice(0, 6).map((b): ArgSet => [[sub, ...b]])),
  startswith: [
    ...["a", "", "H", "😀", "\ud83d", "Hello", "ab"].flatMap((p) => BOUNDS.map((b): ArgSet => [[p, ...b]])),
    [[new PyTuple(["x", "H", "a"])]],
    [[new PyTuple([])]],
    [[new PyTuple(["zz", 1])]],
    [[new PyTuple([""]), 1]],
    [[1]],
    [[new PyList(["a"])]],
  ],
  endswith: [
    ...["c", "", "!", "😀", "\ude00", "end\n", "ab"].flatMap((p) => BOUNDS.map((b): ArgSet => [[p, ...b]])),
    [[new PyTuple(["x", "!", "c"])]],
    [[new PyTuple(["c", 1])]],
    [[1]],
  ],
  split: [
    [[null, 1]],
    [[null, 0]],
    [[null, 2]],
    [[","]],
    [[",", 1]],
    [[" "]],
    [[" ", -1]],
    [["😀"]],
    [["😀", 1]],
    [["aa"]],
    [["\udc00"]],
    [[""]],
    [[1]],
    [[], { sep: ",", maxsplit: 1 }],
    [[], { maxsplit: 1 }],
    [[], { maxsplit: 10n ** 30n }],
    [[null, 1.5 as unknown as Value]],
    [[], { bogus: 1 }],
    [[",", 1, 2]],
  ],
  rsplit: [[[null, 1]], [[null, 0]], [[","]], [[",", 1]], [["😀", 1]], [["aa"]], [["aa", 1]], [[""]], [[], { sep: " ", maxsplit: 2 }], [[1]]],
  splitlines: [[[true]], [[false]], [[], { keepends: true }], [[], { keepends: 1 }], [["x"]], [[], { keepends: null }]],
  partition: [[[","]], [[" "]], [["😀"]], [["aa"]], [["Σ"]], [[""]], [[1]], [[]]],
  rpartition: [[[","]], [[" "]], [["😀"]], [["aa"]], [[""]], [[1]]],
  strip: [[[null]], [[" a"]], [["😀a"]], [["ab"]], [["\n"]], [["ΣΑ "]], [[""]], [[1]]],
  lstrip: [[[" a"]], [["😀a"]], [["Hl"]], [[1]]],
  rstrip: [[[" !"]], [["😀b"]], [["\n"]], [[1]]],
  replace: [
    [["a", "X"]],
    [["", "-"]],
    [["", "-", 2]],
    [["", "😀", 0]],
    [["a", "", 1]],
    [["😀", "E"]],
    [["Σ", "S", 0]],
    [["a", "b", -5]],
    [["aa", "a"]],
    [["\udc00", "L"]],
    [["\ud83d", "H"]],
    [[", ", "|", 1]],
    [[1, "a"]],
    [["a", 1]],
    [["a"]],
    [["a", "b", "c"]],
    [["a", "b"], { count: 1 }],
  ],
  expandtabs: [[[4]], [[0]], [[-1]], [[1]], [[], { tabsize: 2 }], [["x"]], [[1, 2]]],
  encode: [
    [["ascii"]],
    [["ascii", "ignore"]],
    [["ascii", "replace"]],
    [["latin-1"]],
    [["latin-1", "xmlcharrefreplace"]],
    [["ascii", "backslashreplace"]],
    [["utf-8", "surrogatepass"]],
    [["utf-8", "surrogateescape"]],
    [["ascii", "surrogateescape"]],
    [["utf-8", "ignore"]],
    [["utf-8", "replace"]],
    [[], { encoding: "utf-8", errors: "strict" }],
    [[], { errors: "ignore" }],
    [["UTF8"]],
    [["Latin1"]],
    [["US-ASCII"]],
    [["iso-8859-1", "replace"]],
    [["foo"]],
    [["ascii", "foo"]],
    [[1]],
    [["utf-8", 1]],
  ],
  translate: [
    [[dict([[97, "A"], [98, null], [99, 100], [0x1f600, "smile"], [0x3a3, "S"], [32, "__"]])]],
    [[dict([[97, 1.5 as unknown as Value]])]],
    [[dict([[97, 0x110000]])]],
    [[dict([[97, -1]])]],
    [[dict([["a", "b"]])]],
    [[dict([[97, true]])]],
    [[new PyList(["zero", null, "two"])]],
    [[new PyTuple([])]],
    [[new PyDict()]],
  ],
  join: [
    [[new PyList(["x", "y", "z"])]],
    [[new PyList([])]],
    [[new PyList(["solo"])]],
    [[new PyList(["a", 1])]],
    [[new PyTuple(["a", "😀", "b"])]],
    [["xyz"]],
    [["😀é"]],
    [[dict([["k1", 1], ["k2", 2]])]],
    [[]],
  ],
  removeprefix: [[["a"]], [[""]], [["Hello"]], [["😀"]], [["\ud83d"]], [["  "]], [[1]]],
  removesuffix: [[["c"]], [[""]], [["!"]], [["😀"]], [["\ude00"]], [["end\n"]], [[1]]],
  maketrans: [
    [["abc", "xyz"]],
    [["ab", "xyz"]],
    [["a😀", "b😀", "cd"]],
    [[dict([["a", "b"], [98, null], [true, "t"]])]],
    [[dict([["ab", 1]])]],
    [[dict([[1.5 as unknown as Value, 1]])]],
    [[1]],
    [[1, "a"]],
    [["a", 1]],
    [["a", "b", 1]],
    [[]],
  ],
};

function dict(entries: [Value, Value][]): PyDict {
  const d = new PyDict();
  for (const [k, v] of entries) d.set(k, v);
  return d;
}

// Float arguments above are written as numbers for brevity; box them as Python floats.
function boxFloats(v: Value): Value {
  if (typeof v === "number" && !Number.isInteger(v)) return new PyFloat(v);
  if (v instanceof PyDict) return dict([...v.entries()].map(([k, x]) => [boxFloats(k), boxFloats(x)]));
  return v;
}

function buildTable(): Call[] {
  const calls: Call[] = [];
  for (const self of RECEIVERS) {
    for (const method of NO_ARG_METHODS) calls.push({ self, method, args: [] });
    for (const [method, sets] of Object.entries(ARGS)) {
      for (const [args, kwargs] of sets) {
        calls.push({
          self,
          method,
          args: args.map(boxFloats),
          kwargs: kwargs && Object.fromEntries(Object.entries(kwargs).map(([k, v]) => [k, boxFloats(v)])),
        });
      }
    }
  }
  // Methods without arguments refuse them.
  for (const method of ["upper", "isalpha", "title", "casefold"]) {
    calls.push({ self: "a", method, args: [1] }, { self: "a", method, args: [], kwargs: { x: 1 } });
  }
  return calls;
}

describe("str methods agree with CPython", () => {
  it("on a table of calls over unicode, edge cases and errors", () => {
    const calls = buildTable();
    expect(calls.length).toBeGreaterThan(5000);
    expect(differences(calls)).toEqual([]);
    expect(errorsSeen).toBeGreaterThan(500);
    expect(errorsSeen).toBeLessThan(calls.length / 2);
  });

  it("has every str method of Python 3.11 but format and format_map", () => {
    const theirs = python(
      "print(json.dumps(sorted(m for m in dir(str) if not m.startswith('_') and m not in ('format', 'format_map'))))",
      null,
    );
    expect(Object.keys(STR_METHODS).sort()).toEqual(theirs);
  });
});

// ------------------------------------------------------------------ every code point

// Characters whose Unicode data changed after Unicode 14.0 (CPython 3.11) in ways JS (Node's
// ICU, Unicode 15+) reflects: new case mappings, Lowercase and XID_Continue changes.
const UNICODE_VERSION_CHANGES = new Set([0x19b, 0x264, 0xa7d3, 0xa7d5, 0x295, 0x10fc, 0xa7f2, 0xa7f3, 0xa7f4, 0xab69, 0x200c, 0x200d, 0x30fb, 0xff65]);

interface UnicodeTables {
  /** The code points CPython 3.11 has assigned (surrogates and private use left out), as ranges. */
  assigned: [number, number][];
  /** For each predicate, "0"/"1" per assigned code point, in order. */
  classes: Record<string, string>;
  /** upper, lower, title, capitalize, swapcase, casefold of each code point that any of them changes. */
  cases: Record<string, string[]>;
}

const CASE_METHODS = ["upper", "lower", "title", "capitalize", "swapcase", "casefold"];
const PREDICATES = ["isalpha", "isdecimal", "isdigit", "isnumeric", "isalnum", "isspace", "isprintable", "isupper", "islower", "istitle", "isidentifier"];

function unicodeTables(): UnicodeTables {
  return python(
    String.raw`
import unicodedata
assigned, cps, start = [], [], None
for cp in range(0x110001):
    ok = cp < 0x110000 and not (0xd800 <= cp < 0xe000) and unicodedata.category(chr(cp)) not in ('Cn', 'Co')
    if ok: cps.append(cp)
    if ok and start is None: start = cp
    if not ok and start is not None: assigned.append([start, cp - 1]); start = None
chars = [chr(cp) for cp in cps]
classes = {name: ''.join(['01'[getattr(str, name)(c)] for c in chars]) for name in data['predicates']}
classes['continue'] = ''.join(['01'[('a' + c).isidentifier()] for c in chars])
cases = {}
for c in chars:
    r = [c.upper(), c.lower(), c.title(), c.capitalize(), c.swapcase(), c.casefold()]
    if r != [c] * 6: cases[ord(c)] = r
print(json.dumps({'assigned': assigned, 'classes': classes, 'cases': cases}))
`,
    { predicates: PREDICATES },
  ) as UnicodeTables;
}

/** Each assigned code point with its position among them, leaving out those whose data changed. */
function* codePoints(ranges: [number, number][]): Generator<[number, number]> {
  let k = 0;
  for (const [a, b] of ranges) {
    for (let cp = a; cp <= b; cp++, k++) if (!UNICODE_VERSION_CHANGES.has(cp)) yield [cp, k];
  }
}

describe("every code point", () => {
  const tables = unicodeTables();
  const ctx = testContext({ max_steps: 1e12 });

  it("covers every code point CPython 3.11 has assigned", () => {
    const count = tables.assigned.reduce((n, [a, b]) => n + b - a + 1, 0);
    expect(count).toBeGreaterThan(140_000);
    for (const name of [...PREDICATES, "continue"]) expect(tables.classes[name]!.length).toBe(count);
  });

  it("maps case as CPython does (upper, lower, title, capitalize, swapcase, casefold)", () => {
    const bad: string[] = [];
    for (const [cp] of codePoints(tables.assigned)) {
      const ch = String.fromCodePoint(cp);
      const expected = tables.cases[cp] ?? CASE_METHODS.map(() => ch);
      CASE_METHODS.forEach((m, k) => {
        const ours = STR_METHODS[m]!(ctx, ch, [], null);
        if (ours !== expected[k]) bad.push(`U+${cp.toString(16)} ${m}: ours ${JSON.stringify(ours)}, CPython ${JSON.stringify(expected[k])}`);
      });
    }
    expect(bad).toEqual([]);
  });

  it("classifies as CPython does (isalpha, isdigit, isspace, isupper...), and 'a' + c as an identifier", () => {
    const bad: string[] = [];
    for (const name of [...PREDICATES, "continue"]) {
      const expected = tables.classes[name]!;
      const method = STR_METHODS[name === "continue" ? "isidentifier" : name]!;
      for (const [cp, k] of codePoints(tables.assigned)) {
        const ch = String.fromCodePoint(cp);
        const ours = method(ctx, name === "continue" ? "a" + ch : ch, [], null);
        if (ours !== (expected[k] === "1")) bad.push(`U+${cp.toString(16)} ${name}: ours ${String(ours)}`);
      }
    }
    expect(bad.slice(0, 50)).toEqual([]);
  });
});

// ------------------------------------------------------------------ multi-character case mapping

describe("case mapping of words", () => {
  it("agrees with CPython on final sigma, titlecase digraphs and combining marks in context", () => {
    const words = [
      "ΟΔΟΣ ΟΔΟΣ. ΣΟΦΟΣ",
      "ΑΣ\u0301Α",
      "Α\u0301Σ",
      "ΑΣ'",
      "'Σ",
      "Σ'Α",
      "ΑΣΣ",
      "Σ",
      "aΣb aΣ",
      "1Σ Σ1 Α1Σ",
      "ǄEMAL ǆemal",
      "n\u0300x ñx",
      "o'neil mcDONALD von NEUMANN",
      "ﬁsh ßig İİ",
      "hello_world-foo bar",
      "ÉCOLE école",
      "ᾈᾀ ᾳᾳ",
      "ΐΰ",
      "𐐀𐐁 𐐨𐐩",
      "Ⓐⓑⓒ",
    ];
    const calls: Call[] = words.flatMap((self) => ["lower", "upper", "title", "capitalize", "swapcase", "casefold", "istitle", "isupper", "islower"].map((method) => ({ self, method, args: [] })));
    expect(differences(calls)).toEqual([]);
  });
});

// ------------------------------------------------------------------ budget

describe("budget", () => {
  const expectLimit = (fn: () => unknown, field: string) => {
    const started = Date.now();
    let error: unknown;
    try {
      fn();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ResourceLimitError);
    expect((error as ResourceLimitError).field).toBe(field);
    expect(Date.now() - started).toBeLessThan(500);
  };
  const call = (self: string, method: string, args: Value[], limits = {}) => STR_METHODS[method]!(testContext(limits), self, args, null);

  it("refuses padding to a huge width before building it", () => {
    expectLimit(() => call("x", "center", [10 ** 9]), "max_memory_bytes");
    expectLimit(() => call("x", "ljust", [10 ** 9, "😀"]), "max_memory_bytes");
    expectLimit(() => call("x", "rjust", [2 ** 40]), "max_memory_bytes");
    expectLimit(() => call("-1", "zfill", [10 ** 9]), "max_memory_bytes");
  });

  it("refuses a replace whose result is too large", () => {
    expectLimit(() => call("ab".repeat(50_000), "replace", ["", "x".repeat(1000)]), "max_memory_bytes");
    expectLimit(() => call("a".repeat(100_000), "replace", ["a", "b".repeat(1000)]), "max_memory_bytes");
  });

  it("refuses a join whose result is too large", () => {
    const items = new PyList(Array.from({ length: 100_000 }, () => "a".repeat(1000)));
    expectLimit(() => call(",", "join", [items]), "max_memory_bytes");
  });

  it("refuses expandtabs, translate and encode results that are too large", () => {
    expectLimit(() => call("\t\t", "expandtabs", [10 ** 9]), "max_memory_bytes");
    const huge = "b".repeat(20_000_000);
    expectLimit(() => call("aaa", "translate", [dict([[97, huge]])], { max_steps: 1e9 }), "max_memory_bytes");
    expectLimit(() => call("é".repeat(1000), "encode", ["ascii", "xmlcharrefreplace"], { max_memory_bytes: 4096 }), "max_memory_bytes");
  });

  it("charges steps in proportion to the length scanned", () => {
    expectLimit(() => call("a".repeat(100_000), "upper", [], { max_steps: 1000 }), "max_steps");
    expectLimit(() => call("a b ".repeat(50_000), "split", [], { max_steps: 1000 }), "max_steps");
    expectLimit(() => call("abc".repeat(50_000), "find", ["z"], { max_steps: 1000 }), "max_steps");
    const ctx = testContext();
    STR_METHODS.upper!(ctx, "a".repeat(1600), [], null);
    expect(ctx.budget.steps).toBeGreaterThanOrEqual(100);
    expect(ctx.budget.steps).toBeLessThan(200);
  });

  it("charges maketrans per character", () => {
    const ctx = testContext();
    maketrans(ctx, ["abc", "xyz"], null);
    expect(ctx.budget.steps).toBeGreaterThanOrEqual(3);
  });
});
