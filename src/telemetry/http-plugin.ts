// Telemetry's part of the HTTP server: a span per request (SERVER kind), continuing the caller's
// W3C `traceparent`; and `GET /metrics` (buildServer counts it as an admin route: behind the
// admin token when one is set). Added first, so that a request refused by a later hook still has
// its span. No async context carries the span: the request's `traceparent` header is rewritten to
// name it, and the faces pass that on by hand (upstream/trace-context.ts), so that the executions
// and agent rounds it causes are parented under it and the upstream servers it reaches get it.
// Only the span's ids and sampling are chosen as the request comes in; the span is made once the
// answer is out (Tracing.endRequest), off the request's path.
import type { Attributes } from "@opentelemetry/api";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { traceContextOf } from "../upstream/trace-context.js";
import type { GatewayMetrics } from "./metrics.js";
import type { RequestEnd, RequestSpan, Tracing } from "./tracing.js";

export const METRICS_ROUTE = "/metrics";

/** Sets a header of the incoming request in both of Node's views of it (the MCP SDK reads `rawHeaders`). */
function setHeader(carrier: IncomingMessage, key: string, value: string): void {
  carrier.headers[key] = value;
  const raw = carrier.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]!.toLowerCase() === key) raw.splice(i, 2);
  raw.push(key, value);
}

/** The JSON-RPC method of an MCP request (`tools/call`…), when the body is one request. */
function mcpMethod(body: unknown): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const method = (body as { method?: unknown }).method;
  return typeof method === "string" ? method : undefined;
}

/**
 * A request's span as it ends with `status` (none: the caller went away first): named by its
 * route, and an MCP request by its JSON-RPC method, read from the body then (a hook of its own on
 * every request cost more than the naming).
 */
function ending(request: FastifyRequest, status: number | null): RequestEnd {
  const path = request.url.split("?")[0]!;
  const route = request.routeOptions.url;
  const attributes: Attributes = { "http.request.method": request.method, "url.path": path, ...(route ? { "http.route": route } : {}) };
  let name = `${request.method} ${route ?? path}`;
  const method = route === "/mcp" ? mcpMethod(request.body) : undefined;
  if (method !== undefined) {
    attributes["mcp.method.name"] = method;
    name = `${request.method} /mcp ${method}`;
  }
  if (status === null) return { name, attributes, error: "the client went away before the answer" };
  attributes["http.response.status_code"] = status;
  return status >= 500 ? { name, attributes, error: true } : { name, attributes };
}

export function instrumentServer(app: FastifyInstance, tracing: Tracing | null, metrics: GatewayMetrics | null): void {
  if (tracing !== null) traceRequests(app, tracing);
  if (metrics !== null) {
    app.get(METRICS_ROUTE, async (_request, reply) => {
      const { text, contentType } = await metrics.scrape();
      return reply.type(contentType).send(text);
    });
  }
}

function traceRequests(app: FastifyInstance, tracing: Tracing): void {
  const begun = new WeakMap<FastifyRequest, RequestSpan>();
  const end = (request: FastifyRequest, status: number | null) => {
    const span = begun.get(request);
    if (span === undefined) return;
    begun.delete(request);
    tracing.endRequest(span, performance.now(), () => ending(request, status));
  };
  app.addHook("onRequest", (request, reply, done) => {
    if (request.url === METRICS_ROUTE) return done();
    const span = tracing.beginRequest(traceContextOf(request.headers));
    // From here on the request's context is its span's: what the faces read and pass on.
    setHeader(request.raw, "traceparent", span.context.traceparent);
    begun.set(request, span);
    // A caller that goes away before the answer: no onResponse comes, the span ends here.
    reply.raw.once("close", () => {
      if (!reply.raw.writableFinished) end(request, null);
    });
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
}
