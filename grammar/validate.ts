// Checks CPython makes when it compiles rather than parses, reported here as SyntaxErrors
// before anything runs: `return`/`break`/`continue`/`await` where they cannot be, and
// `nonlocal` at module level.
import type * as A from "./ast.js";
import { ParseFailure } from "./parser.js";
import { forEachChild } from "./walk.js";

interface Context {
  inFunction: boolean;
  inAsyncFunction: boolean;
  inLoop: boolean;
}

const MODULE: Context = { inFunction: false, inAsyncFunction: false, inLoop: false };

/** Throws ParseFailure at the first statement or expression that is not allowed where it is. */
export function checkContext(module: A.Module): void {
  for (const stmt of module.body) visit(stmt, MODULE);
}

function visit(node: A.Node, ctx: Context): void {
  switch (node.kind) {
    case "Return":
      if (!ctx.inFunction) throw new ParseFailure("'return' outside function", node);
      break;
    case "Break":
      if (!ctx.inLoop) throw new ParseFailure("'break' outside loop", node);
      return;
    case "Continue":
      if (!ctx.inLoop) throw new ParseFailure("'continue' not properly in loop", node);
      return;
    case "Nonlocal":
      if (!ctx.inFunction) throw new ParseFailure("nonlocal declaration not allowed at module level", node);
      return;
    case "Await":
      if (!ctx.inAsyncFunction) {
        throw new ParseFailure(ctx.inFunction ? "'await' outside async function" : "'await' outside function", node);
      }
      break;
    case "FunctionDef": {
      visitArguments(node.args, ctx);
      if (node.returns) visit(node.returns, ctx);
      const inner: Context = { inFunction: true, inAsyncFunction: node.isAsync, inLoop: false };
      for (const stmt of node.body) visit(stmt, inner);
      return;
    }
    case "Lambda": {
      visitArguments(node.args, ctx);
      visit(node.body, { inFunction: true, inAsyncFunction: false, inLoop: false });
      return;
    }
    case "For":
    case "While": {
      if (node.kind === "For") {
        visit(node.target, ctx);
        visit(node.iter, ctx);
      } else {
        visit(node.test, ctx);
      }
      const loop: Context = { ...ctx, inLoop: true };
      for (const stmt of node.body) visit(stmt, loop);
      for (const stmt of node.orelse) visit(stmt, ctx);
      return;
    }
  }
  forEachChild(node, (child) => visit(child, ctx));
}

function visitArguments(args: A.Arguments, ctx: Context): void {
  for (const d of args.defaults) visit(d, ctx);
  for (const d of args.kwDefaults) if (d) visit(d, ctx);
  for (const a of [...args.posonlyargs, ...args.args, ...args.kwonlyargs, args.vararg, args.kwarg]) {
    if (a?.annotation) visit(a.annotation, ctx);
  }
}
