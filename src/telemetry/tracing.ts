// Traces (OpenTelemetry): a span per execution with one child per nested tool call, and a span
// per agent round with its provider request, built from what the gateway reports when they end.
// The interpreter knows nothing of tracing; its result says when each call began and how long it
// took, and a span can be given its times and its parent, so the tree is made afterwards at no
// cost to the script. The parent is the trace context the event carries (the HTTP request's
// span, see http-plugin.ts, which continues a caller's `traceparent`). No context manager is
// registered: over AsyncLocalStorage it would hook every promise of the process.
import {
  type Attributes,
  type Context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SamplingDecision,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-node";
import type { AgentRoundEvent } from "../agent/loop.js";
import type { ExecutionEvent } from "../gateway/exec-log.js";
import type { Gateway } from "../gateway/gateway.js";
import type { TraceContext } from "../upstream/trace-context.js";
import type { SamplerSettings, TelemetrySettings, TracesSettings } from "./config.js";
import { executionOutcome, toolCallErrorType, toolCallOutcome } from "./outcomes.js";
import { ChosenIds, newSpanId, newTraceId } from "./request-ids.js";

/** A payload put on a span (only with record_payloads) is cut to this many characters. */
const MAX_PAYLOAD_CHARS = 8192;

function clip(text: string): string {
  return text.length > MAX_PAYLOAD_CHARS ? `${text.slice(0, MAX_PAYLOAD_CHARS - 3)}...` : text;
}

function json(value: unknown): string {
  try {
    return clip(JSON.stringify(value) ?? "null");
  } catch (e) {
    return `<not JSON: ${(e as Error).message}>`;
  }
}

/**
 * The W3C propagator is the process's (the API has one): the first tracer provider registers it,
 * and it outlives that provider. Another provider made later in the same process (a test's second
 * gateway) uses it as it is.
 */
let registered = false;

/** The SDK's sampler for OTEL_TRACES_SAMPLER's value (config.ts has read and checked it). */
function samplerFor({ name, ratio }: SamplerSettings): Sampler {
  const root = name.endsWith("always_off") ? new AlwaysOffSampler() : name.endsWith("traceidratio") ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler();
  return name.startsWith("parentbased_") ? new ParentBasedSampler({ root }) : root;
}

/**
 * An HTTP request's span from its start (Tracing.beginRequest) to its making once the answer is
 * out (endRequest): its ids, drawn at once, and whether it is sampled, decided at once.
 */
export interface RequestSpan {
  /** performance.now() when the request came in. */
  readonly started: number;
  /** The caller's trace context, when it sent a valid one. */
  readonly parent: TraceContext | undefined;
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  /** The context of the request's own span: what its work passes on (a caller's tracestate kept). */
  readonly context: TraceContext;
}

/** How a request's span ends, read once its answer is out. */
export interface RequestEnd {
  name: string;
  attributes: Attributes;
  /** An error status's message, or true for one without a message; none for a request that went well. */
  error?: string | true;
}

/** The context a span continues: the event's trace context, or none (a new trace). */
function parentOf(carrier: TraceContext | undefined): Context {
  return carrier === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, carrier);
}

export class Tracing {
  private readonly provider: NodeTracerProvider;
  readonly tracer: Tracer;
  /**
   * Wall-clock milliseconds minus performance.now(), fixed once: every span's times go through
   * it, so a child always lies inside its parent (the SDK anchors each span to the wall clock on
   * its own, which puts spans made a moment apart up to a millisecond out of line).
   */
  private readonly clockOffset = Date.now() - performance.now();
  /** Whether the sampler follows a parent's decision (the default): then an unsampled request's work makes no spans. */
  private readonly parentBased: boolean;
  /** Resolves once the spans deferred so far are made (later()). */
  private deferred: Promise<void> = Promise.resolve();
  private readonly ids = new ChosenIds();
  /** The provider's sampler too: a request's span is sampled as it begins, before the SDK makes it. */
  private readonly sampler: Sampler;

