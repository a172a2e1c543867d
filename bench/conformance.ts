// Conformance: runs the public Starlark and Monty suites (../shared/conformance, read in place,
// never copied) through the interpreter and counts what passes, per file and in total.
//
//   npm run conformance                 pass counts per file and the totals
//   npm run conformance -- --failures   also every failing chunk with our error
//   npm run conformance -- --write      also rewrite the Conformance section of bench/RESULTS.md
//
// The suites are found at ../shared/conformance next to the checkout, or at $CONFORMANCE_DIR.
// The pass rules are the suites' own (their README.md files): a Starlark chunk runs after the
// fail-hard assertion prelude and must end without an error, or with an error whose text
// (stdout and traceback, lower-cased) contains or regex-matches the expectation; a Monty file
// must run clean, raise the marked exception (type and message), or return the marked repr.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "../grammar/parse.js";
import { execute, type SandboxResult } from "../src/interpreter/execute.js";
import { montyFiles, starlarkFileChunks } from "../test/grammar/corpus.js";
import { cpython } from "../test/interpreter/cpython.js";
import { writeSection } from "./results.js";

export interface Case {
  /** The file, relative to the suite: `go/int.star` or `str__ops.py`. */
  file: string;
  /** 1-based line of the chunk's first line in its file. */
  line: number;
  source: string;
  expect: Expectation;
}

export type Expectation =
  | { kind: "ok" }
  /** Starlark: the error text must contain or regex-match `pattern` (lower-cased). */
  | { kind: "error-text"; pattern: string }
  /** Monty: the exception's type, and its `str()` unless `message` is null (`Type()`). */
  | { kind: "raise"; type: string; message: string | null }
  /** Monty: the last statement is an expression whose repr must be `repr`. */
  | { kind: "return"; repr: string };

export interface Outcome {
  suite: "starlark" | "monty";
  case: Case;
  pass: boolean;
  /** What we did instead, when the case fails. */
  got: string;
}

/** The package root: the nearest directory above this file with a package.json. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export function conformanceDir(): string {
  return process.env.CONFORMANCE_DIR ? resolve(process.env.CONFORMANCE_DIR) : resolve(packageRoot(), "../shared/conformance");
}

// ------------------------------------------------------------------ reading the suites

/** Starlark files: `---`-separated chunks, read as the grammar tests read them (test/grammar/corpus.ts). */
export function starlarkCases(dir = conformanceDir()): Case[] {
  return starlarkFileChunks(dir).map(({ file, line, source, expectedError }) => ({
    file,
    line,
    source,
    expect: expectedError === null ? { kind: "ok" } : { kind: "error-text", pattern: expectedError },
  }));
}

/** The value of a Python string literal as the markers write it (`'a'`, `"it's"`, escapes). */
function stringLiteral(text: string): string {
  const stmt = parse(text).body[0];
  if (stmt?.kind === "Expr" && stmt.value.kind === "Constant" && typeof stmt.value.value === "string") return stmt.value.value;
  throw new Error(`not a string literal: ${text}`);
}

/** Python's repr of a str (the KeyError message is the repr of the key). */
function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = [...s]
    .map((c) => {
      if (c === "\\") return "\\\\";
      if (c === quote) return `\\${c}`;
      if (c === "\n") return "\\n";
      if (c === "\r") return "\\r";
      if (c === "\t") return "\\t";
      const code = c.codePointAt(0)!;
      if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, "0")}`;
      return c;
    })
    .join("");
  return quote + body + quote;
}

/** Monty files: one program each, with a `# Raise=`, `# Return=` or traceback marker, or none. */
export function montyCases(dir = conformanceDir()): Case[] {
  return montyFiles(dir).map(({ file, source }) => ({ file, line: 1, source, expect: montyExpectation(source) }));
}

function montyExpectation(source: string): Expectation {
  const raise = /^# Raise=(\w+)\((.*)\)\s*$/m.exec(source);
  if (raise) {
    const type = raise[1]!;
    if (raise[2] === "") return { kind: "raise", type, message: null };
    const arg = stringLiteral(raise[2]!);
    return { kind: "raise", type, message: type === "KeyError" ? strRepr(arg) : arg };
  }
  const ret = /^# Return=(.*)$/m.exec(source);
  if (ret) return { kind: "return", repr: ret[1]! };
  const traceback = /"""\s*\nTRACEBACK:[\s\S]*\n([^\n]+)\n"""\s*$/.exec(source);
  if (traceback) {
    const last = traceback[1]!;
    const colon = last.indexOf(": ");
    return colon < 0 ? { kind: "raise", type: last, message: null } : { kind: "raise", type: last.slice(0, colon), message: last.slice(colon + 2) };
  }
  return { kind: "ok" };
}

// ------------------------------------------------------------------ running

const STARLARK_PRELUDE = "prelude_strict.star";

/** Python's `re` patterns of the suite compile as JS RegExps without the `u` flag. */
function textMatches(pattern: string, text: string): boolean {
  const want = pattern.toLowerCase();
  const have = text.toLowerCase();
  if (have.includes(want)) return true;
  try {
    return new RegExp(want).test(have);
  } catch {
    return false;
  }
}

