// The gateway's bootstrap file, config.json (SPEC §6): upstream clients (Bifrost's
// `mcp.client_configs` or the desktop-client `mcpServers` shape), tool-manager settings and
// limits, and where to listen. `"env.VAR"` strings read environment variables. Every problem is
// reported with the JSON path of the field.
import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { LIMIT_FIELDS, resolveLimits } from "../interpreter/index.js";
import { type ClientConfig, clientConfigsOf, ConfigError, refuseUnknownFields, unknownField } from "../upstream/config.js";
import { DEFAULT_SETTINGS, type GatewaySettings } from "./gateway.js";
import { DEFAULT_SESSION_IDLE_SECONDS } from "./mcp-face.js";
import { parseStoreSection, type StoreSection } from "./store-config.js";
import { parseVirtualKeys, type VirtualKey } from "./virtual-keys.js";

export interface GatewayConfig {
  settings: GatewaySettings;
  clients: ClientConfig[];
  host: string;
  port: number;
  /** `governance.virtual_keys`: seeds the key store on first start. */
  keys: VirtualKey[];
  /** `governance.require_virtual_key` (or Bifrost's `client_config.enforce_governance_header`). */
  requireKey: boolean;
  /** `server.admin_token`: when set, every `/api/*` request must present it. */
  adminToken?: string;
  /** `server.allowed_hosts`: names or addresses, besides the loopback ones and `host`, that requests may name in Host. */
  allowedHosts: string[];
  /** `server.allow_unauthenticated_stdio`: the API may add or edit stdio clients without an admin token. */
  allowUnauthenticatedStdio: boolean;
  /** `server.mcp_session_idle_seconds`: an MCP session unused this long is closed. */
  mcpSessionIdleSeconds: number;
  /** `providers`: the model providers of agent mode (`/v1/chat/completions`, `/v1/responses`, `/v1/messages`). */
  providers: ProviderConfig[];
  /** `plugins`: modules exporting a pre-tool-call hook, in the order they run. */
  plugins: string[];
  /** `telemetry`: traces and metrics (src/telemetry/config.ts adds the OTEL_* variables); absent when not set. */
  telemetry?: TelemetrySection;
  /** `store`: where the state lives (store-config.ts); absent: SQLite in the data folder. */
  store?: StoreSection;
}

/** config.json's `telemetry` section as written (every field optional). */
export interface TelemetrySection {
  /** The OTLP/HTTP base URL (`/v1/traces` is added), as OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint?: string;
  protocol?: "http/json" | "http/protobuf";
  service_name?: string;
  /** Serve `GET /metrics` (default true). */
  metrics?: boolean;
  /** Put code, arguments and results on spans (default false: they may hold secrets). */
  record_payloads?: boolean;
}

/** Checks `telemetry`: each field's type; an unknown field is refused. */
export function parseTelemetrySection(raw: unknown, at = "telemetry"): TelemetrySection | undefined {
  if (raw === undefined) return undefined;
  const t = object(raw, at);
  const kinds = { endpoint: "string", protocol: "string", service_name: "string", metrics: "boolean", record_payloads: "boolean" } as const;
  for (const [key, value] of Object.entries(t)) {
    const kind = kinds[key as keyof typeof kinds];
    if (kind === undefined) throw new ConfigError(`${at}.${key}`, `unknown field (known: ${Object.keys(kinds).join(", ")})`);
    if (typeof value !== kind) throw new ConfigError(`${at}.${key}`, kind === "boolean" ? "must be true or false" : "must be a string");
  }
  if (t.protocol !== undefined && t.protocol !== "http/json" && t.protocol !== "http/protobuf") {
    throw new ConfigError(`${at}.protocol`, `must be "http/json" or "http/protobuf", not ${JSON.stringify(t.protocol)}`);
  }
  if (t.endpoint !== undefined && !/^https?:\/\/[^\s]+$/.test(t.endpoint as string)) throw new ConfigError(`${at}.endpoint`, "must be an http(s) URL such as http://127.0.0.1:4318");
  return t as TelemetrySection;
}

