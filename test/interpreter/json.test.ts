// The json module against CPython 3.11: dumps output and loads results, errors and error
// positions, compared exactly on tables of calls and on random values, each table answered by
// one python3 run. Then what only the sandbox has: budgets and bounded nesting.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { EXC, PyException, pyError, ResourceLimitError } from "../../src/interpreter/errors.js";
import { JSON_MODULE } from "../../src/interpreter/modules/json.js";
import type { Kwargs, NativeContext, NativeFn } from "../../src/interpreter/native.js";
import { PyBytes, PyDict, PyList, PySet, typeName, type Value } from "../../src/interpreter/values.js";
import { flt, fromValue, int, lst, type Tagged, toValue, tup } from "./tagged.js";
import { testContext } from "./native-context.js";

// ------------------------------------------------------------------ a tagged encoding both sides read



const dct = (...pairs: [Tagged, Tagged][]): Tagged => ({ d: pairs });
const set = (...xs: Tagged[]): Tagged => ({ s: xs });
const bytes = (hex: string): Tagged => ({ b: hex });
const fn = (name: string): Tagged => ({ fn: name });

/** The callables a row may pass (default=, object_hook=...), on both sides. */
const FUNCTIONS: Record<string, (...args: Value[]) => Value> = {
  sorted: (o) => new PyList([...(o as PySet).values()].sort((a, b) => Number(a) - Number(b))),
  typename: (o) => typeName(o),
  same: (o) => o,
  hex: (o) => {
    if (!(o instanceof PyBytes)) throw pyError("AttributeError", `'${typeName(o)}' object has no attribute 'hex'`);
    return Buffer.from(o.bytes).toString("hex");
  },
  list: (o) => new PyList([...(o as PyList).items]),
  len: (o) => (o as PyDict).size,
  str: (o) => o,
  fail: () => {
    throw pyError("ValueError", "nope");
  },
};

const PY_FUNCTIONS = `
def _fail(o):
    raise ValueError('nope')
FUNCTIONS = {'sorted': sorted, 'typename': lambda o: type(o).__name__, 'same': lambda o: o, 'hex': lambda o: o.hex(),
             'list': list, 'len': len, 'str': str, 'fail': _fail}
`;

const valueOf = (t: Tagged): Value => toValue(t, FUNCTIONS);

// ------------------------------------------------------------------ running both sides

type Row = [fn: "dumps" | "loads" | "error_attrs", args: Tagged[], kwargs: Record<string, Tagged>];

const CPYTHON = `
import json, sys
sys.set_int_max_str_digits(0)
${PY_FUNCTIONS}
def dec(a):
    if a is None or isinstance(a, (bool, str)): return a
    (tag, v), = a.items()
    if tag == 'i': return int(v)
    if tag == 'f': return float.fromhex(v)
    if tag == 'l': return [dec(x) for x in v]
    if tag == 't': return tuple(dec(x) for x in v)
    if tag == 'd': return {dec(k): dec(x) for k, x in v}
    if tag == 's': return {dec(x) for x in v}
    if tag == 'fs': return frozenset(dec(x) for x in v)
    if tag == 'b': return bytes.fromhex(v)
    if tag == 'fn': return FUNCTIONS[v]
def enc(v):
    if v is None or isinstance(v, (bool, str)): return v
    if isinstance(v, int): return {'i': str(v)}
    if isinstance(v, float): return {'f': v.hex()}
    if isinstance(v, list): return {'l': [enc(x) for x in v]}
    if isinstance(v, tuple): return {'t': [enc(x) for x in v]}
    if isinstance(v, dict): return {'d': [[enc(k), enc(x)] for k, x in v.items()]}
    raise TypeError('cannot encode ' + repr(v))
# The tagged encoding nests twice as deep as the values and spells ints in full; only the call
# under test runs with the default recursion and int-digit limits.
sys.setrecursionlimit(20000)
out = []
for name, args, kwargs in json.load(sys.stdin):
    args = [dec(a) for a in args]
    kwargs = {k: dec(v) for k, v in kwargs.items()}
    sys.setrecursionlimit(1000)
    sys.set_int_max_str_digits(4300)
    try:
        if name == 'error_attrs':
            try:
                json.loads(*args)
                result = None
            except json.JSONDecodeError as e:
                result = [e.msg, e.pos, e.lineno, e.colno, e.doc == args[0]]
        else:
            result = getattr(json, name)(*args, **kwargs)
    except Exception as e:
        result = e
    finally:
        sys.setrecursionlimit(20000)
        sys.set_int_max_str_digits(0)
    out.append({'e': [type(result).__name__, str(result)]} if isinstance(result, Exception) else enc(result))
print(json.dumps(out))
`;

