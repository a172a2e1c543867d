// Traces end to end: a caller sends a script with a `traceparent` to a real gateway (Fastify on
// 127.0.0.1, real MCP servers) whose spans go to an OTLP/HTTP receiver on loopback, in each
// encoding. The tree must be: caller -> HTTP request -> executeToolCode -> one span per nested
// call, the two calls made at once being overlapping siblings; and the upstream HTTP server must
// have been sent the trace.
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedProvider, type ScriptedProvider, textReply, toolCall, toolCallsReply } from "../fixtures/scripted-provider.js";
import type { ReceivedSpan } from "./otlp-receiver.js";
import { arrivedSpan, runScript, type Stack, startStack } from "./stack.js";

const PARALLEL = [
  "import asyncio",
  "async def main():",
  "    return await asyncio.gather(everything.echo_async(message='secret-arg-1'), rec.ping_async(ms=80, note='secret-arg-2'))",
  "RESULT = asyncio.run(main())",
].join("\n");

/** The first span named `name` to arrive. */
function spanNamed(stack: Stack, name: string): Promise<ReceivedSpan> {
  return arrivedSpan(stack, `'${name}'`, (s) => s.name === name);
}

function callerTrace(): { traceId: string; spanId: string; header: string } {
  const traceId = randomBytes(16).toString("hex");
  const spanId = randomBytes(8).toString("hex");
  return { traceId, spanId, header: `00-${traceId}-${spanId}-01` };
}

const SERVER = 2;
const INTERNAL = 1;
const CLIENT = 3;
const ERROR = 2;