/** The wire format a provider speaks: OpenAI chat completions, or Anthropic Messages. */
export type ProviderType = "openai" | "anthropic";

/** `api_key: "passthrough"`: the provider is sent the caller's own key, not one from config.json. */
export const PASSTHROUGH_KEY = "passthrough";

/** Where `anthropic_version` is not set: the version the Messages API is documented at. */
export const DEFAULT_ANTHROPIC_VERSION = "2023-06-01";

/** One agent-mode provider (SPEC §7). Its key is the gateway's, or the caller's with "passthrough". */
export interface ProviderConfig {
  /** What a request's `model` names before the slash: `openai/gpt-4o`. */
  name: string;
  /** "openai" (the default, also when absent) or "anthropic". */
  type?: ProviderType;
  /** The API root, ending before `/chat/completions` or `/messages` (e.g. `https://api.openai.com/v1`). */
  base_url: string;
  /** The key sent to the provider, or "passthrough" for the caller's own. */
  api_key?: string;
  /** Extra headers sent with every request. */
  headers: Record<string, string>;
  /** How long one provider request may take. */
  timeout_seconds: number;
  /** The `anthropic-version` header of an anthropic provider. */
  anthropic_version?: string;
}

const PROVIDER_FIELDS = ["name", "type", "base_url", "api_key", "headers", "timeout_seconds", "anthropic_version"];

// The fields of each object of config.json. Any other is refused, naming its path: a misspelt
// field (`govrenance`) would otherwise be ignored, leaving its setting off without a word.
const ROOT_FIELDS = [
  "mcp", "mcpServers", "client_config", "server", "governance", "providers", "plugins",
  "workspace_root", "workspace_max_write_bytes", "workspace_max_created", "telemetry", "store",
];
const MCP_FIELDS = ["client_configs", "tool_manager_config"];
const MANAGER_FIELDS = ["tool_execution_timeout", "max_agent_depth", "code_mode_binding_level", "code_mode_limits", "code_mode_observed_shapes"];
/** Bifrost's `client_config`: the same fields as `PUT /api/config` takes, and the governance header. */
const CLIENT_CONFIG_FIELDS = [
  "mcp_code_mode_limits", "mcp_tool_execution_timeout", "mcp_code_mode_binding_level", "mcp_agent_depth",
  "mcp_code_mode_instructions_limit", "mcp_direct_instructions_limit", "mcp_code_mode_observed_shapes",
  "enforce_governance_header",
];
const SERVER_FIELDS = ["host", "port", "admin_token", "allowed_hosts", "allow_unauthenticated_stdio", "mcp_session_idle_seconds"];
const GOVERNANCE_FIELDS = ["virtual_keys", "require_virtual_key"];

