// The compiler: AST -> a tree of JavaScript closures, run directly.
//
// Each expression compiles to `(frame) => Value | Pending` and each statement to
// `(frame) => Completion | Pending`. The fast path is plain synchronous calls. When something must
// wait (a tool call, a time slice given back to the event loop, a very deep Python recursion), the
// innermost closure returns a Pending, and every closure above it returns a Pending that continues
// its own remaining work once the inner one settles. Nothing is paid for this while nothing waits.
//
// This is the first tier; its operators' closures are made in closure-ops.ts, from the fast paths
// both tiers share (fast-paths.ts). A hot module or function body goes to the second tier,
// codegen.ts (its own JavaScript function), through unitBody and functionBody; whatever that tier
// does not translate it compiles here, as closures over the same frame.
import type * as A from "../../grammar/ast.js";
import { forEachChild } from "../../grammar/walk.js";
import { EXC, PyExcType, PyException, pyError } from "./errors.js";
import { DONE, Pending, type Step } from "./objects.js";
import { type BinaryOp, compare, delItem, equals, getItem, rewordNotIterable, setItem, SliceValue, storedSize, unary } from "./ops.js";
import type { Runtime } from "./runtime.js";
import { type ClosureCompiler, compileGeneratorUnit, compileLoopUnit, compileUnit, isCompiled, type Unit } from "./codegen.js";
import { CELL, CLOSURE, entriesSize, entrySize, GENERATOR, SLOT } from "./sizes.js";
import { type FunctionCode, type Parameter, PyFunction } from "./function.js";
import { ClauseMachine, type GenexpCode, type Position, PyAsyncGenerator, PyGenerator, UnitMachine } from "./generator.js";
import { isIn, isNotIn, stepper, waits } from "./stepping.js";
import { BREAK, Cell, type Completion, CONTINUE, type Expr, type Frame, freeUnbound, GeneratorFrame, RETURN, type Stmt, type Store, UNBOUND, unboundLocal, unboundSlots } from "./frame.js";
import { answerStatement } from "./answer.js";
import { codegenMode, isHot, LOOP_TIER_UP, MIN_HEADS_PER_RUN, TIER_UP_CALLS } from "./tiering.js";
import { fusedClosure, negateClosure, operatorClosure } from "./closure-ops.js";
import { augmentedValue } from "./augmented.js";
import { constantValue } from "./constant.js";
import { MethodSite } from "./method-site.js";
import { spliceStarred, unpackItems, unpackWaiting } from "./unpacking.js";
import { type Access, analyse, type Scope, type ScopeInfo } from "./scope.js";
import { EMPTY_TUPLE, PyDict, PyList, PySet, PyTuple, truthy, typeName, type Value } from "./values.js";

/**
 * Sets the exception being handled as the context of `e` raised meanwhile, unless it has one.
 * The link keeps `context` alive as long as `e`: it is charged as storing it, so that a chain
 * (or a loop that keeps what it catches) costs what it holds.
 */
function linkContext(rt: Runtime, e: PyException, context: PyException): void {
  if (e === context || e.context !== null) return;
  if (context !== e.cause) rt.budget.alloc(storedSize(context));
  e.context = context;
}

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

/** How CPython names a callee in argument errors: `f()`, `len()`, `list.append()`. */
function calleeLabel(target: Value, method: string | null): string {
  if (method !== null) return `${typeName(target)}.${method}()`;
  if (target instanceof PyFunction) return `${target.code.name}()`;
  const name = target === null ? undefined : (target as { name?: unknown }).name;
  return typeof name === "string" ? `${name}()` : `${typeName(target)} object`;
}

// ------------------------------------------------------------------ helpers

function isPending(v: unknown): v is Pending {
  return v instanceof Pending;
}

/** Evaluates `exprs` left to right; returns the values, or a Pending of them. */
function evalAll(exprs: Expr[], f: Frame, from = 0, out: Value[] = []): Value[] | Pending {
  for (let i = from; i < exprs.length; i++) {
    const v = exprs[i]!(f);
    if (isPending(v)) {
      return v.then((value: Value) => {
        out.push(value);
        return evalAll(exprs, f, i + 1, out);
      });
    }
    out.push(v);
  }
  return out;
}

/**
 * evalAll for the items of a display, in an array of exactly their number. An array filled by
 * push keeps room for 17 items: every small tuple or list made that way would carry it for its
 * whole life, and the collector copy it (the pairs a loop collects, the keys of a sort).
 */
function exactly(exprs: Expr[]): (f: Frame) => Value[] | Pending {
  switch (exprs.length) {
    case 1: {
      const [e0] = exprs as [Expr];
      return (f) => {
        const a = e0(f);
        return isPending(a) ? a.then((x: Value) => [x]) : [a];
      };
    }
    case 2: {
      const [e0, e1] = exprs as [Expr, Expr];
      return (f) => {
        const a = e0(f);
        if (isPending(a)) return a.then((x: Value) => then(e1(f), (y: Value) => [x, y]));
        const b = e1(f);
        if (isPending(b)) return b.then((y: Value) => [a, y]);
        return [a, b];
      };
    }
    case 3: {
      const [e0, e1, e2] = exprs as [Expr, Expr, Expr];
      return (f) => {
        const a = e0(f);
        if (isPending(a)) return a.then((x: Value) => then(evalAll([e1, e2], f), (rest: Value[]) => [x, ...rest]));
        const b = e1(f);
        if (isPending(b)) return b.then((y: Value) => then(e2(f), (z: Value) => [a, y, z]));
        const c = e2(f);
        if (isPending(c)) return c.then((z: Value) => [a, b, z]);
        return [a, b, c];
      };
    }
  }
  const copy = (xs: Value[]): Value[] => xs.slice();
  return (f) => then(evalAll(exprs, f), copy);
}

/** A statement's start: where the frame is, and its step. */
function enter(f: Frame, line: number, col: number): void {
  f.line = line;
  f.col = col;
  f.rt.tick();
}

function runBlock(stmts: Stmt[], f: Frame, from: number): Completion | Pending {
  for (let i = from; i < stmts.length; i++) {
    const r = stmts[i]!(f);
    if (r !== undefined) {
      if (isPending(r)) return r.then((c: Completion) => (c === undefined ? runBlock(stmts, f, i + 1) : c));
      return r;
    }
  }
  return undefined;
}

// ------------------------------------------------------------------ the compiler

/** A FunctionCode's body until functionBody sets it. */
const NO_BODY: Stmt = () => undefined;

/** A loop's way to the JS tier: its heads so far; `enter` null once the tier refused it. */
interface LoopTier {
  heads: number;
  /** The loop's runs so far (each time it starts from its iterable or test). */
  runs: number;
  enter: true | null;
  /** The loop's unit, compiled at the first call (`rt`'s execution then primes its yields). */
  unit: (rt: Runtime) => Unit | null;
}

// bench/interpreter/engines.ts imports it from here, as it did before tiering.ts.
export { setCodegen } from "./tiering.js";

/** A module's compiled body, kept with its parse (execute.ts): `hot` and `mode` say how it was compiled. */
export interface CompiledModule {
  readonly info: ScopeInfo;
  readonly body: Stmt & { slotCount: number };
  readonly hot: boolean;
  readonly mode: typeof codegenMode;
}

let modulesCompiled = 0;

/** How many times this process has compiled a module body (for tests: a kept script is compiled once). */
export function compiledModuleCount(): number {
  return modulesCompiled;
}

/**
 * A module's body, compiled once and shared by every execution of the script: what belongs to
 * one execution (its runtime, its globals) comes in through the frame. `kept` is the module's
 * earlier compilation, returned as it is while it fits. A script's first run is on closures, its
 * hot loops and functions moving to the JS tier as they run (loopTier, functionBody). A kept
 * script whose run did enough work is compiled again, once, with every unit on the JS tier; the
 * analysis, and the units already compiled, are reused. `analysed` is the module's analysis when
 * the caller made it already (execute() does, a turn earlier, for a long script).
 */
export function compiledModule(module: A.Module, kept: CompiledModule | null, analysed?: ScopeInfo): CompiledModule {
  const hot = isHot(module);
  if (kept !== null && kept.mode === codegenMode && kept.hot === hot) return kept;
  return build(module, kept?.info ?? analysed ?? analyse(module), hot);
}

