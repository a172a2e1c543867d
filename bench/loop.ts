// Event-loop holding benchmark (issue 18): the longest time one operation keeps the event loop
// from serving anything else, at default limits. Each hostile script and each built-in that
// consumes an iterable of any length runs over a huge input until a budget stops it; the front
// end parses and compiles 16-64 KB scripts, realistic and pathological. The target is 20 ms.
// `npm run bench:loop` (`-- --quick` for one run of each, `-- --write` to record its section of
// bench/RESULTS.md, `-- --only=<text>` for the cases whose name contains it).
import { loadavg } from "node:os";
import { PerformanceObserver } from "node:perf_hooks";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "../grammar/parse.js";
import { scan } from "../grammar/lexer.js";
import { analyse } from "../src/interpreter/scope.js";
import { compileModule } from "../src/interpreter/compile.js";
import { execute } from "../src/interpreter/execute.js";
import { median, writeSection } from "./results.js";

const quick = process.argv.includes("--quick");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const RUNS = quick ? 1 : 3;
const TARGET_MS = 20;

/** The scripts run by execute(): each should end (mostly in a ResourceLimitError) without a long stall. */
const HUGE = "range(10**9)";
const RUNTIME: [name: string, source: string][] = [
  // Issue 18, item 2.
  ["int('f' * 400000, 16)", "x = int('f' * 400000, 16)"],
  ["x = x * x in a loop", "x = 3\nwhile True:\n    x = x * x"],
  ["round(12345, -10**9)", "x = round(12345, -10**9)"],
  ["str() of a huge int", "x = str(1 << 10**7)"],
  ["repr('\\x01' * 3*10**7)", "x = repr('\\x01' * 3 * 10**7)"],
  // Issue 18, item 7.
  ["300,000 zip objects", "big = [zip([i], [i]) for i in range(300000)]"],
  ["list('a' * 3*10**7)", "x = list('a' * 3 * 10**7)"],
  ["chained exceptions", "e = None\nwhile True:\n    try:\n        raise ValueError('x' * 1000) from e\n    except ValueError as f:\n        e = f"],
  // Built-ins that consume an iterable of any length.
  ...([
      ["list", `list(${HUGE})`],
      ["tuple", `tuple(${HUGE})`],
      ["set", `set(${HUGE})`],
      ["frozenset", `frozenset(${HUGE})`],
      ["dict.fromkeys", `dict.fromkeys(${HUGE})`],
      ["dict(zip)", `dict(zip(${HUGE}, ${HUGE}))`],
      ["dict(enumerate)", `dict(enumerate(${HUGE}))`],
      ["sorted", `sorted(${HUGE})`],
      ["sorted(reverse)", `sorted(${HUGE}, reverse=True)`],
      ["sum", `sum(${HUGE})`],
      ["sum of floats", `sum(map(float, ${HUGE}))`],
      ["min", `min(${HUGE})`],
      ["max", `max(${HUGE})`],
      ["max(key=)", `max(${HUGE}, key=abs)`],
      ["any", "import itertools\nany(itertools.repeat(0, 10**9))"],
      ["all", "import itertools\nall(itertools.repeat(1, 10**9))"],
      ["len(list(filter))", `len(list(filter(None, ${HUGE})))`],
      ["list(reversed)", `list(reversed(${HUGE}))`],
      ["list(zip)", `list(zip(${HUGE}, ${HUGE}))`],
      ["list(map)", `list(map(abs, ${HUGE}))`],
      ["list(enumerate)", `list(enumerate(${HUGE}))`],
      ["list(map(str))", `list(map(str, ${HUGE}))`],
      ["str.join(map(str))", `','.join(map(str, ${HUGE}))`],
      ["bytes(repeat)", "import itertools\nbytes(itertools.repeat(0, 10**9))"],
      ["bytearray(repeat)", "import itertools\nbytearray(itertools.repeat(0, 10**9))"],
      ["list.extend", `x = []\nx.extend(${HUGE})`],
      ["set.update", `x = set()\nx.update(${HUGE})`],
      ["dict.update(zip)", `x = {}\nx.update(zip(${HUGE}, ${HUGE}))`],
      ["[*range]", `x = [*${HUGE}]`],
      ["a, *b = range", `a, *b = ${HUGE}`],
      ["in over zip", `x = (10**9, 1) in zip(${HUGE}, ${HUGE})`],
      ["list comprehension", `x = [i for i in ${HUGE}]`],
      ["list * n", "x = [0] * 8000000"],
      ["str * n", "x = 'ab' * 30000000"],
      ["list == list", "x = list(range(900000))\ny = list(range(900000))\nz = x == y"],
      ["repr(list)", "x = list(range(900000))\ny = repr(x)"],
      ["sorted(list of str)", "x = [str(i) for i in range(300000)]\ny = sorted(x)"],
      ["collections.Counter", `import collections\ncollections.Counter(${HUGE})`],
      ["collections.deque", `import collections\ncollections.deque(${HUGE})`],
      ["collections.deque(maxlen=1)", `import collections\ncollections.deque(${HUGE}, maxlen=1)`],
      ["collections.OrderedDict", `import collections\ncollections.OrderedDict(zip(${HUGE}, ${HUGE}))`],
      ["collections.defaultdict", `import collections\ncollections.defaultdict(int, zip(${HUGE}, ${HUGE}))`],
      ["Counter.update", `import collections\nc = collections.Counter()\nc.update(${HUGE})`],
      ["heapq.nlargest", `import heapq\nheapq.nlargest(3, ${HUGE})`],
      ["heapq.nsmallest", `import heapq\nheapq.nsmallest(3, ${HUGE})`],
      ["heapq.merge", `import heapq\nlist(heapq.merge(${HUGE}, ${HUGE}))`],
      ["heapq.heapify", "import heapq\nx = list(range(900000, 0, -1))\nheapq.heapify(x)"],
      ["statistics.mean", `import statistics\nstatistics.mean(${HUGE})`],
      ["statistics.fmean", `import statistics\nstatistics.fmean(${HUGE})`],
      ["statistics.median", `import statistics\nstatistics.median(${HUGE})`],
      ["statistics.mode", `import statistics\nstatistics.mode(${HUGE})`],
      ["statistics.stdev", `import statistics\nstatistics.stdev(${HUGE})`],
      ["math.prod", "import math\nmath.prod(range(1, 10**9))"],
      ["math.prod of floats", "import itertools, math\nmath.prod(itertools.repeat(1.5, 10**9))"],
      ["math.fsum", `import math\nmath.fsum(${HUGE})`],
      ["itertools.chain", `import itertools\nlist(itertools.chain(${HUGE}, ${HUGE}))`],
      ["itertools.islice", `import itertools\nlist(itertools.islice(${HUGE}, 10**9))`],
      ["itertools.accumulate", `import itertools\nlist(itertools.accumulate(${HUGE}))`],
      ["itertools.compress", `import itertools\nlist(itertools.compress(${HUGE}, itertools.repeat(1)))`],
      ["itertools.dropwhile", `import itertools\nlist(itertools.dropwhile(lambda v: False, ${HUGE}))`],
      ["itertools.takewhile", `import itertools\nsum(itertools.takewhile(bool, range(1, 10**9)))`],
      ["itertools.filterfalse", `import itertools\nlist(itertools.filterfalse(None, ${HUGE}))`],
      ["itertools.groupby", `import itertools\nlist(itertools.groupby(${HUGE}))`],
      ["itertools.starmap", `import itertools, operator\nlist(itertools.starmap(operator.add, zip(${HUGE}, ${HUGE})))`],
      ["itertools.tee", `import itertools\na, b = itertools.tee(${HUGE})\nlist(a)`],
      ["itertools.zip_longest", `import itertools\nlist(itertools.zip_longest(${HUGE}, ${HUGE}))`],
      ["itertools.pairwise", `import itertools\nlist(itertools.pairwise(${HUGE}))`],
      ["itertools.batched", `import itertools\nlist(itertools.batched(${HUGE}, 3))`],
      ["itertools.product", `import itertools\nlist(itertools.product(range(1000), range(1000), range(1000)))`],
      ["itertools.permutations", `import itertools\nlist(itertools.permutations(range(12)))`],
      ["itertools.combinations", `import itertools\nlist(itertools.combinations(range(200), 4))`],
      ["itertools.count", `import itertools\nlist(itertools.islice(itertools.count(), 10**9))`],
      ["itertools.cycle", `import itertools\nlist(itertools.islice(itertools.cycle('ab'), 10**9))`],
      ["itertools.repeat", `import itertools\nlist(itertools.repeat(1, 10**9))`],
      ["functools.reduce", `import functools, operator\nfunctools.reduce(operator.add, ${HUGE})`],
      ["json.dumps(range list)", "import json\nx = list(range(900000))\ny = json.dumps(x)"],
  ] as [string, string][]),
];