/** Checks `providers` (after env.VAR expansion). */
export function parseProviders(raw: unknown, at = "providers"): ProviderConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ConfigError(at, "must be a list of providers");
  const seen = new Set<string>();
  return raw.map((entry, i) => {
    const here = `${at}[${i}]`;
    if (entry === undefined || entry === null) throw new ConfigError(here, "must be an object");
    const p = object(entry, here);
    refuseUnknownFields(p, here, PROVIDER_FIELDS);
    if (typeof p.name !== "string" || !/^[A-Za-z0-9_.-]+$/.test(p.name)) {
      throw new ConfigError(`${here}.name`, "must be a non-empty name of letters, digits, '_', '-' or '.' (it is the part of `model` before the slash)");
    }
    if (seen.has(p.name)) throw new ConfigError(`${here}.name`, `'${p.name}' is listed twice`);
    seen.add(p.name);
    let url: URL | null = null;
    try {
      url = typeof p.base_url === "string" ? new URL(p.base_url) : null;
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new ConfigError(`${here}.base_url`, "must be an http(s) URL such as https://api.openai.com/v1");
    if (p.api_key !== undefined && (typeof p.api_key !== "string" || p.api_key === "")) {
      throw new ConfigError(`${here}.api_key`, 'must be a non-empty string (e.g. "env.OPENAI_API_KEY", or "passthrough" to send the caller\'s own key)');
    }
    const headers = object(p.headers, `${here}.headers`);
    for (const [k, v] of Object.entries(headers)) if (typeof v !== "string") throw new ConfigError(`${here}.headers.${k}`, "must be a string");
    const type = p.type ?? "openai";
    if (type !== "openai" && type !== "anthropic") throw new ConfigError(`${here}.type`, `must be "openai" or "anthropic", not ${JSON.stringify(type)}`);
    const version = p.anthropic_version;
    if (version !== undefined && type !== "anthropic") throw new ConfigError(`${here}.anthropic_version`, 'is only for a provider of "type": "anthropic"');
    if (version !== undefined && (typeof version !== "string" || version === "")) throw new ConfigError(`${here}.anthropic_version`, 'must be a version string such as "2023-06-01"');
    const timeout = p.timeout_seconds ?? 120;
    if (typeof timeout !== "number" || !(timeout > 0)) throw new ConfigError(`${here}.timeout_seconds`, "must be a positive number of seconds");
    return {
      name: p.name,
      type,
      base_url: (p.base_url as string).replace(/\/+$/, ""),
      ...(p.api_key !== undefined ? { api_key: p.api_key as string } : {}),
      headers: headers as Record<string, string>,
      timeout_seconds: timeout,
      ...(type === "anthropic" ? { anthropic_version: (version as string | undefined) ?? DEFAULT_ANTHROPIC_VERSION } : {}),
    };
  });
}

/** Checks `plugins`: a list of module paths or package names. */
export function parsePlugins(raw: unknown, at = "plugins"): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ConfigError(at, 'must be a list of module paths, e.g. ["./plugins/audit.js"]');
  return raw.map((p, i) => {
    if (typeof p !== "string" || p.trim() === "") throw new ConfigError(`${at}[${i}]`, "must be a module path or package name");
    return p;
  });
}

/** Replaces every `"env.NAME"` string by that environment variable (a missing one is an error). */
export function expandEnv(value: unknown, env: NodeJS.ProcessEnv = process.env, path = "$"): unknown {
  if (typeof value === "string" && value.startsWith("env.")) {
    const name = value.slice(4);
    const v = env[name];
    if (v === undefined) throw new ConfigError(path, `refers to the environment variable ${name}, which is not set`);
    return v;
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, env, `${path}[${i}]`));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expandEnv(v, env, `${path}.${k}`);
    return out;
  }
  return value;
}

function object(v: unknown, path: string, fields?: readonly string[]): Record<string, unknown> {
  if (v === undefined) return {};
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new ConfigError(path, "must be an object");
  if (fields) refuseUnknownFields(v as Record<string, unknown>, path === "$" ? "" : path, fields);
  return v as Record<string, unknown>;
}

/** A `code_mode_limits` object: only limit names, each named by its path when it is not one. */
function limitsAt(v: unknown, path: string): Record<string, unknown> {
  const limits = object(v, path);
  for (const name of Object.keys(limits)) {
    if (!(LIMIT_FIELDS as readonly string[]).includes(name)) throw unknownField(`${path}.${name}`, name, LIMIT_FIELDS);
  }
  return limits;
}

/** A non-negative whole number of bytes, or the default when absent. */
function byteCount(v: unknown, path: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isSafeInteger(v) || (v as number) < 0) throw new ConfigError(path, "must be a non-negative whole number of bytes");
  return v as number;
}

