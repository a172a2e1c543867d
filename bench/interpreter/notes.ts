// The prose of bench:interpreter's section of bench/RESULTS.md: how each scenario is measured,
// and what earlier runs of the repeated-script scenario found.
import type { NewScriptPlan } from "./new-script.js";
import type { RepeatedPlan } from "./repeated.js";
import type { StartupPlan } from "./processes.js";

export interface Plans {
  repeated: RepeatedPlan;
  newScript: NewScriptPlan;
  freshRounds: number;
  startup: StartupPlan;
}

const s = (n: number) => (n === 1 ? "" : "s");

export function method(p: Plans): string {
  const r = p.repeated;
  const n = p.newScript;
  return `How each scenario is measured (all of them in this one run, the engines alternating within
every round so that the machine's other load falls on all of them alike):

1. **Repeated script** (the bench before issue 21): the same text again and again in one process.
   CPU time of the measuring process (\`process.cpuUsage\`, Python's \`time.process_time\`): the
   median of ${r.reps} runs in each of ${r.rounds} round${s(r.rounds)}, then the median of the rounds, after untimed warm-up runs
   (at least ${r.warmup} and ${r.warmupMs} ms per round and engine). Ours is the public \`execute(source)\` with
   the default budgets (parse, compile, run, result conversion); its parse is kept from the
   second run on, and the JavaScript tier takes the script from its third. CPython is \`exec\` of
   code compiled beforehand, Monty \`new Monty(source).run()\`, Pyodide \`runPython(source)\` in a
   fresh globals dict (its ~3 s load not timed). The trivial execution is the median of ${r.trivialBatches}
   batches of ${r.trivialBatch} (CPython: \`compile\` + \`exec\`); "new script" there runs a numbered comment
   more each time, so it misses the parse cache.
2. **New script, run once, in a warm process** (what a gateway does with each model-written
   script): every timed run is a text its engine has never seen, the workload with every name
   it binds renamed (\`x\` → \`x_v17\`: bench/interpreter/variants.py, through \`ast.unparse\`), so
   no cache of parses or call counts can match it; same steps, same RESULT. One cache does: a
   JavaScript-tier unit's text names no Python name, position or constant (they are the unit's
   data), so a renamed variant's loop makes the text an earlier variant made and reuses its
   code, warm in V8 (src/interpreter/unit-texts.ts), and a unit of such a known shape moves to
   that tier early, at its 1,000th head or call (src/interpreter/tiering.ts). Every workload's
   shapes recur here, as a model's scripts of one shape share them. "Ours, shapes never seen"
   is ours with that sharing off (\`setTextSharing(false)\`): no unit moves early, and each
   one's code starts cold in V8, as for a script whose loops and functions no earlier script
   had. Each
   engine is first warmed on ${n.warmFirst} pass${n.warmFirst === 1 ? "" : "es"} over all the workloads (other new texts; ${n.warm} before each
   later round), then each round times ${n.reps} new text${s(n.reps)} of each, the workloads in turn. CPU time as above; the figure is the median
   of all ${n.reps * n.rounds} timed runs (${n.rounds} round${s(n.rounds)} × ${n.reps}). CPython: \`compile()\` + \`exec()\` of the new text in
   one warm \`python3\` process per round; ours, Monty and Pyodide in this process, their parse
   or compile included. "Ours, closures only" is ours with the JavaScript tier off
   (\`setCodegen("never")\`): by default a unit of a shape not known moves to that tier at its
   300,000th head or call. "Ours: main thread only" is the same runs of ours timed by the CPU
   time of this process's main thread alone (\`/proc/self/task/PID/schedstat\`): how long the
   script holds the event loop. What "ours" adds to it is V8's other threads, which CPython's
   process does not have: TurboFan compiling the interpreter's code and the JavaScript tier's
   units on its own thread, and the collector's helpers (on 2026-12-04, about 0.85× CPython's
   time on the main thread against 1.4× for the whole process).
3. **Fresh process per script**: wall time from spawn to exit of \`node --max-semi-space-size=32
   --snapshot-blob dist/snapshot/code-mode-exec.blob -- FILE\` (code-mode-exec as \`npm run exec\`
   runs it, from its start-up snapshot; its JSON printed),
   \`python3 FILE\` and \`node dist/bench/interpreter/monty-process.js FILE\` (a Node process that
   loads Monty, runs the file and prints its RESULT); the median of ${p.freshRounds} round${s(p.freshRounds)}, the engines'
   order turning each round. Wall time, because a user waits for it: this figure moves most
   with the machine's load.
4. **Start-up**: the same three processes running \`-c 'RESULT=1'\`, next to Pyodide's process
   (\`dist/bench/interpreter/pyodide-process.js\`, in the first ${p.startup.pyodideRounds} round${s(p.startup.pyodideRounds)} only: it takes
   seconds) and \`node -e 1\` (Node's own start-up, the floor for code-mode-exec and Monty's
   process); the median of ${p.startup.rounds} round${s(p.startup.rounds)}.

Every engine's RESULT is checked against CPython's in scenarios 1-3 (differences are listed
below the tables). Workloads marked * were written for issue 21 and are not among those the
interpreter's shortcuts were measured and tuned on (the other eight, which scenario 1 runs).`;
}

