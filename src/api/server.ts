// The gateway's HTTP API (SPEC §6) in Bifrost's shapes: health, the settings in force
// (GET/PUT /api/config, hot-applied to the next execution), the upstream clients (list, add,
// update, delete, reconnect), virtual keys, the execution log, and one tool call at a time
// (/v1/mcp/tool/execute, the path a human-approved script takes). Every route declares its
// schema; every error answers {"error": {"message"}}, naming the field at fault.
//
// Who may call what: `/api/*` is the operator's (the admin token, when one is set); everything
// else (`/health`, `/v1/*`, and `/mcp` once mounted) is the callers', each seeing what its
// virtual key grants.
import { createHash, timingSafeEqual } from "node:crypto";
import {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchemaValidationError,
  fastify,
} from "fastify";
import { type AgentRouteOptions, registerAgentRoutes } from "../agent/route.js";
import { DEFAULT_PAGE_SIZE, ExecLog, type LogQuery } from "../gateway/exec-log.js";
import { type Caller, type Gateway, ToolDeniedError, ToolNotGrantedError, UnknownToolError } from "../gateway/gateway.js";
import {
  callerFromHeaders,
  generateKeyValue,
  isRefusal,
  KeyConflictError,
  KeyRing,
  parseVirtualKey,
  type VirtualKey,
} from "../gateway/virtual-keys.js";
import { LIMIT_FIELDS } from "../interpreter/index.js";
import { type ClientConfig, ConfigError, parseClientConfig } from "../upstream/config.js";
import { type UpstreamConnection, UpstreamError } from "../upstream/connection.js";
import { HostPolicy, registerHostCheck } from "./host-check.js";
import { registerJsonBodyParser } from "./json-body.js";
import { type ConfigFields, configView, HttpError, settingsFromUpdate } from "./settings-update.js";
import { registerWeb } from "./web.js";

export interface ServerOptions extends AgentRouteOptions {
  logger?: boolean;
  /** The virtual keys in force (default: none). */
  keys?: KeyRing;
  /** Refuse requests without a virtual key (default: they see everything). */
  requireKey?: boolean;
  /** When set, every `/api/*` request must present it. */
  adminToken?: string;
  /** Where executions are logged (default: a fresh in-memory log). */
  log?: ExecLog;
  /** The Host and Origin requests must come with (default: the loopback names only). */
  hosts?: HostPolicy;
  /** `server.allow_unauthenticated_stdio`: let the API add or edit stdio clients without an admin token. */
  allowUnauthenticatedStdio?: boolean;
  /** Adds hooks and routes before all others (src/telemetry: request spans, GET /metrics). */
  instrument?: (app: FastifyInstance) => void;
}

// ------------------------------------------------------------------ schemas

const errorSchema = {
  type: "object",
  properties: { error: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } },
  required: ["error"],
} as const;

const errorResponses = { "4xx": errorSchema, "5xx": errorSchema } as const;

/** Limits travel as plain numbers; their ranges are budget.ts's to check, so messages match the config file's. */
const limitsSchema = {
  type: "object",
  properties: Object.fromEntries(LIMIT_FIELDS.map((f) => [f, { type: "number" }])),
  additionalProperties: false,
} as const;

const clientConfigFields = {
  mcp_code_mode_limits: limitsSchema,
  mcp_tool_execution_timeout: { type: "number", description: "seconds; the same setting as mcp_code_mode_limits.tool_execution_timeout" },
  mcp_code_mode_binding_level: { type: "string", enum: ["server", "tool"] },
  mcp_agent_depth: { type: "integer", minimum: 1 },
  mcp_code_mode_instructions_limit: { type: "integer", minimum: 0 },
  mcp_direct_instructions_limit: { type: "integer", minimum: 0 },
  mcp_code_mode_observed_shapes: { type: "boolean", description: "learn and show the shapes of results of tools without outputSchema" },
} as const;

const configResponse = {
  type: "object",
  properties: {
    client_config: {
      type: "object",
      properties: clientConfigFields,
      required: Object.keys(clientConfigFields),
    },
  },
  required: ["client_config"],
} as const;

