// Every route's JSON schema, in one place: what each route takes and answers (the shapes types.ts
// names for TypeScript). Fastify validates requests with these (strictly: no coercion, no silent
// removal of unknown fields; validation.ts words the refusals) and serializes answers by them.
import { META_TOOL_NAMES } from "../codemode/meta-tools.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../gateway/exec-log.js";
import { DEFAULT_OVERVIEW_MINUTES, MAX_OVERVIEW_MINUTES } from "../gateway/overview.js";
import { LIMIT_FIELDS } from "../interpreter/index.js";
import { WHOLE_NUMBER } from "./validation.js";

// ---------------------------------------------------------------- shared

export const errorSchema = {
  type: "object",
  properties: { error: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } },
  required: ["error"],
} as const;

/** Every route answers its errors in one shape. */
export const errorResponses = { "4xx": errorSchema, "5xx": errorSchema } as const;

const stringList = { type: "array", items: { type: "string" } } as const;

const nonEmpty = { type: "string", minLength: 1 } as const;

const serverStates = ["connecting", "connected", "reconnecting", "disabled", "closed"];

/** `/{id}` of a client or a key. */
export const idParams = {
  type: "object",
  properties: { id: { type: "string", minLength: 1 } },
  required: ["id"],
} as const;

// ---------------------------------------------------------------- health

export const healthResponse = {
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
    store: {
      type: "object",
      properties: {
        type: { type: "string", enum: ["sqlite", "postgres"] },
        listening: { type: "boolean", description: "PostgreSQL: whether the other instances' changes are heard now (false while reconnecting)" },
      },
      required: ["type"],
    },
  },
  required: ["status", "servers"],
} as const;

// ---------------------------------------------------------------- settings

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

export const configResponse = {
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
export const configUpdateBody = {
  type: "object",
  properties: { client_config: { type: "object", properties: clientConfigFields } },
  required: ["client_config"],
} as const;

// ---------------------------------------------------------------- clients

/** A client as the API shows it (GET /api/mcp/clients and every client route). */
export const clientSchema = {
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

export const clientsResponse = {
  type: "object",
  properties: { clients: { type: "array", items: clientSchema } },
  required: ["clients"],
} as const;

// A client config is checked by the gateway (parseClientConfig, SPEC §5), so that the API and the
// config file refuse the same things with the same messages; the schema only insists on an object.
export const clientBody = {
  type: "object",
  description:
    "a client config: name, connection_type, connection_string | stdio_config {command, args, env, cwd}, headers, " +
    "tools_to_execute, tools_to_auto_execute, is_code_mode_client, disabled, validate_arguments, client_id",
} as const;

// ---------------------------------------------------------------- virtual keys

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

export const virtualKeyResponse = {
  type: "object",
  properties: { virtual_key: virtualKeySchema },
  required: ["virtual_key"],
} as const;

export const virtualKeysResponse = {
  type: "object",
  properties: { virtual_keys: { type: "array", items: virtualKeySchema }, count: { type: "integer" } },
  required: ["virtual_keys", "count"],
} as const;

// Checked by parseVirtualKey, for the same reason as a client config.
export const virtualKeyBody = {
  type: "object",
  description:
    "a virtual key: name, value (generated when omitted), id (defaults to the name), description, is_active, " +
    "mcp_configs [{client_name, tools_to_execute}]",
} as const;

// ---------------------------------------------------------------- execution log

const wholeNumber = { type: "string", pattern: WHOLE_NUMBER } as const;

export const logsQuery = {
  type: "object",
  properties: {
    limit: { ...wholeNumber, description: `entries per page, 1-${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` },
    offset: { ...wholeNumber, description: "entries to skip (default 0)" },
    tool: { type: "string", description: "only runs that called this tool (server.tool, or a tool name)" },
    key: { type: "string", description: "only runs by this virtual key (its name; '-' for no key)" },
    outcome: { type: "string", enum: ["ok", "error"] },
  },
  additionalProperties: false,
} as const;

export const logsResponse = {
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

// ---------------------------------------------------------------- overview

export const overviewQuery = {
  type: "object",
  properties: { minutes: { ...wholeNumber, description: `the window, 1-${MAX_OVERVIEW_MINUTES} minutes up to now (default ${DEFAULT_OVERVIEW_MINUTES})` } },
  additionalProperties: false,
} as const;

const seconds = { type: "number", nullable: true, description: "seconds; null without executions" } as const;
const counted = (name: string) => ({ type: "object", properties: { [name]: { type: "string" }, count: { type: "integer" } }, required: [name, "count"] }) as const;

export const overviewResponse = {
  type: "object",
  properties: {
    minutes: { type: "integer" },
    since: { type: "string", description: "the start of the first minute (ISO, UTC)" },
    now: { type: "string" },
    executions: { type: "integer" },
    outcomes: { type: "array", items: counted("outcome"), description: "ok, error, timeout, cancelled, then each limit hit (max_steps_limit, ...)" },
    per_minute: {
      type: "array",
      items: {
        type: "object",
        properties: {
          minute: { type: "string" },
          counts: { type: "object", additionalProperties: { type: "integer" }, description: "executions by outcome" },
          p50_seconds: seconds,
          p95_seconds: seconds,
        },
        required: ["minute", "counts", "p50_seconds", "p95_seconds"],
      },
    },
    duration: { type: "object", properties: { p50_seconds: seconds, p95_seconds: seconds }, required: ["p50_seconds", "p95_seconds"] },
    limits: { type: "array", items: counted("limit") },
    servers: {
      type: "array",
      items: {
        type: "object",
        properties: {
          server: { type: "string" },
          calls: { type: "integer" },
          failures: { type: "integer" },
          error_rate: { type: "number", description: "failures / calls" },
          mean_seconds: { type: "number" },
        },
        required: ["server", "calls", "failures", "error_rate", "mean_seconds"],
      },
    },
    upstreams: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, state: { type: "string", enum: serverStates }, tools: { type: "integer" }, error: { type: "string", nullable: true } },
        required: ["name", "state", "tools", "error"],
      },
    },
  },
  required: ["minutes", "since", "now", "executions", "outcomes", "per_minute", "duration", "limits", "servers", "upstreams"],
} as const;

