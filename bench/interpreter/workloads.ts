// The workloads of bench:interpreter (the .py files beside this one), and the new texts of them
// that the "new script" scenario runs.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout's root: the nearest folder above this file with a package.json (from bench/ or dist/bench/). */
function findRoot(from: string): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const ROOT = findRoot(fileURLToPath(import.meta.url));
/** A file of bench/interpreter/ (the .py files are not copied to dist/). */
export const benchFile = (name: string) => join(ROOT, "bench", "interpreter", name);

export interface Workload {
  file: string;
  name: string;
  /** Written for issue 21, after the interpreter's shortcuts: nothing in it was tuned for. */
  unseen: boolean;
  source: string;
}

// The first eight are the ones the interpreter's shortcuts were measured and tuned on; the rest
// were written for issue 21 (the last five while its first-run tier-up was being built).
const FILES: [file: string, name: string, unseen: boolean][] = [
  ["arithmetic.py", "arithmetic loop (300k iterations)", false],
  ["string_building.py", "string building (join + +=)", false],
  ["dict_counting.py", "dict counting (180k words)", false],
  ["comprehension_sort.py", "list comprehension + sort with key", false],
  ["fib.py", "recursive fib(25)", false],
  ["json_records.py", "transform 1,000 JSON records", false],
  ["fstrings.py", "f-string formatting (20k lines)", false],
  ["string_parsing.py", "string-method parsing (8k log lines)", false],
  ["inventory_report.py", "records grouped and ranked with helpers", true],
  ["word_stats.py", "word statistics (str methods, sets)", true],
  ["matrix_math.py", "36×36 matrix product (nested lists, zip)", true],
  ["graph_paths.py", "breadth-first search (dict of lists)", true],
  ["parse_fields.py", "loose fields parsed with try/except", true],
  ["calls.py", "small functions called in a while loop (collatz)", true],
  ["string_methods.py", "str methods over 6k generated lines", true],
  ["records.py", "3,000 dict records grouped by team", true],
  ["comprehensions.py", "nested comprehensions over a 120×120 grid", true],
  ["while_loops.py", "while loops with integer state", true],
];

export const ALL_WORKLOADS: Workload[] = FILES.map(([file, name, unseen]) => ({ file, name, unseen, source: readFileSync(benchFile(file), "utf8") }));
/** The repeated-script scenario's workloads: the tuned eight, as before issue 21. */
export const TUNED_WORKLOADS = ALL_WORKLOADS.filter((w) => !w.unseen);

/** Runs a bench/interpreter/*.py helper with `input` as JSON on stdin; returns its JSON answer. */
export function python<T>(script: string, input: unknown, args: string[] = []): T {
  const run = spawnSync("python3", [benchFile(script), ...args], { input: JSON.stringify(input), maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`python3 ${script} failed: ${run.error?.message ?? run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as T;
}

/**
 * `count` new texts of each workload, numbered from `first`: variant n renames every name the
 * script binds with the suffix `_v<n>` (bench/interpreter/variants.py), so it is a script no
 * engine has seen, with the same steps and the same RESULT.
 */
export function variants(workloads: Workload[], first: number, count: number): Map<string, string[]> {
  const texts = python<Record<string, string[]>>("variants.py", { workloads: workloads.map((w) => ({ name: w.file, source: w.source })), first, count });
  return new Map(workloads.map((w) => [w.file, texts[w.file]!]));
}

/** CPython's RESULT of each workload, as JSON that JavaScript would write (the cross-check's reference). */
export function expectedResults(workloads: Workload[]): string[] {
  const found = python<{ results: string[] }>("cpython.py", { mode: "results", workloads: workloads.map((w) => ({ name: w.file, source: w.source })) });
  return found.results.map(asJsJson);
}

/** Python's json.dumps writes 2.0 where JavaScript writes 2: compare both as JavaScript writes them. */
export const asJsJson = (json: string) => JSON.stringify(JSON.parse(json));