function cpython(rows: Row[]): Tagged[] {
  const run = spawnSync("python3", ["-c", CPYTHON], { input: JSON.stringify(rows), maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString()) as Tagged[];
}

/** A test context whose call() passes the arguments on (default=, object_hook=...). */
function context(limits: Parameters<typeof testContext>[0] = {}): NativeContext {
  const ctx = testContext({ max_steps: 1e9, ...limits });
  return { ...ctx, call: (f, args) => (f as unknown as (...a: Value[]) => Value)(...args) };
}

function ours([name, args, kwargs]: Row, ctx: NativeContext = context()): Tagged {
  const kw: Kwargs | null = Object.keys(kwargs).length ? new Map(Object.entries(kwargs).map(([k, v]) => [k, valueOf(v)])) : null;
  const values = args.map(valueOf);
  try {
    if (name === "error_attrs") {
      (JSON_MODULE.loads as NativeFn)(ctx, values, kw);
      return null;
    }
    return fromValue((JSON_MODULE[name] as NativeFn)(ctx, values, kw));
  } catch (error) {
    if (!(error instanceof PyException)) throw error;
    if (name === "error_attrs") {
      const a = error.attrs;
      return { l: [a.get("msg") as string, int(a.get("pos") as number), int(a.get("lineno") as number), int(a.get("colno") as number), a.get("doc") === values[0]] };
    }
    return { e: [error.type.name, String(error.args[0])] };
  }
}

function differences(rows: Row[], answers: Tagged[]): string[] {
  const out: string[] = [];
  rows.forEach((row, k) => {
    const mine = ours(row);
    if (JSON.stringify(mine) !== JSON.stringify(answers[k])) {
      out.push(`${row[0]}(${JSON.stringify(row[1])}, ${JSON.stringify(row[2])}): CPython ${JSON.stringify(answers[k])}, ours ${JSON.stringify(mine)}`);
    }
  });
  return out;
}

// ------------------------------------------------------------------ dumps: values x options

const nested = (depth: number, leaf: Tagged, wrap: (x: Tagged) => Tagged): Tagged => {
  let v = leaf;
  for (let k = 0; k < depth; k++) v = wrap(v);
  return v;
};

const manyKeys = (n: number, key: (k: number) => Tagged) => dct(...Array.from({ length: n }, (_, k) => [key((k * 37) % n), int(k)] as [Tagged, Tagged]));

const DUMP_VALUES: Tagged[] = [
  null, true, false, int(0), int(1), int(-1), int(2 ** 53), int(2n ** 53n + 1n), int(-(2n ** 63n)), int(10n ** 40n),
  int(10n ** 4299n), int(-(10n ** 4299n)), int(10n ** 4300n),
  flt(0), flt(-0), flt(1.5), flt(-2.25), flt(1e16), flt(1e-7), flt(1e22), flt(1.7976931348623157e308), flt(5e-324), flt(0.1 + 0.2),
  flt(123456789.123), flt(9999999999999998), flt(1e-5), flt(NaN), flt(Infinity), flt(-Infinity),
  "", "a", "hello world", "héllo", "\u2603", "😀", "a😀b", "\ud800", "\udfff", "\ud83d", "x\ude00y", "\u0000\u0001\u001f\u007f\u0080\u009f",
  "\n\r\t\b\f\v", '"\\/', "\u2028\u2029", "\ufeff", "\uffff", "日本語テキスト", "🇫🇷👩‍👩‍👧", 'mix "quoted" and \\back\\slash', "ÿ\u00e9t\u00e9",
  lst(), dct(), tup(), lst(int(1), flt(2.5), "three", null, true), tup(int(1), tup(int(2), lst())), lst(lst(), dct(), tup()),
  nested(30, int(1), (x) => lst(x)), nested(30, "leaf", (x) => dct(["k", x])), nested(10, lst(int(1), int(2)), (x) => lst(x, dct(["a", x]))),
  dct(["a", lst(int(1), int(2))], ["b", dct(["c", null])], ["", dct()]),
  dct([true, int(1)], [false, int(2)], [null, int(3)], [int(4), int(5)], [flt(1.5), int(6)], ["a", int(7)], [flt(NaN), int(8)],
    [flt(Infinity), int(9)], [flt(-Infinity), int(10)], [int(10n ** 30n), int(11)], [flt(-0), int(12)], [flt(1e16), int(13)]),
  dct([int(1), "a"], ["b", "c"]),
  dct(["b", "c"], [int(1), "a"], [null, "n"]),
  dct(["\uffff", int(1)], ["😀", int(2)], ["a", int(3)], ["é", int(4)], ["", int(5)], ["\ud800", int(6)]),
  dct([int(2), "a"], [flt(1.5), "b"], [true, "c"], [int(-1), "d"], [int(10n ** 20n), "e"], [flt(1e20), "f"]),
  dct(["x", int(1)], [tup(int(1), int(2)), int(2)], ["y", int(3)]),
  dct([tup(int(1)), "skip"], ["a", int(1)], ["b", int(2)]),
  dct(["a", int(1)], [bytes("6869"), int(2)]),
  dct([tup(), int(1)]),
  dct([true, "t"], [int(1), "one"]),
  manyKeys(70, (k) => `key${k}`),
  manyKeys(70, (k) => int(k * 1000 - 30000)),
  set(int(3), int(1), int(2)), { fs: [int(1)] }, bytes("00ff"), lst(int(1), set(int(2))), dct(["a", bytes("61")]),
];

const DUMP_OPTIONS: Record<string, Tagged>[] = [
  {}, { indent: int(2) }, { indent: int(0) }, { indent: "\t" }, { indent: "--" }, { indent: int(-1) }, { indent: true },
  { separators: lst(",", ":") }, { separators: tup(" , ", " : "), indent: int(3) }, { sort_keys: true }, { sort_keys: true, indent: int(1) },
  { ensure_ascii: false }, { ensure_ascii: false, indent: int(2) }, { allow_nan: false }, { allow_nan: false, indent: int(2) },
  { skipkeys: true }, { skipkeys: true, indent: int(2) }, { skipkeys: true, sort_keys: true }, { check_circular: false },
  { default: fn("typename") }, { default: fn("typename"), indent: int(1) },
];

const DUMP_EXTRA: Row[] = [
  ["dumps", [set(int(3), int(1), int(2))], { default: fn("sorted") }],
  ["dumps", [lst(bytes("00ff"), set(int(1)))], { default: fn("hex") }],
  ["dumps", [set(int(1))], { default: fn("same") }],
  ["dumps", [set(int(1))], { default: fn("same"), check_circular: false }],
  ["dumps", [set(int(1))], { default: fn("fail") }],
  ["dumps", [set(int(1))], { default: null }],
  ["dumps", [dct(["a", set(int(1))], [tup(int(1)), int(2)])], {}],
  ["dumps", [dct([tup(int(1)), int(2)], ["a", set(int(1))])], {}],
  ["dumps", [nested(900, int(1), (x) => lst(x))], {}],
  ["dumps", [nested(900, int(1), (x) => dct(["a", x]))], { indent: int(1) }],
  ["dumps", [int(1)], { foo: int(1) }],
  ["dumps", [int(1), int(2)], {}],
  ["dumps", [], {}],
  ["dumps", [], { obj: lst(int(1)) }],
  ["dumps", [lst(int(1))], { indent: flt(2.5) }],
  ["dumps", [lst(int(1))], { indent: lst() }],
  ["dumps", [lst(int(1), int(2))], { separators: tup(int(1), int(2)) }],
  ["dumps", [lst(int(1), int(2))], { separators: tup(int(1), ":") }],
  ["dumps", [lst(int(1), int(2))], { separators: lst(",") }],
  ["dumps", [lst(int(1), int(2))], { separators: lst(",", ":", ";") }],
  ["dumps", [lst(int(1), int(2))], { separators: ",:" }],
  ["dumps", [lst(int(1), int(2))], { separators: null, indent: int(2) }],
  ["dumps", [dct(["a", int(1)])], { separators: lst(",", ":"), indent: "" }],
  ["dumps", [lst(int(1))], { sort_keys: int(1), skipkeys: "", ensure_ascii: int(0), allow_nan: lst() }],
  ["dumps", [dct(["é", "😀"])], { ensure_ascii: int(0) }],
];

function dumpRows(): Row[] {
  const rows: Row[] = [];
  for (const v of DUMP_VALUES) for (const o of DUMP_OPTIONS) rows.push(["dumps", [v], o]);
  return [...rows, ...DUMP_EXTRA];
}

// ------------------------------------------------------------------ loads: documents

const VALID_DOCS = [
  "0", "-0", "1", "-1", "123", "9007199254740993", "-9007199254740993", "12345678901234567890123", "1" + "0".repeat(4299), "-" + "9".repeat(4300),
  "1" + "0".repeat(4300), "-" + "9".repeat(4301), "0.0", "-0.0", "1.5", "-2.25", "1e5", "1E5", "1e+5", "1e-5", "1.5e300", "1e400", "-1e400", "1e-400",
  "2.2250738585072014e-308", "4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "0.1", "0.30000000000000004",
  "9007199254740993.0", "1.7976931348623157e308", "1.7976931348623158e308", "123456789012345678901234567890e-10",
  "NaN", "Infinity", "-Infinity", "[NaN, Infinity, -Infinity]", "null", "true", "false",
  '""', '"a"', '"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\u0041\\u00e9\\u2603"', '"\\ud83d\\ude00"', '"\\uD83D\\uDE00"', '"\\ud800"', '"\\udfff"',
  '"\\ud800\\u0041"', '"\\ud800\\ud800"', '"\\ude00\\ud83d"', '"\\ud83dx\\ude00"', '"\\u0000"', '"é😀☃"', '"\x7f"', '"\u2028"',
  "[]", "{}", "[1, 2, 3]", '{"a": 1, "b": [true, false, null]}', ' \t\n\r[ 1 ,\n 2 ] \r\n', '{"a":1,"a":2,"b":3}', '{"b":1,"a":2,"b":3}',
  '{"": {"": {"": []}}}', '[[[[[]]]]]', '[{"x": [{"y": {}}]}]', "[" + "1,".repeat(200) + "1]", '{"😀": "😀", "\\u00e9": 1}',
  "[".repeat(900) + "]".repeat(900), '{"a":'.repeat(500) + "1" + "}".repeat(500),
];

const INVALID_DOCS = [
  "", " ", "  \t\n", "x", "nul", "tru", "fals", "nan", "infinity", "-infinity", "-Infinityx", "NaN1", "nulls", "true1", "\u00a01",
  "[", "[1", "[1,", "[1,]", "[,]", "[1,,2]", "[1 2]", "[1]]", "{", '{"a"', '{"a":', '{"a":1', '{"a":1,}', '{"a":1 "b":2}', '{"a" "b"}',
  "{1:2}", "{'a':1}", "{,}", '{"a":}', "{}}", "[] []", "1 2", "1.", "01", "-", "-0x", "1e", "1e+", "1.5e+", ".5", "+1", "0x10", "1_0",
  '"abc', '"\\', '"abc\\', '"abc\\u', '"\\u1234', '"\\u12', '"\\u12x4"', '"\\x"', '"\\U0041"', '"\\ud83d\\ude0"', '"\\ud83d\\ude0x"',
  '"\\ud83d\\"', '"\\ud83d\\u"', '"\\ud83d\\ude00', '"\x00"', '"\x1f"', '"a\tb"', '"a\nb"', "😀😀 x", '"😀😀\\q"', '["😀", 😀]',
  "\n\n  [1,\n 2 x]", "[1,\r\n2 x]", '{\n  "a": 1,\n  "b": 2\n  "c": 3\n}', "\ufeff1", "\ufeff", "[".repeat(100000), "[".repeat(1100) + "]".repeat(1100),
  '{"a":'.repeat(1100) + "1" + "}".repeat(1100), '{"a": [1, {"b": 2]}',
];

const utf16le = (s: string) => Buffer.from(s, "utf16le").toString("hex");
const utf16be = (s: string) => Buffer.from(s, "utf16le").swap16().toString("hex");

const BYTE_DOCS = [
  Buffer.from('{"a": "é😀"}').toString("hex"), "efbbbf" + Buffer.from("[1]").toString("hex"), "efbbbfefbbbf31", "fffe" + utf16le('"a"'),
  "feff" + utf16be('"a"'), utf16le('["a", 1]'), utf16be('["a", 1]'), utf16le("1"), utf16be("1"), "fffe0000" + "22000000" + "61000000" + "22000000",
  "0000feff" + "00000022" + "000000e9" + "00000022", "22000000" + "e9000000" + "22000000", "00000022" + "0001f600" + "00000022",
  "e282", "22e2822822", "22e22822", "22e0808022", "22eda08022", "22eda022", "22f09f9822", "22f09f988022", "22c0af22", "22f580808022",
  "22f490808022", "2280", "22c322", "22c3", "22f08f808022", "22edbfbf22", "22edbf22", "22edc022", "e2", "22e2", "22eda0", "22f09f", "22f09f98",
  "22e080", "22e0", "22ed9fbf22", "22ee808022", "22f48fbfbf22", "efbbbf22ff22", utf16le('"a"') + "31", "fffe" + utf16le('"a"') + "31",
  "fffe0000" + "22000000" + "61000000" + "22000000" + "31", "fffe0000" + "22000000" + "61000000" + "22000000" + "313233", utf16be('"a"') + "31",
  "feff0022d8000022", "fffe220000d8", "00000022001100000000002200", "", "31", "3132", "0031", "3100", "00", "0000", "6100", "00610062",
  "31320000", "22c2a022",
];

const HOOK_ROWS: Row[] = [
  ["loads", ['"\x00\x1f"'], { strict: false }],
  ["loads", ['"\x00"'], { strict: true }],
  ["loads", ['{"a": 1, "a": 2, "b": [1.5, 2]}'], { object_pairs_hook: fn("list") }],
  ["loads", ['{"a": {"b": 1}, "c": {}}'], { object_hook: fn("len") }],
  ["loads", ['{"a": {"b": 1}}'], { object_hook: fn("len"), object_pairs_hook: fn("list") }],
  ["loads", ["[1.5, 2, -0.0, 1e400, 3]"], { parse_float: fn("str") }],
  ["loads", ["[1.5, 2, -0, " + "9".repeat(5000) + "]"], { parse_int: fn("str") }],
  ["loads", ["[NaN, Infinity, -Infinity]"], { parse_constant: fn("str") }],
  ["loads", ["[1]"], { parse_int: fn("fail") }],
  ["loads", ["[1]"], { object_hook: null, parse_float: null, parse_int: null, parse_constant: null, object_pairs_hook: null }],
  ["loads", ["1"], { foo: int(1) }],
  ["loads", [int(5)], {}],
  ["loads", [null], {}],
  ["loads", [tup()], {}], // a dict or a list is returned as is (json-parsed.test.ts)
  ["loads", ["1", "2"], {}],
  ["loads", [], {}],
  ["loads", [], { s: "[1]" }],
];

function loadRows(): Row[] {
  return [
    ...[...VALID_DOCS, ...INVALID_DOCS].map((doc): Row => ["loads", [doc], {}]),
    ...BYTE_DOCS.map((hex): Row => ["loads", [bytes(hex)], {}]),
    ...INVALID_DOCS.filter((d) => d.length < 2000).map((doc): Row => ["error_attrs", [doc], {}]),
    ...HOOK_ROWS,
  ];
}

// ------------------------------------------------------------------ random values

const unit = fc.oneof(
  fc.constantFrom("a", "z", " ", '"', "\\", "/", "\n", "\t", "\u0000", "\u001f", "\u007f", "é", "\u2028", "\ufeff", "\uffff", "😀", "\ud800", "\udc00"),
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);
const text = fc.string({ unit, maxLength: 12 });
const scalar: fc.Arbitrary<Tagged> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer().map(int),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(int),
  fc.double().map(flt),
  text,
);
const key: fc.Arbitrary<Tagged> = fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: scalar.filter((k) => JSON.stringify(k) !== '{"f":"nan"}') });
const { value } = fc.letrec<{ value: Tagged }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("value"), { maxLength: 5 }).map((xs) => lst(...xs)),
    fc.array(tie("value"), { maxLength: 3 }).map((xs) => tup(...xs)),
    fc.array(fc.tuple(key, tie("value")), { maxLength: 5 }).map((pairs) => dct(...pairs)),
  ),
}));
const RANDOM_VALUES: Tagged[] = fc.sample(value, { numRuns: 400, seed: 20261129 });

