// Traces (OpenTelemetry): a span per execution with one child per nested tool call, and a span
// per agent round with its provider request, built from what the gateway reports when they end.
// The interpreter knows nothing of tracing; its result says when each call began and how long it
// took, and a span can be given its times and its parent, so the tree is described afterwards at
// no cost to the script. The parent is the trace context the event carries (the HTTP request's
// span, see http-plugin.ts, which continues a caller's `traceparent`). No context manager is
// registered: over AsyncLocalStorage it would hook every promise of the process.
//
// This thread only describes the spans (span-messages.ts) and sends them in one batch every
// 50 ms; the span thread (span-worker.ts) makes them with the SDK and exports them.
import { type Attributes, isSpanContextValid, ROOT_CONTEXT, SamplingDecision, SpanKind, trace } from "@opentelemetry/api";
import type { Sampler } from "@opentelemetry/sdk-trace-base";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { AgentRoundEvent } from "../agent/loop.js";
import type { ExecutionEvent } from "../gateway/exec-log.js";
import type { Gateway } from "../gateway/gateway.js";
import { packageRoot } from "../package-root.js";
import type { TraceContext } from "../upstream/trace-context.js";
import type { TelemetrySettings, TracesSettings } from "./config.js";
import { executionOutcome, toolCallErrorType, toolCallOutcome } from "./outcomes.js";
import { newSpanId, newTraceId } from "./request-ids.js";
import { BatchWriter, type FromSpanWorker, type SpanRecord, type SpanTree, type SpanWorkerData, type ToSpanWorker } from "./span-messages.js";
import { contextOf, samplerFor } from "./trace-parents.js";

/**
 * The span thread's module, as tsc builds it (the tests run this file from src/, and the bundled
 * binaries from dist/bin: both find it there).
 */
const SPAN_WORKER = join(packageRoot(import.meta.url), "dist", "src", "telemetry", "span-worker.js");

/** How long span trees wait to be sent to the span thread together. */
const SEND_EVERY_MS = 50;

/**
 * The most span trees waiting to be sent or being made at once. Past that the span thread is so
 * far behind (a machine short of CPU) that new ones are dropped, as the SDK's batch processor
 * drops spans past its queue (OTEL_BSP_MAX_QUEUE_SIZE): the gateway's memory stays bounded.
 */
export const MAX_WAITING = 8192;

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
 * An HTTP request's span from its start (Tracing.beginRequest) to its description once the answer
 * is out (endRequest): its ids, drawn at once, and whether it is sampled, decided at once.
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

/** A question to the span thread, answered once it has done what was asked. */
interface Asked {
  resolve(): void;
  reject(error: Error): void;
}

export class Tracing {
  /**
   * Wall-clock milliseconds minus performance.now(), fixed once: every span's times go through
   * it, so a child always lies inside its parent (the SDK anchors each span to the wall clock on
   * its own, which puts spans made a moment apart up to a millisecond out of line).
   */
  private readonly clockOffset = Date.now() - performance.now();
  /** Whether the sampler follows a parent's decision (the default): then an unsampled request's work makes no spans. */
  private readonly parentBased: boolean;
  /** The span thread's sampler too: a request's span is sampled as it begins, here, where its flags are needed. */
  private readonly sampler: Sampler;
  private readonly worker: Worker;
  /** The trees to send, each described when it is sent (a request's after its answer is out). */
  private waiting: (() => SpanTree)[] = [];
  private readonly batch = new BatchWriter();
  /** Trees sent and not yet made by the span thread. */
  private making = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly asked = new Map<number, Asked>();
  private lastAsked = 0;
  /** Why the span thread is gone (it failed or was shut down): then nothing more is sent. */
  private stopped: Error | null = null;
  /** Span trees dropped because the span thread was MAX_WAITING trees behind. */
  droppedTrees = 0;

  constructor(
    private readonly settings: TelemetrySettings,
    traces: TracesSettings,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.sampler = samplerFor(traces.sampler);
    this.parentBased = traces.sampler.name.startsWith("parentbased_");
    if (!existsSync(SPAN_WORKER)) throw new Error(`tracing needs the span thread's module ${SPAN_WORKER}, which is not built: run npm run build`);
    const workerData: SpanWorkerData = { serviceName: settings.serviceName, traces };
    this.worker = new Worker(SPAN_WORKER, { workerData, name: "spans" });
    // The thread keeps the process alive only while a flush or shutdown waits for it.
    this.worker.unref();
    this.worker.on("message", (message: FromSpanWorker) => this.answered(message));
    this.worker.on("error", (error) => {
      const failure = new Error(`the span thread failed, and no more spans are exported: ${error.message}`);
      this.log(failure.message);
      this.stop(failure);
    });
    this.worker.on("exit", () => this.stop(new Error("the span thread has stopped")));
  }

  /** A performance.now() time as the wall-clock milliseconds spans are given. */
  wallClock(at: number): number {
    return this.clockOffset + at;
  }

