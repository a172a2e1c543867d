// A scripted provider on 127.0.0.1 that speaks both wire formats agent mode uses: OpenAI chat
// completions (POST /v1/chat/completions) and Anthropic Messages (POST /v1/messages), each as
// JSON or, when the request says `stream: true`, as that API's SSE events, with text and tool
// inputs cut into several deltas as real providers send them. It replays scripted turns in order
// and records every request (and whether the gateway aborted it). Only the provider is scripted.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface WireCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** One scripted turn: text and tool calls; or an error status; or a stream that breaks. */
export type Turn =
  | { text?: string; calls?: WireCall[]; stop?: string }
  | { status: number; body: unknown }
  | { text: string; failMidStream: string }
  | { text: string; hang: true };

export interface WireRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, any>;
  /** Set when the connection closed before the provider finished answering. */
  aborted: boolean;
}

export interface WireProvider {
  /** The base_url to configure (ends in /v1). */
  url: string;
  requests: WireRequest[];
  reset(turns: Turn[]): void;
  /** Resolves when the request at `i` has been aborted. */
  abortedAt(i: number): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

export function call(name: string, input: Record<string, unknown>): WireCall {
  return { id: `toolu_${++counter}`, name, input };
}

/** Cuts a string in two (a delta per half), as providers split their output. */
function halves(text: string): string[] {
  if (text.length < 2) return [text];
  const mid = Math.floor(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function chatMessage(turn: { text?: string; calls?: WireCall[] }) {
  return {
    role: "assistant",
    content: turn.text ?? null,
    ...(turn.calls?.length ? { tool_calls: turn.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } })) } : {}),
  };
}

function sse(res: ServerResponse, data: unknown, event?: string) {
  res.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
}

function chatStream(res: ServerResponse, turn: Turn, includeUsage: boolean, onHang: () => void) {
  const id = `chatcmpl-${++counter}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sse(res, { id, object: "chat.completion.chunk", created: 1_700_000_000, model: "wire-1", choices: [{ index: 0, delta, finish_reason: finish }] });
  chunk({ role: "assistant", content: "" });
  const text = "text" in turn ? turn.text : undefined;
  for (const piece of text ? halves(text) : []) chunk({ content: piece });
  if ("failMidStream" in turn) {
    sse(res, { error: { message: turn.failMidStream, type: "server_error" } });
    return res.end();
  }
  if ("hang" in turn) return onHang();
  const calls = "calls" in turn ? (turn.calls ?? []) : [];
  calls.forEach((c, index) => {
    chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] });
    for (const piece of halves(JSON.stringify(c.input))) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  chunk({}, calls.length ? "tool_calls" : "stop");
  if (includeUsage) sse(res, { id, object: "chat.completion.chunk", created: 1_700_000_000, model: "wire-1", choices: [], usage: USAGE });
  sse(res, "[DONE]");
  res.end();
}

function anthropicMessage(turn: { text?: string; calls?: WireCall[]; stop?: string }) {
  const content = [
    ...(turn.text ? [{ type: "text", text: turn.text }] : []),
    ...(turn.calls ?? []).map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.input })),
  ];
  return {
    id: `msg_${++counter}`,
    type: "message",
    role: "assistant",
    model: "claude-wire",
    content,
    stop_reason: turn.stop ?? (turn.calls?.length ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

function anthropicStream(res: ServerResponse, turn: Turn, onHang: () => void) {
  const whole = anthropicMessage("text" in turn || "calls" in turn ? (turn as { text?: string; calls?: WireCall[] }) : {});
  sse(res, { type: "message_start", message: { ...whole, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } }, "message_start");
  sse(res, { type: "ping" }, "ping");
  let index = 0;
  const text = "text" in turn ? turn.text : undefined;
  if (text) {
    sse(res, { type: "content_block_start", index, content_block: { type: "text", text: "" } }, "content_block_start");
    for (const piece of halves(text)) sse(res, { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }, "content_block_delta");
    if ("failMidStream" in turn) {
      sse(res, { type: "error", error: { type: "overloaded_error", message: turn.failMidStream } }, "error");
      return res.end();
    }
    if ("hang" in turn) return onHang();
    sse(res, { type: "content_block_stop", index }, "content_block_stop");
    index++;
  }
  for (const c of "calls" in turn ? (turn.calls ?? []) : []) {
    sse(res, { type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } }, "content_block_start");
    for (const piece of halves(JSON.stringify(c.input))) sse(res, { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } }, "content_block_delta");
    sse(res, { type: "content_block_stop", index }, "content_block_stop");
    index++;
  }
  sse(res, { type: "message_delta", delta: { stop_reason: whole.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } }, "message_delta");
  sse(res, { type: "message_stop" }, "message_stop");
  res.end();
}

export async function startWireProvider(): Promise<WireProvider> {
  let turns: Turn[] = [];
  const requests: WireRequest[] = [];
  const waiters = new Map<number, () => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      const recorded: WireRequest = { path: req.url ?? "", headers: req.headers, body, aborted: false };
      const at = requests.push(recorded) - 1;
      res.on("close", () => {
        if (!res.writableFinished) {
          recorded.aborted = true;
          waiters.get(at)?.();
        }
      });
      const turn = turns.shift();
      if (turn === undefined) return json(500, { error: { message: "the script has no more turns" } });
      if ("status" in turn) return json(turn.status, turn.body);
      const anthropic = req.url === "/v1/messages";
      if (!anthropic && req.url !== "/v1/chat/completions") return json(404, { error: { message: `no route ${req.url}` } });
      if (body.stream === true) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const hang = () => res.write(": still thinking\n\n");
        if (anthropic) anthropicStream(res, turn, hang);
        else chatStream(res, turn, body.stream_options?.include_usage === true, hang);
        return;
      }
      const plain = turn as { text?: string; calls?: WireCall[]; stop?: string };
      if (anthropic) return json(200, anthropicMessage(plain));
      json(200, {
        id: `chatcmpl-${++counter}`,
        object: "chat.completion",
        created: 1_700_000_000,
        model: "wire-1",
        choices: [{ index: 0, message: chatMessage(plain), finish_reason: plain.calls?.length ? "tool_calls" : "stop" }],
        usage: USAGE,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    reset(next) {
      turns = [...next];
      requests.length = 0;
      waiters.clear();
    },
    abortedAt: (i) =>
      new Promise<void>((resolve) => {
        if (requests[i]?.aborted) return resolve();
        waiters.set(i, resolve);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
