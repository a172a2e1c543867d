// The regex engine against CPython beyond the hand-written corpus: random patterns and texts,
// the character classes over every code point, the case-insensitive equivalences, and what the
// engine refuses (valid in CPython, refused here with a reason).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { caseFixes, casedBmp, isDigit, isSpace, isWord } from "../../../src/interpreter/modules/re/chars.js";
import { cpython } from "../cpython.js";
import { probe, py, REFUSED } from "./re-corpus.js";

/** A small seeded generator (mulberry32), so that a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ATOMS = ["a", "b", "c", ".", "\\d", "\\w", "\\s", "\\W", "[ab]", "[^a]", "[a-c1]", "\\n", " ", "1", "é"];
const ANCHORS = ["^", "$", "\\b", "\\B", "\\A", "\\Z"];
const QUANTIFIERS = ["*", "+", "?", "*?", "+?", "??", "{2}", "{0,2}", "{1,}", "{,2}?", "{1,3}"];

/**
 * A random pattern of depth at most `depth`, from the constructs the engine supports. `dense`
 * ones are mostly groups, repeats and empty alternatives over two letters: what exercises how
 * repeats treat iterations that match nothing.
 */
function pattern(next: () => number, depth: number, dense = false): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const item = (): string => {
    const r = next();
    if (depth > 0 && r < (dense ? 0.5 : 0.25)) {
      const kind = pick(["(", "(?:", "(?P<g" + Math.floor(next() * 1000) + ">", "(?i:", "(?s:"]);
      return kind + pattern(next, depth - 1, dense) + ")";
    }
    if (r < (dense ? 0.55 : 0.33)) return pick(ANCHORS);
    return dense ? pick(["a", "b", "a", "[ab]"]) : pick(ATOMS);
  };
  const seq = (): string => {
    let s = "";
    // Now and then an empty alternative: (|a), (a|).
    const n = next() < (dense ? 0.25 : 0.1) ? 0 : 1 + Math.floor(next() * 3);
    for (let i = 0; i < n; i++) {
      let x = item();
      if (next() < (dense ? 0.6 : 0.35) && !ANCHORS.includes(x)) x += pick(QUANTIFIERS);
      s += x;
    }
    return s;
  };
  let s = seq();
  while (next() < (dense ? 0.4 : 0.3)) s += "|" + seq();
  return s || "a";
}

function text(next: () => number): string {
  const chars = "aaabbc 1\né";
  let s = "";
  const n = Math.floor(next() * 12);
  for (let i = 0; i < n; i++) s += chars[Math.floor(next() * chars.length)];
  return s;
}

/**
 * The pos and endpos arguments (which keep ^, \A and \b looking at the whole string, and cut it
 * at endpos), and the same pattern over bytes when it and the text are ASCII.
 */
function windows(pattern: string, text: string, flags: string): string {
  const lines = [
    "import re",
    `p = re.compile(${py(pattern)}, ${flags})`,
    `t = ${py(text)}`,
    "print(p.search(t, 1), p.search(t, 0, 3), p.match(t, 2), p.match(t, 1, 4), p.fullmatch(t, 1, 3))",
    "print(p.findall(t, 1), p.findall(t, 0, 4), [m.span() for m in p.finditer(t, 2, 5)])",
  ];
  if (/^[\x00-\x7f]*$/.test(pattern + text)) {
    lines.push(
      `b = re.compile(${py(pattern)}.encode(), ${flags})`,
      `u = ${py(text)}.encode()`,
      "print(b.search(u), b.findall(u), b.split(u), b.subn(rb'<\\g<0>>', u))",
    );
  }
  return lines.join("\n");
}

const COUNT = Number(process.env.RE_FUZZ_COUNT ?? 300);
const SEED = Number(process.env.RE_FUZZ_SEED ?? 19);

describe("random patterns agree with CPython", () => {
  const next = rng(SEED);
  const cases: { source: string }[] = [];
  for (let i = 0; i < COUNT; i++) {
    const p = pattern(next, i % 3 === 2 ? 3 : 2, i % 3 === 2);
    const flags = next() < 0.2 ? "re.I" : next() < 0.2 ? "re.M" : "0";
    cases.push({ source: probe(p, text(next), flags) }, { source: windows(p, text(next), flags) });
  }
  it(`${cases.length} snippets (seed ${SEED})`, async () => {
    const theirs = cpython(cases.map((c) => c.source));
    const failures: string[] = [];
    for (let i = 0; i < cases.length; i++) {
      const r = await execute(cases[i]!.source);
      const want = theirs[i]!;
      const ours = { stdout: r.stdout, error: r.error ? `${r.error.type}: ${r.error.message}` : null };
      const expected = { stdout: want.stdout, error: want.error ? `${want.error.type}: ${want.error.message}` : null };
      // A pattern that backtracks for seconds in CPython (what this engine exists to avoid) has
      // no answer to compare with.
      if (want.error?.type === "Timeout") continue;
      if (JSON.stringify(ours) !== JSON.stringify(expected)) {
        failures.push(`${cases[i]!.source}\n--- ours:\n${ours.stdout}${ours.error ?? ""}\n--- CPython:\n${expected.stdout}${expected.error ?? ""}`);
      }
    }
    expect(failures.slice(0, 5).join("\n=====\n")).toBe("");
  }, 600_000);
});

