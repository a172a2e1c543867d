// Checks CPython makes when it compiles rather than parses, reported here as SyntaxErrors
// before anything runs: `break`/`continue` outside a loop, `await` where it cannot be.
//
// Two deliberate differences (LANGUAGE.md): `await` is allowed anywhere at module level, as
// CPython allows it under `PyCF_ALLOW_TOP_LEVEL_AWAIT` (asyncio's REPL, notebooks), and so is
// `return`, which ends the script with its value as the answer.
import type { TokenType } from "chevrotain";
import type * as A from "./ast.js";
import { checkDeclarations } from "./declarations.js";
import { ParseFailure } from "./parser.js";
import * as T from "./tokens.js";
import { forEachChild } from "./walk.js";

interface Context {
  /** At module level (top-level await) or directly in an async def's body. */
  awaitAllowed: boolean;
  inLoop: boolean;
}

const MODULE: Context = { awaitAllowed: true, inLoop: false };
const LAMBDA: Context = { awaitAllowed: false, inLoop: false };

/**
 * Throws ParseFailure at the first statement or expression that is not allowed where it is, the
 * checks of CPython's symbol table (declarations.ts) first, as CPython makes them first.
 * `keywords` are those the scanner saw: without `await`, expressions need no visit at all.
 * `strayAwait` false (the parser's finding) says every `await` sits in an async def's body, so
 * expressions need no visit either.
 */
export function checkContext(module: A.Module, keywords: ReadonlySet<TokenType>, strayAwait = true): void {
  if (keywords.has(T.Nonlocal) || keywords.has(T.Global)) checkDeclarations(module);
  const awaits = strayAwait && keywords.has(T.Await);
  if (!awaits && !keywords.has(T.Break) && !keywords.has(T.Continue)) return;
  new ContextChecker(awaits).statements(module.body, MODULE);
}

class ContextChecker {
  constructor(private readonly awaits: boolean) {}

  statements(body: A.Stmt[], ctx: Context): void {
    for (const stmt of body) this.statement(stmt, ctx);
  }

  private statement(stmt: A.Stmt, ctx: Context): void {
    switch (stmt.kind) {
      case "Break":
        if (!ctx.inLoop) throw new ParseFailure("'break' outside loop", stmt);
        return;
      case "Continue":
        if (!ctx.inLoop) throw new ParseFailure("'continue' not properly in loop", stmt);
        return;
      case "FunctionDef": {
        // Decorators, defaults and annotations are evaluated where the def is.
        for (const d of stmt.decoratorList) this.expression(d, ctx);
        this.expressions(stmt.args, ctx);
        if (stmt.returns) this.expression(stmt.returns, ctx);
        this.statements(stmt.body, { awaitAllowed: stmt.isAsync, inLoop: false });
        return;
      }
      case "For":
      case "While": {
        if (stmt.kind === "For") {
          this.expression(stmt.target, ctx);
          this.expression(stmt.iter, ctx);
        } else {
          this.expression(stmt.test, ctx);
        }
        this.statements(stmt.body, { ...ctx, inLoop: true });
        this.statements(stmt.orelse, ctx);
        return;
      }
      case "If":
        this.expression(stmt.test, ctx);
        this.statements(stmt.body, ctx);
        this.statements(stmt.orelse, ctx);
        return;
      case "Try":
        this.statements(stmt.body, ctx);
        for (const handler of stmt.handlers) {
          if (handler.type) this.expression(handler.type, ctx);
          this.statements(handler.body, ctx);
        }
        this.statements(stmt.orelse, ctx);
        this.statements(stmt.finalbody, ctx);
        return;
    }
    if (this.awaits) forEachChild(stmt, (child) => this.expression(child as A.Expr, ctx));
  }

  private expressions(args: A.Arguments, ctx: Context): void {
    if (!this.awaits) return;
    for (const d of args.defaults) this.expression(d, ctx);
    for (const d of args.kwDefaults) if (d) this.expression(d, ctx);
    for (const a of [...args.posonlyargs, ...args.args, ...args.kwonlyargs, args.vararg, args.kwarg]) {
      if (a?.annotation) this.expression(a.annotation, ctx);
    }
  }

  /** Only `await` matters inside expressions, and lambdas are functions that are never async. */
  private expression(node: A.Node, ctx: Context): void {
    if (!this.awaits) return;
    if (node.kind === "Await" && !ctx.awaitAllowed) throw new ParseFailure("'await' outside async function", node);
    if (node.kind === "Lambda") {
      this.expressions(node.args, ctx);
      this.expression(node.body, LAMBDA);
      return;
    }
    if (!ctx.awaitAllowed && (node.kind === "ListComp" || node.kind === "SetComp" || node.kind === "DictComp") && awaitsInside(node)) {
      throw new ParseFailure("asynchronous comprehension outside of an asynchronous function", node);
    }
    forEachChild(node, (child) => this.expression(child, ctx));
  }
}

/**
 * Whether a list, set or dict comprehension is asynchronous, as CPython's symbol table decides:
 * an `await` in its own scope (all but the first iterable), or in a comprehension of that kind
 * nested there. Lambdas and generator expressions are scopes of their own that do not pass it on.
 */
function awaitsInside(comp: A.ListComp | A.SetComp | A.DictComp): boolean {
  const first = comp.generators[0]?.iter;
  let found = false;
  const look = (node: A.Node): void => {
    if (found || node === first || node.kind === "Lambda" || node.kind === "GeneratorExp") return;
    if (node.kind === "Await") {
      found = true;
      return;
    }
    forEachChild(node, look);
  };
  forEachChild(comp, look);
  return found;
}
