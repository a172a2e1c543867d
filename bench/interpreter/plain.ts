// A script's RESULT as JSON carries it, from what Monty and Pyodide hand back (kept apart from
// engines.ts so that the Monty and Pyodide processes load nothing else).

/** Monty gives dicts as Maps (which JSON.stringify writes as {}) and big ints as BigInts. */
export function plain(value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "bigint") return Number(value);
  return value;
}
