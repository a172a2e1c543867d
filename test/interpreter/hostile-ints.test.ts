// Hostile integer scripts (issue 18): each ends quickly, with CPython's answer or a clean error,
// and no single operation holds the event loop. Big-int work is charged before it is done
// (bigint-cost.ts), and decimal text is limited to 4300 digits as in CPython 3.11 (int-text.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCodegen } from "../../src/interpreter/tiering.js";
import { execute } from "../../src/interpreter/execute.js";
import { cpython } from "./cpython.js";
import { measure } from "./stall.js";

const LIMIT_STR = "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit";
const limitInt = (n: number) => `Exceeds the limit (4300 digits) for integer string conversion: value has ${n} digits; use sys.set_int_max_str_digits() to increase the limit`;

/** Scripts whose answer CPython gives at once: ours must be the same, and quick. */
const ANSWERS: Record<string, string> = {
  "int() of 400,000 hex digits (linear, no digit limit)": "RESULT = int('f' * 400000, 16).bit_length()",
  "int() of binary, octal, base-4 and base-32 text past 4300 digits": "RESULT = [int('1' * 20000, b).bit_length() for b in (2, 4, 8, 32)] + [int('3' * 4321, 4) % 1000, int('v' * 4321, 32) % 1000, int('0x' + '7' * 9000, 0) % 1000]",
  // (CPython 3.11 builds 10 ** 10**9 for round(12345, -10**9), for minutes: its answer is 0, as here.)
  "round() of an int to a huge negative ndigits": "RESULT = [str(round(v, n)) for v, n in [(-12345, -10**5), (10**400, -400), (15 * 10**399, -400), (5 * 10**399, -400), (12345, 10**30), (25000, -4), (-15, -1)]]",
  "round() of a float to huge ndigits": "RESULT = [repr(round(1.5, 10**9)), repr(round(1.5, -10**9)), repr(round(-1.5, -10**30)), repr(round(1.5, 10**30))]",
  "4300 digits convert both ways": "x = int('9' * 4300)\nRESULT = [len(str(x)), len(repr(-x)), len(f'{x:d}'), len('%d' % x), x == 10**4300 - 1]",
  "hex(), bin(), oct() and format 'x' of a huge int are not limited": "x = 1 << 100000\nRESULT = [len(hex(x)), len(bin(x)), len(oct(x)), len(format(x, 'x')), len('%x' % x)]",
  "big-int arithmetic within the budget": "x = 3 ** 20000\ny = 7 ** 9000\nRESULT = [(x * y) % 1000003, (x // y) % 1000, divmod(x, y)[1] % 1000, pow(x, 3, 10**50 + 151), pow(x, -1, 10**500 + 1) % 10**9, (x << 5000) >> 4999 == 2 * x, hash(x)]",
  "math's integer functions within the budget": "import math\nx = 7 ** 3000\nRESULT = [math.factorial(3000) % 10**9, math.isqrt(x) % 10**9, math.gcd(x * 5, 7 ** 2000 * 3) == 7 ** 2000, math.lcm(x, 7 ** 10 * 3) % 1000, math.comb(3000, 1500) % 10**9, math.perm(3000, 1000) % 10**9]",
  "dict and set keys of big ints that share their low 64 bits (V8 hashes a BigInt by those)": "d = {i << 64: i for i in range(20000)}\ns = {(i << 64, 1) for i in range(20000)}\nRESULT = [len(d), len(s), d[5 << 64], (5 << 64, 1) in s, (6 << 64, 2) in s, {2**70: 1}[2.0**70], {2.0**70: 1}.get(2**70), len({2**70, 2.0**70, -2**70})]",
  "a hex literal of 60,000 digits (not limited)": `RESULT = 0x${"f".repeat(60000)} % 1000003`,
  "big-int keys keep CPython's equality and spelling (dict, set, frozenset, tuple, JSON)": "import json\nd = {2**70: 1, -2**70: 2, (2**70, 'a'): 3, 2.0**80: 4}\nd[2**80] = 5\nd[2**70] = d.get(2**70, 0) + 10\ne = dict(d)\ne.update({2**90: 6})\nf = {**e}\ns = {2**70, 2**71, 2.0**70}\nt = frozenset({2**70, 3})\nu = {t: 1}\nRESULT = [repr(d), json.dumps({2**70: 1, 2**71: [2**72]}), sorted(k for k in d if not isinstance(k, tuple)), list(f)[-1], e.popitem(), repr(dict.fromkeys([2**70, 2.0**70])), sorted(s | {2**72}), sorted(s & {2**71}), frozenset({2**70, 3}) in u, 2**70 in d.keys(), (2**70, 'a') in d, repr(set([2**64, 2**64 + 1, 2.0**64])), f'{10**40}', hash(frozenset({2**70})) == hash(frozenset({2.0**70}))]",
  "hash() of big ints and integral floats past 2**53": "RESULT = [hash(2**70), hash(-2**70), hash(2.0**70), hash(1 << 100000), hash((2**70, 1)) == hash((2.0**70, 1))]",
};

