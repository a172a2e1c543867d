// Agent mode's routes (SPEC §7): POST /v1/chat/completions, /v1/responses and /v1/messages, whole
// or streamed, the HTTP side of src/agent's handlers. The caller's virtual key (x-bf-vk, or a
// prefixed Bearer or x-api-key value) decides which tools are offered and run; the provider is
// called with the gateway's own key from config.json, or with "passthrough" the caller's own.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { type AgentAnswer, type AgentExchange, type ChatBody, handleChat, handleMessages, handleResponses, type MessagesBody } from "../agent/handlers.js";
import type { ResponsesBody } from "../agent/responses.js";
import { responseSink } from "../agent/sse.js";
import type { ProviderConfig } from "../gateway/config-file.js";
import type { Gateway } from "../gateway/gateway.js";
import { callerKeysOf, callerOf } from "./auth.js";
import { anthropicErrorResponses, anyObject, chatBody, chatResponse, errorResponses, messagesBody, responsesBody } from "./schemas.js";

export interface AgentRouteOptions {
  gateway: Gateway;
  /** The providers (config.json's `providers`). */
  providers?: readonly ProviderConfig[];
}

export const agentRoutes: FastifyPluginAsync<AgentRouteOptions> = async (app, { gateway, providers = [] }) => {
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
  app.post<{ Body: ChatBody }>("/v1/chat/completions", { ...limits, schema: { body: chatBody, response: { 200: chatResponse, ...errorResponses } } }, (request, reply) =>
    serve(request, reply, (x) => handleChat(x, request.body)),
  );
  app.post<{ Body: ResponsesBody }>("/v1/responses", { ...limits, schema: { body: responsesBody, response: { 200: anyObject, ...errorResponses } } }, (request, reply) =>
    serve(request, reply, (x) => handleResponses(x, request.body)),
  );
  app.post<{ Body: MessagesBody }>("/v1/messages", { ...limits, schema: { body: messagesBody, response: { 200: anyObject, ...anthropicErrorResponses } } }, (request, reply) =>
    serve(request, reply, (x) => handleMessages(x, request.body)),
  );
};