/** Runs a Python program and parses its printed JSON. */
function python(program: string): unknown {
  const run = spawnSync("python3", ["-c", program], { maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString());
}

describe("character classes are CPython's over every code point", () => {
  // The code points CPython 3.11 (Unicode 14) assigns, and those each class accepts, as runs.
  const data = python(String.raw`
import json, re, unicodedata
def runs(test):
    out, start = [], None
    for c in range(0x110000):
        ok = test(c)
        if ok and start is None: start = c
        if not ok and start is not None: out.append([start, c - 1]); start = None
    if start is not None: out.append([start, 0x10ffff])
    return out
assigned = lambda c: unicodedata.category(chr(c)) != 'Cn'
print(json.dumps({
    "assigned": runs(assigned),
    "w": runs(lambda c: re.match(r'\w', chr(c)) is not None),
    "d": runs(lambda c: re.match(r'\d', chr(c)) is not None),
    "s": runs(lambda c: re.match(r'\s', chr(c)) is not None),
}))`) as Record<string, [number, number][]>;
  const assigned = new Uint8Array(0x110000);
  for (const [lo, hi] of data.assigned!) assigned.fill(1, lo, hi + 1);

  it.each([
    ["\\w", "w", isWord],
    ["\\d", "d", isDigit],
    ["\\s", "s", isSpace],
  ] as const)("%s", (_name, key, test) => {
    const expected = new Uint8Array(0x110000);
    for (const [lo, hi] of data[key]!) expected.fill(1, lo, hi + 1);
    const wrong: string[] = [];
    for (let c = 0; c < 0x110000; c++) {
      // Characters assigned after Unicode 14 follow the JS engine's newer tables (documented).
      if (!assigned[c] && !expected[c]) continue;
      if ((test(c) ? 1 : 0) !== expected[c]) wrong.push(c.toString(16));
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  });

  it("the cased characters of the BMP are CPython's (sre's iscased)", () => {
    const theirs = python("import json, _sre, unicodedata; print(json.dumps([c for c in range(0x10000) if _sre.unicode_iscased(c) and unicodedata.category(chr(c)) != 'Cn']))") as number[];
    // Case pairs that Unicode 16 gave to characters CPython 3.11 (Unicode 14) has as caseless.
    const newer = new Set([0x19b, 0x264, 0xa7cb, 0xa7cd, 0xa7dc, 0xa7da, 0xa7db, 0xa7d2, 0xa7d3, 0xa7d4, 0xa7d5, 0xa7ce, 0xa7cf, 0xa7cc, 0x1c89, 0x1c8a]);
    const ours = [...casedBmp()].filter((c) => assigned[c] && !newer.has(c));
    expect(ours).toEqual(theirs.filter((c) => !newer.has(c)));
  });

  it("the case fixes of IGNORECASE are CPython's re._casefix table", () => {
    const theirs = python("import json; from re._casefix import _EXTRA_CASES as E; print(json.dumps({k: list(v) for k, v in E.items()}))") as Record<string, number[]>;
    const ours: Record<string, number[]> = {};
    for (const [k, v] of caseFixes()) ours[String(k)] = [...v];
    expect(ours).toEqual(theirs);
  });
});

describe("what the linear-time engine cannot run is refused, saying why", () => {
  const sources = REFUSED.map(([p]) => `import re\nRESULT = bool(re.compile(${py(p)}))`);
  const theirs = cpython(sources);

  it.each(REFUSED.map(([p, what], i) => [p, what, i] as const))("%s (%s)", async (_pattern, what, i) => {
    expect(theirs[i]!.error).toBeNull();
    const r = await execute(sources[i]!);
    expect(r.error?.type).toBe("error");
    expect(r.error?.message).toContain(`${what}`);
    expect(r.error?.message).toContain("are not supported: the sandbox's regular expressions run in linear time, without lookaround or backreferences");
    expect(r.error?.message).toContain("str methods");
    expect(r.error?.message).toMatch(/at position \d+$/);
  });

  it("refusals are re.error, caught as CPython's errors are", async () => {
    const r = await execute("import re\ntry:\n    re.search(r'(?<=\\$)\\d+', 'cost $5')\nexcept re.error as e:\n    RESULT = [e.pos, e.msg.split(':')[0]]");
    expect(r.result).toEqual([0, "look-behind assertions (?<=...) are not supported"]);
  });

  it("(?<name>...) fails as in CPython, with a hint to write (?P<name>...)", async () => {
    const r = await execute("import re\nre.compile(r'(?<year>\\d+)')");
    expect(r.error?.type).toBe("error");
    expect(r.error?.message).toBe("unknown extension ?<y at position 1");
    expect(r.error?.hints).toContain("Python names a group with (?P<name>...), not (?<name>...)");
  });

  it("\\N{...} escapes are refused: the sandbox has no table of character names", async () => {
    const r = await execute("import re\nre.compile(r'\\N{EM DASH}')");
    expect(r.error?.type).toBe("error");
    expect(r.error?.message).toContain("named Unicode escapes");
  });
});

describe("the module, its types and their instances have nothing of JavaScript", () => {
  it.each(["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "prototype", "compiled", "slots", "cls", "program"])("%s", async (name) => {
    for (const obj of ["re", "re.compile('a')", "re.match('a', 'a')", "re.Pattern", "re.Match", "re.error"]) {
      const r = await execute(`import re\nRESULT = getattr(${obj}, '${name}', 'absent')`);
      expect(r.result, `${obj}.${name}`).toBe("absent");
    }
  });
});
