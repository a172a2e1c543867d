// What every built-in function, method and module function charges to the budget (SPEC §2).
// The interpreter itself charges one step per statement, loop iteration and call; natives charge
// in proportion to their work. Operators on big ints charge by their operands' sizes, as
// bigint-cost.ts models them (one step is about 10 ns of V8's work); comparisons of ints are
// memcmp-fast and uncharged. A test checks this table against the registries in both
// directions, and runs each `probe` at two sizes to see that the steps grow with the work.
// Memory (max_memory_bytes) is charged by the size model of sizes.ts, not by this table.

export interface Cost {
  /** The cost model, in words. */
  model: string;
  /**
   * A probe at size n: setup code, then one expression whose cost is measured. Absent for
   * constant-cost entries.
   */
  probe?: (n: number) => [setup: string, call: string];
}

const constant: Cost = { model: "constant: one step" };
const perItem = (setup: (n: number) => string, call: string): Cost => ({
  model: "one step per item of its input",
  probe: (n) => [setup(n), call],
});
const perChar = (setup: (n: number) => string, call: string): Cost => ({
  model: "one step per 16 characters scanned or built; large results checked against max_memory_bytes first",
  probe: (n) => [setup(n), call],
});

const perReprChar = (setup: (n: number) => string, call: string): Cost => ({
  model: "one step per 8 characters built, 12 more characters' worth per escape; built in chunks, each charged (steps, and the text so far against max_memory_bytes) before the next",
  probe: (n) => [setup(n), call],
});

const perPiece = (setup: (n: number) => string, call: string): Cost => ({
  model: "one step per piece and per 16 characters scanned; when the pieces might not fit in the steps left, counted and charged before the list is built",
  probe: (n) => [setup(n), call],
});

const list = (n: number) => `x = list(range(${n}))`;
const text = (n: number) => `s = 'ab,c ' * ${n}`;
const set = (n: number) => `x = set(range(${n}))\ny = set(range(0, ${2 * n}, 2))`;
const dict = (n: number) => `d = {i: i for i in range(${n})}`;

export const BUILTIN_COSTS: Record<string, Cost> = {
  print: perChar((n) => `s = 'x' * ${n}`, "print(s)"),
  len: constant,
  enumerate: perItem(list, "list(enumerate(x))"),
  zip: perItem(list, "list(zip(x, x))"),
  sorted: { model: "n·log2(n) steps, plus key calls and the comparison of tuple and long str keys (n·log2(n) per position for tuples of ints)", probe: (n) => [list(n), "sorted(x, reverse=True)"] },
  reversed: perItem(list, "list(reversed(x))"),
  min: perItem(list, "min(x)"),
  max: perItem(list, "max(x)"),
  sum: perItem(list, "sum(x)"),
  any: perItem((n) => `x = [0] * ${n}`, "any(x)"),
  all: perItem((n) => `x = [1] * ${n}`, "all(x)"),
  abs: constant,
  round: { model: "constant for floats; for an int and ndigits -k, 0 at once when 10**k exceeds it, else the work of 10**k, two divisions and a multiply (bigint-cost.ts)" },
  isinstance: constant,
  repr: perReprChar(list, "repr(x)"),
  ascii: perReprChar(list, "ascii(x)"),
  format: perChar((n) => `n = ${n}`, "format(1, '>' + str(n * 10))"),
  map: perItem(list, "list(map(abs, x))"),
  filter: perItem(list, "list(filter(None, x))"),
  divmod: { model: "those of // and %: for big ints, by the sizes of the quotient and divisor (bigint-cost.ts divSteps)" },
  pow: { model: "one step per 64 bits of the result and the squarings' work (bigint-cost.ts powSteps); size checked first. With a modulus m: per bit of the exponent, two multiplies and divisions of m's size", probe: (n) => [`n = ${n}`, "pow(3, n * 10)"] },
  chr: constant,
  ord: constant,
  hex: { model: "8 steps per 64 bits of the int: linear, and not limited to 4300 digits", probe: (n) => [`x = 7 ** (${n} * 20)`, "hex(x)"] },
  oct: { model: "8 steps per 64 bits of the int: linear, and not limited to 4300 digits", probe: (n) => [`x = 7 ** (${n} * 20)`, "oct(x)"] },
  bin: { model: "8 steps per 64 bits of the int: linear, and not limited to 4300 digits", probe: (n) => [`x = 7 ** (${n} * 20)`, "bin(x)"] },
  hash: {
    model:
      "constant, except for a big int (a division by a one-word number: bigint-cost.ts divSteps), a str past 16,383 units (digested: a step per 2 units, every time) and a long tuple or frozenset (its key text, a step per 2 units, once: it is kept). Dict and set look-ups and stores of such keys charge the same",
    probe: (n) => [`x = 7 ** (${n} * 20)`, "hash(x)"],
  },
  getattr: constant,
  hasattr: constant,
  iter: constant,
  next: constant,
  callable: constant,
  fail: constant,
  // Types, called as constructors.
  int: {
    model: "one step per 16 characters scanned; bases 2, 4, 8, 16, 32 then read in linear time, others (decimal) refuse more than 4300 digits and charge 2·w² steps for w 64-bit words (int-text.ts)",
    probe: (n) => [`s = '7' * ${n}`, "int(s, 16)"],
  },
  float: constant,
  // A big int's decimal text is quadratic: 2·w² steps for w 64-bit words, up to 4300 digits (int-text.ts).
  str: perReprChar(list, "str(x)"),
  bool: constant,
  list: perItem((n) => `r = range(${n})`, "list(r)"),
  tuple: perItem((n) => `r = range(${n})`, "tuple(r)"),
  dict: perItem((n) => `p = [(i, i) for i in range(${n})]`, "dict(p)"),
  set: perItem(list, "set(x)"),
  frozenset: perItem(list, "frozenset(x)"),
  bytes: perItem(list, "bytes(i % 256 for i in x)"),
  range: constant,
  slice: constant,
  type: constant,
};

