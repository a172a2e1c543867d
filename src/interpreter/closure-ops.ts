// The closure tier's operators (compile.ts): closures that run an operator's fast path
// (fast-paths.ts) before its general operation.
//
// The fast path is JavaScript text, the same the code generator emits; here it is compiled once
// per operator, inside the closure that runs it, into a maker of such closures. A closure of its
// own per operator also keeps V8's type feedback apart: one literal shared by every operator would
// see them all (a closure calling the fast path as a function ran nested int arithmetic, such as
// `(a + b * 3 - 7) % m`, 10% slower per level of nesting than the code inline).
import type { Expr } from "./frame.js";
import { BINARY_FAST_PATHS, COMPARE_FAST_PATHS, FAST_PATH_SCOPE, type FastCompareOp, type FastPath, NEGATE_FAST_PATH } from "./fast-paths.js";
import { Pending } from "./objects.js";
import type { BinaryOp } from "./ops.js";
import type { Runtime } from "./runtime.js";
import type { Value } from "./values.js";

/** The general form of an operation, for what the fast path leaves. */
export type General = (rt: Runtime, a: Value, b: Value) => Value | Pending;

/** A maker of closures over `left` and `right` (or slots, or a constant) and the general form. */
type Maker = (left: unknown, right: unknown, general: General | Expr) => Expr;

const SCOPE = { Pending, ...FAST_PATH_SCOPE };
const makers = new Map<string, Maker>();

/** The maker whose closures' code is `body` (made once per key): `body` may name its parameters and SCOPE. */
function maker(key: string, body: () => string): Maker {
  let make = makers.get(key);
  if (make === undefined) {
    const text = `"use strict"; return (left, right, general) => (f) => { let t; ${body()} };`;
    make = new Function(...Object.keys(SCOPE), text)(...Object.values(SCOPE)) as Maker;
    makers.set(key, make);
  }
  return make;
}

/**
 * Evaluates `left`, then `right` (each may wait: then the rest runs once it settles, through the
 * general form), then `path` on the two values, else the general form.
 */
function operands(path: FastPath): string {
  return `const a = left(f);
    if (a instanceof Pending) return a.then((x) => { const b = right(f); return b instanceof Pending ? b.then((y) => general(f.rt, x, y)) : general(f.rt, x, b); });
    const b = right(f);
    if (b instanceof Pending) return b.then((y) => general(f.rt, a, y));
    const rt = f.rt;
    ${path("t", "a", "b")} else t = general(rt, a, b);
    return t;`;
}

function fastPathOf(op: string): FastPath | undefined {
  return BINARY_FAST_PATHS[op as BinaryOp] ?? (op in COMPARE_FAST_PATHS ? COMPARE_FAST_PATHS[op as FastCompareOp] : undefined);
}

/** `a op b` (an arithmetic operator or one comparison), `general` its general form; null when `op` has no fast path. */
export function operatorClosure(op: string, left: Expr, right: Expr, general: General): Expr | null {
  const path = fastPathOf(op);
  return path === undefined ? null : maker(`op ${op}`, () => operands(path))(left, right, general);
}

/** The operators fused on ints in slots: the arithmetic that stays an int, and the tests. */
const FUSED = new Set(["+", "-", "*", "%", "//", "<", "<=", ">", ">=", "==", "!="]);

/**
 * `x op c` or `x op y` read straight from local slots (`right` a slot, or an int constant), the
 * commonest arithmetic and tests of loops; `general` evaluates it all again where the fast path
 * does not answer. Null for an operator not fused.
 */
export function fusedClosure(op: string, left: number, right: { slot: number } | { constant: number }, general: Expr): Expr | null {
  const path = FUSED.has(op) ? fastPathOf(op) : undefined;
  if (path === undefined) return null;
  const slot = "slot" in right;
  const make = maker(`fused ${op} ${slot ? "slot" : "constant"}`, () => {
    const b = slot ? "f.slots[right]" : "right";
    return `const a = f.slots[left], b = ${b}, rt = f.rt; ${path("t", "a", "b")} else t = general(f); return t;`;
  });
  return make(left, slot ? right.slot : right.constant, general);
}

/** `-v`: an int's negation inline, anything else by `unary` (its general form). */
export function negateClosure(operand: Expr, unary: (rt: Runtime, v: Value) => Value): Expr {
  const make = maker("negate", () => `const v = left(f); if (v instanceof Pending) return v.then((x) => general(f.rt, x)); ${NEGATE_FAST_PATH("t", "v")} else t = general(f.rt, v); return t;`);
  return make(operand, null, unary as unknown as General);
}
