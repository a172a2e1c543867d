// Agent mode (SPEC §7) end to end: a real gateway on 127.0.0.1 (a code-mode client "edge" and a
// direct client "plain", both the edge-case MCP server over stdio) in front of a scripted
// OpenAI-compatible provider on loopback that replays scripted answers and records what it was sent.
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chainPlugins, loadPlugins, PluginError } from "../../src/agent/plugins.js";
import { buildServer } from "../../src/api/server.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { KeyRing, type VirtualKey } from "../../src/gateway/virtual-keys.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { type ScriptedProvider, startScriptedProvider, textReply, toolCall, toolCallsReply } from "../fixtures/scripted-provider.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));
const PLUGIN = fileURLToPath(new URL("../../dist/test/fixtures/agent-plugin.js", import.meta.url));
const NOT_A_PLUGIN = fileURLToPath(new URL("../../dist/test/fixtures/scripted-provider.js", import.meta.url));

/** Grants edge.add, edge.echo and plain.echo only. */
const NARROW: VirtualKey = {
  id: "narrow",
  name: "narrow",
  value: "sk-bf-narrow",
  is_active: true,
  mcp_configs: [
    { client_name: "edge", tools_to_execute: ["add", "echo"] },
    { client_name: "plain", tools_to_execute: ["echo"] },
  ],
};

