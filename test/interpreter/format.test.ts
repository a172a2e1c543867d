// Differential tests of format(), the % operator and str.format against CPython: each table is sent
// to python3 once (values tagged in JSON so that floats and big ints survive exactly), and our
// output must equal CPython's, or our exception must have CPython's type and message.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PyException, ResourceLimitError } from "../../src/interpreter/errors.js";
import { formatValue, percentFormat, strFormat } from "../../src/interpreter/format.js";
import { floatRepr, repr, str } from "../../src/interpreter/repr.js";
import { SliceValue } from "../../src/interpreter/ops.js";
import {
  normInt,
  PyBytes,
  PyDict,
  PyFloat,
  PyList,
  PyRange,
  PySet,
  PyTuple,
  type Value,
} from "../../src/interpreter/values.js";
import { disagreements } from "./cpython.js";
import { testContext } from "./native-context.js";

// ------------------------------------------------------------------ values in JSON

type Encoded =
  | { int: string }
  | { float: string }
  | { str: string }
  | { bool: boolean }
  | { none: null }
  | { list: Encoded[] }
  | { tuple: Encoded[] }
  | { dict: [Encoded, Encoded][] }
  | { bytes: number[] }
  | { range: [number, number, number] }
  | { set: Encoded[] };

function encode(v: Value): Encoded {
  if (typeof v === "number" || typeof v === "bigint") return { int: String(v) };
  if (typeof v === "string") return { str: v };
  if (typeof v === "boolean") return { bool: v };
  if (v === null) return { none: null };
  if (v instanceof PyFloat) return { float: floatRepr(v.v) };
  if (v instanceof PyList) return { list: v.items.map(encode) };
  if (v instanceof PyTuple) return { tuple: v.items.map(encode) };
  if (v instanceof PyDict) return { dict: [...v.entries()].map(([k, x]) => [encode(k), encode(x)]) };
  if (v instanceof PyBytes) return { bytes: [...v.bytes] };
  if (v instanceof PyRange) return { range: [v.start, v.stop, v.step] };
  if (v instanceof PySet) return { set: [...v.values()].map(encode) };
  throw new Error(`cannot encode ${String(v)}`);
}

const ORACLE = `
import json, sys
def dec(e):
    (tag, x), = e.items()
    if tag == 'int': return int(x)
    if tag == 'float': return float(x)
    if tag in ('str', 'bool'): return x
    if tag == 'none': return None
    if tag == 'list': return [dec(i) for i in x]
    if tag == 'tuple': return tuple(dec(i) for i in x)
    if tag == 'dict': return {dec(k): dec(v) for k, v in x}
    if tag == 'bytes': return bytes(x)
    if tag == 'range': return range(*x)
    if tag == 'set': return set(dec(i) for i in x)
def run(c):
    if c['op'] == 'format': return format(dec(c['value']), c['spec'])
    if c['op'] == 'percent': return c['template'] % dec(c['args'])
    return c['template'].format(*[dec(a) for a in c['args']], **{k: dec(v) for k, v in c['kwargs'].items()})
out = []
for c in json.load(sys.stdin):
    try:
        out.append({'ok': run(c)})
    except Exception as e:
        out.append({'error': [type(e).__name__, str(e)]})
print(json.dumps(out))
`;

type Outcome = { ok: string } | { error: [string, string] };

interface Case {
  label: string;
  op: "format" | "percent" | "str.format";
  json: Record<string, unknown>;
  ours: () => string;
}

