// The gateway's HTTP API (SPEC §6) in Bifrost's shapes: health, the settings in force
// (GET/PUT /api/config, hot-applied to the next execution), the upstream clients, and one tool
// call at a time (/v1/mcp/tool/execute, the path a human-approved script takes). Every route
// declares its schema; every error answers {"error": {"message"}}, naming the field at fault.
import {
  type FastifyError,
  type FastifyInstance,
  type FastifySchemaValidationError,
  fastify,
} from "fastify";
import { type Gateway, type GatewaySettings, UNRESTRICTED, UnknownToolError } from "../gateway/gateway.js";
import { LIMIT_FIELDS, type Limits, resolveLimits } from "../interpreter/budget.js";
import type { ClientConfig } from "../upstream/config.js";
import { type UpstreamConnection, UpstreamError } from "../upstream/connection.js";

export interface ServerOptions {
  logger?: boolean;
}

/** An error with the HTTP status it answers with. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
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

const clientsResponse = {
  type: "object",
  properties: {
    clients: {
      type: "array",
      items: {
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
      },
    },
  },
  required: ["clients"],
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

/** The client_config fields this gateway reads (all optional in a PUT). */
export interface ConfigFields {
  mcp_code_mode_limits?: Partial<Record<keyof Limits, number>>;
  mcp_tool_execution_timeout?: number;
  mcp_code_mode_binding_level?: "server" | "tool";
  mcp_agent_depth?: number;
  mcp_code_mode_instructions_limit?: number;
  mcp_direct_instructions_limit?: number;
}

type ConfigView = { client_config: Required<ConfigFields> & { mcp_code_mode_limits: Limits } };

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
    default:
      text = error.message ?? "is invalid";
  }
  // Ajv is run with `verbose`, so the offending value is at hand (not for `required` and the like).
  const data = (error as { data?: unknown }).data;
  if (["type", "enum", "const", "minimum"].includes(error.keyword) && data !== undefined) text += ` (got ${shown(data)})`;
  const where = dataVar === "body" ? path : [dataVar, ...path];
  return `${where.length ? where.join(".") : `the ${dataVar}`} ${text}`;
}

/** Turns resolveLimits' message, which starts with the limit's name, into one that names `path`. */
function limitError(path: string, field: string, e: unknown): HttpError {
  const message = e instanceof Error ? e.message : String(e);
  return new HttpError(400, message.startsWith(field) ? `${path}${message.slice(field.length)}` : `${path}: ${message}`);
}

// ------------------------------------------------------------------ settings <-> client_config

function configView(settings: GatewaySettings): ConfigView {
  const limits = Object.fromEntries(LIMIT_FIELDS.map((f) => [f, settings.limits[f]])) as unknown as Limits;
  return {
    client_config: {
      mcp_code_mode_limits: limits,
      mcp_tool_execution_timeout: settings.limits.tool_execution_timeout,
      mcp_code_mode_binding_level: settings.bindingLevel,
      mcp_agent_depth: settings.maxAgentDepth,
      mcp_code_mode_instructions_limit: settings.instructionsLimit,
      mcp_direct_instructions_limit: settings.directInstructionsLimit,
    },
  };
}

/**
 * The settings a PUT asks for, checked completely; throws HttpError(400) before anything changes.
 *
 * - `mcp_code_mode_limits` omitted: the current limits stay. Given: it replaces them, and each limit
 *   it leaves out (or sets to 0) takes its DEFAULT, not its current value; so `{}` resets them all.
 *   This is Bifrost's rule ("an omitted field, or 0, uses its default").
 * - The execution timeout is Bifrost's separate `mcp_tool_execution_timeout`, mirrored as
 *   `mcp_code_mode_limits.tool_execution_timeout`; it changes only when one of the two is given
 *   (so `{}` leaves it alone, as in Bifrost). When both are given and differ, the one that differs
 *   from the current value is the edit (a read-modify-write of the whole object changes only
 *   one); when both differ from it, the request is ambiguous and refused.
 */
export function settingsFromUpdate(current: GatewaySettings, update: ConfigFields): GatewaySettings {
  const at = "client_config";
  let limits = current.limits;
  let limitsTimeout: number | undefined;
  if (update.mcp_code_mode_limits !== undefined) {
    const given = update.mcp_code_mode_limits;
    for (const [field, value] of Object.entries(given)) {
      try {
        resolveLimits({ [field]: value });
      } catch (e) {
        throw limitError(`${at}.mcp_code_mode_limits.${field}`, field, e);
      }
    }
    const resolved = resolveLimits(given);
    if (given.tool_execution_timeout !== undefined) limitsTimeout = resolved.tool_execution_timeout;
    limits = { ...resolved, tool_execution_timeout: current.limits.tool_execution_timeout };
  }
  let topTimeout: number | undefined;
  if (update.mcp_tool_execution_timeout !== undefined) {
    try {
      topTimeout = resolveLimits({ tool_execution_timeout: update.mcp_tool_execution_timeout }).tool_execution_timeout;
    } catch (e) {
      throw limitError(`${at}.mcp_tool_execution_timeout`, "tool_execution_timeout", e);
    }
  }
  const timeout = chooseTimeout(current.limits.tool_execution_timeout, topTimeout, limitsTimeout);
  return {
    ...current,
    limits: { ...limits, tool_execution_timeout: timeout },
    bindingLevel: update.mcp_code_mode_binding_level ?? current.bindingLevel,
    maxAgentDepth: update.mcp_agent_depth ?? current.maxAgentDepth,
    instructionsLimit: update.mcp_code_mode_instructions_limit ?? current.instructionsLimit,
    directInstructionsLimit: update.mcp_direct_instructions_limit ?? current.directInstructionsLimit,
  };
}

function chooseTimeout(current: number, top: number | undefined, inLimits: number | undefined): number {
  if (top === undefined) return inLimits ?? current;
  if (inLimits === undefined || inLimits === top) return top;
  if (top === current) return inLimits;
  if (inLimits === current) return top;
  throw new HttpError(
    400,
    `client_config.mcp_tool_execution_timeout (${top}) and client_config.mcp_code_mode_limits.tool_execution_timeout (${inLimits}) ` +
      "are the same setting and disagree; give one of them",
  );
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

/** What a failed call answers: 404 for a tool the caller cannot see, 502/504 when the upstream failed. */
function callError(e: unknown): unknown {
  if (e instanceof UnknownToolError) return new HttpError(404, e.message);
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

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error(error);
    return reply.code(status).send({ error: { message: error.message } });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: { message: `no route ${request.method} ${request.url.split("?")[0]}` } }),
  );

  app.get("/health", { schema: { response: { 200: healthResponse } } }, async () => ({
    status: "ok" as const,
    servers: gateway.manager.list().map((c) => ({ name: c.name, state: c.state, tools: c.tools.length })),
  }));

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
        ({ text } = await gateway.callTool(call.name, call.args, UNRESTRICTED, controller.signal));
      } catch (e) {
        throw callError(e);
      } finally {
        reply.raw.off("close", onClose);
      }
      // A tool's own error (isError) is still a tool message: the model reads it and carries on.
      return request.query.format === "responses"
        ? { type: "function_call_output" as const, call_id: call.id, output: text }
        : { role: "tool" as const, tool_call_id: call.id, content: text };
    },
  );

  return app;
}
