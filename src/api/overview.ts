// GET /api/overview?minutes=60: what the web UI's first page charts — executions per minute by
// outcome, p50/p95 durations, tool calls by server, the limits hit most (gateway/overview.ts,
// from the execution log) and each upstream server's state. Behind the admin token, as all of
// /api/* is (auth.ts).
import type { FastifyPluginAsync } from "fastify";
import type { ExecLog } from "../gateway/exec-log.js";
import type { Gateway } from "../gateway/gateway.js";
import { DEFAULT_OVERVIEW_MINUTES, MAX_OVERVIEW_MINUTES, readOverview } from "../gateway/overview.js";
import { HttpError } from "./errors.js";
import { errorResponses, overviewQuery, overviewResponse } from "./schemas.js";
import type { OverviewView } from "./types.js";

export const overviewRoutes: FastifyPluginAsync<{ gateway: Gateway; log: ExecLog }> = async (app, { gateway, log }) => {
  app.get<{ Querystring: { minutes?: string }; Reply: OverviewView }>(
    "/api/overview",
    { schema: { querystring: overviewQuery, response: { 200: overviewResponse, ...errorResponses } } },
    async (request) => {
      const minutes = request.query.minutes === undefined ? DEFAULT_OVERVIEW_MINUTES : Number(request.query.minutes);
      if (minutes < 1 || minutes > MAX_OVERVIEW_MINUTES) {
        throw new HttpError(400, `querystring.minutes must be from 1 to ${MAX_OVERVIEW_MINUTES} (got ${request.query.minutes})`);
      }
      const upstreams = gateway.manager.list().map((c) => ({ name: c.name, state: c.state, tools: c.tools.length, error: c.lastError }));
      return readOverview(log.store, upstreams, { minutes });
    },
  );
};