function cpython(cases: Case[]): Outcome[] {
  const input = JSON.stringify(cases.map((c) => ({ op: c.op, ...c.json })));
  const run = spawnSync("python3", ["-c", ORACLE], { input, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Outcome[];
}

function ours(c: Case): Outcome {
  try {
    return { ok: c.ours() };
  } catch (e) {
    if (e instanceof PyException) return { error: [e.type.name, e.message((v) => str(v), (v) => repr(v))] };
    throw e;
  }
}

/** Runs a table through both implementations; returns the differences (empty when all agree). */
function differences(cases: Case[]): string[] {
  return disagreements(cases, cpython(cases), ours, (c) => c.label);
}

const ctx = () => testContext({ max_steps: 100_000_000 });

function formatCase(value: Value, spec: string): Case {
  return {
    label: `format(${repr(value)}, ${JSON.stringify(spec)})`,
    op: "format",
    json: { value: encode(value), spec },
    ours: () => formatValue(ctx(), value, spec),
  };
}

function percentCase(template: string, args: Value): Case {
  return {
    label: `${JSON.stringify(template)} % ${repr(args)}`,
    op: "percent",
    json: { template, args: encode(args) },
    ours: () => percentFormat(ctx(), template, args),
  };
}

function strFormatCase(template: string, args: Value[], kwargs: Record<string, Value> = {}): Case {
  const names = Object.keys(kwargs);
  return {
    label: `${JSON.stringify(template)}.format(${args.map((a) => repr(a)).join(", ")}${names.map((k) => `, ${k}=${repr(kwargs[k]!)}`).join("")})`,
    op: "str.format",
    json: { template, args: args.map(encode), kwargs: Object.fromEntries(names.map((k) => [k, encode(kwargs[k]!)])) },
    ours: () => strFormat(ctx(), template, args, names.length ? new Map(Object.entries(kwargs)) : null),
  };
}

const f = (x: number) => new PyFloat(x);
const big = (x: bigint) => normInt(x);
const list = (...items: Value[]) => new PyList(items);
const tuple = (...items: Value[]) => new PyTuple(items);
const dict = (record: Record<string, Value>) => PyDict.fromStringRecord(record);
const intDict = (entries: [Value, Value][]) => {
  const d = new PyDict();
  for (const [k, v] of entries) d.set(k, v);
  return d;
};

function cross(values: Value[], specs: string[]): Case[] {
  return values.flatMap((v) => specs.map((s) => formatCase(v, s)));
}

// ------------------------------------------------------------------ format(): tables

const INTS: Value[] = [
  0, 1, -1, 7, -7, 42, 65, 255, -255, 1000, 1234567, -1234567, 2 ** 31, 2 ** 53 - 1, -(2 ** 53 - 1),
  big(2n ** 53n), big(2n ** 64n), big(10n ** 400n), big(-(2n ** 70n)), big(10n ** 30n), big(-(10n ** 30n) - 7n), 0x1f600, 0x10ffff, 0x110000,
];

const INT_SPECS = [
  "", "d", "n", "b", "o", "x", "X", "c", "#b", "#o", "#x", "#X", "#d", ",", "_", ",d", "_d", "_b", "_o", "_x", "_X",
  "#_b", "#_x", "+", "-", " ", "+d", " x", "10", "<10", ">10", "^10", "=10", "^11", "*<8", "*>8", "*^9", "*=9", "010",
  "+010", "-010", " 010", "#010x", "#010b", "010,", "012,", "011,", "09_", "08_", "08,", "07,", "06,", "012_b",
  "#012_x", "=+10", "0=10", "x<010", "<010", "^010", "08,d", "020,d", "+#x", "#X", "e", "E", "f", "F", "g", "G", "%",
  ".2f", ".3e", ".0%", "10.2f", ",.2f", "08.2f", "z.2f", "5c", "<5c", "05c", "=5c", "٥", "1٥", "😀>10", "😀^12,",
  "😀=+12_x", "\n<6",
  // errors
  ".2", ".2d", "z", "zd", "+c", "#c", ",c", ",b", ",x", ",n", "_n", ",_", "_,", "s", "r", "abc", "10.", ".", "!",
  "+=", ",,", "99999999999999999999", "\x01", "é", "j", "#s", "zx", "#z",
];

const FLOATS: Value[] = [
  0.0, -0.0, 1.0, -1.0, 0.1, -0.1, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1 / 3, 2 / 3, 9.995, 99.5, 999999.5, 1234.5678,
  -1234.5678, 1e16, 1e15, 123456789012345678.0, 1e22, 1e-4, 1e-5, 0.0001234, 5e-324, 2.2250738585072014e-308,
  1.7976931348623157e308, 1e300, Math.PI, 100.0, 1e100, Infinity, -Infinity, NaN, 0.05, 0.045, Math.SQRT2, 1e-10,
  12345678.9, 0.9999999, 9.5, 0.00095,
].map((x) => f(x as number));

const FLOAT_SPECS = [
  "", "e", "E", "f", "F", "g", "G", "n", "%", ".0", ".1", ".2", ".3", ".5", ".10", ".16", ".17", ".20", ".0e", ".1e",
  ".3e", ".20e", ".0f", ".1f", ".2f", ".3f", ".10f", ".30f", ".0g", ".1g", ".3g", ".10g", ".17g", ".25g", ".0%", ".2%",
  "#", "#.0", "#.3", "#e", "#.0e", "#f", "#.0f", "#g", "#.0g", "#.3g", "#.10g", "z", "zf", "z.0f", "z.1f", "z.3e", "zg",
  "z.0", "z#.0f", "+", "-", " ", "+.2f", " .3e", "+g", "10", "<12", ">12", "^12", "=12", "*^15.3f", "012", "012.3f",
  "+012.3f", "-012.3e", "015,.2f", "015_.2f", "020,", ",", "_", ",.3f", ",g", ",e", ",%", "_.10f", "0=15.2f",
  "x<12.2f", ",.0f", "12,.3g", "30.20e", ".40f", "#.0%", ".3F", ".3G", ".3E", "n", ".3n", "10n", ".1000000000g",
  "😀^16,.3f", "é=+12.1e", "٣.٢f", ".330f", ".20%", "#.20%",
  // errors
  "d", "x", "c", "s", "b", ",n", ".", "abc", ",_", "#z", ".3000000000f",
];

const STRS: Value[] = ["", "a", "abc", "hello world", "héllo", "日本語", "😀x😀", "a\tb", "-5"];

const STR_SPECS = [
  "", "s", "1", "5", "10", "<10", ">10", "^10", "^11", "*^9", "😀^7", "{<6", "}>6", ".0", ".1", ".2", ".10", "10.2",
  "^8.3s", "05", "<05", ">05", "0>5", "\x00<5", ".1000000000",
  // errors
  "=5", "+", "-", " ", "#", "z", ",", "_", "d", "x", "f", "abc", ".", "=", "+5s", "c",
];

const BOOL_SPECS = ["", "d", "5", ">5", "s", "f", ".2f", "x", "#x", "c", "b", "n", "%", "e", "+", "abc", ".2", ",", "^7"];

const aSet = new PySet();
aSet.add(1);

const OTHERS: Value[] = [aSet, null, list(1, "a"), tuple(1), tuple(), dict({ a: 1 }), new PyBytes(new Uint8Array([120])), new PyRange(0, 3, 1)];

/** Random specs over the whole mini-language, with a fixed seed. */
function randomSpec(types: string[], seed: number, count: number): string[] {
  const spec = fc
    .record({
      fill: fc.constantFrom("", "*", "0", "x"),
      align: fc.constantFrom("", "", "<", ">", "^", "="),
      sign: fc.constantFrom("", "", "+", "-", " "),
      z: fc.boolean(),
      alternate: fc.boolean(),
      zero: fc.boolean(),
      width: fc.option(fc.integer({ min: 0, max: 30 })),
      grouping: fc.constantFrom("", "", ",", "_"),
      precision: fc.option(fc.integer({ min: 0, max: 30 })),
      type: fc.constantFrom(...types),
    })
    .map(
      (s) =>
        (s.align ? s.fill + s.align : "") +
        s.sign +
        (s.z ? "z" : "") +
        (s.alternate ? "#" : "") +
        (s.zero ? "0" : "") +
        (s.width ?? "") +
        s.grouping +
        (s.precision === null ? "" : `.${s.precision}`) +
        s.type,
    );
  return fc.sample(spec, { seed, numRuns: count });
}

function randomFloats(seed: number, count: number): Value[] {
  const value = fc.oneof(
    fc.double(),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 1000),
    fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 64),
    fc.integer({ min: -300, max: 300 }).map((e) => 10 ** e),
  );
  return fc.sample(value, { seed, numRuns: count }).map(f);
}

