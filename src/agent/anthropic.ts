// POST /v1/messages (Anthropic's Messages shape) with a provider of "type": "anthropic": the
// meta-tools and direct tools are offered as Anthropic tools, tool_use blocks that may run
// unattended run, their results go back as tool_result blocks, and the same loop and approvals
// apply. Streamed, the provider's events are forwarded as they come under one message_start,
// with block indexes renumbered across rounds and tool_use blocks held back (the gateway
// assembles them); the blocks left to the caller, the stop reason and the summed usage close it.
import type { GatewayTool } from "../gateway/gateway.js";
import type { AnthropicMessage, ContentBlock } from "./anthropic-provider.js";
import type { Conversation, Executed, LoopCall } from "./loop.js";
import type { EventSink } from "./sse.js";

/** The gateway's tools as Anthropic tools. */
export function anthropicTools(tools: readonly GatewayTool[]): Record<string, unknown>[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
}

/** Token usage summed over the rounds (every numeric field Anthropic reports). */
export class AnthropicUsage {
  private readonly sums = new Map<string, number>();

  add(message: AnthropicMessage): void {
    for (const [field, value] of Object.entries(message.usage ?? {})) if (typeof value === "number") this.sums.set(field, (this.sums.get(field) ?? 0) + value);
  }

  total(): Record<string, number> {
    return Object.fromEntries(this.sums);
  }
}

export class MessagesConversation implements Conversation<AnthropicMessage, ContentBlock> {
  readonly usage = new AnthropicUsage();
  private readonly messages: Record<string, unknown>[];

  constructor(
    private readonly body: Record<string, unknown> & { messages: Record<string, unknown>[] },
    private readonly tools: readonly Record<string, unknown>[],
    private readonly send: (body: Record<string, unknown>) => Promise<AnthropicMessage>,
  ) {
    this.messages = [...body.messages];
  }

  async complete(): Promise<AnthropicMessage> {
    const message = await this.send({ ...this.body, messages: this.messages, ...(this.tools.length ? { tools: this.tools } : {}) });
    this.usage.add(message);
    return message;
  }

  callsOf(message: AnthropicMessage): LoopCall<ContentBlock>[] {
    return message.content.filter((b) => b.type === "tool_use").map((raw) => ({ id: String(raw.id), name: raw.name as string, arguments: raw.input, raw }));
  }

  continueWith(message: AnthropicMessage, executed: readonly Executed<ContentBlock>[]): void {
    this.messages.push(
      { role: "assistant", content: message.content },
      { role: "user", content: executed.map((e) => ({ type: "tool_result", tool_use_id: e.call.id, content: e.content })) },
    );
  }
}

/** How a Messages loop ends: text the gateway adds, the tool_use blocks left to the caller, the stop reason. */
export interface MessagesEnd {
  text?: string;
  toolUses: ContentBlock[];
  stopReason: string | null;
  usage: Record<string, number>;
  extra?: Record<string, unknown>;
}

/** The whole message of a loop that did not stream: the answer's own blocks, the gateway's text, the calls left. */
export function messageOf(answer: AnthropicMessage, end: MessagesEnd): AnthropicMessage {
  const own = answer.content.filter((b) => b.type !== "tool_use");
  const content = [...own, ...(end.text ? [{ type: "text", text: end.text }] : []), ...end.toolUses];
  return { ...answer, content, stop_reason: end.stopReason, usage: { ...answer.usage, ...end.usage }, ...end.extra };
}

/** The Anthropic error body (the SDK reads `error.type` and `error.message`). */
export function anthropicError(status: number, message: string): Record<string, unknown> {
  const type =
    { 400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error" }[status] ??
    "api_error";
  return { type: "error", error: { type, message } };
}

export class MessagesEventStream {
  private started = false;
  private next = 0;
  /** Where each block of the current round went in the caller's message; null for a held-back tool_use. */
  private readonly indexes = new Map<number, number | null>();

  constructor(private readonly sink: EventSink) {}

  round(): void {
    this.indexes.clear();
  }

  event(event: string, data: Record<string, unknown>): void {
    switch (event) {
      case "message_start":
        if (!this.started) this.sink.send(data, event);
        this.started = true;
        return;
      case "content_block_start": {
        const block = data.content_block as ContentBlock | undefined;
        const index = block?.type === "tool_use" ? null : this.next++;
        this.indexes.set(data.index as number, index);
        if (index !== null) this.sink.send({ ...data, index }, event);
        return;
      }
      case "content_block_delta":
      case "content_block_stop": {
        const index = this.indexes.get(data.index as number);
        if (index !== null && index !== undefined) this.sink.send({ ...data, index }, event);
        return;
      }
      default:
        // message_delta and message_stop of a round: the stream's own end comes with finish().
        return;
    }
  }

  finish(end: MessagesEnd): void {
    if (end.text) {
      const index = this.next++;
      this.sink.send({ type: "content_block_start", index, content_block: { type: "text", text: "" } }, "content_block_start");
      this.sink.send({ type: "content_block_delta", index, delta: { type: "text_delta", text: end.text } }, "content_block_delta");
      this.sink.send({ type: "content_block_stop", index }, "content_block_stop");
    }
    for (const block of end.toolUses) {
      const index = this.next++;
      this.sink.send({ type: "content_block_start", index, content_block: { ...block, input: {} } }, "content_block_start");
      this.sink.send({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input ?? {}) } }, "content_block_delta");
      this.sink.send({ type: "content_block_stop", index }, "content_block_stop");
    }
    this.sink.send({ type: "message_delta", delta: { stop_reason: end.stopReason, stop_sequence: null }, usage: end.usage, ...end.extra }, "message_delta");
    this.sink.send({ type: "message_stop" }, "message_stop");
    this.sink.end();
  }

  fail(message: string): void {
    this.sink.send(anthropicError(500, message), "error");
    this.sink.end();
  }
}
