// The gateway's HTTP API (SPEC §6) in Bifrost's shapes, as Fastify plugins, one per concern:
// access (host and origin, the admin token, virtual keys), the error answers, health, the
// settings in force, the upstream clients, virtual keys, the execution log, one tool call at a
// time, agent mode, `/mcp` and the web UI. Every route declares its schema (schemas.ts); every
// error answers {"error": {"message"}}, naming the field at fault (validation.ts).
//
// Who may call what: `/api/*` is the operator's (the admin token, when one is set); everything
// else (`/health`, `/v1/*`, `/mcp`) is the callers', each seeing what its virtual key grants.
import { type FastifyInstance, fastify } from "fastify";
import { ExecLog } from "../gateway/exec-log.js";
import type { ProviderConfig } from "../gateway/config-file.js";
import type { Gateway } from "../gateway/gateway.js";
import { agentRoutes } from "./agent.js";
import { access } from "./auth.js";
import { clientRoutes } from "./clients.js";
import { configRoutes } from "./config.js";
import { errorReplies } from "./errors.js";
import { healthRoutes } from "./health.js";
import type { HostPolicy } from "./host-check.js";
import type { StoreHealth } from "./types.js";
import { jsonBody } from "./json-body.js";
import { keyRoutes } from "./keys.js";
import { logRoutes } from "./logs.js";
import { mcpRoutes } from "./mcp.js";
import type { McpSessionRecords } from "../gateway/mcp-sessions.js";
import { overviewRoutes } from "./overview.js";
import { toolRoutes } from "./tools.js";
import { validationError } from "./validation.js";
import { webRoutes } from "./web.js";

export interface ServerOptions {
  logger?: boolean;
  /** Refuse requests without a virtual key (default: they see everything). */
  requireKey?: boolean;
  /** When set, every `/api/*` request must present it. */
  adminToken?: string;
  /** Where executions are logged (default: a fresh in-memory log). */
  log?: ExecLog;
  /** The Host and Origin requests must come with (default: the loopback names only). */
  hosts?: HostPolicy;
  /** `server.allow_unauthenticated_stdio`: let the API add or edit stdio clients without an admin token. */
  allowUnauthenticatedStdio?: boolean;
  /** The OpenAI-compatible providers of agent mode (config.json's `providers`). */
  providers?: readonly ProviderConfig[];
  /** `server.mcp_session_idle_seconds`: close an MCP session no request has used for this long (default 3600). */
  mcpSessionIdleSeconds?: number;
  /** Where MCP session records are kept (the store's table; default: memory, so sessions stay in this process). */
  mcpSessions?: McpSessionRecords;
  /** The built web UI's folder (default: dist/web under the package root). */
  webRoot?: string;
  /** The store's state for /health (openGateway gives it; absent, /health says nothing of a store). */
  store?: () => StoreHealth;
  /** Adds hooks and routes before all others (src/telemetry: request spans, GET /metrics). */
  instrument?: (app: FastifyInstance) => void;
}

/** The app for `gateway`; the virtual keys in force are the gateway's (`gateway.keys`). */
export function buildServer(gateway: Gateway, options: ServerOptions = {}): FastifyInstance {
  const app = fastify({
    logger: options.logger ?? false,
    // Strict: no type coercion ("5" is not 5) and no silent removal of unknown fields.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, verbose: true } },
    schemaErrorFormatter: validationError,
  });
  options.instrument?.(app);
  const adminToken = options.adminToken || undefined;
  const log = options.log ?? new ExecLog();

  // Plugins load in this order; the first three reach every route, access first of all.
  app.register(errorReplies);
  app.register(access, { gateway, adminToken, requireKey: options.requireKey, hosts: options.hosts });
  app.register(jsonBody, {});
  app.register(healthRoutes, { gateway, store: options.store });
  app.register(configRoutes, { gateway });
  app.register(clientRoutes, { gateway, adminToken: adminToken !== undefined, allowUnauthenticatedStdio: options.allowUnauthenticatedStdio });
  app.register(keyRoutes, { gateway });
  app.register(logRoutes, { gateway, log });
  app.register(overviewRoutes, { gateway, log });
  app.register(toolRoutes, { gateway });
  app.register(agentRoutes, { gateway, providers: options.providers });
  app.register(mcpRoutes, { gateway, hosts: options.hosts, idleSeconds: options.mcpSessionIdleSeconds, sessions: options.mcpSessions });
  app.register(webRoutes, { gateway, root: options.webRoot });
  return app;
}
