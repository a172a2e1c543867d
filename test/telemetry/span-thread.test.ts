// The span thread (src/telemetry/span-worker.ts): the gateway's thread only describes spans, the
// worker makes and exports them. What it must keep: every tree a flush covers arrives whole, a
// thread far behind bounds the gateway's memory by dropping (and counting) new trees, and once
// stopped, waiting for it fails with a message that says so.
import { afterEach, describe, expect, it } from "vitest";
import type { ExecutionEvent } from "../../src/gateway/exec-log.js";
import { Gateway } from "../../src/gateway/gateway.js";
import type { SandboxResult } from "../../src/interpreter/index.js";
import { resolveTelemetry, startTelemetry, type Telemetry } from "../../src/telemetry/index.js";
import { BatchWriter, readBatch, type SpanTree } from "../../src/telemetry/span-messages.js";
import { MAX_WAITING, Tracing } from "../../src/telemetry/tracing.js";
import { type Receiver, startReceiver } from "./otlp-receiver.js";

/** An execution of `calls` tool calls, as the gateway reports one. */
function executionEvent(calls: number, n: number): ExecutionEvent {
  const result: SandboxResult = {
    stdout: "",
    stderr: "",
    result: n,
    returncode: 0,
    duration_seconds: 0.004,
    tool_calls: Array.from({ length: calls }, (_, i) => ({
      server: "edge",
      tool: "add",
      arguments: { a: i },
      ok: i % 2 === 0,
      error: i % 2 === 0 ? null : "boom",
      started_seconds: i * 0.001,
      duration_seconds: 0.0005,
    })),
    error: null,
    stats: { steps: 10 + n, memory_bytes: 100, log_bytes: 0 },
  };
  return { caller: `key-${n}`, code: "RESULT = 1", result, tool: "executeToolCode" };
}

let receiver: Receiver | null = null;
let telemetry: Telemetry | null = null;
let gateway: Gateway | null = null;

async function start(): Promise<{ gateway: Gateway; telemetry: Telemetry; receiver: Receiver }> {
  receiver = await startReceiver();
  gateway = new Gateway();
  telemetry = startTelemetry(gateway, resolveTelemetry({ endpoint: receiver.url.replace(/\/v1\/traces$/, "") }, {})!);
  return { gateway, telemetry, receiver };
}

afterEach(async () => {
  await telemetry?.shutdown();
  await gateway?.close();
  await receiver?.close();
  telemetry = gateway = receiver = null;
});

describe("a batch of span trees", () => {
  it("reads back the trees written into it, and shares one key table across them", () => {
    const trees: SpanTree[] = [
      { parent: undefined, span: { name: "GET /health", kind: 1, start: 1.5, end: 2.25, attributes: { "http.request.method": "GET", "http.response.status_code": 200 }, ids: { spanId: "a".repeat(16), traceId: "b".repeat(32) } } },
      {
        parent: { traceparent: `00-${"c".repeat(32)}-${"d".repeat(16)}-01`, tracestate: "k=v" },
        span: {
          name: "executeToolCode",
          kind: 0,
          start: 10,
          end: 20,
          attributes: { "codemode.outcome": "error", "codemode.steps": 7, ok: false },
          error: "ValueError",
          children: [
            { name: "edge.add", kind: 2, start: 11, end: 12, attributes: { "codemode.outcome": "ok" } },
            { name: "edge.fail", kind: 2, start: 12, end: 19, attributes: { "codemode.outcome": "error" }, error: true, children: [{ name: "inner", kind: 0, start: 13, end: 14, attributes: {} }] },
          ],
        },
      },
      { parent: { traceparent: `00-${"e".repeat(32)}-${"f".repeat(16)}-00` }, span: { name: "agent round", kind: 0, start: 0, end: 1, attributes: {} } },
    ];
    const writer = new BatchWriter();
    for (const tree of trees) writer.add(tree);
    const batch = writer.take();
    expect(batch.trees).toBe(3);
    expect(batch.keys.filter((k) => k === "codemode.outcome")).toHaveLength(1);
    expect(readBatch(structuredClone(batch))).toEqual(trees);
    // Taken, the writer starts an empty batch.
    expect(writer.take()).toEqual({ trees: 0, keys: [], flat: [] });
  });

  it("leaves out an attribute without a value, as the SDK would", () => {
    const writer = new BatchWriter();
    writer.add({ parent: undefined, span: { name: "s", kind: 0, start: 0, end: 1, attributes: { kept: "x", gone: undefined } } });
    expect(readBatch(writer.take())[0]!.span.attributes).toEqual({ kept: "x" });
  });
});