describe("format() matches CPython", () => {
  it("on ints, every spec", () => {
    expect(differences(cross(INTS, INT_SPECS))).toEqual([]);
  });

  it("on floats, every spec", () => {
    expect(differences(cross(FLOATS, FLOAT_SPECS))).toEqual([]);
  });

  it("on strs, every spec", () => {
    expect(differences(cross(STRS, STR_SPECS))).toEqual([]);
  });

  it("on bools (ints, except that the empty spec is str())", () => {
    expect(differences(cross([true, false], BOOL_SPECS))).toEqual([]);
  });

  it("on other values: str() for the empty spec, TypeError otherwise", () => {
    expect(differences(cross(OTHERS, ["", "s", "5", "<5"]))).toEqual([]);
  });

  it("on random floats with random specs (fixed seed)", () => {
    const values = randomFloats(20240611, 3000);
    const specs = randomSpec(["", "e", "E", "f", "F", "g", "G", "%", "n"], 7, 3000);
    expect(differences(values.map((v, i) => formatCase(v, specs[i]!)))).toEqual([]);
  });

  it("on random ints with random specs (fixed seed)", () => {
    const values = fc
      .sample(fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n })), { seed: 99, numRuns: 1500 })
      .map((n) => (typeof n === "bigint" ? normInt(n) : n));
    const specs = randomSpec(["", "d", "b", "o", "x", "X", "n", "c", "e", "f", "g", "%"], 11, 1500);
    expect(differences(values.map((v, i) => formatCase(v, specs[i]!)))).toEqual([]);
  });
});

