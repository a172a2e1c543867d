// Generic traversal of the AST: the one place that knows which fields of each node hold children.
import type * as A from "./ast.js";

/** Calls `visit` on each direct child node of `node`, in source order. */
export function forEachChild(node: A.Node, visit: (child: A.Node) => void): void {
  const each = (nodes: readonly (A.Node | null)[]) => {
    for (const n of nodes) if (n) visit(n);
  };
  const args = (a: A.Arguments) => {
    each(a.posonlyargs);
    each(a.args);
    if (a.vararg) visit(a.vararg);
    each(a.kwonlyargs);
    if (a.kwarg) visit(a.kwarg);
    each(a.defaults);
    each(a.kwDefaults);
  };
  switch (node.kind) {
    case "Module": return each(node.body);
    case "Expr": return visit(node.value);
    case "Assign": return each([...node.targets, node.value]);
    case "AugAssign": return each([node.target, node.value]);
    case "AnnAssign": return each([node.target, node.annotation, node.value]);
    case "If":
    case "While": return each([node.test, ...node.body, ...node.orelse]);
    case "For": return each([node.target, node.iter, ...node.body, ...node.orelse]);
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
      args(node.args);
      if (node.returns) visit(node.returns);
      return each(node.body);
    case "Return": return each([node.value]);
    case "Delete": return each(node.targets);
    case "Assert": return each([node.test, node.msg]);
    case "Try": return each([...node.body, ...node.handlers, ...node.orelse, ...node.finalbody]);
    case "ExceptHandler": return each([node.type, ...node.body]);
    case "Raise": return each([node.exc, node.cause]);
    case "arg": return each([node.annotation]);
    case "keyword": return visit(node.value);
    case "comprehension": return each([node.target, node.iter, ...node.ifs]);
    case "BoolOp": return each(node.values);
    case "NamedExpr": return each([node.target, node.value]);
    case "BinOp": return each([node.left, node.right]);
    case "UnaryOp": return visit(node.operand);
    case "Lambda":
      args(node.args);
      return visit(node.body);
    case "IfExp": return each([node.test, node.body, node.orelse]);
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
      return each(node.elts);
    case "ListComp":
    case "SetComp":
    case "GeneratorExp":
      return each([node.elt, ...node.generators]);
    case "DictComp": return each([node.key, node.value, ...node.generators]);
    case "Await":
    case "Starred":
    case "Attribute":
      return visit(node.value);
    case "Compare": return each([node.left, ...node.comparators]);
    case "Call": return each([node.func, ...node.args, ...node.keywords]);
    case "FormattedValue": return each([node.value, node.formatSpec]);
    case "JoinedStr": return each(node.values);
    case "Subscript": return each([node.value, node.slice]);
    case "Slice": return each([node.lower, node.upper, node.step]);
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
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return node;
    forEachChild(node, (child) => {
      nodes.push(child);
      depths.push(depth + 1);
    });
  }
  return null;
}
