// The gateway composed: the store (seeded from config.json on first start), the gateway with
// its upstream servers, every change it makes written to the store, and the HTTP server (the
// API and /mcp). The CLI parses flags and calls this; tests and embedders call it to boot the
// whole durable system in one process.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { chainPlugins, loadPlugins } from "./agent/plugins.js";
import { HostPolicy } from "./api/host-check.js";
import { buildServer } from "./api/server.js";
import type { GatewayConfig } from "./gateway/config-file.js";
import { ExecLog } from "./gateway/exec-log.js";
import { Gateway, type GatewaySettings } from "./gateway/gateway.js";
import type { ShapeChange } from "./gateway/shapes.js";
import { ChangeFeed } from "./gateway/change-feed.js";
import { PgStore } from "./gateway/pg-store.js";
import { PendingWrites } from "./gateway/pending-writes.js";
import { RemoteChanges } from "./gateway/remote-changes.js";
import { SqliteLock } from "./gateway/sqlite-lock.js";
import type { StateStore } from "./gateway/state-store.js";
import { Store, StoreError, type StoredSettings } from "./gateway/store.js";
import type { KeyChange, KeyRing } from "./gateway/virtual-keys.js";
import { startTelemetry, type TelemetrySettings } from "./telemetry/index.js";
import type { ClientConfig } from "./upstream/config.js";

export interface OpenGatewayOptions {
  /** The parsed config.json (loadGatewayConfig): it seeds an empty database, and sets what only it sets. */
  config: GatewayConfig;
  /** The folder of the SQLite state database, `<dataDir>/gateway.db`, when config.json's `store` names no other; created if missing. */
  dataDir: string;
  /** Where to listen, over config.json's server.host (the HTTP server answers requests naming it in Host). */
  host?: string;
  /** The port to listen on, over config.json's server.port (0: any free one). */
  port?: number;
  /** Where the operator is told of server states and of what could not be saved (default: stderr). */
  log?: (message: string) => void;
  /** Fastify's request logging (default off). */
  logger?: boolean;
  /** Traces and metrics (src/telemetry: resolveTelemetry of config.json's section and OTEL_*); null or absent: off. */
  telemetry?: TelemetrySettings | null;
  /** This instance's id in a shared store (default: a random UUID). */
  instance?: string;
}

/** What listen() bound: the port is the actual one when 0 was asked. */
export interface ListenAddress {
  host: string;
  port: number;
  url: string;
}

/** The port could not be bound; `message` says why in words (the port is in use, say). */
export class ListenError extends Error {
  constructor(
    readonly code: string | undefined,
    readonly host: string,
    readonly port: number,
    message: string,
  ) {
    super(message);
    this.name = "ListenError";
  }
}

export interface OpenedGateway {
  app: FastifyInstance;
  gateway: Gateway;
  store: StateStore;
  /** This instance's id: in the change notes it sends and, with PostgreSQL, in its log rows. */
  instance: string;
  keys: KeyRing;
  executions: ExecLog;
  /**
   * Serves the API and /mcp on `host:port` (default: the host and port opened with). A ListenError
   * says why the port could not be bound; the gateway stays open until close().
   */
  listen(host?: string, port?: number): Promise<ListenAddress>;
  /**
   * Cancels running scripts (their callers are answered), closes the HTTP server, the upstream
   * servers (their child processes end) and the store. Safe to call more than once.
   */
  close(): Promise<void>;
}

const stderrLog = (message: string) => process.stderr.write(`code-mode-gateway: ${message}\n`);

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
 * Opens the gateway: loads the plugins (a PluginError names a bad one), opens the store that
 * config.json's `store` names (a StoreError names a bad file, row, URL or an unreachable
 * server), and starts connecting the upstream servers in the background. Nothing listens until
 * listen().
 */
export async function openGateway(options: OpenGatewayOptions): Promise<OpenedGateway> {
  const plugins = await loadPlugins(options.config.plugins);
  const log = options.log ?? stderrLog;
  const instance = options.instance ?? randomUUID();
  const section = options.config.store ?? { type: "sqlite" };
  // State changed through the API lives in the database; config.json only seeds an empty one.
  let store: StateStore;
  let feed: ((changes: RemoteChanges) => Promise<ChangeFeed>) | null = null;
  let release = () => {};
  if (section.type === "postgres") {
    const pg = await PgStore.open({ url: section.url, instance, onError: (e) => log(`state database: ${e.message}`) });
    store = pg;
    feed = (changes) =>
      ChangeFeed.start({
        url: section.url,
        instance,
        onChange: (change) => changes.request(change.kind),
        onResync: () => changes.requestAll(),
        log,
      }).catch((e: Error) => {
        throw new StoreError(pg.where, `cannot listen for changes: ${e.message}`);
      });
  } else {
    const path = section.path !== undefined ? resolve(section.path) : join(resolve(options.dataDir), "gateway.db");
    mkdirSync(dirname(path), { recursive: true });
    // One process per SQLite file: a second one would never see the first one's writes.
    const lock = SqliteLock.acquire(path);
    release = () => lock.release();
    try {
      store = new Store(path);
    } catch (e) {
      release();
      throw e;
    }
  }
  try {
    return await compose(options, { store, instance, log, feed, release }, chainPlugins(plugins));
  } catch (e) {
    // A corrupt row, say: nothing was started yet, and the store is let go.
    await store.close();
    release();
    throw e;
  }
}

interface Opened {
  store: StateStore;
  instance: string;
  log: (message: string) => void;
  /** Starts hearing other instances' changes (a shared store only). */
  feed: ((changes: RemoteChanges) => Promise<ChangeFeed>) | null;
  /** Lets go of what keeps other processes off the store (SQLite's lock file), once it is closed. */
  release: () => void;
}

