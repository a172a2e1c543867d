// Telemetry's part of the HTTP server: a span per request (SERVER kind), continuing the caller's
// W3C `traceparent`, made the active context while the route runs, so that the executions and
// agent rounds it causes are parented under it and the upstream HTTP servers it reaches are sent
// it; and `GET /metrics` (buildServer counts it as an admin route: behind the admin token when
// one is set). Added first, so that a request refused by a later hook still has its span.
import { type Context, context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { GatewayMetrics } from "./metrics.js";
import type { Tracing } from "./tracing.js";

export const METRICS_ROUTE = "/metrics";

const headerGetter = {
  keys: (carrier: FastifyRequest["headers"]) => Object.keys(carrier),
  get: (carrier: FastifyRequest["headers"], key: string) => carrier[key],
};

/** The JSON-RPC method of an MCP request (`tools/call`…), when the body is one request. */
function mcpMethod(body: unknown): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const method = (body as { method?: unknown }).method;
  return typeof method === "string" ? method : undefined;
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
  const spans = new WeakMap<FastifyRequest, { span: Span; inside: Context }>();
  app.addHook("onRequest", (request, reply, done) => {
    if (request.url === METRICS_ROUTE) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers, headerGetter);
    const path = request.url.split("?")[0]!;
    const route = request.routeOptions.url;
    const attributes = { "http.request.method": request.method, "url.path": path, ...(route ? { "http.route": route } : {}) };
    const span = tracing.tracer.startSpan(`${request.method} ${route ?? path}`, { kind: SpanKind.SERVER, startTime: tracing.wallClock(performance.now()), attributes }, parent);
    const inside = trace.setSpan(parent, span);
    spans.set(request, { span, inside });
    // A caller that goes away before the answer: no onResponse comes, the span ends here.
    reply.raw.once("close", () => {
      if (reply.raw.writableFinished || !spans.has(request)) return;
      spans.delete(request);
      span.setStatus({ code: SpanStatusCode.ERROR, message: "the client went away before the answer" });
      span.end(tracing.wallClock(performance.now()));
    });
    context.with(inside, done);
  });
  // The body is read between onRequest and preHandler, outside that context: the route runs in it again.
  app.addHook("preHandler", (request, _reply, done) => {
    const entry = spans.get(request);
    if (entry === undefined) return done();
    const method = request.routeOptions.url === "/mcp" ? mcpMethod(request.body) : undefined;
    if (method !== undefined) {
      entry.span.setAttribute("mcp.method.name", method);
      entry.span.updateName(`${request.method} /mcp ${method}`);
    }
    context.with(entry.inside, done);
  });
  app.addHook("onResponse", (request, reply, done) => {
    const entry = spans.get(request);
    if (entry !== undefined) {
      entry.span.setAttribute("http.response.status_code", reply.statusCode);
      if (reply.statusCode >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR });
      entry.span.end(tracing.wallClock(performance.now()));
      spans.delete(request);
    }
    done();
  });
}
