// executeToolScript(path, args?): the optional meta-tool that runs a `.py` file from the
// workspace folder, like the reference gateway's execute_mcp_script. It is offered only when a
// workspace is configured; the file is found under the workspace module's path rules, `args`
// become `sys.argv[1:]`, and the answer is executeToolCode's.
import { PyException, readWorkspaceScript, ResourceLimitError, type SandboxResult, type WorkspaceOptions } from "../interpreter/index.js";
import { type ExecuteToolCodeContext, executeToolCode } from "./meta-tools.js";

export interface ScriptOutcome {
  text: string;
  /** Null when the script could not be read (nothing ran). */
  result: SandboxResult | null;
  /** The script's source, when it was read. */
  code: string | null;
}

function refused(text: string): ScriptOutcome {
  return { text: `Cannot run the script: ${text}`, result: null, code: null };
}

export async function executeToolScript(
  args: { path?: unknown; args?: unknown },
  context: ExecuteToolCodeContext & { workspace: WorkspaceOptions },
): Promise<ScriptOutcome> {
  const path = args.path;
  if (typeof path !== "string" || path.trim() === "") return refused("'path' must be the script's path in the workspace, e.g. jobs/report.py");
  if (!path.endsWith(".py")) return refused(`${JSON.stringify(path)} is not a .py file`);
  const extra = args.args ?? [];
  if (!Array.isArray(extra) || extra.some((a) => typeof a !== "string")) return refused("'args' must be a list of strings");
  let code: string;
  try {
    code = readWorkspaceScript(context.workspace, path, context.limits.max_source_bytes);
  } catch (e) {
    if (e instanceof PyException) return refused(`${e.type.name}: ${String(e.args[0] ?? "")}`);
    if (e instanceof ResourceLimitError) return refused(e.message);
    throw e;
  }
  const { text, result } = await executeToolCode(code, { ...context, argv: [path, ...(extra as string[])], filename: path });
  return { text, result, code };
}
