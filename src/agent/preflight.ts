// The pre-flight analysis of an executeToolCode script in agent mode (SPEC §7): may the script
// run with nobody watching? It reads the script's AST and collects every tool call it makes
// (`srv.tool(...)`, `srv.tool_async(...)`, `getattr(srv, "tool")(...)`). A server reached any
// other way (aliased, rebound, passed to a function, stored in a container, a tool taken without
// being called, `getattr` with a computed name) makes the calls unknowable, so the script is not
// auto-executable. This only decides whether to ask first: the authoritative check is made at
// every call while the script runs (the gateway's `authorize` with `unattended`).
import type * as A from "../../grammar/ast.js";
import { tryParse } from "../../grammar/parse.js";
import { forEachChild } from "../../grammar/walk.js";

export interface PreflightInput {
  /** The code-mode servers bound in the sandbox: server global -> its Python names' upstream tools. */
  servers: ReadonlyMap<string, (python: string) => string | undefined>;
  /** May the agent loop run this upstream tool unattended (granted and in tools_to_auto_execute)? */
  autoExecutable(server: string, tool: string): boolean;
}

/** One tool call the script makes, as written. */
export interface PreflightCall {
  server: string;
  /** The upstream tool name, or null when the attribute names no tool of the server. */
  tool: string | null;
  /** How the script spells it (`search_async`, `getattr(..., "search")`). */
  attribute: string;
  line: number;
  auto: boolean;
}

export interface Preflight {
  autoExecutable: boolean;
  calls: PreflightCall[];
  /** Why the script needs approval, one sentence each; empty when it does not. */
  reasons: string[];
}

/** Builtins whose meaning the analysis relies on; a script that rebinds one is read conservatively. */
const RELIED_ON = "getattr";

export function preflight(code: string, input: PreflightInput): Preflight {
  const parsed = tryParse(code);
  // A script that does not parse runs nothing: the model may as well read the syntax error.
  if (!parsed.ok) return { autoExecutable: true, calls: [], reasons: [] };
  const module = parsed.module;
  const bound = boundNames(module);
  const getattrIsBuiltin = !bound.has(RELIED_ON) && !assignedNames(module).has(RELIED_ON);
  const calls: PreflightCall[] = [];
  const reasons: string[] = [];
  const refuse = (line: number, why: string) => reasons.push(`line ${line}: ${why}`);

  for (const name of bound) {
    if (input.servers.has(name)) refuse(firstBinding(module, name), `the script binds the name '${name}', which is a server`);
  }

  const record = (server: string, attribute: string, line: number) => {
    const tool = resolveTool(input.servers.get(server)!, attribute);
    const auto = tool !== null && input.autoExecutable(server, tool);
    calls.push({ server, tool, attribute, line, auto });
    if (tool === null) refuse(line, `'${server}.${attribute}' is not a tool of '${server}'`);
    else if (!auto) refuse(line, `${server}.${attribute}() calls '${tool}', which is not in tools_to_auto_execute`);
  };

  // Every mention of a server must be one of the shapes whose tool is known.
  visit(module, [], (node, ancestors) => {
    if (node.kind !== "Name" || !input.servers.has(node.id)) return;
    const server = node.id;
    const [parent, grandparent] = [ancestors[ancestors.length - 1], ancestors[ancestors.length - 2]];
    if (parent?.kind === "Attribute" && parent.value === node) {
      if (grandparent?.kind === "Call" && grandparent.func === parent) return record(server, parent.attr, node.line);
      return refuse(node.line, `'${server}.${parent.attr}' is used without being called (a tool kept in a variable or container cannot be followed)`);
    }
    if (parent?.kind === "Call" && parent.args[0] === node && isGetattr(parent, getattrIsBuiltin)) {
      const literal = parent.args[1]?.kind === "Constant" && typeof parent.args[1].value === "string" ? parent.args[1].value : null;
      if (literal === null) return refuse(node.line, `getattr(${server}, ...) with a name that is not a string literal`);
      if (grandparent?.kind === "Call" && grandparent.func === parent) return record(server, literal, node.line);
      return refuse(node.line, `getattr(${server}, "${literal}") is used without being called`);
    }
    refuse(node.line, describeUse(server, parent));
  });
  return { autoExecutable: reasons.length === 0, calls, reasons: [...new Set(reasons)] };
}

