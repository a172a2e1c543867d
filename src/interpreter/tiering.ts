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
 * which a function body (or the generator made) on closures does. Both counts last as long as the
 * compiled script: a loop or function hot over several runs of a kept script moves too.
 *
 * Measured on bench:interpreter's new-script scenario (each run a text with every name renamed,
 * in a process warmed on other such texts): a new unit's JavaScript starts cold in V8 while the
 * closures are shared by every script and long optimized, so moving at 1000 made new scripts
 * 1.8x slower than staying on closures; at 10,000 1.07x; at 30,000 0.85-0.87x. (With texts that
 * differ only by an appended line, V8's cache of identical function sources hid this cost.)
 *
 * A function moves later: V8 optimizes a new unit some 15 ms after it starts to run it, and until
 * then a call of the unit costs about 7 times one on closures (recursive fib(25), 250k calls,
 * moving at the 30,000th: 1.4x slower than closures only, at the 100,000th 1.9x). At 300,000 a
 * function moves only when the calls left can pay for that, and fib(25) stays on closures; the
 * other workloads were the same within noise. A loop's unit gains sooner (the 300k-iteration
 * arithmetic loop: 0.33x of closures only).
 */
export const DEFAULT_LOOP_TIER_UP = 30_000;
export const DEFAULT_TIER_UP_CALLS = 300_000;
export let LOOP_TIER_UP = DEFAULT_LOOP_TIER_UP;

/**
 * A loop past LOOP_TIER_UP heads moves only if its runs average at least this many heads; one of
 * shorter runs moves at its TIER_UP_CALLS-th run, as a function does at a call (compile.ts
 * movesNow). Its unit is entered at every run, and does little in each before it returns: the
 * breadth-first search's inner loop (3 neighbours a run, 25,000 runs) moved at the 30,000th head
 * and made the script 1.22-1.28x slower than closures only; staying, 1.04-1.09x.
 */
export const MIN_HEADS_PER_RUN = 8;
export let TIER_UP_CALLS = DEFAULT_TIER_UP_CALLS;

/** Sets the tier-up counts (tests move every loop and function at once to check the move itself). */
export function setTierUp(loopHeads = DEFAULT_LOOP_TIER_UP, calls = DEFAULT_TIER_UP_CALLS): void {
  LOOP_TIER_UP = loopHeads;
  TIER_UP_CALLS = calls;
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
