// Telemetry's part of the HTTP server: a span per request (SERVER kind), continuing the caller's
// W3C `traceparent`; and `GET /metrics` (buildServer counts it as an admin route: behind the
// admin token when one is set). Added first, so that a request refused by a later hook still has
// its span. No async context carries the span: the request's `traceparent` header is rewritten to
// name it, and the faces pass that on by hand (upstream/trace-context.ts), so that the executions
// and agent rounds it causes are parented under it and the upstream servers it reaches get it.
import { propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { GatewayMetrics } from "./metrics.js";
import type { Tracing } from "./tracing.js";

export const METRICS_ROUTE = "/metrics";

/** Sets a header of the incoming request in both of Node's views of it (the MCP SDK reads `rawHeaders`). */
const headerSetter = {
  set: (carrier: IncomingMessage, key: string, value: string) => {
    carrier.headers[key] = value;
    const raw = carrier.rawHeaders;
    for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]!.toLowerCase() === key) raw.splice(i, 2);
    raw.push(key, value);
  },
};

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

/**
 * Names an MCP request's span by its JSON-RPC method (read from the body as the span ends: a hook
 * of its own on every request cost more than the naming).
 */
function named(span: Span, request: FastifyRequest): void {
  const method = request.routeOptions.url === "/mcp" ? mcpMethod(request.body) : undefined;
  if (method === undefined) return;
  span.setAttribute("mcp.method.name", method);
  span.updateName(`${request.method} /mcp ${method}`);
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
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook("onRequest", (request, reply, done) => {
    if (request.url === METRICS_ROUTE) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers, headerGetter);
    const path = request.url.split("?")[0]!;
    const route = request.routeOptions.url;
    const attributes = { "http.request.method": request.method, "url.path": path, ...(route ? { "http.route": route } : {}) };
    const span = tracing.tracer.startSpan(`${request.method} ${route ?? path}`, { kind: SpanKind.SERVER, startTime: tracing.wallClock(performance.now()), attributes }, parent);
    // From here on the request's context is its span's: what the faces read and pass on.
    propagation.inject(trace.setSpan(parent, span), request.raw, headerSetter);
    spans.set(request, span);
    // A caller that goes away before the answer: no onResponse comes, the span ends here.
    reply.raw.once("close", () => {
      if (reply.raw.writableFinished || !spans.has(request)) return;
      spans.delete(request);
      named(span, request);
      span.setStatus({ code: SpanStatusCode.ERROR, message: "the client went away before the answer" });
      span.end(tracing.wallClock(performance.now()));
    });
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    const span = spans.get(request);
    if (span !== undefined) {
      named(span, request);
      span.setAttribute("http.response.status_code", reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(tracing.wallClock(performance.now()));
      spans.delete(request);
    }
    done();
  });
}
