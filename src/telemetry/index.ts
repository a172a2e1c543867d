// Telemetry's one entry: started by the CLI with the settings resolved from the OTEL_* variables
// and config.json (config.ts), it follows the gateway's events and gives buildServer the hooks and
// route to add. Nothing below src/telemetry imports it: the gateway only emits events.
import type { FastifyInstance } from "fastify";
import type { Gateway } from "../gateway/gateway.js";
import type { TelemetrySettings } from "./config.js";
import { instrumentServer } from "./http-plugin.js";
import { GatewayMetrics } from "./metrics.js";
import { Tracing } from "./tracing.js";

export { resolveTelemetry, type TelemetrySettings, TelemetryConfigError } from "./config.js";

export interface Telemetry {
  readonly settings: TelemetrySettings;
  readonly tracing: Tracing | null;
  readonly metrics: GatewayMetrics | null;
  /** For buildServer's `instrument` option: the request spans and GET /metrics. */
  instrument(app: FastifyInstance): void;
  /** Stops following the gateway, sends the spans not yet sent and stops the exporter. */
  shutdown(): Promise<void>;
}

/** `log` is told if the span thread fails (its spans are lost from then on; the gateway goes on). */
export function startTelemetry(gateway: Gateway, settings: TelemetrySettings, log: (message: string) => void = () => {}): Telemetry {
  const tracing = settings.traces === null ? null : new Tracing(settings, settings.traces, log);
  const metrics = settings.metrics ? new GatewayMetrics(gateway, tracing) : null;
  const detach = [tracing?.attach(gateway), metrics?.attach()];
  return {
    settings,
    tracing,
    metrics,
    instrument: (app) => instrumentServer(app, tracing, metrics),
    async shutdown() {
      for (const stop of detach) stop?.();
      await tracing?.shutdown();
    },
  };
}
