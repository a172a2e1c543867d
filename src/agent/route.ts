// POST /v1/chat/completions: agent mode (SPEC §7). The caller's virtual key (Authorization or
// x-bf-vk) decides which tools are offered and run; the provider is called with the gateway's own
// key from config.json. Non-streaming only, for now.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ProviderConfig } from "../gateway/config-file.js";
import type { Caller, Gateway } from "../gateway/gateway.js";
import { runAgent } from "./loop.js";
import { type ChatMessage, chatCompletion, resolveModel } from "./providers.js";

export interface AgentRouteOptions {
  /** The OpenAI-compatible providers (config.json's `providers`). */
  providers?: readonly ProviderConfig[];
}

class AgentRequestError extends Error {
  readonly statusCode = 400;
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

type ChatBody = { model: string; messages: ChatMessage[]; tools?: Record<string, unknown>[]; stream?: boolean; n?: number } & Record<string, unknown>;

export function registerAgentRoutes(
  app: FastifyInstance,
  gateway: Gateway,
  callerOf: (request: FastifyRequest) => Caller,
  options: AgentRouteOptions = {},
): void {
  const providers = options.providers ?? [];
  app.post<{ Body: ChatBody }>(
    "/v1/chat/completions",
    { bodyLimit: 16 * 1024 * 1024, schema: { body: chatBody, response: chatResponse } },
    async (request, reply) => {
      const body = request.body;
      if (body.stream === true) throw new AgentRequestError("stream: true is not supported in agent mode yet; send \"stream\": false");
      if (body.n !== undefined && body.n !== 1) throw new AgentRequestError(`n must be 1 in agent mode (got ${body.n})`);
      const caller = callerOf(request);
      const offered = new Set(gateway.listTools(caller).map((t) => t.name));
      for (const [i, tool] of (body.tools ?? []).entries()) {
        const name = (tool.function as { name?: unknown } | undefined)?.name;
        if (typeof name === "string" && offered.has(name)) throw new AgentRequestError(`tools[${i}].function.name '${name}' is a gateway tool's name; rename your tool`);
      }
      const { provider, model } = resolveModel(providers, body.model);
      // A client that hangs up ends the loop: no further provider calls or tools.
      const controller = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) controller.abort(new Error("the HTTP client went away"));
      };
      reply.raw.on("close", onClose);
      try {
        const { model: _, ...rest } = body;
        return await runAgent({
          gateway,
          caller,
          body: rest,
          complete: (round) => chatCompletion(provider, { ...round, model }, controller.signal),
          signal: controller.signal,
        });
      } finally {
        reply.raw.off("close", onClose);
      }
    },
  );
}
