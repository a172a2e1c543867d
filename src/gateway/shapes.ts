// The gateway's book of observed shapes (issue 20): for each upstream client and tool without an
// outputSchema, the shape its results had so far (codemode/shape.ts: key names and value types,
// never values). Shapes are per tool, not per caller: whoever may see a tool sees its shape.
// Kept in memory; whoever persists it (the store) loads the book at startup and listens to its
// "change" events, which come only when a result taught something new, so a gateway whose tools
// keep answering alike writes nothing.
import { EventEmitter } from "node:events";
import { mergeShapes, type Shape, sameShape } from "../codemode/shape.js";

/** One tool's shape, as the store keeps it. */
export interface ToolShape {
  /** The client's name. */
  server: string;
  /** The upstream tool name. */
  tool: string;
  shape: Shape;
}

/** What changed: one tool's shape, every shape of a deleted client, or a renamed client's shapes. */
export type ShapeChange =
  | { type: "put"; server: string; tool: string; shape: Shape }
  | { type: "drop"; server: string }
  | { type: "move"; from: string; to: string };

/**
 * A merged shape with more nodes than this stops learning (the merge is not kept): one result's
 * shape is bounded by shapeOf, but results that each bring other keys could grow the merge up to
 * MAX_KEYS ** MAX_DEPTH nodes, and every later merge and store write would pay for them.
 */
export const MAX_SHAPE_NODES = 4_000;

/**
 * Tools whose shapes one client keeps. A tool a tools/list_changed dropped keeps its shape (it
 * may come back, and a shape is only shown for a tool in the catalog); this bounds what a server
 * that keeps inventing tool names can make the book hold.
 */
export const MAX_TOOLS_PER_SERVER = 1_000;

/** How many nodes (dicts, lists, scalars) a shape has; stops counting past `limit`. */
export function shapeNodes(shape: Shape, limit = Infinity): number {
  let count = 0;
  const pending: Shape[] = [shape];
  while (pending.length > 0 && count <= limit) {
    const s = pending.pop()!;
    count++;
    for (const k of s.keys ?? []) pending.push(k.shape);
    if (s.values) pending.push(s.values);
    if (s.items) pending.push(s.items);
  }
  return count;
}

export class ShapeBook extends EventEmitter {
  private readonly byServer = new Map<string, Map<string, Shape>>();

  /** Replaces the book's contents with stored shapes (at startup); announces nothing. */
  load(rows: readonly ToolShape[]): void {
    this.byServer.clear();
    for (const row of rows) this.toolsOf(row.server).set(row.tool, row.shape);
  }

  /** The shape learned for `tool` of `server`, if any. */
  get(server: string, tool: string): Shape | undefined {
    return this.byServer.get(server)?.get(tool);
  }

  /** Every shape, for tests and listings. */
  entries(): ToolShape[] {
    const out: ToolShape[] = [];
    for (const [server, tools] of this.byServer) for (const [tool, shape] of tools) out.push({ server, tool, shape });
    return out;
  }

  /**
   * Merges one result's shape into what `tool` of `server` had. Returns (and announces as a
   * "put" change) whether the shape now says something it did not: a merge that says the same
   * is not kept, so the stored copy and this one stay equal and nothing is written.
   */
  record(server: string, tool: string, observed: Shape): boolean {
    const tools = this.toolsOf(server);
    const known = tools.get(tool);
    if (known === undefined && tools.size >= MAX_TOOLS_PER_SERVER) return false;
    const merged = known === undefined ? observed : mergeShapes(known, observed);
    if (known !== undefined && sameShape(known, merged)) return false;
    if (shapeNodes(merged, MAX_SHAPE_NODES) > MAX_SHAPE_NODES) return false;
    tools.set(tool, merged);
    this.emit("change", { type: "put", server, tool, shape: merged } satisfies ShapeChange);
    return true;
  }

  /** Forgets every shape of a client (it was deleted). */
  dropServer(server: string): void {
    if (!this.byServer.delete(server)) return;
    this.emit("change", { type: "drop", server } satisfies ShapeChange);
  }

  /** A renamed client keeps its shapes under its new name (replacing any the name had). */
  moveServer(from: string, to: string): void {
    if (from === to) return;
    const tools = this.byServer.get(from);
    this.byServer.delete(from);
    this.byServer.delete(to);
    if (tools) this.byServer.set(to, tools);
    this.emit("change", { type: "move", from, to } satisfies ShapeChange);
  }

  private toolsOf(server: string): Map<string, Shape> {
    let tools = this.byServer.get(server);
    if (!tools) {
      tools = new Map();
      this.byServer.set(server, tools);
    }
    return tools;
  }
}