function build(module: A.Module, info: ScopeInfo, hot: boolean): CompiledModule {
  modulesCompiled++;
  const compiler = new Compiler(info, hot, answerStatement(module.body));
  const root = info.scopes.get(module)!;
  const run = compiler.unitBody(module, module.body, root);
  return { info, body: Object.assign((f: Frame) => run(f), { slotCount: root.slotCount }), hot, mode: codegenMode };
}

/** A module's body, compiled afresh from its analysis (made here when not given; bench:loop times the two apart). */
export function compileModule(module: A.Module, info: ScopeInfo = analyse(module)): Stmt & { slotCount: number } {
  return build(module, info, isHot(module)).body;
}

/** Whether a loop past LOOP_TIER_UP heads moves now: one of short runs waits (tiering.ts MIN_HEADS_PER_RUN). */
function movesNow(tier: LoopTier): boolean {
  return tier.heads >= MIN_HEADS_PER_RUN * tier.runs || tier.runs >= TIER_UP_CALLS;
}

class Compiler implements ClosureCompiler {
  constructor(
    private readonly info: ScopeInfo,
    private readonly hot: boolean,
    private readonly answer: A.ExprStmt | null,
  ) {}

  /** A module's or function's body: the JavaScript tier's unit when it takes it, else closures. */
  unitBody(owner: A.Node, body: A.Stmt[], scope: Scope): Stmt {
    return this.jsUnit(owner, body, scope)?.run ?? this.block(body, scope);
  }

  /** The JS tier's unit of a body, when this compilation uses the tier and the tier takes it. */
  private jsUnit(owner: A.Node, body: A.Stmt[], scope: Scope): Unit | null {
    if (codegenMode === "never" || !(this.hot || isCompiled(owner))) return null;
    return compileUnit(owner, body, scope, this);
  }

  /**
   * A function's body, set into its code. In a script's first run it starts on closures and moves
   * to the JS tier at its TIER_UP_CALLS-th call (a hot function of a one-off script).
   */
  private functionBody(node: A.Node, body: A.Stmt[], scope: Scope, code: FunctionCode): void {
    const use = (unit: Unit): void => {
      code.body = unit.run;
      code.unit = code.plainArity >= 0 && code.cellSlots.length === 0 ? unit : null;
    };
    if (this.hot || codegenMode !== "auto" || isCompiled(node)) {
      if (codegenMode === "never") {
        code.body = this.block(body, scope);
        return;
      }
      // Compiled at its first call: a script of many functions is not compiled in one block
      // (600 defs of a 64 KB script took 100-150 ms), and a function never called costs nothing.
      code.body = (f) => {
        const unit = this.jsUnit(node, body, scope);
        if (unit !== null) use(unit);
        else code.body = this.block(body, scope);
        return code.body(f);
      };
      return;
    }
    const closures = this.block(body, scope);
    let calls = 0;
    code.body = (f) => {
      if (++calls >= TIER_UP_CALLS) {
        const unit = compileUnit(node, body, scope, this);
        if (unit !== null) {
          use(unit);
          f.rt.primeYields();
        } else code.body = closures;
      }
      return closures(f);
    };
  }

  resolve(scope: Scope, id: string): Access {
    return this.info.resolve(scope, id);
  }

  scopeOf(node: A.Node): Scope {
    return this.info.scopes.get(node)!;
  }

  // ---------------------------------------------------------------- statements

  block(body: A.Stmt[], scope: Scope): Stmt {
    const stmts = body.map((s) => this.statement(s, scope));
    if (stmts.length === 1) return stmts[0]!;
    if (stmts.length === 2) {
      // Two statements (a loop body, a small function) without runBlock's loop.
      const [first, second] = stmts as [Stmt, Stmt];
      return (f) => {
        const r = first(f);
        if (r === undefined) return second(f);
        if (isPending(r)) return r.then((c: Completion) => (c === undefined ? second(f) : c));
        return r;
      };
    }
    if (stmts.length === 3) {
      const [first, second, third] = stmts as [Stmt, Stmt, Stmt];
      return (f) => {
        const r = first(f);
        if (r !== undefined) return isPending(r) ? r.then((c: Completion) => (c === undefined ? runBlock(stmts, f, 1) : c)) : r;
        const q = second(f);
        if (q === undefined) return third(f);
        if (isPending(q)) return q.then((c: Completion) => (c === undefined ? third(f) : c));
        return q;
      };
    }
    return (f) => runBlock(stmts, f, 0);
  }

  /** Every statement is a step, and records where the frame is (for tracebacks): `enter`, then its work. */
  statement(s: A.Stmt, scope: Scope): Stmt {
    const { line, col } = s;
    // The commonest statements enter in their own closure: one call less per statement run.
    if (s.kind === "Expr" && s !== this.answer) {
      const value = this.expr(s.value, scope);
      return (f) => {
        enter(f, line, col);
        const v = value(f);
        return isPending(v) ? v.then(() => undefined) : undefined;
      };
    }
    if (s.kind === "Assign" && s.targets.length === 1) {
      const value = this.expr(s.value, scope);
      const store = this.store(s.targets[0]!, scope);
      return (f) => {
        enter(f, line, col);
        const v = value(f);
        if (isPending(v)) return v.then((x: Value) => store(f, x));
        const r = store(f, v);
        return isPending(r) ? r.then(() => undefined) : undefined;
      };
    }
    const inner = this.statementInner(s, scope);
    return (f) => {
      enter(f, line, col);
      return inner(f);
    };
  }

  /** A statement's work, but for the kinds statement() compiles itself. */
  private statementInner(s: A.Stmt, scope: Scope): Stmt {
    switch (s.kind) {
      case "Expr": {
        // The script's answer (its last expression); statement() compiles the others.
        const value = this.expr(s.value, scope);
        return (f) =>
          after2(value(f), (v: Value) => {
            f.ret = v;
            return RETURN;
          });
      }
      case "Assign": {
        // Two targets or more (`a = b = 0`); statement() compiles one.
        const value = this.expr(s.value, scope);
        const stores = s.targets.map((t) => this.store(t, scope));
        return (f) => {
          const run = (v: Value, i: number): Completion | Pending => {
            for (; i < stores.length; i++) {
              const r = stores[i]!(f, v);
              if (isPending(r)) return r.then(() => run(v, i + 1));
            }
            return undefined;
          };
          const v = value(f);
          return isPending(v) ? v.then((x: Value) => run(x, 0)) : run(v, 0);
        };
      }
      case "AugAssign":
        return this.augAssign(s, scope);
      case "AnnAssign": {
        if (!s.value) return () => undefined;
        const value = this.expr(s.value, scope);
        const store = this.store(s.target, scope);
        return (f) => {
          const v = value(f);
          if (isPending(v)) return v.then((x: Value) => store(f, x));
          const r = store(f, v);
          return isPending(r) ? r.then(() => undefined) : undefined;
        };
      }
      case "If": {
        const test = this.expr(s.test, scope);
        const body = this.block(s.body, scope);
        const orelse = s.orelse.length ? this.block(s.orelse, scope) : null;
        return (f) => {
          const t = test(f);
          if (isPending(t)) return t.then((v: Value) => (truthy(v) ? body(f) : orelse ? orelse(f) : undefined));
          return truthy(t) ? body(f) : orelse ? orelse(f) : undefined;
        };
      }
      case "While":
        return this.whileLoop(s, scope);
      case "For":
        return this.forLoop(s, scope);
      case "Break":
        return () => BREAK;
      case "Continue":
        return () => CONTINUE;
      case "Pass":
        return () => undefined;
      case "Return": {
        const value = s.value ? this.expr(s.value, scope) : null;
        if (!value) {
          return (f) => {
            f.ret = null;
            return RETURN;
          };
        }
        return (f) => {
          const v = value(f);
          if (isPending(v)) {
            return v.then((x: Value) => {
              f.ret = x;
              return RETURN;
            });
          }
          f.ret = v;
          return RETURN;
        };
      }
      case "FunctionDef": {
        const make = this.functionMaker(s, s.name, s.args, this.info.scopes.get(s)!, scope, s.isAsync, false, s.body);
        const store = this.storeName(s.name, scope);
        if (s.decoratorList.length > 0) return this.decorated(s, make, store, scope);
        return (f) => {
          const fn = make(f);
          if (isPending(fn)) return fn.then((v: Value) => store(f, v));
          const r = store(f, fn);
          return isPending(r) ? r.then(() => undefined) : undefined;
        };
      }
      case "Global":
      case "Nonlocal":
        return () => undefined;
      case "Delete": {
        const dels = s.targets.map((t) => this.deleter(t, scope));
        return (f) => {
          const run = (i: number): Completion | Pending => {
            for (; i < dels.length; i++) {
              const r = dels[i]!(f);
              if (isPending(r)) return r.then(() => run(i + 1));
            }
            return undefined;
          };
          return run(0);
        };
      }
      case "Assert": {
        const test = this.expr(s.test, scope);
        const msg = s.msg ? this.expr(s.msg, scope) : null;
        const fail = (f: Frame): Completion | Pending => {
          if (!msg) throw new PyException(EXC.AssertionError, []);
          const m = msg(f);
          if (isPending(m)) {
            return m.then((x: Value) => {
              throw new PyException(EXC.AssertionError, [x]);
            });
          }
          throw new PyException(EXC.AssertionError, [m]);
        };
        return (f) => {
          const t = test(f);
          if (isPending(t)) return t.then((v: Value) => (truthy(v) ? undefined : fail(f)));
          return truthy(t) ? undefined : fail(f);
        };
      }
      case "Raise":
        return this.raise(s, scope);
      case "Try":
        return this.tryStatement(s, scope);
      case "Import":
        return this.importStatement(s, scope);
      case "ImportFrom":
        return this.importFrom(s, scope);
    }
  }

