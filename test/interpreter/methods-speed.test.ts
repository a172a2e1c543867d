// The fast paths of the str and container methods (whole-string windows, native splits, a single
// replacement, positional-only arguments) against CPython: random calls over ASCII, non-ASCII,
// astral and lone-surrogate text, short and long, all run in one python3 process.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PyException } from "../../src/interpreter/errors.js";
import { METHOD_TABLES } from "../../src/interpreter/methods/index.js";
import type { Kwargs } from "../../src/interpreter/native.js";
import { PyDict, PyList, PyTuple, type Value } from "../../src/interpreter/values.js";
import { disagreements } from "./cpython.js";
import { Rng } from "./generate.js";
import { testContext } from "./native-context.js";

// Pieces of text: words, every kind of Python whitespace and line break, non-ASCII letters, an
// astral character (a surrogate pair here) and lone surrogates, which may pair up when adjacent.
const PIECES = [
  "a", "b", "ab", "ok", "log", "action=", "=", "@", "x.y", "é", "Σ", "中", "😀", "\ud83d", "\ude00",
  " ", " ", "  ", "\t", "\n", "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1e", "\x1f", "\x85", "\xa0", "\u2028", "\u3000",
];
const WORDS = ["alpha", "beta", "gamma", "é", "😀x", "w".repeat(24), "w".repeat(25), "a\ude00", "\ud83d"];

function text(rand: Rng, pieces: readonly string[], n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += rand.pick(pieces);
  return s;
}

interface Call {
  self: Value;
  method: string;
  args: Value[];
  kwargs?: Record<string, Value>;
}

/** The calls: each fast path with inputs on both sides of its conditions. */
function calls(seed: number): Call[] {
  const rand = new Rng(seed);
  const out: Call[] = [];
  const shortText = () => text(rand, PIECES, Math.floor(rand.next() * 12));
  // Long texts: words between blanks only (the native split), or with other whitespace too.
  const longText = () => {
    const only = rand.next() < 0.6;
    let s = "";
    while (s.length < 1100) s += rand.pick(WORDS) + (only ? rand.pick([" ", "  "]) : rand.pick([" ", "\n", "\t", " \u3000"]));
    return rand.next() < 0.5 ? " " + s : s.trimEnd();
  };
  const needle = () => rand.pick(["", "a", "ab", "b a", "\n", "😀", "\ud83d", "\ude00", "a\ud83d", "\ude00b", "é", "Σ", "action=", "zz"]);
  for (let i = 0; i < 400; i++) {
    const self = rand.next() < 0.85 ? shortText() : longText();
    const sub = needle();
    out.push({ self, method: "split", args: [] });
    out.push({ self, method: "split", args: [rand.pick([null, " ", "\n", "😀", "\ude00", "a"])] });
    out.push({ self, method: "split", args: [null, Math.floor(rand.next() * 4) - 1] });
    out.push({ self, method: "rsplit", args: [] });
    out.push({ self, method: "splitlines", args: [] });
    out.push({ self, method: "splitlines", args: [rand.next() < 0.5] });
    out.push({ self, method: "replace", args: [sub, rand.pick(["", "-", "$&", "$1", "😀"])] });
    out.push({ self, method: "replace", args: [sub, "#", Math.floor(rand.next() * 3) - 1] });
    for (const method of ["startswith", "endswith", "find", "rfind", "count", "index", "rindex"]) {
      out.push({ self, method, args: [sub] });
      out.push({ self, method, args: [text(rand, PIECES, Math.floor(rand.next() * 3))] });
    }
    out.push({ self, method: "startswith", args: [self.slice(0, Math.floor(rand.next() * 4))] });
    out.push({ self, method: "endswith", args: [self.slice(self.length - Math.floor(rand.next() * 4))] });
    out.push({ self, method: "endswith", args: [new PyTuple([sub, "ok"])] });
    out.push({ self, method: "find", args: [sub, Math.floor(rand.next() * 6) - 3] });
    const items: Value[] = Array.from({ length: Math.floor(rand.next() * 4) }, () => (rand.next() < 0.1 ? 7 : shortText()));
    out.push({ self: sub, method: "join", args: [rand.next() < 0.5 ? new PyList(items) : new PyTuple(items)] });
    out.push({ self: sub, method: "join", args: [shortText()] });
  }
  out.push({ self: ",", method: "join", args: [3] });
  // Argument errors keep CPython's types on every path.
  for (const method of ["split", "rsplit", "splitlines", "startswith", "endswith", "find", "count", "replace"]) {
    out.push({ self: "a b", method, args: [1] });
    out.push({ self: "a b", method, args: [" ", 1, 2, 3] });
    out.push({ self: "a b", method, args: [], kwargs: { nope: 1 } });
  }
  out.push({ self: "a b c", method: "split", args: [], kwargs: { maxsplit: 1 } });
  out.push({ self: "a\nb\n", method: "splitlines", args: [], kwargs: { keepends: true } });
  return out;
}

