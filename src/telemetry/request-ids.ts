// Span ids for spans made after the fact. A request's span is made once its answer is out (the
// SDK's startSpan on the request's path cost a traced request of a tiny script ~6 % of its
// latency: bench:telemetry), yet its id must be known from the start, since the work the request
// causes names it as parent. So its ids are drawn as it begins, and the SDK is handed them when
// the span is made: an IdGenerator that gives the next span the ids chosen for it, else random ones.
import { type IdGenerator, RandomIdGenerator } from "@opentelemetry/sdk-trace-node";

export class ChosenIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private spanId: string | null = null;
  private traceId: string | null = null;

  generateTraceId(): string {
    const id = this.traceId ?? this.random.generateTraceId();
    this.traceId = null;
    return id;
  }

  generateSpanId(): string {
    const id = this.spanId ?? this.random.generateSpanId();
    this.spanId = null;
    return id;
  }

  /** Fresh random ids, to be given to a span later through `as`. */
  draw(): { traceId: string; spanId: string } {
    return { traceId: this.random.generateTraceId(), spanId: this.random.generateSpanId() };
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