describe.each([
  ["http/json", "application/json"],
  ["http/protobuf", "application/x-protobuf"],
] as const)("traces over OTLP %s", (protocol, contentType) => {
  let stack: Stack;
  let provider: ScriptedProvider;

  beforeAll(async () => {
    provider = await startScriptedProvider();
    stack = await startStack({
      section: { protocol, service_name: "cmg-test" },
      limits: { max_steps: 20_000 },
      providers: [{ name: "scripted", base_url: provider.url, headers: {}, timeout_seconds: 10 }],
    });
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
    await provider?.close();
  });

  it("parents two nested calls, made at once, under the execution, under the caller's trace", async () => {
    const caller = callerTrace();
    const text = await runScript(stack.url, PARALLEL, { traceparent: caller.header });
    expect(text).toContain("Execution completed successfully.");
    const request = await spanNamed(stack, "POST /v1/mcp/tool/execute");
    const spans = stack.receiver!.spans.filter((s) => s.traceId === caller.traceId);
    const execution = spans.find((s) => s.name === "executeToolCode")!;
    const echo = spans.find((s) => s.name === "everything.echo")!;
    const ping = spans.find((s) => s.name === "rec.ping")!;
    expect(stack.receiver!.contentTypes.every((t) => t.startsWith(contentType))).toBe(true);
    expect(request).toMatchObject({ traceId: caller.traceId, parentSpanId: caller.spanId, kind: SERVER, service: "cmg-test" });
    expect(request.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "/v1/mcp/tool/execute", "http.response.status_code": 200 });
    expect(execution).toMatchObject({ parentSpanId: request.spanId, kind: INTERNAL });
    expect(execution.attributes).toMatchObject({ "codemode.outcome": "ok", "codemode.tool_call_count": 2, "codemode.virtual_key": "-" });
    expect(execution.attributes["codemode.steps"]).toBeGreaterThan(0);
    expect(execution.attributes["codemode.memory_bytes"]).toBeGreaterThan(0);
    for (const call of [echo, ping]) {
      expect(call).toMatchObject({ parentSpanId: execution.spanId, kind: CLIENT });
      expect(call.startNs).toBeGreaterThanOrEqual(execution.startNs);
      expect(call.endNs).toBeLessThanOrEqual(execution.endNs);
      expect(call.attributes["codemode.outcome"]).toBe("ok");
    }
    expect(echo.attributes).toMatchObject({ "codemode.server": "everything", "codemode.tool": "echo" });
    expect(ping.attributes).toMatchObject({ "codemode.server": "rec", "codemode.tool": "ping" });
    expect(Number(ping.attributes["codemode.duration_seconds"])).toBeGreaterThanOrEqual(0.07);
    // Made at once: each began before the other ended.
    expect(echo.startNs < ping.endNs && ping.startNs < echo.endNs).toBe(true);
    // The execution lies inside the request, and the spans' clock is the wall clock.
    expect(execution.startNs).toBeGreaterThanOrEqual(request.startNs);
    expect(execution.endNs).toBeLessThanOrEqual(request.endNs);
    expect(Math.abs(Number(request.startNs / 1_000_000n) - Date.now())).toBeLessThan(60_000);
    // The upstream HTTP server was sent the trace, with the request's span as the parent.
    expect(stack.rec.traceparents.at(-1)).toBe(`00-${caller.traceId}-${request.spanId}-01`);
    expect(stack.rec.metaTraceparents.at(-1)).toBe(`00-${caller.traceId}-${request.spanId}-01`);
  });

  it("puts no code, arguments or results on spans unless record_payloads is on", async () => {
    await runScript(stack.url, PARALLEL);
    await stack.telemetry.tracing!.flush();
    const all = Buffer.concat(stack.receiver!.bodies).toString("latin1");
    expect(all).not.toContain("secret-arg");
    expect(all).not.toContain("asyncio.gather");
    for (const s of stack.receiver!.spans) expect(Object.keys(s.attributes).filter((k) => /^codemode\.(code|result|stdout|arguments|error)$/.test(k))).toEqual([]);
  });

  it("continues the trace of an MCP client's tools/call, naming the method on the request's span", async () => {
    const caller = callerTrace();
    const client = new Client({ name: "traced-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { traceparent: caller.header } } }));
    try {
      const result = await client.callTool({ name: "executeToolCode", arguments: { code: "RESULT = rec.ping(ms=1)" } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const request = await spanNamed(stack, "POST /mcp tools/call");
    const spans = stack.receiver!.spans.filter((s) => s.traceId === caller.traceId);
    expect(request).toMatchObject({ traceId: caller.traceId, parentSpanId: caller.spanId, attributes: { "mcp.method.name": "tools/call" } });
    expect(spans.find((s) => s.name === "executeToolCode")).toMatchObject({ parentSpanId: request.spanId });
    expect(spans.find((s) => s.name === "rec.ping")?.parentSpanId).toBe(spans.find((s) => s.name === "executeToolCode")?.spanId);
  });

  it("gives each agent round a span, with its provider request inside, under the HTTP request", async () => {
    const caller = callerTrace();
    provider.reset([toolCallsReply([toolCall("listToolFiles", {})]), textReply("done")]);
    const chat = await fetch(`${stack.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: caller.header },
      body: JSON.stringify({ model: "scripted/scripted-1", messages: [{ role: "user", content: "list them" }] }),
    });
    expect(chat.status).toBe(200);
    const request = await spanNamed(stack, "POST /v1/chat/completions");
    const spans = stack.receiver!.spans.filter((s) => s.traceId === caller.traceId);
    const rounds = spans.filter((s) => s.name === "agent round").sort((a, b) => Number(a.attributes["codemode.agent.round"]) - Number(b.attributes["codemode.agent.round"]));
    expect(rounds.map((r) => [r.parentSpanId, r.attributes["codemode.agent.round"], r.attributes["codemode.agent.tool_calls"]])).toEqual([
      [request.spanId, 1, 1],
      [request.spanId, 2, 0],
    ]);
    for (const round of rounds) {
      const asked = spans.filter((s) => s.name === "provider request" && s.parentSpanId === round.spanId);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.startNs).toBeGreaterThanOrEqual(round.startNs);
      expect(asked[0]!.endNs).toBeLessThanOrEqual(round.endNs);
    }
    expect(rounds[0]!.endNs).toBeLessThanOrEqual(rounds[1]!.startNs);
  });

  it("ends the span of a request whose caller went away, and names the execution cancelled", async () => {
    const caller = callerTrace();
    const controller = new AbortController();
    const body = JSON.stringify({ id: "c1", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code: "rec.ping(ms=3000)" }) } });
    const request = fetch(`${stack.url}/v1/mcp/tool/execute`, { method: "POST", headers: { "content-type": "application/json", traceparent: caller.header }, body, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(request).rejects.toThrow();
    const deadline = Date.now() + 5000;
    let spans: ReceivedSpan[] = [];
    while (Date.now() < deadline && (spans = stack.receiver!.spans.filter((s) => s.traceId === caller.traceId)).length < 3) {
      await new Promise((r) => setTimeout(r, 20));
      await stack.telemetry.tracing!.flush();
    }
    const http = spans.find((s) => s.kind === SERVER)!;
    expect(http.status).toEqual({ code: ERROR, message: "the client went away before the answer" });
    expect(spans.find((s) => s.name === "executeToolCode")?.attributes["codemode.outcome"]).toBe("cancelled");
    expect(spans.find((s) => s.name === "rec.ping")?.parentSpanId).toBe(spans.find((s) => s.name === "executeToolCode")?.spanId);
  });

  it("names a limit, a failed call and its error type", async () => {
    const caller = callerTrace();
    const code = "try:\n    rec.fail()\nexcept ToolError:\n    pass\nwhile True:\n    pass";
    expect(await runScript(stack.url, code, { traceparent: caller.header })).toContain("max_steps");
    await arrivedSpan(stack, "'rec.fail'", (s) => s.traceId === caller.traceId && s.name === "rec.fail", 5000);
    const spans = stack.receiver!.spans.filter((s) => s.traceId === caller.traceId);
    const execution = spans.find((s) => s.name === "executeToolCode")!;
    const fail = spans.find((s) => s.name === "rec.fail")!;
    expect(execution.attributes).toMatchObject({ "codemode.outcome": "max_steps_limit", "error.type": "ResourceLimitError", "codemode.tool_call_count": 1 });
    expect(execution.status).toEqual({ code: ERROR, message: "ResourceLimitError" });
    expect(fail).toMatchObject({ parentSpanId: execution.spanId, status: { code: ERROR, message: "ToolError" } });
    expect(fail.attributes).toMatchObject({ "codemode.outcome": "error", "error.type": "ToolError" });
  });
});

describe("traces with record_payloads", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ section: { protocol: "http/protobuf", record_payloads: true } });
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("puts the code, the result and each call's arguments on the spans", async () => {
    await runScript(stack.url, PARALLEL);
    const execution = await spanNamed(stack, "executeToolCode");
    const ping = await spanNamed(stack, "rec.ping");
    expect(execution.service).toBe("code-mode-gateway");
    expect(execution.attributes["codemode.code"]).toBe(PARALLEL);
    expect(execution.attributes["codemode.result"]).toBe('["Echo: secret-arg-1","pong"]');
    expect(JSON.parse(String(ping.attributes["codemode.arguments"]))).toEqual({ ms: 80, note: "secret-arg-2" });
  });
});
