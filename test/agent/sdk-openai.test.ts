// Agent mode driven by the official openai SDK (6.x) with its usual api key and no virtual keys:
// chat completions whole and streamed, and the Responses API, against the wire provider on
// loopback, with the real memory server (its read-only tools auto-execute through @read_only).
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SdkGateway, startSdkGateway, toolMessages } from "./sdk-gateway.js";
import { call } from "./wire-provider.js";

let g: SdkGateway;
let client: OpenAI;
/** What the SDK sends when the user's OPENAI_API_KEY is set: not a virtual key. */
const USER_KEY = "sk-proj-users-own-key";

beforeAll(async () => {
  g = await startSdkGateway();
  client = new OpenAI({ apiKey: USER_KEY, baseURL: `${g.base}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await g?.close();
});

beforeEach(() => {
  g.gateway.settings = { ...g.gateway.settings, maxAgentDepth: 10 };
});

const readGraph = () => call("executeToolCode", { code: "RESULT = memory.read_graph()" });
const user = (content: string) => [{ role: "user" as const, content }];

describe("chat completions with the SDK's own key and no virtual keys", () => {
  it("waits for the first connections, offers the meta-tools, and forwards the caller's key only to a passthrough provider", async () => {
    g.provider.reset([{ text: "hello" }, { text: "again" }]);
    const first = await client.chat.completions.create({ model: "wire/m1", messages: user("hi") });
    expect(first.choices[0]!.message.content).toBe("hello");
    const sent = g.provider.requests[0]!;
    expect(sent.headers.authorization).toBe("Bearer sk-gateway-own");
    expect(sent.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain("executeToolCode");
    await client.chat.completions.create({ model: "own/m1", messages: user("hi") });
    expect(g.provider.requests[1]!.headers.authorization).toBe(`Bearer ${USER_KEY}`);
  });

  it("refuses a passthrough provider's request that carries no key of the caller's (401)", async () => {
    g.provider.reset([]);
    const res = await fetch(`${g.base}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "own/m", messages: user("x") }) });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("api_key: passthrough");
    expect(g.provider.requests).toHaveLength(0);
  });

  it("streams an auto-executed round and the next round on, as one assembled answer", async () => {
    const run = readGraph();
    g.provider.reset([{ text: "Let me read the graph.", calls: [run] }, { text: "The graph is empty." }]);
    const stream = client.chat.completions.stream({ model: "wire/m1", messages: user("what is in memory?"), stream_options: { include_usage: true } });
    const pieces: string[] = [];
    stream.on("content", (delta) => pieces.push(delta));
    const done = await stream.finalChatCompletion();
    expect(done.choices[0]!.message.content).toBe("Let me read the graph.\n\nThe graph is empty.");
    expect(done.choices[0]!.message.tool_calls ?? []).toEqual([]);
    expect(done.choices[0]!.finish_reason).toBe("stop");
    expect(done.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    expect(pieces.length).toBeGreaterThan(3);
    expect(g.provider.requests).toHaveLength(2);
    expect(g.provider.requests.every((r) => r.body.stream === true)).toBe(true);
    expect(toolMessages(g.provider, 1)[run.id]).toContain("Execution completed successfully.");
  });

  it("ends the stream as tool_calls when a call needs approval, then completes the round trip", async () => {
    const create = call("executeToolCode", { code: "RESULT = memory.create_entities(entities=[{'name': 'Ada', 'entityType': 'person', 'observations': ['wrote the first program']}])" });
    g.provider.reset([{ calls: [create] }]);
    const stream = client.chat.completions.stream({ model: "wire/m1", messages: user("remember Ada") });
    let approval: unknown;
    stream.on("chunk", (chunk) => {
      if ((chunk as { approval_required?: unknown }).approval_required) approval = (chunk as { approval_required?: unknown }).approval_required;
    });
    const pending = await stream.finalChatCompletion();
    const choice = pending.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.tool_calls).toEqual([{ id: create.id, type: "function", function: { name: "executeToolCode", arguments: JSON.stringify(create.input) } }]);
    expect(approval).toEqual([{ tool_call_id: create.id, name: "executeToolCode", reason: "line 1: memory.create_entities() calls 'create_entities', which is not in tools_to_auto_execute" }]);
    expect(g.provider.requests).toHaveLength(1);

    const approved = (await (await fetch(`${g.base}/v1/mcp/tool/execute`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(choice.message.tool_calls![0]) })).json()) as { role: "tool"; tool_call_id: string; content: string };
    expect(approved.content).toContain("Ada");
    g.provider.reset([{ text: "Ada is remembered." }]);
    const next = await client.chat.completions.create({ model: "wire/m1", messages: [...user("remember Ada"), choice.message as OpenAI.ChatCompletionMessageParam, approved] });
    expect(next.choices[0]!.message.content).toBe("Ada is remembered.");
    expect(toolMessages(g.provider, 0)[create.id]).toContain("Ada");
    const graph = await g.gateway.callTool("executeToolCode", { code: "RESULT = [e['name'] for e in memory.read_graph()['entities']]" }, { grants: null, label: "-" });
    expect(graph.text).toContain('"Ada"');
  });

  it("holds an indirect call for approval: a tool reached through a computed name is not auto-executed", async () => {
    const sneaky = call("executeToolCode", { code: "name = 'delete_' + 'entities'\nRESULT = getattr(memory, name)(entityNames=['Ada'])" });
    g.provider.reset([{ calls: [sneaky] }]);
    const pending = await client.chat.completions.stream({ model: "wire/m1", messages: user("forget Ada") }).finalChatCompletion();
    expect(pending.choices[0]!.finish_reason).toBe("tool_calls");
    expect(pending.choices[0]!.message.tool_calls![0]!.id).toBe(sneaky.id);
    expect(g.provider.requests).toHaveLength(1);
    // Run unattended anyway, the call itself is refused.
    const outcome = await g.gateway.callTool("executeToolCode", sneaky.input, { grants: null, label: "-" }, undefined, { unattended: true });
    expect(outcome.text).toContain("PermissionError: tool 'memory.delete_entities' is not in tools_to_auto_execute");
  });

  it("stops after max_agent_depth rounds, streaming the last calls unrun", async () => {
    g.gateway.settings = { ...g.gateway.settings, maxAgentDepth: 2 };
    const calls = [call("listToolFiles", {}), call("listToolFiles", {}), call("listToolFiles", {}), call("listToolFiles", {})];
    g.provider.reset(calls.map((c) => ({ calls: [c] })));
    const last = await client.chat.completions.stream({ model: "wire/m1", messages: user("loop") }).finalChatCompletion();
    expect(g.provider.requests).toHaveLength(3);
    expect(last.choices[0]!.finish_reason).toBe("tool_calls");
    expect(last.choices[0]!.message.tool_calls![0]!.id).toBe(calls[2]!.id);
  });

  it("raises a provider error mid-stream as an APIError, and one before the stream as its status", async () => {
    g.provider.reset([{ text: "partial answer", failMidStream: "the model crashed" }]);
    const stream = await client.chat.completions.create({ model: "wire/m1", messages: user("x"), stream: true });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta?.content ?? "");
      })(),
    ).rejects.toThrow(/the model crashed/);
    expect(seen.join("")).toBe("partial answer");

    g.provider.reset([{ status: 429, body: { error: { message: "slow down" } } }]);
    const refused = client.chat.completions.create({ model: "wire/m1", messages: user("x"), stream: true });
    await expect(refused).rejects.toMatchObject({ status: 502, message: expect.stringContaining("provider 'wire' answered 429: slow down") });
  });

  it("cancels the provider request when the client goes away mid-stream, and calls nothing more", async () => {
    g.provider.reset([{ text: "thinking about it", hang: true }, { text: "never" }]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ model: "wire/m1", messages: user("x"), stream: true }, { signal: controller.signal });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) break;
    }
    controller.abort();
    await g.provider.abortedAt(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(g.provider.requests).toHaveLength(1);
  });

  it("cancels a running script when the client goes away, and makes no further provider round", async () => {
    const slow = call("executeToolCode", { code: "import asyncio\nasync def main():\n    await asyncio.sleep(20)\nasyncio.run(main())\nRESULT = memory.read_graph()" });
    g.provider.reset([{ calls: [slow] }, { text: "never" }]);
    const ended = new Promise<{ error: unknown }>((resolve) => g.gateway.once("execution", (e: { result: { error: unknown } }) => resolve(e.result)));
    const controller = new AbortController();
    const request = client.chat.completions.create({ model: "wire/m1", messages: user("x"), stream: true }, { signal: controller.signal });
    const started = performance.now();
    await new Promise((r) => setTimeout(r, 600));
    controller.abort();
    await request.then(async (s) => { for await (const _ of s) void _; }).catch(() => undefined);
    const result = await ended;
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.error).not.toBeNull();
    await new Promise((r) => setTimeout(r, 200));
    expect(g.provider.requests).toHaveLength(1);
  });
});

