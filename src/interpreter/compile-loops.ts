// The closure tier's loops: `while` and `for`, each of which moves to its JS-tier unit once it has
// run LOOP_TIER_UP heads (a hot loop of a script's first run), entering the unit at its loop head
// with the frame as it is.
import type * as A from "../../grammar/ast.js";
import { DONE, Pending, type Step } from "./objects.js";
import type { Runtime } from "./runtime.js";
import { compileLoopUnit, type Unit } from "./codegen.js";
import { stepper } from "./stepping.js";
import { BREAK, type Completion, CONTINUE, type Frame, RETURN, type Stmt } from "./frame.js";
import { codegenMode, KNOWN_SHAPE_TIER_UP, LOOP_TIER_UP, MIN_HEADS_PER_RUN, TIER_UP_CALLS } from "./tiering.js";
import type { Scope } from "./scope.js";
import { PyDict, PyList, PyRange, PySet, PyTuple, truthy, type Value } from "./values.js";
import type { CompilerParts } from "./compiler-parts.js";
import { isPending } from "./closure-eval.js";

/**
 * A loop's way to the JS tier. It asks first at KNOWN_SHAPE_TIER_UP heads (it moves then if its
 * unit's text is a known shape), then at LOOP_TIER_UP; a loop of short runs waits for its runs
 * to reach those counts too (tiering.ts MIN_HEADS_PER_RUN).
 */
interface LoopTier {
  heads: number;
  /** The loop's runs so far (each time it starts from its iterable or test). */
  runs: number;
  /** The head at which the loop asks next; Infinity once the tier refused it. */
  next: number;
  /** The runs at which a loop of short runs asks next. */
  nextRuns: number;
  /** The head at which the loop's first run ends, when its iterable says (Infinity if it does not). */
  firstRunEnd: number;
  /** The loop's unit, compiled at the first call (`rt`'s execution then primes its yields); null: not now. */
  unit: (rt: Runtime) => Unit | null;
}

/**
 * Whether a loop past its next head count moves now. One of short runs waits. One in its first
 * run, when its iterable tells how many heads that run has left, moves only if as many are left
 * as it has run: a loop over 1,000 records reaches its 1,000th head as it ends, and moving then
 * would cost the unit's text and closures for nothing.
 */
function movesNow(tier: LoopTier): boolean {
  if (tier.runs === 1) return tier.firstRunEnd - tier.heads >= tier.next;
  return tier.heads >= MIN_HEADS_PER_RUN * tier.runs || tier.runs >= tier.nextRuns;
}

/** The heads a `for` loop over `it` takes (one per item and the last), if `it` says so cheaply. */
function headsOver(it: Value): number {
  if (it instanceof PyList || it instanceof PyTuple) return it.items.length + 1;
  if (it instanceof PyRange) return it.length + 1;
  if (it instanceof PyDict || it instanceof PySet) return it.size + 1;
  return Infinity;
}

export function compileWhile(compiler: CompilerParts, s: A.While, scope: Scope): Stmt {
  const test = compiler.expr(s.test, scope);
  const body = compiler.block(s.body, scope);
  const orelse = s.orelse.length ? compiler.block(s.orelse, scope) : null;
  const tier = loopTier(compiler, s, scope);
  const loop = (f: Frame): Completion | Pending => {
    for (;;) {
      if (tier.heads++ >= tier.next && movesNow(tier)) {
        const unit = tier.unit(f.rt);
        if (unit !== null) return unit.gen(f, unit, 0, undefined, null, false) as Completion | Pending;
      }
      if (f.rt.shouldYield()) return f.rt.yieldNow().then(() => loop(f));
      f.rt.tick();
      const t = test(f);
      if (isPending(t)) return t.then((v: Value) => (truthy(v) ? afterBody(f, body(f)) : orelse ? orelse(f) : undefined));
      if (!truthy(t)) return orelse ? orelse(f) : undefined;
      const r = body(f);
      if (r === undefined || r === CONTINUE) continue;
      if (r === BREAK) return undefined;
      if (r === RETURN) return RETURN;
      return afterBody(f, r);
    }
  };
  const afterBody = (f: Frame, r: Completion | Pending): Completion | Pending => {
    if (isPending(r)) return r.then((c: Completion) => afterBody(f, c));
    if (r === BREAK) return undefined;
    if (r === RETURN) return RETURN;
    return loop(f);
  };
  return (f) => {
    tier.runs++;
    return loop(f);
  };
}

