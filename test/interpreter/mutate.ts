// Inputs for the fuzz test: programs of the corpora mutated at random (tokens swapped, lines
// inserted, deleted or duplicated, literals replaced by extreme values, code wrapped in
// try/except), and random calls of every built-in function, method and module function with
// random arguments. Seeded: a seed names the same inputs on every machine.
import { makeBuiltins } from "../../src/interpreter/builtins.js";
import { METHOD_TABLES } from "../../src/interpreter/methods/index.js";
import { JSON_MODULE } from "../../src/interpreter/modules/json.js";
import { MATH_MODULE } from "../../src/interpreter/modules/math.js";
import { ASYNCIO_MODULE } from "../../src/interpreter/modules/asyncio.js";
import { getAttribute } from "../../src/interpreter/runtime.js";
import type { Rng } from "./generate.js";

/** Values of every kind, extreme ones included, as expressions (`srv.tensor()` is a Tensor). */
export const VALUES = [
  "0", "1", "-1", "2", "7", "-7", "True", "False", "None", "2**64", "-(2**100)", "10**400", "2**31 - 1", "-2**63",
  "0.0", "-0.0", "1.5", "-2.5", "1e308", "5e-324", "float('nan')", "float('inf')", "-float('inf')",
  "''", "'a'", "'abc'", "'x' * 5000", "'\\x00'", "'é😀'", "' a b '", "'{}'", "'{0}{x}'", "'%s%d'", "'1_000'", "'\\n\\t'",
  "b''", "b'ab'", "b'\\xff\\x00'",
  "[]", "[1, 2, 3]", "['b', 'a']", "[[[]]]", "[None, 1, 'a']", "list(range(50))",
  "()", "(1,)", "(1, 'a', None)", "{}", "{'a': 1}", "{1: 'x', (1, 2): []}", "set()", "{1, 2}", "frozenset({1})",
  "range(10)", "range(-5, 5, 3)", "range(0)", "slice(1, 5, 2)", "slice(None)",
  "iter([1, 2])", "{'a': 1}.keys()", "{'a': 1}.items()", "enumerate('ab')", "zip([1], [2])", "map(abs, [-1])",
  "len", "print", "int", "str", "dict", "list", "type", "sorted", "ValueError", "ValueError('e')", "KeyError(1)",
  "lambda *a, **k: a", "lambda x: x", "lambda: 1", "json", "math", "srv.tensor()", "srv", "srv.echo",
  "srv.echo_async(1)", "asyncio.sleep(0)", "srv.echo(10**30)", "srv.echo([1, {'a': None}])",
];

const KEYWORDS = [
  "key", "reverse", "default", "sep", "end", "start", "base", "encoding", "errors", "indent", "sort_keys", "maxsplit",
  "separators", "ndigits", "x", "fillvalue", "strict", "object_hook", "ensure_ascii", "keepends", "chars", "sub",
];

/** Every callable a script can reach by name: builtins, module functions, methods of each type. */
export function callees(): string[] {
  const out = [...makeBuiltins({ getAttr: getAttribute }).keys()];
  for (const [name, v] of Object.entries(JSON_MODULE)) if (typeof v === "function") out.push(`json.${name}`);
  for (const [name, v] of Object.entries(MATH_MODULE)) if (typeof v === "function") out.push(`math.${name}`);
  for (const [name, v] of Object.entries(ASYNCIO_MODULE)) if (typeof v === "function") out.push(`asyncio.${name}`);
  const sample: Record<keyof typeof METHOD_TABLES, string[]> = {
    str: ["'a,b'", "''", "'x' * 3000", "'é😀A'"],
    list: ["[3, 1, 2]", "[]", "['a', 1]"],
    tuple: ["(1, 2, 1)", "()"],
    dict: ["{'a': 1, 'b': 2}", "{}"],
    set: ["{1, 2}", "set()"],
    frozenset: ["frozenset({1, 2})", "frozenset()"],
    int: ["5", "-(2**70)", "True"],
    float: ["1.5", "float('nan')", "-0.0"],
    bytes: ["b'ab'", "b''"],
    range: ["range(10)", "range(5, 0, -2)"],
  };
  for (const [type, table] of Object.entries(METHOD_TABLES)) {
    for (const method of Object.keys(table)) for (const self of sample[type as keyof typeof METHOD_TABLES]) out.push(`(${self}).${method}`);
  }
  for (const method of ["tolist", "item", "sum", "mean", "max", "min", "numel", "dim", "size", "stride", "is_contiguous"]) out.push(`srv.tensor().${method}`);
  return out;
}