/** Random damage to a valid document: a character deleted, inserted or replaced, or the end cut. */
function damaged(docs: string[]): string[] {
  const noise = ["", "[", "]", "{", "}", ",", ":", '"', "\\", "u", "1", "-", ".", "e", " ", "\n", "x", "n", "\u0000", "😀"];
  return fc.sample(
    fc.tuple(fc.constantFrom(...docs), fc.nat(), fc.constantFrom(...noise), fc.constantFrom("delete", "insert", "replace", "cut")),
    { numRuns: 500, seed: 7 },
  ).map(([doc, n, piece, how]) => {
    const at = doc.length === 0 ? 0 : n % doc.length;
    if (how === "delete") return doc.slice(0, at) + doc.slice(at + 1);
    if (how === "insert") return doc.slice(0, at) + piece + doc.slice(at);
    if (how === "replace") return doc.slice(0, at) + piece + doc.slice(at + 1);
    return doc.slice(0, at);
  });
}

// ------------------------------------------------------------------ the tests

describe("json.dumps against CPython 3.11", () => {
  const rows = dumpRows();
  let answers: Tagged[] = [];
  beforeAll(() => {
    answers = cpython(rows);
  });

  it("the table has hundreds of calls", () => {
    expect(rows.length).toBeGreaterThan(1000);
  });

  it("gives CPython's output or error for every value and combination of options", () => {
    expect(differences(rows, answers)).toEqual([]);
  });
});