/** Scripts that must end in an error (the type, and the message or its start). */
const ERRORS: Record<string, [source: string, type: string, message: RegExp]> = {
  "squaring in a loop runs out of steps, quickly": ["x = 3\nwhile True:\n    x = x * x", "ResourceLimitError", /^max_(steps|memory_bytes) exceeded/],
  // x costs 62,500 steps (a shift and a subtraction): the multiply is what is refused.
  "one huge multiply is refused before it starts": ["x = (1 << 2000000) - 1\ny = x * x", "ResourceLimitError", /^max_steps exceeded/],
  "one huge division is refused before it starts": ["x = 1 << 20000000\ny = (x // 3) % 7", "ResourceLimitError", /^max_steps exceeded/],
  "a huge power is refused before it starts": ["x = 3 ** 5000000", "ResourceLimitError", /^max_steps exceeded/],
  "pow() with a modulus of a huge exponent is refused": ["x = pow(3, 1 << 100000, (1 << 100000) + 1)", "ResourceLimitError", /^max_steps exceeded/],
  "pow() with a negative exponent modulo a 200,000-bit int is refused": ["x = pow(3, -1, (1 << 200000) + 1)", "ResourceLimitError", /^max_steps exceeded/],
  "a huge left shift is refused before it starts": ["x = 1 << 10**12", "ResourceLimitError", /^max_memory_bytes exceeded/],
  "math.factorial() of 200,000 is refused before it starts": ["import math\nx = math.factorial(200000)", "ResourceLimitError", /^max_steps exceeded/],
  "math.isqrt() of a 280,000-bit int is refused before it starts": ["import math\nx = math.isqrt(7 ** 100000)", "ResourceLimitError", /^max_steps exceeded/],
  "math.gcd() of two 110,000-bit ints is refused before it starts": ["import math\nx = math.gcd(7 ** 40000, 5 ** 47000)", "ResourceLimitError", /^max_steps exceeded/],
  "math.comb() of 200,000 choose 100,000 is refused before it starts": ["import math\nx = math.comb(200000, 100000)", "ResourceLimitError", /^max_steps exceeded/],
  "negating a huge int in a loop runs out of steps": ["x = 1 << 20000000\nwhile True:\n    y = -x\n    z = ~x\n    w = abs(y)", "ResourceLimitError", /^max_steps exceeded/],
  "a decimal literal of 5000 digits is CPython's SyntaxError": [`x = 1\ny = ${"1".repeat(5000)}`, "SyntaxError", new RegExp(`^${escape(limitInt(5000))} - Consider hexadecimal for huge integer literals to avoid decimal conversion limits\\.$`)],
  "int() of 400,000 base-32 digits is refused before it starts": ["x = int('v' * 400000, 32)", "ResourceLimitError", /^max_steps exceeded/],
  "hex() of an 8M-bit int is refused before it starts": ["x = 1 << 8000000\ny = hex(x)", "ResourceLimitError", /^max_steps exceeded/],
  "a 16,383-bit dict key pays for its key text on each use": ["x = 1 << 16383\nd = {}\nfor i in range(100000):\n    d[x] = i", "ResourceLimitError", /^max_steps exceeded/],
  "int() of 5000 decimal digits": ["int('1' * 5000)", "ValueError", new RegExp(`^${escape(limitInt(5000))}$`)],
  "str() of a 5001-digit int": ["str(10**5000)", "ValueError", new RegExp(`^${escape(LIMIT_STR)}$`)],
  "str() of a huge int": ["str(1 << 10**7)", "ValueError", new RegExp(`^${escape(LIMIT_STR)}$`)],
  "repr() of a list holding a 5001-digit int": ["repr([1, 10**5000])", "ValueError", new RegExp(`^${escape(LIMIT_STR)}$`)],
  "an f-string of a 5001-digit int": ["f'{10**5000:d}'", "ValueError", new RegExp(`^${escape(LIMIT_STR)}$`)],
  "%d of a 5001-digit int": ["'%d' % 10**5000", "ValueError", new RegExp(`^${escape(LIMIT_STR)}$`)],
  "json.dumps of a 5001-digit int": ["import json\njson.dumps(10**5000)", "ValueError", new RegExp(`^${escape(LIMIT_STR)}$`)],
};

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("hostile ints end quickly, as CPython answers, without stalling the event loop", () => {
  // The first run of each path compiles the interpreter's own code (100-200 ms cold, on a loaded
  // machine): not what is measured here.
  beforeAll(async () => {
    for (const source of Object.values(ANSWERS)) await execute(source);
  });
  const names = Object.keys(ANSWERS);
  const theirs = cpython(names.map((n) => ANSWERS[n]!));
  names.forEach((name, i) => {
    it(name, async () => {
      const { result: r, wallMs, stallMs } = await measure(ANSWERS[name]!);
      expect(r.error).toBeNull();
      expect(theirs[i]!.error).toBeNull();
      expect(JSON.parse(JSON.stringify(r.result, (_k, v) => (typeof v === "bigint" ? Number(v) : v)))).toEqual(JSON.parse(theirs[i]!.result));
      expect(wallMs).toBeLessThan(1000);
      expect(stallMs).toBeLessThan(200);
    });
  });
  for (const [name, [source, type, message]] of Object.entries(ERRORS)) {
    it(name, async () => {
      const { result: r, wallMs, stallMs } = await measure(source);
      expect(r.error?.type).toBe(type);
      expect(r.error?.message).toMatch(message);
      expect(wallMs).toBeLessThan(1000);
      expect(stallMs).toBeLessThan(200);
    });
  }
});

