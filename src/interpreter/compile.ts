// The compiler: AST -> a tree of JavaScript closures, run directly.
//
// Each expression compiles to `(frame) => Value | Pending` and each statement to
// `(frame) => Completion | Pending`. The fast path is plain synchronous calls. When something must
// wait (a tool call, a time slice given back to the event loop, a very deep Python recursion), the
// innermost closure returns a Pending, and every closure above it returns a Pending that continues
// its own remaining work once the inner one settles. Nothing is paid for this while nothing waits.
//
// This is the first tier; its operators' closures are made in closure-ops.ts, from the fast paths
// both tiers share (fast-paths.ts), and its larger constructs in parts of their own (compile-*.ts:
// loops, try, calls, functions, comprehensions; compiler-parts.ts is what they ask of this
// compiler). A hot module or function body goes to the second tier, codegen.ts (its own
// JavaScript function), through unitBody and functionBody; whatever that tier does not translate
// it compiles here, as closures over the same frame.
import type * as A from "../../grammar/ast.js";
import { EXC, PyException, pyError } from "./errors.js";
import { Pending } from "./objects.js";
import { type BinaryOp, compare, equals, getItem, setItem, SliceValue, unary } from "./ops.js";
import type { Runtime } from "./runtime.js";
import { compileUnit, isCompiled, type Unit } from "./codegen.js";
import { entriesSize } from "./sizes.js";
import type { FunctionCode } from "./function.js";
import { isIn, isNotIn } from "./stepping.js";
import { BREAK, Cell, type Completion, CONTINUE, type Expr, type Frame, RETURN, type Stmt, type Store } from "./frame.js";
import { answerStatement } from "./answer.js";
import { codegenMode, isHot, KNOWN_SHAPE_TIER_UP, TIER_UP_CALLS } from "./tiering.js";
import { fusedClosure, negateClosure, operatorClosure } from "./closure-ops.js";
import { augmentedValue } from "./augmented.js";
import { constantValue } from "./constant.js";
import { spliceStarred } from "./unpacking.js";
import { after2, continueWith, enter, evalAll, exactly, isPending, runBlock } from "./closure-eval.js";
import type { CompilerParts } from "./compiler-parts.js";
import { compileFor, compileWhile } from "./compile-loops.js";
import { compileDeleter, compileName, compileStore, deleteName, storeName } from "./compile-targets.js";
import { compileRaise, compileTry } from "./compile-try.js";
import { compileCall } from "./compile-call.js";
import { compileDecorated, functionMaker } from "./compile-function.js";
import { compileComprehension, compileGeneratorExp, generatorMaker } from "./compile-comprehension.js";
import { type Access, analyse, type Scope, type ScopeInfo } from "./scope.js";
import { EMPTY_TUPLE, PyDict, PyList, PySet, PyTuple, truthy, typeName, type Value } from "./values.js";

// ------------------------------------------------------------------ the compiler

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

