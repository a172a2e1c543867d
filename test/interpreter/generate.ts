// Random small programs of the dialect, for the generated differential corpus: arithmetic on
// mixed ints, floats and big ints; string slicing, methods and formatting with random specs;
// list, dict and set operations; comprehensions; and the common errors (wrong operand types,
// missing keys, bad indexes, bad conversions, division by zero, unknown names and attributes).
//
// A quarter of the programs instead use the standard modules and the newer forms
// (generate-library.ts).
//
// Every program is deterministic under CPython: sets are only printed sorted (CPython's set
// order depends on hashing), and nothing prints an identity, a hash or a type object.
import { libraryProgram } from "./generate-library.js";

/** mulberry32: a small seeded PRNG, so a seed names the same corpus on every machine. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

type Gen = (r: Rng, depth: number) => string;

const SMALL_INTS = ["0", "1", "2", "3", "-1", "-2", "5", "7", "10", "-7", "13", "100", "255", "-256", "1000"];
const BIG_INTS = ["2**64", "-(2**63)", "10**20", "123456789012345678901234567890", "-98765432109876543210", "2**53 + 1", "3**40", "(1 << 100) - 1"];
const FLOATS = ["0.0", "-0.0", "0.1", "0.5", "1.5", "2.5", "-2.5", "3.14159", "1e16", "1e-7", "123.456", "-0.001", "1e300", "2.0**0.5", "float('inf')", "float('-inf')", "float('nan')", "1/3", "7.0"];
const WORDS = ["''", "'a'", "'abc'", "'Hello, World'", "'  padded  '", "'a,b,,c'", "'x-y-z'", "'MiXeD cAsE'", "'line1\\nline2'", "'tab\\there'", "'123'", "'-42'", "'3.5'", "'é😀'", "'aaa'", "'title case words'", "'0x1f'", "' 7 '"];
const KEYS = ["'a'", "'b'", "'c'", "'k'", "1", "2", "(1, 2)"];

/** Literals with an operator in them are parenthesized: `(3**40) ** 10`, never `3**40 ** 10`. */
function atom(text: string): string {
  return /^-?[\d.e]+$/.test(text) || /^\w+\(.*\)$/.test(text) ? text : `(${text})`;
}

function intLit(r: Rng): string {
  if (r.chance(0.1)) return randomInt(r);
  return atom(r.chance(0.2) ? r.pick(BIG_INTS) : r.pick(SMALL_INTS));
}

function floatLit(r: Rng, from = FLOATS): string {
  return r.chance(0.3) ? randomFloat(r) : atom(r.pick(from));
}

/** A float literal with random digits and exponent: repr and formatting must round as CPython's. */
function randomFloat(r: Rng): string {
  const digits = String(r.int(1, 999999999)).slice(0, r.int(1, 9));
  const point = r.int(0, digits.length);
  const text = `${digits.slice(0, point) || "0"}.${digits.slice(point) || "0"}${r.chance(0.5) ? `e${r.int(-30, 30)}` : ""}`;
  return r.chance(0.3) ? `(-${text})` : text;
}

/** An int literal of random size, up to about 40 digits. */
function randomInt(r: Rng): string {
  const n = Array.from({ length: r.int(1, 40) }, () => r.int(0, 9)).join("").replace(/^0+(?=\d)/, "");
  return r.chance(0.3) ? `(-${n})` : n;
}

