// POST /v1/mcp/tool/execute: one tool call, as a chat tool call or a Responses function_call,
// answered as the matching tool message (the path a human-approved script takes). The caller's
// virtual key decides what it may call; a tool's own error (isError) is still a tool message.
import type { FastifyPluginAsync } from "fastify";
import type { Gateway } from "../gateway/gateway.js";
import { callerOf } from "./auth.js";
import { callError, HttpError } from "./errors.js";
import { errorResponses, toolCallBody, toolCallQuery, toolMessageResponse } from "./schemas.js";
import type { ToolMessage } from "./types.js";
import { toolCallValidationError } from "./validation.js";

type ToolCallBody =
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { id: string; type?: "function"; function: { name: string; arguments: string } };

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

export const toolRoutes: FastifyPluginAsync<{ gateway: Gateway }> = async (app, { gateway }) => {
  app.post<{ Body: ToolCallBody; Querystring: { format: "chat" | "responses" }; Reply: ToolMessage }>(
    "/v1/mcp/tool/execute",
    {
      // The source of a script can be as large as max_source_bytes allows, and JSON escaping grows it.
      bodyLimit: 16 * 1024 * 1024,
      schema: { querystring: toolCallQuery, body: toolCallBody, response: { 200: toolMessageResponse, ...errorResponses } },
      schemaErrorFormatter: toolCallValidationError,
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
      return request.query.format === "responses"
        ? { type: "function_call_output" as const, call_id: call.id, output: text }
        : { role: "tool" as const, tool_call_id: call.id, content: text };
    },
  );
};