// ---------------------------------------------------------------------------------------- front end

const typical = readFileSync(fileURLToPath(new URL("../../bench/scripts/typical.py", import.meta.url)), "utf8");

/** `kb` KiB of varied code: the typical script repeated with renamed definitions. */
function realistic(kb: number): string {
  let out = "";
  for (let i = 0; out.length < kb * 1024; i++) out += typical.replace(/\b(score|summarize|open_issue_counts|QUERY|LIMIT|RESULT)\b/g, `$1_${i}`) + "\n";
  return out.slice(0, out.lastIndexOf("\n\n", kb * 1024) + 1);
}

const lines = (n: number, line: (i: number) => string, sep = "\n") => Array.from({ length: n }, (_, i) => line(i)).join(sep);
function fit(source: string, max = 65536): string {
  let s = source;
  while (Buffer.byteLength(s) > max) s = s.slice(0, s.lastIndexOf("\n", max));
  return s;
}

const FRONT: [name: string, source: string][] = [
  ["16 KB realistic", realistic(16)],
  ["32 KB realistic", realistic(32)],
  ["64 KB realistic", realistic(63)],
  ["64 KB: 6000 global lines", fit(lines(6000, (i) => `global a${i}`))],
  ["64 KB: 6000 small defs", fit(lines(6000, (i) => `def f${i}(): pass`))],
  ["64 KB: 2000 defs with bodies", lines(1800, (i) => `def g${i}(a, b=1):\n    return a + b * ${i}`)],
  ["64 KB: 6000 assignments", fit(lines(6000, (i) => `v${i} = ${i}`))],
  ["64 KB: one long line a+a+...", "a = 1\nx = " + Array(21000).fill("a").join("+")],
  ["64 KB: a 21000-item tuple", "x = " + Array(21000).fill("1").join(", ")],
  ["64 KB: a 5000-entry dict", "x = {" + lines(5000, (i) => `${i}: ${i}`, ", ") + "}"],
  ["64 KB: 3000-branch elif", "x = 1\nif x == 0: pass\n" + lines(3000, (i) => `elif x == ${i}: pass`)],
  ["64 KB: 2000 f-string lines", fit("a = 1\n" + lines(2200, (i) => `x${i} = f"{a}{a!r}{a:>3}"`))],
  ["64 KB: 12000 string literals", "x = " + Array(12000).fill('"ab"').join(" ")],
  ["64 KB: deep nesting (60 brackets) repeated", fit(lines(600, () => "x = " + "[".repeat(50) + "]".repeat(50)))],
  ["64 KB: blocks nested 90 deep, repeated", fit(lines(40, () => lines(90, (i) => " ".repeat(i) + "if x:") + "\n" + " ".repeat(90) + "pass"))],
  ["64 KB: 1700 lines of sums", fit(lines(1700, () => "x = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9"))],
  ["64 KB: a chain of and", "a = 1\nx = " + Array(10000).fill("a").join(" and ")],
  ["64 KB: a chain of <", "a = 1\nx = " + Array(15000).fill("a").join(" < ")],
];