export const METHOD_COSTS: Record<string, Cost> = {
  // str
  "str.capitalize": perChar(text, "s.capitalize()"),
  "str.casefold": perChar(text, "s.casefold()"),
  "str.center": perChar((n) => `n = ${n}`, "'x'.center(n * 10)"),
  "str.count": perChar(text, "s.count('c')"),
  "str.encode": { model: "one step per 16 characters; with characters the codec cannot encode (an error handler at work), one per character; the result checked against max_memory_bytes first", probe: (n) => [text(n), "s.encode()"] },
  "str.endswith": constant,
  "str.expandtabs": perChar((n) => `s = 'a\\t' * ${n}`, "s.expandtabs()"),
  "str.find": perChar(text, "s.find('z')"),
  "str.format": perChar((n) => `n = ${n}`, "'{:>{}}'.format(1, n * 10)"),
  "str.format_map": perChar((n) => `d = {'n': 'x' * ${n}}`, "'{n}{n}'.format_map(d)"),
  "str.index": perChar((n) => `s = 'a' * ${n} + 'z'`, "s.index('z')"),
  "str.isalnum": perChar(text, "s.isalnum()"),
  "str.isalpha": perChar((n) => `s = 'a' * ${n}`, "s.isalpha()"),
  "str.isascii": perChar(text, "s.isascii()"),
  "str.isdecimal": perChar((n) => `s = '1' * ${n}`, "s.isdecimal()"),
  "str.isdigit": perChar((n) => `s = '1' * ${n}`, "s.isdigit()"),
  "str.isidentifier": perChar((n) => `s = 'a' * ${n}`, "s.isidentifier()"),
  "str.islower": perChar((n) => `s = 'a' * ${n}`, "s.islower()"),
  "str.isnumeric": perChar((n) => `s = '1' * ${n}`, "s.isnumeric()"),
  "str.isprintable": perChar(text, "s.isprintable()"),
  "str.isspace": perChar((n) => `s = ' ' * ${n}`, "s.isspace()"),
  "str.istitle": perChar((n) => `s = 'Ab ' * ${n}`, "s.istitle()"),
  "str.isupper": perChar((n) => `s = 'A' * ${n}`, "s.isupper()"),
  "str.join": perChar((n) => `x = ['ab'] * ${n}`, "','.join(x)"),
  "str.ljust": perChar((n) => `n = ${n}`, "'x'.ljust(n * 10)"),
  "str.lower": perChar(text, "s.lower()"),
  "str.lstrip": perChar((n) => `s = ' ' * ${n} + 'x'`, "s.lstrip()"),
  "str.partition": perChar(text, "s.partition('z')"),
  "str.maketrans": perItem((n) => `d = {chr(65 + i % 26) + str(i): None for i in range(${n})}`, "str.maketrans({chr(i): None for i in range(len(d))})"),
  "str.removeprefix": { model: "constant: the result shares the string's storage" },
  "str.removesuffix": { model: "constant: the result shares the string's storage" },
  "str.replace": { model: "one step per match and per 16 characters scanned or built; the result checked against max_memory_bytes first", probe: (n) => [text(n), "s.replace('a', 'xyz')"] },
  "str.rfind": perChar(text, "s.rfind('z')"),
  "str.rindex": perChar((n) => `s = 'z' + 'a' * ${n}`, "s.rindex('z')"),
  "str.rjust": perChar((n) => `n = ${n}`, "'x'.rjust(n * 10)"),
  "str.rpartition": perChar(text, "s.rpartition('z')"),
  "str.rsplit": perPiece(text, "s.rsplit(',')"),
  "str.rstrip": perChar((n) => `s = 'x' + ' ' * ${n}`, "s.rstrip()"),
  "str.split": perPiece(text, "s.split(',')"),
  "str.splitlines": perPiece((n) => `s = 'ab\\n' * ${n}`, "s.splitlines()"),
  "str.startswith": constant,
  "str.strip": perChar((n) => `s = ' ' * ${n} + 'x'`, "s.strip()"),
  "str.swapcase": perChar(text, "s.swapcase()"),
  "str.title": perChar(text, "s.title()"),
  "str.translate": perChar(text, "s.translate({97: 'bb'})"),
  "str.upper": perChar(text, "s.upper()"),
  "str.zfill": perChar((n) => `n = ${n}`, "'1'.zfill(n * 10)"),
  // list
  "list.append": constant,
  "list.extend": perItem(list, "[].extend(x)"),
  "list.insert": perItem(list, "x.insert(0, 1)"),
  "list.remove": perItem(list, "x.remove(len(x) - 1)"),
  "list.pop": perItem(list, "x.pop(0)"),
  "list.clear": constant,
  "list.index": perItem(list, "x.index(len(x) - 1)"),
  "list.count": perItem(list, "x.count(1)"),
  "list.sort": { model: "n·log2(n) steps, plus key calls and the comparison of tuple and long str keys (n·log2(n) per position for tuples of ints)", probe: (n) => [list(n), "x.sort(reverse=True)"] },
  "list.reverse": perItem(list, "x.reverse()"),
  "list.copy": perItem(list, "x.copy()"),
  // tuple
  "tuple.index": perItem((n) => `x = tuple(range(${n}))`, "x.index(len(x) - 1)"),
  "tuple.count": perItem((n) => `x = tuple(range(${n}))`, "x.count(1)"),
  // range
  "range.index": { model: "constant for an int; one step per item for other values" },
  "range.count": { model: "constant for an int; one step per item for other values" },
  // dict
  "dict.get": constant,
  "dict.setdefault": constant,
  "dict.pop": constant,
  "dict.popitem": { model: "one step per item (finding the last key walks the dict)", probe: (n) => [dict(n), "d.popitem()"] },
  "dict.update": perItem(dict, "{}.update(d)"),
  "dict.keys": constant,
  "dict.values": constant,
  "dict.items": constant,
  "dict.clear": constant,
  "dict.copy": perItem(dict, "d.copy()"),
  "dict.fromkeys": perItem(list, "dict.fromkeys(x)"),
  // set and frozenset
  ...Object.fromEntries(
    ["set", "frozenset"].flatMap((t) => [
      [`${t}.copy`, perItem(set, `${t}(x).copy()`)],
      [`${t}.union`, perItem(set, "x.union(y)")],
      [`${t}.intersection`, perItem(set, "x.intersection(y)")],
      [`${t}.difference`, perItem(set, "x.difference(y)")],
      [`${t}.symmetric_difference`, perItem(set, "x.symmetric_difference(y)")],
      [`${t}.issubset`, perItem(set, "x.issubset(y)")],
      [`${t}.issuperset`, perItem(set, "y.issuperset(x)")],
      [`${t}.isdisjoint`, perItem(set, "x.isdisjoint(y)")],
    ]),
  ),
  "set.add": constant,
  "set.remove": constant,
  "set.discard": constant,
  "set.pop": constant,
  "set.clear": constant,
  "set.update": perItem(set, "x.update(y)"),
  "set.intersection_update": perItem(set, "x.intersection_update(y)"),
  "set.difference_update": perItem(set, "x.difference_update(y)"),
  "set.symmetric_difference_update": perItem(set, "x.symmetric_difference_update(y)"),
  // numbers and bytes
  "int.bit_length": { model: "constant below 1000 bits; above, a binary search over shifts, charged as the int's creation was" },
  "int.conjugate": constant,
  "float.is_integer": constant,
  "float.as_integer_ratio": constant,
  "float.conjugate": constant,
  "bytes.decode": perChar((n) => `b = b'ab' * ${n}`, "b.decode()"),
  "bytes.hex": perChar((n) => `b = b'ab' * ${n}`, "b.hex()"),
};

