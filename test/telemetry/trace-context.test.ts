// The trace context passed by hand (src/upstream/trace-context.ts): read from headers, found in a
// tools/call body, passed on unchanged by a gateway that does not trace, and no async context
// manager registered when it does (one over AsyncLocalStorage hooked every promise: bench:telemetry).
import { context, createContextKey, ROOT_CONTEXT } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { DEFAULT_SETTINGS, Gateway } from "../../src/gateway/gateway.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { traceContextInBody, traceContextOf } from "../../src/upstream/trace-context.js";
import { type RecordingServer, startRecordingServer } from "./recording-server.js";
import { runScript, type Stack, startStack } from "./stack.js";

const PARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

describe("traceContextOf", () => {
  it("takes a valid traceparent and its tracestate", () => {
    expect(traceContextOf({ traceparent: PARENT, tracestate: "a=1,b=2" })).toEqual({ traceparent: PARENT, tracestate: "a=1,b=2" });
    expect(traceContextOf({ traceparent: ` ${PARENT} ` })).toEqual({ traceparent: PARENT });
    expect(traceContextOf({ traceparent: [PARENT, "x"] })).toEqual({ traceparent: PARENT });
  });

  it("ignores a missing or malformed traceparent", () => {
    expect(traceContextOf(undefined)).toBeUndefined();
    expect(traceContextOf({})).toBeUndefined();
    expect(traceContextOf({ traceparent: "00-xyz" })).toBeUndefined();
    expect(traceContextOf({ traceparent: PARENT.toUpperCase() })).toBeUndefined();
    expect(traceContextOf({ traceparent: `ff${PARENT.slice(2)}` })).toBeUndefined();
  });
});

describe("traceContextInBody", () => {
  const body = (params: unknown) => JSON.stringify({ method: "tools/call", params, jsonrpc: "2.0", id: 3 });

  it("finds the context callTool put in the params' _meta", () => {
    expect(traceContextInBody(body({ name: "t", arguments: { a: 1 }, _meta: { traceparent: PARENT } }))).toEqual({ traceparent: PARENT });
    expect(traceContextInBody(body({ name: "t", arguments: {}, _meta: { traceparent: PARENT, tracestate: 'k="v"' } }))).toEqual({ traceparent: PARENT, tracestate: 'k="v"' });
  });

  it("takes the params' own _meta, not one a script put in the arguments", () => {
    const forged = "00-11111111111111111111111111111111-2222222222222222-01";
    const text = body({ name: "t", arguments: { _meta: { traceparent: forged } }, _meta: { traceparent: PARENT } });
    expect(traceContextInBody(text)).toEqual({ traceparent: PARENT });
  });

  it("finds nothing in a body without one", () => {
    expect(traceContextInBody(body({ name: "t", arguments: { note: "traceparent" } }))).toBeUndefined();
    expect(traceContextInBody("")).toBeUndefined();
  });
});

describe("a gateway without telemetry", () => {
  let rec: RecordingServer;
  let gateway: Gateway;
  let app: ReturnType<typeof buildServer>;
  let url: string;

  beforeAll(async () => {
    rec = await startRecordingServer();
    gateway = new Gateway(DEFAULT_SETTINGS);
    gateway.addClient(parseClientConfig({ name: "rec", connection_type: "http", connection_string: rec.url, tools_to_execute: ["*"], is_code_mode_client: true }));
    await gateway.manager.settled(10_000);
    app = buildServer(gateway);
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    await gateway?.close();
    await rec?.close();
  });

  it("passes a caller's traceparent on to the upstream server unchanged", async () => {
    expect(await runScript(url, "RESULT = rec.ping(ms=1)", { traceparent: PARENT, tracestate: "vendor=x" })).toContain("pong");
    expect(rec.traceparents.at(-1)).toBe(PARENT);
    expect(rec.metaTraceparents.at(-1)).toBe(PARENT);
  });

  it("sends none when the caller sent none", async () => {
    expect(await runScript(url, "RESULT = rec.ping(ms=1)")).toContain("pong");
    expect(rec.traceparents.at(-1)).toBeUndefined();
    expect(rec.metaTraceparents.at(-1)).toBeUndefined();
  });
});

describe("a tracing gateway", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ section: { protocol: "http/json" } });
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("registers no async context manager", async () => {
    const key = createContextKey("probe");
    const seen = await context.with(ROOT_CONTEXT.setValue(key, 1), async () => {
      await Promise.resolve();
      return context.active().getValue(key);
    });
    expect(seen).toBeUndefined();
  });
});
