// A tool's behaviour hints (MCP ToolAnnotations) as the few words a stub shows: whether a call
// changes anything, and how (issue 20). Only what the server declared is shown, read as MCP
// defines it: `readOnlyHint: true` says the call changes nothing, and then destructiveHint and
// idempotentHint mean nothing; for a tool that is not read-only, `destructiveHint: true` says it
// may delete or overwrite, `false` that it only adds ("additive"), `idempotentHint: true` that
// repeating a call with the same arguments changes nothing more. A tool that only declares
// `readOnlyHint: false` "writes". openWorldHint and titles are not shown.
import type { CatalogTool } from "./catalog.js";

/** The words for a tool's declared hints, in a fixed order: [] when it declared none that count. */
export function hintWords(tool: Pick<CatalogTool, "annotations">): string[] {
  const a = tool.annotations;
  if (typeof a !== "object" || a === null) return [];
  if (a.readOnlyHint === true) return ["read-only"];
  const words: string[] = [];
  if (a.destructiveHint === true) words.push("destructive");
  else if (a.destructiveHint === false) words.push("additive");
  if (a.idempotentHint === true) words.push("idempotent");
  if (words.length === 0 && a.readOnlyHint === false) words.push("writes");
  return words;
}