// ------------------------------------------------------------------ the % operator

const nan = f(NaN);
const inf = f(Infinity);

const PERCENT: [string, Value][] = [
  ["%s", "x"], ["%s", 5], ["%s", tuple(1)], ["%s", tuple(tuple(1, 2))], ["%s %s", tuple(1, "a")], ["%r", "x"],
  ["%a", "é"], ["%a", "😀"], ["%a", list("é", 1)], ["%5s", "ab"], ["%-5s|", "ab"], ["%.1s", "abc"], ["%5.1s", "abc"],
  ["%.1000000000s", "abc"], ["%.2s", "😀é😀"], ["%5s|", "😀"], ["%s", true], ["%d", true], ["%d", f(3.7)],
  ["%d", f(-3.7)], ["%d", f(1e20)], ["%i", 42], ["%u", -42], ["%x", 255], ["%X", 255], ["%#x", 255], ["%#X", 255],
  ["%#o", 8], ["%o", -8], ["%#x", -255], ["%05d", -3], ["%+d", 5], ["% d", 5], ["% d", -5], ["%+5d", 5],
  ["%-5d|", 5], ["%-05d|", 5], ["%05x", 255], ["%#08x", 255], ["%#-8x|", 255], ["% #8x", 255], ["%+#8o", 8],
  ["%.5d", 42], ["%8.5d", -42], ["%08.5d", -42], ["%#.5x", 255], ["%#010.5x", 255], ["%#10.5X", 255], ["%d", big(10n ** 30n)],
  ["%x", big(-(2n ** 70n))], ["%+.0d", 0], ["%f", f(1.5)], ["%.2f", f(2.675)], ["%e", f(12345.678)], ["%E", f(1e-300)],
  ["%g", f(1e-5)], ["%G", f(1e20)], ["%.0f", f(0.5)], ["%.0f", f(1.5)], ["%#.0f", f(2.0)], ["%#g", f(1.0)],
  ["%010.3f", f(-3.14159)], ["%+.3e", f(0.0)], ["%+.3e", f(-0.0)], ["%-10.2f|", f(3.14159)], ["% f", f(1.0)],
  ["%f", inf], ["%f", f(-Infinity)], ["%f", nan], ["%5f", nan], ["%010f", inf], ["%+010f", f(-Infinity)], ["%F", inf],
  ["%F", nan], ["%f", big(10n ** 400n)], ["%f", 5], ["%f", true], ["%.3g", f(1234.5)], ["%g", f(0.0001)],
  ["%.0g", f(123.0)], ["%.20f", f(0.1)], ["%.60f", f(0.1)], ["%.17g", f(0.1)], ["%g", f(1e16)], ["%r", f(1e16)],
  ["%s", f(1e16)], ["%s", f(-0.0)], ["%c", 65], ["%c", "x"], ["%c", "😀"], ["%5c", "x"], ["%-5c|", "x"], ["%05c", 65],
  ["%c", 0x10ffff], ["%c", true], ["%*d", tuple(5, 42)], ["%-*d|", tuple(5, 42)], ["%*d", tuple(-5, 42)],
  ["%.*f", tuple(2, f(3.14159))], ["%*.*f", tuple(10, 3, f(3.14159))], ["%.*f", tuple(-1, f(3.14159))],
  ["%*s", tuple(true, "x")], ["%(a)s", dict({ a: 1 })], ["%(a)s %(b)r", dict({ a: 1, b: "x" })],
  ["%(a)05d", dict({ a: 3 })], ["%(a(b))s", dict({ "a(b)": 1 })], ["%(a)s%(a)s", dict({ a: "é" })], ["%s", dict({ a: 1 })],
  ["x", dict({ a: 1 })], ["x", list(1)], ["%s", list(1, 2)], ["x", tuple()], ["100%%", tuple()], ["%%%s", 1],
  ["%%", tuple()], ["%ld", 5], ["%hd", 5], ["%Lf", f(1.5)], ["%s", null], ["%r", null], ["%s", new PyBytes(new Uint8Array([97, 39]))],
  ["%r", f(1.5)], ["%5s|%-5s", tuple("a", "b")], ["%s", tuple(tuple())], ["é%s😀%d", tuple("😀", 3)],
  ["%s", aSet], ["%d%%", 50], ["%#.3g", f(1.0)], ["%#.0e", f(5.0)], ["%-+8.2f|", f(2.5)], ["%0-8.2f|", f(-2.5)],
  ["% 08.2f", f(2.5)], ["%+ d", 5], ["% +d", 5], ["%#5o", 0], ["%#x", 0], ["%.0d", 0], ["%5.3s|", "😀é😀x"],
  ["%*.*s|", tuple(-6, 2, "abc")], ["%(k)s", intDict([["k", 1], [2, 3]])],
  // errors
  ["%s %s", tuple(1)], ["%s", tuple(1, 2)], ["x", 5], ["x", "y"], ["%s", tuple()], ["%y", 1], ["%y", tuple()],
  ["ab%y", 1], ["é%y", 1], ["😀%y", 1], ["%😀", 1], ["%\x01", 1], ["%é", 1], ["%", tuple()], ["abc%", 1], ["%-", 1],
  ["%5", 1], ["%.", 1], ["%.5", 1], ["%l", 5], ["%(a)", dict({ a: 1 })], ["%(a", dict({ a: 1 })], ["%(a)s", dict({})],
  ["%(a)s", tuple(1)], ["%(a)s", 1], ["%(a)s %s", dict({ a: 1 })], ["%(a)*d", dict({ a: 1 })], ["%(a)s", list(1)],
  ["%(a)s", new PyRange(0, 3, 1)], ["%(a)s", new PyBytes(new Uint8Array([1]))], ["%s %s", list(1, 2)], ["%5%", tuple()],
  ["%5%", tuple(1)], ["%d", "x"], ["%d", null], ["%d", list(1)], ["%x", f(1.5)], ["%x", "x"], ["%o", null], ["%i", "1"],
  ["%X", f(2.0)], ["%d", nan], ["%d", inf], ["%f", "x"], ["%f", null], ["%e", list(1)], ["%c", "xy"], ["%c", ""],
  ["%c", f(1.5)], ["%c", -1], ["%c", 0x110000], ["%c", big(2n ** 70n)], ["%c", null], ["%*d", tuple("5", 1)],
  ["%*d", tuple(f(1.0), 1)], ["%*d", tuple(big(2n ** 70n), 1)], ["%.*d", tuple(2 ** 40, 1)], ["%*d", tuple(5)],
  ["%*", tuple(5)], ["%*", tuple()], ["x", aSet], ["%(a)s", aSet], ["%(a)s", "abc"], ["%99999999999999999999d", 1], ["%.99999999999d", 1], ["%.*f", tuple("x", 1)],
];