describe("the span thread", () => {
  it("makes every span of the trees a flush covers, each call under its execution", async () => {
    const { gateway, telemetry, receiver } = await start();
    for (let n = 0; n < 40; n++) gateway.emit("execution", executionEvent(3, n));
    await telemetry.tracing!.flush();
    const executions = receiver.spans.filter((s) => s.name === "executeToolCode");
    const calls = receiver.spans.filter((s) => s.name === "edge.add");
    expect(executions).toHaveLength(40);
    expect(calls).toHaveLength(120);
    const byId = new Map(executions.map((s) => [s.spanId, s]));
    for (const call of calls) {
      const parent = byId.get(call.parentSpanId);
      expect(parent, call.spanId).toBeDefined();
      expect(call.traceId).toBe(parent!.traceId);
      expect(call.startNs >= parent!.startNs && call.endNs <= parent!.endNs).toBe(true);
    }
    expect(new Set(executions.map((s) => s.attributes["codemode.virtual_key"])).size).toBe(40);
    // The failed calls (every second one) carry an error status; the others do not.
    expect(calls.filter((s) => s.status.code === 2)).toHaveLength(40);
    expect(telemetry.tracing!.droppedTrees).toBe(0);
  });

  it("drops and counts the trees past MAX_WAITING that wait at once, and takes new ones once it has caught up", async () => {
    const { gateway, telemetry } = await start();
    const tracing = telemetry.tracing!;
    // All in one turn: none can be sent before the last is described.
    for (let n = 0; n < MAX_WAITING + 5; n++) gateway.emit("execution", executionEvent(0, n));
    expect(tracing.droppedTrees).toBe(5);
    expect((await telemetry.metrics!.scrape()).text).toMatch(/^codemode_span_trees_dropped_total 5$/m);
    await tracing.flush();
    // The thread has answered for every tree it was sent, so the count of those waiting is back to 0.
    for (let n = 0; n < 10; n++) gateway.emit("execution", executionEvent(0, n));
    expect(tracing.droppedTrees).toBe(5);
    await tracing.flush();
  });

  it("says the span thread has stopped to whoever waits for it after a shutdown", async () => {
    const { gateway, telemetry } = await start();
    gateway.emit("execution", executionEvent(1, 0));
    await telemetry.shutdown();
    await expect(telemetry.tracing!.flush()).rejects.toThrow("the span thread has stopped");
    // Spans described after the shutdown are not kept anywhere.
    gateway.emit("execution", executionEvent(1, 1));
    expect(telemetry.tracing!.droppedTrees).toBe(0);
    // A second shutdown does nothing.
    await telemetry.shutdown();
  });

  it("logs a span thread that fails, and says why to whoever waits for it", async () => {
    const logged: string[] = [];
    // A URL the exporter cannot parse (the settings refuse one at start: this bypasses them).
    const traces = { url: "http://[collector/v1/traces", protocol: "http/protobuf" as const, sampler: { name: "parentbased_always_on" as const, ratio: 1 } };
    const tracing = new Tracing({ serviceName: "t", traces, metrics: false, recordPayloads: false }, traces, (m) => logged.push(m));
    await expect(tracing.flush()).rejects.toThrow(/^the span thread failed, and no more spans are exported: .*export URL/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^the span thread failed/);
    await tracing.shutdown();
  });
});
