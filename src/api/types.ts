// The shapes of the API's answers (and of a settings update), shared by the server, which builds
// them, and the web client, which reads them (web/src imports this file's types, and only
// types). It imports nothing, so the web build reads no server code; the server's view
// functions are typed with these, so a change on one side that the other does not follow fails
// to compile. schemas.ts declares the same shapes to Fastify.

/** An upstream server's connection state. */
export type ServerState = "connecting" | "connected" | "reconnecting" | "disabled" | "closed";

/** The interpreter's limits by name (settings-update.ts checks that they are the interpreter's). */
export type LimitName =
  | "max_source_bytes"
  | "max_steps"
  | "max_memory_bytes"
  | "max_log_bytes"
  | "max_tool_calls"
  | "max_value_bytes"
  | "max_nesting_depth"
  | "tool_execution_timeout";

export type LimitsView = Record<LimitName, number>;

export type BindingLevel = "server" | "tool";

/** Every error: `{"error": {"message"}}`, naming the field at fault. */
export interface ErrorAnswer {
  error: { message: string };
}

// ---------------------------------------------------------------- settings

/** The client_config fields this gateway reads (all optional in a PUT). */
export interface ConfigFields {
  mcp_code_mode_limits?: Partial<LimitsView>;
  mcp_tool_execution_timeout?: number;
  mcp_code_mode_binding_level?: BindingLevel;
  mcp_agent_depth?: number;
  mcp_code_mode_instructions_limit?: number;
  mcp_direct_instructions_limit?: number;
  /** `code_mode_observed_shapes`: learn and show the shapes of results of tools without outputSchema. */
  mcp_code_mode_observed_shapes?: boolean;
}

/** GET and PUT /api/config. */
export interface ConfigView {
  client_config: Required<ConfigFields> & { mcp_code_mode_limits: LimitsView };
}

/** GET /api/ui/defaults. */
export interface UiDefaults {
  limits: LimitsView;
  binding_level: BindingLevel;
}

// ---------------------------------------------------------------- servers and clients

/** GET /health: the servers a caller has grants on. */
export interface HealthView {
  status: "ok";
  servers: { name: string; state: ServerState; tools: number }[];
  /** Where the state lives; with PostgreSQL, whether this instance hears the others' changes now. */
  store?: StoreHealth;
}

export type StoreHealth = { type: "sqlite" } | { type: "postgres"; listening: boolean };

/** A client as the API shows it: its config without secrets (header and env names only) and its live state. */
export interface ClientView {
  id: string;
  name: string;
  connection_type: "stdio" | "http" | "sse";
  connection_string?: string;
  stdio_config?: { command: string; args: string[]; cwd?: string; env_keys: string[] };
  header_keys: string[];
  is_code_mode_client: boolean;
  tools_to_execute: string[];
  tools_to_auto_execute: string[];
  disabled: boolean;
  validate_arguments: boolean;
  state: ServerState;
  last_error: string | null;
  tools: string[];
}

/** GET /api/mcp/clients. */
export interface ClientsView {
  clients: ClientView[];
}

// ---------------------------------------------------------------- virtual keys

/** A virtual key as the API shows it (value included: see keys.ts). */
export interface VirtualKeyView {
  id: string;
  name: string;
  value: string;
  description?: string;
  is_active: boolean;
  mcp_configs: { client_name: string; tools_to_execute: string[] }[];
}

/** Every route on one key. */
export interface VirtualKeyAnswer {
  virtual_key: VirtualKeyView;
}

/** GET /api/governance/virtual-keys. */
export interface VirtualKeysView {
  virtual_keys: VirtualKeyView[];
  count: number;
}

// ---------------------------------------------------------------- executions

/** One tool call a script made, as the log and the playground show it. */
export interface ToolCallView {
  server: string;
  tool: string;
  ok: boolean;
  error: string | null;
  duration_seconds: number;
}

/** One logged execution (never its code or arguments). */
export interface LogEntryView {
  id: number;
  time: string;
  key: string;
  tool: string;
  code_bytes: number;
  duration_seconds: number;
  tool_calls: ToolCallView[];
  outcome: "ok" | "error";
  error: { type: string; message: string; line: number | null } | null;
}

/** GET /api/logs. */
export interface LogsPage {
  logs: LogEntryView[];
  /** How many entries match, over all pages. */
  total: number;
}

/**
 * GET /api/overview: the last `minutes` of executions from the log. An outcome is `ok`,
 * `error`, `timeout`, `cancelled` or `<limit>_limit` (`max_steps_limit`).
 */
export interface OverviewView {
  minutes: number;
  since: string;
  now: string;
  executions: number;
  outcomes: { outcome: string; count: number }[];
  /** Every minute of the window, oldest first. */
  per_minute: { minute: string; counts: Record<string, number>; p50_seconds: number | null; p95_seconds: number | null }[];
  duration: { p50_seconds: number | null; p95_seconds: number | null };
  /** Most hit first. */
  limits: { limit: string; count: number }[];
  /** Most calls first. */
  servers: { server: string; calls: number; failures: number; error_rate: number; mean_seconds: number }[];
  upstreams: { name: string; state: ServerState; tools: number; error: string | null }[];
}

/** A script's structured result for the playground: its RESULT as Python-like text (it may hold big integers). */
export interface ExecutionView {
  stdout: string;
  stderr: string;
  result: string | null;
  returncode: 0 | 1;
  duration_seconds: number;
  tool_calls: (ToolCallView & { arguments: Record<string, unknown> })[];
  error: { type: string; message: string; line: number | null; column: number | null; traceback: string; hints: string[] } | null;
  stats: { steps: number; memory_bytes: number; log_bytes: number };
  hints?: string[];
}

/** POST /api/ui/playground/call. */
export interface PlaygroundAnswer {
  text: string;
  is_error: boolean;
  /** For executeToolCode and executeToolScript; null for the other meta-tools. */
  execution: ExecutionView | null;
}

/** GET /api/ui/playground/files. */
export interface PlaygroundFiles {
  binding_level: BindingLevel;
  files: { path: string; server: string; tools: string[] }[];
}

/** POST /v1/mcp/tool/execute, in the shape the `format` query parameter asks for. */
export type ToolMessage =
  | { role: "tool"; tool_call_id: string; content: string }
  | { type: "function_call_output"; call_id: string; output: string };