// ---------------------------------------------------------------------------------------- probes

/** The longest garbage-collection pause since the last reset (V8's own, not the operation's). */
let longestGc = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longestGc = Math.max(longestGc, e.duration);
}).observe({ entryTypes: ["gc"] });

/** Longest gap between ticks of a 1 ms timer while `work` runs, and its wall time. */
async function probe(work: () => Promise<unknown>): Promise<{ stallMs: number; wallMs: number; value: unknown }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 4));
  clearInterval(timer);
  stallMs = Math.max(stallMs, performance.now() - last - 4);
  return { stallMs, wallMs, value };
}

interface Row {
  name: string;
  stallMs: number;
  gcMs: number;
  wallMs: number;
  outcome: string;
}

async function runtimeRow(name: string, source: string): Promise<Row> {
  await execute(source); // warm: the paths it takes are compiled by V8 once
  const stalls: number[] = [];
  const walls: number[] = [];
  let outcome = "";
  longestGc = 0;
  for (let i = 0; i < RUNS; i++) {
    const { stallMs, wallMs, value } = await probe(() => execute(source));
    const r = value as Awaited<ReturnType<typeof execute>>;
    stalls.push(stallMs);
    walls.push(wallMs);
    outcome = r.error ? `${r.error.type}${r.error.type === "ResourceLimitError" ? ` (${r.error.message.split(" ")[0]})` : ""}` : "ok";
  }
  return { name, stallMs: Math.max(...stalls), gcMs: longestGc, wallMs: median(walls), outcome };
}

interface FrontRow {
  name: string;
  kb: number;
  scanMs: number;
  parseMs: number;
  analyseMs: number;
  compileMs: number;
  stallMs: number;
}

