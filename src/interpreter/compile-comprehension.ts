// The closure tier's comprehensions: list, set and dict comprehensions run their clauses here;
// a generator expression evaluates its first iterable here and the rest in its own frame as
// items are asked for (generator.ts), on the JS tier once it is made often.
import type * as A from "../../grammar/ast.js";
import { forEachChild } from "../../grammar/walk.js";
import { DONE, Pending, type Step } from "./objects.js";
import { storedSize } from "./ops.js";
import { compileGeneratorUnit, isCompiled } from "./codegen.js";
import { CELL, CLOSURE, entrySize, GENERATOR, SLOT } from "./sizes.js";
import { ClauseMachine, type GenexpCode, type Position, PyAsyncGenerator, PyGenerator, UnitMachine } from "./generator.js";
import { stepper } from "./stepping.js";
import { Cell, type Expr, type Frame, GeneratorFrame, UNBOUND, unboundSlots } from "./frame.js";
import { codegenMode, KNOWN_SHAPE_TIER_UP, TIER_UP_CALLS } from "./tiering.js";
import type { Scope } from "./scope.js";
import { PyDict, PyList, PySet, truthy, type Value } from "./values.js";
import type { CompilerParts } from "./compiler-parts.js";
import { continueWith, evalAll, isPending } from "./closure-eval.js";

/** The closure of a generator that captures nothing (nothing writes to it). */
const NO_CELLS: Cell[] = [];

/**
 * Whether a generator expression's own code awaits (not its first iterable, evaluated by its
 * creator, nor a lambda or another generator expression inside).
 */
function awaitsInside(e: A.GeneratorExp): boolean {
  const awaits = (n: A.Node): boolean => {
    if (n.kind === "Await") return true;
    if (n.kind === "Lambda") return false;
    if (n.kind === "GeneratorExp") return awaits(n.generators[0]!.iter);
    let found = false;
    forEachChild(n, (child) => {
      found ||= awaits(child);
    });
    return found;
  };
  return awaits(e.elt) || e.generators.some((g, i) => (i > 0 && awaits(g.iter)) || awaits(g.target) || g.ifs.some(awaits));
}

export function compileComprehension(compiler: CompilerParts, e: A.ListComp | A.SetComp | A.DictComp, outer: Scope): Expr {
  const scope = compiler.scopeOf(e);
  const clauses = e.generators.map((g, i) => ({
    iter: compiler.expr(g.iter, i === 0 ? outer : scope),
    store: compiler.store(g.target, scope),
    ifs: g.ifs.map((c) => compiler.expr(c, scope)),
  }));
  const key = e.kind === "DictComp" ? compiler.expr(e.key, scope) : null;
  const elt = e.kind === "DictComp" ? compiler.expr(e.value, scope) : compiler.expr(e.elt, scope);
  // Cell variables of the comprehension get fresh cells for each run.
  const cellSlots = [...scope.variables.values()].filter((v) => v.isCell).map((v) => v.slot);

  type Sink = (k: Value | null, v: Value) => void;
  /** Runs clause `i` and deeper, feeding each produced element to `sink`. */
  const run = (f: Frame, i: number, sink: Sink): void | Pending => {
    const clause = clauses[i]!;
    const source = clause.iter(f);
    const start = (src: Value) => loop(f, i, stepper(src), sink);
    return isPending(source) ? source.then(start) : start(source);
  };
  const loop = (f: Frame, i: number, next: Step, sink: Sink): void | Pending => {
    const clause = clauses[i]!;
    // The innermost clause of a list or set comprehension with at most one condition (the
    // usual one) runs iteration's parts inline: store, test, element, sink.
    const inline = key === null && i === clauses.length - 1 && clause.ifs.length <= 1;
    const test = clause.ifs.length === 1 ? clause.ifs[0]! : null;
    for (;;) {
      if (f.rt.shouldYield()) return f.rt.yieldNow().then(() => loop(f, i, next, sink));
      f.rt.tick();
      const item = next();
      if (item === DONE) return;
      // An item of a generator expression may have to wait.
      if (isPending(item)) return item.then((x: Value | typeof DONE) => (x === DONE ? undefined : continueWith(iteration(f, i, sink, x), () => loop(f, i, next, sink))));
      if (inline) {
        const stored = clause.store(f, item);
        if (isPending(stored)) return stored.then(() => continueWith(body(f, i, sink), () => loop(f, i, next, sink)));
        if (test !== null) {
          const c = test(f);
          if (isPending(c)) return c.then((v: Value) => continueWith(truthy(v) ? emit(f, sink) : undefined, () => loop(f, i, next, sink)));
          if (!truthy(c)) continue;
        }
        const v = elt(f);
        if (isPending(v)) {
          return v.then((x: Value) => {
            sink(null, x);
            return loop(f, i, next, sink);
          });
        }
        sink(null, v);
        continue;
      }
      const r = iteration(f, i, sink, item);
      if (isPending(r)) return r.then(() => loop(f, i, next, sink));
    }
  };
  const iteration = (f: Frame, i: number, sink: Sink, item: Value): void | Pending => {
    const stored = clauses[i]!.store(f, item);
    return isPending(stored) ? stored.then(() => body(f, i, sink)) : body(f, i, sink);
  };
  /** Tests the conditions of clause `i` from the `j`th, then goes deeper or emits. */
  const check = (f: Frame, i: number, sink: Sink, j: number): void | Pending => {
    const ifs = clauses[i]!.ifs;
    for (; j < ifs.length; j++) {
      const c = ifs[j]!(f);
      if (isPending(c)) {
        const index = j;
        return c.then((v: Value) => (truthy(v) ? check(f, i, sink, index + 1) : undefined));
      }
      if (!truthy(c)) return;
    }
    if (i + 1 < clauses.length) return run(f, i + 1, sink);
    return emit(f, sink);
  };
  const body = (f: Frame, i: number, sink: Sink): void | Pending => check(f, i, sink, 0);
  const emit = (f: Frame, sink: Sink): void | Pending => {
    if (key) {
      const parts = evalAll([key, elt], f);
      if (isPending(parts)) return parts.then(([k, v]: Value[]) => sink(k!, v!));
      sink(parts[0]!, parts[1]!);
      return;
    }
    const v = elt(f);
    if (isPending(v)) return v.then((x: Value) => sink(null, x));
    sink(null, v);
  };

  return (f) => {
    for (const slot of cellSlots) f.slots[slot] = new Cell(UNBOUND);
    let result: PyList | PySet | PyDict;
    let sink: Sink;
    if (e.kind === "ListComp") {
      const items: Value[] = [];
      result = new PyList(items);
      sink = (_k, v) => {
        f.rt.budget.alloc(storedSize(v));
        items.push(v);
      };
    } else if (e.kind === "SetComp") {
      const set = new PySet();
      result = set;
      sink = (_k, v) => {
        f.rt.hash(v);
        f.rt.budget.alloc(entrySize(v, null));
        set.add(v);
      };
    } else {
      const d = new PyDict();
      result = d;
      sink = (k, v) => {
        f.rt.hash(k!);
        f.rt.budget.alloc(entrySize(k!, v));
        d.set(k!, v);
      };
    }
    const r = run(f, 0, sink);
    return isPending(r) ? r.then(() => result) : result;
  };
}

