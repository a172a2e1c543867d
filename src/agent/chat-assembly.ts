// Assembling a streamed chat completion: the chunks' content and tool-call deltas put back
// together as the chat completion a non-streaming request would have received. Tool-call deltas
// arrive by `index`: the first of an index carries its id and name, the rest pieces of the
// arguments' JSON text.
import type { ChatCompletion, ChatMessage, ChatToolCall } from "./providers.js";

/** One `chat.completion.chunk` (only the fields assembly reads are typed). */
export interface ChatChunk {
  id?: string;
  object?: string;
  created?: number;
  model?: string;
  choices?: { index?: number; delta?: ChunkDelta; finish_reason?: string | null; [field: string]: unknown }[];
  usage?: ChatCompletion["usage"] | null;
  [field: string]: unknown;
}

export interface ChunkDelta {
  role?: string;
  content?: string | null;
  tool_calls?: { index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
  [field: string]: unknown;
}

export class ChatAssembler {
  private head: Omit<ChatChunk, "choices" | "usage"> = {};
  private readonly text: string[] = [];
  /** Other string fields of the deltas (`reasoning_content`, `refusal`), concatenated as well. */
  private readonly extras = new Map<string, string[]>();
  private readonly calls = new Map<number, ChatToolCall>();
  private finish: string | null = null;
  private usage: ChatCompletion["usage"] | undefined;

  add(chunk: ChatChunk): void {
    if (this.head.id === undefined) {
      const { choices: _c, usage: _u, ...head } = chunk;
      this.head = head;
    }
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    if (typeof choice.finish_reason === "string") this.finish = choice.finish_reason;
    const delta = choice.delta ?? {};
    for (const [field, value] of Object.entries(delta)) {
      if (field === "role" || field === "tool_calls") continue;
      if (field === "content") {
        if (typeof value === "string") this.text.push(value);
      } else if (typeof value === "string") {
        const parts = this.extras.get(field) ?? [];
        parts.push(value);
        this.extras.set(field, parts);
      }
    }
    for (const piece of delta.tool_calls ?? []) {
      let call = this.calls.get(piece.index);
      if (!call) {
        call = { id: "", type: "function", function: { name: "", arguments: "" } };
        this.calls.set(piece.index, call);
      }
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.function.name += piece.function.name;
      if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
    }
  }

  /** The completion the chunks make up so far. */
  completion(): ChatCompletion {
    const message: ChatMessage = { role: "assistant", content: this.text.length > 0 ? this.text.join("") : null };
    for (const [field, parts] of this.extras) message[field] = parts.join("");
    const calls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    if (calls.length > 0) message.tool_calls = calls;
    return {
      ...this.head,
      object: "chat.completion",
      choices: [{ index: 0, message, finish_reason: this.finish }],
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }
}
