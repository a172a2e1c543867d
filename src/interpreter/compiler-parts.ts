// What the closure compiler's parts (compile-*.ts: targets, loops, try, calls, functions, comprehensions)
// ask of the compiler (compile.ts): to compile the statements and expressions inside theirs.
import type * as A from "../../grammar/ast.js";
import type { ClosureCompiler } from "./codegen.js";
import type { FunctionCode } from "./function.js";
import type { Cell, Expr, Frame, Stmt, Store } from "./frame.js";
import type { Scope } from "./scope.js";

export interface CompilerParts extends ClosureCompiler {
  /** Whether this compilation puts every unit on the JS tier (a kept script that did enough work). */
  readonly hot: boolean;
  block(body: A.Stmt[], scope: Scope): Stmt;
  storeName(id: string, scope: Scope): Store;
  deleteName(id: string, scope: Scope): (f: Frame) => void;
  /** The cells a function or generator of scope `inner` closes over, each taken from the defining frame. */
  captures(inner: Scope, outer: Scope): ((f: Frame) => Cell)[];
  /** A subscript's key (a slice made into a SliceValue). */
  subscriptKey(slice: A.Expr, scope: Scope): Expr;
  /** A local variable's slot, when `e` reads one that no inner function captures. */
  plainSlot(e: A.Expr, scope: Scope): number | null;
  /** Sets a function's body into its code: closures first, the JS tier when it turns hot. */
  functionBody(node: A.Node, body: A.Stmt[], scope: Scope, code: FunctionCode): void;
}