// ------------------------------------------------------------------ running both sides

type Tagged = null | boolean | string | number | { t: Tagged[] } | { l: Tagged[] };

function tag(v: Value): Tagged {
  if (v === null || typeof v === "boolean" || typeof v === "string" || typeof v === "number") return v;
  if (v instanceof PyTuple) return { t: v.items.map(tag) };
  if (v instanceof PyList) return { l: v.items.map(tag) };
  throw new Error(`cannot tag ${String(v)}`);
}

type Outcome = { ok: Tagged } | { error: string };

function runOurs(call: Call): Outcome {
  const kwargs: Kwargs | null = call.kwargs ? new Map(Object.entries(call.kwargs)) : null;
  const table = METHOD_TABLES.str as Record<string, (...a: unknown[]) => Value>;
  try {
    return { ok: tag(table[call.method]!(testContext(), call.self, call.args, kwargs)) };
  } catch (e) {
    if (e instanceof PyException) return { error: `${e.type.name}: ${String(e.args[0])}` };
    throw e;
  }
}

const DRIVER = String.raw`
import json, sys
def dec(v):
    if isinstance(v, dict):
        (k, x), = v.items()
        return tuple(dec(y) for y in x) if k == 't' else [dec(y) for y in x]
    return v
def enc(v):
    if isinstance(v, tuple): return {'t': [enc(y) for y in v]}
    if isinstance(v, list): return {'l': [enc(y) for y in v]}
    return v
out = []
for recv, method, args, kwargs in json.loads(sys.stdin.buffer.read().decode('utf-8')):
    try:
        out.append({'ok': enc(getattr(recv, method)(*[dec(a) for a in args], **kwargs))})
    except Exception as e:
        out.append({'error': type(e).__name__ + ': ' + str(e)})
print(json.dumps(out))
`;

function runCpython(batch: Call[]): Outcome[] {
  const input = batch.map((c) => [c.self, c.method, c.args.map(tag), c.kwargs ?? {}]);
  const run = spawnSync("python3", ["-c", DRIVER], { input: JSON.stringify(input), encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as Outcome[];
}

function differences(batch: Call[]): string[] {
  return disagreements(batch, runCpython(batch), runOurs, (call) => `${JSON.stringify(call.self)}.${call.method}(${JSON.stringify(call.args.map(tag))})`);
}

describe("str method fast paths agree with CPython", () => {
  it("on random short and long texts (ASCII, non-ASCII, astral, lone surrogates), results and error messages", () => {
    const batch = [...calls(1), ...calls(2)];
    expect(batch.length).toBeGreaterThan(10_000);
    const found = differences(batch);
    expect(found.slice(0, 10)).toEqual([]);
  });

  it("charge the same steps for the same work, whichever path a call takes", () => {
    const steps = (self: string, method: string, args: Value[], kwargs: Kwargs | null = null) => {
      const ctx = testContext();
      (METHOD_TABLES.str[method] as (...a: unknown[]) => Value)(ctx, self, args, kwargs);
      return ctx.budget.steps;
    };
    const long = "alpha beta  gamma ".repeat(100);
    // Keyword and positional spellings take different paths to the same charges.
    expect(steps(long, "split", [])).toBe(steps(long, "split", [], new Map([["sep", null]])));
    expect(steps(long + "\n", "split", [])).toBe(steps(long + "\n", "split", [], new Map([["sep", null]])));
    expect(steps(long, "splitlines", [])).toBe(steps(long, "splitlines", [], new Map([["keepends", false]])));
    // A window equal to the whole string charges as no window.
    expect(steps(long, "endswith", ["a "])).toBe(steps(long, "endswith", ["a ", 0]));
    expect(steps(long, "find", ["zz"])).toBe(steps(long, "find", ["zz", 0]));
    expect(steps(long, "count", ["a"])).toBe(steps(long, "count", ["a", 0]));
    expect(steps(long, "split", [])).toBeGreaterThan(long.length / 16);
  });
});

describe("dict method fast paths", () => {
  it("get and setdefault keep CPython's results for str keys, NUL-prefixed keys and others", () => {
    const ctx = testContext();
    const d = new PyDict();
    const D = METHOD_TABLES.dict;
    for (const k of ["a", "", "\0x", 1, true, null]) D.setdefault!(ctx, d, [k, new PyList([])], null);
    expect([...d.keys()]).toEqual(["a", "", "\0x", 1, null]);
    expect(D.get!(ctx, d, ["\0x"], null)).toBeInstanceOf(PyList);
    expect(D.get!(ctx, d, ["x", 7], null)).toBe(7);
    expect(D.get!(ctx, d, ["\0\0x"], null)).toBeNull();
  });
});
