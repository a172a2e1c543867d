// How a logged execution ended, as one word the overview counts by: `ok`, `error` (the script
// raised), `cancelled`, `timeout` (the whole execution ran past tool_execution_timeout), or
// `<limit>_limit` for any other limit it ran out of (`max_steps_limit`). These are the label
// values of `codemode_executions_total{outcome}` too, so that a chart and a metric agree.

/** What `endingOf` reads: a log entry's outcome and error. */
export interface Ended {
  outcome: "ok" | "error";
  error: { type: string; message: string } | null;
}

/** ResourceLimitError words its message `<field> exceeded (limit <n>)...` (interpreter/errors.ts). */
const LIMIT_MARK = " exceeded (limit ";

export function endingOf(entry: Ended): string {
  if (entry.outcome === "ok") return "ok";
  const error = entry.error;
  if (error === null) return "error";
  if (error.type === "CancelledError") return "cancelled";
  if (error.type !== "ResourceLimitError") return "error";
  const at = error.message.indexOf(LIMIT_MARK);
  if (at <= 0) return "error";
  const field = error.message.slice(0, at);
  return field === "tool_execution_timeout" ? "timeout" : `${field}_limit`;
}

/**
 * The same rule in SQL over a `logs` row's `outcome` and `entry`, for the migration that fills
 * the column in for rows written before it (store.ts); a test holds the two to the same answers.
 */
export const ENDING_SQL = `CASE
  WHEN outcome = 'ok' THEN 'ok'
  WHEN json_type(entry, '$.error') IS NOT 'object' THEN 'error'
  WHEN json_extract(entry, '$.error.type') = 'CancelledError' THEN 'cancelled'
  WHEN json_extract(entry, '$.error.type') IS NOT 'ResourceLimitError' OR json_type(entry, '$.error.message') IS NOT 'text' THEN 'error'
  WHEN instr(json_extract(entry, '$.error.message'), '${LIMIT_MARK}') <= 1 THEN 'error'
  WHEN substr(json_extract(entry, '$.error.message'), 1, instr(json_extract(entry, '$.error.message'), '${LIMIT_MARK}') - 1) = 'tool_execution_timeout' THEN 'timeout'
  ELSE substr(json_extract(entry, '$.error.message'), 1, instr(json_extract(entry, '$.error.message'), '${LIMIT_MARK}') - 1) || '_limit'
END`;