const mathConstant = "ceil floor trunc fabs sqrt cbrt exp exp2 expm1 log2 log10 log1p log pow sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh degrees radians copysign fmod remainder nextafter ulp modf frexp ldexp isclose isfinite isinf isnan erf erfc gamma lgamma";
const nums = (n: number) => `import math\nx = list(range(1, ${n}))`;

export const MODULE_COSTS: Record<string, Cost> = {
  "json.dumps": {
    model: "one step per value, per 16 characters of text scanned, per 4 characters written (indentation included) and per character an escape adds; the output checked against max_memory_bytes as it grows",
    probe: (n) => [`import json\nx = [{'k': i} for i in range(${n})]`, "json.dumps(x)"],
  },
  "json.loads": perChar((n) => `import json\ns = '[' + ','.join(['1'] * ${n}) + ']'`, "json.loads(s)"),
  ...Object.fromEntries(mathConstant.split(" ").map((f) => [`math.${f}`, constant])),
  "math.gcd": { model: "one step per argument; for big ints, each of Euclid's divisions charged before it (bigint-cost.ts divSteps)", probe: (n) => [nums(n), "math.gcd(*x)"] },
  "math.lcm": { model: "one step per argument, gcd's divisions, then a division and a multiply (bigint-cost.ts); the result's size checked first", probe: (n) => [nums(n), "math.lcm(*x[:n // 10]) if (n := len(x)) else 0"] },
  "math.isqrt": { model: "Newton's divisions of the whole number, about log2(bits / 26) + 2 of them (bigint-cost.ts isqrtSteps)", probe: (n) => [`import math\nv = 7 ** ${n}`, "math.isqrt(v)"] },
  "math.factorial": { model: "two steps per factor and the product tree's multiplies (bigint-cost.ts productSteps), the result's size checked next", probe: (n) => [`import math\nn = ${n}`, "math.factorial(n)"] },
  "math.comb": { model: "two products (bigint-cost.ts productSteps) and their division, the result's size checked", probe: (n) => [`import math\nn = ${n}`, "math.comb(2 * n, n)"] },
  "math.perm": { model: "two steps per factor and the product tree's multiplies (bigint-cost.ts productSteps), the result's size checked next", probe: (n) => [`import math\nn = ${n}`, "math.perm(n)"] },
  "math.prod": perItem(nums, "math.prod(x)"),
  "math.fsum": perItem(nums, "math.fsum(x)"),
  "math.hypot": perItem(nums, "math.hypot(*x)"),
  "math.dist": perItem(nums, "math.dist(x, x)"),
  "asyncio.run": { model: "the steps of the coroutine it runs" },
  "asyncio.gather": { model: "one step per awaitable, then the steps of each" },
  "asyncio.sleep": constant,
};
