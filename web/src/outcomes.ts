// One colour and one label per outcome, used by every chart and list of the page: ok is green,
// a raised error red, a timeout amber, a cancellation grey, and each other limit a colour of its
// own from a set (chosen by its name, so that a limit keeps its colour from poll to poll).

const FIXED: Record<string, string> = {
  ok: "#1a7f4b",
  error: "#c4321f",
  timeout: "#d98a00",
  cancelled: "#8a94a3",
};

const LIMIT_COLOURS = ["#6f42c1", "#1f6fb8", "#b5348f", "#0f8a8a", "#7a5c1e", "#4a55a2"];

/** The well-known limits get fixed places in the set, so the usual ones never share a colour. */
const KNOWN_LIMITS = ["max_steps_limit", "max_memory_bytes_limit", "max_tool_calls_limit", "max_log_bytes_limit", "max_value_bytes_limit", "max_nesting_depth_limit"];

export function outcomeColour(outcome: string): string {
  const fixed = FIXED[outcome];
  if (fixed) return fixed;
  const known = KNOWN_LIMITS.indexOf(outcome);
  if (known >= 0) return LIMIT_COLOURS[known % LIMIT_COLOURS.length]!;
  let hash = 0;
  for (const ch of outcome) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return LIMIT_COLOURS[hash % LIMIT_COLOURS.length]!;
}

/** "max_steps_limit" -> "max_steps limit"; the others as they are. */
export function outcomeLabel(outcome: string): string {
  return outcome.endsWith("_limit") ? `${outcome.slice(0, -"_limit".length)} limit` : outcome;
}
