// The checks CPython's symbol table makes on `global` and `nonlocal` declarations, reported as
// SyntaxErrors before anything runs, with CPython's wording and positions (the declaration).
//
// As CPython does, in two passes. The first walks the module in source order and records, per
// scope, how each name is used; a declaration of a name the scope already used, assigned,
// annotated or took as a parameter fails there. The second resolves each `nonlocal` name against
// the names bound by the enclosing functions (`no binding for nonlocal 'x' found`), scope by
// scope, a scope's own names before those of the scopes inside it.
import type * as A from "./ast.js";
import { ParseFailure } from "./parser.js";
import { forEachChild } from "./walk.js";

// How a scope uses a name: the flags of CPython's symtable.c that these checks read.
const PARAM = 1;
const LOCAL = 2;
const USE = 4;
const ANNOTATED = 8;
const GLOBAL = 16;
const NONLOCAL = 32;
const IMPORTED = 64;
const BOUND = PARAM | LOCAL | IMPORTED;

class Block {
  /** Each name's flags, in the order the scope first mentions it (the second pass's order). */
  readonly flags = new Map<string, number>();
  /** The first `global` or `nonlocal` statement naming each declared name (errors point at it). */
  readonly directives = new Map<string, A.Stmt>();
  readonly children: Block[] = [];

  constructor(
    readonly kind: "module" | "function" | "comprehension",
    readonly parent: Block | null,
  ) {
    parent?.children.push(this);
  }

  add(name: string, flag: number): void {
    this.flags.set(name, (this.flags.get(name) ?? 0) | flag);
  }

  /** The scope a walrus in this one binds in: the nearest that is not a comprehension. */
  get binding(): Block {
    let b: Block = this;
    while (b.kind === "comprehension") b = b.parent!;
    return b;
  }
}

/** Throws ParseFailure at the first declaration CPython's symbol table rejects. */
export function checkDeclarations(module: A.Module): void {
  const root = new Block("module", null);
  new Uses().statements(module.body, root);
  analyse(root, null);
}

/** The second pass: `bound` holds the names the enclosing functions bind (null at module level). */
function analyse(block: Block, bound: Set<string> | null): void {
  const local = new Set<string>();
  for (const [name, flags] of block.flags) {
    const directive = (): A.Stmt => block.directives.get(name)!;
    if (flags & GLOBAL) {
      if (flags & NONLOCAL) throw new ParseFailure(`name '${name}' is nonlocal and global`, directive());
      bound?.delete(name);
    } else if (flags & NONLOCAL) {
      if (bound === null) throw new ParseFailure("nonlocal declaration not allowed at module level", directive());
      if (!bound.has(name)) throw new ParseFailure(`no binding for nonlocal '${name}' found`, directive());
    } else if (flags & BOUND) {
      local.add(name);
    }
  }
  const inner = new Set<string>(block.kind === "module" ? [] : local);
  if (bound) for (const name of bound) inner.add(name);
  for (const child of block.children) analyse(child, new Set(inner));
}

/** The first pass, in the order CPython's symbol table visits the tree. */
class Uses {
  statements(body: readonly A.Stmt[], block: Block): void {
    for (const stmt of body) this.statement(stmt, block);
  }

  private statement(s: A.Stmt, block: Block): void {
    switch (s.kind) {
      case "FunctionDef": {
        block.add(s.name, LOCAL);
        this.defaults(s.args, block);
        this.annotations(s.args, block);
        if (s.returns) this.expression(s.returns, block);
        for (const d of s.decoratorList) this.expression(d, block);
        const inner = new Block("function", block);
        this.parameters(s.args, inner);
        this.statements(s.body, inner);
        return;
      }
      case "Global":
      case "Nonlocal":
        return this.declaration(s, block);
      case "Assign":
        for (const t of s.targets) this.target(t, block);
        return this.expression(s.value, block);
      case "AugAssign":
        this.target(s.target, block);
        return this.expression(s.value, block);
      case "AnnAssign": {
        const target = s.target;
        if (target.kind === "Name") {
          const flags = block.flags.get(target.id) ?? 0;
          if (flags & (GLOBAL | NONLOCAL) && block.kind !== "module") {
            throw new ParseFailure(`annotated name '${target.id}' can't be ${flags & GLOBAL ? "global" : "nonlocal"}`, s);
          }
          block.add(target.id, ANNOTATED | LOCAL);
        } else {
          this.target(target, block);
        }
        this.expression(s.annotation, block);
        if (s.value) this.expression(s.value, block);
        return;
      }
      case "For":
        this.target(s.target, block);
        this.expression(s.iter, block);
        this.statements(s.body, block);
        return this.statements(s.orelse, block);
      case "Delete":
        for (const t of s.targets) this.target(t, block);
        return;
      case "Import":
        for (const a of s.names) block.add(a.asname ?? a.name.split(".")[0]!, IMPORTED);
        return;
      case "ImportFrom":
        for (const a of s.names) block.add(a.asname ?? a.name, IMPORTED);
        return;
      case "Try":
        // CPython's order: the else block comes before the handlers.
        this.statements(s.body, block);
        this.statements(s.orelse, block);
        for (const h of s.handlers) {
          if (h.type) this.expression(h.type, block);
          if (h.name) block.add(h.name, LOCAL);
          this.statements(h.body, block);
        }
        return this.statements(s.finalbody, block);
      case "If":
      case "While":
        this.expression(s.test, block);
        this.statements(s.body, block);
        return this.statements(s.orelse, block);
      default:
        forEachChild(s, (child) => this.expression(child, block));
    }
  }