// Bifrost's client_config carries many more fields (logging, pools, ...); they are accepted and
// ignored so that a Bifrost client's read-modify-write of the whole object keeps working.
const configUpdateBody = {
  type: "object",
  properties: { client_config: { type: "object", properties: clientConfigFields } },
  required: ["client_config"],
} as const;

const serverStates = ["connecting", "connected", "reconnecting", "disabled", "closed"];

const healthResponse = {
  type: "object",
  properties: {
    status: { type: "string", enum: ["ok"] },
    servers: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, state: { type: "string", enum: serverStates }, tools: { type: "integer", description: "how many tools" } },
        required: ["name", "state", "tools"],
      },
    },
  },
  required: ["status", "servers"],
} as const;

const stringList = { type: "array", items: { type: "string" } } as const;

/** A client as the API shows it (GET /api/mcp/clients and every client route). */
const clientSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    connection_type: { type: "string", enum: ["stdio", "http", "sse"] },
    connection_string: { type: "string" },
    stdio_config: {
      type: "object",
      properties: { command: { type: "string" }, args: stringList, cwd: { type: "string" }, env_keys: stringList },
      required: ["command", "args", "env_keys"],
    },
    header_keys: stringList,
    is_code_mode_client: { type: "boolean" },
    tools_to_execute: stringList,
    tools_to_auto_execute: stringList,
    disabled: { type: "boolean" },
    validate_arguments: { type: "boolean" },
    state: { type: "string", enum: serverStates },
    last_error: { type: "string", nullable: true },
    tools: stringList,
  },
  required: [
    "id", "name", "connection_type", "header_keys", "is_code_mode_client", "tools_to_execute", "tools_to_auto_execute",
    "disabled", "validate_arguments", "state", "last_error", "tools",
  ],
} as const;

const clientsResponse = {
  type: "object",
  properties: { clients: { type: "array", items: clientSchema } },
  required: ["clients"],
} as const;

// A client config is checked by parseClientConfig (SPEC §5), so that the API and the config file
// refuse the same things with the same messages; the schema only insists on an object.
const clientBody = {
  type: "object",
  description:
    "a client config: name, connection_type, connection_string | stdio_config {command, args, env, cwd}, headers, " +
    "tools_to_execute, tools_to_auto_execute, is_code_mode_client, disabled, validate_arguments, client_id",
} as const;

const idParams = {
  type: "object",
  properties: { id: { type: "string", minLength: 1 } },
  required: ["id"],
} as const;

const virtualKeySchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    value: { type: "string" },
    description: { type: "string" },
    is_active: { type: "boolean" },
    mcp_configs: {
      type: "array",
      items: {
        type: "object",
        properties: { client_name: { type: "string" }, tools_to_execute: stringList },
        required: ["client_name", "tools_to_execute"],
      },
    },
  },
  required: ["id", "name", "value", "is_active", "mcp_configs"],
} as const;

const virtualKeyResponse = {
  type: "object",
  properties: { virtual_key: virtualKeySchema },
  required: ["virtual_key"],
} as const;

const virtualKeysResponse = {
  type: "object",
  properties: { virtual_keys: { type: "array", items: virtualKeySchema }, count: { type: "integer" } },
  required: ["virtual_keys", "count"],
} as const;

// Checked by parseVirtualKey, for the same reason as a client config.
const virtualKeyBody = {
  type: "object",
  description:
    "a virtual key: name, value (generated when omitted), id (defaults to the name), description, is_active, " +
    "mcp_configs [{client_name, tools_to_execute}]",
} as const;

const MAX_PAGE_SIZE = 1000;

const wholeNumber = { type: "string", pattern: "^[0-9]+$" } as const;

const logsQuery = {
  type: "object",
  properties: {
    limit: { ...wholeNumber, description: "entries per page, 1-1000 (default 50)" },
    offset: { ...wholeNumber, description: "entries to skip (default 0)" },
    tool: { type: "string", description: "only runs that called this tool (server.tool, or a tool name)" },
    key: { type: "string", description: "only runs by this virtual key (its name; '-' for no key)" },
    outcome: { type: "string", enum: ["ok", "error"] },
  },
  additionalProperties: false,
} as const;