/** Parses a config object (already read from JSON). */
export function parseGatewayConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const root = object(expandEnv(raw, env), "$", ROOT_FIELDS);
  const mcp = object(root.mcp, "mcp", MCP_FIELDS);
  const manager = object(mcp.tool_manager_config, "mcp.tool_manager_config", MANAGER_FIELDS);
  const clientConfig = object(root.client_config, "client_config", CLIENT_CONFIG_FIELDS);
  const server = object(root.server, "server", SERVER_FIELDS);
  const governance = object(root.governance, "governance", GOVERNANCE_FIELDS);

  // client_config.mcp_code_mode_limits, then tool_manager_config.code_mode_limits on top (it wins).
  const limitsInput = {
    ...limitsAt(clientConfig.mcp_code_mode_limits, "client_config.mcp_code_mode_limits"),
    ...limitsAt(manager.code_mode_limits, "mcp.tool_manager_config.code_mode_limits"),
  } as Record<string, unknown>;
  const timeout = manager.tool_execution_timeout ?? clientConfig.mcp_tool_execution_timeout;
  if (timeout !== undefined && limitsInput.tool_execution_timeout === undefined) limitsInput.tool_execution_timeout = timeout;
  let limits;
  try {
    limits = resolveLimits(limitsInput);
  } catch (e) {
    throw new ConfigError("mcp.tool_manager_config.code_mode_limits", (e as Error).message);
  }
  const binding = manager.code_mode_binding_level ?? clientConfig.mcp_code_mode_binding_level ?? "server";
  if (binding !== "server" && binding !== "tool") {
    throw new ConfigError("mcp.tool_manager_config.code_mode_binding_level", `must be "server" or "tool", not ${JSON.stringify(binding)}`);
  }
  const depth = manager.max_agent_depth ?? clientConfig.mcp_agent_depth ?? DEFAULT_SETTINGS.maxAgentDepth;
  if (!Number.isInteger(depth) || (depth as number) < 1) throw new ConfigError("mcp.tool_manager_config.max_agent_depth", "must be a positive integer");
  const observed = manager.code_mode_observed_shapes ?? clientConfig.mcp_code_mode_observed_shapes ?? DEFAULT_SETTINGS.observedShapes;
  if (typeof observed !== "boolean") {
    const at = manager.code_mode_observed_shapes !== undefined ? "mcp.tool_manager_config.code_mode_observed_shapes" : "client_config.mcp_code_mode_observed_shapes";
    throw new ConfigError(at, "must be true or false");
  }
  const host = server.host ?? "127.0.0.1";
  const port = server.port ?? 8080;
  if (typeof host !== "string") throw new ConfigError("server.host", "must be a string");
  if (!Number.isInteger(port) || (port as number) < 0 || (port as number) > 65535) throw new ConfigError("server.port", "must be a port number (0-65535)");
  const adminToken = server.admin_token;
  if (adminToken !== undefined && (typeof adminToken !== "string" || adminToken.length === 0)) {
    throw new ConfigError("server.admin_token", "must be a non-empty string");
  }
  const allowedHosts = parseAllowedHosts(server.allowed_hosts);
  const allowStdio = server.allow_unauthenticated_stdio ?? false;
  if (typeof allowStdio !== "boolean") throw new ConfigError("server.allow_unauthenticated_stdio", "must be true or false");
  const idle = server.mcp_session_idle_seconds ?? DEFAULT_SESSION_IDLE_SECONDS;
  if (typeof idle !== "number" || !(idle > 0) || !Number.isFinite(idle)) throw new ConfigError("server.mcp_session_idle_seconds", "must be a positive number of seconds");
  const requireKey = governance.require_virtual_key ?? clientConfig.enforce_governance_header ?? false;
  if (typeof requireKey !== "boolean") {
    const at = governance.require_virtual_key !== undefined ? "governance.require_virtual_key" : "client_config.enforce_governance_header";
    throw new ConfigError(at, "must be true or false");
  }
  const instructionsLimit = byteCount(clientConfig.mcp_code_mode_instructions_limit, "client_config.mcp_code_mode_instructions_limit", DEFAULT_SETTINGS.instructionsLimit);
  const directInstructionsLimit = byteCount(clientConfig.mcp_direct_instructions_limit, "client_config.mcp_direct_instructions_limit", DEFAULT_SETTINGS.directInstructionsLimit);
  const workspace = parseWorkspace(root);
  return {
    settings: {
      ...DEFAULT_SETTINGS,
      limits,
      bindingLevel: binding,
      maxAgentDepth: depth as number,
      observedShapes: observed,
      instructionsLimit,
      directInstructionsLimit,
      ...(workspace ? { workspace } : {}),
    },
    clients: clientConfigsOf({ mcp: { client_configs: mcp.client_configs ?? [] }, mcpServers: root.mcpServers }),
    host,
    port: port as number,
    allowedHosts,
    allowUnauthenticatedStdio: allowStdio,
    mcpSessionIdleSeconds: idle,
    keys: parseVirtualKeys(governance.virtual_keys),
    requireKey,
    providers: parseProviders(root.providers),
    plugins: parsePlugins(root.plugins),
    ...(root.telemetry !== undefined ? { telemetry: parseTelemetrySection(root.telemetry) } : {}),
    ...(root.store !== undefined ? { store: parseStoreSection(root.store) } : {}),
    ...(adminToken !== undefined ? { adminToken: adminToken as string } : {}),
  };
}