let provider: ScriptedProvider;
let gateway: Gateway;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  provider = await startScriptedProvider();
  gateway = new Gateway(undefined, new KeyRing([NARROW]));
  const stdio = { command: process.execPath, args: [EDGE], env: { AGENT_SECRET: "s3cr3t" } };
  gateway.addClient(
    parseClientConfig({
      name: "edge",
      connection_type: "stdio",
      stdio_config: stdio,
      tools_to_execute: ["*"],
      tools_to_auto_execute: ["add", "echo", "fail"],
      is_code_mode_client: true,
    }),
  );
  gateway.addClient(
    parseClientConfig({
      name: "plain",
      connection_type: "stdio",
      stdio_config: stdio,
      tools_to_execute: ["*"],
      tools_to_auto_execute: ["echo", "fail", "slow", "inflight_max"],
    }),
  );
  await gateway.manager.settled(15000);
  app = buildServer(gateway, {
    providers: [
      { name: "scripted", base_url: provider.url, api_key: "sk-provider-secret", headers: { "x-org": "tests" }, timeout_seconds: 10 },
      { name: "backup", base_url: "http://127.0.0.1:9/v1", headers: {}, timeout_seconds: 10 },
    ],
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(async () => {
  await app?.close();
  await gateway?.close();
  await provider?.close();
});

beforeEach(() => {
  gateway.preToolCall = null;
  gateway.settings = { ...gateway.settings, maxAgentDepth: 10 };
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

const ask = (text = "do it", extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  post("/v1/chat/completions", { model: "scripted/scripted-1", messages: [{ role: "user", content: text }], ...extra }, headers);

/** The tool messages the provider received in request `i`, by tool_call_id. */
function toolMessages(i: number): Record<string, string> {
  return Object.fromEntries(
    provider.requests[i]!.body.messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id!, String(m.content)]),
  );
}

describe("forwarding", () => {
  it("offers the meta-tools and direct tools, with the provider's key and the bare model", async () => {
    provider.reset([textReply("hello")]);
    // An unknown virtual key is refused before anything is forwarded.
    const refused = await ask("hi", {}, { authorization: "Bearer sk-bf-unknown" });
    expect(refused.status).toBe(401);
    expect(provider.requests).toHaveLength(0);

    const answer = await ask("hi", { temperature: 0.2 });
    expect(answer.status).toBe(200);
    expect(answer.body.choices[0].message.content).toBe("hello");
    const [sent] = provider.requests;
    expect(sent!.headers.authorization).toBe("Bearer sk-provider-secret");
    expect(sent!.headers["x-org"]).toBe("tests");
    expect(sent!.body.model).toBe("scripted-1");
    expect(sent!.body.temperature).toBe(0.2);
    const names = sent!.body.tools!.map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["listToolFiles", "readToolFile", "getToolDocs", "searchTools", "executeToolCode", "plain-echo", "plain-add", "plain-env"]));
    expect(names.some((n) => n.startsWith("edge-"))).toBe(false);
  });

  it("offers a virtual key only the tools it grants, and keeps the caller's own tools", async () => {
    provider.reset([textReply("ok")]);
    const own = { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } };
    const { status } = await ask("hi", { tools: [own] }, { authorization: `Bearer ${NARROW.value}` });
    expect(status).toBe(200);
    const names = provider.requests[0]!.body.tools!.map((t) => t.function.name);
    expect(names.filter((n) => n.includes("-"))).toEqual(["plain-echo"]);
    expect(names).toContain("get_weather");
    expect(names).toContain("executeToolCode");
    expect(provider.requests[0]!.headers.authorization).toBe("Bearer sk-provider-secret");
  });

  it("uses the first provider for a bare model name", async () => {
    provider.reset([textReply("first")]);
    const { body } = await post("/v1/chat/completions", { model: "gpt-x", messages: [{ role: "user", content: "hi" }] });
    expect(body.choices[0].message.content).toBe("first");
    expect(provider.requests[0]!.body.model).toBe("gpt-x");
  });

  it.each([
    [{ model: "scripted/m", messages: [{ role: "user", content: "x" }], n: 2 }, 400, "n must be 1 in agent mode (got 2)"],
    [{ model: "nobody/m", messages: [{ role: "user", content: "x" }] }, 400, "model names an unknown provider 'nobody' (configured: scripted, backup)"],
    [{ model: "scripted/m", messages: [] }, 400, "messages"],
    [{ messages: [{ role: "user", content: "x" }] }, 400, "model is required"],
    [{ model: "scripted/m", messages: [{ role: "user" }], tools: [{ type: "function", function: { name: "plain-echo" } }] }, 400, "tools[0].function.name 'plain-echo' is a gateway tool's name"],
    [{ model: "backup/m", messages: [{ role: "user", content: "x" }] }, 502, "provider 'backup' could not be reached"],
  ])("refuses %j with a clear error", async (payload, code, message) => {
    provider.reset([]);
    const { status, body } = await post("/v1/chat/completions", payload);
    expect(status).toBe(code);
    expect(body.error.message).toContain(message);
  });

  it("answers 502 naming the provider's own error", async () => {
    provider.reset([{ status: 429, body: { error: { message: "rate limited, slow down" } } }]);
    const { status, body } = await ask();
    expect(status).toBe(502);
    expect(body.error.message).toBe("provider 'scripted' answered 429: rate limited, slow down");
  });
});

