// GET /health: the gateway answers, the state of each upstream server the caller has a grant on,
// and (from openGateway) its store's: a load balancer in front of several instances reads it.
import type { FastifyPluginAsync } from "fastify";
import type { Gateway } from "../gateway/gateway.js";
import { callerOf } from "./auth.js";
import { errorResponses, healthResponse } from "./schemas.js";
import type { HealthView, StoreHealth } from "./types.js";

export const healthRoutes: FastifyPluginAsync<{ gateway: Gateway; store?: () => StoreHealth }> = async (app, { gateway, store }) => {
  app.get<{ Reply: HealthView }>("/health", { schema: { response: { 200: healthResponse, ...errorResponses } } }, async (request) => {
    const caller = callerOf(request);
    // A key sees only the servers it has a grant on.
    const visible = gateway.manager.list().filter((c) => caller.grants === null || caller.grants.has(c.name));
    const servers = visible.map((c) => ({ name: c.name, state: c.state, tools: c.tools.length }));
    return { status: "ok" as const, servers, ...(store ? { store: store() } : {}) };
  });
};