/** The front end's phases, each on a fresh copy of the text (parses are cached by text). */
async function frontRow(name: string, source: string, round: number): Promise<FrontRow> {
  const samples: Omit<FrontRow, "name" | "kb">[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const text = `${source}\n# ${round}.${i}\n`;
    let t = performance.now();
    scan(text);
    const scanMs = performance.now() - t;
    t = performance.now();
    let module;
    try {
      module = parse(text);
    } catch {
      const parseMs = performance.now() - t;
      const { stallMs } = await probe(() => execute(`${source}\n# ${round}.${i}.x\n`));
      if (i > 0) samples.push({ scanMs, parseMs, analyseMs: NaN, compileMs: NaN, stallMs });
      continue;
    }
    const parseMs = performance.now() - t;
    t = performance.now();
    const info = analyse(module);
    const analyseMs = performance.now() - t;
    t = performance.now();
    compileModule(module, info);
    const compileMs = performance.now() - t;
    // The whole of it as a script sees it: execute() of a fresh text, its longest stall.
    const { stallMs } = await probe(() => execute(`${source}\n# ${round}.${i}.x\n`));
    if (i > 0) samples.push({ scanMs, parseMs, analyseMs, compileMs, stallMs }); // the first warms up
  }
  const pick = (k: keyof Omit<FrontRow, "name" | "kb">) => median(samples.map((s) => s[k]));
  return { name, kb: Buffer.byteLength(source) / 1024, scanMs: pick("scanMs"), parseMs: pick("parseMs"), analyseMs: pick("analyseMs"), compileMs: pick("compileMs"), stallMs: Math.max(...samples.map((s) => s.stallMs)) };
}

// ---------------------------------------------------------------------------------------- run

const load = loadavg()[0]!;
const ms = (v: number) => (Number.isNaN(v) ? "—" : v.toFixed(1));
const flag = (v: number) => (v > TARGET_MS ? " **over**" : "");

const rows: Row[] = [];
for (const [name, source] of RUNTIME) {
  if (only && !name.includes(only)) continue;
  const row = await runtimeRow(name, source);
  rows.push(row);
  console.log(`${name.padEnd(34)} stall ${ms(row.stallMs).padStart(7)} ms  gc ${ms(row.gcMs).padStart(6)} ms  wall ${ms(row.wallMs).padStart(7)} ms  ${row.outcome}`);
}
const fronts: FrontRow[] = [];
for (const [name, source] of FRONT) {
  if (only && !name.includes(only)) continue;
  const row = await frontRow(name, source, fronts.length);
  fronts.push(row);
  console.log(`${name.padEnd(34)} scan ${ms(row.scanMs)} parse ${ms(row.parseMs)} analyse ${ms(row.analyseMs)} compile ${ms(row.compileMs)} ms; execute's stall ${ms(row.stallMs)} ms`);
}
const loadAfter = loadavg()[0]!;
console.log(`load average ${load.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);

if (process.argv.includes("--write")) {
  const table1 = [
    "| operation (default limits) | longest stall | longest GC pause | wall | outcome |",
    "|---|---:|---:|---:|---|",
    ...rows.map((r) => `| \`${r.name.replace(/\|/g, "\\|")}\` | ${ms(r.stallMs)} ms${flag(r.stallMs)} | ${ms(r.gcMs)} ms | ${ms(r.wallMs)} ms | ${r.outcome} |`),
  ].join("\n");
  const table2 = [
    "| script | size | scan | parse (scan included) | scope analysis | compile | execute's longest stall |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...fronts.map((r) => `| ${r.name} | ${r.kb.toFixed(1)} KiB | ${ms(r.scanMs)} ms | ${ms(r.parseMs)} ms | ${ms(r.analyseMs)} ms | ${ms(r.compileMs)} ms | ${ms(r.stallMs)} ms${flag(r.stallMs)} |`),
  ].join("\n");
  const notes = `
Load average ${load.toFixed(2)} at the start, ${loadAfter.toFixed(2)} at the end. "Longest stall" is the longest gap
between ticks of a 1 ms timer while the script ran (the worst of ${RUNS} runs, after one warm-up
run); the target is ${TARGET_MS} ms. "Longest GC pause" is V8's longest collection in those runs
(PerformanceObserver): a stall that large is the collector moving what the script keeps, not the
operation's own work. The front-end rows are medians of ${RUNS} fresh texts (a parse is
cached by text) after a warm-up: "parse" is one whole parse() and includes the scan (execute()
parses a source of 8 KiB or more in pieces of 4 ms, grammar/pieces.ts); "compile" is the closure
tier's and includes its own scope analysis (the column before it is that analysis alone); "—":
refused by the parser (SyntaxError, as CPython's compiler refuses such nesting).`;
  writeSection("bench:loop", "Event-loop stalls: the longest single block", `npm run bench:loop -- ${quick ? "--quick " : ""}--write`, `${table1}\n\n${table2}\n${notes}`);
}