const logsResponse = {
  type: "object",
  properties: {
    logs: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "integer" },
          time: { type: "string" },
          key: { type: "string" },
          tool: { type: "string" },
          code_bytes: { type: "integer" },
          duration_seconds: { type: "number" },
          tool_calls: {
            type: "array",
            items: {
              type: "object",
              properties: {
                server: { type: "string" },
                tool: { type: "string" },
                ok: { type: "boolean" },
                error: { type: "string", nullable: true },
                duration_seconds: { type: "number" },
              },
              required: ["server", "tool", "ok", "error", "duration_seconds"],
            },
          },
          outcome: { type: "string", enum: ["ok", "error"] },
          error: {
            type: "object",
            nullable: true,
            properties: { type: { type: "string" }, message: { type: "string" }, line: { type: "integer", nullable: true } },
            required: ["type", "message", "line"],
          },
        },
        required: ["id", "time", "key", "tool", "code_bytes", "duration_seconds", "tool_calls", "outcome", "error"],
      },
    },
    total: { type: "integer", description: "how many entries match, over all pages" },
  },
  required: ["logs", "total"],
} as const;

const TOOL_CALL_SHAPES =
  'expected a chat tool call {"id", "type": "function", "function": {"name", "arguments"}} ' +
  'or a Responses function_call {"type": "function_call", "call_id", "name", "arguments"}, where arguments is a JSON-encoded object';

const nonEmpty = { type: "string", minLength: 1 } as const;

// The body's own `type` says which shape it is; the `format` query parameter picks the answer's.
const toolCallBody = {
  type: "object",
  if: { properties: { type: { const: "function_call" } }, required: ["type"] },
  then: {
    properties: { type: { const: "function_call" }, call_id: nonEmpty, name: nonEmpty, arguments: { type: "string" } },
    required: ["call_id", "name", "arguments"],
  },
  else: {
    properties: {
      id: nonEmpty,
      type: { const: "function" },
      function: {
        type: "object",
        properties: { name: nonEmpty, arguments: { type: "string" } },
        required: ["name", "arguments"],
      },
    },
    required: ["id", "function"],
  },
} as const;

const toolMessageResponse = {
  anyOf: [
    {
      type: "object",
      properties: { role: { type: "string", enum: ["tool"] }, tool_call_id: { type: "string" }, content: { type: "string" } },
      required: ["role", "tool_call_id", "content"],
    },
    {
      type: "object",
      properties: { type: { type: "string", enum: ["function_call_output"] }, call_id: { type: "string" }, output: { type: "string" } },
      required: ["type", "call_id", "output"],
    },
  ],
} as const;

// ------------------------------------------------------------------ request and response types

type ToolCallBody =
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { id: string; type?: "function"; function: { name: string; arguments: string } };

// ------------------------------------------------------------------ validation messages

const TYPE_NAMES: Record<string, string> = {
  number: "a number",
  integer: "an integer",
  string: "a string",
  object: "an object",
  array: "a list",
  boolean: "true or false",
};

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Ajv's first error as a sentence that names the field by its JSON path (`client_config.mcp_agent_depth`). */
function describeValidation(errors: FastifySchemaValidationError[], dataVar: string): string {
  const error = errors[0];
  if (!error) return `the ${dataVar} is invalid`;
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  const params = error.params;
  let text: string;
  switch (error.keyword) {
    case "required":
      path.push(String(params.missingProperty));
      text = "is required";
      break;
    case "additionalProperties":
      path.push(String(params.additionalProperty));
      text = "is not a known field";
      break;
    case "type":
      text = `must be ${TYPE_NAMES[String(params.type)] ?? String(params.type)}`;
      break;
    case "enum":
      text = `must be one of ${(params.allowedValues as unknown[]).join(", ")}`;
      break;
    case "const":
      text = `must be ${JSON.stringify(params.allowedValue)}`;
      break;
    case "minimum":
      text = `must be at least ${String(params.limit)}`;
      break;
    case "minLength":
      text = "must not be empty";
      break;
    case "pattern":
      text = params.pattern === wholeNumber.pattern ? "must be a whole number" : `must match ${String(params.pattern)}`;
      break;
    default:
      text = error.message ?? "is invalid";
  }
  // Ajv is run with `verbose`, so the offending value is at hand (not for `required` and the like).
  const data = (error as { data?: unknown }).data;
  if (["type", "enum", "const", "minimum", "pattern"].includes(error.keyword) && data !== undefined) text += ` (got ${shown(data)})`;
  const where = dataVar === "body" ? path : [dataVar, ...path];
  return `${where.length ? where.join(".") : `the ${dataVar}`} ${text}`;
}