function errorLine(r: SandboxResult): string {
  if (!r.error) return "no error";
  return r.error.message ? `${r.error.type}: ${r.error.message}` : r.error.type;
}

/**
 * A `# Return=` file: everything before the final expression statement runs as is, and the
 * expression's repr is bound to RESULT.
 */
function withReturn(source: string): string {
  const body = parse(source).body;
  const last = body[body.length - 1];
  if (!last || last.kind !== "Expr") throw new Error("a # Return= file must end with an expression");
  const lines = source.split("\n");
  const before = lines.slice(0, last.line - 1);
  const expr = lines.slice(last.line - 1, last.endLine).join("\n");
  return [...before, `RESULT = repr((\n${expr}\n))`].join("\n") + "\n";
}

export async function runCase(suite: "starlark" | "monty", c: Case, prelude = ""): Promise<Outcome> {
  const expect = c.expect;
  const source = expect.kind === "return" ? withReturn(c.source) : prelude + c.source;
  const filename = c.file.split("/").pop()!;
  const r = await execute(source, { filename });
  const outcome = (pass: boolean, got: string): Outcome => ({ suite, case: c, pass, got });
  switch (expect.kind) {
    case "ok":
      return outcome(r.error === null, errorLine(r));
    case "error-text":
      return outcome(r.error !== null && textMatches(expect.pattern, r.stdout + r.stderr), errorLine(r));
    case "raise": {
      const pass = r.error?.type === expect.type && (expect.message === null ? r.error.message === "" : r.error.message === expect.message);
      return outcome(pass, errorLine(r));
    }
    case "return":
      return outcome(r.error === null && r.result === expect.repr, r.error ? errorLine(r) : `returned ${String(r.result)}`);
  }
}

/**
 * The same verdict for CPython 3.11 (python3, one process for all cases): whether it passes the
 * chunk by the same rule. A chunk CPython fails too tests Starlark-only behaviour.
 */
export function cpythonVerdicts(cases: { case: Case; prelude: string }[]): { pass: boolean; got: string }[] {
  const sources = cases.map(({ case: c, prelude }) => (c.expect.kind === "return" ? withReturn(c.source) : prelude + c.source));
  return cpython(sources).map((r, i) => {
    const expect = cases[i]!.case.expect;
    const got = r.error ? (r.error.message ? `${r.error.type}: ${r.error.message}` : r.error.type) : "no error";
    switch (expect.kind) {
      case "ok":
        return { pass: r.error === null, got };
      case "error-text":
        return { pass: r.error !== null && textMatches(expect.pattern, r.stdout + r.error.text), got };
      case "raise":
        return { pass: r.error?.type === expect.type && r.error.message === (expect.message ?? ""), got };
      case "return":
        return { pass: r.error === null && JSON.parse(r.result) === expect.repr, got };
    }
  });
}

export async function runSuites(dir = conformanceDir()): Promise<Outcome[]> {
  const prelude = readFileSync(join(dir, "starlark", STARLARK_PRELUDE), "utf8");
  const outcomes: Outcome[] = [];
  for (const c of starlarkCases(dir)) outcomes.push(await runCase("starlark", c, prelude));
  for (const c of montyCases(dir)) outcomes.push(await runCase("monty", c));
  return outcomes;
}

export interface Tally {
  passed: number;
  total: number;
}

/** Pass counts per file (`starlark/go/int.star`, `monty/str__ops.py`) and per suite. */
export function tally(outcomes: Outcome[]): { files: Map<string, Tally>; suites: Map<string, Tally> } {
  const files = new Map<string, Tally>();
  const suites = new Map<string, Tally>();
  for (const o of outcomes) {
    for (const [map, key] of [[files, `${o.suite}/${o.case.file}`], [suites, o.suite]] as const) {
      const t = map.get(key) ?? { passed: 0, total: 0 };
      t.total++;
      if (o.pass) t.passed++;
      map.set(key, t);
    }
  }
  return { files, suites };
}

// ------------------------------------------------------------------ the command

function pct(t: Tally): string {
  return `${t.passed}/${t.total} (${((100 * t.passed) / t.total).toFixed(1)}%)`;
}