describe("the % operator matches CPython", () => {
  it("on a table of conversions, flags, arguments and errors", () => {
    expect(differences(PERCENT.map(([t, a]) => percentCase(t, a)))).toEqual([]);
  });

  it("on random float conversions (fixed seed)", () => {
    const values = randomFloats(5, 1500);
    const templates = fc.sample(
      fc
        .record({
          flags: fc.subarray(["-", "+", " ", "#", "0"]),
          width: fc.option(fc.integer({ min: 0, max: 25 })),
          precision: fc.option(fc.integer({ min: 0, max: 25 })),
          type: fc.constantFrom("e", "E", "f", "F", "g", "G", "d", "s", "r"),
        })
        .map((s) => `%${s.flags.join("")}${s.width ?? ""}${s.precision === null ? "" : `.${s.precision}`}${s.type}`),
      { seed: 6, numRuns: 1500 },
    );
    expect(differences(values.map((v, i) => percentCase(templates[i]!, v)))).toEqual([]);
  });
});

// ------------------------------------------------------------------ str.format

const STR_FORMAT: [string, Value[], Record<string, Value>?][] = [
  ["{}", [1]], ["{} {}", [1, "a"]], ["{0} {1} {0}", ["a", "b"]], ["{}", [true]], ["{}", [null]], ["{}", [f(0.1)]],
  ["{}", [list(1, "a")]], ["{a}", [], { a: 1 }], ["{a} {b}", [], { a: 1, b: f(2.5) }], ["{0[a]}", [dict({ a: 5 })]],
  ["{0[0]}", [list(7, 8)]], ["{0[1]}", [tuple(7, 8)]], ["{0[0][1]}", [list(list(1, 2))]], ["{a[b]}", [], { a: dict({ b: 2 }) }],
  ["{0[1]}", ["abc"]], ["{0[1]}", ["😀é"]], ["{0[0]}", [intDict([[0, "zero"]])]], ["{0[-1]}", [dict({ "-1": 1 })]],
  ["{0[2]}", [new PyRange(0, 10, 3)]], ["{0[1]}", [new PyBytes(new Uint8Array([5, 6]))]], ["{0[a b]}", [dict({ "a b": 1 })]],
  ["{0[:]}", [dict({ ":": 1 })]], ["{ }", [], { " ": 1 }], ["{٠}", [7]], ["{00}", [7]], ["{!r}", ["x"]], ["{!s}", [f(1.5)]],
  ["{!a}", ["é😀"]], ["{0!r:>10}", ["x"]], ["{0!s:^7}", [list()]], ["{:>10}", ["x"]], ["{:.2f}", [f(3.14159)]],
  ["{:,}", [1234567]], ["{0:{1}}", [5, 10]], ["{0:{1}{2}}", [5, "<", 10]], ["{:{}}", [5, ">4"]],
  ["{:{}.{}f}", [f(3.14159), 10, 2]], ["{0:{a}}", [5], { a: 3 }], ["{0:}", [5]], ["{0:}}}", [5]], ["{{}}", []],
  ["{{{0}}}", [1]], ["{{", []], ["}}", []], ["a{{b}}c", []], ["{:%}", [f(0.25)]], ["{:x<4}{:^5}", ["a", "b"]],
  ["{0}{0}{0}", ["😀"]], ["{:{}}", ["x", ""]], ["{:>{}}", ["x", 3]], ["{0:{1}:{2}}", [1, 2, 3]],
  // errors
  ["{1}", ["a"]], ["{}", []], ["{}{}", [1]], ["{} {0}", [1]], ["{0} {}", [1]], ["{a}", []], ["{a} {b}", [], { a: 1 }],
  ["{0[5]}", [list(1)]], ["{0[5]}", [tuple(1)]], ["{0[5]}", ["ab"]], ["{0[5]}", [new PyRange(0, 3, 1)]],
  ["{0[5]}", [new PyBytes(new Uint8Array([1]))]], ["{0[a]}", ["abc"]], ["{0[a]}", [list(1)]], ["{0[a]}", [tuple(1)]],
  ["{0[0]}", [5]], ["{0[a]}", [null]], ["{0[0]}", [dict({ "0": "zero" })]], ["{0[b]}", [dict({ a: 1 })]], ["{0[]}", [list(1)]],
  ["{0[0}", [list(1)]], ["{0]}", [1]], ["{0[0]x}", [list(1)]], ["{0[0", [list(1)]], ["{0.}", [1]], ["{!x}", [1]],
  ["{!\x01}", [1]], ["{!}", [1]], ["{0!", [1]], ["{0!r", [1]], ["{0!rx}", [1]], ["{!r}", []], ["{!x}", []],
  ["{:{:{}}}", [1, 2, 3]], ["{:d}", ["x"]], ["{:s}", [5]], ["{:x}", [f(1.5)]], ["}", []], ["{", []], ["a}b", []],
  ["a{b", []], ["}}{", []], ["x{0}}", [1]], ["{0}}", [1]], ["{a{b}", []], ["{0:{", [1]], ["{0:{1}}", [5]],
  ["{99999999999999999999}", [1]], ["{9999999999999}", [1]], ["{0[99999999999999999999]}", [list(1)]], ["{:5}", [null]],
  ["{0:>{1}}", ["x", "y"]], ["{:=5}", ["x"]], ["{999999999999999999}", [1]], ["{0[0]}", [aSet]], ["{0[a]}", [aSet]],
  ["{0[a]}", [f(1.5)]], ["{0[1]x}", [list(1, 2)]], ["{0:{1}}", [f(1.5), ".{"]],
];