describe("the agent loop", () => {
  it("runs an auto-executable script and sends its result back as a tool message", async () => {
    const run = toolCall("executeToolCode", { code: "RESULT = edge.add(a=2, b=3)" });
    provider.reset([toolCallsReply([run]), textReply("it is 5")]);
    const { status, body } = await ask("add 2 and 3");
    expect(status).toBe(200);
    expect(body.choices[0].message.content).toBe("it is 5");
    expect(body.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    expect(provider.requests).toHaveLength(2);
    const second = provider.requests[1]!.body.messages;
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(second[1]!.tool_calls).toEqual([run]);
    expect(toolMessages(1)[run.id]).toContain("Execution completed successfully.\nReturn value:\n5");
  });

  it("stops with the script pending when it calls a tool outside tools_to_auto_execute", async () => {
    const run = toolCall("executeToolCode", { code: "RESULT = edge.env(name='AGENT_SECRET')" });
    provider.reset([toolCallsReply([run]), textReply("never asked")]);
    const { body } = await ask();
    expect(provider.requests).toHaveLength(1);
    expect(body.choices[0].message.tool_calls).toEqual([run]);
    expect(body.choices[0].finish_reason).toBe("tool_calls");
    expect(body.approval_required).toEqual([
      { tool_call_id: run.id, name: "executeToolCode", reason: "line 1: edge.env() calls 'env', which is not in tools_to_auto_execute" },
    ]);
  });

  it("runs the auto-executable calls of a mixed round, and returns the rest with the results summarized", async () => {
    const calls = [
      toolCall("listToolFiles", {}),
      toolCall("plain-echo", { text: "direct hello" }),
      toolCall("executeToolCode", { code: "RESULT = edge.echo(text='from code')" }),
      toolCall("plain-add", { a: 40, b: 2 }),
      toolCall("get_weather", { city: "Oslo" }),
    ];
    provider.reset([toolCallsReply(calls, "Let me look.")]);
    const { body } = await ask();
    expect(provider.requests).toHaveLength(1);
    const choice = body.choices[0];
    expect(choice.finish_reason).toBe("stop");
    expect(choice.message.tool_calls).toEqual([calls[3], calls[4]]);
    const content: string = choice.message.content;
    expect(content).toMatch(/^Let me look\.\n\nRan 3 tool calls automatically:\n- listToolFiles \(call_\d+\):\n/);
    expect(content).toContain("servers/");
    expect(content).toContain(`- plain-echo (${calls[1]!.id}):\n    direct hello`);
    expect(content).toContain("Return value:");
    expect(content).toContain("from code");
    expect(content).toContain(`Waiting for approval: plain-add (${calls[3]!.id}), get_weather (${calls[4]!.id}).`);
    expect(body.approval_required.map((p: { reason: string }) => p.reason)).toEqual(["plain-add is not in tools_to_auto_execute", "not a gateway tool"]);
  });

  it("runs a round's auto-executable calls in parallel", async () => {
    await gateway.callTool("plain-reset_inflight", {}, { grants: null, label: "-" });
    const a = toolCall("plain-slow", { ms: 400, id: "a" });
    const b = toolCall("plain-slow", { ms: 400, id: "b" });
    const max = toolCall("plain-inflight_max", {});
    provider.reset([toolCallsReply([a, b]), toolCallsReply([max]), textReply("done")]);
    const started = performance.now();
    const { body } = await ask();
    expect(body.choices[0].message.content).toBe("done");
    expect(performance.now() - started).toBeLessThan(780);
    expect(toolMessages(1)).toEqual({ [a.id]: '{"id":"a"}', [b.id]: '{"id":"b"}' });
    expect(JSON.parse(toolMessages(2)[max.id]!)).toEqual({ max: 2 });
  });

  it("stops after max_agent_depth rounds of tools (depth 3: at most 4 provider calls), hot-reloaded from /api/config", async () => {
    const put = await fetch(`${base}/api/config`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_config: { mcp_agent_depth: 3 } }),
    });
    expect(put.status).toBe(200);
    const rounds = Array.from({ length: 6 }, () => toolCallsReply([toolCall("listToolFiles", {})]));
    provider.reset(rounds);
    const { body } = await ask();
    expect(provider.requests).toHaveLength(4);
    // The fourth answer goes back as it came: its tool calls were not run.
    expect(body.id).toBe(rounds[3]!.id);
    expect(body.choices[0].finish_reason).toBe("tool_calls");
    expect(body.usage.total_tokens).toBe(60);
  });

  it("sends tool errors and script errors back as tool messages", async () => {
    const calls = [
      toolCall("plain-fail", { message: "the disk is full" }),
      toolCall("executeToolCode", { code: "x = 1\nRESULT = x / 0" }),
      toolCall("executeToolCode", { code: "RESULT = edge.fail(message='upstream says no')" }),
      toolCall("executeToolCode", { code: "def broken(:\n    pass" }),
      toolCall("plain-echo", "{not json"),
      toolCall("readToolFile", { fileName: "servers/edge.pyi" }),
    ];
    provider.reset([toolCallsReply(calls), textReply("handled")]);
    const { body } = await ask();
    expect(body.choices[0].message.content).toBe("handled");
    const got = toolMessages(1);
    expect(got[calls[0]!.id]).toBe("Error: the disk is full");
    expect(got[calls[1]!.id]).toContain("Execution runtime error:\nZeroDivisionError: division by zero\n  at line 2");
    expect(got[calls[2]!.id]).toContain("ToolError: upstream says no");
    expect(got[calls[3]!.id]).toContain("Execution syntax error:\nSyntaxError");
    expect(got[calls[4]!.id]).toMatch(/^Error: the arguments of plain-echo are not valid JSON/);
    expect(got[calls[5]!.id]).toContain("def add(a: int, b: int)");
  });
});