function num(r: Rng, depth: number): string {
  if (depth <= 0 || r.chance(0.35)) return r.chance(0.6) ? intLit(r) : floatLit(r);
  const a = num(r, depth - 1);
  const b = num(r, depth - 1);
  switch (r.int(0, 11)) {
    case 0: return `(${a} + ${b})`;
    case 1: return `(${a} - ${b})`;
    case 2: return `(${a} * ${b})`;
    case 3: return `(${a} / ${b})`;
    case 4: return `(${a} // ${b})`;
    case 5: return `(${a} % ${b})`;
    // A negative base to a fractional power is complex in CPython, and not supported here.
    case 6: return r.chance(0.2) ? `(abs(${a}) ** 0.5)` : `(${a} ** ${r.pick(["0", "1", "2", "3", "-1", "-2", "10"])})`;
    case 7: return `${r.pick(["abs", "int", "float", "round"])}(${a})`;
    case 8: return `round(${a}, ${r.pick(["0", "1", "2", "-1", "3"])})`;
    case 9: return `${r.pick(["min", "max"])}(${a}, ${b})`;
    case 10: return `(-${a})`;
    default: return `(${intExpr(r, depth - 1)} ${r.pick(["&", "|", "^", "<<", ">>"])} ${r.pick(["0", "1", "3", "5", "64", "-1"])})`;
  }
}

function intExpr(r: Rng, depth: number): string {
  if (depth <= 0 || r.chance(0.5)) return intLit(r);
  return r.pick([`len(${str(r, depth - 1)})`, `(${intExpr(r, depth - 1)} * ${intLit(r)})`, `(${intExpr(r, depth - 1)} // ${r.pick(["2", "3", "-3", "7"])})`, `int(${floatLit(r, FLOATS.slice(0, 12))})`, `sum(${list(r, depth - 1)})`]);
}

function index(r: Rng): string {
  return r.pick(["0", "1", "2", "-1", "-2", "3", "5", "-6", "None", "10"]);
}

function slice(r: Rng): string {
  const part = () => (r.chance(0.3) ? "" : index(r).replace("None", ""));
  return r.chance(0.3) ? `${part()}:${part()}:${r.pick(["1", "2", "-1", "-2", "3"])}` : `${part()}:${part()}`;
}

function str(r: Rng, depth: number): string {
  if (depth <= 0 || r.chance(0.3)) return r.pick(WORDS);
  const s = str(r, depth - 1);
  switch (r.int(0, 12)) {
    case 0: return `${s}[${slice(r)}]`;
    case 1: return `${s}.${r.pick(["upper", "lower", "strip", "lstrip", "rstrip", "title", "capitalize", "swapcase", "casefold"])}()`;
    case 2: return `${s}.replace(${r.pick(WORDS)}, ${r.pick(WORDS)}${r.chance(0.3) ? `, ${r.int(-1, 2)}` : ""})`;
    case 3: return `(${s} + ${str(r, depth - 1)})`;
    case 4: return `(${s} * ${r.pick(["0", "2", "3", "-1"])})`;
    case 5: return `${r.pick(WORDS)}.join(${r.chance(0.5) ? list(r, depth - 1, "str") : s})`;
    case 6: return `${s}.${r.pick(["center", "ljust", "rjust"])}(${r.int(0, 12)}${r.chance(0.5) ? ", '*'" : ""})`;
    case 7: return `${s}.zfill(${r.int(0, 10)})`;
    case 8: return `str(${num(r, depth - 1)})`;
    case 9: return `repr(${r.chance(0.5) ? num(r, depth - 1) : s})`;
    case 10: return formatted(r, depth - 1);
    case 11: return `${s}[${index(r)}]`;
    default: return `${s}.${r.pick(["removeprefix", "removesuffix", "strip", "lstrip"])}(${r.pick(["'a'", "' '", "'ab'", "'x'"])})`;
  }
}

/** A format spec: [[fill]align][sign][z][#][0][width][grouping][.precision][type]. */
function spec(r: Rng, kind: "int" | "float" | "str"): string {
  let s = "";
  if (r.chance(0.4)) s += (r.chance(0.4) ? r.pick(["*", "0", "-", " "]) : "") + r.pick(["<", ">", "^", "="]);
  if (kind !== "str" && r.chance(0.3)) s += r.pick(["+", "-", " "]);
  if (kind !== "str" && r.chance(0.15)) s += "#";
  if (r.chance(0.2)) s += "0";
  if (r.chance(0.6)) s += String(r.int(0, 14));
  if (kind !== "str" && r.chance(0.25)) s += r.pick([",", "_"]);
  // A precision is an error for ints (rarely worth more than a few programs).
  if (r.chance(kind === "int" ? 0.05 : 0.4)) s += `.${r.int(0, 8)}`;
  const types = { int: ["", "d", "b", "o", "x", "X", "c", "e", "f", "g", "%", "n", "E", "G"], float: ["", "e", "E", "f", "F", "g", "G", "%", "n"], str: ["", "s"] }[kind];
  return s + r.pick(types);
}

