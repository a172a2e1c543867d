// How an execution and a nested tool call ended, as one short label: the `outcome` of metrics
// and spans. Few values, so that a dashboard can group by them: a limit is named by its field.
import { endingOf } from "../gateway/ending.js";
import type { SandboxResult } from "../interpreter/index.js";

type ToolCallRecord = SandboxResult["tool_calls"][number];

/**
 * "ok"; "timeout" (the execution ran out of tool_execution_timeout); "cancelled" (the caller went
 * away or the gateway stopped); "<field>_limit" for any other limit (`max_steps_limit`,
 * `max_memory_bytes_limit`…); "error" for everything else the script raised. The rule is the
 * execution log's (gateway/ending.ts), so the overview page and the metrics count alike.
 */
export function executionOutcome(result: SandboxResult): string {
  return endingOf({ outcome: result.error === null ? "ok" : "error", error: result.error });
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