describe("round() of an int to an ndigits of a billion digits", () => {
  it("answers 0 at once, where CPython 3.11 computes 10 ** 10**9 first", async () => {
    const { result: r, wallMs, stallMs } = await measure("RESULT = [round(12345, -10**9), round(-12345, -10**30), round(12345, -5), round(-12345, -6)]");
    expect(r.error).toBeNull();
    expect(r.result).toEqual([0, 0, 0, 0]);
    expect(wallMs).toBeLessThan(1000);
    expect(stallMs).toBeLessThan(200);
  });
});

describe("the digit limit's errors are CPython's", () => {
  it("int(), str(), repr(), format() and %d refuse 5000 digits with CPython's messages (a digit run over the limit before junk too)", () => {
    const sources = ["int('1' * 5000)", "int('0' * 5000)", "int('1_' * 4300 + '1')", "int('1' * 5000, 7)", "int('1' * 5000 + 'x')", "int('x' + '1' * 5000)", "int('9' * 5000, 7)", "int(' ' + '1' * 5000 + '.5')", "int('1_' * 2600)", "str(10**4300)", "repr(-10**5000)", "format(10**5000, ',')", "'%s' % 10**5000"];
    const theirs = cpython(sources);
    return Promise.all(
      sources.map(async (source, i) => {
        const r = await execute(source);
        expect({ source, type: r.error?.type, message: r.error?.message }).toEqual({ source, type: theirs[i]!.error?.type, message: theirs[i]!.error?.message });
      }),
    );
  });
});

describe("both tiers charge big-int work alike", () => {
  afterAll(() => setCodegen(process.env.PY_CODEGEN === "always" ? "always" : "auto"));

  // Loops, so that the JavaScript tier compiles them, over every charged int operation.
  const SOURCE = `
import math
x = 3 ** 5000
out = []
for i in range(3):
    y = x * (x + i) - (x << 7) // (x >> 3 | 1)
    out.append([y % 1000003, -y % 7, abs(-y) & 255, (~y ^ x) % 1000, divmod(y, x)[0] % 99, pow(x, 5, 10**40 + i), round(y, -1000) % 10**9])
    out.append([int('f' * 3000, 16) % 997, len(str(x)), len(f'{x:x}'), len('%d' % x), math.isqrt(y) % 1000, math.gcd(y, x * 7) % 1000, hash(y), x / (y + 1)])
RESULT = out`;

  it("gives the same result and step count in the closure tier and the JavaScript tier", async () => {
    const limits = { max_steps: 10_000_000 };
    setCodegen("never");
    const closures = await execute(SOURCE, { limits });
    setCodegen("always");
    const js = await execute(SOURCE, { limits });
    expect(closures.error).toBeNull();
    expect(js.result).toEqual(closures.result);
    expect(js.stats.steps).toBe(closures.stats.steps);
    // The ints' work is most of it: far more than the statements' few dozen steps.
    expect(closures.stats.steps).toBeGreaterThan(100_000);
    const [theirs] = cpython([SOURCE]);
    expect(JSON.parse(JSON.stringify(closures.result, (_k, v) => (typeof v === "bigint" ? Number(v) : v)))).toEqual(JSON.parse(theirs!.result));
  });
});
