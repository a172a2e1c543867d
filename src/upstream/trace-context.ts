// A request's W3C trace context (the `traceparent` and `tracestate` headers) as plain strings,
// passed by hand from the face that received a request to the upstream calls it causes and to
// the events the gateway emits. Nothing keeps it in an async context: a context manager over
// AsyncLocalStorage hooks every promise in the process, which cost traced requests ~15 % of
// their latency (bench:telemetry). With telemetry on, the request's own span is the parent
// (src/telemetry rewrites the header to name it); with telemetry off, a caller's context is
// passed on unchanged, as the W3C rule asks of a hop that does not trace.

/** A W3C trace context: `traceparent` always, `tracestate` when the caller sent one. */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

/** `version-traceid-parentid-flags`, lower-case hex (version ff is invalid). */
const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

type HeaderValue = string | string[] | undefined;

function single(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The trace context in a header map (Node's lower-cased headers), or undefined without a valid traceparent. */
export function traceContextOf(headers: Readonly<Record<string, HeaderValue>> | undefined): TraceContext | undefined {
  const traceparent = single(headers?.traceparent)?.trim();
  if (traceparent === undefined || !TRACEPARENT.test(traceparent)) return undefined;
  const tracestate = single(headers?.tracestate);
  return tracestate === undefined || tracestate === "" ? { traceparent } : { traceparent, tracestate };
}

/**
 * A tools/call's JSON-RPC body carries its context in `params._meta.traceparent` (MCP's place
 * for it); this finds it there without parsing the body, for the headers of an HTTP request.
 */
const MARK = '"_meta":{"traceparent":"';
const IN_BODY = /"_meta":\{"traceparent":"([0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2})"(?:,"tracestate":"((?:[^"\\]|\\.)*)")?/y;

export function traceContextInBody(body: string): TraceContext | undefined {
  // The last one: the params' own `_meta` follows the arguments, which a script chose.
  const at = body.lastIndexOf(MARK);
  if (at < 0) return undefined;
  IN_BODY.lastIndex = at;
  const match = IN_BODY.exec(body);
  if (match === null) return undefined;
  const [, traceparent, tracestate] = match;
  return tracestate === undefined ? { traceparent: traceparent! } : { traceparent: traceparent!, tracestate: JSON.parse(`"${tracestate}"`) as string };
}
