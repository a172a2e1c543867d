// How the API answers an error: `{"error": {"message"}}` with the status the error carries, and a
// JSON 404 for a route that does not exist. The gateway's errors are typed, not HTTP; the
// functions here give each the status a route answers with, keeping its message.
import type { FastifyError } from "fastify";
import { ClientConflictError, ClientInputError, ClientNotFoundError } from "../gateway/client-changes.js";
import { ToolDeniedError, ToolNotGrantedError, UnknownToolError } from "../gateway/gateway.js";
import { KeyConflictError } from "../gateway/virtual-keys.js";
import { ConfigError } from "../upstream/config.js";
import { UpstreamError } from "../upstream/connection.js";
import { rootPlugin } from "./root-plugin.js";

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

/** The error handler and the 404 answer, for every route of the app. */
export const errorReplies = rootPlugin("error-replies", async (app) => {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error(error);
    return reply.code(status).send({ error: { message: error.message } });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: { message: `no route ${request.method} ${request.url.split("?")[0]}` } }),
  );
});

/** A refused client change: 400 for fields that are no valid config, 404 for no such client, 409 for a clash. */
export function clientChangeError(e: unknown): unknown {
  if (e instanceof ClientInputError) return new HttpError(400, e.message);
  if (e instanceof ClientNotFoundError) return new HttpError(404, e.message);
  if (e instanceof ClientConflictError) return new HttpError(409, e.message);
  return e;
}

/** The KeyRing's verdict: 409 for a clash with another key, 400 otherwise. */
export function keyError(e: unknown): unknown {
  if (e instanceof KeyConflictError) return new HttpError(409, e.message);
  if (e instanceof ConfigError) return new HttpError(400, e.message);
  return e;
}

/**
 * A failed tool call: 404 for a tool the caller cannot see (the same answer whether it does not
 * exist or is not granted, so a key learns nothing of what it cannot use), 403 for one refused,
 * 502/504 when the upstream failed.
 */
export function callError(e: unknown, name: string): unknown {
  if (e instanceof UnknownToolError) return new HttpError(404, `unknown tool '${name}'`);
  if (e instanceof ToolNotGrantedError || e instanceof ToolDeniedError) return new HttpError(403, e.message);
  if (e instanceof UpstreamError) return new HttpError(e.kind === "timeout" ? 504 : 502, e.message);
  return e;
}
