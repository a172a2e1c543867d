// The fast paths of split(), split(sep), join(), replace() and of len()/slicing of long strings
// built by concatenation, against CPython: each on both sides of the conditions that choose it
// (short and long texts, " " alone or other whitespace, maxsplit, item counts around the chunked
// join, match counts around 16), and their budget charges, which must not depend on the path taken.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PyException } from "../../src/interpreter/errors.js";
import { STR_METHODS } from "../../src/interpreter/methods/str.js";
import { cpAt, cpLength, cpSlice } from "../../src/interpreter/strings.js";
import { PyList, PyTuple, type Value } from "../../src/interpreter/values.js";
import { disagreements } from "./cpython.js";
import { Rng } from "./generate.js";
import { testContext } from "./native-context.js";

interface Call {
  self: string;
  method: "split" | "join" | "replace";
  args: Value[];
}

type Outcome = { ok: unknown } | { error: string };

function runOurs(call: Call): Outcome {
  try {
    const v = STR_METHODS[call.method]!(testContext(), call.self, call.args, null);
    return { ok: v instanceof PyList ? v.items : v };
  } catch (e) {
    if (e instanceof PyException) return { error: `${e.type.name}: ${String(e.args[0])}` };
    throw e;
  }
}

const DRIVER = String.raw`
import json, sys
out = []
for recv, method, args in json.loads(sys.stdin.buffer.read().decode('utf-8', 'surrogatepass')):
    try:
        out.append({'ok': getattr(recv, method)(*args)})
    except Exception as e:
        out.append({'error': type(e).__name__ + ': ' + str(e)})
sys.stdout.buffer.write(json.dumps(out).encode())
`;

function argJson(v: Value): unknown {
  if (v instanceof PyList || v instanceof PyTuple) return v.items.map(argJson);
  return v;
}