// ------------------------------------------------------------------ clients

/** A URL's password is a secret; the rest of the connection string is shown. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = "";
    return parsed.toString();
  } catch {
    return url;
  }
}

/** A client as the API shows it: its config without secrets (header and env NAMES only) and its live state. */
function clientView(config: ClientConfig, connection: UpstreamConnection | undefined) {
  return {
    id: config.client_id ?? config.name,
    name: config.name,
    connection_type: config.connection_type,
    ...(config.connection_string !== undefined ? { connection_string: withoutPassword(config.connection_string) } : {}),
    ...(config.stdio_config
      ? {
          stdio_config: {
            command: config.stdio_config.command,
            args: config.stdio_config.args,
            ...(config.stdio_config.cwd !== undefined ? { cwd: config.stdio_config.cwd } : {}),
            env_keys: Object.keys(config.stdio_config.env),
          },
        }
      : {}),
    header_keys: Object.keys(config.headers),
    is_code_mode_client: config.is_code_mode_client,
    tools_to_execute: config.tools_to_execute,
    tools_to_auto_execute: config.tools_to_auto_execute,
    disabled: config.disabled,
    validate_arguments: config.validate_arguments,
    state: connection?.state ?? "closed",
    last_error: connection?.lastError ?? null,
    tools: connection?.tools.map((t) => t.name) ?? [],
  };
}

/** A client's id in URLs: its client_id, else its name. */
function idOf(config: ClientConfig): string {
  return config.client_id ?? config.name;
}

/** The client an URL names, by id first, then by name. */
function findClient(gateway: Gateway, id: string): ClientConfig {
  const configs = gateway.clientConfigs();
  const found = configs.find((c) => idOf(c) === id) ?? configs.find((c) => c.name === id);
  if (!found) throw new HttpError(404, `no client with id '${id}'`);
  return found;
}

/**
 * 409 when `config` would clash with another client: names are unique in any case (as in the
 * config file), and no client's name or id may be another's name or id, so an URL names one client.
 */
function checkUnique(gateway: Gateway, config: ClientConfig, except?: ClientConfig): void {
  for (const other of gateway.clientConfigs()) {
    if (other === except) continue;
    if (other.name.toLowerCase() === config.name.toLowerCase()) throw new HttpError(409, `a client named '${other.name}' already exists`);
    const taken = [other.name, idOf(other)];
    const clash = [config.name, idOf(config)].find((x) => taken.includes(x));
    if (clash !== undefined) throw new HttpError(409, `'${clash}' is already the name or id of client '${other.name}'`);
  }
}

/**
 * parseClientConfig's verdict on a request body as a 400 that names the field as the body has it
 * (`stdio_config.command: must not be empty`).
 */
function parseClientBody(raw: unknown): ClientConfig {
  const base = "client";
  try {
    return parseClientConfig(raw, base);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    let field = e.path === base ? "" : e.path.slice(base.length).replace(/^\./, "");
    let text = e.message.slice(e.path.length + 2);
    const unknown = /^Unrecognized keys?: "([^"]+)"/.exec(text);
    if (unknown) {
      field = field ? `${field}.${unknown[1]}` : unknown[1]!;
      text = "unknown field";
    }
    throw new HttpError(400, field ? `${field}: ${text}` : text);
  }
}

/** Fields of a client's view that a read-modify-write sends back; they are not config and are ignored. */
const VIEW_ONLY_FIELDS = new Set(["id", "state", "last_error", "tools", "header_keys"]);

/** The fields that say where a client connects; changing them is a different client. */
const CONNECTION_FIELDS = ["connection_type", "connection_string", "stdio_config"] as const;

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Does `value` (from a PUT body) describe the connection field `field` of `current`? The client's
 * view is accepted as well as its config: the URL without its password, `env_keys` for `env`.
 */