  private declaration(s: A.Global | A.Nonlocal, block: Block): void {
    const what = s.kind === "Global" ? "global" : "nonlocal";
    for (const name of s.names) {
      const flags = block.flags.get(name) ?? 0;
      if (flags & (PARAM | LOCAL | USE | ANNOTATED)) {
        if (flags & PARAM) throw new ParseFailure(`name '${name}' is parameter and ${what}`, s);
        if (flags & USE) throw new ParseFailure(`name '${name}' is used prior to ${what} declaration`, s);
        if (flags & ANNOTATED) throw new ParseFailure(`annotated name '${name}' can't be ${what}`, s);
        throw new ParseFailure(`name '${name}' is assigned to before ${what} declaration`, s);
      }
      block.add(name, s.kind === "Global" ? GLOBAL : NONLOCAL);
      if (!block.directives.has(name)) block.directives.set(name, s);
    }
  }

  private defaults(args: A.Arguments, block: Block): void {
    for (const d of args.defaults) this.expression(d, block);
    for (const d of args.kwDefaults) if (d) this.expression(d, block);
  }

  private annotations(args: A.Arguments, block: Block): void {
    for (const a of [...args.posonlyargs, ...args.args, args.vararg, ...args.kwonlyargs, args.kwarg]) {
      if (a?.annotation) this.expression(a.annotation, block);
    }
  }

  private parameters(args: A.Arguments, inner: Block): void {
    for (const a of [...args.posonlyargs, ...args.args, ...args.kwonlyargs, args.vararg, args.kwarg]) {
      if (a) inner.add(a.arg, PARAM);
    }
  }

  /** A name stored or deleted binds it; an attribute or subscript target only reads names. */
  private target(node: A.Expr, block: Block): void {
    switch (node.kind) {
      case "Name":
        return block.add(node.id, LOCAL);
      case "Tuple":
      case "List":
        for (const e of node.elts) this.target(e, block);
        return;
      case "Starred":
        return this.target(node.value, block);
      default:
        return this.expression(node, block);
    }
  }

  private expression(node: A.Node, block: Block): void {
    switch (node.kind) {
      case "Name":
        return block.add(node.id, USE);
      case "NamedExpr":
        this.expression(node.value, block);
        return block.binding.add(node.target.id, LOCAL);
      case "Lambda": {
        this.defaults(node.args, block);
        const inner = new Block("function", block);
        this.parameters(node.args, inner);
        return this.expression(node.body, inner);
      }
      case "ListComp":
      case "SetComp":
      case "DictComp":
      case "GeneratorExp": {
        const [first, ...rest] = node.generators;
        this.expression(first!.iter, block);
        const inner = new Block("comprehension", block);
        this.target(first!.target, inner);
        for (const c of first!.ifs) this.expression(c, inner);
        for (const g of rest) {
          this.target(g.target, inner);
          this.expression(g.iter, inner);
          for (const c of g.ifs) this.expression(c, inner);
        }
        if (node.kind === "DictComp") {
          this.expression(node.value, inner);
          this.expression(node.key, inner);
        } else {
          this.expression(node.elt, inner);
        }
        return;
      }
    }
    forEachChild(node, (child) => this.expression(child, block));
  }
}