// ---------------------------------------------------------------- one tool call

export const toolCallQuery = {
  type: "object",
  properties: { format: { type: "string", enum: ["chat", "responses"], default: "chat" } },
  additionalProperties: false,
} as const;

// The body's own `type` says which shape it is; the `format` query parameter picks the answer's.
export const toolCallBody = {
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

export const toolMessageResponse = {
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

// ---------------------------------------------------------------- agent mode

export const chatBody = {
  type: "object",
  properties: {
    model: { type: "string", minLength: 1, description: "<provider>/<model>, or a bare model for the first provider" },
    messages: { type: "array", minItems: 1, items: { type: "object", properties: { role: { type: "string" } }, required: ["role"] } },
    tools: { type: "array", items: { type: "object" } },
    stream: { type: "boolean" },
    n: { type: "integer" },
  },
  required: ["model", "messages"],
} as const;

// A chat completion passes through as the provider wrote it (with `approval_required` when calls wait).
export const chatResponse = {
  type: "object",
  properties: { choices: { type: "array" } },
  required: ["choices"],
  additionalProperties: true,
} as const;

export const responsesBody = {
  type: "object",
  properties: { model: { type: "string", minLength: 1 }, input: {}, stream: { type: "boolean" } },
  required: ["model"],
} as const;

export const messagesBody = {
  type: "object",
  properties: {
    model: { type: "string", minLength: 1 },
    messages: { type: "array", minItems: 1, items: { type: "object", properties: { role: { type: "string" } }, required: ["role"] } },
    tools: { type: "array", items: { type: "object" } },
    stream: { type: "boolean" },
  },
  required: ["model", "messages"],
} as const;

/** A Responses or Messages answer, passed on as the loop made it. */
export const anyObject = { type: "object", additionalProperties: true } as const;

/** /v1/messages answers its errors in Anthropic's shape, which its SDK reads. */
const anthropicErrorSchema = {
  type: "object",
  properties: { type: { type: "string" }, error: { type: "object", properties: { type: { type: "string" }, message: { type: "string" } }, required: ["message"] } },
  required: ["error"],
} as const;
export const anthropicErrorResponses = { "4xx": anthropicErrorSchema, "5xx": anthropicErrorSchema } as const;

// ---------------------------------------------------------------- the web UI's routes

const keyField = { type: "string", description: "a virtual key's id; none for an unrestricted caller" } as const;

export const playgroundQuery = {
  type: "object",
  properties: { key: keyField },
  additionalProperties: false,
} as const;

export const playgroundCallBody = {
  type: "object",
  properties: {
    key: keyField,
    tool: { type: "string", enum: [...META_TOOL_NAMES] },
    arguments: { type: "object" },
  },
  required: ["tool"],
  additionalProperties: false,
} as const;

export const configCheckBody = {
  type: "object",
  properties: { client_config: { type: "object" } },
  required: ["client_config"],
} as const;
