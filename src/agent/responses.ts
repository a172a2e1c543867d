// POST /v1/responses (OpenAI's Responses shape) served through chat completions: the request is
// translated to a chat request for an OpenAI-compatible provider, the same loop runs, and the
// answer is written back as a Response (`message` and `function_call` output items). Only what
// translates faithfully is accepted: text and image input, function tools, function_call /
// function_call_output items. What has no chat equivalent (built-in tools, a stored
// conversation, background runs) is a 400 naming the field. Nothing is stored.
import { randomBytes } from "node:crypto";
import type { StreamEnd } from "./chat-stream.js";
import { AgentRequestError, type ChatCompletion, type ChatMessage, type ChatToolCall } from "./providers.js";

export type ResponsesBody = { model: string; input?: unknown; stream?: boolean } & Record<string, unknown>;

/** Fields copied to the chat request as they are. */
const SAME_FIELDS = ["temperature", "top_p", "parallel_tool_calls", "user", "service_tier", "safety_identifier", "prompt_cache_key"] as const;

/** Fields that say nothing the chat request needs (there is no store to keep the response in). */
const IGNORED_FIELDS = new Set(["model", "stream", "store", "metadata", "stream_options", "truncation"]);

/** Fields with no chat equivalent, and what to do instead. */
const REFUSED_FIELDS: Record<string, string> = {
  previous_response_id: "the gateway stores no responses: send the whole conversation in input",
  conversation: "the gateway stores no conversations: send the whole conversation in input",
  background: "background responses are not supported in agent mode",
  prompt: "stored prompts are not supported in agent mode: send instructions and input",
  include: "include has no chat completions equivalent",
  max_tool_calls: "max_tool_calls has no chat completions equivalent (the gateway's max_agent_depth bounds the rounds)",
  top_logprobs: "top_logprobs is not supported in agent mode",
};

function refuse(message: string): never {
  throw new AgentRequestError(400, message);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The chat request (without `model`) a Responses request stands for. */
export function chatRequestOf(body: ResponsesBody): Record<string, unknown> & { messages: ChatMessage[] } {
  for (const [field, value] of Object.entries(body)) {
    if (value === undefined || value === null || IGNORED_FIELDS.has(field)) continue;
    const why = REFUSED_FIELDS[field];
    if (why !== undefined && !(field === "include" && Array.isArray(value) && value.length === 0) && !(field === "background" && value === false)) refuse(`${field}: ${why}`);
  }
  if (body.truncation !== undefined && body.truncation !== "disabled") refuse(`truncation: only "disabled" is supported in agent mode (got ${JSON.stringify(body.truncation)})`);
  const messages: ChatMessage[] = [];
  if (body.instructions !== undefined && body.instructions !== null) {
    if (typeof body.instructions !== "string") refuse("instructions: must be a string");
    messages.push({ role: "system", content: body.instructions });
  }
  messages.push(...inputMessages(body.input));
  if (messages.length === 0) refuse("input: must not be empty");
  const chat: Record<string, unknown> & { messages: ChatMessage[] } = { messages };
  for (const field of SAME_FIELDS) if (body[field] !== undefined) chat[field] = body[field];
  if (body.max_output_tokens !== undefined && body.max_output_tokens !== null) chat.max_completion_tokens = body.max_output_tokens;
  if (body.tools !== undefined) chat.tools = chatToolsOf(body.tools);
  if (body.tool_choice !== undefined) chat.tool_choice = toolChoiceOf(body.tool_choice);
  Object.assign(chat, textOptionsOf(body.text));
  if (isRecord(body.reasoning) && typeof body.reasoning.effort === "string") chat.reasoning_effort = body.reasoning.effort;
  return chat;
}

function inputMessages(input: unknown): ChatMessage[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) refuse("input: must be a string or a list of items");
  const messages: ChatMessage[] = [];
  input.forEach((item, i) => {
    const at = `input[${i}]`;
    if (!isRecord(item)) refuse(`${at}: must be an object`);
    const type = item.type ?? "message";
    switch (type) {
      case "message":
        messages.push(messageOf(item, at));
        return;
      case "function_call": {
        if (typeof item.call_id !== "string" || typeof item.name !== "string") refuse(`${at}: a function_call needs call_id and name`);
        const call: ChatToolCall = { id: item.call_id, type: "function", function: { name: item.name, arguments: typeof item.arguments === "string" ? item.arguments : "{}" } };
        const last = messages[messages.length - 1];
        // Calls of one turn share the assistant message that made them.
        if (last?.role === "assistant" && Array.isArray(last.tool_calls)) last.tool_calls.push(call);
        else if (last?.role === "assistant" && last.tool_calls === undefined) last.tool_calls = [call];
        else messages.push({ role: "assistant", content: null, tool_calls: [call] });
        return;
      }
      case "function_call_output": {
        if (typeof item.call_id !== "string") refuse(`${at}: a function_call_output needs call_id`);
        messages.push({ role: "tool", tool_call_id: item.call_id, content: outputText(item.output, `${at}.output`) });
        return;
      }
      case "reasoning":
        // A chat provider takes no reasoning items; the model reasons afresh.
        return;
      default:
        refuse(`${at}.type: '${String(type)}' items have no chat completions equivalent (use message, function_call and function_call_output)`);
    }
  });
  return messages;
}

