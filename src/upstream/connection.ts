// One upstream MCP server: its connection (stdio, Streamable HTTP or legacy SSE, through the
// official SDK), its tool catalog and instructions, and its health. A server that dies is marked,
// its calls fail fast, and it is reconnected with exponential backoff until it is closed.
import { EventEmitter } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CallToolResult, ToolListChangedNotificationSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ClientConfig } from "./config.js";
import { logText } from "./log-text.js";
import { type TraceContext, traceContextInBody } from "./trace-context.js";

export type ServerState = "connecting" | "connected" | "reconnecting" | "disabled" | "closed";

export interface ConnectionOptions {
  /** How long one connection attempt (initialize and the tool list) may take. */
  connectTimeoutMs: number;
  /** First and longest wait between reconnection attempts. */
  backoffMs: { initial: number; max: number };
}

export const DEFAULT_CONNECTION_OPTIONS: ConnectionOptions = {
  connectTimeoutMs: 15_000,
  backoffMs: { initial: 250, max: 30_000 },
};

/** A call that could not be made or did not complete (not a tool's own isError result). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly kind: "unavailable" | "timeout" | "protocol",
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

const CLIENT_INFO = { name: "code-mode-gateway", version: "0.1.0" };
const MAX_PAGES = 1000;
const STDERR_TAIL = 4096;

/**
 * fetch that passes a call's trace context on as HTTP headers (W3C `traceparent`): the SDK takes
 * no per-request headers, so callTool puts the context in the request's `_meta`, where MCP keeps
 * it, and this lifts it from the body. Without one it is plain fetch.
 */
const tracedFetch: FetchLike = (url, init) => {
  const body = init?.body;
  const trace = typeof body === "string" ? traceContextInBody(body) : undefined;
  if (trace === undefined) return fetch(url, init);
  const headers = new Headers(init?.headers);
  headers.set("traceparent", trace.traceparent);
  if (trace.tracestate !== undefined) headers.set("tracestate", trace.tracestate);
  return fetch(url, { ...init, headers });
};

export class UpstreamConnection extends EventEmitter {
  state: ServerState = "connecting";
  tools: Tool[] = [];
  instructions: string | null = null;
  serverInfo: { name: string; version: string } | null = null;
  lastError: string | null = null;
  /** Bumped whenever the tool list changes, so dependents can recompile what they derived. */
  catalogVersion = 0;
  private client: Client | null = null;
  private closing = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private stderrTail = "";
  private firstAttempt: Promise<void>;
  private settleFirst!: () => void;

  constructor(
    readonly config: ClientConfig,
    private readonly options: ConnectionOptions = DEFAULT_CONNECTION_OPTIONS,
  ) {
    super();
    this.firstAttempt = new Promise((resolve) => (this.settleFirst = resolve));
    if (config.disabled) {
      this.state = "disabled";
      this.settleFirst();
    } else {
      void this.connect();
    }
  }

  get name(): string {
    return this.config.name;
  }

  /** Settles once the first connection attempt succeeded or failed (it never rejects). */
  whenSettled(): Promise<void> {
    return this.firstAttempt;
  }

  private setState(state: ServerState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit("state", state);
  }

