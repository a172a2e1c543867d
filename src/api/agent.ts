// POST /v1/chat/completions: agent mode (SPEC §7), the HTTP side of src/agent's loop. The
// caller's virtual key (Authorization or x-bf-vk) decides which tools are offered and run; the
// provider is called with the gateway's own key from config.json. Non-streaming only, for now.
import type { FastifyPluginAsync } from "fastify";
import { runAgent } from "../agent/loop.js";
import { type ChatMessage, chatCompletion, resolveModel } from "../agent/providers.js";
import type { ProviderConfig } from "../gateway/config-file.js";
import type { Gateway } from "../gateway/gateway.js";
import { callerOf } from "./auth.js";
import { HttpError } from "./errors.js";
import { chatBody, chatResponse, errorResponses } from "./schemas.js";

export interface AgentRouteOptions {
  gateway: Gateway;
  /** The OpenAI-compatible providers (config.json's `providers`). */
  providers?: readonly ProviderConfig[];
}

type ChatBody = { model: string; messages: ChatMessage[]; tools?: Record<string, unknown>[]; stream?: boolean; n?: number } & Record<string, unknown>;

export const agentRoutes: FastifyPluginAsync<AgentRouteOptions> = async (app, { gateway, providers = [] }) => {
  app.post<{ Body: ChatBody }>(
    "/v1/chat/completions",
    { bodyLimit: 16 * 1024 * 1024, schema: { body: chatBody, response: { 200: chatResponse, ...errorResponses } } },
    async (request, reply) => {
      const body = request.body;
      if (body.stream === true) throw new HttpError(400, "stream: true is not supported in agent mode yet; send \"stream\": false");
      if (body.n !== undefined && body.n !== 1) throw new HttpError(400, `n must be 1 in agent mode (got ${body.n})`);
      const caller = callerOf(request);
      const offered = new Set(gateway.listTools(caller).map((t) => t.name));
      for (const [i, tool] of (body.tools ?? []).entries()) {
        const name = (tool.function as { name?: unknown } | undefined)?.name;
        if (typeof name === "string" && offered.has(name)) throw new HttpError(400, `tools[${i}].function.name '${name}' is a gateway tool's name; rename your tool`);
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
};
