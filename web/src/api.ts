// Calls to the gateway's API with the admin token, which the page asks for when a route refuses
// it and keeps for the browser session (sessionStorage: gone when the tab closes).
import { h } from "./dom";

const TOKEN_KEY = "code-mode-gateway.admin-token";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

export function hasToken(): boolean {
  return sessionStorage.getItem(TOKEN_KEY) !== null;
}

let asking: Promise<void> | null = null;

/** Asks for the admin token (once, however many calls were refused at the same time). */
function askToken(reason: string): Promise<void> {
  asking ??= new Promise<void>((resolve) => {
    const input = h("input", { type: "password", name: "token", autocomplete: "current-password", placeholder: "admin token" });
    const dialog = h(
      "div.modal-backdrop",
      h(
        "form.modal#token-form",
        {
          onsubmit: (e: Event) => {
            e.preventDefault();
            sessionStorage.setItem(TOKEN_KEY, input.value.trim());
            dialog.remove();
            asking = null;
            resolve();
          },
        },
        h("h2", "Admin token"),
        h("p", reason),
        h("p.hint", "It is kept for this browser session only."),
        input,
        h("div.actions", h("button.primary", { type: "submit" }, "Continue")),
      ),
    );
    document.body.appendChild(dialog);
    input.focus();
  });
  return asking;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  for (;;) {
    const headers: Record<string, string> = {};
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (res.status === 401 && path.startsWith("/api/")) {
      await askToken(token ? "The gateway refused that token; enter it again." : "This gateway requires its admin token for the API.");
      continue;
    }
    if (!res.ok) throw new ApiError(res.status, data?.error?.message ?? `${res.status} ${res.statusText}`);
    return data as T;
  }
}

// ---------------------------------------------------------------- shapes of the API's answers

export type ServerState = "connecting" | "connected" | "reconnecting" | "disabled" | "closed";

export interface Client {
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

export interface VirtualKey {
  id: string;
  name: string;
  value: string;
  description?: string;
  is_active: boolean;
  mcp_configs: { client_name: string; tools_to_execute: string[] }[];
}

export const LIMIT_FIELDS = [
  "max_source_bytes",
  "max_steps",
  "max_memory_bytes",
  "max_log_bytes",
  "max_tool_calls",
  "max_value_bytes",
  "max_nesting_depth",
] as const;

export type Limits = Record<(typeof LIMIT_FIELDS)[number] | "tool_execution_timeout", number>;

export interface ClientConfigView {
  client_config: {
    mcp_code_mode_limits: Limits;
    mcp_tool_execution_timeout: number;
    mcp_code_mode_binding_level: "server" | "tool";
  };
}

export interface ToolCallRecord {
  server: string;
  tool: string;
  ok: boolean;
  error: string | null;
  duration_seconds: number;
}

export interface Execution {
  stdout: string;
  stderr: string;
  result: string | null;
  duration_seconds: number;
  tool_calls: ToolCallRecord[];
  error: { type: string; message: string; line: number | null; column: number | null; traceback: string; hints: string[] } | null;
  stats: { steps: number; memory_bytes: number; log_bytes: number };
}

export interface LogEntry {
  id: number;
  time: string;
  key: string;
  tool: string;
  code_bytes: number;
  duration_seconds: number;
  tool_calls: ToolCallRecord[];
  outcome: "ok" | "error";
  error: { type: string; message: string; line: number | null } | null;
}
