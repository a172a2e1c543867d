// Server-sent events both ways: reading a provider's stream (OpenAI and Anthropic both stream SSE)
// and writing the caller's. The reader follows the SSE rules the SDKs follow: lines ending in LF,
// CRLF or CR, `event:` and `data:` fields, several data lines joined by LF, comments ignored, an
// event dispatched at a blank line.
import type { ServerResponse } from "node:http";

export interface SseEvent {
  /** The `event:` field, when the stream names its events (Anthropic, Responses). */
  event?: string;
  data: string;
}

/** Reads a response body as SSE events, in order, until it ends (or `signal` aborts the fetch). */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event: string | undefined;
  let data: string[] = [];
  const line = function* (text: string): Generator<SseEvent> {
    if (text === "") {
      if (data.length > 0) yield { ...(event !== undefined ? { event } : {}), data: data.join("\n") };
      event = undefined;
      data = [];
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  };
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    // A CR at the very end may be the first half of CRLF: keep it for the next piece.
    for (;;) {
      const match = /\r\n|\r(?!$)|\n/.exec(buffer);
      if (!match) break;
      const text = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      yield* line(text);
    }
  }
  buffer += decoder.decode();
  if (buffer !== "") yield* line(buffer.replace(/\r$/, ""));
  yield* line("");
}

/** The caller's side of a stream: SSE written to the HTTP response, opened at the first event. */
export interface EventSink {
  /** Writes one event (`data` as JSON, or a raw string such as `[DONE]`). */
  send(data: unknown, event?: string): void;
  /** Ends the response. */
  end(): void;
  /** Has anything been written (so an error can no longer be an HTTP status)? */
  readonly started: boolean;
}

/**
 * A sink over a Node response. `open` runs once, before the first write (the route hands the
 * response over from Fastify there), so that a request refused before any output still gets an
 * ordinary JSON error with its status.
 */
export function responseSink(raw: ServerResponse, open: () => void): EventSink {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    open();
    raw.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" });
  };
  return {
    send(data, event) {
      start();
      if (raw.destroyed) return;
      const text = typeof data === "string" ? data : JSON.stringify(data);
      raw.write(`${event !== undefined ? `event: ${event}\n` : ""}data: ${text}\n\n`);
    },
    end() {
      start();
      if (!raw.destroyed) raw.end();
    },
    get started() {
      return started;
    },
  };
}
