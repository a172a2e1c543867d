// The agent-mode requests, one function per route shape, independent of the HTTP framework:
// each takes the gateway, the caller, the body and an exchange (the abort signal of the client's
// connection and the event sink of its stream) and answers a status and body, or says it
// streamed. Which provider serves which shape: chat completions and Responses go to
// OpenAI-compatible providers (Responses translated to chat completions), Anthropic Messages to
// providers of "type": "anthropic"; any other pairing has no faithful translation and is a 400.
import type { ProviderConfig } from "../gateway/config-file.js";
import type { Caller } from "../gateway/caller.js";
import type { Gateway, GatewayTool } from "../gateway/gateway.js";
import { type AnthropicMessage, anthropicMessage, anthropicMessageStream, type ContentBlock } from "./anthropic-provider.js";
import { anthropicError, anthropicTools, type MessagesEnd, MessagesConversation, MessagesEventStream, messageOf } from "./anthropic.js";
import { ChatChunkStream, type StreamEnd, type StreamOutput } from "./chat-stream.js";
import { approvalRequired, approvalSummary, ChatConversation, chatTools, type LoopOutcome, runAgent, runLoop } from "./loop.js";
import {
  AgentRequestError,
  type CallerKeys,
  type ChatCompletion,
  type ChatMessage,
  type ChatToolCall,
  chatCompletion,
  chatCompletionStream,
  resolveModel,
} from "./providers.js";
import { chatRequestOf, responseOf, type ResponsesBody } from "./responses.js";
import { ResponsesEventStream } from "./responses-stream.js";
import type { EventSink } from "./sse.js";

export interface AgentExchange {
  gateway: Gateway;
  caller: Caller;
  providers: readonly ProviderConfig[];
  /** The caller's own provider keys, for providers with `api_key: "passthrough"`. */
  keys: CallerKeys;
  /** Aborted when the client goes away: the running scripts and the provider request stop. */
  signal: AbortSignal;
  /** The caller's stream, opened at its first event. */
  sink: EventSink;
}

export type AgentAnswer = { status: number; body: unknown } | { streamed: true };

export type ChatBody = { model: string; messages: ChatMessage[]; tools?: Record<string, unknown>[]; stream?: boolean; n?: number } & Record<string, unknown>;
export type MessagesBody = { model: string; messages: Record<string, unknown>[]; tools?: Record<string, unknown>[]; stream?: boolean } & Record<string, unknown>;

/** The longest an agent request waits for servers still making their first connection (as tool calls do). */
const FIRST_CONNECTION_WAIT_MS = 5_000;

/**
 * The gateway tools offered to the provider, once the servers still making their first connection
 * have settled (at most 5 s): a request sent right after start-up would otherwise get no meta-tools.
 */
async function offeredTools(x: AgentExchange, own: readonly unknown[], field: (i: number) => string): Promise<GatewayTool[]> {
  if (x.gateway.manager.list().some((c) => c.state === "connecting")) await x.gateway.manager.settled(FIRST_CONNECTION_WAIT_MS, x.signal);
  const offered = x.gateway.listTools(x.caller);
  const names = new Set(offered.map((t) => t.name));
  own.forEach((name, i) => {
    if (typeof name === "string" && names.has(name)) throw new AgentRequestError(400, `${field(i)} '${name}' is a gateway tool's name; rename your tool`);
  });
  return offered;
}

function openAiProvider(x: AgentExchange, model: string, route: string): { provider: ProviderConfig; model: string } {
  const resolved = resolveModel(x.providers, model);
  if (resolved.provider.type === "anthropic") {
    throw new AgentRequestError(
      400,
      `provider '${resolved.provider.name}' is of type anthropic: send this request to /v1/messages (${route} is served by OpenAI-compatible providers only; it has no faithful translation to Anthropic Messages)`,
    );
  }
  return resolved;
}

function statusOf(e: unknown): number {
  const status = (e as { statusCode?: unknown }).statusCode;
  return typeof status === "number" && status >= 400 && status < 600 ? status : 500;
}

/** An error before anything was streamed is an HTTP status; after, the stream's own error event. */
function failed(x: AgentExchange, e: unknown, out: { fail(message: string): void } | null, body: (status: number, message: string) => unknown): AgentAnswer {
  const message = (e as Error)?.message ?? String(e);
  if (x.sink.started || x.signal.aborted) {
    if (x.signal.aborted) x.sink.end();
    else if (out) out.fail(message);
    return { streamed: true };
  }
  const status = statusOf(e);
  return { status, body: body(status, message) };
}

const openAiError = (_status: number, message: string) => ({ error: { message } });

/** How a chat-shaped loop ends, for a stream or a Response. */
function chatEnd(outcome: LoopOutcome<ChatCompletion, ChatToolCall>, usage: ChatCompletion["usage"]): StreamEnd {
  if (outcome.kind === "answer") {
    const choice = outcome.answer.choices[0]!;
    return { toolCalls: choice.message.tool_calls ?? [], finishReason: choice.finish_reason ?? "stop", ...(usage ? { usage } : {}) };
  }
  return {
    ...(outcome.executed.length > 0 ? { text: approvalSummary(outcome.executed, outcome.pending) } : {}),
    toolCalls: outcome.pending.map((p) => p.call.raw),
    finishReason: "tool_calls",
    ...(usage ? { usage } : {}),
    extra: { approval_required: approvalRequired(outcome.pending) },
  };
}

