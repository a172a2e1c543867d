// What both of tracing's threads read the same way: a W3C trace context as the SDK's parent
// context, and the sampler that OTEL_TRACES_SAMPLER names. The propagator is used directly, not
// registered as the process's: nothing else in the gateway extracts or injects a context.
import { type Context, defaultTextMapGetter, ROOT_CONTEXT } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, type Sampler, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base";
import type { TraceContext } from "../upstream/trace-context.js";
import type { SamplerSettings } from "./config.js";

const W3C = new W3CTraceContextPropagator();

/** The context a span under `carrier` continues (ROOT_CONTEXT for one without a valid traceparent). */
export function contextOf(carrier: TraceContext): Context {
  return W3C.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}

/** The SDK's sampler for OTEL_TRACES_SAMPLER's value (config.ts has read and checked it). */
export function samplerFor({ name, ratio }: SamplerSettings): Sampler {
  const root = name.endsWith("always_off") ? new AlwaysOffSampler() : name.endsWith("traceidratio") ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler();
  return name.startsWith("parentbased_") ? new ParentBasedSampler({ root }) : root;
}