  /**
   * A decorated def, in CPython's order: the decorator expressions top to bottom, then the
   * function (its defaults), then each decorator called on the result, bottom-up, and the name
   * bound to what the last one returned. A traceback shows the line of the decorator at work.
   */
  private decorated(s: A.FunctionDef, make: Expr, store: Store, scope: Scope): Stmt {
    const decorators = s.decoratorList.map((d) => ({ value: this.expr(d, scope), line: d.line, col: d.col }));
    const { line, col } = s;
    return (f) => {
      const fns: Value[] = [];
      const apply = (fn: Value, i: number): Completion | Pending => {
        for (; i >= 0; i--) {
          const d = decorators[i]!;
          f.line = d.line;
          f.col = d.col;
          const r = f.rt.callValue(fns[i]!, [fn], null, f);
          if (isPending(r)) return r.then((x: Value) => apply(x, i - 1));
          fn = r;
        }
        const r = store(f, fn);
        return isPending(r) ? r.then(() => undefined) : undefined;
      };
      const evaluate = (i: number): Completion | Pending => {
        for (; i < decorators.length; i++) {
          const d = decorators[i]!;
          f.line = d.line;
          f.col = d.col;
          const v = d.value(f);
          if (isPending(v)) {
            return v.then((x: Value) => {
              fns.push(x);
              return evaluate(i + 1);
            });
          }
          fns.push(v);
        }
        f.line = line;
        f.col = col;
        return after2(make(f), (fn: Value) => apply(fn, decorators.length - 1));
      };
      return evaluate(0);
    };
  }

  private augAssign(s: A.AugAssign, scope: Scope): Stmt {
    const value = this.expr(s.value, scope);
    const op = s.op as BinaryOp;
    const target = s.target;
    if (target.kind === "Name") {
      const load = this.name(target, scope);
      const store = this.store(target, scope);
      return (f) => {
        // Loading a name never suspends.
        const a = load(f) as Value;
        const b = value(f);
        if (isPending(b)) return b.then((x: Value) => store(f, augmentedValue(f.rt, op, a, x)));
        const r = store(f, augmentedValue(f.rt, op, a, b));
        return isPending(r) ? r.then(() => undefined) : undefined;
      };
    }
    if (target.kind === "Attribute") {
      return () => {
        throw pyError("AttributeError", "attribute assignment is not supported in the sandbox; use a dict and d['key'] += ...");
      };
    }
    // Subscript: evaluate container and key once.
    const container = this.expr(target.value, scope);
    const key = this.subscriptKey(target.slice, scope);
    const finish = (f: Frame, c: Value, k: Value): Completion | Pending => {
      const current = getItem(c, k, f.rt.budget);
      const b = value(f);
      if (isPending(b)) return b.then((x: Value) => void setItem(c, k, augmentedValue(f.rt, op, current, x), f.rt.budget));
      setItem(c, k, augmentedValue(f.rt, op, current, b), f.rt.budget);
      return undefined;
    };
    return (f) => {
      const c = container(f);
      if (isPending(c)) return c.then((cv: Value) => after2(key(f), (k) => finish(f, cv, k)));
      const k = key(f);
      if (isPending(k)) return k.then((kv: Value) => finish(f, c, kv));
      return finish(f, c, k);
    };
  }

