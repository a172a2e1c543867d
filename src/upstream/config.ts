// Upstream MCP client configurations (SPEC §5, Bifrost's shape), validated completely before use:
// every problem is reported with the path of the field it is in.
import { z } from "zod";
import { isKeyword } from "../../grammar/tokens.js";

/** A tools_to_execute-style list's shape (checkToolList checks its rules): clients' and keys' grants. */
export const ToolListSchema = z.array(z.string().min(1, "a tool name must not be empty"));

const STDIO_SCHEMA = z
  .object({
    command: z.string().min(1, "stdio_config.command must not be empty"),
    args: z.array(z.string()).default([]),
    /** Extra environment variables for the child (added to a minimal inherited set). */
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
  })
  .strict();

export const ClientConfigSchema = z
  .object({
    /** Stable id for the HTTP API; defaults to the name. */
    client_id: z.string().min(1).optional(),
    name: z.string(),
    connection_type: z.enum(["stdio", "http", "sse"]),
    connection_string: z.string().url("connection_string must be a URL").optional(),
    stdio_config: STDIO_SCHEMA.optional(),
    headers: z.record(z.string(), z.string()).default({}),
    tools_to_execute: ToolListSchema.default([]),
    tools_to_auto_execute: ToolListSchema.default([]),
    is_code_mode_client: z.boolean().default(false),
    disabled: z.boolean().default(false),
    /** Check tool arguments against the inputSchema before calling (off for servers with wrong schemas). */
    validate_arguments: z.boolean().default(true),
  })
  .strict();

export type ClientConfig = z.infer<typeof ClientConfigSchema>;

/** A configuration problem, with the path of the offending field (`mcp.client_configs[1].name`). */
export class ConfigError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = "ConfigError";
  }
}

function pathText(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/**
 * How many single-character edits (insert, delete, replace, swap two neighbours) turn `a` into
 * `b`, or `limit + 1` once it is sure to exceed `limit`.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    [before, previous] = [previous, row];
  }
  return previous[b.length]!;
}

/**
 * The known field `name` most likely misspells, if any: one at most two edits away (and fewer
 * than half its length), else the one field it is the start of (`tools_to_exec`).
 */
export function nearestField(name: string, known: readonly string[]): string | undefined {
  const limit = Math.min(2, Math.floor((name.length - 1) / 2));
  const starts = name.length >= 4 ? known.filter((field) => field.toLowerCase().startsWith(name.toLowerCase())) : [];
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const field of known) {
    const d = editDistance(name.toLowerCase(), field.toLowerCase(), limit);
    if (d < bestDistance) [best, bestDistance] = [field, d];
  }
  return best ?? (starts.length === 1 ? starts[0] : undefined);
}

/** The error for a field not in `known`, at `at` (`mcp.tool_manager_config.max_stpes`). */
export function unknownField(at: string, name: string, known: readonly string[]): ConfigError {
  const near = nearestField(name, known);
  return new ConfigError(at, near !== undefined ? `unknown field (did you mean ${near}?)` : `unknown field (the fields here are ${known.join(", ")})`);
}

/**
 * Refuses any field of `object` that is not in `known`: a misspelt field would otherwise be
 * ignored without a word (`govrenance` turning governance off). `at` is the object's path ("" at the top).
 */
export function refuseUnknownFields(object: Record<string, unknown>, at: string, known: readonly string[]): void {
  for (const name of Object.keys(object)) {
    if (!known.includes(name)) throw unknownField(pathText(at, [name]), name, known);
  }
}

/** Checks one client config; `at` is where it sits in the file, for messages. */
export function parseClientConfig(raw: unknown, at = "client"): ClientConfig {
  const parsed = ClientConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === "unrecognized_keys") {
      const known = Object.keys(issue.path[0] === "stdio_config" ? STDIO_SCHEMA.shape : ClientConfigSchema.shape);
      throw unknownField(pathText(at, [...issue.path, issue.keys[0]!]), issue.keys[0]!, known);
    }
    throw new ConfigError(pathText(at, issue.path), issue.message);
  }
  const c = parsed.data;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.name)) {
    const hint = c.name.includes("-") ? ` (use '${c.name.replace(/-/g, "_")}': hyphens are not allowed)` : "";
    throw new ConfigError(`${at}.name`, `'${c.name}' is not a valid client name: it becomes a Python global, so use letters, digits and underscores, not starting with a digit${hint}`);
  }
  if (isKeyword(c.name)) throw new ConfigError(`${at}.name`, `'${c.name}' is a Python keyword and cannot name a client`);
  if (c.connection_type === "stdio" && !c.stdio_config) {
    throw new ConfigError(`${at}.stdio_config`, "a stdio client needs stdio_config with a command");
  }
  if (c.connection_type !== "stdio" && !c.connection_string) {
    throw new ConfigError(`${at}.connection_string`, `an ${c.connection_type} client needs connection_string (the server's URL)`);
  }
  checkToolList(c.tools_to_execute, `${at}.tools_to_execute`);
  checkToolList(c.tools_to_auto_execute, `${at}.tools_to_auto_execute`);
  const execute = c.tools_to_execute;
  if (!execute.includes("*")) {
    if (c.tools_to_auto_execute.includes("*")) {
      throw new ConfigError(`${at}.tools_to_auto_execute`, "'*' is only allowed when tools_to_execute is also '*'");
    }
    // "@read_only" names no tool: it selects among the allowed ones by their annotations.
    const extra = c.tools_to_auto_execute.filter((t) => !execute.includes(t) && t !== "@read_only");
    if (extra.length) {
      throw new ConfigError(`${at}.tools_to_auto_execute`, `must be a subset of tools_to_execute; not in it: ${extra.join(", ")}`);
    }
  }
  return c;
}

