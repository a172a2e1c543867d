// `/mcp`: the gateway's MCP face (gateway/mcp-face.ts) over Streamable HTTP, one SDK server per
// session. A session belongs to the caller that opened it: a later request on it must present
// the same key (or, for a session opened without one, none), else a leaked session id would
// carry another key's grants. Sessions no request uses for a while are closed.
//
// Sessions are records too (gateway/mcp-sessions.ts: the owner, the Host, the client's
// `initialize` params, the last use), written before the client is answered, so that a request
// carrying a session id this process does not hold is served anyway: the session is rebuilt here
// from its record (mcp-resume.ts), on another instance behind the same load balancer or after a
// restart. Each process keeps the record's last use current (at most once a second per session)
// and learns there that a session was deleted or expired elsewhere. What cannot move is an event
// stream in flight: it ends with the process that holds it, and the client opens it again.
import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Caller } from "../gateway/caller.js";
import type { Gateway } from "../gateway/gateway.js";
import { DEFAULT_SESSION_IDLE_SECONDS, mcpServerFor, notifyOnChange } from "../gateway/mcp-face.js";
import { type McpClientHello, type McpSessionRecord, type McpSessionRecords, MemorySessionRecords } from "../gateway/mcp-sessions.js";
import { callerOf } from "./auth.js";
import { replayInitialize, ResumeError } from "./mcp-resume.js";

export interface McpRouteOptions {
  gateway: Gateway;
  /** The origins a browser shows for the gateway reached as `host`; with it, the SDK checks Origin too. */
  hosts?: { originsFor(host: string): string[] };
  /** Close a session no request has used for this long (default 3600). */
  idleSeconds?: number;
  /** Where the session records are kept (default: this process's memory, so sessions do not move). */
  sessions?: McpSessionRecords;
}

const UNKNOWN_SESSION = "unknown or expired MCP session; initialize a new one";
const OTHER_KEY = "this MCP session was opened with a different virtual key";

/** How often a session's use is written to its record (and its record checked), at most (less when sessions idle out sooner). */
const TOUCH_MS = 1000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  owner: string;
  /** Requests on the session still open (a GET's event stream stays open): it is not idle meanwhile. */
  open: number;
  lastUsed: number;
  /** When its record was last touched (and found). */
  touched: number;
}

/** Who an MCP session belongs to: the key's id (names change), or "-" without a key. */
function ownerOf(caller: Caller): string {
  return caller.keyId === undefined ? "-" : `key:${caller.keyId}`;
}

/** The client's `initialize` params, when `body` is an initialize request. */
function helloOf(body: unknown): McpClientHello | null {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (method !== "initialize" || params === null || typeof params !== "object") return null;
  const hello = params as Partial<McpClientHello>;
  if (typeof hello.protocolVersion !== "string" || typeof hello.clientInfo !== "object" || hello.clientInfo === null) return null;
  return { protocolVersion: hello.protocolVersion, capabilities: hello.capabilities ?? {}, clientInfo: hello.clientInfo };
}

function jsonRpcError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ jsonrpc: "2.0", error: { code: -32001, message }, id: null });
}

