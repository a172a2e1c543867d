// Which telemetry is on, from the OTEL_* variables and config.json's `telemetry` section, and the
// section's checks (config-file.ts): every bad field is named.
import { describe, expect, it } from "vitest";
import { parseGatewayConfig } from "../../src/gateway/config-file.js";
import { resolveTelemetry, TelemetryConfigError } from "../../src/telemetry/index.js";
import { ConfigError } from "../../src/upstream/config.js";

describe("resolveTelemetry", () => {
  it("is off when neither the environment nor config.json says anything", () => {
    expect(resolveTelemetry(undefined, { OTEL_SERVICE_NAME: "x", OTEL_TRACES_SAMPLER: "always_on" })).toBeNull();
  });

  it("turns traces and metrics on from OTEL_EXPORTER_OTLP_ENDPOINT alone, adding /v1/traces", () => {
    expect(resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/", OTEL_SERVICE_NAME: "edge-gw" })).toEqual({
      serviceName: "edge-gw",
      traces: { url: "http://127.0.0.1:4318/v1/traces", protocol: "http/protobuf", sampler: { name: "parentbased_always_on", ratio: 1 } },
      metrics: true,
      recordPayloads: false,
    });
  });

  it("takes the signal's own endpoint as it is, and the protocol from the environment over config.json", () => {
    const env = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/custom", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
    expect(resolveTelemetry({ endpoint: "http://other:4318", protocol: "http/protobuf" }, env)?.traces).toEqual({
      url: "http://collector:4318/custom",
      protocol: "http/json",
      sampler: { name: "parentbased_always_on", ratio: 1 },
    });
  });

  it("serves metrics without traces for a section without an endpoint", () => {
    expect(resolveTelemetry({ record_payloads: true }, {})).toEqual({ serviceName: "code-mode-gateway", traces: null, metrics: true, recordPayloads: true });
  });

  it("honours OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER=none and metrics: false", () => {
    expect(resolveTelemetry({ endpoint: "http://c:4318" }, { OTEL_SDK_DISABLED: "true" })).toBeNull();
    expect(resolveTelemetry({ endpoint: "http://c:4318" }, { OTEL_TRACES_EXPORTER: "none" })?.traces).toBeNull();
    expect(resolveTelemetry({ endpoint: "http://c:4318", metrics: false }, {})?.metrics).toBe(false);
  });

  it("reads the sampler and its ratio, and refuses one the SDK has no sampler for", () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" };
    expect(resolveTelemetry(undefined, { ...on, OTEL_TRACES_SAMPLER: "always_off" })?.traces?.sampler).toEqual({ name: "always_off", ratio: 1 });
    expect(resolveTelemetry(undefined, { ...on, OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.25" })?.traces?.sampler).toEqual({
      name: "parentbased_traceidratio",
      ratio: 0.25,
    });
    expect(() => resolveTelemetry(undefined, { ...on, OTEL_TRACES_SAMPLER: "jaeger_remote" })).toThrow(/OTEL_TRACES_SAMPLER: "jaeger_remote" is not supported; use one of parentbased_always_on, /);
    expect(() => resolveTelemetry(undefined, { ...on, OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" })).toThrow(/OTEL_TRACES_SAMPLER_ARG: "1.5" is not a ratio between 0 and 1/);
  });

  it("refuses grpc, naming the variable and what works", () => {
    expect(() => resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(TelemetryConfigError);
    expect(() => resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(/"grpc" is not supported; use "http\/json" or "http\/protobuf"/);
    expect(() => resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/must be an http\(s\) URL/);
    expect(() => resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://[collector/v1/traces" })).toThrow('not "http://[collector/v1/traces"');
  });
});

describe("config.json's telemetry section", () => {
  const parse = (telemetry: unknown) => parseGatewayConfig({ telemetry }, {});

  it("is absent when not written, and kept as written", () => {
    expect(parseGatewayConfig({}, {}).telemetry).toBeUndefined();
    const section = { endpoint: "http://127.0.0.1:4318", protocol: "http/json", service_name: "gw", metrics: false, record_payloads: true };
    expect(parse(section).telemetry).toEqual(section);
  });

  it.each([
    [{ endpont: "http://x" }, "telemetry.endpont: unknown field (known: endpoint, protocol, service_name, metrics, record_payloads)"],
    [{ metrics: "yes" }, "telemetry.metrics: must be true or false"],
    [{ protocol: "grpc" }, 'telemetry.protocol: must be "http/json" or "http/protobuf", not "grpc"'],
    [{ endpoint: "localhost:4318" }, "telemetry.endpoint: must be an http(s) URL such as http://127.0.0.1:4318"],
    [[], "telemetry: must be an object"],
  ])("refuses %j", (section, message) => {
    expect(() => parse(section)).toThrow(ConfigError);
    expect(() => parse(section)).toThrow(message);
  });
});