/** A tools_to_execute-style list: "*" alone or names, none twice; `at` names it in the error. */
export function checkToolList(list: readonly string[], at: string): void {
  if (list.includes("*") && list.length > 1) throw new ConfigError(at, "'*' must be the only entry when present");
  const seen = new Set<string>();
  for (const name of list) {
    if (seen.has(name)) throw new ConfigError(at, `'${name}' is listed twice`);
    seen.add(name);
  }
}

/** Checks a list of client configs: each one, then that names (and ids) are unique. */
export function parseClientConfigs(raw: unknown, at = "mcp.client_configs"): ClientConfig[] {
  if (!Array.isArray(raw)) throw new ConfigError(at, "must be a list of client configs");
  const configs = raw.map((c, i) => parseClientConfig(c, `${at}[${i}]`));
  const names = new Map<string, number>();
  configs.forEach((c, i) => {
    const lower = c.name.toLowerCase();
    const earlier = names.get(lower);
    if (earlier !== undefined) throw new ConfigError(`${at}[${i}].name`, `'${c.name}' is already the name of ${at}[${earlier}]`);
    names.set(lower, i);
  });
  return configs;
}

/** Is `tool` allowed by a tools_to_execute-style list? */
export function listAllows(list: readonly string[], tool: string): boolean {
  return list.includes("*") || list.includes(tool);
}

/** The fields of a desktop-client server entry: a command (with args, env, cwd) or a url (with headers, type). */
const DESKTOP_FIELDS = ["command", "args", "env", "cwd", "url", "headers", "type", "transport"];

/**
 * The client configs of a gateway config file: `mcp.client_configs` (Bifrost's shape) and the
 * desktop-client shape `{"mcpServers": {"name": {command, args, env} | {url, headers}}}`, whose
 * servers are code-mode clients with every tool allowed.
 */
export function clientConfigsOf(config: unknown): ClientConfig[] {
  const root = (config ?? {}) as Record<string, unknown>;
  const configs: ClientConfig[] = [];
  const mcp = root.mcp as Record<string, unknown> | undefined;
  if (mcp?.client_configs !== undefined) configs.push(...parseClientConfigs(mcp.client_configs));
  const desktop = root.mcpServers;
  if (desktop !== undefined) {
    if (typeof desktop !== "object" || desktop === null || Array.isArray(desktop)) throw new ConfigError("mcpServers", "must be an object of servers");
    for (const [name, raw] of Object.entries(desktop as Record<string, Record<string, unknown>>)) {
      const at = `mcpServers.${name}`;
      const base = { name, tools_to_execute: ["*"], is_code_mode_client: true };
      if (raw && typeof raw === "object" && !Array.isArray(raw)) refuseUnknownFields(raw, at, DESKTOP_FIELDS);
      if (typeof raw?.url === "string") {
        const type = raw.type === "sse" || raw.transport === "sse" ? "sse" : "http";
        configs.push(parseClientConfig({ ...base, connection_type: type, connection_string: raw.url, headers: raw.headers ?? {} }, at));
      } else if (typeof raw?.command === "string") {
        const stdio = { command: raw.command, args: raw.args ?? [], env: raw.env ?? {}, ...(raw.cwd !== undefined ? { cwd: raw.cwd } : {}) };
        configs.push(parseClientConfig({ ...base, connection_type: "stdio", stdio_config: stdio }, at));
      } else {
        throw new ConfigError(at, "needs either a command (stdio) or a url (http)");
      }
    }
  }
  const names = new Set<string>();
  for (const c of configs) {
    if (names.has(c.name)) throw new ConfigError(c.name, `two servers are named '${c.name}'`);
    names.add(c.name);
  }
  return configs;
}
