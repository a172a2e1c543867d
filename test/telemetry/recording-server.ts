// A real MCP server over Streamable HTTP on 127.0.0.1 (the official SDK, stateless: a protocol
// server and a transport per request) that keeps the `traceparent` of every tools/call it is
// sent, as a header and in the params' `_meta`. Tools: `ping` (answers "pong" after `ms` milliseconds) and `fail` (an isError result).
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export interface RecordingServer {
  url: string;
  /** The traceparent of each tools/call, in the order they came (undefined: none was sent). */
  traceparents: (string | undefined)[];
  /** The `params._meta.traceparent` of each tools/call, likewise. */
  metaTraceparents: (string | undefined)[];
  close(): Promise<void>;
}

const TOOLS = [
  { name: "ping", description: "Answers pong after a while.", inputSchema: { type: "object" as const, properties: { ms: { type: "number" }, note: { type: "string" } } } },
  { name: "fail", description: "Always fails.", inputSchema: { type: "object" as const, properties: {} } },
];

function protocolServer(): Server {
  const server = new Server({ name: "recording", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === "fail") return { content: [{ type: "text" as const, text: "it failed on purpose" }], isError: true };
    const ms = Number((request.params.arguments as { ms?: number } | undefined)?.ms ?? 0);
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { content: [{ type: "text" as const, text: "pong" }] };
  });
  return server;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const traceparents: (string | undefined)[] = [];
  const metaTraceparents: (string | undefined)[] = [];
  const http: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const call = body as { method?: string; params?: { _meta?: { traceparent?: string } } } | undefined;
      if (call?.method === "tools/call") {
        traceparents.push(req.headers.traceparent as string | undefined);
        metaTraceparents.push(call.params?._meta?.traceparent);
      }
      const server = protocolServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      server
        .connect(transport)
        .then(() => transport.handleRequest(req, res, body))
        .catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    traceparents,
    metaTraceparents,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
