// The HTTP API against a real gateway: a code-mode client "edge" and a direct client "plain", both
// the edge-case MCP server over stdio, driven through app.inject (no port).
import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { UNRESTRICTED } from "../../src/gateway/caller.js";
import { DEFAULT_SETTINGS, Gateway } from "../../src/gateway/gateway.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { parseClientConfig } from "../../src/upstream/config.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));

let gateway: Gateway;
let app: FastifyInstance;

beforeAll(async () => {
  gateway = new Gateway();
  const stdio = { command: process.execPath, args: [EDGE] };
  gateway.addClient(parseClientConfig({ name: "edge", connection_type: "stdio", stdio_config: stdio, tools_to_execute: ["*"], is_code_mode_client: true }));
  gateway.addClient(
    parseClientConfig({
      name: "plain",
      connection_type: "stdio",
      stdio_config: { ...stdio, env: { EDGE_TOKEN: "s3cret-env-value" } },
      tools_to_execute: ["*"],
      tools_to_auto_execute: ["echo"],
    }),
  );
  // Never connected (disabled): only here to show that secrets stay out of the listing.
  gateway.addClient(
    parseClientConfig({
      name: "remote",
      client_id: "remote-1",
      connection_type: "http",
      connection_string: "https://user:pa55word@example.invalid/mcp",
      headers: { Authorization: "Bearer s3cret-header-value" },
      tools_to_execute: ["search"],
      disabled: true,
    }),
  );
  await gateway.manager.settled(15000);
  app = buildServer(gateway);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await gateway?.close();
});

// Tests that change settings through the API must not leak them into the next test.
afterEach(() => {
  gateway.settings = DEFAULT_SETTINGS;
});

function putConfig(clientConfig: unknown) {
  return app.inject({ method: "PUT", url: "/api/config", payload: { client_config: clientConfig } });
}

function execute(body: unknown, format?: string) {
  return app.inject({ method: "POST", url: `/v1/mcp/tool/execute${format ? `?format=${format}` : ""}`, payload: body as object });
}

function chatCall(name: string, args: unknown, id = "call_1") {
  return { id, type: "function", function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) } };
}

const DEFAULT_CONFIG = {
  client_config: {
    mcp_code_mode_limits: { ...DEFAULT_LIMITS },
    mcp_tool_execution_timeout: 30,
    mcp_code_mode_binding_level: "server",
    mcp_agent_depth: 10,
    mcp_code_mode_instructions_limit: 4096,
    mcp_direct_instructions_limit: 8192,
    mcp_code_mode_observed_shapes: true,
  },
};