function messageOf(item: Record<string, unknown>, at: string): ChatMessage {
  const role = item.role;
  if (role !== "user" && role !== "assistant" && role !== "system" && role !== "developer") refuse(`${at}.role: must be user, assistant, system or developer`);
  if (typeof item.content === "string") return { role, content: item.content };
  if (!Array.isArray(item.content)) refuse(`${at}.content: must be a string or a list of content parts`);
  const parts = item.content.map((part, j) => partOf(part, `${at}.content[${j}]`));
  // Only user messages take parts other than text in chat completions.
  if (role !== "user" || parts.every((p) => p.type === "text")) {
    if (parts.some((p) => p.type !== "text")) refuse(`${at}.content: a ${role} message can hold only text`);
    return { role, content: parts.map((p) => p.text as string).join("") };
  }
  return { role, content: parts };
}

function partOf(part: unknown, at: string): Record<string, unknown> {
  if (!isRecord(part)) refuse(`${at}: must be an object`);
  switch (part.type) {
    case "input_text":
    case "output_text":
      if (typeof part.text !== "string") refuse(`${at}.text: must be a string`);
      return { type: "text", text: part.text };
    case "refusal":
      return { type: "text", text: String(part.refusal ?? "") };
    case "input_image":
      if (typeof part.image_url !== "string") refuse(`${at}: only images given by image_url are supported in agent mode (not file_id)`);
      return { type: "image_url", image_url: { url: part.image_url, ...(typeof part.detail === "string" ? { detail: part.detail } : {}) } };
    default:
      return refuse(`${at}.type: '${String(part.type)}' content has no chat completions equivalent`);
  }
}

function outputText(output: unknown, at: string): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output) && output.every((p) => isRecord(p) && p.type === "input_text" && typeof p.text === "string")) {
    return output.map((p) => (p as { text: string }).text).join("");
  }
  return refuse(`${at}: must be a string or a list of input_text parts`);
}

function chatToolsOf(tools: unknown): Record<string, unknown>[] {
  if (!Array.isArray(tools)) refuse("tools: must be a list");
  return tools.map((tool, i) => {
    if (!isRecord(tool) || tool.type !== "function") {
      refuse(`tools[${i}].type: '${isRecord(tool) ? String(tool.type) : typeof tool}' tools have no chat completions equivalent (only function tools)`);
    }
    if (typeof tool.name !== "string") refuse(`tools[${i}].name: must be a string`);
    const fn: Record<string, unknown> = { name: tool.name };
    for (const field of ["description", "parameters", "strict"]) if (tool[field] !== undefined && tool[field] !== null) fn[field] = tool[field];
    return { type: "function", function: fn };
  });
}