function sameConnection(current: ClientConfig, field: (typeof CONNECTION_FIELDS)[number], value: unknown): boolean {
  switch (field) {
    case "connection_type":
      return value === current.connection_type;
    case "connection_string":
      if (current.connection_string === undefined) return value === null;
      return value === current.connection_string || value === withoutPassword(current.connection_string);
    case "stdio_config": {
      const stdio = current.stdio_config;
      if (!stdio) return value === null;
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      const given = value as Record<string, unknown>;
      if (Object.keys(given).some((k) => !["command", "args", "env", "env_keys", "cwd"].includes(k))) return false;
      const args = given.args ?? [];
      if (given.command !== stdio.command || !Array.isArray(args) || !sameStrings(args, stdio.args) || given.cwd !== stdio.cwd) return false;
      const names = Object.keys(stdio.env).sort();
      if (given.env !== undefined) {
        const env = given.env as Record<string, unknown>;
        if (typeof env !== "object" || env === null || !sameStrings(Object.keys(env).sort(), names)) return false;
        if (names.some((n) => env[n] !== stdio.env[n])) return false;
      }
      if (given.env_keys !== undefined && (!Array.isArray(given.env_keys) || !sameStrings([...given.env_keys].sort(), names))) return false;
      return true;
    }
  }
}

/**
 * The config a PUT asks for: the body's fields over the current config. A field left out keeps
 * its value, so both a partial update and a read-modify-write of the client's view work.
 */
function updatedClient(current: ClientConfig, body: Record<string, unknown>): ClientConfig {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(body)) {
    if (VIEW_ONLY_FIELDS.has(field)) continue;
    if ((CONNECTION_FIELDS as readonly string[]).includes(field)) {
      if (!sameConnection(current, field as (typeof CONNECTION_FIELDS)[number], value)) {
        throw new HttpError(
          400,
          `${field} cannot be changed: connection_type, connection_string and stdio_config are fixed when a client is added; ` +
            "delete the client and add it again",
        );
      }
      continue;
    }
    if (field === "client_id" && value !== idOf(current)) {
      throw new HttpError(400, `client_id cannot be changed (it is '${idOf(current)}')`);
    }
    next[field] = value;
  }
  return parseClientBody(next);
}

// ------------------------------------------------------------------ virtual keys

function keyView(key: VirtualKey) {
  return {
    id: key.id,
    name: key.name,
    value: key.value,
    ...(key.description !== undefined ? { description: key.description } : {}),
    is_active: key.is_active,
    mcp_configs: key.mcp_configs,
  };
}

/** The KeyRing's verdict as an HTTP error: 409 for a clash with another key, 400 otherwise. */
function keyError(e: unknown): unknown {
  if (e instanceof KeyConflictError) return new HttpError(409, e.message);
  if (e instanceof ConfigError) return new HttpError(400, e.message);
  return e;
}

function putKey(ring: KeyRing, key: VirtualKey): VirtualKey {
  try {
    return ring.put(key);
  } catch (e) {
    throw keyError(e);
  }
}

// ------------------------------------------------------------------ access

/** Compares secrets in a time that does not depend on where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
}

/**
 * Keeps virtual keys' grants with their client: a renamed client's grants follow it, a deleted
 * client's grants go, so that a later client of the same name inherits nothing.
 */
function regrant(keys: KeyRing, from: string, to: string | null): void {
  for (const key of keys.list()) {
    if (!key.mcp_configs.some((g) => g.client_name === from)) continue;
    // A stale grant already naming the new client (one no client had) gives way to the moved one.
    const kept = key.mcp_configs.filter((g) => g.client_name !== (to ?? from));
    const mcp_configs = to === null ? kept : kept.map((g) => (g.client_name === from ? { ...g, client_name: to } : g));
    keys.put({ ...key, mcp_configs });
  }
}

function presentsAdminToken(request: FastifyRequest, token: string): boolean {
  const bearer = /^Bearer\s+(\S+)$/i.exec(headerValue(request, "authorization") ?? "")?.[1];
  const header = headerValue(request, "x-admin-token");
  return (bearer !== undefined && sameSecret(bearer, token)) || (header !== undefined && sameSecret(header, token));
}

/** The route a request is for: its declared path (so `/api/x/../y` tricks nothing), else the URL's path for a 404. */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split("?")[0]!;
}

function isAdminRoute(route: string): boolean {
  return route === "/api" || route.startsWith("/api/") || route === "/metrics";
}

const callers = new WeakMap<FastifyRequest, Caller>();

