// When code moves from the closure tier (compile.ts) to the JavaScript tier (codegen.ts): the
// mode tests set, the counts at which a hot loop or function moves during a run, and the runs
// that make a repeated script hot enough to compile every unit at once.
import type * as A from "../../grammar/ast.js";

/** A mode of tiering: "auto" as described above, or every unit on one tier (tests run both). */
export type CodegenMode = "auto" | "always" | "never";

/** When code units are compiled to JavaScript (codegen.ts): "auto" for a hot repeated script. */
export let codegenMode: CodegenMode = process.env.PY_CODEGEN === "always" ? "always" : process.env.PY_CODEGEN === "never" ? "never" : "auto";

/** Sets when code units go to the JavaScript tier (tests run both tiers). */
export function setCodegen(mode: CodegenMode): void {
  codegenMode = mode;
}

/**
 * The loop head at which a loop on closures moves to its JS-tier unit (loopTier), and the call at
 * which a function body (or the generator made) on closures does, when the unit's shape is new
 * (a known shape moves at KNOWN_SHAPE_TIER_UP, below). Both counts last as long as the compiled
 * script: a loop or function hot over several runs of a kept script moves too.
 *
 * A unit of a new shape starts cold in V8, while the closures are shared by every script and
 * long optimized: V8 runs the unit unoptimized, then optimizes it (on its own thread, in this
 * process's CPU time) some 15 ms in. Measured with no text shared (unit-texts.ts
 * setTextSharing), every workload of bench:interpreter in one warm process, each run a new
 * text, alternating, as a geometric mean against closures only: loops moving at their 30,000th
 * head 1.09x, at their 100,000th 1.10x, at their 300,000th 1.02x (the 300k-iteration arithmetic
 * loop 39, 43 and 37 ms against 32; the while loops 51, 42 and 26 against 25). The cold start
 * costs what some 300,000 iterations on the JS tier save, and a loop that has run that many is
 * likely to run as many more. In a fresh process (closures cold too) the 300,000th head was
 * 0.97x of the 30,000th.
 *
 * A function moves at the same count: until V8 optimizes a new unit, a call of it costs about 7
 * times one on closures (recursive fib(25), 250k calls, moving at the 30,000th: 1.4x slower than
 * closures only, at the 100,000th 1.9x). At 300,000 a function moves only when the calls left can
 * pay for that, and fib(25) stays on closures.
 */
export const DEFAULT_LOOP_TIER_UP = 300_000;
export const DEFAULT_TIER_UP_CALLS = 300_000;
export let LOOP_TIER_UP = DEFAULT_LOOP_TIER_UP;

/**
 * A loop past its heads' count moves only if its runs average at least this many heads; one of
 * shorter runs moves at its TIER_UP_CALLS-th run (KNOWN_SHAPE_TIER_UP-th for a known shape), as a
 * function does at a call (compile-loops.ts movesNow). Its unit is entered at every run, and does
 * little in each before it returns: the breadth-first search's inner loop (3 neighbours a run,
 * 25,000 runs) moved at the 30,000th head and made the script 1.22-1.28x slower than closures
 * only; staying, 1.04-1.09x.
 */
export const MIN_HEADS_PER_RUN = 8;
export let TIER_UP_CALLS = DEFAULT_TIER_UP_CALLS;

/**
 * The loop head, call or generator made at which a unit moves early when its JavaScript text is
 * a known shape (unit-texts.ts): one an earlier unit compiled, whose code V8 has warmed, or one
 * seen once before. A unit of a new shape stays on closures then, and moves at the counts above.
 *
 * Measured on bench:interpreter's new-script scenario, where every workload's shapes recur from
 * script to script: ours ÷ CPython went from 1.54 to 1.08-1.13 in three of four runs (fib(25) 44
 * → 21 ms, the while loops 17 → 5 ms). Moving every unit at 1000, known or not, made a fresh
 * process's first fib texts 1.4-2x slower than closures only. A shape seen for the second time
 * is compiled cold, as an investment in the scripts after. Asking costs the unit's text, made at
 * most once per unit and script (about one to six units per workload).
 */
export const DEFAULT_KNOWN_SHAPE_TIER_UP = 1000;
export let KNOWN_SHAPE_TIER_UP = DEFAULT_KNOWN_SHAPE_TIER_UP;

/** Sets the tier-up counts (tests move every loop and function at once to check the move itself). */
export function setTierUp(loopHeads = DEFAULT_LOOP_TIER_UP, calls = DEFAULT_TIER_UP_CALLS, knownShape = DEFAULT_KNOWN_SHAPE_TIER_UP): void {
  LOOP_TIER_UP = loopHeads;
  TIER_UP_CALLS = calls;
  KNOWN_SHAPE_TIER_UP = knownShape;
}

/**
 * A script whose run took fewer steps than this stays on closures: compiling JavaScript, and V8's
 * first runs of it before it optimizes the code, cost more than a short run can save.
 */
const HOT_STEPS = 10_000;

/** The most steps a run of each module has taken (ASTs are shared by repeated scripts). */
const STEPS = new WeakMap<A.Module, number>();

/** Records how many steps a run of `module` took (execute calls this as a run ends). */
export function noteRun(module: A.Module, steps: number): void {
  // Only runs that make a script hot are kept: most scripts are short, and run once.
  if (steps >= HOT_STEPS && steps > (STEPS.get(module) ?? 0)) STEPS.set(module, steps);
}

/** Whether this compilation of `module` puts every unit on the JS tier. */
export function isHot(module: A.Module): boolean {
  return codegenMode === "always" || (codegenMode === "auto" && (STEPS.get(module) ?? 0) >= HOT_STEPS);
}
