// Generic traversal of the AST: the one place that knows which fields of each node hold children.
import type * as A from "./ast.js";

type Visit = (child: A.Node) => void;

/** Calls `visit` on each node of `nodes`, skipping nulls. */
function each(nodes: readonly (A.Node | null)[], visit: Visit): void {
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n) visit(n);
  }
}

function maybe(node: A.Node | null, visit: Visit): void {
  if (node) visit(node);
}

function args(a: A.Arguments, visit: Visit): void {
  each(a.posonlyargs, visit);
  each(a.args, visit);
  maybe(a.vararg, visit);
  each(a.kwonlyargs, visit);
  maybe(a.kwarg, visit);
  each(a.defaults, visit);
  each(a.kwDefaults, visit);
}

/**
 * Calls `visit` on each direct child node of `node`, in source order. It allocates nothing: the
 * parser's depth check and the interpreter's scope analysis call it on every node.
 */
export function forEachChild(node: A.Node, visit: Visit): void {
  switch (node.kind) {
    case "Module": return each(node.body, visit);
    case "Expr": return visit(node.value);
    case "Assign":
      each(node.targets, visit);
      return visit(node.value);
    case "AugAssign":
      visit(node.target);
      return visit(node.value);
    case "AnnAssign":
      visit(node.target);
      visit(node.annotation);
      return maybe(node.value, visit);
    case "If":
    case "While":
      visit(node.test);
      each(node.body, visit);
      return each(node.orelse, visit);
    case "For":
      visit(node.target);
      visit(node.iter);
      each(node.body, visit);
      return each(node.orelse, visit);
    case "Break":
    case "Continue":
    case "Pass":
    case "Global":
    case "Nonlocal":
    case "Import":
    case "ImportFrom":
    case "Name":
    case "Constant":
    case "alias":
      return;
    case "FunctionDef":
      each(node.decoratorList, visit);
      args(node.args, visit);
      maybe(node.returns, visit);
      return each(node.body, visit);
    case "Return": return maybe(node.value, visit);
    case "Delete": return each(node.targets, visit);
    case "Assert":
      visit(node.test);
      return maybe(node.msg, visit);
    case "Try":
      each(node.body, visit);
      each(node.handlers, visit);
      each(node.orelse, visit);
      return each(node.finalbody, visit);
    case "ExceptHandler":
      maybe(node.type, visit);
      return each(node.body, visit);
    case "Raise":
      maybe(node.exc, visit);
      return maybe(node.cause, visit);
    case "arg": return maybe(node.annotation, visit);
    case "keyword": return visit(node.value);
    case "comprehension":
      visit(node.target);
      visit(node.iter);
      return each(node.ifs, visit);
    case "BoolOp": return each(node.values, visit);
    case "NamedExpr":
      visit(node.target);
      return visit(node.value);
    case "BinOp":
      visit(node.left);
      return visit(node.right);
    case "UnaryOp": return visit(node.operand);
    case "Lambda":
      args(node.args, visit);
      return visit(node.body);
    case "IfExp":
      visit(node.test);
      visit(node.body);
      return visit(node.orelse);
    case "Dict":
      for (let i = 0; i < node.values.length; i++) {
        const key = node.keys[i];
        if (key) visit(key);
        visit(node.values[i]!);
      }
      return;
    case "Set":
    case "List":
    case "Tuple":
      return each(node.elts, visit);
    case "ListComp":
    case "SetComp":
    case "GeneratorExp":
      visit(node.elt);
      return each(node.generators, visit);
    case "DictComp":
      visit(node.key);
      visit(node.value);
      return each(node.generators, visit);
    case "Await":
    case "Starred":
    case "Attribute":
      return visit(node.value);
    case "Compare":
      visit(node.left);
      return each(node.comparators, visit);
    case "Call":
      visit(node.func);
      each(node.args, visit);
      return each(node.keywords, visit);
    case "FormattedValue":
      visit(node.value);
      return maybe(node.formatSpec, visit);
    case "JoinedStr": return each(node.values, visit);
    case "Subscript":
      visit(node.value);
      return visit(node.slice);
    case "Slice":
      maybe(node.lower, visit);
      maybe(node.upper, visit);
      return maybe(node.step, visit);
  }
}

/** Visits `node` and every node below it, parents before children. */
export function walk(node: A.Node, visit: (node: A.Node) => void): void {
  const stack: A.Node[] = [node];
  const children: A.Node[] = [];
  while (stack.length > 0) {
    const current = stack.pop()!;
    visit(current);
    children.length = 0;
    forEachChild(current, (child) => children.push(child));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** The depth of the deepest node below `root`, counting `root` as 1; stops counting at `limit`. */
export function depthExceeds(root: A.Node, limit: number): A.Node | null {
  const nodes: A.Node[] = [root];
  const depths: number[] = [1];
  let depth = 0;
  const push = (child: A.Node) => {
    nodes.push(child);
    depths.push(depth + 1);
  };
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    depth = depths.pop()!;
    if (depth > limit) return node;
    forEachChild(node, push);
  }
  return null;
}