function toolChoiceOf(choice: unknown): unknown {
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (isRecord(choice) && choice.type === "function" && typeof choice.name === "string") return { type: "function", function: { name: choice.name } };
  return refuse(`tool_choice: ${JSON.stringify(choice)} has no chat completions equivalent (use auto, none, required or a function)`);
}

function textOptionsOf(text: unknown): Record<string, unknown> {
  if (text === undefined || text === null) return {};
  if (!isRecord(text)) refuse("text: must be an object");
  const out: Record<string, unknown> = {};
  if (typeof text.verbosity === "string") out.verbosity = text.verbosity;
  const format = text.format;
  if (format === undefined || format === null) return out;
  if (!isRecord(format)) refuse("text.format: must be an object");
  if (format.type === "text") return out;
  if (format.type === "json_object") return { ...out, response_format: { type: "json_object" } };
  if (format.type === "json_schema") {
    const { type: _type, ...schema } = format;
    return { ...out, response_format: { type: "json_schema", json_schema: schema } };
  }
  return refuse(`text.format.type: '${String(format.type)}' has no chat completions equivalent`);
}

/** A fresh item or response id with OpenAI's prefixes (`resp_`, `msg_`, `fc_`). */
export function itemId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

/** Chat usage in the Responses shape. */
export function responsesUsage(usage: ChatCompletion["usage"] | undefined): Record<string, unknown> | null {
  if (!usage || typeof usage.prompt_tokens !== "number" || typeof usage.completion_tokens !== "number") return null;
  const cached = (usage.prompt_tokens_details as { cached_tokens?: number } | undefined)?.cached_tokens ?? 0;
  const reasoning = (usage.completion_tokens_details as { reasoning_tokens?: number } | undefined)?.reasoning_tokens ?? 0;
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
  };
}

/** A Response's status from the chat finish reason. */
export function statusOf(finishReason: string): { status: string; incomplete_details: Record<string, unknown> | null } {
  if (finishReason === "length") return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } };
  if (finishReason === "content_filter") return { status: "incomplete", incomplete_details: { reason: "content_filter" } };
  return { status: "completed", incomplete_details: null };
}

/** The fields of a Response that echo the request, for its skeleton. */
export function responseSkeleton(id: string, body: ResponsesBody): Record<string, unknown> {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "in_progress",
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: body.reasoning ?? null,
    store: false,
    temperature: body.temperature ?? null,
    text: body.text ?? { format: { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: body.top_p ?? null,
    truncation: "disabled",
    usage: null,
    metadata: body.metadata ?? {},
  };
}

export function messageItem(id: string, text: string, status = "completed"): Record<string, unknown> {
  return { id, type: "message", status, role: "assistant", content: [{ type: "output_text", text, annotations: [] }] };
}

export function functionCallItem(id: string, call: ChatToolCall, status = "completed"): Record<string, unknown> {
  return { id, type: "function_call", status, call_id: call.id, name: call.function.name, arguments: call.function.arguments };
}

/** The whole Response of a loop that did not stream: the model's text (and the gateway's), then the calls left to the caller. */
export function responseOf(body: ResponsesBody, ownText: string | null, end: StreamEnd): Record<string, unknown> {
  const text = [ownText, end.text].filter((t): t is string => typeof t === "string" && t !== "").join("\n\n");
  const output: Record<string, unknown>[] = [];
  if (text !== "") output.push(messageItem(itemId("msg"), text));
  for (const call of end.toolCalls) output.push(functionCallItem(itemId("fc"), call));
  return { ...responseSkeleton(itemId("resp"), body), ...statusOf(end.finishReason), output, usage: responsesUsage(end.usage), ...end.extra };
}