/** What the repeated-script scenario's earlier runs found (figures of those runs, not this one). */
export const REPEATED_HISTORY = `Notes on the repeated-script scenario, from earlier runs:

"Ours" runs each workload as a repeated script: from its third run on (its parse kept, its
runs over 10,000 steps), its module and function bodies are compiled to JavaScript functions
(src/interpreter/codegen.ts), shared by every later run, which V8 optimizes over the warm-up
runs. "Ours, closures only" is the same \`execute\` with that tier off: the closure tree of
compile.ts, what new and short scripts run on (in any run a loop moves to the JavaScript tier
at its 300,000th head, a function at its 300,000th call; either at its 1,000th when its shape is
known).

Node runs with \`--max-semi-space-size=32\` (the machine line above says so), as the gateway and
code-mode-exec do: a 32 MiB young generation instead of V8's default 16. Without it (\`node
dist/bench/interpreter.js\`, one run on 2026-11-30) ours ÷ CPython was 0.61 instead of 0.49: the
workloads that keep tens of thousands of young values alive, which the collector copies at every
scavenge, were slower (string building 1.6×, comprehension + sort 1.6×, f-strings 1.4×).

Spread: before the shortcuts of 2026-11-30's second session (commit 0c85949), nine full runs
gave ours ÷ CPython 0.48 to 0.52 (fib at 1.02-1.06 and JSON records at 0.91-1.14 in each). With
them, runs of the builds along the way gave 0.47, 0.45 and 0.46, and of commit 8a56f48 0.47,
0.48 and 0.47. Later in the day, on a busier machine (CPython's own figures 2-5% slower), that
build gave 0.49, then 0.52, 0.48, 0.52, 0.48 and 0.51. The target is met in most runs, by a thin
margin that this machine's load can erase.

History: before issue 7's speed work (commit 82f964d, \`--quick\`) ours ÷ CPython was 3.56, a
trivial execution 19.0 µs; with the closure tree tuned (commit 99e1cc0, full run) 1.66, and 0.71
of Monty's time; with the JavaScript tier (commit 0affa91) 0.66; with its calls and globals
tuned (commit 0c85949) 0.48-0.52.

What the second session of 2026-11-30 added: in the JavaScript tier, float arithmetic and
comparisons, \`k in d\` for str keys, dict.get and list.append at their call sites, negative
indexes, tuple unpacking and starred displays inline; in the built-ins, shortcuts for int() and float() of plain
decimal text, round(x, n), small int powers, sorting up to 16 ints, str.replace with a few
matches, str.title() of ASCII text, % templates (parsed once), dict copies and repr() of
containers. Each has a differential test against python3 (codegen.test.ts, int-text, float-text,
round, int-pow, dict-copy, repr-containers, sort-keys and str-methods test files).

Where the time goes (\`node --cpu-prof\`, JavaScript tier, 2026-11-30): an iteration of the
arithmetic loop costs some 13 ns (CPython: 84 ns); a Python call some 30 ns (CPython: 32 ns): the
frame and its slots, which every call allocates, and three steps. JSON records is mostly building
dicts (a JavaScript Map each, about 130 ns for seven keys) and reading them; string parsing, str
methods called through their call sites. Garbage collection is 10-40% of the allocation-heavy
workloads' CPU time, most of it in the few runs a scavenge falls in, which the medians mostly
skip. What would remove most of the rest: Python calls without a heap frame (locals in
JavaScript variables, a frame made only when a traceback or a suspension needs one), and a way
to yield that leaves V8's code for the unit as fast as before its first yield.

Tried on 2026-11-30 and not kept (separate-process A/B runs, then this bench in alternating runs):
- Steps counted in a local of each JavaScript-tier unit, added to the budget before every call
  out and in a \`finally\`: no faster in either (the \`finally\`, and re-reading the budget after
  every call, cost what the memory ticks had).
- Much of what the steps seemed to cost is the time slice: a run that yields once (the first
  slice is 0.5 ms) ran the arithmetic loop at ~5.0 ms against ~3.7 ms with no yield, and fib at
  ~8.4 against ~7.4, though the time per step before and after the yield was the same: V8's code,
  compiled once the re-entry paths had run, is slower throughout. A unit split in two functions
  (one run from the start without the re-entry guards, one to resume in) made separate-process
  runs of the arithmetic loop ~20% faster, but this bench, with every workload in one process,
  slower (0.53, 0.54 and 0.53 against 0.51 and 0.49 for the build before, alternating).

Tried on 2026-12-04 and not kept:
- V8's Maglev tier (\`--maglev\`, off by default in Node 20's V8 11.3): the new-script workloads'
  CPU geometric mean was about 10% lower (10.4 and 11.2 ms against 12.7 and 11.8, alternating
  runs). Not adopted: in V8 11.3 Maglev is experimental, and Node turned it back off by default
  in v22 (V8 12.4) after crashes and wrong results traced to its code generation
  (nodejs/node#52797, #54384); a sandbox that must never crash its host cannot run on it.
- For the fresh process, V8 flags that tier up sooner (\`--always-sparkplug\`,
  \`--no-lazy-feedback-allocation\`, \`--interrupt-budget=16384\`; the start-up snapshot has to be
  built with the same flags, or Node refuses it): no difference beyond the spread of three
  alternating rounds over eight workloads.`;