/** The upstream tool `srv.<attribute>` calls, as the sandbox resolves it (`x_async` is `x`'s awaitable form). */
function resolveTool(resolve: (python: string) => string | undefined, attribute: string): string | null {
  const direct = resolve(attribute);
  if (direct !== undefined) return direct;
  if (attribute.endsWith("_async")) return resolve(attribute.slice(0, -"_async".length)) ?? null;
  return null;
}

function isGetattr(call: A.Call, builtin: boolean): boolean {
  return (
    builtin &&
    call.func.kind === "Name" &&
    call.func.id === RELIED_ON &&
    call.keywords.length === 0 &&
    (call.args.length === 2 || call.args.length === 3) &&
    call.args.every((a) => a.kind !== "Starred")
  );
}

function describeUse(server: string, parent: A.Node | undefined): string {
  switch (parent?.kind) {
    case "Call":
      return `the server '${server}' is passed to a function`;
    case "Assign":
    case "AnnAssign":
    case "AugAssign":
    case "NamedExpr":
    case "For":
    case "comprehension":
      return `the server '${server}' is assigned or rebound (an alias cannot be followed)`;
    case "List":
    case "Tuple":
    case "Set":
    case "Dict":
      return `the server '${server}' is stored in a container`;
    case "keyword":
      return `the server '${server}' is passed to a function`;
    default:
      return `the server '${server}' is used in a way whose tool calls cannot be resolved statically`;
  }
}

/** Depth-first over the tree, with each node's ancestors (nearest last). */
function visit(node: A.Node, ancestors: A.Node[], fn: (node: A.Node, ancestors: readonly A.Node[]) => void): void {
  fn(node, ancestors);
  ancestors.push(node);
  forEachChild(node, (child) => visit(child, ancestors, fn));
  ancestors.pop();
}

/** Names the script binds other than by assignment: parameters, defs, imports, except-as, global/nonlocal. */
function boundNames(module: A.Module): Set<string> {
  const names = new Set<string>();
  visit(module, [], (node) => {
    for (const name of bindingsOf(node)) names.add(name);
  });
  return names;
}

function assignedNames(module: A.Module): Set<string> {
  const names = new Set<string>();
  visit(module, [], (node) => {
    for (const name of targetsOf(node)) names.add(name);
  });
  return names;
}

function bindingsOf(node: A.Node): string[] {
  switch (node.kind) {
    case "arg":
      return [node.arg];
    case "FunctionDef":
      return [node.name];
    case "ExceptHandler":
      return node.name ? [node.name] : [];
    case "alias":
      return [node.asname ?? node.name.split(".")[0]!];
    case "Global":
    case "Nonlocal":
      return node.names;
    default:
      return [];
  }
}

/** Names a statement or expression assigns to (`x = ...`, `for x in`, `x := ...`, `del x`). */
function targetsOf(node: A.Node): string[] {
  const names: string[] = [];
  const add = (t: A.Node) => {
    if (t.kind === "Name") names.push(t.id);
    else if (t.kind === "Tuple" || t.kind === "List") t.elts.forEach(add);
    else if (t.kind === "Starred") add(t.value);
  };
  switch (node.kind) {
    case "Assign":
    case "Delete":
      node.targets.forEach(add);
      break;
    case "AugAssign":
    case "AnnAssign":
    case "For":
    case "comprehension":
    case "NamedExpr":
      add(node.target);
      break;
  }
  return names;
}

function firstBinding(module: A.Module, name: string): number {
  let line = module.line;
  let found = false;
  visit(module, [], (node) => {
    if (!found && bindingsOf(node).includes(name)) {
      line = node.line;
      found = true;
    }
  });
  return line;
}
