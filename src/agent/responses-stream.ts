// The caller's stream of POST /v1/responses with `stream: true`: the chat chunks of every round
// become Responses events (`response.created`, `response.output_text.delta`, ...), each with its
// sequence_number. The model's text of all rounds is one message item; the calls left to the
// caller follow as function_call items when the loop ends, then `response.completed` carries
// the whole Response. A failure once the stream has begun is `response.failed` with its error.
import type { ChatChunk } from "./chat-assembly.js";
import { ROUND_SEPARATOR, type StreamEnd, type StreamOutput } from "./chat-stream.js";
import { functionCallItem, itemId, messageItem, responseSkeleton, type ResponsesBody, responsesUsage, statusOf } from "./responses.js";
import type { EventSink } from "./sse.js";

export class ResponsesEventStream implements StreamOutput {
  private sequence = 0;
  private readonly response: Record<string, unknown>;
  private readonly output: Record<string, unknown>[] = [];
  private opened = false;
  /** The message item being written, while text arrives. */
  private message: { id: string; index: number; text: string } | null = null;
  private separate = false;

  constructor(
    private readonly sink: EventSink,
    body: ResponsesBody,
  ) {
    this.response = responseSkeleton(itemId("resp"), body);
  }

  round(): void {
    if (this.message && this.message.text !== "") this.separate = true;
  }

  chunk(chunk: ChatChunk): void {
    const delta = chunk.choices?.find((c) => (c.index ?? 0) === 0)?.delta;
    if (typeof delta?.content === "string" && delta.content !== "") this.text(delta.content);
  }

  finish(end: StreamEnd): void {
    if (end.text) this.text(end.text, this.message !== null && this.message.text !== "");
    this.closeMessage();
    for (const call of end.toolCalls) {
      const id = itemId("fc");
      const index = this.output.length;
      this.event("response.output_item.added", { output_index: index, item: functionCallItem(id, { ...call, function: { ...call.function, arguments: "" } }, "in_progress") });
      this.event("response.function_call_arguments.delta", { item_id: id, output_index: index, delta: call.function.arguments });
      this.event("response.function_call_arguments.done", { item_id: id, output_index: index, name: call.function.name, arguments: call.function.arguments });
      const item = functionCallItem(id, call);
      this.output.push(item);
      this.event("response.output_item.done", { output_index: index, item });
    }
    const { status, incomplete_details } = statusOf(end.finishReason);
    const response = { ...this.response, status, incomplete_details, output: this.output, usage: responsesUsage(end.usage), ...end.extra };
    this.event(status === "completed" ? "response.completed" : "response.incomplete", { response });
    this.sink.end();
  }

  fail(message: string): void {
    this.open();
    this.event("response.failed", { response: { ...this.response, status: "failed", error: { code: "server_error", message }, output: this.output } });
    this.sink.end();
  }

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.event("response.created", { response: this.response });
    this.event("response.in_progress", { response: this.response });
  }

  private text(piece: string, afterText = false): void {
    this.open();
    if (!this.message) {
      this.message = { id: itemId("msg"), index: this.output.length, text: "" };
      this.event("response.output_item.added", { output_index: this.message.index, item: { ...messageItem(this.message.id, "", "in_progress"), content: [] } });
      this.event("response.content_part.added", { item_id: this.message.id, output_index: this.message.index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
    }
    const delta = (this.separate || afterText ? ROUND_SEPARATOR : "") + piece;
    this.separate = false;
    this.message.text += delta;
    this.event("response.output_text.delta", { item_id: this.message.id, output_index: this.message.index, content_index: 0, delta, logprobs: [] });
  }

  private closeMessage(): void {
    this.open();
    const m = this.message;
    if (!m) return;
    this.event("response.output_text.done", { item_id: m.id, output_index: m.index, content_index: 0, text: m.text, logprobs: [] });
    this.event("response.content_part.done", { item_id: m.id, output_index: m.index, content_index: 0, part: { type: "output_text", text: m.text, annotations: [] } });
    const item = messageItem(m.id, m.text);
    this.output.push(item);
    this.event("response.output_item.done", { output_index: m.index, item });
    this.message = null;
  }

  private event(type: string, fields: Record<string, unknown>): void {
    this.sink.send({ type, sequence_number: this.sequence++, ...fields }, type);
  }
}
