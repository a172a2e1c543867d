// Reading a provider's SSE stream as the SDKs read it: any line ending, data split across
// network chunks, several data lines, comments, and an event at the end without a blank line.
import { describe, expect, it } from "vitest";
import { readSse } from "../../src/agent/sse.js";

function body(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of pieces) controller.enqueue(encoder.encode(p));
      controller.close();
    },
  });
}

async function events(pieces: string[]) {
  const out = [];
  for await (const e of readSse(body(pieces))) out.push(e);
  return out;
}

describe("readSse", () => {
  it("reads named events and data split anywhere, CRLF included", async () => {
    expect(await events(["event: message_start\r\nda", "ta: {\"a\":", "1}\r", "\n\r\n: ping comment\n\ndata: [DONE]\n\n"])).toEqual([
      { event: "message_start", data: '{"a":1}' },
      { data: "[DONE]" },
    ]);
  });

  it("joins several data lines with LF, takes CR alone as a line end, and flushes a last event without a blank line", async () => {
    expect(await events(["data: one\rdata:two\r\rdata: last"])).toEqual([{ data: "one\ntwo" }, { data: "last" }]);
  });

  it("keeps a multi-byte character cut between chunks", async () => {
    const bytes = new TextEncoder().encode("data: é\n\n");
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, 7));
        c.enqueue(bytes.slice(7));
        c.close();
      },
    });
    const out = [];
    for await (const e of readSse(stream)) out.push(e);
    expect(out).toEqual([{ data: "é" }]);
  });
});
