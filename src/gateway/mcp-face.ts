// The gateway's MCP face: `/mcp` over Streamable HTTP (one SDK server per session, mounted in
// Fastify) and, for desktop clients that launch it, MCP over stdio. A client sees the meta-tools
// and the direct tools, the direct servers' instructions in `initialize`, and a
// `notifications/tools/list_changed` whenever what it can see may have changed.
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type Caller, type Gateway, ToolNotGrantedError, UNRESTRICTED, UnknownToolError } from "./gateway.js";

const SERVER_INFO = { name: "code-mode-gateway", version: "0.1.0" };

/** One MCP server session bound to the gateway for one caller. */
function makeServer(gateway: Gateway, caller: Caller): Server {
  const instructions = gateway.directInstructions();
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: true } },
    ...(instructions ? { instructions } : {}),
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: gateway.listTools(caller) as never }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      const outcome = await gateway.callTool(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, caller, extra.signal);
      return { content: [{ type: "text", text: outcome.text }], isError: outcome.isError };
    } catch (e) {
      if (e instanceof UnknownToolError || e instanceof ToolNotGrantedError) throw new McpError(ErrorCode.InvalidParams, e.message);
      return { content: [{ type: "text", text: e instanceof Error ? e.message : String(e) }], isError: true };
    }
  });
  return server;
}

/** Tells every session's client that the tool list may have changed (debounced). */
function notifyOnChange(gateway: Gateway, servers: () => Iterable<Server>): () => void {
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

export interface McpMountOptions {
  /** The origins a browser shows for the gateway reached as `host`; with it, the SDK checks Origin too. */
  hosts?: { originsFor(host: string): string[] };
  /** Close a session no request has used for this long (default 3600). */
  idleSeconds?: number;
}

export const DEFAULT_SESSION_IDLE_SECONDS = 3600;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  owner: string;
  /** Requests on the session still open (a GET's event stream stays open): it is not idle meanwhile. */
  open: number;
  lastUsed: number;
}

/** Mounts `/mcp` (Streamable HTTP, stateful sessions) on a Fastify app. */
export function mountMcp(
  app: FastifyInstance,
  gateway: Gateway,
  callerOf: (request: FastifyRequest) => Caller = () => UNRESTRICTED,
  options: McpMountOptions = {},
): void {
  // A session belongs to the caller that opened it: a later request on it must present the same
  // key (or, for a session opened without one, none), else a leaked session id would carry
  // another key's grants.
  const sessions = new Map<string, Session>();
  const stop = notifyOnChange(gateway, () => [...sessions.values()].map((s) => s.server));
  // Clients that go away without a DELETE would otherwise keep their sessions forever.
  const idleMs = (options.idleSeconds ?? DEFAULT_SESSION_IDLE_SECONDS) * 1000;
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const s of sessions.values()) {
        // Closing the server closes its transport, whose onclose forgets the session.
        if (s.open === 0 && now - s.lastUsed >= idleMs) void s.server.close().catch(() => undefined);
      }
    },
    Math.min(Math.max(idleMs / 4, 100), 60_000),
  );
  sweep.unref();
  app.addHook("onClose", async () => {
    stop();
    clearInterval(sweep);
    await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => undefined)));
    sessions.clear();
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = request.headers["mcp-session-id"];
    const sessionId = Array.isArray(id) ? id[0] : id;
    let session = sessionId ? sessions.get(sessionId) : undefined;
    const caller = callerOf(request);
    if (session && session.owner !== ownerOf(caller)) {
      return reply.code(403).send({ jsonrpc: "2.0", error: { code: -32001, message: "this MCP session was opened with a different virtual key" }, id: null });
    }
    if (!session) {
      if (request.method !== "POST" || sessionId) {
        return reply.code(404).send({ jsonrpc: "2.0", error: { code: -32001, message: "unknown or expired MCP session; initialize a new one" }, id: null });
      }
      const server = makeServer(gateway, caller);
      // The SDK's own DNS-rebinding check, behind buildServer's: the session keeps the Host it was opened with.
      const host = request.headers.host ?? "";
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts: [host],
        allowedOrigins: options.hosts?.originsFor(host) ?? [],
        onsessioninitialized: (sid) => {
          sessions.set(sid, fresh);
        },
        onsessionclosed: (sid) => {
          sessions.delete(sid);
        },
      });
      const fresh: Session = { transport, server, owner: ownerOf(caller), open: 0, lastUsed: Date.now() };
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      session = fresh;
    }
    const used = session;
    used.open++;
    reply.raw.once("close", () => {
      used.open--;
      used.lastUsed = Date.now();
    });
    reply.hijack();
    await used.transport.handleRequest(request.raw, reply.raw, request.body);
  };
  app.post("/mcp", handle);
  app.get("/mcp", handle);
  app.delete("/mcp", handle);
}

/** Serves MCP over stdin/stdout for one local client; resolves when the client goes away. */
export async function serveStdio(gateway: Gateway): Promise<void> {
  const server = makeServer(gateway, UNRESTRICTED);
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

/** Who an MCP session belongs to: the key's id (names change), or "-" without a key. */
function ownerOf(caller: Caller): string {
  return caller.keyId === undefined ? "-" : `key:${caller.keyId}`;
}