  constructor(
    private readonly settings: TelemetrySettings,
    traces: TracesSettings,
  ) {
    const exporter = traces.protocol === "http/json" ? new JsonExporter({ url: traces.url }) : new ProtobufExporter({ url: traces.url });
    this.sampler = samplerFor(traces.sampler);
    this.parentBased = traces.sampler.name.startsWith("parentbased_");
    // The batch's sizes and delays (OTEL_BSP_*) come from the environment.
    this.provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
      spanProcessors: [new BatchSpanProcessor(exporter)],
      sampler: this.sampler,
      idGenerator: this.ids,
    });
    if (!registered) {
      this.provider.register({ contextManager: null });
      registered = true;
    }
    this.tracer = this.provider.getTracer("code-mode-gateway");
  }

  /** A performance.now() time as the wall-clock milliseconds spans are given. */
  wallClock(at: number): number {
    return this.clockOffset + at;
  }

  /**
   * Follows the gateway's executions and agent rounds; returns the function that stops. Their
   * spans are made once the answer they would hold up is sent (in a timer: the answer waits for
   * the execution log's write, a turn later): the times are taken at once, so the spans are the same.
   */
  attach(gateway: Gateway): () => void {
    const onExecution = (event: ExecutionEvent) => {
      if (this.dropped(event.trace)) return;
      const ended = performance.now();
      this.later(() => this.execution(event, ended, parentOf(event.trace)));
    };
    const onRound = (event: AgentRoundEvent) => {
      if (!this.dropped(event.trace)) this.later(() => this.agentRound(event, parentOf(event.trace)));
    };
    gateway.on("execution", onExecution);
    gateway.on("agent-round", onRound);
    return () => {
      gateway.off("execution", onExecution);
      gateway.off("agent-round", onRound);
    };
  }

  /**
   * A request coming in, continuing `incoming` (a caller's context, when it sent one): its span's
   * ids and sampling, decided now, as the SDK would decide them (the same sampler, given the same
   * parent and trace id); the span itself is made by endRequest.
   */
  beginRequest(incoming: TraceContext | undefined): RequestSpan {
    const started = performance.now();
    const parentContext = parentOf(incoming);
    const parentSpan = trace.getSpanContext(parentContext);
    const parent = parentSpan !== undefined && isSpanContextValid(parentSpan) ? incoming : undefined;
    const traceId = parent !== undefined ? parentSpan!.traceId : newTraceId();
    const spanId = newSpanId();
    const { decision } = this.sampler.shouldSample(parentContext, traceId, "", SpanKind.SERVER, {}, []);
    const sampled = decision === SamplingDecision.RECORD_AND_SAMPLED;
    const traceparent = `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`;
    const context = parent?.tracestate === undefined ? { traceparent } : { traceparent, tracestate: parent.tracestate };
    return { started, parent, traceId, spanId, sampled, context };
  }

  /** Makes the span of `request`, which ended at `ended` (performance.now()), once this turn's answers are out. */
  endRequest(request: RequestSpan, ended: number, describe: () => RequestEnd): void {
    if (!request.sampled) return;
    this.later(() => {
      const { name, attributes, error } = describe();
      const options = { kind: SpanKind.SERVER, startTime: this.wallClock(request.started), attributes };
      const span = this.ids.as(request.spanId, request.traceId, () => this.tracer.startSpan(name, options, parentOf(request.parent)));
      if (error !== undefined) span.setStatus(error === true ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message: error });
      span.end(this.wallClock(ended));
    });
  }

  /** The span of one execution that ended at `ended` (performance.now()), and its tool calls' spans. */
  execution(event: ExecutionEvent, ended: number, parent: Context): void {
    const { result } = event;
    const started = this.wallClock(ended - result.duration_seconds * 1000);
    const outcome = executionOutcome(result);
    const attributes: Attributes = {
      "codemode.outcome": outcome,
      "codemode.virtual_key": event.caller,
      "codemode.code_bytes": Buffer.byteLength(event.code, "utf8"),
      "codemode.steps": result.stats.steps,
      "codemode.memory_bytes": result.stats.memory_bytes,
      "codemode.tool_call_count": result.tool_calls.length,
    };
    if (result.error !== null) attributes["error.type"] = result.error.type;
    if (this.settings.recordPayloads) {
      attributes["codemode.code"] = clip(event.code);
      attributes["codemode.result"] = json(result.result);
      if (result.stdout) attributes["codemode.stdout"] = clip(result.stdout);
    }
    const span = this.tracer.startSpan(event.tool ?? "executeToolCode", { kind: SpanKind.INTERNAL, startTime: started, attributes }, parent);
    if (result.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: this.settings.recordPayloads ? clip(result.error.message) : result.error.type });
    const inside = trace.setSpan(parent, span);
    // Each call is a child of the execution: calls made at once (asyncio.gather) are siblings that overlap.
    for (const call of result.tool_calls) {
      const callStart = started + call.started_seconds * 1000;
      const callOutcome = toolCallOutcome(call);
      const callAttributes: Attributes = {
        "codemode.server": call.server,
        "codemode.tool": call.tool,
        "codemode.outcome": callOutcome,
        "codemode.duration_seconds": call.duration_seconds,
      };
      const errorType = toolCallErrorType(call);
      if (errorType !== undefined) callAttributes["error.type"] = errorType;
      if (this.settings.recordPayloads) {
        callAttributes["codemode.arguments"] = json(call.arguments);
        if (call.error !== null) callAttributes["codemode.error"] = clip(call.error);
      }
      const child = this.tracer.startSpan(`${call.server}.${call.tool}`, { kind: SpanKind.CLIENT, startTime: callStart, attributes: callAttributes }, inside);
      if (!call.ok) child.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
      child.end(callStart + call.duration_seconds * 1000);
    }
    span.end(this.wallClock(ended));
  }

  /** A span for one agent round, and inside it one for the provider's answer. */
  agentRound(event: AgentRoundEvent, parent: Context): void {
    const started = this.wallClock(event.started);
    const round = this.tracer.startSpan(
      "agent round",
      { startTime: started, attributes: { "codemode.agent.round": event.round, "codemode.agent.tool_calls": event.tool_calls } },
      parent,
    );
    const provider: Span = this.tracer.startSpan("provider request", { kind: SpanKind.CLIENT, startTime: started }, trace.setSpan(parent, round));
    provider.end(started + event.provider_seconds * 1000);
    round.end(started + event.duration_seconds * 1000);
  }

  /** Sends every span ended so far (those of executions reported so far included). */
  async flush(): Promise<void> {
    await this.deferred;
    await this.provider.forceFlush();
  }

  /** Sends what is left and stops. */
  async shutdown(): Promise<void> {
    await this.deferred;
    await this.provider.shutdown();
  }

  /**
   * Whether every span under `carrier` would be dropped (a parent-based sampler and a parent not
   * sampled): then none is made, nor any work deferred to make them.
   */
  private dropped(carrier: TraceContext | undefined): boolean {
    if (!this.parentBased || carrier === undefined) return false;
    return (Number.parseInt(carrier.traceparent.slice(-2), 16) & 1) === 0;
  }

  /** Runs `make` after the answers of this turn are out; `deferred` resolves once all such have run. */
  private later(make: () => void): void {
    const made = new Promise<void>((resolve) =>
      setTimeout(() => {
        make();
        resolve();
      }, 0),
    );
    const before = this.deferred;
    this.deferred = made.then(() => before);
  }
}