/**
 * A generator expression: its first iterable is evaluated and iterated here, in the enclosing
 * scope; the rest runs in the generator's own frame as items are asked for (generator.ts).
 */
export function compileGeneratorExp(compiler: CompilerParts, e: A.GeneratorExp, outer: Scope): Expr {
  const first = compiler.expr(e.generators[0]!.iter, outer);
  const make = generatorMaker(compiler, e, outer);
  const { line, col } = e;
  // A first iterable that is not iterable is reported at the expression's start, as CPython does.
  const made = (f: Frame, src: Value): Value => {
    f.line = line;
    f.col = col;
    return make(f, src);
  };
  return (f) => {
    const src = first(f);
    return isPending(src) ? src.then((v: Value) => made(f, v)) : made(f, src);
  };
}

/** What makes a generator of `e` in frame `f` once its first iterable is evaluated (the JS tier evaluates it itself). */
export function generatorMaker(compiler: CompilerParts, e: A.GeneratorExp, outer: Scope): (f: Frame, src: Value) => Value {
  const scope = compiler.scopeOf(e);
  if (awaitsInside(e)) {
    // CPython makes it an asynchronous generator, which only `async for` (refused) can consume.
    return (_f, src) => {
      stepper(src);
      return new PyAsyncGenerator();
    };
  }
  // The JS tier's unit when this compilation uses the tier, as for a function's body; in a
  // script's first run, from the TIER_UP_CALLS-th generator made here.
  let unit = codegenMode !== "never" && (compiler.hot || isCompiled(e)) ? compileGeneratorUnit(e, scope, compiler) : null;
  const code = unit === null ? genexpCode(compiler, e, scope) : null;
  let made = 0;
  // Asked first at KNOWN_SHAPE_TIER_UP generators made (a known shape moves then), then at TIER_UP_CALLS.
  let next = Math.min(KNOWN_SHAPE_TIER_UP, TIER_UP_CALLS);
  const emptySlots = unboundSlots(scope.slotCount);
  const cellSlots = [...scope.variables.values()].filter((v) => v.isCell).map((v) => v.slot);
  const captures = compiler.captures(scope, outer);
  const bytes = GENERATOR + SLOT * emptySlots.length + CLOSURE * e.generators.length + CELL * captures.length;
  return (f, src) => {
    if (unit === null && ++made >= next && codegenMode === "auto") {
      const late = made >= TIER_UP_CALLS;
      unit = compileGeneratorUnit(e, scope, compiler, !late);
      // Refused: never asked again.
      if (unit === null) next = late ? Infinity : TIER_UP_CALLS;
      else if (unit.fresh) f.rt.primeYields();
    }
    // As CPython's iter() of the first iterable: a TypeError here, at creation.
    const cursor = stepper(src);
    const frame = new GeneratorFrame(emptySlots.slice(), captures.length === 0 ? NO_CELLS : captures.map((c) => c(f)), f.globals, "<genexpr>", f.depth + 1);
    for (const slot of cellSlots) frame.slots[slot] = new Cell(UNBOUND);
    const body = unit !== null ? new UnitMachine(unit, frame, cursor) : new ClauseMachine(f.rt, code!, frame, cursor);
    return new PyGenerator(f.rt, frame, body, bytes);
  };
}

/** A generator expression's parts as closures over the generator's frame (ClauseMachine runs them). */
function genexpCode(compiler: CompilerParts, e: A.GeneratorExp, scope: Scope): GenexpCode {
  const at = (n: A.Node): Position => ({ line: n.line, col: n.col });
  return {
    clauses: e.generators.map((g, i) => ({
      iter: i === 0 ? null : compiler.expr(g.iter, scope),
      iterAt: at(g.iter),
      store: compiler.store(g.target, scope),
      targetAt: at(g.target),
      ifs: g.ifs.map((c) => ({ test: compiler.expr(c, scope), at: at(c) })),
    })),
    elt: compiler.expr(e.elt, scope),
    eltAt: at(e.elt),
    at: at(e),
  };
}
