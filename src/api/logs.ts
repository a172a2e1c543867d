// The execution log (SPEC §6): GET /api/logs pages the executions, newest first, filtered by
// tool, key and outcome; each entry says who ran what and how it went, never code or arguments.
import type { FastifyPluginAsync } from "fastify";
import { DEFAULT_PAGE_SIZE, type ExecLog, type LogQuery, MAX_PAGE_SIZE } from "../gateway/exec-log.js";
import type { Gateway } from "../gateway/gateway.js";
import { HttpError } from "./errors.js";
import { errorResponses, logsQuery, logsResponse } from "./schemas.js";
import type { LogsPage } from "./types.js";

type LogsQuerystring = { limit?: string; offset?: string; tool?: string; key?: string; outcome?: "ok" | "error" };

/** The query a request's parameters ask for (strings by the schema), its page size in range. */
function queryOf(params: LogsQuerystring): LogQuery {
  const { limit, offset, ...filters } = params;
  const query: LogQuery = { ...filters, limit: DEFAULT_PAGE_SIZE, offset: 0 };
  if (limit !== undefined) {
    query.limit = Number(limit);
    if (query.limit < 1 || query.limit > MAX_PAGE_SIZE) throw new HttpError(400, `querystring.limit must be from 1 to ${MAX_PAGE_SIZE} (got ${limit})`);
  }
  if (offset !== undefined) query.offset = Number(offset);
  return query;
}

export const logRoutes: FastifyPluginAsync<{ gateway: Gateway; log: ExecLog }> = async (app, { gateway, log }) => {
  const detach = log.attach(gateway);
  app.addHook("onClose", async () => detach());

  app.get<{ Querystring: LogsQuerystring; Reply: LogsPage }>(
    "/api/logs",
    { schema: { querystring: logsQuery, response: { 200: logsResponse, ...errorResponses } } },
    async (request) => log.list(queryOf(request.query)),
  );
};
