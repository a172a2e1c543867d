// Providers of "type": "anthropic": one `POST {base_url}/messages` in Anthropic's Messages
// format, whole or streamed. A streamed message is assembled from its events (message_start,
// content_block_start/delta/stop, message_delta) into the message a non-streaming request would
// have received; tool_use inputs arrive as pieces of JSON text (input_json_delta).
import type { ProviderConfig } from "../gateway/config-file.js";
import { DEFAULT_ANTHROPIC_VERSION } from "../gateway/config-file.js";
import { type CallerKeys, postToProvider, ProviderError, providerKey, shorten } from "./providers.js";
import { readSse, type SseEvent } from "./sse.js";

export interface ContentBlock {
  type: string;
  [field: string]: unknown;
}

export interface AnthropicMessage {
  id: string;
  type: "message";
  role: "assistant";
  content: ContentBlock[];
  model: string;
  stop_reason: string | null;
  stop_sequence?: string | null;
  usage?: Record<string, unknown>;
  [field: string]: unknown;
}

function headers(provider: ProviderConfig, caller: CallerKeys, accept: string): Record<string, string> {
  const key = providerKey(provider, caller);
  return { accept, "anthropic-version": provider.anthropic_version ?? DEFAULT_ANTHROPIC_VERSION, ...(key !== undefined ? { "x-api-key": key } : {}) };
}

function isMessage(v: unknown): v is AnthropicMessage {
  return typeof v === "object" && v !== null && Array.isArray((v as AnthropicMessage).content);
}

/** One Messages request; throws ProviderError for anything but a message. */
export async function anthropicMessage(provider: ProviderConfig, body: Record<string, unknown>, signal?: AbortSignal, caller: CallerKeys = {}): Promise<AnthropicMessage> {
  const response = await postToProvider(provider, "/messages", headers(provider, caller, "application/json"), { ...body, stream: false }, signal);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isMessage(parsed)) throw new ProviderError(`provider '${provider.name}' answered something that is not a message: ${shorten(text)}`);
  return parsed;
}

/** One streamed Messages request: each event goes to `onEvent` as it comes; the events assembled are the answer. */
export async function anthropicMessageStream(
  provider: ProviderConfig,
  body: Record<string, unknown>,
  onEvent: (event: string, data: Record<string, unknown>) => void,
  signal?: AbortSignal,
  caller: CallerKeys = {},
): Promise<AnthropicMessage> {
  const response = await postToProvider(provider, "/messages", headers(provider, caller, "text/event-stream"), { ...body, stream: true }, signal);
  if (!response.body) throw new ProviderError(`provider '${provider.name}' answered a stream with no body`);
  const assembler = new MessageAssembler();
  try {
    for await (const sse of readSse(response.body)) {
      const { event, data } = parse(provider, sse);
      if (event === "ping") continue;
      if (event === "error") {
        const error = (data.error ?? {}) as { message?: unknown };
        throw new ProviderError(`provider '${provider.name}' failed mid-stream: ${String(error.message ?? JSON.stringify(data))}`);
      }
      assembler.add(event, data);
      onEvent(event, data);
      if (event === "message_stop") break;
    }
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    if (e instanceof ProviderError) throw e;
    throw new ProviderError(`provider '${provider.name}' broke off its stream: ${(e as Error).message}`);
  }
  const message = assembler.message();
  if (!message || message.stop_reason === null) throw new ProviderError(`provider '${provider.name}' ended its stream before the message was complete`);
  return message;
}

function parse(provider: ProviderConfig, sse: SseEvent): { event: string; data: Record<string, unknown> } {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(sse.data);
  } catch {
    throw new ProviderError(`provider '${provider.name}' streamed something that is not JSON: ${shorten(sse.data)}`);
  }
  return { event: sse.event ?? String(data.type ?? ""), data };
}

/** Puts a streamed message back together. */
export class MessageAssembler {
  private current: AnthropicMessage | null = null;
  /** The partial JSON of each tool_use block's input, by block index. */
  private readonly inputs = new Map<number, string>();

  add(event: string, data: Record<string, unknown>): void {
    if (event === "message_start") {
      this.current = { ...(data.message as AnthropicMessage), content: [] };
      return;
    }
    const message = this.current;
    if (!message) return;
    const index = data.index as number;
    switch (event) {
      case "content_block_start":
        message.content[index] = { ...(data.content_block as ContentBlock) };
        if (message.content[index]!.type === "tool_use") this.inputs.set(index, "");
        break;
      case "content_block_delta": {
        const block = message.content[index];
        const delta = data.delta as Record<string, unknown>;
        if (!block || !delta) break;
        if (delta.type === "text_delta") block.text = String(block.text ?? "") + String(delta.text ?? "");
        else if (delta.type === "input_json_delta") this.inputs.set(index, (this.inputs.get(index) ?? "") + String(delta.partial_json ?? ""));
        else if (delta.type === "thinking_delta") block.thinking = String(block.thinking ?? "") + String(delta.thinking ?? "");
        else if (delta.type === "signature_delta") block.signature = delta.signature;
        else if (delta.type === "citations_delta") block.citations = [...((block.citations as unknown[]) ?? []), delta.citation];
        break;
      }
      case "content_block_stop": {
        const block = message.content[index];
        const json = this.inputs.get(index);
        if (block && json !== undefined) {
          try {
            block.input = json.trim() === "" ? {} : JSON.parse(json);
          } catch {
            // Kept as text: the loop reports arguments that are not JSON to the model.
            block.input = json;
          }
        }
        break;
      }
      case "message_delta": {
        const delta = (data.delta ?? {}) as Record<string, unknown>;
        if (delta.stop_reason !== undefined) message.stop_reason = delta.stop_reason as string | null;
        if (delta.stop_sequence !== undefined) message.stop_sequence = delta.stop_sequence as string | null;
        if (data.usage) message.usage = { ...message.usage, ...(data.usage as Record<string, unknown>) };
        break;
      }
    }
  }

  message(): AnthropicMessage | null {
    return this.current;
  }
}
