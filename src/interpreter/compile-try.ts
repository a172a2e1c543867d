// The closure tier's exceptions: `raise` (with its cause) and `try` (handlers, else, finally),
// linking each exception raised while another is handled to it, as CPython does.
import type * as A from "../../grammar/ast.js";
import { PyExcType, PyException, pyError } from "./errors.js";
import { Pending } from "./objects.js";
import { storedSize } from "./ops.js";
import type { Runtime } from "./runtime.js";
import type { Completion, Frame, Stmt } from "./frame.js";
import type { Scope } from "./scope.js";
import { PyTuple, type Value } from "./values.js";
import type { CompilerParts } from "./compiler-parts.js";
import { evalAll, isPending } from "./closure-eval.js";

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

export function compileRaise(compiler: CompilerParts, s: A.Raise, scope: Scope): Stmt {
  const exc = s.exc ? compiler.expr(s.exc, scope) : null;
  const cause = s.cause ? compiler.expr(s.cause, scope) : null;
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

export function compileTry(compiler: CompilerParts, s: A.Try, scope: Scope): Stmt {
  const body = compiler.block(s.body, scope);
  const orelse = s.orelse.length ? compiler.block(s.orelse, scope) : null;
  const finalbody = s.finalbody.length ? compiler.block(s.finalbody, scope) : null;
  const handlers = s.handlers.map((h) => ({
    type: h.type ? compiler.expr(h.type, scope) : null,
    store: h.name ? compiler.storeName(h.name, scope) : null,
    unbind: h.name ? compiler.deleteName(h.name, scope) : null,
    body: compiler.block(h.body, scope),
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