/** How a closure-tier loop moves to its JS-tier unit once it is hot. */
function loopTier(compiler: CompilerParts, s: A.For | A.While, scope: Scope): LoopTier {
  const early = KNOWN_SHAPE_TIER_UP < LOOP_TIER_UP;
  const tier: LoopTier = {
    heads: 0,
    runs: 0,
    next: codegenMode === "never" ? Infinity : early ? KNOWN_SHAPE_TIER_UP : LOOP_TIER_UP,
    nextRuns: early ? Math.min(KNOWN_SHAPE_TIER_UP, TIER_UP_CALLS) : TIER_UP_CALLS,
    firstRunEnd: Infinity,
    unit: (rt) => {
      const late = tier.next >= LOOP_TIER_UP;
      const unit = compileLoopUnit(s, scope, compiler, !late);
      if (unit === null) {
        tier.next = late ? Infinity : LOOP_TIER_UP;
        tier.nextRuns = TIER_UP_CALLS;
        return null;
      }
      if (unit.fresh) rt.primeYields();
      tier.unit = () => unit;
      return unit;
    },
  };
  return tier;
}

export function compileFor(compiler: CompilerParts, s: A.For, scope: Scope): Stmt {
  const iterable = compiler.expr(s.iter, scope);
  const store = compiler.store(s.target, scope);
  const body = compiler.block(s.body, scope);
  const orelse = s.orelse.length ? compiler.block(s.orelse, scope) : null;
  const { line, col } = s;
  const tier = loopTier(compiler, s, scope);
  const loop = (f: Frame, next: Step): Completion | Pending => {
    for (;;) {
      if (tier.heads++ >= tier.next && movesNow(tier)) {
        const unit = tier.unit(f.rt);
        if (unit !== null) return unit.gen(f, unit, 0, next, null, false) as Completion | Pending;
      }
      if (f.rt.shouldYield()) return f.rt.yieldNow().then(() => loop(f, next));
      f.rt.tick();
      // An error of the iterator (a generator expression's) is reported at the `for`, not at the body's last line.
      f.line = line;
      f.col = col;
      const item = next();
      if (item === DONE) return orelse ? orelse(f) : undefined;
      if (isPending(item)) {
        return item.then((x: Value | typeof DONE) => {
          if (x === DONE) return orelse ? orelse(f) : undefined;
          const stored = store(f, x);
          return afterBody(f, next, isPending(stored) ? stored.then(() => body(f)) : body(f));
        });
      }
      const stored = store(f, item);
      if (isPending(stored)) return stored.then(() => afterBody(f, next, body(f)));
      const r = body(f);
      if (r === undefined || r === CONTINUE) continue;
      if (r === BREAK) return undefined;
      if (r === RETURN) return RETURN;
      return afterBody(f, next, r);
    }
  };
  const afterBody = (f: Frame, next: Step, r: Completion | Pending): Completion | Pending => {
    if (isPending(r)) return r.then((c: Completion) => afterBody(f, next, c));
    if (r === BREAK) return undefined;
    if (r === RETURN) return RETURN;
    return loop(f, next);
  };
  const start = (f: Frame, it: Value): Completion | Pending => {
    if (++tier.runs === 1) tier.firstRunEnd = tier.heads + headsOver(it);
    return loop(f, stepper(it));
  };
  return (f) => {
    const it = iterable(f);
    return isPending(it) ? it.then((v: Value) => start(f, v)) : start(f, it);
  };
}