describe("runtime authorization", () => {
  const viaGetattr = "name = 'en' + 'v'\nRESULT = getattr(edge, name)(name='AGENT_SECRET')";

  it("refuses, while unattended, a tool outside tools_to_auto_execute reached through getattr", async () => {
    const outcome = await gateway.callTool("executeToolCode", { code: viaGetattr }, { grants: null, label: "-" }, undefined, { unattended: true });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain("PermissionError: tool 'edge.env' is not in tools_to_auto_execute, so it cannot run unattended");
    expect(outcome.text).not.toContain("s3cr3t");
  });

  it("does not run it in the loop either: the pre-flight cannot resolve getattr with a computed name", async () => {
    const run = toolCall("executeToolCode", { code: viaGetattr });
    provider.reset([toolCallsReply([run])]);
    const { body } = await ask();
    expect(body.choices[0].message.tool_calls).toEqual([run]);
    expect(body.approval_required[0].reason).toBe("line 2: getattr(edge, ...) with a name that is not a string literal");
  });

  it("runs the same script once approved, through /v1/mcp/tool/execute (tools_to_execute only)", async () => {
    const { status, body } = await post("/v1/mcp/tool/execute", toolCall("executeToolCode", { code: viaGetattr }));
    expect(status).toBe(200);
    expect(body.content).toContain("Return value:\n\"s3cr3t\"");
  });

  it("still refuses an approved script a tool the virtual key does not grant", async () => {
    const code = "RESULT = getattr(edge, 'en' + 'v')(name='AGENT_SECRET')";
    const { body } = await post("/v1/mcp/tool/execute", toolCall("executeToolCode", { code }), { "x-bf-vk": NARROW.value });
    expect(body.content).toContain("PermissionError: tool 'edge.env' is not granted to this virtual key");
  });

  it("completes the approval round trip: pending script, approved execution, the result sent back to the model", async () => {
    const run = toolCall("executeToolCode", { code: "RESULT = {'secret': edge.env(name='AGENT_SECRET')}" });
    provider.reset([toolCallsReply([run]), textReply("the secret is s3cr3t")]);
    const first = await ask("what is the secret?");
    const pending = first.body.choices[0].message.tool_calls;
    expect(pending).toEqual([run]);

    const approved = await post("/v1/mcp/tool/execute", pending[0]);
    expect(approved.body).toMatchObject({ role: "tool", tool_call_id: run.id });
    expect(approved.body.content).toContain('"secret": "s3cr3t"');

    const messages = [{ role: "user", content: "what is the secret?" }, first.body.choices[0].message, approved.body];
    const second = await post("/v1/chat/completions", { model: "scripted/scripted-1", messages });
    expect(second.body.choices[0].message.content).toBe("the secret is s3cr3t");
    expect(toolMessages(1)[run.id]).toContain('"secret": "s3cr3t"');
  });
});

