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

/**
 * A batch of span trees as one flat array of strings and numbers, and the attribute keys it
 * names by index. The structured clone of a message costs per object and per property name: span
 * trees as objects cost the event loop about 4 µs a traced request to send, flat about 0.5 µs.
 */
export interface Batch {
  trees: number;
  keys: string[];
  flat: Flat;
}

type Flat = (string | number | boolean | null)[];

/** Writes span trees into a Batch, one at a time (encode), then hands it over (take). */
export class BatchWriter {
  private flat: Flat = [];
  private keys: string[] = [];
  private keyIndex = new Map<string, number>();
  private trees = 0;

  add(tree: SpanTree): void {
    this.flat.push(tree.parent?.traceparent ?? null, tree.parent?.tracestate ?? null);
    this.span(tree.span);
    this.trees++;
  }

  take(): Batch {
    const batch = { trees: this.trees, keys: this.keys, flat: this.flat };
    this.flat = [];
    this.keys = [];
    this.keyIndex = new Map();
    this.trees = 0;
    return batch;
  }

  private span(s: SpanRecord): void {
    const { flat } = this;
    flat.push(s.name, s.kind, s.start, s.end, s.error ?? null, s.ids?.spanId ?? null, s.ids?.traceId ?? null);
    const at = flat.length;
    flat.push(0);
    let n = 0;
    for (const key in s.attributes) {
      const value = s.attributes[key];
      // The SDK drops an attribute without a value; lists are not among these spans' attributes.
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") continue;
      flat.push(this.key(key), value);
      n++;
    }
    flat[at] = n;
    const children = s.children ?? [];
    flat.push(children.length);
    for (const child of children) this.span(child);
  }

  private key(key: string): number {
    let index = this.keyIndex.get(key);
    if (index === undefined) {
      index = this.keys.push(key) - 1;
      this.keyIndex.set(key, index);
    }
    return index;
  }
}

/** The span trees of a Batch, as they were added. */
export function readBatch({ trees, keys, flat }: Batch): SpanTree[] {
  let i = 0;
  const next = () => flat[i++]!;
  const span = (): SpanRecord => {
    const [name, kind, start, end, error, spanId, traceId] = [next(), next(), next(), next(), next(), next(), next()];
    const attributes: Attributes = {};
    for (let n = next() as number; n > 0; n--) {
      const key = keys[next() as number]!;
      attributes[key] = next() as string | number | boolean;
    }
    const record: SpanRecord = { name: name as string, kind: kind as Kind, start: start as number, end: end as number, attributes };
    if (error !== null) record.error = error as string | true;
    if (spanId !== null) record.ids = { spanId: spanId as string, traceId: traceId as string };
    const count = next() as number;
    if (count > 0) record.children = Array.from({ length: count }, span);
    return record;
  };
  const out: SpanTree[] = [];
  for (let t = 0; t < trees; t++) {
    const traceparent = next();
    const tracestate = next();
    const parent: TraceContext | undefined = traceparent === null ? undefined : tracestate === null ? { traceparent: traceparent as string } : { traceparent: traceparent as string, tracestate: tracestate as string };
    out.push({ parent, span: span() });
  }
  return out;
}

export type ToSpanWorker =
  | { kind: "spans"; batch: Batch }
  /** Export every span made so far; answered with `done` and the same id. */
  | { kind: "flush"; id: number }
  /** Export what is left and stop; answered with `done` and the same id. */
  | { kind: "shutdown"; id: number };

export type FromSpanWorker =
  /** A `spans` message was made into spans: that many trees are off the gateway's count. */
  | { kind: "made"; trees: number }
  | { kind: "done"; id: number; error?: string };
