// Scope analysis: which names are locals (frame slots), cells (captured by an inner function),
// free variables (captured from an enclosing function) or globals, following Python's rules.
//
// Comprehensions get their own scope, as in Python 3, but run inline in the enclosing frame: their
// variables are extra hidden slots there, so a comprehension costs no frame and no call. A
// generator expression runs later, item by item, while its creator goes on (or has returned): it
// has a frame of its own, as a function has, and reaches the enclosing variables through cells.
import type * as A from "../../grammar/ast.js";
import { forEachChild } from "../../grammar/walk.js";

export class Variable {
  isCell = false;
  constructor(
    readonly name: string,
    readonly scope: Scope,
    /** Slot in the frame of scope.owner. */
    readonly slot: number,
  ) {}
}

export type Access =
  | { kind: "local"; variable: Variable }
  | { kind: "free"; index: number; variable: Variable }
  | { kind: "global"; name: string };

const NO_NAMES: ReadonlySet<string> = new Set();

/** `names` added to a scope's declared names, in place once it has its own set (6000 `global` lines stay linear). */
function withNames(set: ReadonlySet<string>, names: readonly string[]): ReadonlySet<string> {
  const out = set === NO_NAMES ? new Set<string>() : (set as Set<string>);
  for (const name of names) out.add(name);
  return out;
}

export class Scope {
  readonly assigned = new Set<string>();
  /** Names declared `global` or `nonlocal` here: rare, so one empty set is shared until then. */
  globals: ReadonlySet<string> = NO_NAMES;
  nonlocals: ReadonlySet<string> = NO_NAMES;
  readonly variables = new Map<string, Variable>();
  /** For a function: the variables it captures from enclosing functions, in closure order. */
  readonly frees: Variable[] = [];
  /** For a function or the module: how many slots its frame needs (comprehensions included). */
  slotCount = 0;
  /** Set once the analysis is closed: every variable has its slot, and no other may be added. */
  frozen = false;

  constructor(
    readonly kind: "module" | "function" | "comprehension" | "generator",
    readonly parent: Scope | null,
    readonly node: A.Node,
  ) {}

  /** The function or module whose frame holds this scope's variables. */
  get owner(): Scope {
    let s: Scope = this;
    while (s.kind === "comprehension") s = s.parent!;
    return s;
  }

  declare(name: string): Variable {
    let v = this.variables.get(name);
    if (!v) {
      // Frames are sized from slotCount, and compiled code is shared by every run of the script.
      if (this.frozen) throw new Error(`internal: variable '${name}' was added after the scope analysis was closed`);
      v = new Variable(name, this, this.owner.slotCount++);
      this.variables.set(name, v);
    }
    return v;
  }
}

export interface ScopeInfo {
  /** The scope of each function, lambda, comprehension and the module. */
  scopes: Map<A.Node, Scope>;
  /** How each Name node (and each name a statement binds) is reached. */
  access: Map<A.Node | string, Access>;
  resolve(scope: Scope, name: string): Access;
}

let analyses = 0;

/** How many modules this process has analysed (for tests: a kept script is analysed once). */
export function analysisCount(): number {
  return analyses;
}

/**
 * Analyses a module: declarations first, then every reference, marking captured variables, then
 * every other name a statement binds (a def's, an import's, an except handler's) and every
 * capture, so that each scope has all its slots before anything is compiled. The scopes are then
 * frozen: compiled code and the frames made from slotCount serve every run of the script, and a
 * unit compiled to JavaScript in the middle of a run must not add a slot to frames already made.
 */
