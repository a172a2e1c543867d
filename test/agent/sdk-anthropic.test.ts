// Agent mode driven by the official @anthropic-ai/sdk with its usual api key (x-api-key) and no
// virtual keys: POST /v1/messages whole and streamed with a provider of type anthropic (the
// wire provider speaking Messages JSON and SSE), with the real memory server.
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SdkGateway, startSdkGateway } from "./sdk-gateway.js";
import { call } from "./wire-provider.js";

let g: SdkGateway;
let client: Anthropic;
const USER_KEY = "sk-ant-api03-users-own-key";

beforeAll(async () => {
  g = await startSdkGateway([{ id: "narrow", name: "narrow", value: "sk-bf-narrow", is_active: false, mcp_configs: [] }]);
  client = new Anthropic({ apiKey: USER_KEY, baseURL: g.base, maxRetries: 0 });
});

afterAll(async () => {
  await g?.close();
});

const ask = (content: string) => ({ model: "claude/claude-wire", max_tokens: 256, messages: [{ role: "user" as const, content }] });

/** The tool_result blocks the provider received in request `i`, by tool_use_id. */
function toolResults(i: number): Record<string, string> {
  const messages = g.provider.requests[i]!.body.messages as { role: string; content: unknown }[];
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])) as { type: string; tool_use_id?: string; content?: string }[];
  return Object.fromEntries(blocks.filter((b) => b.type === "tool_result").map((b) => [b.tool_use_id!, String(b.content)]));
}

describe("Anthropic Messages", () => {
  it("offers the gateway's tools as Anthropic tools, auto-executes read-only calls, and forwards the caller's key", async () => {
    const run = call("executeToolCode", { code: "RESULT = memory.read_graph()" });
    g.provider.reset([{ text: "Looking.", calls: [run] }, { text: "Memory is empty." }]);
    const message = await client.messages.create(ask("what do you remember?"));
    expect(message.stop_reason).toBe("end_turn");
    expect(message.content).toEqual([{ type: "text", text: "Memory is empty." }]);
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 });
    const [first, second] = g.provider.requests;
    expect(first!.path).toBe("/v1/messages");
    expect(first!.headers["x-api-key"]).toBe(USER_KEY);
    expect(first!.headers["anthropic-version"]).toBe("2023-06-01");
    expect(first!.body.model).toBe("claude-wire");
    const tool = first!.body.tools.find((t: { name: string }) => t.name === "executeToolCode");
    expect(tool.input_schema).toMatchObject({ type: "object" });
    expect(second!.body.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Looking." }, { type: "tool_use", id: run.id, name: "executeToolCode", input: run.input }] });
    expect(toolResults(1)[run.id]).toContain("Execution completed successfully.");
  });

  it("streams rounds on with renumbered blocks, and ends with the tool_use that waits for approval", async () => {
    const run = call("executeToolCode", { code: "RESULT = memory.read_graph()" });
    const create = call("executeToolCode", { code: "RESULT = memory.create_entities(entities=[{'name': 'Lin', 'entityType': 'person', 'observations': []}])" });
    g.provider.reset([{ text: "Reading.", calls: [run] }, { text: "Saving.", calls: [create] }]);
    const stream = client.messages.stream(ask("remember Lin"));
    const texts: string[] = [];
    stream.on("text", (t) => texts.push(t));
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe("tool_use");
    expect(final.content).toEqual([
      { type: "text", text: "Reading." },
      { type: "text", text: "Saving." },
      { type: "tool_use", id: create.id, name: "executeToolCode", input: create.input },
    ]);
    expect(texts.length).toBeGreaterThanOrEqual(4);
    expect(g.provider.requests).toHaveLength(2);
    expect(g.provider.requests.every((r) => r.body.stream === true)).toBe(true);

    // Approved: run through /v1/mcp/tool/execute, sent back as a tool_result.
    const approved = (await (await fetch(`${g.base}/v1/mcp/tool/execute`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: create.id, type: "function", function: { name: "executeToolCode", arguments: JSON.stringify(create.input) } }) })).json()) as { content: string };
    expect(approved.content).toContain("Lin");
    g.provider.reset([{ text: "Lin is saved." }]);
    const next = await client.messages.create({
      ...ask("remember Lin"),
      messages: [ask("remember Lin").messages[0]!, { role: "assistant", content: final.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: create.id, content: approved.content }] }],
    });
    expect(next.content).toEqual([{ type: "text", text: "Lin is saved." }]);
    expect(toolResults(0)[create.id]).toContain("Lin");
  });

  it("raises an error mid-stream as the SDK's APIError", async () => {
    g.provider.reset([{ text: "so far", failMidStream: "Overloaded" }]);
    await expect(client.messages.stream(ask("x")).finalMessage()).rejects.toThrow(/Overloaded/);
  });

  it("refuses with 400 a Messages request for an OpenAI-compatible provider, in Anthropic's error shape", async () => {
    g.provider.reset([]);
    await expect(client.messages.create({ ...ask("x"), model: "wire/m1" })).rejects.toMatchObject({ status: 400, error: { type: "error", error: { type: "invalid_request_error" } } });
    await expect(client.messages.create({ ...ask("x"), model: "wire/m1" })).rejects.toThrow(/no faithful translation/);
    const chat = await fetch(`${g.base}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "claude/x", messages: [{ role: "user", content: "x" }] }) });
    expect(chat.status).toBe(400);
    expect(g.provider.requests).toHaveLength(0);
  });

  it("reads a prefixed x-api-key as a virtual key: a revoked one is a 401, never keyless access", async () => {
    g.provider.reset([{ text: "should not be reached" }]);
    const revoked = new Anthropic({ apiKey: "sk-bf-narrow", baseURL: g.base, maxRetries: 0 });
    await expect(revoked.messages.create(ask("x"))).rejects.toMatchObject({ status: 401 });
    expect(g.provider.requests).toHaveLength(0);
  });
});