function runCpython(batch: Call[]): Outcome[] {
  const input = batch.map((c) => [c.self, c.method, c.args.map(argJson)]);
  const run = spawnSync("python3", ["-c", DRIVER], { input: JSON.stringify(input), encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as Outcome[];
}

function differences(batch: Call[]): string[] {
  const label = (c: Call) => `${JSON.stringify(c.self.slice(0, 60))}.${c.method}(${JSON.stringify(c.args.map(argJson)).slice(0, 80)})`;
  return disagreements(batch, runCpython(batch), runOurs, label);
}

// Every whitespace character split() knows besides " ", and characters JS's \s has but Python's
// whitespace has not (U+FEFF, U+180E), which must stay inside words.
const OTHER_SPACES = ["\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"];
const NOT_SPACES = ["\ufeff", "\u180e", "\u200b", "\x1b", "\x84", "\x86"];
const WORDS = ["a", "ok", "alpha", "é", "中", "😀", "x😀y", "\ud83d", "\ude00", "user=7", "w".repeat(24), "w".repeat(25), ...NOT_SPACES];

/** Words between runs of blanks, optionally with other whitespace, `units` long or a little more. */
function spacedText(rand: Rng, units: number, others: boolean): string {
  let s = rand.next() < 0.3 ? rand.pick([" ", "  "]) : "";
  while (s.length < units) {
    s += rand.pick(WORDS);
    s += others && rand.next() < 0.2 ? rand.pick(OTHER_SPACES) : rand.pick([" ", " ", "  ", "   "]);
  }
  return rand.next() < 0.5 ? s.trimEnd() : s;
}

const MAXSPLITS: Value[] = [-1, 0, 1, 2, 5, 1000];

function splitCalls(seed: number): Call[] {
  const rand = new Rng(seed);
  const out: Call[] = [];
  for (const units of [0, 1, 3, 12, 60, 300, 1023, 1024, 1030, 3000]) {
    for (const others of [false, true]) {
      for (let k = 0; k < 6; k++) {
        const self = spacedText(rand, units, others);
        out.push({ self, method: "split", args: [] });
        out.push({ self, method: "split", args: [null, rand.pick(MAXSPLITS)] });
        out.push({ self, method: "split", args: [rand.pick([" ", "  ", "@", "=", "a", "😀", "\ude00", "\ud83d", "w".repeat(24)])] });
      }
    }
  }
  for (const self of ["", " ", "  ", "\t", "a", " a ", "a b", "\ufeffa b\ufeff", "a\u3000b\xa0c\x85d\x1ce\x1ff"]) {
    for (const max of MAXSPLITS) out.push({ self, method: "split", args: [null, max] });
    out.push({ self, method: "split", args: [] });
  }
  for (const self of ["", "@", "@@", "a@", "@a", "user7@example3.com", "a@b@c", "😀@😀", "\ud83d\ude00", "x\ud83d\ude00y\ude00z"]) {
    for (const sep of ["@", "😀", "\ude00", "\ud83d", "\ud83d\ude00", "@@"]) out.push({ self, method: "split", args: [sep] });
  }
  // Long texts of " " and words where another whitespace character hides in a new word, in a
  // long word, or after so many distinct words that the whole text is scanned instead.
  const recurring = "alpha beta gamma ".repeat(100);
  const distinct = Array.from({ length: 3000 }, (_, k) => `w${k}`).join(" ");
  for (const space of ["\t", "\x1f", "\x85", "\xa0", "\u3000", "\u2028"]) {
    out.push({ self: `${recurring}gam${space}ma delta`, method: "split", args: [] });
    out.push({ self: `x${space}y ${recurring}`, method: "split", args: [] });
    out.push({ self: `${recurring}${"w".repeat(30)}${space}${"w".repeat(30)} alpha`, method: "split", args: [] });
    out.push({ self: `${distinct} a${space}b ${distinct}`, method: "split", args: [] });
    out.push({ self: `${distinct} alpha${space}`, method: "split", args: [] });
  }
  out.push({ self: distinct + " 😀 \ud83d \ude00", method: "split", args: [] });
  out.push({ self: "a b", method: "split", args: [""] });
  return out;
}

function joinCalls(seed: number): Call[] {
  const rand = new Rng(seed);
  const item = () => rand.pick(["", "a", "ok", "é", "😀", "\ud83d", "\ude00", "0123456789abcdef", "w".repeat(40)]);
  const out: Call[] = [];
  for (const n of [0, 1, 2, 3, 16, 16384, 16385, 20_000, 40_000]) {
    for (const sep of ["", ",", ", ", "😀", "\ude00"]) {
      const items = Array.from({ length: n }, item);
      out.push({ self: sep, method: "join", args: [rand.next() < 0.5 ? new PyList(items) : new PyTuple(items)] });
    }
  }
  for (const [n, bad] of [[2, 0], [2, 1], [3, 2], [20_000, 0], [20_000, 4097], [20_000, 19_999]] as const) {
    const items: Value[] = Array.from({ length: n }, item);
    items[bad] = rand.pick([7, null, new PyList([])]);
    out.push({ self: ",", method: "join", args: [new PyList(items)] });
  }
  out.push({ self: ",", method: "join", args: ["abc"] });
  out.push({ self: "", method: "join", args: ["😀\ud83d"] });
  return out;
}

/** replace() with 1, a few and more than 16 matches, every count: concatenation or split and join. */
function replaceCalls(): Call[] {
  const self = "a-b".repeat(40) + "😀-x";
  const out: Call[] = [];
  for (const [old, replacement] of [["-", "+"], ["a", ""], ["", "|"], ["b-a", "X"], ["😀", "e"], ["\ude00", "?"]]) {
    for (const count of [-1, 0, 1, 2, 16, 17, 20, 50, 200]) out.push({ self, method: "replace", args: [old!, replacement!, count] });
  }
  return out;
}

describe("fast paths of split, join and replace agree with CPython", () => {
  it("split() and split(None, maxsplit) on short and long texts, with and without whitespace other than ' '", () => {
    const batch = [...splitCalls(1), ...splitCalls(2)];
    expect(batch.length).toBeGreaterThan(700);
    expect(differences(batch).slice(0, 10)).toEqual([]);
  });

  it("join of 0, 1, 2, a few, and more items than one call of Array.prototype.join takes, and its errors", () => {
    expect(differences(joinCalls(3)).slice(0, 10)).toEqual([]);
  });

  it("replace() with a few matches and with many, under every count", () => {
    expect(differences(replaceCalls()).slice(0, 10)).toEqual([]);
  });
});

describe("long strings built by concatenation", () => {
  // Each string is built piece by piece (as `text += c` builds it), while an equal string built
  // earlier is in the cache of long strings.
  const built = (pieces: string[]) => {
    let s = "";
    for (const p of pieces) s += p;
    return s;
  };
  const PIECES = [["a", "b", "c"], ["a", "é", "中"], ["a", "😀", "b"], ["a", "\ud83d", "\ude00", "b"]];

  it("have len(), s[i] and s[a:b:c] as CPython's", () => {
    const cases: { s: string; i: number; slice: [number | null, number | null, number | null] }[] = [];
    for (const pieces of PIECES) {
      for (const n of [1023, 1024, 5000]) {
        const seq = Array.from({ length: n }, (_, k) => pieces[k % pieces.length]!);
        for (let copy = 0; copy < 2; copy++) {
          cases.push({ s: built(seq), i: -5, slice: [-5, null, null] });
          cases.push({ s: built(seq), i: 1000, slice: [3, 2000, 7] });
          cases.push({ s: built(seq), i: n - 1, slice: [null, null, -3] });
        }
      }
    }
    const ours = cases.map(({ s, i, slice }) => [cpLength(s), cpAt(s, i) ?? null, cpSlice(s, ...slice)]);
    const script = String.raw`
import json, sys
out = []
for s, i, (a, b, c) in json.loads(sys.stdin.buffer.read().decode('utf-8', 'surrogatepass')):
    out.append([len(s), s[i] if -len(s) <= i < len(s) else None, s[a:b:c]])
sys.stdout.buffer.write(json.dumps(out).encode())
`;
    const input = JSON.stringify(cases.map((c) => [c.s, c.i, c.slice]));
    const run = spawnSync("python3", ["-c", script], { input, encoding: "utf8", maxBuffer: 1 << 28 });
    if (run.status !== 0) throw new Error(run.stderr);
    expect(ours).toEqual(JSON.parse(run.stdout));
  });
});

describe("budget charges do not depend on the path taken", () => {
  const steps = (self: string, method: "split" | "join", args: Value[]) => {
    const ctx = testContext();
    const v = STR_METHODS[method]!(ctx, self, args, null);
    return { steps: ctx.budget.steps, memory: ctx.budget.memory, length: v instanceof PyList ? v.items.length : 0 };
  };

  it("split charges one step per 16 units scanned and one per piece", () => {
    const rand = new Rng(4);
    for (const units of [0, 5, 60, 1023, 1024, 5000]) {
      for (const others of [false, true]) {
        const s = spacedText(rand, units, others);
        for (const args of [[], [null, 2], [" "], ["@"]] as Value[][]) {
          const { steps: charged, length } = steps(s, "split", args);
          expect(charged).toBe(1 + Math.floor(s.length / 16) + length);
        }
      }
    }
  });

  it("join charges one step per item and one per 16 units built, and no memory", () => {
    for (const n of [0, 1, 2, 3, 16384, 16385, 40_000]) {
      const items = Array.from({ length: n }, (_, k) => String(k));
      const units = items.reduce((sum, s) => sum + s.length, 0) + 2 * Math.max(n - 1, 0);
      for (const wrap of [new PyList(items), new PyTuple(items)]) {
        expect(steps(", ", "join", [wrap])).toEqual({ steps: n + 1 + Math.floor(units / 16), memory: 0, length: 0 });
      }
    }
  });
});