export function analyse(module: A.Module): ScopeInfo {
  analyses++;
  const scopes = new Map<A.Node, Scope>();
  const root = new Scope("module", null, module);
  scopes.set(module, root);
  const references: [Scope, A.Name][] = [];
  new Declarations(scopes, references).block(module.body, root);

  // Locals are known everywhere now; resolve each reference.
  const access = new Map<A.Node | string, Access>();
  const resolve = (scope: Scope, name: string): Access => resolveName(scope, name);
  for (const [scope, name] of references) access.set(name, resolve(scope, name.id));
  for (const scope of scopes.values()) for (const name of scope.assigned) resolve(scope, name);
  // A function or generator takes its cells from the scope it is defined in (compile.ts captures).
  for (const scope of scopes.values()) {
    if (scope.parent !== null && (scope.kind === "function" || scope.kind === "generator")) {
      for (const variable of [...scope.frees]) resolve(scope.parent, variable.name);
    }
  }
  for (const scope of scopes.values()) scope.frozen = true;
  return { scopes, access, resolve };
}

function isLocalTo(scope: Scope, name: string): boolean {
  if (scope.kind === "module") return false;
  if (scope.globals.has(name) || scope.nonlocals.has(name)) return false;
  return scope.assigned.has(name);
}

function resolveName(scope: Scope, name: string): Access {
  if (scope.kind === "module" || scope.globals.has(name)) {
    if (scope.kind !== "module" || !scope.assigned.has(name)) return { kind: "global", name };
    return { kind: "global", name };
  }
  if (isLocalTo(scope, name)) return { kind: "local", variable: scope.declare(name) };
  // Find the nearest enclosing function or comprehension scope that binds it.
  let declaring: Scope | null = scope.parent;
  while (declaring && !isLocalTo(declaring, name)) {
    if (declaring.kind === "module") {
      declaring = null;
      break;
    }
    if (declaring.globals.has(name)) {
      declaring = null;
      break;
    }
    declaring = declaring.parent;
  }
  if (!declaring) return { kind: "global", name };
  const variable = declaring.declare(name);
  if (declaring.owner === scope.owner) return { kind: "local", variable };
  // Captured across a function boundary: a cell, threaded through every function in between.
  variable.isCell = true;
  let index = -1;
  for (let s: Scope | null = scope; s && s.owner !== declaring.owner; s = s.parent) {
    if (s.kind !== "function" && s.kind !== "generator") continue;
    let i = s.frees.indexOf(variable);
    if (i < 0) {
      s.frees.push(variable);
      i = s.frees.length - 1;
    }
    if (index < 0 && s === scope.owner) index = i;
  }
  return { kind: "free", index, variable };
}

/** Pass 1: builds the scope tree and records what each scope binds and declares. */
class Declarations {
  constructor(
    private readonly scopes: Map<A.Node, Scope>,
    private readonly references: [Scope, A.Name][],
  ) {}

  block(body: A.Stmt[], scope: Scope): void {
    for (const stmt of body) this.statement(stmt, scope);
  }

  private bind(scope: Scope, name: string): void {
    scope.assigned.add(name);
  }

  private target(node: A.Expr, scope: Scope): void {
    switch (node.kind) {
      case "Name":
        this.bind(scope, node.id);
        this.references.push([scope, node]);
        return;
      case "Tuple":
      case "List":
        for (const e of node.elts) this.target(e, scope);
        return;
      case "Starred":
        return this.target(node.value, scope);
      default:
        return this.expression(node, scope);
    }
  }