describe("str.format matches CPython", () => {
  it("on a table of fields, conversions, nested specs and errors", () => {
    expect(differences(STR_FORMAT.map(([t, a, k]) => strFormatCase(t, a, k)))).toEqual([]);
  });

  it("reads attributes in fields as `x.name` does: the dialect's attributes only", () => {
    const error = thrownBy(() => strFormat(ctx(), "{0.real}", [1], null));
    expect(error).toBeInstanceOf(PyException);
    expect((error as PyException).type.name).toBe("AttributeError");
    expect((error as PyException).args[0]).toBe("'int' object has no attribute 'real'");
    const dunder = thrownBy(() => strFormat(ctx(), "{a.__dict__}", [], new Map([["a", 1]])));
    expect((dunder as PyException).args[0]).toBe("attribute '__dict__' is not accessible in the sandbox");
    expect(strFormat(ctx(), "{a.__class__.__name__}", [], new Map([["a", 1]]))).toBe("int");
    expect(strFormat(ctx(), "{0.start}:{0.stop}", [new SliceValue(1, 5, null)], null)).toBe("1:5");
  });
});

// ------------------------------------------------------------------ resource safety

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected an exception");
}

describe("formatting is paid for before it is built", () => {
  const huge: [string, () => unknown][] = [
    ["format(1, '>1000000000')", () => formatValue(testContext(), 1, ">1000000000")],
    ["format(1, '01000000000')", () => formatValue(testContext(), 1, "01000000000")],
    ["format(1, '01000000000,')", () => formatValue(testContext(), 1, "01000000000,")],
    ["format(1.5, '.1000000000f')", () => formatValue(testContext(), f(1.5), ".1000000000f")],
    ["format(1e300, '.1000000000e')", () => formatValue(testContext(), f(1e300), ".1000000000e")],
    ["format(1.5, '#.1000000000g')", () => formatValue(testContext(), f(1.5), "#.1000000000g")],
    ["format(1.5, '1000000000')", () => formatValue(testContext(), f(1.5), "1000000000")],
    ["format('x', '<1000000000')", () => formatValue(testContext(), "x", "<1000000000")],
    ["'%1000000000s' % 'x'", () => percentFormat(testContext(), "%1000000000s", "x")],
    ["'%.1000000000f' % 1.5", () => percentFormat(testContext(), "%.1000000000f", f(1.5))],
    ["'%.1000000000d' % 1", () => percentFormat(testContext(), "%.1000000000d", 1)],
    ["'%*d' % (10**9, 1)", () => percentFormat(testContext(), "%*d", tuple(1_000_000_000, 1))],
    ["'{:>1000000000}'.format(1)", () => strFormat(testContext(), "{:>1000000000}", [1], null)],
    ["'{:{}}'.format(1, 10**9)", () => strFormat(testContext(), "{:{}}", [1, 1_000_000_000], null)],
  ];
  for (const [name, fn] of huge) {
    it(`${name} fails fast with a ResourceLimitError`, () => {
      const started = performance.now();
      const error = thrownBy(fn);
      expect(error).toBeInstanceOf(ResourceLimitError);
      expect((error as ResourceLimitError).field).toBe("max_memory_bytes");
      // Building a gigabyte would take seconds; refusing it takes well under a millisecond.
      expect(performance.now() - started).toBeLessThan(200);
    });
  }

  it("charges steps in proportion to the output", () => {
    const small = testContext({ max_steps: 1000 });
    expect(formatValue(small, 1, ">500")).toHaveLength(500);
    const error = thrownBy(() => formatValue(small, 1, ">5000"));
    expect(error).toBeInstanceOf(ResourceLimitError);
    expect((error as ResourceLimitError).field).toBe("max_steps");
  });

  it("does not charge a precision that only truncates", () => {
    expect(formatValue(testContext(), "abc", ".1000000000")).toBe("abc");
    expect(percentFormat(testContext(), "%.1000000000s", "abc")).toBe("abc");
    expect(formatValue(testContext(), f(0.5), ".1000000000g")).toBe("0.5");
  });
});