  private transport(): Transport {
    const c = this.config;
    if (c.connection_type === "stdio") {
      const s = c.stdio_config!;
      const transport = new StdioClientTransport({
        command: s.command,
        args: s.args,
        env: { ...getDefaultEnvironment(), ...s.env },
        cwd: s.cwd,
        stderr: "pipe",
      });
      // Keep the end of the child's stderr: it explains most failed starts.
      transport.stderr?.on("data", (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL);
      });
      return transport;
    }
    const url = new URL(c.connection_string!);
    const requestInit = { headers: c.headers };
    const options = { requestInit, fetch: tracedFetch };
    return c.connection_type === "http" ? new StreamableHTTPClientTransport(url, options) : new SSEClientTransport(url, options);
  }

  private async connect(): Promise<void> {
    if (this.closing) return;
    this.attempt++;
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      const transport = this.transport();
      await client.connect(transport, { timeout: this.options.connectTimeoutMs });
      if (this.closing) {
        await client.close();
        return;
      }
      this.client = client;
      this.instructions = client.getInstructions() ?? null;
      const info = client.getServerVersion();
      this.serverInfo = info ? { name: info.name, version: info.version } : null;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        void this.refreshTools().catch((e: unknown) => {
          this.lastError = logText(`refreshing the tool list failed: ${message(e)}`);
        });
      });
      client.onclose = () => this.lost(client);
      // The SDK's SSE client does not close when the server dies (its event stream keeps
      // retrying), so on SSE a transport error counts as a lost connection.
      if (this.config.connection_type === "sse") {
        client.onerror = () => {
          if (this.client === client) {
            this.lost(client);
            void client.close().catch(() => undefined);
          }
        };
      }
      await this.refreshTools();
      this.attempt = 0;
      this.lastError = null;
      this.setState("connected");
    } catch (e) {
      this.client = null;
      await client.close().catch(() => undefined);
      this.lastError = logText(`${message(e)}${this.stderrEnd()}`);
      this.scheduleReconnect();
    } finally {
      this.settleFirst();
    }
  }

  /** The last lines of a stdio child's stderr, for an error message (lastError is shown in logs). */
  private stderrEnd(): string {
    return this.stderrTail ? ` (stderr: ${this.stderrTail.trim().split("\n").slice(-3).join(" | ")})` : "";
  }

  /** The connection dropped (crashed child, closed HTTP session): mark it and reconnect. */
  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.closing) return;
    this.lastError = logText(`the connection closed${this.stderrEnd()}`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closing) return;
    this.setState("reconnecting");
    const { initial, max } = this.options.backoffMs;
    const delay = Math.min(max, initial * 2 ** Math.min(this.attempt, 16)) * (0.75 + Math.random() * 0.5);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  /** Reloads the whole (paginated) tool list. */
  async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.options.connectTimeoutMs });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    this.tools = tools;
    this.catalogVersion++;
    this.emit("catalog");
  }

  /**
   * Calls a tool; `trace` (the causing request's context) goes in the request's `_meta`, and in
   * its headers over HTTP. Rejects with UpstreamError when the server is unavailable or too slow.
   */
  async callTool(name: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal, trace?: TraceContext): Promise<CallToolResult> {
    const client = this.client;
    if (!client || this.state !== "connected") {
      throw new UpstreamError(
        `server '${this.name}' is not available (${this.state}${this.lastError ? `: ${this.lastError}` : ""})`,
        "unavailable",
      );
    }
    try {
      const params = trace === undefined ? { name, arguments: args } : { name, arguments: args, _meta: { ...trace } };
      return (await client.callTool(params, undefined, { timeout: timeoutMs, signal })) as CallToolResult;
    } catch (e) {
      const text = message(e);
      if (/timed? ?out/i.test(text)) throw new UpstreamError(`${this.name}.${name} timed out after ${timeoutMs / 1000} s`, "timeout");
      if (/connection closed|not connected/i.test(text)) {
        throw new UpstreamError(`server '${this.name}' went away during the call: ${text}`, "unavailable");
      }
      // Over HTTP a dead server or an expired session shows only when a request fails.
      if (this.config.connection_type !== "stdio" && /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|session not found|\b404\b/i.test(text)) {
        this.lost(client);
        void client.close().catch(() => undefined);
        throw new UpstreamError(`server '${this.name}' went away: ${text}`, "unavailable");
      }
      throw new UpstreamError(`${this.name}.${name}: ${text}`, "protocol");
    }
  }

  /** Closes the connection for good; a stdio child is terminated. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    this.setState("closed");
    await client?.close().catch(() => undefined);
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