  private statement(stmt: A.Stmt, scope: Scope): void {
    switch (stmt.kind) {
      case "FunctionDef": {
        this.bind(scope, stmt.name);
        for (const d of stmt.decoratorList) this.expression(d, scope);
        this.arguments(stmt.args, scope);
        if (stmt.returns) this.expression(stmt.returns, scope);
        const inner = new Scope("function", scope, stmt);
        this.scopes.set(stmt, inner);
        this.parameters(stmt.args, inner);
        this.block(stmt.body, inner);
        return;
      }
      case "Global":
        scope.globals = withNames(scope.globals, stmt.names);
        return;
      case "Nonlocal":
        scope.nonlocals = withNames(scope.nonlocals, stmt.names);
        return;
      case "Assign":
        for (const t of stmt.targets) this.target(t, scope);
        return this.expression(stmt.value, scope);
      case "AugAssign":
        this.target(stmt.target, scope);
        return this.expression(stmt.value, scope);
      case "AnnAssign":
        if (stmt.target.kind === "Name" && stmt.value === null) this.bind(scope, stmt.target.id);
        else this.target(stmt.target, scope);
        if (stmt.value) this.expression(stmt.value, scope);
        return;
      case "For":
        this.target(stmt.target, scope);
        this.expression(stmt.iter, scope);
        this.block(stmt.body, scope);
        return this.block(stmt.orelse, scope);
      case "Delete":
        for (const t of stmt.targets) this.target(t, scope);
        return;
      case "Import":
        for (const a of stmt.names) this.bind(scope, a.asname ?? a.name.split(".")[0]!);
        return;
      case "ImportFrom":
        for (const a of stmt.names) this.bind(scope, a.asname ?? a.name);
        return;
      case "Try":
        this.block(stmt.body, scope);
        for (const h of stmt.handlers) {
          if (h.type) this.expression(h.type, scope);
          if (h.name) this.bind(scope, h.name);
          this.block(h.body, scope);
        }
        this.block(stmt.orelse, scope);
        return this.block(stmt.finalbody, scope);
      default:
        forEachChild(stmt, (child) => {
          if ("kind" in child && isStatement(child)) this.statement(child as A.Stmt, scope);
          else this.expression(child as A.Expr, scope);
        });
    }
  }

  private arguments(args: A.Arguments, scope: Scope): void {
    for (const d of args.defaults) this.expression(d, scope);
    for (const d of args.kwDefaults) if (d) this.expression(d, scope);
    for (const a of [...args.posonlyargs, ...args.args, ...args.kwonlyargs, args.vararg, args.kwarg]) {
      if (a?.annotation) this.expression(a.annotation, scope);
    }
  }

  private parameters(args: A.Arguments, inner: Scope): void {
    for (const a of [...args.posonlyargs, ...args.args, args.vararg, ...args.kwonlyargs, args.kwarg]) {
      if (a) {
        this.bind(inner, a.arg);
        inner.declare(a.arg);
      }
    }
  }

  private expression(node: A.Node, scope: Scope): void {
    switch (node.kind) {
      case "Name":
        this.references.push([scope, node]);
        return;
      case "Lambda": {
        this.arguments(node.args, scope);
        const inner = new Scope("function", scope, node);
        this.scopes.set(node, inner);
        this.parameters(node.args, inner);
        return this.expression(node.body, inner);
      }
      case "NamedExpr": {
        // The walrus binds in the nearest enclosing function (or module), even from a comprehension
        // or a generator expression.
        let target = scope;
        while (target.kind === "comprehension" || target.kind === "generator") target = target.parent!;
        this.bind(target, node.target.id);
        this.references.push([scope, node.target]);
        return this.expression(node.value, scope);
      }
      case "ListComp":
      case "SetComp":
      case "DictComp":
      case "GeneratorExp": {
        // The first iterable is evaluated in the enclosing scope; the rest inside.
        const inner = new Scope(node.kind === "GeneratorExp" ? "generator" : "comprehension", scope, node);
        this.scopes.set(node, inner);
        node.generators.forEach((g, i) => {
          this.expression(g.iter, i === 0 ? scope : inner);
          this.target(g.target, inner);
          for (const cond of g.ifs) this.expression(cond, inner);
        });
        if (node.kind === "DictComp") {
          this.expression(node.key, inner);
          this.expression(node.value, inner);
        } else {
          this.expression(node.elt, inner);
        }
        return;
      }
    }
    forEachChild(node, (child) => this.expression(child, scope));
  }
}

const STATEMENTS = new Set([
  "Expr", "Assign", "AugAssign", "AnnAssign", "If", "For", "While", "Break", "Continue", "Pass", "FunctionDef",
  "Return", "Global", "Nonlocal", "Delete", "Assert", "Try", "Raise", "Import", "ImportFrom",
]);

function isStatement(node: A.Node): boolean {
  return STATEMENTS.has(node.kind);
}
