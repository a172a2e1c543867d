// The caller's stream of a chat-shaped loop (`/v1/chat/completions` with `stream: true`): the
// provider's chunks are forwarded as they arrive, under one id, without their tool-call deltas
// (the gateway assembles those: a call that runs automatically is never shown as pending). When
// the loop ends, the calls the caller must handle, the finish reason and the summed usage close
// the stream, then `[DONE]`. A failure once the stream has begun is an error chunk
// (`{"error": {...}}`), which the OpenAI SDKs raise as an APIError.
import type { ChatChunk } from "./chat-assembly.js";
import type { ChatCompletion, ChatToolCall } from "./providers.js";
import type { EventSink } from "./sse.js";

/** How a streamed loop ends, whatever the caller's shape. */
export interface StreamEnd {
  /** Text the gateway adds after the model's (the summary of what ran, when calls wait). */
  text?: string;
  /** The calls left to the caller: pending approval, its own tools, or unrun at max_agent_depth. */
  toolCalls: ChatToolCall[];
  finishReason: string;
  usage?: ChatCompletion["usage"];
  /** Fields added to the last event (`approval_required`). */
  extra?: Record<string, unknown>;
}

/** The caller's side of a chat-shaped loop that streams: chat chunks, or Responses events. */
export interface StreamOutput {
  /** A new provider round begins. */
  round(): void;
  /** One chunk of the current round, as the provider streamed it. */
  chunk(chunk: ChatChunk): void;
  finish(end: StreamEnd): void;
  /** Ends the stream with an error the caller's SDK raises. */
  fail(message: string): void;
}

/** Text of a later round starts on a new paragraph, so that rounds do not run into each other. */
export const ROUND_SEPARATOR = "\n\n";

export class ChatChunkStream implements StreamOutput {
  private id: string | undefined;
  private created = Math.floor(Date.now() / 1000);
  private model: string | undefined;
  private sentRole = false;
  private sentText = false;
  private separate = false;

  constructor(
    private readonly sink: EventSink,
    /** `stream_options.include_usage`: the caller wants a last chunk with the usage. */
    private readonly includeUsage: boolean,
  ) {}

  round(): void {
    if (this.sentText) this.separate = true;
  }

  chunk(chunk: ChatChunk): void {
    this.id ??= chunk.id;
    if (typeof chunk.created === "number" && this.id === chunk.id) this.created = chunk.created;
    this.model ??= chunk.model;
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice?.delta) return;
    const { tool_calls: _calls, role: _role, ...delta } = choice.delta;
    if (typeof delta.content === "string" && delta.content !== "") {
      if (this.separate) delta.content = ROUND_SEPARATOR + delta.content;
      this.separate = false;
      this.sentText = true;
    } else if (delta.content === "" || delta.content === null) {
      delete delta.content;
    }
    if (Object.keys(delta).length === 0) return;
    this.emit(delta, null);
  }

  finish(end: StreamEnd): void {
    if (end.text) {
      this.emit({ content: (this.sentText ? ROUND_SEPARATOR : "") + end.text }, null);
      this.sentText = true;
    }
    if (end.toolCalls.length > 0) {
      this.emit({ tool_calls: end.toolCalls.map((c, index) => ({ index, id: c.id, type: "function", function: { name: c.function.name, arguments: c.function.arguments } })) }, null);
    }
    this.emit({}, end.finishReason, end.extra);
    if (this.includeUsage && end.usage) this.sink.send({ ...this.head(), choices: [], usage: end.usage });
    this.sink.send("[DONE]");
    this.sink.end();
  }

  fail(message: string): void {
    this.sink.send({ error: { message, type: "server_error", param: null, code: "agent_error" } });
    this.sink.end();
  }

  private head() {
    this.id ??= `chatcmpl-gw-${Date.now().toString(36)}`;
    return { id: this.id, object: "chat.completion.chunk", created: this.created, model: this.model ?? "" };
  }

  private emit(delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}): void {
    const first = !this.sentRole;
    this.sentRole = true;
    this.sink.send({ ...this.head(), choices: [{ index: 0, delta: first ? { role: "assistant", ...delta } : delta, finish_reason: finishReason }], ...extra });
  }
}