describe("GET /health", () => {
  it("reports every server with its state and how many tools it has", async () => {
    const res = await app.inject({ method: "GET", url: "/health" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe("ok");
    const byName = Object.fromEntries(body.servers.map((s: { name: string }) => [s.name, s]));
    expect(byName.edge).toEqual({ name: "edge", state: "connected", tools: expect.any(Number) });
    expect(byName.edge.tools).toBeGreaterThanOrEqual(14);
    expect(byName.plain.state).toBe("connected");
    expect(byName.remote).toEqual({ name: "remote", state: "disabled", tools: 0 });
  });
});

describe("GET /api/config", () => {
  it("answers the settings in force in Bifrost's client_config shape, timeout in seconds", async () => {
    const res = await app.inject({ method: "GET", url: "/api/config" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULT_CONFIG);
    expect(Object.keys(res.json().client_config.mcp_code_mode_limits)).toHaveLength(8);
  });
});

describe("PUT /api/config", () => {
  it("round-trips a read-modify-write of the whole client_config", async () => {
    const current = (await app.inject({ method: "GET", url: "/api/config" })).json();
    const next = {
      client_config: {
        ...current.client_config,
        mcp_code_mode_limits: { ...current.client_config.mcp_code_mode_limits, max_steps: 5_000_000, max_tool_calls: 200 },
        mcp_code_mode_binding_level: "tool",
        mcp_agent_depth: 3,
        mcp_code_mode_instructions_limit: 100,
        mcp_direct_instructions_limit: 200,
      },
    };
    const res = await app.inject({ method: "PUT", url: "/api/config", payload: next });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(next);
    expect((await app.inject({ method: "GET", url: "/api/config" })).json()).toEqual(next);
    expect(gateway.settings.limits.max_steps).toBe(5_000_000);
    expect(gateway.settings.bindingLevel).toBe("tool");
    expect(gateway.settings.maxAgentDepth).toBe(3);
    expect(gateway.settings.instructionsLimit).toBe(100);
    expect(gateway.settings.directInstructionsLimit).toBe(200);
  });

  it("keeps the current limits when mcp_code_mode_limits is omitted", async () => {
    await putConfig({ mcp_code_mode_limits: { max_steps: 500 } });
    const res = await putConfig({ mcp_agent_depth: 4 });
    expect(res.json().client_config.mcp_code_mode_limits.max_steps).toBe(500);
    expect(res.json().client_config.mcp_agent_depth).toBe(4);
  });

  it("resets every limit to its default with mcp_code_mode_limits: {}", async () => {
    await putConfig({ mcp_code_mode_limits: { max_steps: 500, max_tool_calls: 3, max_log_bytes: 10 } });
    const res = await putConfig({ mcp_code_mode_limits: {} });
    expect(res.json().client_config.mcp_code_mode_limits).toEqual(DEFAULT_LIMITS);
  });

  it("gives the limits a partial object leaves out their defaults, not their current values", async () => {
    await putConfig({ mcp_code_mode_limits: { max_tool_calls: 200 } });
    const res = await putConfig({ mcp_code_mode_limits: { max_steps: 5000 } });
    expect(res.json().client_config.mcp_code_mode_limits).toEqual({ ...DEFAULT_LIMITS, max_steps: 5000 });
  });

  it("reads a limit of 0 as its default", async () => {
    const res = await putConfig({ mcp_code_mode_limits: { max_steps: 0, max_value_bytes: 0 } });
    expect(res.json().client_config.mcp_code_mode_limits).toEqual(DEFAULT_LIMITS);
  });

  it("sets the execution timeout from mcp_tool_execution_timeout, fractions allowed", async () => {
    const res = await putConfig({ mcp_tool_execution_timeout: 2.5 });
    expect(res.json().client_config.mcp_tool_execution_timeout).toBe(2.5);
    expect(res.json().client_config.mcp_code_mode_limits.tool_execution_timeout).toBe(2.5);
    expect(gateway.settings.limits.tool_execution_timeout).toBe(2.5);
  });

  it("keeps the timeout when a limits object leaves it out, as Bifrost keeps it apart from the code-mode limits", async () => {
    await putConfig({ mcp_tool_execution_timeout: 5 });
    const res = await putConfig({ mcp_code_mode_limits: {} });
    expect(res.json().client_config.mcp_tool_execution_timeout).toBe(5);
  });

  it("takes the timeout from whichever of its two fields was edited in a read-modify-write", async () => {
    const viaTop = { ...DEFAULT_CONFIG.client_config, mcp_tool_execution_timeout: 7 };
    expect((await putConfig(viaTop)).json().client_config.mcp_tool_execution_timeout).toBe(7);
    gateway.settings = DEFAULT_SETTINGS;
    const viaLimits = { ...DEFAULT_CONFIG.client_config, mcp_code_mode_limits: { ...DEFAULT_LIMITS, tool_execution_timeout: 9 } };
    expect((await putConfig(viaLimits)).json().client_config.mcp_tool_execution_timeout).toBe(9);
  });

  it("ignores the Bifrost client_config fields this gateway does not have", async () => {
    const res = await putConfig({ drop_excess_requests: true, enable_logging: false, mcp_agent_depth: 6 });
    expect(res.statusCode).toBe(200);
    expect(res.json().client_config.mcp_agent_depth).toBe(6);
    expect(res.json().client_config).not.toHaveProperty("drop_excess_requests");
  });

  const L = "client_config.mcp_code_mode_limits";
  it.each([
    [{ mcp_code_mode_limits: { max_steps: -1 } }, `${L}.max_steps must not be negative (got -1)`],
    [{ mcp_code_mode_limits: { max_steps: 1.5 } }, `${L}.max_steps must be an integer`],
    [{ mcp_code_mode_limits: { max_steps: "100" } }, `${L}.max_steps must be a number (got "100")`],
    [{ mcp_code_mode_limits: { max_memory_bytes: null } }, `${L}.max_memory_bytes must be a number (got null)`],
    [{ mcp_code_mode_limits: { max_value_bytes: 1000 } }, `${L}.max_value_bytes must be 0 or at least 1024`],
    [{ mcp_code_mode_limits: { max_nesting_depth: 1001 } }, `${L}.max_nesting_depth must be at most 1000`],
    [{ mcp_code_mode_limits: { tool_execution_timeout: -2 } }, `${L}.tool_execution_timeout must not be negative (got -2)`],
    [{ mcp_code_mode_limits: { max_stepz: 5 } }, `${L}.max_stepz is not a known field`],
    [{ mcp_code_mode_limits: 5 }, `${L} must be an object (got 5)`],
    [{ mcp_tool_execution_timeout: -1 }, "client_config.mcp_tool_execution_timeout must not be negative (got -1)"],
    [{ mcp_tool_execution_timeout: "30s" }, 'client_config.mcp_tool_execution_timeout must be a number (got "30s")'],
    [{ mcp_code_mode_binding_level: "module" }, 'client_config.mcp_code_mode_binding_level must be one of server, tool (got "module")'],
    [{ mcp_agent_depth: 0 }, "client_config.mcp_agent_depth must be at least 1 (got 0)"],
    [{ mcp_agent_depth: 2.5 }, "client_config.mcp_agent_depth must be an integer (got 2.5)"],
    [{ mcp_code_mode_instructions_limit: -1 }, "client_config.mcp_code_mode_instructions_limit must be at least 0 (got -1)"],
    [{ mcp_direct_instructions_limit: "big" }, 'client_config.mcp_direct_instructions_limit must be an integer (got "big")'],
    [
      { mcp_tool_execution_timeout: 5, mcp_code_mode_limits: { tool_execution_timeout: 6 } },
      "client_config.mcp_tool_execution_timeout (5) and client_config.mcp_code_mode_limits.tool_execution_timeout (6) are the same setting and disagree; give one of them",
    ],
    ["strict", 'client_config must be an object (got "strict")'],
  ])("refuses %j with 400 naming the field", async (clientConfig, message) => {
    const res = await putConfig(clientConfig);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { message } });
  });

  it("refuses a body without client_config", async () => {
    const res = await app.inject({ method: "PUT", url: "/api/config", payload: { mcp_agent_depth: 3 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { message: "client_config is required" } });
  });

  it("refuses a body that is not JSON", async () => {
    const res = await app.inject({ method: "PUT", url: "/api/config", headers: { "content-type": "application/json" }, payload: "{client_config" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/JSON/);
  });

  it("changes nothing when any field is invalid, even after valid ones", async () => {
    const before = (await app.inject({ method: "GET", url: "/api/config" })).json();
    const res = await putConfig({ mcp_agent_depth: 2, mcp_code_mode_binding_level: "tool", mcp_code_mode_limits: { max_steps: 10, max_log_bytes: -5 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe("client_config.mcp_code_mode_limits.max_log_bytes must not be negative (got -5)");
    expect((await app.inject({ method: "GET", url: "/api/config" })).json()).toEqual(before);
  });

  it("applies new limits to the next execution without a restart", async () => {
    const loop = chatCall("executeToolCode", { code: "for i in range(1000):\n    pass\nRESULT = 'done'" });
    const first = await execute(loop);
    expect(first.statusCode).toBe(200);
    expect(first.json().content).toContain("Execution completed successfully.");

    expect((await putConfig({ mcp_code_mode_limits: { max_steps: 100 } })).statusCode).toBe(200);
    const limited = await execute(loop);
    expect(limited.statusCode).toBe(200);
    expect(limited.json().content).toContain("max_steps exceeded");

    expect((await putConfig({ mcp_code_mode_limits: {} })).statusCode).toBe(200);
    const again = await execute(loop);
    expect(again.json().content).toContain("Execution completed successfully.");
  });
});

describe("GET /api/mcp/clients", () => {
  it("lists each client with its config, state, last error and tool names", async () => {
    const res = await app.inject({ method: "GET", url: "/api/mcp/clients" });
    expect(res.statusCode).toBe(200);
    const clients = res.json().clients as Record<string, unknown>[];
    expect(clients.map((c) => c.id)).toEqual(["edge", "plain", "remote-1"]);
    const [edge, plain, remote] = clients;
    expect(edge).toMatchObject({
      name: "edge",
      connection_type: "stdio",
      stdio_config: { command: process.execPath, args: [EDGE], env_keys: [] },
      header_keys: [],
      is_code_mode_client: true,
      tools_to_execute: ["*"],
      tools_to_auto_execute: [],
      disabled: false,
      state: "connected",
      last_error: null,
    });
    expect(edge!.tools).toEqual(expect.arrayContaining(["echo", "add", "fail", "hang"]));
    expect(plain).toMatchObject({ is_code_mode_client: false, tools_to_auto_execute: ["echo"], state: "connected" });
    expect(remote).toMatchObject({ name: "remote", connection_type: "http", disabled: true, state: "disabled", tools: [] });
  });

  it("shows the names of headers and environment variables, never their values or a URL's password", async () => {
    const res = await app.inject({ method: "GET", url: "/api/mcp/clients" });
    const [, plain, remote] = res.json().clients;
    expect(plain.stdio_config.env_keys).toEqual(["EDGE_TOKEN"]);
    expect(remote.header_keys).toEqual(["Authorization"]);
    expect(remote.connection_string).toBe("https://user@example.invalid/mcp");
    expect(res.body).not.toContain("s3cret");
    expect(res.body).not.toContain("pa55word");
  });
});

describe("POST /v1/mcp/tool/execute", () => {
  it("runs a meta-tool from a chat tool call and answers the chat tool message", async () => {
    const res = await execute(chatCall("listToolFiles", {}, "call_7"));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ role: "tool", tool_call_id: "call_7", content: expect.stringContaining("edge.pyi") });
  });

  it("runs a script whose nested calls reach the code-mode server", async () => {
    const res = await execute(chatCall("executeToolCode", { code: "RESULT = edge.add(a=20, b=22)" }));
    expect(res.statusCode).toBe(200);
    expect(res.json().content).toContain("Return value:\n42");
    expect(res.json().content).toContain("edge.add ok");
  });

  it("calls a direct tool by its <client>-<tool> name", async () => {
    const res = await execute(chatCall("plain-echo", { text: "hello" }));
    expect(res.json()).toEqual({ role: "tool", tool_call_id: "call_1", content: "hello" });
  });

  it("answers a Responses function_call with a function_call_output", async () => {
    const body = { type: "function_call", call_id: "fc_1", name: "plain-echo", arguments: '{"text": "hi"}' };
    const res = await execute(body, "responses");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ type: "function_call_output", call_id: "fc_1", output: "hi" });
  });

  it("runs a meta-tool in the Responses format", async () => {
    const body = { type: "function_call", call_id: "fc_2", name: "executeToolCode", arguments: JSON.stringify({ code: "print('from script')" }) };
    const res = await execute(body, "responses");
    expect(res.json().output).toContain("from script");
  });

  it("answers in the format asked for, whatever the body's shape", async () => {
    const asChat = await execute({ type: "function_call", call_id: "fc_3", name: "plain-echo", arguments: '{"text": "x"}' });
    expect(asChat.json()).toEqual({ role: "tool", tool_call_id: "fc_3", content: "x" });
    const asResponses = await execute(chatCall("plain-echo", { text: "y" }, "call_9"), "responses");
    expect(asResponses.json()).toEqual({ type: "function_call_output", call_id: "call_9", output: "y" });
  });

  it("reads empty arguments as no arguments", async () => {
    const res = await execute(chatCall("listToolFiles", ""));
    expect(res.statusCode).toBe(200);
    expect(res.json().content).toContain("edge.pyi");
  });

  it("answers a tool's own error with 200 and the error text", async () => {
    const direct = await execute(chatCall("plain-fail", { message: "boom" }));
    expect(direct.statusCode).toBe(200);
    expect(direct.json().content).toBe("boom");
    const script = await execute(chatCall("executeToolCode", { code: "x = 1 // 0" }));
    expect(script.statusCode).toBe(200);
    expect(script.json().content).toContain("Execution runtime error:");
    expect(script.json().content).toContain("ZeroDivisionError");
  });

  it.each([
    ["arguments that are not JSON", chatCall("plain-echo", "{text: hi}"), /^function\.arguments is not valid JSON: /],
    ["arguments that are a list", chatCall("plain-echo", "[1, 2]"), /^function\.arguments must be a JSON object of named arguments \(got a list\)$/],
    ["arguments that are null", chatCall("plain-echo", "null"), /^function\.arguments must be a JSON object of named arguments \(got null\)$/],
    ["Responses arguments that are a number", { type: "function_call", call_id: "c", name: "plain-echo", arguments: "5" }, /^arguments must be a JSON object/],
    ["arguments given as an object", { id: "c", type: "function", function: { name: "plain-echo", arguments: { text: "hi" } } }, /^function\.arguments must be a string \(got \{"text":"hi"\}\); expected a chat tool call/],
    ["a call without a function", { id: "c", type: "function" }, /^function is required; expected a chat tool call/],
    ["a call without an id", { type: "function", function: { name: "plain-echo", arguments: "{}" } }, /^id is required/],
    ["a call of another type", { id: "c", type: "custom", function: { name: "plain-echo", arguments: "{}" } }, /^type must be "function" \(got "custom"\)/],
    ["a function_call without a call_id", { type: "function_call", name: "plain-echo", arguments: "{}" }, /^call_id is required/],
    ["an empty tool name", chatCall("", {}), /^function\.name must not be empty/],
    ["a body that is a list", [chatCall("plain-echo", {})], /^the body must be an object/],
  ])("refuses %s with 400", async (_what, body, message) => {
    const res = await execute(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(message);
  });

  it("refuses an unknown format with 400", async () => {
    const res = await execute(chatCall("listToolFiles", {}), "xml");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { message: 'querystring.format must be one of chat, responses (got "xml")' } });
  });

  it.each([
    ["a client that does not exist", "nope-echo"],
    ["a tool the server does not have", "plain-nothing"],
    ["a code-mode server's tool called directly", "edge-echo"],
    ["a name that is neither a meta-tool nor <client>-<tool>", "echo"],
  ])("answers 404 for %s", async (_what, name) => {
    const res = await execute(chatCall(name, {}));
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toContain(name);
  });

  it("answers 502 when the upstream server refuses the call", async () => {
    const res = await execute(chatCall("plain-echo", {}));
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toMatch(/^plain\.echo: .*missing required argument "text"/);
  });

  it("answers 504 when the upstream call outlives the execution timeout", async () => {
    await putConfig({ mcp_tool_execution_timeout: 0.3 });
    const res = await execute(chatCall("plain-hang", {}));
    expect(res.statusCode).toBe(504);
    expect(res.json().error.message).toBe("plain.hang timed out after 0.3 s");
  });
});

describe("a client that hangs up", () => {
  it("cancels the script it asked for", async () => {
    await app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = app.server.address() as { port: number };
    const ended = new Promise<{ result: { error: { type: string; message: string } | null } }>((resolve) => gateway.once("execution", resolve));
    const request = new AbortController();
    const call = fetch(`http://127.0.0.1:${port}/v1/mcp/tool/execute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(chatCall("executeToolCode", { code: "edge.hang()" })),
      signal: request.signal,
    }).catch(() => "aborted");
    setTimeout(() => request.abort(), 200);
    expect(await call).toBe("aborted");
    // Without the cancellation the script would wait out the 30 s execution timeout.
    const outcome = await Promise.race([ended, new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000))]);
    expect(outcome, "the script still runs 5 s after its client went away").not.toBeNull();
    expect(outcome!.result.error).not.toBeNull();
  });
});

describe("routes", () => {
  it("answers an unknown route with a JSON 404", async () => {
    const res = await app.inject({ method: "GET", url: "/api/nothing?x=1" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { message: "no route GET /api/nothing" } });
  });
});

describe("finished calls leave nothing behind", () => {
  it("removes every abort listener from the request's and the gateway's signals", async () => {
    const request = new AbortController();
    const stopping = (gateway as unknown as { stopping: AbortController }).stopping.signal;
    // The tests before may have left a call finishing (its log entry is written a turn later).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = getEventListeners(stopping, "abort").length;
    for (let i = 0; i < 5; i++) {
      const script = await gateway.callTool("executeToolCode", { code: `RESULT = edge.echo(text="x${i}")` }, UNRESTRICTED, request.signal);
      expect(script.isError).toBe(false);
      const direct = await gateway.callTool("plain-echo", { text: "y" }, UNRESTRICTED, request.signal);
      expect(direct.isError).toBe(false);
    }
    await gateway.callTool("executeToolCode", { code: "RESULT = 1" }, UNRESTRICTED);
    expect(getEventListeners(request.signal, "abort")).toHaveLength(0);
    expect(getEventListeners(stopping, "abort")).toHaveLength(before);
  });

  it("keeps no memory per finished execution (heap measured after a full collection)", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const request = new AbortController();
    const run = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const outcome = await gateway.callTool("executeToolCode", { code: `RESULT = [edge.echo(text="x"), "${"y".repeat(2000)}"]` }, UNRESTRICTED, request.signal);
        expect(outcome.isError).toBe(false);
      }
      gc();
      return process.memoryUsage().heapUsed;
    };
    const base = await run(50);
    const after = await run(400);
    // A retained execution costs over 10 KiB here; 400 of them would add 4 MB.
    expect((after - base) / 400).toBeLessThan(2048);
  });

  it("still cancels a running script when the request's signal aborts", async () => {
    const request = new AbortController();
    const call = gateway.callTool("executeToolCode", { code: "RESULT = edge.hang()" }, UNRESTRICTED, request.signal);
    setTimeout(() => request.abort(new Error("the HTTP client went away")), 50);
    const outcome = await call;
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain("CancelledError");
    expect(getEventListeners(request.signal, "abort")).toHaveLength(0);
  });
});
