// Span ids for spans made after the fact. A request's span is made once its answer is out (the
// SDK's startSpan on the request's path cost a traced request of a tiny script ~6 % of its
// latency: bench:telemetry), yet its id must be known from the start, since the work the request
// causes names it as parent. So its ids are drawn as it begins, and the SDK is handed them when
// the span is made: an IdGenerator that gives the next span the ids chosen for it, else new ones.
// New ids are cut from a pool of the system's random bytes, refilled 4 KiB at a time and kept as
// hex text, so that an id is a slice of it (the SDK's generator, a Math.random() call per four
// bytes, was a visible part of a traced request's cost, and so was a hex conversion per id).
import { randomFillSync } from "node:crypto";
import type { IdGenerator } from "@opentelemetry/sdk-trace-node";

const POOL = Buffer.alloc(4096);
let hex = "";
let used = 0;

/** `bytes` random bytes as lower-case hex, never all zeros (W3C: an invalid id). */
function randomHex(bytes: number): string {
  const chars = bytes * 2;
  for (;;) {
    if (used + chars > hex.length) {
      hex = randomFillSync(POOL).toString("hex");
      used = 0;
    }
    const id = hex.slice(used, used + chars);
    used += chars;
    if (!/^0+$/.test(id)) return id;
  }
}

export class ChosenIds implements IdGenerator {
  private spanId: string | null = null;
  private traceId: string | null = null;

  generateTraceId(): string {
    const id = this.traceId ?? newTraceId();
    this.traceId = null;
    return id;
  }

  generateSpanId(): string {
    const id = this.spanId ?? newSpanId();
    this.spanId = null;
    return id;
  }

  /**
   * Runs `make` (one synchronous startSpan) with the span it starts getting `spanId`, and
   * `traceId` when it is a root span (the SDK asks for a trace id only then).
   */
  as<T>(spanId: string, traceId: string, make: () => T): T {
    this.spanId = spanId;
    this.traceId = traceId;
    try {
      return make();
    } finally {
      this.spanId = null;
      this.traceId = null;
    }
  }
}

/** A new trace id: 16 random bytes. */
export function newTraceId(): string {
  return randomHex(16);
}

/** A new span id: 8 random bytes. */
export function newSpanId(): string {
  return randomHex(8);
}
