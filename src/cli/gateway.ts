#!/usr/bin/env -S node --max-semi-space-size=32
// code-mode-gateway: the server. One process serves the MCP endpoint /mcp and the HTTP API, or,
// with --stdio, MCP over stdin/stdout for a desktop client that launches it (logs go to stderr).
import { join, resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { chainPlugins, loadPlugins, PluginError } from "../agent/plugins.js";
import { HostPolicy } from "../api/host-check.js";
import { buildServer, callerOf } from "../api/server.js";
import { loadGatewayConfig } from "../gateway/config-file.js";
import { Gateway, type GatewaySettings } from "../gateway/gateway.js";
import { type ExecutionEntry, ExecLog, type LogChange } from "../gateway/exec-log.js";
import { type LogEntry, MAX_LOG_PAGE, Store, type StoredSettings } from "../gateway/store.js";
import type { ShapeChange } from "../gateway/shapes.js";
import { type KeyChange, KeyRing } from "../gateway/virtual-keys.js";
import { mountMcp, serveStdio } from "../gateway/mcp-face.js";
import { type ClientConfig, ConfigError } from "../upstream/config.js";
import { resolveTelemetry, startTelemetry, TelemetryConfigError, type TelemetrySettings } from "../telemetry/index.js";

const USAGE = "usage: code-mode-gateway [--config config.json] [--data ./data] [--host 127.0.0.1] [--port 8080] [--stdio]";

interface Options {
  config: string;
  /** Folder of the state database (gateway.db). */
  data: string;
  host?: string;
  port?: number;
  stdio: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { config: "config.json", data: "data", stdio: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--config") options.config = value();
    else if (arg === "--data") options.data = value();
    else if (arg === "--host") options.host = value();
    else if (arg === "--port") {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port needs a port number");
      options.port = port;
    } else if (arg === "--stdio") options.stdio = true;
    else if (arg === "-h" || arg === "--help") throw new Error("");
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

function storedSettings(s: GatewaySettings): StoredSettings {
  return {
    limits: s.limits,
    bindingLevel: s.bindingLevel,
    instructionsLimit: s.instructionsLimit,
    directInstructionsLimit: s.directInstructionsLimit,
    maxAgentDepth: s.maxAgentDepth,
    observedShapes: s.observedShapes,
  };
}

/**
 * Closes the HTTP server without waiting on keep-alive clients: a connection that goes idle
 * after close() began (its cancelled call just answered) is closed at once, and whatever is still
 * open after a grace period is cut.
 */
async function closeServer(app: FastifyInstance, graceMs = 5000): Promise<void> {
  const closing = app.close();
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await closing;
  } finally {
    clearInterval(sweep);
    clearTimeout(force);
  }
}

/** The newest `capacity` logged executions, oldest first, numbered for the in-memory log. */
function loadLog(store: Store, capacity: number): ExecutionEntry[] {
  const newestFirst: LogEntry[] = [];
  while (newestFirst.length < capacity) {
    const { entries } = store.queryLogs({ limit: Math.min(MAX_LOG_PAGE, capacity - newestFirst.length), offset: newestFirst.length });
    newestFirst.push(...entries);
    if (entries.length === 0) break;
  }
  return newestFirst.reverse().map((e, i) => ({
    ...e,
    id: i + 1,
    tool_calls: e.tool_calls.map((c) => ({ ...c, error: c.error ?? null })),
    error: typeof e.error === "string" ? { type: "Error", message: e.error, line: null } : e.error,
  }));
}

const log = (message: string) => process.stderr.write(`code-mode-gateway: ${message}\n`);

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    if ((e as Error).message) log((e as Error).message);
    process.stderr.write(USAGE + "\n");
    return 2;
  }
  let config;
  try {
    config = loadGatewayConfig(resolve(options.config));
  } catch (e) {
    if (e instanceof ConfigError) {
      log(`invalid config: ${e.message}`);
      return 2;
    }
    throw e;
  }
  let telemetrySettings: TelemetrySettings | null;
  try {
    telemetrySettings = resolveTelemetry(config.telemetry);
  } catch (e) {
    if (!(e instanceof TelemetryConfigError)) throw e;
    log(`invalid telemetry settings: ${e.message}`);
    return 2;
  }
  let plugins;
  try {
    plugins = await loadPlugins(config.plugins);
  } catch (e) {
    if (e instanceof PluginError) {
      log(`invalid config: ${e.message}`);
      return 2;
    }
    throw e;
  }
  // State changed through the API lives in the database; config.json only seeds an empty one.
  const store = new Store(join(resolve(options.data), "gateway.db"));
  if (store.isEmpty()) {
    for (const client of config.clients) store.putClient(client);
    for (const key of config.keys) store.putKey(key);
    store.putSettings(storedSettings(config.settings));
  }
  const saved = store.getSettings();
  const settings: GatewaySettings = saved ? { ...config.settings, ...saved } : config.settings;
  const gateway = new Gateway(settings);
  gateway.preToolCall = chainPlugins(plugins);
  const telemetry = telemetrySettings === null ? null : startTelemetry(gateway, telemetrySettings);
  // Every change is committed before the API answers (the events are synchronous).
  gateway.on("settings", (s: GatewaySettings) => store.putSettings(storedSettings(s)));
  gateway.on("client-saved", (c: ClientConfig) => store.putClient(c));
  gateway.on("client-deleted", (name: string) => store.deleteClient(name));
  gateway.manager.on("state", (name: string, state: string) => {
    const c = gateway.manager.get(name);
    log(`server ${name}: ${state}${state === "reconnecting" && c?.lastError ? ` (${c.lastError})` : ""}`);
  });
  const keys = new KeyRing(store.listKeys());
  keys.on("change", (change: KeyChange) => {
    if (change.type === "put") store.putKey(change.key);
    else store.deleteKey(change.key.id);
  });
  const execLog = new ExecLog();
  execLog.load(loadLog(store, execLog.capacity));
  execLog.on("change", (change: LogChange) => {
    // The store trims its own history (it keeps more than the in-memory page); a failed log
    // write must not fail the execution that was logged.
    if (change.type !== "put") return;
    try {
      store.appendLog(change.entry);
    } catch (e) {
      log(`execution log not saved: ${(e as Error).message}`);
    }
  });
  gateway.shapes.load(store.listShapes());
  gateway.shapes.on("change", (change: ShapeChange) => {
    // Announced only when a result taught something new; like a log entry, a shape not saved
    // must not fail the call that taught it.
    try {
      if (change.type === "put") store.putShape(change.server, change.tool, change.shape);
      else if (change.type === "drop") store.deleteShapes(change.server);
      else store.moveShapes(change.from, change.to);
    } catch (e) {
      log(`observed shape not saved: ${(e as Error).message}`);
    }
  });
  // Servers connect in the background: a slow or dead one never delays startup.
  for (const client of store.listClients()) gateway.addClient(client);

  let stopping = false;
  const shutdown = async (close: () => Promise<void>) => {
    if (stopping) return;
    stopping = true;
    log("shutting down");
    // Running scripts end first (with an error naming the shutdown), so closing never waits on them.
    gateway.cancelAll();
    await close().catch(() => undefined);
    await gateway.close();
    await telemetry?.shutdown().catch((e: unknown) => log(`telemetry: spans not sent at shutdown: ${(e as Error).message}`));
    store.close();
  };

  if (options.stdio) {
    process.once("SIGINT", () => void shutdown(async () => undefined).then(() => process.exit(0)));
    process.once("SIGTERM", () => void shutdown(async () => undefined).then(() => process.exit(0)));
    execLog.attach(gateway);
    await serveStdio(gateway);
    await shutdown(async () => undefined);
    return 0;
  }

  const host = options.host ?? config.host;
  const port = options.port ?? config.port;
  const hosts = new HostPolicy({ host, allowedHosts: config.allowedHosts });
  const app = buildServer(gateway, {
    keys,
    requireKey: config.requireKey,
    adminToken: config.adminToken,
    log: execLog,
    providers: config.providers,
    hosts,
    allowUnauthenticatedStdio: config.allowUnauthenticatedStdio,
    ...(telemetry ? { instrument: telemetry.instrument } : {}),
  });
  mountMcp(app, gateway, callerOf, { hosts, idleSeconds: config.mcpSessionIdleSeconds });
  try {
    await app.listen({ host, port });
  } catch (e) {
    // Without this the upstream children kept the process alive after the failure.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") log(`port ${port} on ${host} is in use; pick another with --port`);
    else if (code === "EACCES") log(`port ${port} on ${host} may not be used by this user; pick another with --port`);
    else if (code === "EADDRNOTAVAIL") log(`${host} is not an address of this machine; pick another with --host`);
    else log(`cannot listen on ${host}:${port}: ${(e as Error).message}`);
    await shutdown(() => app.close());
    return 1;
  }
  const address = app.server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  log(`listening on http://${host}:${bound} (MCP at /mcp, API at /api, health at /health)`);
  await new Promise<void>((resolveStop) => {
    const stop = () => void shutdown(() => closeServer(app)).then(resolveStop);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}

const EXIT_GRACE_MS = 2000;

main().then(
  (code) => {
    process.exitCode = code;
    // Shutdown always exits, after a stop or a failed start. Nothing should be left holding the
    // event loop (a finished execution releases its timers and calls); if something is, it is
    // named, and cut after a grace period.
    setTimeout(() => {
      log(`exiting with handles still open: ${process.getActiveResourcesInfo().join(", ")}`);
      process.exit(code);
    }, EXIT_GRACE_MS).unref();
  },
  (e: unknown) => {
    log(`fatal: ${(e as Error).stack ?? String(e)}`);
    process.exitCode = 1;
  },
);
