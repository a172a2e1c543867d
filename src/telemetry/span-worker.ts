// The span thread: a worker thread that holds the OpenTelemetry SDK's tracer provider, makes the
// spans the gateway's thread describes (span-messages.ts) and exports them in batches (OTEL_BSP_*
// from the environment, which a worker shares). Making a span with the SDK and serializing it
// for OTLP cost a traced request some 80 µs of the gateway's event loop (bench:load); here they
// cost the event loop nothing, and a slow or unreachable collector holds up no request.
import { type Context, ROOT_CONTEXT, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { parentPort, workerData } from "node:worker_threads";
import { ChosenIds } from "./request-ids.js";
import { type FromSpanWorker, readBatch, type SpanRecord, type SpanWorkerData, type ToSpanWorker } from "./span-messages.js";
import { contextOf, samplerFor } from "./trace-parents.js";

const { serviceName, traces } = workerData as SpanWorkerData;
const port = parentPort!;
const ids = new ChosenIds();
const exporter = traces.protocol === "http/json" ? new JsonExporter({ url: traces.url }) : new ProtobufExporter({ url: traces.url });
// The gateway's thread samples a request's span with the same sampler as it begins (its ids and
// flags go on at once); this one decides alike for it, and for the spans under it.
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
  spanProcessors: [new BatchSpanProcessor(exporter)],
  sampler: samplerFor(traces.sampler),
  idGenerator: ids,
});
const tracer: Tracer = provider.getTracer("code-mode-gateway");

/** Makes the span of `record` under `parent`, then the spans inside it. */
function make(record: SpanRecord, parent: Context): void {
  const options = { kind: record.kind, startTime: record.start, attributes: record.attributes };
  const start = () => tracer.startSpan(record.name, options, parent);
  const span = record.ids === undefined ? start() : ids.as(record.ids.spanId, record.ids.traceId, start);
  const { error } = record;
  if (error !== undefined) span.setStatus(error === true ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message: error });
  if (record.children !== undefined) {
    const inside = trace.setSpan(parent, span);
    for (const child of record.children) make(child, inside);
  }
  span.end(record.end);
}

function answer(message: FromSpanWorker): void {
  port.postMessage(message);
}

async function settle(id: number, work: Promise<void>): Promise<void> {
  try {
    await work;
    answer({ kind: "done", id });
  } catch (e) {
    answer({ kind: "done", id, error: e instanceof Error ? e.message : String(e) });
  }
}

port.on("message", (message: ToSpanWorker) => {
  switch (message.kind) {
    case "spans":
      for (const tree of readBatch(message.batch)) make(tree.span, tree.parent === undefined ? ROOT_CONTEXT : contextOf(tree.parent));
      answer({ kind: "made", trees: message.batch.trees });
      return;
    case "flush":
      void settle(message.id, provider.forceFlush());
      return;
    case "shutdown":
      // The gateway's thread ends this one once it has the answer.
      void settle(message.id, provider.shutdown());
  }
});
