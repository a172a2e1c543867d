// Sampling, decided as a request comes in (its span is made only once the answer is out): a root
// request starts a trace of its own; a caller's decision not to sample is kept, and told to the
// upstream servers; OTEL_TRACES_SAMPLER=always_off makes no spans yet still passes the trace on.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { arrivedSpan, runScript, type Stack, startStack } from "./stack.js";

const PING = "RESULT = rec.ping(ms=1)";

/** The trace id, parent span id and flags of a traceparent. */
function parts(traceparent: string | undefined): { traceId: string; spanId: string; flags: string } {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceparent ?? "");
  if (match === null) throw new Error(`not a traceparent: ${traceparent}`);
  return { traceId: match[1]!, spanId: match[2]!, flags: match[3]! };
}

describe("sampling with the default sampler (parentbased_always_on)", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ section: { protocol: "http/protobuf" } });
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("starts a trace for a request without a traceparent, the request's span at its root", async () => {
    expect(await runScript(stack.url, PING)).toContain("Execution completed successfully.");
    const sent = parts(stack.rec.traceparents.at(-1));
    expect(sent.flags).toBe("01");
    const request = await arrivedSpan(stack, "of the request", (s) => s.spanId === sent.spanId);
    expect(request).toMatchObject({ traceId: sent.traceId, parentSpanId: "", name: "POST /v1/mcp/tool/execute" });
    const execution = await arrivedSpan(stack, "of the execution", (s) => s.traceId === sent.traceId && s.name === "executeToolCode");
    expect(execution.parentSpanId).toBe(request.spanId);
  });

  it("keeps a caller's decision not to sample: no spans, and the upstream is told so", async () => {
    const traceId = randomBytes(16).toString("hex");
    const callerSpan = randomBytes(8).toString("hex");
    await runScript(stack.url, PING, { traceparent: `00-${traceId}-${callerSpan}-00`, tracestate: "vendor=kept" });
    const sent = parts(stack.rec.metaTraceparents.at(-1));
    expect(sent).toMatchObject({ traceId, flags: "00" });
    expect(sent.spanId).not.toBe(callerSpan);
    // A sampled request after it: once its spans are in, the unsampled one's would be too.
    await runScript(stack.url, PING);
    const next = parts(stack.rec.traceparents.at(-1));
    await arrivedSpan(stack, "of the sampled execution", (s) => s.traceId === next.traceId && s.name === "executeToolCode");
    expect(stack.receiver!.spans.filter((s) => s.traceId === traceId)).toEqual([]);
  });
});

describe("sampling with OTEL_TRACES_SAMPLER=always_off", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ section: { protocol: "http/json" }, env: { OTEL_TRACES_SAMPLER: "always_off" } });
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("makes no spans, and passes an unsampled trace on", async () => {
    const caller = `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-01`;
    for (const headers of [{}, { traceparent: caller }] as Record<string, string>[]) {
      expect(await runScript(stack.url, PING, headers)).toContain("Execution completed successfully.");
      expect(parts(stack.rec.traceparents.at(-1)).flags).toBe("00");
    }
    await new Promise((r) => setTimeout(r, 50));
    await stack.telemetry.tracing!.flush();
    expect(stack.receiver!.spans).toEqual([]);
  });
});
