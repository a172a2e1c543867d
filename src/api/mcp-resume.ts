// Continuing an MCP session in a process that did not open it (another instance, or this one
// before a restart). The SDK keeps a session's state in its transport and server objects, and
// offers no way to make them for a session that exists already; so a new pair is initialized by
// replaying the session's own `initialize` request, whose params its record keeps, through the
// transport's public handleRequest, on an in-process request (light-my-request) that never
// touches the network. The replay's answer is dropped: the client had it when it opened the session.
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { inject } from "light-my-request";
import type { McpSessionRecord } from "../gateway/mcp-sessions.js";

/** The replay did not give the transport the session back; the message says what came instead. */
export class ResumeError extends Error {
  override name = "ResumeError";
}

/**
 * Initializes `transport` (connected to its server, and made with a sessionIdGenerator that
 * answers `record.id`) as the session of `record`: afterwards it serves requests carrying that id.
 */
export async function replayInitialize(transport: StreamableHTTPServerTransport, record: McpSessionRecord): Promise<void> {
  const message = { jsonrpc: "2.0", id: 0, method: "initialize", params: record.hello };
  const answer = await inject((req, res) => void transport.handleRequest(req, res, message), {
    method: "POST",
    url: "/mcp",
    headers: { host: record.host, "content-type": "application/json", accept: "application/json, text/event-stream" },
    payload: JSON.stringify(message),
  });
  if (answer.statusCode !== 200 || transport.sessionId !== record.id) {
    throw new ResumeError(`the session's initialize could not be replayed (HTTP ${answer.statusCode}: ${answer.payload.slice(0, 200)})`);
  }
}
