// A snapshot of what the caller may see: visible code-mode servers and their visible tools, each
// tool with its Python name. The meta-tools are pure functions over a Catalog.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { UpstreamConnection } from "../upstream/connection.js";
import { toolNamesOf, toolsKey } from "./names.js";
import type { Shape } from "./shape.js";

export interface CatalogTool {
  server: string;
  /** The upstream tool name. */
  name: string;
  /** Its canonical Python name (SPEC §3). */
  python: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** The shape its results had so far, for a tool without outputSchema (shape.ts); shown as observed. */
  observed?: Shape;
}

export interface CatalogServer {
  name: string;
  instructions: string | null;
  tools: CatalogTool[];
}

export interface Catalog {
  servers: CatalogServer[];
  /**
   * The same for two catalogs of the same upstream tool objects, visible alike (buildCatalog):
   * what a search index is cached by, since each caller's request builds a catalog of its own.
   */
  key?: string;
}

/** The shape learned for a tool, if any (the gateway's book of shapes). */
export type ObservedShapes = (server: string, tool: string) => Shape | undefined;

/**
 * Builds a catalog from raw MCP tool objects, filtered by `visible`; servers sorted by name. A
 * tool without an outputSchema gets `observed` from `observed` (a declared schema always wins).
 */
export function buildCatalog(
  servers: readonly { name: string; instructions: string | null; tools: readonly Tool[] }[],
  visible: (server: string, tool: string) => boolean = () => true,
  observed?: ObservedShapes,
): Catalog {
  const key: string[] = [];
  const catalog: Catalog = {
    servers: [...servers]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((s) => {
        const tools = s.tools.filter((t) => visible(s.name, t.name));
        const ids = toolsKey(tools);
        key.push(`${JSON.stringify(s.name)}:${ids}`);
        const names = toolNamesOf(tools, ids);
        return {
          name: s.name,
          instructions: s.instructions,
          tools: tools.map((t) => {
            const tool: CatalogTool = {
              server: s.name,
              name: t.name,
              python: names.canonical(t.name)!,
              title: t.title,
              description: t.description,
              inputSchema: t.inputSchema as Record<string, unknown>,
              outputSchema: t.outputSchema as Record<string, unknown> | undefined,
              annotations: t.annotations as Record<string, unknown> | undefined,
            };
            const shape = t.outputSchema || !observed ? undefined : observed(s.name, t.name);
            if (shape) tool.observed = shape;
            return tool;
          }),
        };
      }),
  };
  catalog.key = key.join(";");
  return catalog;
}

/** The catalog of live connections (only connected servers have tools). */
export function catalogOf(connections: readonly UpstreamConnection[], visible?: (server: string, tool: string) => boolean, observed?: ObservedShapes): Catalog {
  return buildCatalog(
    connections.map((c) => ({ name: c.name, instructions: c.instructions, tools: c.tools })),
    visible,
    observed,
  );
}