/** Arguments most callees accept, so that half the calls get past the argument checks. */
const PLAUSIBLE = ["0", "1", "2", "-1", "3", "'a'", "','", "'abc'", "''", "[1, 2]", "(1, 2)", "{'a': 1}", "{1, 2}", "1.5", "None", "True", "'utf-8'", "lambda x: x", "range(3)"];

/** `callee(...)` with 0-3 positional arguments and maybe keywords, in a try that reprs the result. */
export function randomCall(r: Rng, callee: string): string {
  const pool = r.chance(0.5) ? PLAUSIBLE : VALUES;
  const args = Array.from({ length: r.int(0, 3) }, () => r.pick(pool));
  if (r.chance(0.2)) args.push(`${r.pick(KEYWORDS)}=${r.pick(pool)}`);
  if (r.chance(0.05)) args.push(`*${r.pick(["[1, 2]", "'ab'", "()"])}`);
  if (r.chance(0.05)) args.push(`**${r.pick(["{'key': len}", "{}", "{'x': 1}"])}`);
  return `import json, math, asyncio\ntry:\n    v = ${callee}(${args.join(", ")})\n    s = repr(v) + str(v)\n    h = [x for x in v] if isinstance(v, (list, tuple, str, dict, set)) else v\nexcept Exception as e:\n    s = repr(e)\n`;
}

const OPERATIONS = [
  "A + B", "A - B", "A * B", "A / B", "A // B", "A % B", "A ** B", "A @ B", "A & B", "A | B", "A ^ B", "A << B", "A >> B",
  "-A", "+A", "~A", "not A", "A < B", "A <= B", "A == B", "A != B", "A > B", "A is B", "A in B", "A not in B", "A and B",
  "A[B]", "A[B:]", "A[:B]", "A[B:B:B]", "A[B, B]", "A[B] = C", "del A[B]", "del A[B:C]", "A[B:C] = C", "A += B", "A *= B",
  "A |= B", "A -= B", "A //= B", "A **= B", "x, *y = A", "x, y = A", "[*A]", "{*A}", "{**A}", "(*A, *B)", "f'{A}{B!r}'",
  "f'{A:{B}}'", "f'{A:>10.3}'", "'%s %r' % (A, B)", "A % B % C", "'{}'.format(A)", "format(A, B)", "hash(A)",
  "len(A)", "iter(A)", "next(A)", "sorted(A)", "min(A, B)", "sum(A, B)", "str(A)", "repr(A)", "bool(A)", "int(A, B)",
  "float(A)", "list(A)", "tuple(A)", "dict(A)", "set(A)", "frozenset(A)", "isinstance(A, B)", "A(B)", "A(*B)", "A(**B)",
  "A.B", "getattr(A, B)", "hasattr(A, B)", "divmod(A, B)", "pow(A, B, C)", "round(A, B)", "abs(A)", "chr(A)", "ord(A)",
  "for q in A:\n        pass", "while A:\n        break", "assert A, B", "raise A", "raise A from B", "A = B = C",
  "json.dumps(A)", "json.loads(A)", "math.floor(A)", "math.isclose(A, B)", "math.gcd(A, B)", "math.log(A, B)",
  "asyncio.run(A)", "asyncio.gather(A, B)", "srv.echo(A)", "srv.echo(x=A)", "srv.echo_async(A)", "srv.nope(A)",
  "asyncio.run(asyncio.gather(srv.echo_async(A), srv.echo_async(B)))", "RESULT = A", "result = [A, B]", "enumerate(A, B)", "zip(A, B)", "map(A, B)", "filter(A, B)", "reversed(A)",
];