describe("the Responses API", () => {
  it("runs the loop and answers a Response with output_text", async () => {
    const run = readGraph();
    g.provider.reset([{ calls: [run] }, { text: "Nothing stored yet." }]);
    const response = await client.responses.create({ model: "wire/m1", instructions: "Be brief.", input: "what is in memory?" });
    expect(response.object).toBe("response");
    expect(response.status).toBe("completed");
    expect(response.output_text).toBe("Nothing stored yet.");
    expect(response.usage).toMatchObject({ input_tokens: 20, output_tokens: 10, total_tokens: 30 });
    const first = g.provider.requests[0]!.body;
    expect(first.messages).toEqual([{ role: "system", content: "Be brief." }, { role: "user", content: "what is in memory?" }]);
    expect(toolMessages(g.provider, 1)[run.id]).toContain("Execution completed successfully.");
  });

  it("streams events, ends with the waiting function_call, and takes its function_call_output back", async () => {
    const create = call("executeToolCode", { code: "RESULT = memory.create_entities(entities=[{'name': 'Grace', 'entityType': 'person', 'observations': []}])" });
    const run = readGraph();
    g.provider.reset([{ text: "Checking first.", calls: [run] }, { text: "Now saving.", calls: [create] }]);
    const stream = client.responses.stream({ model: "wire/m1", input: "remember Grace" });
    const types = new Set<string>();
    stream.on("event", (e) => types.add(e.type));
    const final = await stream.finalResponse();
    expect([...types]).toEqual(expect.arrayContaining(["response.created", "response.output_text.delta", "response.function_call_arguments.done", "response.completed"]));
    expect(final.output_text).toBe("Checking first.\n\nNow saving.");
    const fc = final.output.find((o) => o.type === "function_call") as OpenAI.Responses.ResponseFunctionToolCall;
    expect(fc).toMatchObject({ call_id: create.id, name: "executeToolCode", arguments: JSON.stringify(create.input) });
    expect((final as unknown as { approval_required: unknown[] }).approval_required).toHaveLength(1);

    const executed = await fetch(`${g.base}/v1/mcp/tool/execute?format=responses`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "function_call", call_id: fc.call_id, name: fc.name, arguments: fc.arguments }) });
    const output = (await executed.json()) as { type: "function_call_output"; call_id: string; output: string };
    expect(output.output).toContain("Grace");
    g.provider.reset([{ text: "Saved." }]);
    const next = await client.responses.create({ model: "wire/m1", input: [{ role: "user", content: "remember Grace" }, { type: "function_call", call_id: fc.call_id, name: fc.name, arguments: fc.arguments }, output] });
    expect(next.output_text).toBe("Saved.");
    const messages = g.provider.requests[0]!.body.messages;
    expect(messages[1]).toMatchObject({ role: "assistant", tool_calls: [{ id: create.id, function: { name: "executeToolCode" } }] });
    expect(messages[2]).toMatchObject({ role: "tool", tool_call_id: create.id });
  });

  it("refuses with 400 what has no chat completions equivalent, naming it", async () => {
    g.provider.reset([]);
    await expect(client.responses.create({ model: "wire/m1", input: "x", tools: [{ type: "web_search" }] })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("tools[0].type: 'web_search' tools have no chat completions equivalent") });
    await expect(client.responses.create({ model: "wire/m1", input: "x", previous_response_id: "resp_1" })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("previous_response_id") });
    await expect(client.responses.create({ model: "claude/x", input: "x" })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("is of type anthropic") });
    expect(g.provider.requests).toHaveLength(0);
  });

  it("ends a failing stream with response.failed carrying the error", async () => {
    g.provider.reset([{ text: "half", failMidStream: "upstream fell over" }]);
    const stream = await client.responses.create({ model: "wire/m1", input: "x", stream: true });
    const events: { type: string; response?: { error?: { message: string } } }[] = [];
    for await (const e of stream) events.push(e as never);
    const last = events[events.length - 1]!;
    expect(last.type).toBe("response.failed");
    expect(last.response!.error!.message).toContain("upstream fell over");
  });
});
