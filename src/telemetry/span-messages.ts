// What the gateway's thread tells the span thread (span-worker.ts) and what it answers. The
// gateway's thread describes each finished span as plain data, its times and attributes already
// taken; the span thread makes the OpenTelemetry spans of them and exports them. Everything here
// is copied between the threads (structured clone): plain objects, strings and numbers only.
import type { Attributes } from "@opentelemetry/api";
import type { TraceContext } from "../upstream/trace-context.js";
import type { TracesSettings } from "./config.js";

/** The SpanKind values these spans use (@opentelemetry/api's numbering). */
export type Kind = 0 | 1 | 2;

/** A finished span and the spans inside it. */
export interface SpanRecord {
  name: string;
  kind: Kind;
  /** Wall-clock milliseconds. */
  start: number;
  end: number;
  attributes: Attributes;
  /** An error status's message, or true for one without a message; none for a span that went well. */
  error?: string | true;
  /** The ids chosen for it before it was made (a request's span: its work named it as parent). */
  ids?: { spanId: string; traceId: string };
  children?: SpanRecord[];
}

/** A span tree and the trace context it continues (none: a new trace). */
export interface SpanTree {
  parent: TraceContext | undefined;
  span: SpanRecord;
}

/** What the span thread starts with. */
export interface SpanWorkerData {
  serviceName: string;
  traces: TracesSettings;
}

export type ToSpanWorker =
  | { kind: "spans"; trees: SpanTree[] }
  /** Export every span made so far; answered with `done` and the same id. */
  | { kind: "flush"; id: number }
  /** Export what is left and stop; answered with `done` and the same id. */
  | { kind: "shutdown"; id: number };

export type FromSpanWorker =
  /** A `spans` message was made into spans: that many trees are off the gateway's count. */
  | { kind: "made"; trees: number }
  | { kind: "done"; id: number; error?: string };