function formatted(r: Rng, depth: number): string {
  const kind = r.pick(["int", "float", "str"] as const);
  const value = kind === "int" ? intLit(r) : kind === "float" ? floatLit(r) : str(r, depth);
  const sp = spec(r, kind);
  // Before 3.12 an f-string's expression may not hold its own quote or a backslash.
  const inline = !/["\\]/.test(value);
  switch (r.int(0, 3)) {
    case 0: return inline ? `f"{${value}:${sp}}"` : `format(${value}, ${JSON.stringify(sp)})`;
    case 1: return `format(${value}, ${JSON.stringify(sp)})`;
    case 2: return `${JSON.stringify(`[{0:${sp}}]`)}.format(${value})`;
    default: return `${JSON.stringify(`<%${r.pick(["", "-", "+", "05", "8", "-6", ".2", "10.3", "#"])}${r.pick(kind === "str" ? ["s", "r"] : ["d", "i", "f", "e", "g", "x", "o", "s", "r"])}>`)} % (${value},)`;
  }
}

function value(r: Rng, depth: number): string {
  return r.pick<Gen>([num, str, (rr, d) => list(rr, d), dict, (rr) => intLit(rr), (rr) => r.pick(["True", "False", "None"])])(r, depth);
}

function list(r: Rng, depth: number, of?: "str" | "int"): string {
  const n = r.int(0, 5);
  const item = (): string => (of === "str" ? r.pick(WORDS) : of === "int" ? intLit(r) : depth > 0 && r.chance(0.2) ? value(r, depth - 1) : r.pick([intLit(r), floatLit(r, FLOATS.slice(0, 12)), r.pick(WORDS)]));
  if (depth > 0 && r.chance(0.25)) {
    const v = r.pick(["x", "y", "n"]);
    const cond = r.chance(0.5) ? ` if ${v} ${r.pick(["> 2", "% 2 == 0", "!= 5", "< 0"])}` : "";
    return `[${r.pick([`${v} * 2`, `${v} - 1`, `str(${v})`, `${v} ** 2`, `(${v}, ${v} % 3)`])} for ${v} in ${r.pick(["range(6)", "range(-3, 9, 2)", `[${intLit(r)}, ${intLit(r)}, 4]`])}${cond}]`;
  }
  return `[${Array.from({ length: n }, item).join(", ")}]`;
}

function dict(r: Rng, depth: number): string {
  if (depth > 0 && r.chance(0.25)) return `{${r.pick(["k: v", "v: k", "str(k): k * v"])} for k, v in ${r.pick(["enumerate('abcd')", "zip(range(3), [5, 6, 7])", "[(1, 2), (3, 4), (1, 5)]"])}}`;
  const n = r.int(0, 4);
  return `{${Array.from({ length: n }, () => `${r.pick(KEYS)}: ${depth > 0 && r.chance(0.2) ? value(r, depth - 1) : intLit(r)}`).join(", ")}}`;
}

function intSet(r: Rng): string {
  return r.chance(0.2) ? "set()" : `{${Array.from({ length: r.int(1, 5) }, () => r.pick(["1", "2", "3", "4", "5", "-1", "10"])).join(", ")}}`;
}

/** Statements over the variables `a` (list), `d` (dict), `s` (set), `t` (str), `x`, `y` (numbers). */
function statement(r: Rng): string {
  switch (r.int(0, 27)) {
    case 0: return `a.append(${value(r, 1)})`;
    case 1: return `print(a.pop(${r.chance(0.5) ? index(r) : ""}))`;
    case 2: return `a.insert(${index(r)}, ${intLit(r)})`;
    case 3: return `print(a.index(${intLit(r)}))`;
    case 4: return `a.${r.pick(["sort()", "reverse()", "clear()", "sort(reverse=True)", "sort(key=str)"])}`;
    case 5: return `print(a[${index(r)}])`;
    case 6: return `print(a[${slice(r)}])`;
    case 7: return `a[${index(r)}] = ${value(r, 1)}`;
    case 8: return `del a[${r.chance(0.5) ? index(r) : slice(r)}]`;
    case 9: return `print(d[${r.pick(KEYS)}])`;
    case 10: return `print(d.${r.pick(["get", "pop", "setdefault"])}(${r.pick(KEYS)}${r.chance(0.5) ? `, ${intLit(r)}` : ""}))`;
    case 11: return `d.update(${dict(r, 1)})`;
    case 12: return `print(list(d.${r.pick(["keys", "values", "items"])}()), len(d))`;
    case 13: return `print(${r.pick(["d | " + dict(r, 0), "sorted(d, key=repr)", "d.popitem()", "dict(sorted(d.items(), key=repr))", `${r.pick(KEYS)} in d`])})`;
    case 14: return `del d[${r.pick(KEYS)}]`;
    case 15: return `print(sorted(s ${r.pick(["|", "&", "-", "^"])} ${intSet(r)}))`;
    case 16: return `s.${r.pick(["add", "discard", "remove"])}(${r.pick(["1", "2", "3", "7", "-1"])})`;
    case 17: {
      const other = intSet(r);
      return `print(${r.pick([`s <= ${other}`, `s >= ${other}`, `s.isdisjoint(${other})`, `s == ${other}`, `s < ${other}`, `sorted(s.union(${other}, [9]))`])})`;
    }
    case 18: return `print(t.${r.pick(["split", "rsplit"])}(${r.pick(["", "','", "' '", "'-'", "None, 1", "',', 1", "'-', -1"])}))`;
    case 19: return `print(t.${r.pick(["find", "rfind", "index", "rindex", "count", "startswith", "endswith"])}(${r.pick(["'a'", "'l'", "','", "''", "'zz'", "('a', 'H')"])}${r.chance(0.3) ? `, ${index(r).replace("None", "1")}` : ""}))`;
    case 20: return `print(t.${r.pick(["partition", "rpartition"])}(${r.pick(["','", "'l'", "' '", "'-'"])}), t.${r.pick(["isdigit", "isalpha", "isspace", "isupper", "islower", "isalnum", "istitle", "isdecimal", "isidentifier"])}())`;
    case 21: return `print(t.splitlines(), t.expandtabs(${r.int(0, 8)}))`;
    case 22: return `print(${num(r, 2)})`;
    case 23: {
      if (r.chance(0.15)) return `x **= ${r.pick(["2", "-1", "3"])}`;
      return `x ${r.pick(["+=", "-=", "*=", "/=", "//=", "%="])} ${r.chance(0.8) ? num(r, 1) : r.pick(WORDS)}`;
    }
    case 24: return `print(repr(${str(r, 3)}))`;
    case 25: return `print(${r.pick(["x < y", "x == y", "x >= y <= 10", "divmod(x, y)", "x != y", "(x > y) + 1", "pow(x, 2, 7)", "int(t)", "float(t)", "undefined_name", "t.nope", "1 + t", "t - 1", "a + t", "len(x)"])})`;
    case 26: return `print(${formatted(r, 2)})`;
    default: return `print(${r.pick(["sorted(a, key=repr)", "list(reversed(a))", "a * 2", "a + [1]", "len(a)", "a.count(1)", "a == sorted(a)", "[v for v in a if v]", "list(enumerate(a))", "list(zip(a, t))", "max(a, default=None)", "min(a)", "sum(a)", "any(a)", "all(a)", "tuple(a)"])})`;
  }
}

const NUMERIC_TEXTS = ["'12a'", "'1e'", "'  42  '", "'4_2'", "'  -1.5e3 '", "'nan'", "'-infinity'", "'0b101'", "'1__0'", "'٣'", "'+7'", "'1.5'", "'ff'", "'-0'", "'1_000.5'", "''"];

/** Further statements: conversions, big ints, slice assignment, more methods and formatting. */
function extra(r: Rng): string {
  switch (r.int(0, 24)) {
    case 0: return `print(int(${r.pick(NUMERIC_TEXTS)}${r.chance(0.3) ? `, ${r.pick(["0", "2", "16", "36", "1", "37"])}` : ""}))`;
    case 1: return `print(float(${r.pick(NUMERIC_TEXTS)}))`;
    case 2: return `print(${r.pick(["hex", "oct", "bin", "str", "repr", "abs"])}(${intLit(r)}), (${intLit(r)}).bit_length())`;
    case 3: return `print(divmod(${num(r, 1)}, ${num(r, 1)}))`;
    case 4: return `print(pow(${intLit(r)}, ${r.pick(["2", "3", "65", "-1", "0"])}, ${r.pick(["7", "1000000007", "-5", "1", "0"])}))`;
    case 5: return `print(${intLit(r)} ${r.pick(["==", "<", ">=", "!="])} ${floatLit(r)}, float(${intLit(r)}), ${intLit(r)} ${r.pick(["//", "%", ">>", "&", "|", "^"])} ${r.pick(["-3", "7", "2**65", "-(2**70)", "1"])})`;
    case 6: return `a[${slice(r)}] = ${list(r, 0)}`;
    case 7: return `del a[${slice(r)}]`;
    case 8: return `a.${r.pick(["extend", "remove", "count", "__len__"].slice(0, 3))}(${r.pick([list(r, 0), intLit(r), "'abc'", "t"])})`;
    case 9: return `a ${r.pick(["+=", "*="])} ${r.pick([list(r, 0), "2", "0", "(1, 2)", "'xy'", "-1"])}`;
    case 10: return `print(${r.pick(["{**d, 'x': 1}", "dict.fromkeys(t)", "d.copy() == d", "dict(zip(t, range(9)))", "sorted(d.items(), key=repr)", "list(d) == list(d.keys())", "dict(a=1, **{'b': 2})", "d.get(t, t)", "{k: d[k] for k in d}"])})`;
    case 11: return `s${r.pick([".update(a if all(isinstance(v, int) for v in a) else [])", " |= {1, 9}", " -= {1}", " &= {1, 2, 3}", " ^= {2, 8}"])}`;
    case 12: return `print(sorted(${r.pick(["s.symmetric_difference(", "s.union(", "s.intersection(", "s.difference(", "frozenset(s) | frozenset("])}${intSet(r)})), s.issubset(${intSet(r)}), ${r.pick(["1", "5", "-1"])} in s)`;
    case 13: return `print(${r.pick(["[(i, j) for i in range(3) for j in range(i)]", "[x if x % 2 else -x for x in range(6)]", "sum(x * x for x in range(10))", "max((len(w), w) for w in t.split())", "list(map(lambda v: v * 2, range(4)))", "list(filter(None, [0, 1, '', 'a', None, []]))", "list(enumerate(t, start=1))[:3]", "sorted({v % 3 for v in range(10)})", "{c: t.count(c) for c in t[:4]}", "any(v > 3 for v in range(5))", "all([])", "[w.upper() for w in t.split(',') if w]"])})`;
    case 14: return `print(repr(${r.pick(["\"it's\"", "'a\"b'", "'both \\' and \"'", "'\\x00\\x7f\\u00e9'", "'tab\\t'", "'\\\\'", "t"])}), ascii(${r.pick(["'é😀'", "t", "'plain'"])}))`;
    case 15: return `print(${JSON.stringify(`%(k)s|%(k)r|%${r.pick(["5", "-5", "05", ""])}${r.pick(["d", "s", "x", "f"])}`)} % {'k': ${r.pick(["t", "x", "1"])}} if False else ${JSON.stringify(`%${r.pick(["5", "-5", "+", "", ".3", "#"])}${r.pick(["d", "s", "x", "o", "e", "g", "c", "%"])}`)} % (${r.pick(["x", "y", "65", "t", "True", "-3.5"])},))`;
    case 16: return `print(${r.pick(["'{} {}'.format(x, y)", "'{0!r:^12}'.format(t)", "'{:>{w}}'.format(t, w=9)", "'{x}-{x}'.format(x=x)", "f'{x!r} {t!s:>6} {y=}'", "f'{t!a}'", "'{:,}'.format(" + intLit(r) + ")", "'{:_b}'.format(" + intLit(r) + ")", "'{0[0]}'.format(a)", "'{:e}'.format(x)", "'{:.3g}'.format(y)", "format(x, '')", "format(t, '^9')"])})`;
    case 17: return `print(t.${r.pick(["center(11, '-')", "ljust(8, '.')", "rjust(3)", "title()", "split(None, 1)", "rsplit(None, 1)", "strip('ab ')", "count('a', 1)", "find('a', -3)", "rfind('l', 0, -1)", "index('')", "replace('', '-')", "casefold()", "swapcase()", "zfill(8)", "expandtabs()", "capitalize()", "isnumeric()", "isprintable()", "split(',', -1)", "startswith(('x', 'H'), 1)", "endswith('d', 0, 4)", "rstrip('\\n')", "partition('')"])})`;
    case 18: return `print(${r.pick(["round(x)", "round(x, 2)", "round(y, -1)", "int(x)", "float(x)", "x.is_integer() if isinstance(x, float) else x", "-x", "+x", "x == int(x)", "bool(x)", "str(y)", "repr(x * 1.0)", "x * 1.1", "x / 7", "x ** 0.5 if x >= 0 else x", "1e308 * 10", "x // 0.3", "x % 0.3", "(x + 0.5).as_integer_ratio() if isinstance(x, float) else x"])})`;
    case 19: return `print(${r.pick(["a.index(t)", "t.index('zz')", "d.pop(t)", "a.remove(12345)", "[][0]", "{}[()]", "s.remove(99)", "'x'.join(a)", "min([])", "x.nope", "len(x)", "x()", "t + x", "a < t", "t[x]", "int(t)", "float(t)", "d[[]]", "{a: 1}", "undefined(1)", "a.sort(key=1)", "sorted(a, reverse=None)", "int(x, 10)", "chr(x)", "ord(t)", "list(x)", "'%d' % t", "t.split(x)", "next(iter(a))"])})`;
    case 20: return `t = t${r.pick(["[::-1]", ".upper()", " * 2", " + 'Z'", "[1:]", ".replace(',', ';')", ".strip()"])}`;
    case 21: return `x, y = ${r.pick(["y, x", "divmod(x, 3) if isinstance(x, int) else (x, y)", "(y, x + y)", "a[:2] if len(a) == 2 else (1, 2)", "t[:2] if len(t) == 2 else 'ab'"])}`;
    case 22: return `print(${r.pick(["a == a[:]", "a is a", "a[:] is a", "[] == []", "(1, 2) < (1, 2, 0)", "[1, 'a'] == [1, 'a']", "t < 'b'", "a != list(a)", "None is None", "1 in a", "t in a", "[1] * 3 == [1, 1, 1]", "(a > []) if a else 0"])})`;
    case 23: return `print(${r.pick(["list(range(x, 10, 3)) if isinstance(x, int) and abs(x) < 50 else 0", "list(range(10))[::-3]", "range(0, 20, 5)[1:3]", "list(reversed(range(4)))", "range(5)[-1]", "len(range(3, 30, 4))", "3 in range(0, 10, 3)", "range(10).index(4)", "range(2, 8)"])})`;
    default: return `print(${r.pick(["len(t)", "t * 0", "t[-1:]", "t[::2]", "t[5:1:-1]", "t[-100:100]", "list(t)[:3]", "sorted(t)[:4]", "t.encode('utf-8')", "[c for c in t if c.isalpha()][:5]", "''.join(reversed(t))", "t.splitlines(True)"])})`;
  }
}

const ODD_TEXTS = ["'a\\r\\nb\\rc\\nd'", "'x\\x0by\\x1cz\\u2028w'", "'\\u00a0 pad\\u3000'", "\"they're bill's\"", "'ß straße'", "'ǅungla'", "'İstanbul'", "'²³½'", "'١٢٣'", "'ﬁne ﬂow'", "'hello\\tworld\\tx'", "'  '", "'-12'", "'+0012'", "'a1b2 c3'", "'Ünïcödé'", "('x' * 3)", "'AbC'"];

/** Text: unusual characters through str methods, and numbers through every format path. */
function textual(r: Rng): string {
  const t = r.pick(ODD_TEXTS);
  switch (r.int(0, 6)) {
    case 0: return `print(${t}.${r.pick(["upper()", "lower()", "casefold()", "title()", "capitalize()", "swapcase()", "splitlines()", "splitlines(keepends=True)", "split()", "split(maxsplit=1)", "rsplit(None, 0)", "strip()", "expandtabs(4)", "center(15, '~')", "zfill(7)", "isdigit()", "isdecimal()", "isnumeric()", "isalpha()", "isalnum()", "isidentifier()", "isprintable()", "isspace()", "istitle()", "encode('utf-8')", "count('')", "partition(' ')"])})`;
    case 1: return `print(len(${t}), ${t}[::-1], ${t}[1:-1], repr(${t}), ascii(${t}))`;
    case 2: {
      const v = r.pick([randomFloat(r), r.pick(FLOATS), "2.675", "0.5", "1.5", "2.5", "1e22", "1e-5", "123456.789", "-0.0", "float('nan')", "float('inf')"]);
      return `print(format(${v}, ${JSON.stringify(spec(r, "float"))}), round(${v}${r.chance(0.5) ? `, ${r.int(-2, 4)}` : ""}), ${JSON.stringify(`%${r.pick(["", "+", "-8", "08", " ", "#"])}${r.pick(["", ".0", ".1", ".3", ".12"])}${r.pick(["f", "e", "g", "G", "E", "r", "s"])}`)} % ${v})`;
    }
    case 3: {
      const v = r.pick([randomInt(r), intLit(r), "True", "0", "-1", "65", "10**25"]);
      return `print(format(${v}, ${JSON.stringify(spec(r, "int"))}), ${JSON.stringify(`%${r.pick(["", "+", "-6", "06", "#", " "])}${r.pick(["d", "x", "X", "o", "c", "e", "f", "r", "i"])}`)} % ${v})`;
    }
    case 4: return `print('{0:{1}}'.format(${r.pick([randomFloat(r), randomInt(r), t])}, ${JSON.stringify(spec(r, r.pick(["int", "float", "str"] as const)))}))`;
    case 5: return `print(f'{${r.pick([randomFloat(r), randomInt(r)])}:${r.pick(["z", ""])}${r.pick([".1f", ".0f", ".3g", ",.2f", "_.1e", ">+12.4", "#.0f", "#g", ".2%", "n"])}}')`;
    default: return `print(${r.pick(["str", "repr", "float", "int"])}(${r.pick([randomFloat(r), randomInt(r)])}), ${randomFloat(r)} ${r.pick(["+", "-", "*", "/", "//", "%"])} ${randomFloat(r)})`;
  }
}

const SIGNATURES = ["a, b", "a, b=2", "a, *rest", "*, k", "a, /, b", "a, b=1, *args, k=3, **kw", "**kw", "a=None, *, k"];
const CALL_ARGS = ["1", "1, 2", "1, 2, 3", "k=1", "1, k=2", "a=1, b=2", "1, a=2", "*[1, 2]", "**{'a': 1}", "1, **{'b': 2, 'k': 5}", "", "*'xy', k=0", "b=2"];

/** Functions and control flow: signatures against calls, closures, loops, try/except/finally. */
function control(r: Rng): string {
  switch (r.int(0, 5)) {
    case 0: return `def f(${r.pick(SIGNATURES)}):\n    return ${r.pick(["'ok'", "1", "None"])}\nprint(f(${r.pick(CALL_ARGS)}))`;
    case 1: return `def g(${r.pick(SIGNATURES)}):\n    pass\ntry:\n    g(${r.pick(CALL_ARGS)})\n    print('called')\nexcept TypeError as e:\n    print('TypeError', e)`;
    case 2: return `n = 0\nwhile n < ${r.int(0, 6)}:\n    n += ${r.pick(["1", "2"])}\n    if n == ${r.int(1, 4)}:\n        ${r.pick(["continue", "break", "pass"])}\n    a.append(n)\nelse:\n    print('done', n)\nprint(a[-3:])`;
    case 3: return `try:\n    ${r.pick(["x = 1 / 0", "a[99]", "d['zz']", "int('q')", "t.nope", "undefined", "raise ValueError('v')", "raise KeyError(1, 2)", "pass", "assert x == y, (x, y)"])}\nexcept (${r.pick(["ValueError, KeyError", "LookupError", "ArithmeticError", "Exception", "TypeError"])}) as e:\n    print(type(e) is ValueError, repr(e), str(e), e.args)\nelse:\n    print('no error')\nfinally:\n    print('finally')`;
    case 4: return `def make(k):\n    def inner(v${r.pick(["", "=k", "=[]"])}):\n        return ${r.pick(["k + v", "[k, v]", "(k, v)", "f'{k}{v}'"])}\n    return inner\nfs = [make(i) for i in range(3)]\nprint([h(${r.pick(["1", "'s'", "[0]"])}) for h in fs])`;
    default: return `print(${r.pick(["[y for x in [[1, 2], [3]] for y in x]", "{x: y for x, y in zip('ab', 'cd')}", "[(lambda q=i: q * 2)() for i in range(3)]", "(n := 5) + n", "x if x > y else y", "1 < x <= 10 != y", "not x or y and t", "[*a, *t][:4]", "{**d, **{'z': 0}}", "(lambda *a, **k: (a, sorted(k)))(1, 2, z=3)", "sorted(a, key=lambda v: (type(v) is str, str(v)))"])})`;
  }
}

/** One program: a few variables, then 2 to 6 statements. */
export function program(r: Rng): string {
  const lines = [
    `a = ${list(r, 1)}`,
    `d = ${dict(r, 1)}`,
    `s = ${intSet(r)}`,
    `t = ${r.chance(0.7) ? r.pick(WORDS) : str(r, 2)}`,
    `x = ${num(r, 1)}`,
    `y = ${num(r, 1)}`,
  ];
  // A quarter of the programs exercise the standard modules and the forms models write.
  if (r.chance(0.25)) return libraryProgram(r, lines);
  const n = r.int(2, 6);
  for (let i = 0; i < n; i++) {
    const roll = r.next();
    lines.push(roll < 0.15 ? control(r) : roll < 0.3 ? textual(r) : roll < 0.65 ? extra(r) : statement(r));
  }
  lines.push("print(a, d, sorted(s), repr(t), x, y)");
  return lines.join("\n") + "\n";
}

/** `count` programs from `seed`: the same seed always gives the same programs. */
export function programs(seed: number, count: number): string[] {
  const r = new Rng(seed);
  return Array.from({ length: count }, () => program(r));
}