/** The gateway, its events written to `store`, and the HTTP server; the upstream servers start connecting last. */
async function compose(options: OpenGatewayOptions, opened: Opened, preToolCall: Gateway["preToolCall"]): Promise<OpenedGateway> {
  const { config } = options;
  const { store, instance, log } = opened;
  await store.seed({ clients: config.clients, keys: config.keys, settings: storedSettings(config.settings) });
  const saved = await store.getSettings();
  const gateway = new Gateway(saved ? { ...config.settings, ...saved } : config.settings);
  gateway.preToolCall = preToolCall;
  const telemetry = options.telemetry ? startTelemetry(gateway, options.telemetry, log) : null;
  // While muted, the gateway's events are changes read from the store: nothing to write back.
  let muted = false;
  const mute = (apply: () => void) => {
    muted = true;
    try {
      apply();
    } finally {
      muted = false;
    }
  };
  const changes = new RemoteChanges(gateway, store, mute, log);
  // A failed write leaves this instance ahead of the store: it reads the store back.
  const writes = new PendingWrites((e) => {
    log(`a change was not saved: ${e.message}`);
    changes.requestAll();
  });
  const persist = (write: () => unknown) => {
    if (!muted) writes.track(write);
  };
  // Every change is committed before the API answers: the routes await gateway.settled().
  gateway.settled = () => writes.settled();
  gateway.on("settings", (s: GatewaySettings) => persist(() => store.putSettings(storedSettings(s))));
  gateway.on("client-saved", (c: ClientConfig) => persist(() => store.putClient(c)));
  gateway.on("client-deleted", (name: string) => persist(() => store.deleteClient(name)));
  gateway.manager.on("state", (name: string, state: string) => {
    const c = gateway.manager.get(name);
    log(`server ${name}: ${state}${state === "reconnecting" && c?.lastError ? ` (${c.lastError})` : ""}`);
  });
  const keys = gateway.keys;
  keys.load(await store.listKeys());
  keys.on("change", (change: KeyChange) => {
    persist(() => (change.type === "put" ? store.putKey(change.key) : store.deleteKey(change.key.id)));
  });
  // The log is the store's: a failed write is reported, never failing the execution it describes.
  const executions = new ExecLog(store, (e) => log(`execution log not saved: ${e.message}`));
  gateway.shapes.load(await store.listShapes());
  gateway.shapes.on("change", (change: ShapeChange) => {
    if (muted) return;
    // Announced only when a result taught something new; like a log entry, a shape not saved
    // must not fail the call that taught it.
    const saving = async () => {
      if (change.type === "put") await store.putShape(change.server, change.tool, change.shape);
      else if (change.type === "drop") await store.deleteShapes(change.server);
      else await store.moveShapes(change.from, change.to);
    };
    saving().catch((e: Error) => log(`observed shape not saved: ${e.message}`));
  });
  const clients = await store.listClients();
  // Listening starts before anything is served, so no change made elsewhere from now on is missed.
  const feed = opened.feed ? await opened.feed(changes) : null;

  const openedHost = options.host ?? config.host;
  const openedPort = options.port ?? config.port;
  const hosts = new HostPolicy({ host: openedHost, allowedHosts: config.allowedHosts });
  const app = buildServer(gateway, {
    requireKey: config.requireKey,
    adminToken: config.adminToken,
    log: executions,
    providers: config.providers,
    hosts,
    allowUnauthenticatedStdio: config.allowUnauthenticatedStdio,
    ...(telemetry ? { instrument: telemetry.instrument } : {}),
    mcpSessionIdleSeconds: config.mcpSessionIdleSeconds,
    // In the database: a client's MCP session outlives a restart of the gateway.
    mcpSessions: store.sessions,
    store: () => (feed ? { type: "postgres", listening: feed.listening } : { type: "sqlite" }),
    logger: options.logger ?? false,
  });
  // Servers connect in the background: a slow or dead one never delays startup. They come from
  // the store: announcing them would write them back.
  mute(() => {
    for (const client of clients) gateway.addClient(client);
  });

  let closing: Promise<void> | null = null;
  return {
    app,
    gateway,
    store,
    instance,
    keys,
    executions,
    async listen(host = openedHost, port = openedPort): Promise<ListenAddress> {
      try {
        await app.listen({ host, port });
      } catch (e) {
        throw listenError(e as NodeJS.ErrnoException, host, port);
      }
      const address = app.server.address();
      const bound = typeof address === "object" && address ? address.port : port;
      return { host, port: bound, url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}` };
    },
    close() {
      closing ??= (async () => {
        // Running scripts end first (with an error naming the shutdown), so closing never waits on them.
        gateway.cancelAll();
        await closeServer(app).catch((e: unknown) => log(`closing the HTTP server: ${(e as Error).message}`));
        await feed?.close();
        await gateway.close();
        await changes.idle();
        await telemetry?.shutdown().catch((e: unknown) => log(`telemetry: spans not sent at shutdown: ${(e as Error).message}`));
        await writes.settled().catch(() => undefined);
        await executions.settled();
        await store.close();
        opened.release();
      })();
      return closing;
    },
  };
}

function listenError(e: NodeJS.ErrnoException, host: string, port: number): ListenError {
  const why =
    e.code === "EADDRINUSE" ? `port ${port} on ${host} is in use`
    : e.code === "EACCES" ? `port ${port} on ${host} may not be used by this user`
    : e.code === "EADDRNOTAVAIL" ? `${host} is not an address of this machine`
    : `cannot listen on ${host}:${port}: ${e.message}`;
  return new ListenError(e.code, host, port, why);
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