export const mcpRoutes: FastifyPluginAsync<McpRouteOptions> = async (app, options) => {
  const { gateway } = options;
  const records = options.sessions ?? new MemorySessionRecords();
  const sessions = new Map<string, Session>();
  /** Sessions being rebuilt from their records: two requests at once make one. */
  const resuming = new Map<string, Promise<Session | { status: number; message: string }>>();
  const stop = notifyOnChange(gateway, () => [...sessions.values()].map((s) => s.server));
  // Clients that go away without a DELETE would otherwise keep their sessions forever.
  const idleMs = (options.idleSeconds ?? DEFAULT_SESSION_IDLE_SECONDS) * 1000;
  const touchMs = Math.min(TOUCH_MS, idleMs / 4);
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) {
        // Closing the server closes its transport, whose onclose forgets the session here; its
        // record stays, as another instance may be using it (it expires below when none is).
        if (s.open === 0 && now - s.lastUsed >= idleMs) void s.server.close().catch(() => undefined);
        // An event stream held open here is use, though no request comes.
        else if (s.open > 0) void records.touch(id, now).catch(() => undefined);
      }
      void records.expire(now - idleMs).catch(() => undefined);
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

  /**
   * A session for `caller`, connected: a new one (remembered, and its record written, once the
   * SDK has given it an id), or the one `record` describes, initialized again here.
   */
  const open = async (host: string, caller: Caller, hello: McpClientHello | null, record?: McpSessionRecord): Promise<Session> => {
    const server = mcpServerFor(gateway, caller);
    // The SDK's own DNS-rebinding check, behind the access check's: the session keeps the Host it was opened with.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: record ? () => record.id : () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: [host],
      allowedOrigins: options.hosts?.originsFor(host) ?? [],
      // Awaited by the SDK before it answers: a session the client is told of has its record.
      onsessioninitialized: async (sid) => {
        sessions.set(sid, session);
        if (!record && hello) await records.put({ id: sid, owner: session.owner, host, hello, lastUsed: Date.now() });
      },
      onsessionclosed: async (sid) => {
        sessions.delete(sid);
        await records.delete(sid);
      },
    });
    const now = Date.now();
    const session: Session = { transport, server, owner: ownerOf(caller), open: 0, lastUsed: now, touched: now };
    transport.onclose = () => {
      if (transport.sessionId && sessions.get(transport.sessionId) === session) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    if (record) {
      try {
        await replayInitialize(transport, record);
      } catch (e) {
        // Nothing half-made stays behind: closing the server forgets the session here.
        await server.close().catch(() => undefined);
        throw e;
      }
    }
    return session;
  };

  /** The session `id` from its record, or why it cannot be had (404 unknown or expired, 403 another key's). */
  const resume = async (request: FastifyRequest, id: string, caller: Caller): Promise<Session | { status: number; message: string }> => {
    const record = await records.get(id);
    if (record === null) return { status: 404, message: UNKNOWN_SESSION };
    if (Date.now() - record.lastUsed >= idleMs) {
      await records.delete(id);
      return { status: 404, message: UNKNOWN_SESSION };
    }
    if (record.owner !== ownerOf(caller)) return { status: 403, message: OTHER_KEY };
    // Pinned to the Host this request came with, which the access check let in (an instance behind
    // a load balancer may be reached by another name than the one the session was opened on).
    const host = request.headers.host ?? "";
    const session = await open(host, caller, null, { ...record, host });
    request.log.info({ session: id }, "MCP session resumed from its record");
    return session;
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = request.headers["mcp-session-id"];
    const sessionId = Array.isArray(id) ? id[0] : id;
    const caller = callerOf(request);
    let session = sessionId ? sessions.get(sessionId) : undefined;
    try {
      if (session && sessionId) {
        if (session.owner !== ownerOf(caller)) return jsonRpcError(reply, 403, OTHER_KEY);
        const now = Date.now();
        if (now - session.touched >= touchMs) {
          // Deleted (or expired) on another instance meanwhile: this copy goes too.
          if (!(await records.touch(sessionId, now))) {
            void session.server.close().catch(() => undefined);
            return jsonRpcError(reply, 404, UNKNOWN_SESSION);
          }
          session.touched = now;
        }
      } else if (sessionId) {
        let pending = resuming.get(sessionId);
        if (!pending) {
          pending = resume(request, sessionId, caller).finally(() => resuming.delete(sessionId));
          resuming.set(sessionId, pending);
        }
        const found = await pending;
        if ("status" in found) return jsonRpcError(reply, found.status, found.message);
        if (found.owner !== ownerOf(caller)) return jsonRpcError(reply, 403, OTHER_KEY);
        session = found;
      } else {
        if (request.method !== "POST") return jsonRpcError(reply, 400, "no MCP session id: initialize a session first (POST an initialize request)");
        session = await open(request.headers.host ?? "", caller, helloOf(request.body));
      }
    } catch (e) {
      request.log.error(e);
      if (e instanceof ResumeError) return jsonRpcError(reply, 500, `the MCP session could not be continued here: ${e.message}; initialize a new one`);
      return jsonRpcError(reply, 503, `the MCP session store is unavailable: ${(e as Error).message}`);
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
