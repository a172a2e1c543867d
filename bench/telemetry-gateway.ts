// One bench gateway (harness.ts) in a process of its own, for bench/telemetry.ts: with telemetry
// off, with metrics only, or with traces (to the OTLP endpoint given) and metrics. A process each,
// so that one gateway's telemetry (its span thread, its metrics' timers and GC observer) takes
// nothing from another's event loop. Prints {"url": ...} on a line, then serves until its stdin
// closes.
//
//   node dist/bench/telemetry-gateway.js off|metrics|traces [otlp-base-url]
import { resolveTelemetry, startTelemetry, type Telemetry } from "../src/telemetry/index.js";
import { startGateway } from "./harness.js";

async function main(): Promise<void> {
  const [mode, otlp] = process.argv.slice(2);
  if (mode !== "off" && mode !== "metrics" && mode !== "traces") throw new Error("usage: telemetry-gateway.js off|metrics|traces [otlp-base-url]");
  let telemetry: Telemetry | null = null;
  const bench = await startGateway((gateway) => {
    if (mode === "off") return {};
    telemetry = startTelemetry(gateway, resolveTelemetry(mode === "traces" ? { endpoint: otlp } : {}, {})!);
    return { instrument: telemetry.instrument };
  });
  process.stdout.write(`${JSON.stringify({ url: bench.url })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => {
    void bench
      .close()
      .then(() => (telemetry as Telemetry | null)?.shutdown())
      .then(() => process.exit(0));
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
