// Which statement gives a script its answer, for both tiers to compile as a return.
import type * as A from "../../grammar/ast.js";

/**
 * The statement whose value is the script's answer when nothing is bound to RESULT or result: the
 * module's last statement, when it is an expression statement (`x`, `srv.tool()`, `await f()`).
 * It ends the module body as `return <value>` would.
 */
export function answerStatement(body: readonly A.Stmt[]): A.ExprStmt | null {
  const last = body[body.length - 1];
  return last?.kind === "Expr" ? last : null;
}
