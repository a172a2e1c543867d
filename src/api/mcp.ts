// `/mcp`: the gateway's MCP face (gateway/mcp-face.ts) over Streamable HTTP, one SDK server per
// session. A session belongs to the caller that opened it: a later request on it must present
// the same key (or, for a session opened without one, none), else a leaked session id would
// carry another key's grants. Sessions no request uses for a while are closed.
import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Caller } from "../gateway/caller.js";
import type { Gateway } from "../gateway/gateway.js";
import { DEFAULT_SESSION_IDLE_SECONDS, mcpServerFor, notifyOnChange } from "../gateway/mcp-face.js";
import { callerOf } from "./auth.js";

export interface McpRouteOptions {
  gateway: Gateway;
  /** The origins a browser shows for the gateway reached as `host`; with it, the SDK checks Origin too. */
  hosts?: { originsFor(host: string): string[] };
  /** Close a session no request has used for this long (default 3600). */
  idleSeconds?: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  owner: string;
  /** Requests on the session still open (a GET's event stream stays open): it is not idle meanwhile. */
  open: number;
  lastUsed: number;
}

/** Who an MCP session belongs to: the key's id (names change), or "-" without a key. */
function ownerOf(caller: Caller): string {
  return caller.keyId === undefined ? "-" : `key:${caller.keyId}`;
}

function jsonRpcError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ jsonrpc: "2.0", error: { code: -32001, message }, id: null });
}

export const mcpRoutes: FastifyPluginAsync<McpRouteOptions> = async (app, options) => {
  const { gateway } = options;
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

  /** A new session for `caller`, connected; it is remembered once the SDK has given it an id. */
  const open = async (request: FastifyRequest, caller: Caller): Promise<Session> => {
    const server = mcpServerFor(gateway, caller);
    // The SDK's own DNS-rebinding check, behind the access check's: the session keeps the Host it was opened with.
    const host = request.headers.host ?? "";
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: [host],
      allowedOrigins: options.hosts?.originsFor(host) ?? [],
      onsessioninitialized: (sid) => {
        sessions.set(sid, session);
      },
      onsessionclosed: (sid) => {
        sessions.delete(sid);
      },
    });
    const session: Session = { transport, server, owner: ownerOf(caller), open: 0, lastUsed: Date.now() };
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return session;
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = request.headers["mcp-session-id"];
    const sessionId = Array.isArray(id) ? id[0] : id;
    let session = sessionId ? sessions.get(sessionId) : undefined;
    const caller = callerOf(request);
    if (session && session.owner !== ownerOf(caller)) return jsonRpcError(reply, 403, "this MCP session was opened with a different virtual key");
    if (!session) {
      if (request.method !== "POST" || sessionId) return jsonRpcError(reply, 404, "unknown or expired MCP session; initialize a new one");
      session = await open(request, caller);
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
};