/**
 * `server.allowed_hosts`: host names or IP addresses (a v6 one with or without brackets), without
 * scheme or port, since a Host is accepted on any port.
 */
function parseAllowedHosts(raw: unknown): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ConfigError("server.allowed_hosts", 'must be a list of host names or addresses, e.g. ["gateway.lan", "192.168.1.20"]');
  return raw.map((h, i) => {
    const at = `server.allowed_hosts[${i}]`;
    if (typeof h !== "string" || h.trim() === "") throw new ConfigError(at, "must be a host name or IP address");
    const name = h.trim();
    // A v6 address has two colons or more; one colon is a port.
    const v6 = /^\[[0-9a-f:.]+\]$|^[0-9a-f.]*:[0-9a-f.]*:[0-9a-f:.]*$/i.test(name);
    if (!v6 && !/^[^\s:/?#@[\]]+$/.test(name)) {
      throw new ConfigError(at, `must be a host name or IP address alone, without scheme, port or path (any port is accepted), not ${JSON.stringify(h)}`);
    }
    return name;
  });
}

/**
 * `workspace_root` (an existing folder), `workspace_max_write_bytes` and `workspace_max_created`;
 * no workspace when absent.
 */
function parseWorkspace(root: Record<string, unknown>): GatewaySettings["workspace"] {
  const dir = root.workspace_root;
  const caps = { workspace_max_write_bytes: "bytes", workspace_max_created: "files and folders" } as const;
  if (dir === undefined || dir === null) {
    for (const field of Object.keys(caps)) {
      if (root[field] !== undefined) throw new ConfigError(field, "is set but workspace_root is not");
    }
    return undefined;
  }
  if (typeof dir !== "string" || dir === "") throw new ConfigError("workspace_root", "must be the path of a folder");
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new ConfigError("workspace_root", `the folder ${dir} does not exist`);
  }
  if (!isDir) throw new ConfigError("workspace_root", `${dir} is not a folder`);
  for (const [field, unit] of Object.entries(caps)) {
    const cap = root[field];
    if (cap !== undefined && (!Number.isSafeInteger(cap) || (cap as number) <= 0)) {
      throw new ConfigError(field, `must be a positive integer (${unit})`);
    }
  }
  const maxWriteBytes = root.workspace_max_write_bytes as number | undefined;
  const maxCreated = root.workspace_max_created as number | undefined;
  return { root: dir, ...(maxWriteBytes !== undefined ? { maxWriteBytes } : {}), ...(maxCreated !== undefined ? { maxCreated } : {}) };
}

/** Reads and parses a config file. */
export function loadGatewayConfig(path: string, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ConfigError(path, `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(path, `is not valid JSON: ${(e as Error).message}`);
  }
  const config = parseGatewayConfig(raw, env);
  // A relative plugin path is relative to the config file; a bare name is a package.
  const base = dirname(path);
  config.plugins = config.plugins.map((p) => (p.startsWith(".") && !isAbsolute(p) ? resolve(base, p) : p));
  return config;
}