async function main(): Promise<void> {
  const dir = conformanceDir();
  if (!existsSync(dir)) {
    console.error(`conformance data not found at ${dir}; set CONFORMANCE_DIR to the folder that holds starlark/ and monty/`);
    process.exit(2);
  }
  const started = performance.now();
  const outcomes = await runSuites(dir);
  const seconds = (performance.now() - started) / 1000;
  const { files, suites } = tally(outcomes);
  for (const [file, t] of files) console.log(`${t.passed === t.total ? "  " : "✗ "}${file}: ${t.passed}/${t.total}`);
  console.log("");
  for (const [suite, t] of suites) console.log(`${suite}: ${pct(t)}`);
  const all = [...suites.values()].reduce((a, t) => ({ passed: a.passed + t.passed, total: a.total + t.total }), { passed: 0, total: 0 });
  console.log(`total: ${pct(all)} in ${seconds.toFixed(1)} s`);

  const failing = outcomes.filter((o) => !o.pass);
  const wantsCPython = process.argv.includes("--cpython") || process.argv.includes("--write");
  const prelude = readFileSync(join(dir, "starlark", STARLARK_PRELUDE), "utf8");
  const verdicts = wantsCPython ? cpythonVerdicts(failing.map((o) => ({ case: o.case, prelude: o.suite === "starlark" ? prelude : "" }))) : null;
  const rows = failing.map((o, i) => ({
    name: `${o.suite}/${o.case.file}:${o.case.line}`,
    want: describeExpectation(o.case.expect),
    ours: o.got,
    cpython: verdicts ? (verdicts[i]!.pass ? "passes" : `fails too (${verdicts[i]!.got})`) : "",
  }));
  if (process.argv.includes("--failures") || process.argv.includes("--cpython")) {
    console.log("");
    for (const r of rows) console.log(`${r.name}  want ${r.want}  got ${r.ours}${r.cpython ? `  CPython ${r.cpython}` : ""}`);
  }
  if (process.argv.includes("--write")) writeResults(suites, files, all, rows);
}

function describeExpectation(e: Expectation): string {
  switch (e.kind) {
    case "ok":
      return "no error";
    case "error-text":
      return `error matching \`${e.pattern}\``;
    case "raise":
      return e.message === null ? e.type : `${e.type}: ${e.message}`;
    case "return":
      return `result ${e.repr}`;
  }
}

/** Markdown table cells hold no pipes or newlines. */
function cell(text: string): string {
  // Object addresses (`<enumerate object at 0x7f...>`) change from run to run.
  const flat = text.replace(/ at 0x[0-9a-f]+/g, "").replace(/\s+/g, " ").replace(/\|/g, "\\|");
  return flat.length > 110 ? `${flat.slice(0, 107)}...` : flat;
}

function writeResults(
  suites: Map<string, Tally>,
  files: Map<string, Tally>,
  all: Tally,
  rows: { name: string; want: string; ours: string; cpython: string }[],
): void {
  const lines = [
    "Each Starlark chunk runs with the suite's fail-hard prelude (`prelude_strict.star`) in front, untagged and `go:` expectations apply; each Monty file must run clean, raise its marked exception with its message, or return its marked repr. `--write` also runs every failing case under python3 (3.11) by the same rule, to tell Starlark-only behaviour from our own gaps. `test/interpreter/conformance.test.ts` keeps the counts from dropping.",
    "",
    "| suite | passed | total |",
    "|---|---|---|",
  ];
  for (const [s, t] of suites) lines.push(`| ${s} | ${t.passed} | ${t.total} |`);
  lines.push(`| **total** | **${all.passed}** | **${all.total}** |`, "");
  lines.push("Files with a failing case (passed/total):", "");
  lines.push([...files].filter(([, t]) => t.passed < t.total).map(([f, t]) => `\`${f}\` ${t.passed}/${t.total}`).join(", "), "");
  const starlarkOnly = rows.filter((r) => r.cpython.startsWith("fails too"));
  const ours = rows.filter((r) => !r.cpython.startsWith("fails too"));
  lines.push(`### Where CPython 3.11 passes and we do not (${ours.length})`, "");
  lines.push("| case | expected | we give | why |", "|---|---|---|---|");
  for (const r of ours) lines.push(`| ${r.name} | ${cell(r.want)} | ${cell(r.ours)} | ${cell(DIVERGENCES[r.name] ?? "not yet explained")} |`);
  lines.push("", `### Starlark-only behaviour: CPython 3.11 fails these too (${starlarkOnly.length})`, "");
  lines.push("The dialect is Python: where Starlark and CPython disagree we follow CPython, so these fail by design. Each row gives what CPython 3.11 does with the same chunk.", "");
  lines.push("| case | expected | we give | CPython 3.11 |", "|---|---|---|---|");
  for (const r of starlarkOnly) {
    const theirs = r.cpython.replace(/^fails too \((.*)\)$/, "$1").replace(/^Fail: /, "fail(): ");
    lines.push(`| ${r.name} | ${cell(r.want)} | ${cell(r.ours)} | ${cell(theirs)} |`);
  }
  writeSection("conformance", "Conformance", "npm run conformance -- --write", lines.join("\n"));
}

/** Cases CPython passes and we fail on purpose, with the reason (grammar/LANGUAGE.md has more). */
export const DIVERGENCES: Record<string, string> = {
  "starlark/rust/josharian_fuzzing.star:24": "calls dir(): introspection is not in the sandbox (a NameError whose hint says so)",
  "monty/builtin__repr.py:1": "reprs the builtin id, which the sandbox leaves out (object identity is not part of the dialect)",
  "monty/function__call_unpack.py:1": "calls property(): classes and descriptors are not in the sandbox",
  "monty/fstring__all.py:1": "formats with a precision of 10**6: the step budget charges per character produced",
  "monty/range__ops.py:1": "a range longer than 2**53 (len(range(-2**62, 2**62 - 1))): ranges hold JS numbers",
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
