// The gateway's MCP face: the MCP server a client talks to, whatever carries it (the HTTP API
// mounts one per session at `/mcp`, src/api/mcp.ts), and MCP over stdio for desktop clients
// that launch the gateway. A client sees the meta-tools and the direct tools, the direct
// servers' instructions in `initialize`, and a `notifications/tools/list_changed` whenever what
// it can see may have changed.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { traceContextOf } from "../upstream/trace-context.js";
import { type Caller, UNRESTRICTED, withTrace } from "./caller.js";
import { type Gateway, ToolNotGrantedError, UnknownToolError } from "./gateway.js";

const SERVER_INFO = { name: "code-mode-gateway", version: "0.1.0" };

/** How long an MCP session over HTTP may go unused before it is closed (`server.mcp_session_idle_seconds`). */
export const DEFAULT_SESSION_IDLE_SECONDS = 3600;

/** One MCP server session bound to the gateway for one caller. */
export function mcpServerFor(gateway: Gateway, caller: Caller): Server {
  const instructions = gateway.directInstructions();
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: true } },
    ...(instructions ? { instructions } : {}),
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: gateway.listTools(caller) as never }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      const traced = withTrace(caller, traceContextOf(extra.requestInfo?.headers));
      const outcome = await gateway.callTool(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, traced, extra.signal);
      return { content: [{ type: "text", text: outcome.text }], isError: outcome.isError };
    } catch (e) {
      if (e instanceof UnknownToolError || e instanceof ToolNotGrantedError) throw new McpError(ErrorCode.InvalidParams, e.message);
      return { content: [{ type: "text", text: e instanceof Error ? e.message : String(e) }], isError: true };
    }
  });
  return server;
}

/** Tells every session's client that the tool list may have changed (debounced); returns the way to stop. */
export function notifyOnChange(gateway: Gateway, servers: () => Iterable<Server>): () => void {
  let timer: NodeJS.Timeout | null = null;
  const listener = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      for (const s of servers()) void s.sendToolListChanged().catch(() => undefined);
    }, 100);
    timer.unref();
  };
  gateway.on("tools-changed", listener);
  return () => {
    gateway.off("tools-changed", listener);
    if (timer) clearTimeout(timer);
  };
}

/** Serves MCP over stdin/stdout for one local client; resolves when the client goes away. */
export async function serveStdio(gateway: Gateway): Promise<void> {
  const server = mcpServerFor(gateway, UNRESTRICTED);
  const stop = notifyOnChange(gateway, () => [server]);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  stop();
}