  /**
   * Follows the gateway's executions and agent rounds; returns the function that stops. Their
   * spans are described when the batch is sent, after the answers they would hold up: the times
   * are taken at once, so the spans are the same.
   */
  attach(gateway: Gateway): () => void {
    const onExecution = (event: ExecutionEvent) => {
      if (this.unsampled(event.trace)) return;
      const ended = performance.now();
      this.later(() => this.execution(event, ended));
    };
    const onRound = (event: AgentRoundEvent) => {
      if (!this.unsampled(event.trace)) this.later(() => this.agentRound(event));
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
   * parent and trace id); the span itself is described by endRequest.
   */
  beginRequest(incoming: TraceContext | undefined): RequestSpan {
    const started = performance.now();
    const parentContext = incoming === undefined ? ROOT_CONTEXT : contextOf(incoming);
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

  /** Describes the span of `request`, which ended at `ended` (performance.now()), once this turn's answers are out. */
  endRequest(request: RequestSpan, ended: number, describe: () => RequestEnd): void {
    if (!request.sampled) return;
    this.later(() => {
      const { name, attributes, error } = describe();
      const span: SpanRecord = {
        name,
        kind: SpanKind.SERVER,
        start: this.wallClock(request.started),
        end: this.wallClock(ended),
        attributes,
        ids: { spanId: request.spanId, traceId: request.traceId },
      };
      if (error !== undefined) span.error = error;
      return { parent: request.parent, span };
    });
  }

  /** The span of one execution that ended at `ended` (performance.now()), with its tool calls' spans inside. */
  private execution(event: ExecutionEvent, ended: number): SpanTree {
    const { result } = event;
    const started = this.wallClock(ended - result.duration_seconds * 1000);
    const attributes: Attributes = {
      "codemode.outcome": executionOutcome(result),
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
    // Each call is a child of the execution: calls made at once (asyncio.gather) are siblings that overlap.
    const children = result.tool_calls.map((call): SpanRecord => {
      const start = started + call.started_seconds * 1000;
      const callAttributes: Attributes = {
        "codemode.server": call.server,
        "codemode.tool": call.tool,
        "codemode.outcome": toolCallOutcome(call),
        "codemode.duration_seconds": call.duration_seconds,
      };
      const errorType = toolCallErrorType(call);
      if (errorType !== undefined) callAttributes["error.type"] = errorType;
      if (this.settings.recordPayloads) {
        callAttributes["codemode.arguments"] = json(call.arguments);
        if (call.error !== null) callAttributes["codemode.error"] = clip(call.error);
      }
      const child: SpanRecord = { name: `${call.server}.${call.tool}`, kind: SpanKind.CLIENT, start, end: start + call.duration_seconds * 1000, attributes: callAttributes };
      if (!call.ok) child.error = errorType ?? true;
      return child;
    });
    const span: SpanRecord = { name: event.tool ?? "executeToolCode", kind: SpanKind.INTERNAL, start: started, end: this.wallClock(ended), attributes, children };
    if (result.error !== null) span.error = this.settings.recordPayloads ? clip(result.error.message) : result.error.type;
    return { parent: event.trace, span };
  }

  /** A span for one agent round, and inside it one for the provider's answer. */
  private agentRound(event: AgentRoundEvent): SpanTree {
    const start = this.wallClock(event.started);
    const provider: SpanRecord = { name: "provider request", kind: SpanKind.CLIENT, start, end: start + event.provider_seconds * 1000, attributes: {} };
    const span: SpanRecord = {
      name: "agent round",
      kind: SpanKind.INTERNAL,
      start,
      end: start + event.duration_seconds * 1000,
      attributes: { "codemode.agent.round": event.round, "codemode.agent.tool_calls": event.tool_calls },
      children: [provider],
    };
    return { parent: event.trace, span };
  }

  /** Sends every span ended so far (those of executions reported so far included). */
  async flush(): Promise<void> {
    this.send();
    await this.ask("flush");
  }

  /** Sends what is left and stops the span thread. */
  async shutdown(): Promise<void> {
    if (this.stopped !== null) return;
    this.send();
    await this.ask("shutdown");
    await this.worker.terminate();
  }

  /**
   * Whether every span under `carrier` would be dropped (a parent-based sampler and a parent not
   * sampled): then none is described.
   */
  private unsampled(carrier: TraceContext | undefined): boolean {
    if (!this.parentBased || carrier === undefined) return false;
    return (Number.parseInt(carrier.traceparent.slice(-2), 16) & 1) === 0;
  }

  /** Queues a tree, described when the batch is sent (within SEND_EVERY_MS). */
  private later(describe: () => SpanTree): void {
    if (this.stopped !== null) return;
    if (this.waiting.length + this.making >= MAX_WAITING) {
      this.droppedTrees++;
      return;
    }
    this.waiting.push(describe);
    if (this.timer === null) {
      this.timer = setTimeout(() => this.send(), SEND_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Sends the waiting trees to the span thread. */
  private send(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.waiting.length === 0 || this.stopped !== null) return;
    for (const describe of this.waiting) this.batch.add(describe());
    this.waiting = [];
    const batch = this.batch.take();
    this.making += batch.trees;
    this.post({ kind: "spans", batch });
  }

  private post(message: ToSpanWorker): void {
    this.worker.postMessage(message);
  }

  /** Asks the span thread to flush or to shut down; settles once it has. */
  private ask(kind: "flush" | "shutdown"): Promise<void> {
    if (this.stopped !== null) return Promise.reject(this.stopped);
    const id = ++this.lastAsked;
    return new Promise<void>((resolve, reject) => {
      this.asked.set(id, { resolve, reject });
      if (this.asked.size === 1) this.worker.ref();
      this.post({ kind, id });
    });
  }

  private answered(message: FromSpanWorker): void {
    if (message.kind === "made") {
      this.making -= message.trees;
      return;
    }
    const asked = this.asked.get(message.id);
    if (asked === undefined) return;
    this.asked.delete(message.id);
    if (this.asked.size === 0) this.worker.unref();
    if (message.error === undefined) asked.resolve();
    else asked.reject(new Error(`exporting spans failed: ${message.error}`));
  }

  /** The span thread is gone: what waits for it fails with `error`, and nothing more is sent. */
  private stop(error: Error): void {
    this.stopped ??= error;
    this.waiting = [];
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const asked of this.asked.values()) asked.reject(this.stopped);
    this.asked.clear();
  }
}
