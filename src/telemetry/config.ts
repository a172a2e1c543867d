// What telemetry does, from the standard OTEL_* environment variables and config.json's
// `telemetry` section. Off (null) when neither says anything: then nothing is started, nothing
// listens to the gateway and no route is added, so an untraced gateway pays nothing.
import type { TelemetrySection } from "../gateway/config-file.js";

export type OtlpProtocol = "http/json" | "http/protobuf";

/** OTEL_TRACES_SAMPLER's values that the OpenTelemetry JS SDK has samplers for. */
export const SAMPLERS = ["parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio", "always_on", "always_off", "traceidratio"] as const;
export type SamplerName = (typeof SAMPLERS)[number];

export interface SamplerSettings {
  name: SamplerName;
  /** The share of traces kept by a `traceidratio` sampler (OTEL_TRACES_SAMPLER_ARG, 0..1; 1 when unset). */
  ratio: number;
}

export interface TracesSettings {
  /** The full URL spans are POSTed to (…/v1/traces). */
  url: string;
  protocol: OtlpProtocol;
  sampler: SamplerSettings;
}

export interface TelemetrySettings {
  serviceName: string;
  /** Null: no spans are made (metrics may still be served). */
  traces: TracesSettings | null;
  /** Serve `GET /metrics`. */
  metrics: boolean;
  /** Code, arguments and results on spans (they may hold secrets: off unless asked for). */
  recordPayloads: boolean;
}

export const DEFAULT_SERVICE_NAME = "code-mode-gateway";

/** A setting that is not usable, named by where it came from. */
export class TelemetryConfigError extends Error {}

const PROTOCOLS: readonly OtlpProtocol[] = ["http/json", "http/protobuf"];

function set(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** `base` + `/v1/traces`, as the OTLP exporter specification builds a signal's URL from OTEL_EXPORTER_OTLP_ENDPOINT. */
function tracesUrl(base: string): string {
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

/**
 * OTEL_TRACES_SAMPLER and _ARG as the specification defines them (parentbased_always_on when
 * unset). A value the SDK would take as the default after a diagnostic nobody reads is refused.
 */
function samplerOf(env: NodeJS.ProcessEnv): SamplerSettings {
  const name = (set(env, "OTEL_TRACES_SAMPLER") ?? "parentbased_always_on").toLowerCase();
  if (!SAMPLERS.includes(name as SamplerName)) {
    throw new TelemetryConfigError(`OTEL_TRACES_SAMPLER: ${JSON.stringify(name)} is not supported; use one of ${SAMPLERS.join(", ")}`);
  }
  const arg = set(env, "OTEL_TRACES_SAMPLER_ARG");
  if (!name.endsWith("traceidratio") || arg === undefined) return { name: name as SamplerName, ratio: 1 };
  const ratio = Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw new TelemetryConfigError(`OTEL_TRACES_SAMPLER_ARG: ${JSON.stringify(arg)} is not a ratio between 0 and 1`);
  return { name: name as SamplerName, ratio };
}

/**
 * The settings in force, or null when telemetry is off. The OTEL_* variables win over config.json
 * (an operator overrides a deployment's file without editing it). Traces are on when an endpoint
 * is known (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT or
 * `telemetry.endpoint`) and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says no;
 * metrics are on with telemetry unless `telemetry.metrics` is false.
 */
export function resolveTelemetry(section: TelemetrySection | undefined, env: NodeJS.ProcessEnv = process.env): TelemetrySettings | null {
  const signalUrl = set(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const baseUrl = set(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  if (section === undefined && signalUrl === undefined && baseUrl === undefined) return null;
  if (set(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return null;

  const protocolText = set(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? set(env, "OTEL_EXPORTER_OTLP_PROTOCOL") ?? section?.protocol ?? "http/protobuf";
  if (!PROTOCOLS.includes(protocolText as OtlpProtocol)) {
    throw new TelemetryConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL: ${JSON.stringify(protocolText)} is not supported; use "http/json" or "http/protobuf" (grpc is not)`);
  }
  const url = signalUrl ?? (baseUrl !== undefined ? tracesUrl(baseUrl) : section?.endpoint !== undefined ? tracesUrl(section.endpoint) : undefined);
  const exporterOff = set(env, "OTEL_TRACES_EXPORTER")?.toLowerCase() === "none";
  // One the exporter cannot parse would fail only later, on the span thread.
  if (url !== undefined && (!/^https?:\/\//.test(url) || !URL.canParse(url))) throw new TelemetryConfigError(`the OTLP endpoint must be an http(s) URL, not ${JSON.stringify(url)}`);
  return {
    serviceName: set(env, "OTEL_SERVICE_NAME") ?? section?.service_name ?? DEFAULT_SERVICE_NAME,
    traces: url === undefined || exporterOff ? null : { url, protocol: protocolText as OtlpProtocol, sampler: samplerOf(env) },
    metrics: section?.metrics ?? true,
    recordPayloads: section?.record_payloads ?? false,
  };
}
