// Which tools of a client may run unattended in agent mode (SPEC §7): its tools_to_auto_execute,
// whose entries are tool names, "*", or "@read_only": every tool whose annotations say it only
// reads (readOnlyHint true, destructiveHint not true). Annotations come from the upstream server
// and are trusted as it states them: listing "@read_only" is trusting that server's hints.
import { listAllows } from "./config.js";

/** The tools_to_auto_execute entry that stands for the client's read-only tools. */
export const READ_ONLY_ENTRY = "@read_only";

/** Does a tools_to_auto_execute list let `tool` (with the upstream's annotations) run unattended? */
export function autoExecuteAllows(list: readonly string[], tool: string, annotations: Record<string, unknown> | undefined): boolean {
  if (listAllows(list, tool)) return true;
  return list.includes(READ_ONLY_ENTRY) && annotations?.readOnlyHint === true && annotations.destructiveHint !== true;
}