/**
 * The caller of a request to a route outside `/api/*`, as buildServer's key check found it (for
 * mountMcp). Throws for a request that did not pass that check, so a route mounted elsewhere
 * fails closed rather than open.
 */
export function callerOf(request: FastifyRequest): Caller {
  const caller = callers.get(request);
  if (!caller) throw new Error(`${request.method} ${routeOf(request)} did not pass buildServer's virtual-key check`);
  return caller;
}

function refuse(reply: FastifyReply, realm: string, message: string): FastifyReply {
  return reply.code(401).header("www-authenticate", `Bearer realm="${realm}"`).send({ error: { message } });
}

const STDIO_REFUSED =
  "adding or editing a stdio client over the API needs the admin token, because a stdio client runs a command on this " +
  'machine as the gateway\'s user: set "server": {"admin_token": "env.ADMIN_TOKEN"} in config.json (and send it with ' +
  'each /api request), or, if every program that can reach this port may run commands, set "server": ' +
  '{"allow_unauthenticated_stdio": true}. Stdio clients listed in config.json are loaded either way.';

// ------------------------------------------------------------------ tool calls

interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** The call in either body shape, its arguments decoded; an empty string counts as no arguments. */
function toolCallOf(body: ToolCallBody): ToolCall {
  const [id, name, raw, where] =
    "function" in body ? [body.id, body.function.name, body.function.arguments, "function.arguments"] : [body.call_id, body.name, body.arguments, "arguments"];
  if (raw.trim() === "") return { id, name, args: {} };
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch (e) {
    throw new HttpError(400, `${where} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    const kind = args === null ? "null" : Array.isArray(args) ? "a list" : `a ${typeof args}`;
    throw new HttpError(400, `${where} must be a JSON object of named arguments (got ${kind})`);
  }
  return { id, name, args: args as Record<string, unknown> };
}

/**
 * What a failed call answers: 404 for a tool the caller cannot see (the same answer whether it
 * does not exist or is not granted, so a key learns nothing of what it cannot use), 502/504 when
 * the upstream failed.
 */
function callError(e: unknown, name: string): unknown {
  if (e instanceof UnknownToolError) return new HttpError(404, `unknown tool '${name}'`);
  if (e instanceof ToolNotGrantedError || e instanceof ToolDeniedError) return new HttpError(403, e.message);
  if (e instanceof UpstreamError) return new HttpError(e.kind === "timeout" ? 504 : 502, e.message);
  return e;
}

// ------------------------------------------------------------------ the server

export function buildServer(gateway: Gateway, options: ServerOptions = {}): FastifyInstance {
  const app = fastify({
    logger: options.logger ?? false,
    // Strict: no type coercion ("5" is not 5) and no silent removal of unknown fields.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, verbose: true } },
    schemaErrorFormatter: (errors, dataVar) => new HttpError(400, describeValidation(errors, dataVar)),
  });
  options.instrument?.(app);

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error(error);
    return reply.code(status).send({ error: { message: error.message } });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: { message: `no route ${request.method} ${request.url.split("?")[0]}` } }),
  );

  // First of all hooks: nothing answers a foreign page.
  registerHostCheck(app, options.hosts ?? new HostPolicy());
  registerJsonBodyParser(app);

  const keys = options.keys ?? new KeyRing();
  const log = options.log ?? new ExecLog();
  const adminToken = options.adminToken || undefined;
  // A stdio client runs a command as the gateway's user: only the operator may add one.
  const checkStdio = (config: ClientConfig) => {
    if (config.connection_type === "stdio" && adminToken === undefined && !options.allowUnauthenticatedStdio) throw new HttpError(403, STDIO_REFUSED);
  };

  // Open MCP sessions are told to list their tools again when a key's grants change.
  const keysChanged = () => gateway.emit("tools-changed");
  keys.on("change", keysChanged);
  const detachLog = log.attach(gateway);
  app.addHook("onClose", async () => {
    keys.off("change", keysChanged);
    detachLog();
  });

  const pageRoutes = registerWeb(app, gateway, keys);

  app.addHook("onRequest", async (request, reply) => {
    const route = routeOf(request);
    if (pageRoutes.has(route)) return;
    if (isAdminRoute(route)) {
      if (adminToken !== undefined && !presentsAdminToken(request, adminToken)) {
        return refuse(reply, "admin", "this route needs the admin token: send it as Authorization: Bearer <token> or in the x-admin-token header");
      }
      return;
    }
    const who = callerFromHeaders(request.headers, keys, { requireKey: options.requireKey });
    if (isRefusal(who)) return refuse(reply, "virtual key", who.error);
    callers.set(request, who);
  });

  app.get("/health", { schema: { response: { 200: healthResponse, ...errorResponses } } }, async (request) => {
    const caller = callerOf(request);
    // A key sees only the servers it has a grant on.
    const visible = gateway.manager.list().filter((c) => caller.grants === null || caller.grants.has(c.name));
    return { status: "ok" as const, servers: visible.map((c) => ({ name: c.name, state: c.state, tools: c.tools.length })) };
  });

  app.get("/api/config", { schema: { response: { 200: configResponse, ...errorResponses } } }, async () => configView(gateway.settings));

  app.put<{ Body: { client_config: ConfigFields } }>(
    "/api/config",
    { schema: { body: configUpdateBody, response: { 200: configResponse, ...errorResponses } } },
    async (request) => {
      // Applies to executions that start from now on; running ones keep the settings they began with.
      gateway.settings = settingsFromUpdate(gateway.settings, request.body.client_config);
      return configView(gateway.settings);
    },
  );

  app.get("/api/mcp/clients", { schema: { response: { 200: clientsResponse, ...errorResponses } } }, async () => ({
    clients: gateway.clientConfigs().map((config) => clientView(config, gateway.manager.get(config.name))),
  }));

  const view = (config: ClientConfig) => clientView(config, gateway.manager.get(config.name));
  const clientRoute = { 200: clientSchema, ...errorResponses } as const;

  // Client changes run one at a time: each checks names against the clients the previous left.
  let clientQueue: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const run = clientQueue.then(task, task);
    clientQueue = run.catch(() => undefined);
    return run;
  };

  app.post<{ Body: Record<string, unknown> }>(
    "/api/mcp/client",
    { schema: { body: clientBody, response: clientRoute } },
    async (request) =>
      serially(async () => {
        const config = parseClientBody(request.body);
        checkStdio(config);
        checkUnique(gateway, config);
        // Connecting starts now and is not waited for: the answer shows the state it is in.
        gateway.addClient(config);
        return view(config);
      }),
  );

  app.put<{ Params: { id: string }; Body: Record<string, unknown> }>(
    "/api/mcp/client/:id",
    { schema: { params: idParams, body: clientBody, response: clientRoute } },
    async (request) =>
      serially(async () => {
        const current = findClient(gateway, request.params.id);
        checkStdio(current);
        const next = updatedClient(current, request.body);
        checkUnique(gateway, next, current);
        await gateway.replaceClient(next, current.name);
        if (next.name !== current.name) regrant(keys, current.name, next.name);
        return view(next);
      }),
  );

  app.delete<{ Params: { id: string } }>(
    "/api/mcp/client/:id",
    { schema: { params: idParams, response: clientRoute } },
    async (request) =>
      serially(async () => {
        const config = findClient(gateway, request.params.id);
        // Waits until the connection is closed and a stdio child terminated.
        await gateway.removeClient(config.name);
        regrant(keys, config.name, null);
        return clientView(config, undefined);
      }),
  );

  app.post<{ Params: { id: string } }>(
    "/api/mcp/client/:id/reconnect",
    { schema: { params: idParams, response: clientRoute } },
    async (request) =>
      serially(async () => {
        const config = findClient(gateway, request.params.id);
        await gateway.replaceClient(config);
        return view(config);
      }),
  );

  // ---------------------------------------------------------------- virtual keys

  // Values are shown, as Bifrost shows them: whoever may call /api/* can already add a stdio
  // client that runs any command, so hiding them would protect nothing.
  const keyRoute = { 200: virtualKeyResponse, ...errorResponses } as const;
  const findKey = (id: string): VirtualKey => {
    const key = keys.get(id);
    if (!key) throw new HttpError(404, `no virtual key with id '${id}'`);
    return key;
  };

  app.get("/api/governance/virtual-keys", { schema: { response: { 200: virtualKeysResponse, ...errorResponses } } }, async () => {
    const all = keys.list().map(keyView);
    return { virtual_keys: all, count: all.length };
  });

  app.get<{ Params: { id: string } }>(
    "/api/governance/virtual-keys/:id",
    { schema: { params: idParams, response: keyRoute } },
    async (request) => ({ virtual_key: keyView(findKey(request.params.id)) }),
  );

  app.post<{ Body: Record<string, unknown> }>(
    "/api/governance/virtual-keys",
    { schema: { body: virtualKeyBody, response: keyRoute } },
    async (request) => {
      const raw = { ...request.body, value: request.body.value ?? generateKeyValue() };
      let key: VirtualKey;
      try {
        key = parseVirtualKey(raw);
      } catch (e) {
        throw keyError(e);
      }
      if (keys.get(key.id)) throw new HttpError(409, `a virtual key with id '${key.id}' already exists`);
      return { virtual_key: keyView(putKey(keys, key)) };
    },
  );

  app.put<{ Params: { id: string }; Body: Record<string, unknown> }>(
    "/api/governance/virtual-keys/:id",
    { schema: { params: idParams, body: virtualKeyBody, response: keyRoute } },
    async (request) => {
      const current = findKey(request.params.id);
      const { id } = request.body;
      if (id !== undefined && id !== current.id) throw new HttpError(400, `id cannot be changed (it is '${current.id}')`);
      // A field left out keeps its value.
      let key: VirtualKey;
      try {
        key = parseVirtualKey({ ...current, ...request.body, id: current.id });
      } catch (e) {
        throw keyError(e);
      }
      return { virtual_key: keyView(putKey(keys, key)) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/api/governance/virtual-keys/:id",
    { schema: { params: idParams, response: keyRoute } },
    async (request) => {
      const key = keys.delete(findKey(request.params.id).id)!;
      return { virtual_key: keyView(key) };
    },
  );

  // ---------------------------------------------------------------- execution log

  app.get<{ Querystring: { limit?: string; offset?: string; tool?: string; key?: string; outcome?: "ok" | "error" } }>(
    "/api/logs",
    { schema: { querystring: logsQuery, response: { 200: logsResponse, ...errorResponses } } },
    async (request) => {
      const { limit, offset, ...filters } = request.query;
      const query: LogQuery = { ...filters, limit: DEFAULT_PAGE_SIZE, offset: 0 };
      if (limit !== undefined) {
        query.limit = Number(limit);
        if (query.limit < 1 || query.limit > MAX_PAGE_SIZE) throw new HttpError(400, `querystring.limit must be from 1 to ${MAX_PAGE_SIZE} (got ${limit})`);
      }
      if (offset !== undefined) query.offset = Number(offset);
      return log.list(query);
    },
  );

  app.post<{ Body: ToolCallBody; Querystring: { format: "chat" | "responses" } }>(
    "/v1/mcp/tool/execute",
    {
      // The source of a script can be as large as max_source_bytes allows, and JSON escaping grows it.
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        querystring: {
          type: "object",
          properties: { format: { type: "string", enum: ["chat", "responses"], default: "chat" } },
          additionalProperties: false,
        },
        body: toolCallBody,
        response: { 200: toolMessageResponse, ...errorResponses },
      },
      schemaErrorFormatter: (errors, dataVar) => {
        const message = describeValidation(errors, dataVar);
        return new HttpError(400, dataVar === "body" ? `${message}; ${TOOL_CALL_SHAPES}` : message);
      },
    },
    async (request, reply) => {
      const call = toolCallOf(request.body);
      // A client that hangs up cancels the call (and, for a script, its execution).
      const controller = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) controller.abort(new Error("the HTTP client went away"));
      };
      reply.raw.on("close", onClose);
      let text: string;
      try {
        ({ text } = await gateway.callTool(call.name, call.args, callerOf(request), controller.signal));
      } catch (e) {
        throw callError(e, call.name);
      } finally {
        reply.raw.off("close", onClose);
      }
      // A tool's own error (isError) is still a tool message: the model reads it and carries on.
      return request.query.format === "responses"
        ? { type: "function_call_output" as const, call_id: call.id, output: text }
        : { role: "tool" as const, tool_call_id: call.id, content: text };
    },
  );

  registerAgentRoutes(app, gateway, callerOf, options);

  return app;
}
