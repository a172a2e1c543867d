// Agent mode's routes (SPEC §7): POST /v1/chat/completions, /v1/responses and /v1/messages,
// whole or streamed (handlers.ts). The caller's virtual key (x-bf-vk, or a prefixed Bearer or
// x-api-key value) decides which tools are offered and run; the provider is called with the
// gateway's own key from config.json, or with "passthrough" the caller's own.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ProviderConfig } from "../gateway/config-file.js";
import type { Caller, Gateway } from "../gateway/gateway.js";
import { type AgentAnswer, type AgentExchange, callerKeysOf, type ChatBody, handleChat, handleMessages, handleResponses, type MessagesBody } from "./handlers.js";
import type { ResponsesBody } from "./responses.js";
import { responseSink } from "./sse.js";

export interface AgentRouteOptions {
  /** The OpenAI-compatible providers (config.json's `providers`). */
  providers?: readonly ProviderConfig[];
}

const chatBody = {
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

const errorSchema = {
  type: "object",
  properties: { error: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } },
  required: ["error"],
} as const;

// A chat completion passes through as the provider wrote it (with `approval_required` when calls wait).
const chatResponse = {
  200: { type: "object", properties: { choices: { type: "array" } }, required: ["choices"], additionalProperties: true },
  "4xx": errorSchema,
  "5xx": errorSchema,
} as const;

const responsesBody = {
  type: "object",
  properties: { model: { type: "string", minLength: 1 }, input: {}, stream: { type: "boolean" } },
  required: ["model"],
} as const;

const messagesBody = {
  type: "object",
  properties: {
    model: { type: "string", minLength: 1 },
    messages: { type: "array", minItems: 1, items: { type: "object", properties: { role: { type: "string" } }, required: ["role"] } },
    tools: { type: "array", items: { type: "object" } },
    stream: { type: "boolean" },
  },
  required: ["model", "messages"],
} as const;

const anyObject = { type: "object", additionalProperties: true } as const;
const anthropicErrorSchema = {
  type: "object",
  properties: { type: { type: "string" }, error: { type: "object", properties: { type: { type: "string" }, message: { type: "string" } }, required: ["message"] } },
  required: ["error"],
} as const;

export function registerAgentRoutes(
  app: FastifyInstance,
  gateway: Gateway,
  callerOf: (request: FastifyRequest) => Caller,
  options: AgentRouteOptions = {},
): void {
  const providers = options.providers ?? [];
  /** Runs a handler with the client's connection as its abort signal and its response as the stream. */
  const serve = async (request: FastifyRequest, reply: FastifyReply, handle: (x: AgentExchange) => Promise<AgentAnswer>) => {
    // A client that hangs up ends the loop: its scripts and the provider request are cancelled.
    const controller = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) controller.abort(new Error("the HTTP client went away"));
    };
    reply.raw.on("close", onClose);
    try {
      const sink = responseSink(reply.raw, () => reply.hijack());
      const answer = await handle({ gateway, caller: callerOf(request), providers, keys: callerKeysOf(request.headers), signal: controller.signal, sink });
      if ("streamed" in answer) return reply;
      return reply.code(answer.status).send(answer.body);
    } finally {
      reply.raw.off("close", onClose);
    }
  };
  const limits = { bodyLimit: 16 * 1024 * 1024 };
  app.post<{ Body: ChatBody }>("/v1/chat/completions", { ...limits, schema: { body: chatBody, response: chatResponse } }, (request, reply) =>
    serve(request, reply, (x) => handleChat(x, request.body)),
  );
  app.post<{ Body: ResponsesBody }>(
    "/v1/responses",
    { ...limits, schema: { body: responsesBody, response: { 200: anyObject, "4xx": errorSchema, "5xx": errorSchema } } },
    (request, reply) => serve(request, reply, (x) => handleResponses(x, request.body)),
  );
  app.post<{ Body: MessagesBody }>(
    "/v1/messages",
    { ...limits, schema: { body: messagesBody, response: { 200: anyObject, "4xx": anthropicErrorSchema, "5xx": anthropicErrorSchema } } },
    (request, reply) => serve(request, reply, (x) => handleMessages(x, request.body)),
  );
}