describe("json.loads against CPython 3.11", () => {
  const rows = loadRows();
  let answers: Tagged[] = [];
  beforeAll(() => {
    answers = cpython(rows);
  });

  it("the table has hundreds of documents", () => {
    expect(rows.length).toBeGreaterThan(300);
  });

  it("gives CPython's value or error, with its line, column and char", () => {
    expect(differences(rows, answers)).toEqual([]);
  });
});

describe("json on random values", () => {
  const options: Record<string, Tagged>[] = [{}, { indent: int(2) }, { sort_keys: true }, { ensure_ascii: false }, { separators: tup(",", ":") }];
  const dumped = RANDOM_VALUES.map((v, k): Row => ["dumps", [v], options[k % options.length]!]);
  let dumpAnswers: Tagged[] = [];
  let damagedRows: Row[] = [];
  let damagedAnswers: Tagged[] = [];
  beforeAll(() => {
    dumpAnswers = cpython(dumped);
    const docs = dumpAnswers.filter((a): a is string => typeof a === "string");
    damagedRows = damaged(docs).map((doc): Row => ["loads", [doc], {}]);
    damagedAnswers = cpython(damagedRows);
  });

  it("dumps them as CPython does", () => {
    expect(differences(dumped, dumpAnswers)).toEqual([]);
  });

  it("loads(dumps(v)) gives v back", () => {
    fc.assert(
      fc.property(value, (v) => {
        const ctx = context();
        const text = (JSON_MODULE.dumps as NativeFn)(ctx, [valueOf(v)], null);
        const back = (JSON_MODULE.loads as NativeFn)(ctx, [text], null);
        const again = (JSON_MODULE.dumps as NativeFn)(ctx, [back], null);
        expect(again).toBe(text);
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it("loads damaged documents as CPython does: the same value or the same error at the same place", () => {
    expect(damagedRows.length).toBe(500);
    expect(differences(damagedRows, damagedAnswers)).toEqual([]);
  });
});

describe("json in the sandbox", () => {
  const dumps = (ctx: NativeContext, v: Value, kwargs: Record<string, Value> = {}) =>
    (JSON_MODULE.dumps as NativeFn)(ctx, [v], new Map(Object.entries(kwargs)));
  const loads = (ctx: NativeContext, s: Value) => (JSON_MODULE.loads as NativeFn)(ctx, [s], null);
  const outcome = (thunk: () => unknown): string => {
    try {
      thunk();
      return "ok";
    } catch (error) {
      if (error instanceof ResourceLimitError) return error.field;
      if (error instanceof PyException) return `${error.type.name}: ${String(error.args[0])}`;
      throw error;
    }
  };

  it("exports JSONDecodeError, a ValueError", () => {
    expect(JSON_MODULE.JSONDecodeError).toBe(EXC.JSONDecodeError);
    expect(EXC.JSONDecodeError.isSubclassOf(EXC.ValueError)).toBe(true);
    expect(Object.keys(JSON_MODULE).sort()).toEqual(["JSONDecodeError", "dumps", "loads"]);
  });

  it("refuses a list that contains itself", () => {
    const a = new PyList([1]);
    a.items.push(a);
    expect(outcome(() => dumps(context(), a))).toBe("ValueError: Circular reference detected");
    expect(outcome(() => dumps(context(), a, { indent: 2 }))).toBe("ValueError: Circular reference detected");
    expect(outcome(() => dumps(context(), a, { check_circular: false }))).toBe(
      "RecursionError: maximum recursion depth exceeded while encoding a JSON object",
    );
  });

  it("refuses a dict that contains itself through a list", () => {
    const d = new PyDict();
    d.set("self", new PyList([d]));
    expect(outcome(() => dumps(context(), d))).toBe("ValueError: Circular reference detected");
  });

  it("encodes the same list twice when it is shared but not circular", () => {
    const shared = new PyList([1, 2]);
    expect(dumps(context(), new PyList([shared, shared]))).toBe("[[1, 2], [1, 2]]");
  });

  it("ends deep nesting in a RecursionError, not a JS stack overflow", () => {
    let deep: Value = new PyList([]);
    for (let k = 0; k < 100_000; k++) deep = new PyList([deep]);
    expect(outcome(() => dumps(context(), deep))).toBe("RecursionError: maximum recursion depth exceeded while encoding a JSON object");
    expect(outcome(() => loads(context(), "[".repeat(1_000_000)))).toBe(
      "RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string",
    );
    expect(outcome(() => loads(context(), '{"a":'.repeat(1_000_000)))).toBe(
      "RecursionError: maximum recursion depth exceeded while decoding a JSON object from a unicode string",
    );
  });

  it("refuses cls=, which would need classes the sandbox does not have", () => {
    expect(outcome(() => dumps(context(), 1, { cls: "x" }))).toMatch(/^TypeError: json\.dumps\(\) does not support cls=/);
    expect(outcome(() => (JSON_MODULE.loads as NativeFn)(context(), ["1"], new Map([["cls", "x"]])))).toMatch(/^TypeError: json\.loads\(\)/);
    expect(dumps(context(), 1, { cls: null })).toBe("1");
  });

  it("fails fast when the output would outgrow the memory budget", () => {
    const chunk = "x".repeat(100_000);
    const huge = new PyList(Array.from({ length: 10_000 }, () => chunk));
    const started = performance.now();
    expect(outcome(() => dumps(context(), huge))).toBe("max_memory_bytes");
    expect(outcome(() => dumps(context({ max_memory_bytes: 1_000_000 }), 1, { indent: 10 ** 7 }))).toBe("max_memory_bytes");
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("charges a step per value and per 16 characters", () => {
    const many = new PyList(Array.from({ length: 200_000 }, (_, k) => k));
    expect(outcome(() => dumps(testContext(), many))).toBe("ok");
    expect(outcome(() => dumps(testContext({ max_steps: 100_000 }), many))).toBe("max_steps");
    const doc = "[" + Array.from({ length: 200_000 }, () => "1").join(",") + "]";
    expect(outcome(() => loads(testContext({ max_steps: 100_000 }), doc))).toBe("max_steps");
    const long = testContext();
    loads(long, JSON.stringify("y".repeat(160_000)));
    expect(long.budget.steps).toBeGreaterThanOrEqual(10_000);
  });

  it("refuses a multi-million-digit integer without converting it", () => {
    const started = performance.now();
    expect(outcome(() => loads(context(), "1".repeat(1_000_000)))).toMatch(/^ValueError: Exceeds the limit \(4300 digits\).*value has 1000000 digits/);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("passes object_hook and default through the interpreter's call", () => {
    const seen: Value[] = [];
    const ctx = { ...context(), call: (_f: Value, args: Value[]) => (seen.push(args[0]!), "hooked") };
    expect(dumps(ctx, new PySet(), { default: "f" })).toBe('"hooked"');
    expect((JSON_MODULE.loads as NativeFn)(ctx, ['{"a": 1}'], new Map([["object_hook", "f"]]))).toBe("hooked");
    expect(seen.map(typeName)).toEqual(["set", "dict"]);
  });
});