/** Runs a chat-shaped loop whose rounds stream into `out`. */
async function streamChat(x: AgentExchange, provider: ProviderConfig, model: string, body: Record<string, unknown> & { messages: ChatMessage[] }, offered: GatewayTool[], out: StreamOutput): Promise<void> {
  const conversation = new ChatConversation(body, chatTools(body, offered), (round) => {
    out.round();
    return chatCompletionStream(provider, { ...round, model }, (chunk) => out.chunk(chunk), x.signal, x.keys);
  });
  const outcome = await runLoop(x.gateway, x.caller, offered, conversation, x.signal);
  out.finish(chatEnd(outcome, conversation.usage.total()));
}

/** POST /v1/chat/completions. */
export async function handleChat(x: AgentExchange, body: ChatBody): Promise<AgentAnswer> {
  let out: ChatChunkStream | null = null;
  try {
    if (body.n !== undefined && body.n !== 1) throw new AgentRequestError(400, `n must be 1 in agent mode (got ${body.n})`);
    const { provider, model } = openAiProvider(x, body.model, "/v1/chat/completions");
    const offered = await offeredTools(x, (body.tools ?? []).map((t) => (t.function as { name?: unknown } | undefined)?.name), (i) => `tools[${i}].function.name`);
    const { model: _model, stream, ...rest } = body;
    if (stream !== true) {
      const answer = await runAgent({ gateway: x.gateway, caller: x.caller, body: rest, complete: (round) => chatCompletion(provider, { ...round, model }, x.signal, x.keys), signal: x.signal });
      return { status: 200, body: answer };
    }
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    out = new ChatChunkStream(x.sink, includeUsage);
    await streamChat(x, provider, model, rest, offered, out);
    return { streamed: true };
  } catch (e) {
    return failed(x, e, out, openAiError);
  }
}

/** POST /v1/responses, through chat completions. */
export async function handleResponses(x: AgentExchange, body: ResponsesBody): Promise<AgentAnswer> {
  let out: ResponsesEventStream | null = null;
  try {
    const { provider, model } = openAiProvider(x, body.model, "/v1/responses");
    const chat = chatRequestOf(body);
    const offered = await offeredTools(x, ((chat.tools ?? []) as { function: { name: unknown } }[]).map((t) => t.function.name), (i) => `tools[${i}].name`);
    if (body.stream !== true) {
      const conversation = new ChatConversation(chat, chatTools(chat, offered), (round) => chatCompletion(provider, { ...round, model }, x.signal, x.keys));
      const outcome = await runLoop(x.gateway, x.caller, offered, conversation, x.signal);
      const content = outcome.answer.choices[0]!.message.content;
      return { status: 200, body: responseOf(body, typeof content === "string" ? content : null, chatEnd(outcome, conversation.usage.total())) };
    }
    out = new ResponsesEventStream(x.sink, body);
    await streamChat(x, provider, model, { ...chat, stream_options: { include_usage: true } }, offered, out);
    return { streamed: true };
  } catch (e) {
    return failed(x, e, out, openAiError);
  }
}

function messagesEnd(outcome: LoopOutcome<AnthropicMessage, ContentBlock>, usage: Record<string, number>): MessagesEnd {
  if (outcome.kind === "answer") {
    return { toolUses: outcome.answer.content.filter((b) => b.type === "tool_use"), stopReason: outcome.answer.stop_reason, usage };
  }
  return {
    ...(outcome.executed.length > 0 ? { text: approvalSummary(outcome.executed, outcome.pending) } : {}),
    toolUses: outcome.pending.map((p) => p.call.raw),
    stopReason: "tool_use",
    usage,
    extra: { approval_required: approvalRequired(outcome.pending) },
  };
}

/** POST /v1/messages, with a provider of type anthropic. */
export async function handleMessages(x: AgentExchange, body: MessagesBody): Promise<AgentAnswer> {
  let out: MessagesEventStream | null = null;
  try {
    const { provider, model } = resolveModel(x.providers, body.model);
    if (provider.type !== "anthropic") {
      throw new AgentRequestError(
        400,
        `provider '${provider.name}' speaks OpenAI chat completions: /v1/messages needs a provider of "type": "anthropic" (Anthropic Messages have no faithful translation to chat completions; send this request to /v1/chat/completions)`,
      );
    }
    const offered = await offeredTools(x, (body.tools ?? []).map((t) => t.name), (i) => `tools[${i}].name`);
    const { model: _model, stream, ...rest } = body;
    const tools = [...(rest.tools ?? []), ...anthropicTools(offered)];
    const streaming = stream === true ? new MessagesEventStream(x.sink) : null;
    out = streaming;
    const conversation = new MessagesConversation(rest, tools, (round) => {
      if (!streaming) return anthropicMessage(provider, { ...round, model }, x.signal, x.keys);
      streaming.round();
      return anthropicMessageStream(provider, { ...round, model }, (event, data) => streaming.event(event, data), x.signal, x.keys);
    });
    const outcome = await runLoop(x.gateway, x.caller, offered, conversation, x.signal);
    const end = messagesEnd(outcome, conversation.usage.total());
    if (!streaming) return { status: 200, body: messageOf(outcome.answer, end) };
    streaming.finish(end);
    return { streamed: true };
  } catch (e) {
    return failed(x, e, out, anthropicError);
  }
}
