// The closure tier's function definitions: def and lambda make a PyFunction from a code object
// compiled once (its body set by the compiler's functionBody), and decorators apply in CPython's order.
import type * as A from "../../grammar/ast.js";
import { Pending } from "./objects.js";
import { type FunctionCode, type Parameter, PyFunction } from "./function.js";
import { type Completion, type Expr, type Stmt, type Store, unboundSlots } from "./frame.js";
import type { Scope } from "./scope.js";
import type { Value } from "./values.js";
import type { CompilerParts } from "./compiler-parts.js";
import { after2, evalAll, isPending } from "./closure-eval.js";

/** A FunctionCode's body until functionBody sets it. */
const NO_BODY: Stmt = () => undefined;

const NO_DEFAULTS: Value[] = [];
const NO_KW_DEFAULTS = new Map<string, Value>();

/** A body's docstring, as CPython finds it: a first statement that is a plain string literal. */
function docstring(body: readonly A.Stmt[]): string | null {
  const first = body[0];
  return first?.kind === "Expr" && first.value.kind === "Constant" && typeof first.value.value === "string" ? first.value.value : null;
}

/**
 * A decorated def, in CPython's order: the decorator expressions top to bottom, then the
 * function (its defaults), then each decorator called on the result, bottom-up, and the name
 * bound to what the last one returned. A traceback shows the line of the decorator at work.
 */
export function compileDecorated(compiler: CompilerParts, s: A.FunctionDef, make: Expr, store: Store, scope: Scope): Stmt {
  const decorators = s.decoratorList.map((d) => ({ value: compiler.expr(d, scope), line: d.line, col: d.col }));
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

/** Compiles a def or lambda; returns a closure that makes the function object at run time. */
export function functionMaker(
  compiler: CompilerParts,
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
  compiler.functionBody(node, bodyStmts, inner, code);
  const captures = compiler.captures(inner, outer);
  const defaults = args.defaults.map((d) => compiler.expr(d, outer));
  const kwDefaultExprs = args.kwonlyargs.map((a, i) => ({ name: a.arg, expr: args.kwDefaults[i] ? compiler.expr(args.kwDefaults[i]!, outer) : null }));
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