/** A few random operations on values of every kind (bound to a, b, c first), each in its own try. */
export function randomOperations(r: Rng): string {
  const lines = ["import json, math, asyncio"];
  const value = () => r.pick(r.chance(0.5) ? VALUES : PLAUSIBLE);
  for (let i = r.int(1, 4); i > 0; i--) {
    const op = r.pick(OPERATIONS).replace(/[ABC]/g, (m) => m.toLowerCase());
    lines.push(`try:\n    a, b, c = ${value()}, ${value()}, ${value()}\n    ${op}\nexcept Exception as e:\n    repr(e)`);
  }
  return lines.join("\n") + "\n";
}

const EXTREMES = [
  "10**4000", "-(2**4096)", "2**64", "0", "-1", "1e308", "float('nan')", "''", "'x' * 100000", "None", "[[[[[]]]]]",
  "{'a': {'b': [1, (2, {3})]}}", "len", "int", "lambda *a: a", "()", "b'\\x00'", "True", "range(10**6)", "{1: 2} | {}",
];

/** The tokens of a program: names, numbers, strings (roughly), operators, brackets and newlines. */
function tokens(source: string): string[] {
  return source.match(/\s+|\w+|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|\*\*|\/\/|[<>=!]=|->|:=|./g) ?? [];
}

/** One mutation of `source`; `donors` give lines to insert. */
export function mutate(r: Rng, source: string, donors: readonly string[]): string {
  const lines = source.split("\n");
  switch (r.int(0, 8)) {
    case 0: {
      const t = tokens(source);
      const solid = t.map((x, i) => [x, i] as const).filter(([x]) => x.trim() !== "");
      if (solid.length < 2) return source;
      const [, i] = r.pick(solid);
      const [, j] = r.pick(solid);
      [t[i], t[j]] = [t[j]!, t[i]!];
      return t.join("");
    }
    case 1: {
      const donor = r.pick(donors).split("\n");
      lines.splice(r.int(0, lines.length), 0, r.pick(donor));
      return lines.join("\n");
    }
    case 2:
      lines.splice(r.int(0, lines.length - 1), 1);
      return lines.join("\n");
    case 3: {
      const i = r.int(0, lines.length - 1);
      lines.splice(i, 0, lines[i]!);
      return lines.join("\n");
    }
    case 4:
      // A number or a string literal replaced by an extreme value.
      return source.replace(/\b\d+(\.\d+)?\b|'[^'\n]*'/g, (m) => (r.chance(0.2) ? r.pick(EXTREMES) : m));
    case 5:
      return `try:\n${lines.map((l) => `    ${l}`).join("\n")}\nexcept ${r.pick(["Exception", "ValueError", "(TypeError, KeyError)", "BaseException"])} as e:\n    print(repr(e))\n`;
    case 6: {
      // A name replaced by a builtin, a value, or another name.
      const t = tokens(source);
      const names = t.map((x, i) => [x, i] as const).filter(([x]) => /^[A-Za-z_]\w*$/.test(x));
      if (names.length === 0) return source;
      const [, i] = r.pick(names);
      t[i] = r.pick(["len", "print", "None", "sorted", "dict", "str", "x", "a", "d", "ValueError", "json", "(1, 2)", "[]"]);
      return `import json\n${t.join("")}`;
    }
    case 7: {
      // A token deleted or doubled.
      const t = tokens(source);
      const i = r.int(0, Math.max(0, t.length - 1));
      if (r.chance(0.5)) t.splice(i, 1);
      else t.splice(i, 0, t[i] ?? "");
      return t.join("");
    }
    default:
      // Inside a function, called twice (locals, closures, returns).
      return `def fuzz():\n${lines.map((l) => `    ${l}`).join("\n")}\n    return None\nfuzz()\nfuzz()\n`;
  }
}
