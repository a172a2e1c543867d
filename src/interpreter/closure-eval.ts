// How the closure tier's closures evaluate their parts: each returns a value, or a Pending when
// something inside must wait (compile.ts), and these continue the rest once it settles, paying
// nothing while nothing waits. Shared by the compiler and its parts (compile-*.ts).
import { Pending } from "./objects.js";
import type { Completion, Expr, Frame, Stmt } from "./frame.js";
import type { Value } from "./values.js";

export function isPending(v: unknown): v is Pending {
  return v instanceof Pending;
}

/** Evaluates `exprs` left to right; returns the values, or a Pending of them. */
export function evalAll(exprs: Expr[], f: Frame, from = 0, out: Value[] = []): Value[] | Pending {
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
export function exactly(exprs: Expr[]): (f: Frame) => Value[] | Pending {
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
        if (isPending(a)) return a.then((x: Value) => continueWith(e1(f), (y: Value) => [x, y]));
        const b = e1(f);
        if (isPending(b)) return b.then((y: Value) => [a, y]);
        return [a, b];
      };
    }
    case 3: {
      const [e0, e1, e2] = exprs as [Expr, Expr, Expr];
      return (f) => {
        const a = e0(f);
        if (isPending(a)) return a.then((x: Value) => continueWith(evalAll([e1, e2], f), (rest: Value[]) => [x, ...rest]));
        const b = e1(f);
        if (isPending(b)) return b.then((y: Value) => continueWith(e2(f), (z: Value) => [a, y, z]));
        const c = e2(f);
        if (isPending(c)) return c.then((z: Value) => [a, b, z]);
        return [a, b, c];
      };
    }
  }
  const copy = (xs: Value[]): Value[] => xs.slice();
  return (f) => continueWith(evalAll(exprs, f), copy);
}

/** A statement's start: where the frame is, and its step. */
export function enter(f: Frame, line: number, col: number): void {
  f.line = line;
  f.col = col;
  f.rt.tick();
}

export function runBlock(stmts: Stmt[], f: Frame, from: number): Completion | Pending {
  for (let i = from; i < stmts.length; i++) {
    const r = stmts[i]!(f);
    if (r !== undefined) {
      if (isPending(r)) return r.then((c: Completion) => (c === undefined ? runBlock(stmts, f, i + 1) : c));
      return r;
    }
  }
  return undefined;
}

/**
 * `next(v)` now, or once `v` settles. For a `next` made at compile time: unlike after2 with an
 * arrow written at the call, nothing is allocated on the synchronous path. (Not named `then`: a
 * module that exports `then` has a thenable namespace, which `await import()` calls.)
 */
export function continueWith<T, R>(v: T | Pending, next: (x: T) => R): R | Pending {
  return isPending(v) ? v.then(next) : next(v);
}

/** Continues with `next(v)` now, or when `v` settles if it is Pending. */
export function after2<T = Value>(v: T | Pending, next: (x: T) => unknown): any {
  return isPending(v) ? v.then(next) : next(v);
}