describe("plugins", () => {
  beforeEach(async () => {
    gateway.preToolCall = chainPlugins(await loadPlugins([PLUGIN]));
  });

  it("refuses a direct call the plugin denies (403 on /v1/mcp/tool/execute, naming the reason)", async () => {
    const { status, body } = await post("/v1/mcp/tool/execute", toolCall("plain-echo", { text: "forbidden" }));
    expect(status).toBe(403);
    expect(body.error.message).toBe("tool 'plain-echo' was refused by a plugin: the word 'forbidden' may not be echoed");
  });

  it("rewrites arguments of direct calls and of calls inside scripts", async () => {
    const direct = toolCall("plain-echo", { text: "whisper" });
    const script = toolCall("executeToolCode", { code: "RESULT = edge.echo(text='whisper')" });
    provider.reset([toolCallsReply([direct, script]), textReply("ok")]);
    await ask();
    expect(toolMessages(1)[direct.id]).toBe("WHISPER (rewritten)");
    expect(toolMessages(1)[script.id]).toContain('Return value:\n"WHISPER (rewritten)"');
    const { seen } = (await import(PLUGIN)) as typeof import("../fixtures/agent-plugin.js");
    expect(seen).toContainEqual({ server: "edge", name: "echo", arguments: { text: "whisper" }, caller: "-", via: "script", unattended: true });
    expect(seen).toContainEqual({ server: "plain", name: "echo", arguments: { text: "whisper" }, caller: "-", via: "direct", unattended: true });
  });

  it("authorizes the rewritten name: an unattended script's call rewritten to a non-auto tool is refused at run time", async () => {
    const code = "RESULT = edge.echo(text='env:AGENT_SECRET')";
    const run = toolCall("executeToolCode", { code });
    provider.reset([toolCallsReply([run]), textReply("refused")]);
    await ask();
    expect(toolMessages(1)[run.id]).toContain("PermissionError: tool 'edge.env' is not in tools_to_auto_execute");
    // Approved, the rewritten call is only held to tools_to_execute.
    const { body } = await post("/v1/mcp/tool/execute", toolCall("executeToolCode", { code }));
    expect(body.content).toContain('Return value:\n"s3cr3t"');
  });

  it("sends back for approval a direct call the plugin rewrote to a tool outside tools_to_auto_execute", async () => {
    const call = toolCall("plain-echo", { text: "env:AGENT_SECRET" });
    provider.reset([toolCallsReply([call])]);
    const { body } = await ask();
    expect(body.choices[0].message.tool_calls).toEqual([call]);
    expect(body.approval_required[0].reason).toBe("tool 'plain-env' is not in tools_to_auto_execute: it needs approval");
    const approved = await post("/v1/mcp/tool/execute", call);
    expect(approved.body.content).toBe("s3cr3t");
  });

  it("refuses the call when the plugin throws (a broken policy fails closed)", async () => {
    const { status, body } = await post("/v1/mcp/tool/execute", toolCall("executeToolCode", { code: "RESULT = edge.echo(text='broken')" }));
    expect(status).toBe(200);
    expect(body.content).toContain(`PermissionError: edge.echo() was refused by a plugin: plugin ${PLUGIN} failed: the plugin broke`);
  });

  it("refuses a call the plugin rewrote to a tool the server does not have", async () => {
    const script = await post("/v1/mcp/tool/execute", toolCall("executeToolCode", { code: "RESULT = edge.echo(text='ghost')" }));
    expect(script.body.content).toContain("PermissionError: a plugin rewrote edge.echo() to 'no_such_tool', which is not a tool of 'edge'");
    const direct = await post("/v1/mcp/tool/execute", toolCall("plain-echo", { text: "ghost" }));
    expect(direct.status).toBe(403);
    expect(direct.body.error.message).toBe("a plugin rewrote 'plain-echo' to 'plain-no_such_tool', which is not a tool of 'plain'");
  });

  it("reports a module that cannot be loaded or exports no hook, naming it", async () => {
    await expect(loadPlugins(["/nonexistent/plugin.js"])).rejects.toThrow(PluginError);
    await expect(loadPlugins(["/nonexistent/plugin.js"])).rejects.toThrow("plugins[0] (/nonexistent/plugin.js) cannot be loaded");
    await expect(loadPlugins([PLUGIN, NOT_A_PLUGIN])).rejects.toThrow(`plugins[1] (${NOT_A_PLUGIN}) does not export a preToolCall function`);
  });
});
