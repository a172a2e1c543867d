// Canonical Python names of upstream tools (SPEC §3): lowercase; '-' and spaces become '_';
// other characters are dropped; a leading digit gets '_'; a Python keyword gets a trailing '_'.
// Each server's names are unique and map back to the upstream name; where a tool's own spelling
// (with '-' as '_') is a valid identifier too, it is bound as an alias.
import { isKeyword } from "../../grammar/tokens.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !isKeyword(name);
}

export function canonicalName(tool: string): string {
  let name = tool.toLowerCase().replace(/[-\s]/g, "_").replace(/[^a-z0-9_]/g, "");
  if (name === "") name = "_";
  if (/^[0-9]/.test(name)) name = "_" + name;
  if (isKeyword(name)) name += "_";
  return name;
}

/** The Python names of one server's tools, both ways. */
export class ToolNames {
  private readonly toUpstream = new Map<string, string>();
  private readonly toCanonical = new Map<string, string>();

  constructor(upstreamNames: readonly string[]) {
    // Canonical names first, in catalog order; a clash gets _2, _3...
    for (const upstream of upstreamNames) {
      const base = canonicalName(upstream);
      let name = base;
      for (let n = 2; this.toUpstream.has(name); n++) name = `${base}_${n}`;
      this.toUpstream.set(name, upstream);
      this.toCanonical.set(upstream, name);
    }
    // Then the original spellings, where they are identifiers and free.
    for (const upstream of upstreamNames) {
      const alias = upstream.replace(/-/g, "_");
      if (isIdentifier(alias) && !this.toUpstream.has(alias)) this.toUpstream.set(alias, upstream);
    }
  }

  /** The upstream tool a Python name (canonical or alias) stands for. */
  upstream(pythonName: string): string | undefined {
    return this.toUpstream.get(pythonName);
  }

  canonical(upstream: string): string | undefined {
    return this.toCanonical.get(upstream);
  }

  /** Every bound Python name and the tool it calls. */
  entries(): [python: string, upstream: string][] {
    return [...this.toUpstream.entries()];
  }
}

/** A number per upstream tool object: a tools/list_changed brings new objects, so new numbers. */
const toolIds = new WeakMap<object, number>();
let nextToolId = 0;

function toolId(tool: { name: string }): number {
  let id = toolIds.get(tool);
  if (id === undefined) toolIds.set(tool, (id = nextToolId++));
  return id;
}

/** The same for two lists of the same upstream tool objects, in the same order. */
export function toolsKey(tools: readonly { name: string }[]): string {
  return tools.map(toolId).join(",");
}

/** What was made for a list of tool objects: its ToolNames, and the tools bound by name (boundTools). */
interface Made {
  names: ToolNames;
  bound?: ReadonlyMap<string, { name: string }>;
}

/** Lists of tools lately named, by toolsKey (their bound tools held with them: at most MADE_KEPT lists). */
const MADE = new Map<string, Made>();
/** As many tool lists as a gateway's servers, visible in a few ways, are likely to make. */
const MADE_KEPT = 64;

function madeFor(tools: readonly { name: string }[], key: string): Made {
  let made = MADE.get(key);
  if (made === undefined) {
    made = { names: new ToolNames(tools.map((t) => t.name)) };
    if (MADE.size >= MADE_KEPT) MADE.delete(MADE.keys().next().value!);
    MADE.set(key, made);
  }
  return made;
}

/**
 * The ToolNames of `tools`, as `new ToolNames` makes them, made once for a list seen lately (an
 * upstream tool object's name does not change): every execution names its servers' tools twice
 * (its catalog, its host objects), and naming takes about 1 µs a tool, 0.46 ms for a server of
 * 500. `key` is toolsKey(tools), when the caller has it already.
 */
export function toolNamesOf(tools: readonly { name: string }[], key = toolsKey(tools)): ToolNames {
  return madeFor(tools, key).names;
}

/** Each Python name of `tools` (canonical or alias) to the tool it calls; made once per list, as toolNamesOf. */
export function boundTools<T extends { name: string }>(tools: readonly T[]): ReadonlyMap<string, T> {
  const made = madeFor(tools, toolsKey(tools));
  if (made.bound === undefined) {
    const byName = new Map(tools.map((t) => [t.name, t]));
    made.bound = new Map(made.names.entries().map(([python, upstream]) => [python, byName.get(upstream)!]));
  }
  // The key names these very objects, so the tools bound are of this list's type.
  return made.bound as ReadonlyMap<string, T>;
}