class Compiler implements CompilerParts {
  constructor(
    private readonly info: ScopeInfo,
    readonly hot: boolean,
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
  functionBody(node: A.Node, body: A.Stmt[], scope: Scope, code: FunctionCode): void {
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
    // Asked first at KNOWN_SHAPE_TIER_UP calls (a known shape moves then), then at TIER_UP_CALLS.
    let next = Math.min(KNOWN_SHAPE_TIER_UP, TIER_UP_CALLS);
    code.body = (f) => {
      if (++calls >= next) {
        const late = calls >= TIER_UP_CALLS;
        const unit = compileUnit(node, body, scope, this, !late);
        if (unit !== null) {
          use(unit);
          if (unit.fresh) f.rt.primeYields();
        } else if (late) code.body = closures;
        else next = TIER_UP_CALLS;
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
        return compileWhile(this, s, scope);
      case "For":
        return compileFor(this, s, scope);
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
        const make = functionMaker(this, s, s.name, s.args, this.info.scopes.get(s)!, scope, s.isAsync, false, s.body);
        const store = this.storeName(s.name, scope);
        if (s.decoratorList.length > 0) return compileDecorated(this, s, make, store, scope);
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
        const dels = s.targets.map((t) => compileDeleter(this, t, scope));
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
        return compileRaise(this, s, scope);
      case "Try":
        return compileTry(this, s, scope);
      case "Import":
        return this.importStatement(s, scope);
      case "ImportFrom":
        return this.importFrom(s, scope);
    }
  }

  private augAssign(s: A.AugAssign, scope: Scope): Stmt {
    const value = this.expr(s.value, scope);
    const op = s.op as BinaryOp;
    const target = s.target;
    if (target.kind === "Name") {
      const load = compileName(this, target, scope);
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

  // ---------------------------------------------------------------- names and assignment targets (compile-targets.ts)

  access(node: A.Name, scope: Scope): Access {
    return this.info.access.get(node) ?? this.info.resolve(scope, node.id);
  }

  storeName(id: string, scope: Scope): Store {
    return storeName(this, id, scope);
  }

  deleteName(id: string, scope: Scope): (f: Frame) => void {
    return deleteName(this, id, scope);
  }

  store(target: A.Expr, scope: Scope): Store {
    return compileStore(this, target, scope);
  }

  // ---------------------------------------------------------------- expressions

  expr(e: A.Expr, scope: Scope): Expr {
    switch (e.kind) {
      case "Constant": {
        const v = constantValue(e.value);
        return () => v;
      }
      case "Name":
        return compileName(this, e, scope);
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
          return (f) => continueWith(operand(f), not);
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
        return functionMaker(this, e, "<lambda>", e.args, this.info.scopes.get(e)!, scope, false, true, [body]);
      }
      case "Call":
        return compileCall(this, e, scope);
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
        return (f) => continueWith(items(f), make);
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
        return compileComprehension(this, e, scope);
      case "GeneratorExp":
        return compileGeneratorExp(this, e, scope);
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

  subscriptKey(slice: A.Expr, scope: Scope): Expr {
    if (slice.kind !== "Slice") return this.expr(slice, scope);
    const none: Expr = () => null;
    const parts = [slice.lower, slice.upper, slice.step].map((p) => (p ? this.expr(p, scope) : none));
    const make = ([a, b, c]: Value[]): Value => new SliceValue(a!, b!, c!) as unknown as Value;
    return (f) => continueWith(evalAll(parts, f), make);
  }

  private comparison(e: A.Compare, scope: Scope): Expr {
    const general = this.comparisonOf(e, scope);
    if (e.ops.length !== 1) return general;
    return this.fusedInt(e.ops[0]!, e.left, e.comparators[0]!, scope, general) ?? general;
  }

  /** A local variable's slot, when `e` reads one that no inner function captures. */
  plainSlot(e: A.Expr, scope: Scope): number | null {
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
          return b.then((y: Value) => continueWith(test(f.rt, ops[index]!, a, y), (ok: boolean) => (ok ? run(f, y, index + 1) : false)));
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
            return continueWith(evalAll(parts, f, i + 1, xs.slice(0, i + 1)), (ys: Value[]) => finish(f.rt, ys.join("")));
          });
        }
        xs[i] = v;
      }
      return finish(f.rt, xs.join(""));
    };
  }

  // ---------------------------------------------------------------- functions and generators

  /** What makes a generator of `e` from its first iterable's value (compile-comprehension.ts). */
  generatorMaker(e: A.GeneratorExp, outer: Scope): (f: Frame, src: Value) => Value {
    return generatorMaker(this, e, outer);
  }

  /** The cells a function or generator of scope `inner` closes over, each taken from the defining frame. */
  captures(inner: Scope, outer: Scope): ((f: Frame) => Cell)[] {
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
}

// ------------------------------------------------------------------ small helpers

function identical(a: Value, b: Value): boolean {
  if (a === b) return true;
  // Small ints and floats are values here; `is` on equal numbers is True as for CPython's cached ones.
  return false;
}
