// How an execution and a nested tool call ended, as one short label: the `outcome` of metrics
// and spans. Few values, so that a dashboard can group by them: a limit is named by its field.
import type { SandboxResult } from "../interpreter/index.js";

type ToolCallRecord = SandboxResult["tool_calls"][number];

/**
 * "ok"; "timeout" (the execution ran out of tool_execution_timeout); "cancelled" (the caller went
 * away or the gateway stopped); "<field>_limit" for any other limit (`max_steps_limit`,
 * `max_memory_bytes_limit`…); "error" for everything else the script raised.
 */
export function executionOutcome(result: SandboxResult): string {
  const error = result.error;
  if (error === null) return "ok";
  if (error.type === "CancelledError") return "cancelled";
  if (error.type === "ResourceLimitError") {
    // ResourceLimitError's message begins with the field: "max_steps exceeded (limit 500)…".
    const field = /^([a-z_]+) exceeded/.exec(error.message)?.[1];
    if (field === "tool_execution_timeout") return "timeout";
    if (field !== undefined) return `${field}_limit`;
  }
  return "error";
}

/** "ok", "timeout" (the call outlived tool_execution_timeout) or "error". */
export function toolCallOutcome(call: ToolCallRecord): string {
  if (call.ok) return "ok";
  return call.error?.startsWith("TimeoutError:") ? "timeout" : "error";
}

/** The Python type a failed call raised in the script, as `error.type` (ToolError when the upstream failed). */
export function toolCallErrorType(call: ToolCallRecord): string | undefined {
  if (call.ok) return undefined;
  return /^([A-Z][A-Za-z]*Error): /.exec(call.error ?? "")?.[1] ?? "ToolError";
}