  private whileLoop(s: A.While, scope: Scope): Stmt {
    const test = this.expr(s.test, scope);
    const body = this.block(s.body, scope);
    const orelse = s.orelse.length ? this.block(s.orelse, scope) : null;
    const tier = this.loopTier(s, scope);
    const loop = (f: Frame): Completion | Pending => {
      for (;;) {
        if (tier.heads++ >= LOOP_TIER_UP && tier.enter !== null && movesNow(tier)) {
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

  /** How a closure-tier loop moves to its JS-tier unit once it has run LOOP_TIER_UP heads. */
  private loopTier(s: A.For | A.While, scope: Scope): LoopTier {
    const tier: LoopTier = {
      heads: 0,
      runs: 0,
      enter: codegenMode === "never" ? null : true,
      unit: (rt) => {
        const unit = compileLoopUnit(s, scope, this);
        if (unit === null) tier.enter = null;
        else rt.primeYields();
        tier.unit = () => unit;
        return unit;
      },
    };
    return tier;
  }

  private forLoop(s: A.For, scope: Scope): Stmt {
    const iterable = this.expr(s.iter, scope);
    const store = this.store(s.target, scope);
    const body = this.block(s.body, scope);
    const orelse = s.orelse.length ? this.block(s.orelse, scope) : null;
    const { line, col } = s;
    const tier = this.loopTier(s, scope);
    const loop = (f: Frame, next: Step): Completion | Pending => {
      for (;;) {
        if (tier.heads++ >= LOOP_TIER_UP && tier.enter !== null && movesNow(tier)) {
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
    return (f) => {
      tier.runs++;
      const it = iterable(f);
      if (isPending(it)) return it.then((v: Value) => loop(f, stepper(v)));
      return loop(f, stepper(it));
    };
  }

  private raise(s: A.Raise, scope: Scope): Stmt {
    const exc = s.exc ? this.expr(s.exc, scope) : null;
    const cause = s.cause ? this.expr(s.cause, scope) : null;
    const toException = (v: Value): PyException => {
      if (v instanceof PyException) return v;
      if (v instanceof PyExcType) return new PyException(v, []);
      throw pyError("TypeError", "exceptions must derive from BaseException");
    };
    // The exception is made by a function that returns it, and thrown by the statement's closure:
    // V8 optimizes a function at its returns, never one that always ends in `throw` (see raising
    // in builtins.ts), so the closure does no more than it must.
    const raised = (f: Frame, e: Value, c: Value | undefined): PyException => {
      const error = toException(e);
      if (cause) {
        const linked = c === null ? null : toException(c!);
        if (linked !== null && linked !== error.cause) f.rt.budget.alloc(storedSize(linked));
        error.cause = linked;
        error.suppressContext = true;
      }
      if (f.handling) linkContext(f.rt, error, f.handling);
      return error;
    };
    return (f) => {
      if (!exc) {
        if (!f.handling) throw pyError("RuntimeError", "No active exception to reraise");
        throw f.handling;
      }
      if (cause === null) {
        const v = exc(f);
        if (isPending(v)) {
          return v.then((x: Value) => {
            throw raised(f, x, undefined);
          });
        }
        throw raised(f, v, undefined);
      }
      const parts = evalAll([exc, cause], f);
      if (isPending(parts)) {
        return parts.then((vs: Value[]) => {
          throw raised(f, vs[0]!, vs[1]);
        });
      }
      throw raised(f, parts[0]!, parts[1]);
    };
  }

  private tryStatement(s: A.Try, scope: Scope): Stmt {
    const body = this.block(s.body, scope);
    const orelse = s.orelse.length ? this.block(s.orelse, scope) : null;
    const finalbody = s.finalbody.length ? this.block(s.finalbody, scope) : null;
    const handlers = s.handlers.map((h) => ({
      type: h.type ? this.expr(h.type, scope) : null,
      store: h.name ? this.storeName(h.name, scope) : null,
      unbind: h.name ? this.deleteName(h.name, scope) : null,
      body: this.block(h.body, scope),
    }));

    /** Runs the handlers for `error`; rethrows when none matches. */
    const handle = (f: Frame, error: unknown, i: number): Completion | Pending => {
      if (!(error instanceof PyException)) throw error;
      for (; i < handlers.length; i++) {
        const h = handlers[i]!;
        if (h.type) {
          const t = h.type(f);
          if (isPending(t)) {
            const index = i;
            return t.then((tv: Value) => (matches(error, tv) ? runHandler(f, error, index) : handle(f, error, index + 1)));
          }
          if (!matches(error, t)) continue;
        }
        return runHandler(f, error, i);
      }
      throw error;
    };
    const runHandler = (f: Frame, error: PyException, i: number): Completion | Pending => {
      const h = handlers[i]!;
      const previous = f.handling;
      f.handling = error;
      if (h.store) h.store(f, error);
      const done = () => {
        f.handling = previous;
        if (h.unbind) h.unbind(f);
      };
      let r: Completion | Pending;
      try {
        r = h.body(f);
      } catch (e) {
        done();
        if (e instanceof PyException) linkContext(f.rt, e, error);
        throw e;
      }
      if (isPending(r)) {
        return new Pending(
          r.promise.then(
            (c) => {
              done();
              return c;
            },
            (e) => {
              done();
              if (e instanceof PyException) linkContext(f.rt, e, error);
              throw e;
            },
          ),
        );
      }
      done();
      return r;
    };
    // As CPython: a class, or one level of tuple whose items are all classes (checked before
    // matching); `except ((A,),)` is a TypeError, not a deeper match.
    const matches = (error: PyException, t: Value): boolean => {
      const types = t instanceof PyTuple ? t.items : [t];
      if (!types.every((x) => x instanceof PyExcType)) {
        throw pyError("TypeError", "catching classes that do not inherit from BaseException is not allowed");
      }
      return types.some((x) => error.type.isSubclassOf(x as PyExcType));
    };

    const attempt = (f: Frame): Completion | Pending => {
      let r: Completion | Pending;
      try {
        r = body(f);
      } catch (e) {
        return handlers.length ? handle(f, e, 0) : rethrow(e);
      }
      if (isPending(r)) {
        return new Pending(
          r.promise.then(
            (c) => (c === undefined && orelse ? settle(orelse(f)) : c),
            (e) => (handlers.length ? settle(handle(f, e, 0)) : rethrow(e)),
          ),
        );
      }
      if (r === undefined && orelse) return orelse(f);
      return r;
    };
    const rethrow = (e: unknown): never => {
      throw e;
    };
    const settle = (r: Completion | Pending): unknown => (isPending(r) ? r.promise : r);

    if (!finalbody) return attempt;

    // `finally` runs whatever happened; its own break/continue/return wins, as in Python.
    const runFinally = (f: Frame, outcome: { ok: true; value: Completion } | { ok: false; error: unknown }): Completion | Pending => {
      const savedRet = f.ret;
      const r = finalbody(f);
      const conclude = (c: Completion): Completion => {
        if (c !== undefined) return c;
        f.ret = savedRet;
        if (!outcome.ok) throw outcome.error;
        return outcome.value;
      };
      return isPending(r) ? r.then(conclude) : conclude(r);
    };
    return (f) => {
      let r: Completion | Pending;
      try {
        r = attempt(f);
      } catch (e) {
        if (!(e instanceof PyException) && !f.rt.isCatchableByFinally(e)) throw e;
        return runFinally(f, { ok: false, error: e });
      }
      if (isPending(r)) {
        return new Pending(
          r.promise.then(
            (c) => settle(runFinally(f, { ok: true, value: c as Completion })),
            (e) => {
              if (!(e instanceof PyException) && !f.rt.isCatchableByFinally(e)) throw e;
              return settle(runFinally(f, { ok: false, error: e }));
            },
          ),
        );
      }
      return runFinally(f, { ok: true, value: r });
    };
  }

  private importStatement(s: A.Import, scope: Scope): Stmt {
    // `import a.b` imports a.b and binds `a` (the package, with `b` now an attribute);
    // `import a.b as c` binds the submodule itself.
    const parts = s.names.map((a) => ({
      module: a.name,
      bound: a.asname === null ? a.name.split(".")[0]! : a.name,
      store: this.storeName(a.asname ?? a.name.split(".")[0]!, scope),
    }));
    return (f) => {
      for (const p of parts) {
        const module = f.rt.importModule(p.module);
        p.store(f, p.bound === p.module ? module : f.rt.importModule(p.bound));
      }
      return undefined;
    };
  }

  private importFrom(s: A.ImportFrom, scope: Scope): Stmt {
    const moduleName = ".".repeat(s.level) + (s.module ?? "");
    const names = s.names.map((a) => ({ name: a.name, store: this.storeName(a.asname ?? a.name, scope) }));
    return (f) => {
      const module = f.rt.importModule(moduleName);
      for (const n of names) {
        // `from urllib import parse`: a submodule not imported yet is imported now.
        const v = module.attrs.get(n.name) ?? (f.rt.hasModule(`${moduleName}.${n.name}`) ? f.rt.importModule(`${moduleName}.${n.name}`) : undefined);
        if (v === undefined) {
          throw pyError("ImportError", `cannot import name '${n.name}' from '${moduleName}' (available: ${[...module.attrs.keys()].sort().join(", ")})`);
        }
        n.store(f, v);
      }
      return undefined;
    };
  }

  // ---------------------------------------------------------------- names

  access(node: A.Name, scope: Scope): Access {
    return this.info.access.get(node) ?? this.info.resolve(scope, node.id);
  }

  private name(node: A.Name, scope: Scope): Expr {
    const a = this.access(node, scope);
    const id = node.id;
    switch (a.kind) {
      case "global": {
        // Every frame of one execution shares its Globals: the cell is looked up once per execution.
        // So is the built-in of that name (`len`, `range`), while no global of the name is bound.
        let owner = -1;
        let cell: Cell = new Cell(UNBOUND);
        let builtin: Value | undefined;
        return (f) => {
          if (owner !== f.globals.id) {
            owner = f.globals.id;
            cell = f.globals.cell(id);
            builtin = undefined;
          }
          const v = cell.v;
          return v !== UNBOUND ? v : (builtin ??= f.rt.builtin(id));
        };
      }
      case "local": {
        const slot = a.variable.slot;
        if (a.variable.isCell) {
          return (f) => {
            const v = (f.slots[slot] as Cell).v;
            if (v === UNBOUND) throw unboundLocal(id);
            return v;
          };
        }
        return (f) => {
          const v = f.slots[slot];
          if (v === UNBOUND) throw unboundLocal(id);
          return v as Value;
        };
      }
      case "free": {
        const index = a.index;
        return (f) => {
          const v = f.closure[index]!.v;
          if (v === UNBOUND) throw freeUnbound(id);
          return v;
        };
      }
    }
  }

  private storeName(id: string, scope: Scope): Store {
    const a = this.info.resolve(scope, id);
    switch (a.kind) {
      case "global": {
        let owner = -1;
        let cell: Cell = new Cell(UNBOUND);
        return (f, v) => {
          if (owner !== f.globals.id) {
            owner = f.globals.id;
            cell = f.globals.cell(id);
          }
          cell.v = v;
        };
      }
      case "local": {
        const slot = a.variable.slot;
        if (a.variable.isCell) return (f, v) => void ((f.slots[slot] as Cell).v = v);
        return (f, v) => void (f.slots[slot] = v);
      }
      case "free": {
        const index = a.index;
        return (f, v) => void (f.closure[index]!.v = v);
      }
    }
  }

  private deleteName(id: string, scope: Scope): (f: Frame) => void {
    const a = this.info.resolve(scope, id);
    switch (a.kind) {
      case "global":
        return (f) => {
          if (!f.globals.delete(id)) throw pyError("NameError", `name '${id}' is not defined`);
        };
      case "local": {
        const slot = a.variable.slot;
        if (a.variable.isCell) return (f) => void ((f.slots[slot] as Cell).v = UNBOUND);
        return (f) => void (f.slots[slot] = UNBOUND);
      }
      case "free": {
        const index = a.index;
        return (f) => void (f.closure[index]!.v = UNBOUND);
      }
    }
  }

  // ---------------------------------------------------------------- assignment targets

  store(target: A.Expr, scope: Scope): Store {
    switch (target.kind) {
      case "Name":
        return this.storeName(target.id, scope);
      case "Subscript": {
        const container = this.expr(target.value, scope);
        const key = this.subscriptKey(target.slice, scope);
        return (f, v) => {
          const c = container(f);
          if (isPending(c)) return c.then((cv: Value) => after2(key(f), (k) => setItem(cv, k, v, f.rt.budget)));
          const k = key(f);
          if (isPending(k)) return k.then((kv: Value) => setItem(c, kv, v, f.rt.budget));
          setItem(c, k, v, f.rt.budget);
        };
      }
      case "Attribute":
        return () => {
          throw pyError("AttributeError", "attribute assignment is not supported in the sandbox; use a dict and d['key'] = value");
        };
      case "Tuple":
      case "List":
        return this.unpack(target.elts, scope);
      case "Starred":
        return this.store(target.value, scope);
    }
    throw new Error(`internal: the parser let through an assignment to ${target.kind}`);
  }

  private unpack(elts: A.Expr[], scope: Scope): Store {
    const starAt = elts.findIndex((e) => e.kind === "Starred");
    const stores = elts.map((e) => this.store(e, scope));
    /** Stores values[i:] into the targets from the ith (no closure unless one suspends). */
    const assign = (f: Frame, values: Value[], i: number): void | Pending => {
      for (; i < stores.length; i++) {
        const r = stores[i]!(f, values[i]!);
        if (isPending(r)) {
          const next = i + 1;
          return r.then(() => assign(f, values, next));
        }
      }
    };
    const general: Store = (f, v) => (waits(v) ? then(unpackWaiting(f.rt, v, elts.length, starAt), (items: Value[]) => assign(f, items, 0)) : assign(f, unpackItems(f.rt, v, elts.length, starAt), 0));
    if (starAt >= 0 || !elts.every((e) => e.kind === "Name")) return general;
    // `a, b = pair`, `for k, v in d.items()`: a tuple or list of as many items straight into
    // names, with unpackItems' step per item (storing a name cannot change the list).
    const count = elts.length;
    const slots = elts.map((e) => this.plainSlot(e, scope));
    // The commonest, two local names, writes the slots itself; the others go through their stores.
    if (count === 2 && slots.every((s) => s !== null)) {
      const [s0, s1] = slots as [number, number];
      return (f, v) => {
        if ((v instanceof PyTuple || v instanceof PyList) && v.items.length === 2) {
          f.rt.budget.step(2);
          const items = v.items;
          f.slots[s0] = items[0]!;
          f.slots[s1] = items[1]!;
          return;
        }
        return general(f, v);
      };
    }
    return (f, v) => {
      if ((v instanceof PyTuple || v instanceof PyList) && v.items.length === count) {
        f.rt.budget.step(count);
        const items = v.items;
        for (let i = 0; i < count; i++) stores[i]!(f, items[i]!);
        return;
      }
      return general(f, v);
    };
  }

  private deleter(target: A.Expr, scope: Scope): (f: Frame) => void | Pending {
    switch (target.kind) {
      case "Name":
        return this.deleteName(target.id, scope);
      case "Subscript": {
        const container = this.expr(target.value, scope);
        const key = this.subscriptKey(target.slice, scope);
        return (f) => {
          const parts = evalAll([container, key], f);
          if (isPending(parts)) return parts.then(([c, k]: Value[]) => delItem(c!, k!, f.rt.budget));
          delItem(parts[0]!, parts[1]!, f.rt.budget);
        };
      }
      case "Tuple":
      case "List": {
        const dels = target.elts.map((e) => this.deleter(e, scope));
        return (f) => {
          for (const d of dels) d(f);
        };
      }
    }
    return () => {
      throw pyError("AttributeError", "attribute deletion is not supported in the sandbox");
    };
  }

  // ---------------------------------------------------------------- expressions

  expr(e: A.Expr, scope: Scope): Expr {
    switch (e.kind) {
      case "Constant": {
        const v = constantValue(e.value);
        return () => v;
      }
      case "Name":
        return this.name(e, scope);
      case "BinOp": {
        const left = this.expr(e.left, scope);
        const right = this.expr(e.right, scope);
        const general = this.binOp(e.op as BinaryOp, left, right);
        return this.fusedInt(e.op, e.left, e.right, scope, general) ?? general;
      }
      case "UnaryOp": {
        const operand = this.expr(e.operand, scope);
        if (e.op === "not") {
          const not = (v: Value): Value => !truthy(v);
          return (f) => then(operand(f), not);
        }
        const op = e.op;
        if (op === "-") return negateClosure(operand, (rt, v) => unary(op, v, rt.budget));
        return (f) => {
          const v = operand(f);
          return isPending(v) ? v.then((x: Value) => unary(op, x, f.rt.budget)) : unary(op, v, f.rt.budget);
        };
      }
      case "BoolOp": {
        const values = e.values.map((v) => this.expr(v, scope));
        const isAnd = e.op === "and";
        const run = (f: Frame, i: number): Value | Pending => {
          for (; i < values.length - 1; i++) {
            const v = values[i]!(f);
            if (isPending(v)) {
              const index = i;
              return v.then((x: Value) => (truthy(x) === isAnd ? run(f, index + 1) : x));
            }
            if (truthy(v) !== isAnd) return v;
          }
          return values[values.length - 1]!(f);
        };
        return (f) => run(f, 0);
      }
      case "Compare":
        return this.comparison(e, scope);
      case "IfExp": {
        const test = this.expr(e.test, scope);
        const body = this.expr(e.body, scope);
        const orelse = this.expr(e.orelse, scope);
        return (f) => {
          const t = test(f);
          if (isPending(t)) return t.then((v: Value) => (truthy(v) ? body(f) : orelse(f)));
          return truthy(t) ? body(f) : orelse(f);
        };
      }
      case "NamedExpr": {
        const value = this.expr(e.value, scope);
        const store = this.store(e.target, scope);
        return (f) =>
          after2(value(f), (v) => {
            store(f, v);
            return v;
          });
      }
      case "Lambda": {
        const body: A.Stmt = { kind: "Return", value: e.body, line: e.body.line, col: e.body.col, endLine: e.body.endLine, endCol: e.body.endCol };
        return this.functionMaker(e, "<lambda>", e.args, this.info.scopes.get(e)!, scope, false, true, [body]);
      }
      case "Call":
        return this.call(e, scope);
      case "Attribute": {
        const value = this.expr(e.value, scope);
        const attr = e.attr;
        return (f) => {
          const v = value(f);
          return isPending(v) ? v.then((x: Value) => f.rt.getAttr(x, attr)) : f.rt.getAttr(v, attr);
        };
      }
      case "Subscript": {
        const value = this.expr(e.value, scope);
        const key = this.subscriptKey(e.slice, scope);
        return (f) => {
          const c = value(f);
          if (isPending(c)) return c.then((cv: Value) => after2(key(f), (k) => getItem(cv, k, f.rt.budget)));
          const k = key(f);
          if (isPending(k)) return k.then((kv: Value) => getItem(c, kv, f.rt.budget));
          return getItem(c, k, f.rt.budget);
        };
      }
      case "Slice":
        return this.subscriptKey(e, scope);
      case "List": {
        const items = this.elements(e.elts, scope);
        // spliceStarred charges what it collects: a starred display's list is paid for.
        const spliced = e.elts.some((x) => x.kind === "Starred");
        return (f) => {
          const xs = items(f);
          if (isPending(xs)) return xs.then((ys: Value[]) => (spliced ? new PyList(ys) : f.rt.newList(ys)));
          return spliced ? new PyList(xs) : f.rt.newList(xs);
        };
      }
      case "Tuple": {
        if (e.elts.length === 0) return () => EMPTY_TUPLE;
        const items = this.elements(e.elts, scope);
        const make = (xs: Value[]): Value => new PyTuple(xs);
        return (f) => then(items(f), make);
      }
      case "Set": {
        const items = this.elements(e.elts, scope, false);
        const make = (rt: Runtime, xs: Value[]): Value => {
          const s = new PySet();
          for (const x of xs) {
            rt.hash(x);
            s.add(x);
          }
          rt.budget.alloc(entriesSize(s));
          return s;
        };
        return (f) => {
          const xs = items(f);
          return isPending(xs) ? xs.then((ys: Value[]) => make(f.rt, ys)) : make(f.rt, xs);
        };
      }
      case "Dict":
        return this.dict(e, scope);
      case "ListComp":
      case "SetComp":
      case "DictComp":
        return this.comprehension(e, scope);
      case "GeneratorExp":
        return this.generatorExp(e, scope);
      case "JoinedStr":
        return this.joinedStr(e, scope);
      case "FormattedValue": {
        const wrapped: A.JoinedStr = { kind: "JoinedStr", values: [e], line: e.line, col: e.col, endLine: e.endLine, endCol: e.endCol };
        return this.joinedStr(wrapped, scope);
      }
      case "Await": {
        const value = this.expr(e.value, scope);
        return (f) => after2(value(f), (v) => f.rt.await(v));
      }
      case "Starred":
        throw new Error("internal: the parser let through a starred expression outside a display");
    }
  }

  /** `a op b`: the operator's fast path first when it has one (closure-ops.ts), else ops.binary. */
  private binOp(op: BinaryOp, left: Expr, right: Expr): Expr {
    const fast = operatorClosure(op, left, right, (rt, a, b) => rt.binary(op, a, b));
    if (fast !== null) return fast;
    return (f) => {
      const a = left(f);
      if (isPending(a)) return a.then((x: Value) => after2(right(f), (y) => f.rt.binary(op, x, y)));
      const b = right(f);
      if (isPending(b)) return b.then((y: Value) => f.rt.binary(op, a, y));
      return f.rt.binary(op, a, b);
    };
  }

  /** Elements of a display, with `*iterable` spliced in. */
  /** `reword`: CPython 3.11 re-words a bad `*x` in list and tuple displays, not in set ones. */
  private elements(elts: A.Expr[], scope: Scope, reword = true): (f: Frame) => Value[] | Pending {
    const hasStar = elts.some((e) => e.kind === "Starred");
    const exprs = elts.map((e) => this.expr(e.kind === "Starred" ? e.value : e, scope));
    if (!hasStar) return exactly(exprs);
    const starred = elts.map((e) => e.kind === "Starred");
    return (f) => after2(evalAll(exprs, f) as Value[] | Pending as never, (values) => spliceStarred(f.rt, values as unknown as Value[], starred, reword) as unknown as Value) as Value[] | Pending;
  }

  private subscriptKey(slice: A.Expr, scope: Scope): Expr {
    if (slice.kind !== "Slice") return this.expr(slice, scope);
    const none: Expr = () => null;
    const parts = [slice.lower, slice.upper, slice.step].map((p) => (p ? this.expr(p, scope) : none));
    const make = ([a, b, c]: Value[]): Value => new SliceValue(a!, b!, c!) as unknown as Value;
    return (f) => then(evalAll(parts, f), make);
  }

  private comparison(e: A.Compare, scope: Scope): Expr {
    const general = this.comparisonOf(e, scope);
    if (e.ops.length !== 1) return general;
    return this.fusedInt(e.ops[0]!, e.left, e.comparators[0]!, scope, general) ?? general;
  }

  /** A local variable's slot, when `e` reads one that no inner function captures. */
  private plainSlot(e: A.Expr, scope: Scope): number | null {
    if (e.kind !== "Name") return null;
    const a = this.access(e, scope);
    return a.kind === "local" && !a.variable.isCell ? a.variable.slot : null;
  }

  /**
   * `x op 1` and `x op y` on local variables, read straight from the slots (closure-ops.ts).
   * Anything else (another type, an overflow, an unbound variable) takes the general path, which
   * evaluates the operands again: reading a local has no effect to repeat.
   */
  private fusedInt(op: string, left: A.Expr, right: A.Expr, scope: Scope, general: Expr): Expr | null {
    const l = this.plainSlot(left, scope);
    if (l === null) return null;
    if (right.kind === "Constant" && typeof right.value === "bigint") {
      const c = constantValue(right.value);
      return typeof c === "number" ? fusedClosure(op, l, { constant: c }, general) : null;
    }
    const r = this.plainSlot(right, scope);
    return r === null ? null : fusedClosure(op, l, { slot: r }, general);
  }

  private comparisonOf(e: A.Compare, scope: Scope): Expr {
    const operands = [e.left, ...e.comparators].map((x) => this.expr(x, scope));
    const ops = e.ops;
    const test = (rt: Runtime, op: A.CompareOperator, a: Value, b: Value): boolean | Pending => {
      switch (op) {
        case "==":
          return equals(a, b);
        case "!=":
          return !equals(a, b);
        case "<":
        case "<=":
        case ">":
        case ">=":
          return compare(op, a, b, rt.budget);
        // A generator expression's items may have to wait.
        case "in":
          return isIn(b, a, rt.budget);
        case "not in":
          return isNotIn(b, a, rt.budget);
        case "is":
          return identical(a, b);
        case "is not":
          return !identical(a, b);
      }
    };
    if (ops.length === 1) {
      const [left, right] = operands as [Expr, Expr];
      const op = ops[0]!;
      const slow = (f: Frame, a: Value | Pending): Value | Pending => {
        if (isPending(a)) return a.then((x: Value) => after2(right(f), (y) => test(f.rt, op, x, y)));
        const b = right(f);
        if (isPending(b)) return b.then((y: Value) => test(f.rt, op, a, y));
        return test(f.rt, op, a, b);
      };
      return operatorClosure(op, left, right, (rt, a, b) => test(rt, op, a, b)) ?? ((f) => slow(f, left(f)));
    }
    const run = (f: Frame, a: Value, i: number): Value | Pending => {
      for (; i < ops.length; i++) {
        const b = operands[i + 1]!(f);
        if (isPending(b)) {
          const index = i;
          return b.then((y: Value) => then(test(f.rt, ops[index]!, a, y), (ok: boolean) => (ok ? run(f, y, index + 1) : false)));
        }
        const ok = test(f.rt, ops[i]!, a, b);
        if (isPending(ok)) {
          const index = i;
          return ok.then((yes: boolean) => (yes ? run(f, b, index + 1) : false));
        }
        if (!ok) return false;
        a = b;
      }
      return true;
    };
    const first = operands[0]!;
    return (f) => {
      const a = first(f);
      return isPending(a) ? a.then((x: Value) => run(f, x, 0)) : run(f, a, 0);
    };
  }

  private dict(e: A.Dict, scope: Scope): Expr {
    const keys = e.keys.map((k) => (k ? this.expr(k, scope) : null));
    const values = e.values.map((v) => this.expr(v, scope));
    // {"id": ..., "name": ...}, the shape of JSON records: the keys are known str constants
    // (evaluating them has no effect), so the values go straight into the dict.
    const names = e.keys.map((k) => (k?.kind === "Constant" && typeof k.value === "string" ? k.value : null));
    if (names.length > 0 && names.every((n) => n !== null)) {
      const fill = (f: Frame, d: PyDict, from: number): Value | Pending => {
        for (let i = from; i < values.length; i++) {
          const v = values[i]!(f);
          if (isPending(v)) {
            return v.then((x: Value) => {
              d.set(names[i]!, x);
              return fill(f, d, i + 1);
            });
          }
          d.set(names[i]!, v);
        }
        f.rt.budget.alloc(entriesSize(d));
        return d;
      };
      return (f) => fill(f, new PyDict(), 0);
    }
    const exprs: Expr[] = [];
    keys.forEach((k, i) => {
      exprs.push(k ?? (() => null));
      exprs.push(values[i]!);
    });
    const make = (rt: Runtime, flat: Value[]): Value => {
      const d = new PyDict();
      for (let i = 0; i < flat.length; i += 2) {
        if (keys[i / 2] === null) {
          const m = flat[i + 1]!;
          if (!(m instanceof PyDict)) throw pyError("TypeError", `'${typeName(m)}' object is not a mapping`);
          d.update(m);
        } else {
          rt.hash(flat[i]!);
          d.set(flat[i]!, flat[i + 1]!);
        }
      }
      rt.budget.alloc(entriesSize(d));
      return d;
    };
    return (f) => {
      const flat = evalAll(exprs, f);
      return isPending(flat) ? flat.then((xs: Value[]) => make(f.rt, xs)) : make(f.rt, flat);
    };
  }

  private joinedStr(e: A.JoinedStr, scope: Scope): Expr {
    const parts = e.values.map((v): Expr => {
      if (v.kind === "Constant") {
        const text = v.value as string;
        return () => text;
      }
      const value = this.expr(v.value, scope);
      const conversion = v.conversion;
      const convert = (rt: Runtime, x: Value): Value => (conversion === "r" ? rt.repr(x) : conversion === "s" ? rt.str(x) : conversion === "a" ? rt.ascii(x) : x);
      // A format spec without replacement fields (`:>10.2f`, the usual case) is known now.
      const constantSpec = !v.formatSpec ? "" : v.formatSpec.values.every((p) => p.kind === "Constant") ? v.formatSpec.values.map((p) => (p as A.Constant).value as string).join("") : null;
      if (constantSpec !== null) {
        const spec = constantSpec;
        const plain = spec === "" && conversion === null;
        const finish = (rt: Runtime, x: Value): string => {
          if (plain && typeof x === "string") return x;
          return rt.format(convert(rt, x), spec);
        };
        return (f: Frame) => {
          const x = value(f);
          return isPending(x) ? x.then((y: Value) => finish(f.rt, y)) : finish(f.rt, x);
        };
      }
      const spec = this.joinedStr(v.formatSpec!, scope);
      return (f: Frame) =>
        after2(value(f), (x) => {
          const converted = convert(f.rt, x);
          return after2(spec(f), (s) => f.rt.format(converted, s as string));
        });
    });
    const finish = (rt: Runtime, out: string): string => {
      rt.budget.checkSize(2 * out.length);
      rt.budget.step(out.length >> 6);
      return out;
    };
    const n = parts.length;
    return (f) => {
      const xs: Value[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const v = parts[i]!(f);
        if (isPending(v)) {
          return v.then((x: Value) => {
            xs[i] = x;
            return then(evalAll(parts, f, i + 1, xs.slice(0, i + 1)), (ys: Value[]) => finish(f.rt, ys.join("")));
          });
        }
        xs[i] = v;
      }
      return finish(f.rt, xs.join(""));
    };
  }

  // ---------------------------------------------------------------- comprehensions

  private comprehension(e: A.ListComp | A.SetComp | A.DictComp, outer: Scope): Expr {
    const scope = this.info.scopes.get(e)!;
    const clauses = e.generators.map((g, i) => ({
      iter: this.expr(g.iter, i === 0 ? outer : scope),
      store: this.store(g.target, scope),
      ifs: g.ifs.map((c) => this.expr(c, scope)),
    }));
    const key = e.kind === "DictComp" ? this.expr(e.key, scope) : null;
    const elt = e.kind === "DictComp" ? this.expr(e.value, scope) : this.expr(e.elt, scope);
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
        if (isPending(item)) return item.then((x: Value | typeof DONE) => (x === DONE ? undefined : then(iteration(f, i, sink, x), () => loop(f, i, next, sink))));
        if (inline) {
          const stored = clause.store(f, item);
          if (isPending(stored)) return stored.then(() => then(body(f, i, sink), () => loop(f, i, next, sink)));
          if (test !== null) {
            const c = test(f);
            if (isPending(c)) return c.then((v: Value) => then(truthy(v) ? emit(f, sink) : undefined, () => loop(f, i, next, sink)));
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
  private generatorExp(e: A.GeneratorExp, outer: Scope): Expr {
    const first = this.expr(e.generators[0]!.iter, outer);
    const make = this.generatorMaker(e, outer);
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
  generatorMaker(e: A.GeneratorExp, outer: Scope): (f: Frame, src: Value) => Value {
    const scope = this.info.scopes.get(e)!;
    if (awaitsInside(e)) {
      // CPython makes it an asynchronous generator, which only `async for` (refused) can consume.
      return (_f, src) => {
        stepper(src);
        return new PyAsyncGenerator();
      };
    }
    // The JS tier's unit when this compilation uses the tier, as for a function's body; in a
    // script's first run, from the TIER_UP_CALLS-th generator made here.
    let unit = codegenMode !== "never" && (this.hot || isCompiled(e)) ? compileGeneratorUnit(e, scope, this) : null;
    const code = unit === null ? this.genexpCode(e, scope) : null;
    let made = 0;
    const emptySlots = unboundSlots(scope.slotCount);
    const cellSlots = [...scope.variables.values()].filter((v) => v.isCell).map((v) => v.slot);
    const captures = this.captures(scope, outer);
    const bytes = GENERATOR + SLOT * emptySlots.length + CLOSURE * e.generators.length + CELL * captures.length;
    return (f, src) => {
      if (unit === null && ++made >= TIER_UP_CALLS && codegenMode === "auto") {
        unit = compileGeneratorUnit(e, scope, this);
        // Refused: never asked again.
        if (unit === null) made = -Infinity;
        else f.rt.primeYields();
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
  private genexpCode(e: A.GeneratorExp, scope: Scope): GenexpCode {
    const at = (n: A.Node): Position => ({ line: n.line, col: n.col });
    return {
      clauses: e.generators.map((g, i) => ({
        iter: i === 0 ? null : this.expr(g.iter, scope),
        iterAt: at(g.iter),
        store: this.store(g.target, scope),
        targetAt: at(g.target),
        ifs: g.ifs.map((c) => ({ test: this.expr(c, scope), at: at(c) })),
      })),
      elt: this.expr(e.elt, scope),
      eltAt: at(e.elt),
      at: at(e),
    };
  }

  // ---------------------------------------------------------------- calls

  private call(e: A.Call, scope: Scope): Expr {
    const simple = e.args.every((a) => a.kind !== "Starred") && e.keywords.every((k) => k.arg !== null);
    const args = e.args.map((a) => this.expr(a.kind === "Starred" ? a.value : a, scope));
    const starred = e.args.map((a) => a.kind === "Starred");
    const kwExprs = e.keywords.map((k) => this.expr(k.value, scope));
    const kwNames = e.keywords.map((k) => k.arg);
    const { line, col } = e;

    /** Builds positional args and kwargs from evaluated values. */
    const assemble = (rt: Runtime, values: Value[], target: Value, method: string | null): [Value[], Map<string, Value> | null] => {
      const positional: Value[] = [];
      for (let i = 0; i < args.length; i++) {
        if (!starred[i]) positional.push(values[i]!);
        else {
          try {
            positional.push(...rt.toList(values[i]!));
          } catch (err) {
            throw rewordNotIterable(err, values[i]!, (type) => `${calleeLabel(target, method)} argument after * must be an iterable, not ${type}`);
          }
        }
      }
      if (kwExprs.length === 0) return [positional, null];
      const kwargs = new Map<string, Value>();
      for (let j = 0; j < kwExprs.length; j++) {
        const v = values[args.length + j]!;
        const name = kwNames[j];
        if (name === null || name === undefined) {
          if (!(v instanceof PyDict)) throw pyError("TypeError", `${calleeLabel(target, method)} argument after ** must be a mapping, not ${typeName(v)}`);
          for (const [k, x] of v.entries()) {
            if (typeof k !== "string") throw pyError("TypeError", "keywords must be strings");
            if (kwargs.has(k)) throw pyError("TypeError", `${calleeLabel(target, method)} got multiple values for keyword argument '${k}'`);
            kwargs.set(k, x);
          }
        } else {
          if (kwargs.has(name)) throw pyError("TypeError", `${calleeLabel(target, method)} got multiple values for keyword argument '${name}'`);
          kwargs.set(name, v);
        }
      }
      return [positional, kwargs];
    };
    const all = [...args, ...kwExprs];

    const plain = simple && kwExprs.length === 0;
    /** Calls `target` (a callable, or the receiver of `method`) with evaluated argument values. */
    const invoke = (f: Frame, target: Value, method: string | null, vs: Value[]): Value | Pending => {
      f.line = line;
      f.col = col;
      if (plain) return method === null ? f.rt.callValue(target, vs, null, f) : f.rt.callMethod(target, method, vs, null, f);
      const [positional, kwargs] = assemble(f.rt, vs, target, method);
      return method === null ? f.rt.callValue(target, positional, kwargs, f) : f.rt.callMethod(target, method, positional, kwargs, f);
    };
    /** Evaluates the arguments without allocating closures unless one of them suspends. */
    const withArguments = (f: Frame, target: Value, method: string | null): Value | Pending => {
      const vs: Value[] = new Array(all.length);
      for (let i = 0; i < all.length; i++) {
        const v = all[i]!(f);
        if (isPending(v)) {
          return v.then((first: Value) => {
            vs[i] = first;
            return after2(evalAll(all, f, i + 1, vs.slice(0, i + 1)), (rest) => invoke(f, target, method, rest as unknown as Value[]));
          });
        }
        vs[i] = v;
      }
      return invoke(f, target, method, vs);
    };
    // Method calls (`obj.method(...)`) skip making a bound method.
    if (e.func.kind === "Attribute") {
      const receiver = this.expr(e.func.value, scope);
      const method = e.func.attr;
      const site = new MethodSite(method);
      // The commonest shapes get closures of their own: no argument array to fill in a loop.
      if (plain && all.length === 0) {
        return (f) => {
          const self = receiver(f);
          if (isPending(self)) return self.then((obj: Value) => withArguments(f, obj, method));
          f.line = line;
          f.col = col;
          return site.call(f.rt, self, [], f);
        };
      }
      if (plain && all.length === 2) {
        const [arg0, arg1] = all as [Expr, Expr];
        return (f) => {
          const self = receiver(f);
          if (isPending(self)) return self.then((obj: Value) => withArguments(f, obj, method));
          const v0 = arg0(f);
          if (isPending(v0)) return v0.then((x: Value) => after2(arg1(f), (y) => invoke(f, self, method, [x, y])));
          const v1 = arg1(f);
          if (isPending(v1)) return v1.then((y: Value) => invoke(f, self, method, [v0, y]));
          f.line = line;
          f.col = col;
          return site.call(f.rt, self, [v0, v1], f);
        };
      }
      if (plain && all.length === 1) {
        const arg = all[0]!;
        return (f) => {
          const self = receiver(f);
          if (isPending(self)) return self.then((obj: Value) => withArguments(f, obj, method));
          const v = arg(f);
          if (isPending(v)) return v.then((x: Value) => invoke(f, self, method, [x]));
          f.line = line;
          f.col = col;
          return site.call(f.rt, self, [v], f);
        };
      }
      return (f) => {
        const self = receiver(f);
        return isPending(self) ? self.then((obj: Value) => withArguments(f, obj, method)) : withArguments(f, self, method);
      };
    }
    const callee = this.expr(e.func, scope);
    if (plain && all.length === 2) {
      const [arg0, arg1] = all as [Expr, Expr];
      return (f) => {
        const fn = callee(f);
        if (isPending(fn)) return fn.then((fv: Value) => withArguments(f, fv, null));
        const v0 = arg0(f);
        if (isPending(v0)) return v0.then((x: Value) => after2(arg1(f), (y) => invoke(f, fn, null, [x, y])));
        const v1 = arg1(f);
        if (isPending(v1)) return v1.then((y: Value) => invoke(f, fn, null, [v0, y]));
        f.line = line;
        f.col = col;
        if (fn instanceof PyFunction && fn.code.plainArity === 2) {
          const code = fn.code;
          const slots = code.emptySlots.slice();
          slots[code.params[0]!.slot] = v0;
          slots[code.params[1]!.slot] = v1;
          return f.rt.callPlain(fn, slots, f);
        }
        return f.rt.callValue(fn, [v0, v1], null, f);
      };
    }
    if (plain && all.length === 1) {
      const arg = all[0]!;
      return (f) => {
        const fn = callee(f);
        if (isPending(fn)) return fn.then((fv: Value) => withArguments(f, fv, null));
        const v = arg(f);
        if (isPending(v)) return v.then((x: Value) => invoke(f, fn, null, [x]));
        f.line = line;
        f.col = col;
        if (fn instanceof PyFunction && fn.code.plainArity === 1) {
          const code = fn.code;
          const slots = code.emptySlots.slice();
          slots[code.params[0]!.slot] = v;
          return f.rt.callPlain(fn, slots, f);
        }
        return f.rt.callValue(fn, [v], null, f);
      };
    }
    return (f) => {
      const fn = callee(f);
      return isPending(fn) ? fn.then((fv: Value) => withArguments(f, fv, null)) : withArguments(f, fn, null);
    };
  }

  /** The cells a function or generator of scope `inner` closes over, each taken from the defining frame. */
  private captures(inner: Scope, outer: Scope): ((f: Frame) => Cell)[] {
    return inner.frees.map((variable) => {
      const a = this.info.resolve(outer, variable.name);
      if (a.kind === "local") {
        const slot = a.variable.slot;
        return (f: Frame) => f.slots[slot] as Cell;
      }
      if (a.kind === "free") {
        const index = a.index;
        return (f: Frame) => f.closure[index]!;
      }
      throw new Error(`internal: free variable ${variable.name} has no cell`);
    });
  }

  /** Compiles a def or lambda; returns a closure that makes the function object at run time. */
  private functionMaker(
    node: A.Node,
    name: string,
    args: A.Arguments,
    inner: Scope,
    outer: Scope,
    isAsync: boolean,
    isLambda: boolean,
    bodyStmts: A.Stmt[],
  ): Expr {
    const paramOf = (a: A.Arg): Parameter => {
      const v = inner.declare(a.arg);
      return { name: a.arg, slot: v.slot, cell: v.isCell };
    };
    const positional = [...args.posonlyargs, ...args.args].map(paramOf);
    const kwonly = args.kwonlyargs.map(paramOf);
    const paramNames = new Set([...args.posonlyargs, ...args.args, ...args.kwonlyargs, args.vararg, args.kwarg].filter(Boolean).map((a) => a!.arg));
    const cellSlots = [...inner.variables.values()].filter((v) => v.isCell && !paramNames.has(v.name)).map((v) => v.slot);
    const code: FunctionCode = {
      name,
      posonly: args.posonlyargs.length,
      params: [...positional, ...kwonly],
      kwonlyStart: positional.length,
      vararg: args.vararg ? paramOf(args.vararg) : null,
      kwarg: args.kwarg ? paramOf(args.kwarg) : null,
      slotCount: inner.slotCount,
      plainArity:
        !isAsync && !args.vararg && !args.kwarg && kwonly.length === 0 && positional.every((p) => !p.cell) ? positional.length : -1,
      emptySlots: unboundSlots(inner.slotCount),
      slotsAreArguments: inner.slotCount === positional.length && positional.every((p, i) => p.slot === i && !p.cell) && kwonly.length === 0,
      cellSlots,
      body: NO_BODY,
      unit: null,
      isAsync,
      isLambda,
      doc: isLambda ? null : docstring(bodyStmts),
    };
    this.functionBody(node, bodyStmts, inner, code);
    const captures = this.captures(inner, outer);
    const defaults = args.defaults.map((d) => this.expr(d, outer));
    const kwDefaultExprs = args.kwonlyargs.map((a, i) => ({ name: a.arg, expr: args.kwDefaults[i] ? this.expr(args.kwDefaults[i]!, outer) : null }));
    const withDefaults = kwDefaultExprs.filter((k) => k.expr !== null);
    // Without defaults (most functions, and lambdas made in a loop): nothing to evaluate, and one
    // shared empty map of keyword defaults (nothing writes to it).
    if (defaults.length === 0 && withDefaults.length === 0) {
      return (f) => new PyFunction(code, NO_DEFAULTS, NO_KW_DEFAULTS, captures.map((c) => c(f)), f.globals);
    }
    return (f) =>
      after2(evalAll([...defaults, ...withDefaults.map((k) => k.expr!)], f) as never, (xs) => {
        const values = xs as unknown as Value[];
        const kwDefaults = new Map<string, Value>();
        withDefaults.forEach((k, i) => kwDefaults.set(k.name, values[defaults.length + i]!));
        return new PyFunction(code, values.slice(0, defaults.length), kwDefaults, captures.map((c) => c(f)), f.globals);
      });
  }
}

// ------------------------------------------------------------------ small helpers

/** A body's docstring, as CPython finds it: a first statement that is a plain string literal. */
function docstring(body: readonly A.Stmt[]): string | null {
  const first = body[0];
  return first?.kind === "Expr" && first.value.kind === "Constant" && typeof first.value.value === "string" ? first.value.value : null;
}

/**
 * `next(v)` now, or once `v` settles. For a `next` made at compile time: unlike after2 with an
 * arrow written at the call, nothing is allocated on the synchronous path.
 */
function then<T, R>(v: T | Pending, next: (x: T) => R): R | Pending {
  return isPending(v) ? v.then(next) : next(v);
}

const NO_DEFAULTS: Value[] = [];
/** The closure of a generator that captures nothing (nothing writes to it). */
const NO_CELLS: Cell[] = [];
const NO_KW_DEFAULTS = new Map<string, Value>();

/** Continues with `next(v)` now, or when `v` settles if it is Pending. */
function after2<T = Value>(v: T | Pending, next: (x: T) => unknown): any {
  return isPending(v) ? v.then(next) : next(v);
}

function identical(a: Value, b: Value): boolean {
  if (a === b) return true;
  // Small ints and floats are values here; `is` on equal numbers is True as for CPython's cached ones.
  return false;
}
