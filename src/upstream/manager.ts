// All upstream servers of the gateway. They connect in parallel, and none waits for another: a
// slow or dead server never blocks the rest or startup. Layers above listen for two events:
// "catalog" (a server's tool list changed) and "state" (a server's health changed).
import { EventEmitter } from "node:events";
import { type ClientConfig, ConfigError } from "./config.js";
import { type ConnectionOptions, DEFAULT_CONNECTION_OPTIONS, type ServerState, UpstreamConnection } from "./connection.js";

export class UpstreamManager extends EventEmitter {
  private readonly connections = new Map<string, UpstreamConnection>();

  constructor(private readonly options: ConnectionOptions = DEFAULT_CONNECTION_OPTIONS) {
    super();
  }

  /** Starts connecting to a new server (returns at once). */
  add(config: ClientConfig): UpstreamConnection {
    if (this.connections.has(config.name)) throw new ConfigError("name", `a client named '${config.name}' already exists`);
    const connection = new UpstreamConnection(config, this.options);
    connection.on("catalog", () => this.emit("catalog", config.name));
    connection.on("state", (state: ServerState) => this.emit("state", config.name, state));
    this.connections.set(config.name, connection);
    this.emit("catalog", config.name);
    return connection;
  }

  /** Stops a server (terminating a stdio child) and forgets it. */
  async remove(name: string): Promise<boolean> {
    const connection = this.connections.get(name);
    if (!connection) return false;
    this.connections.delete(name);
    await connection.close();
    this.emit("catalog", name);
    return true;
  }

  /** Replaces a server's configuration: the old connection is closed before the new one starts. */
  async replace(config: ClientConfig, previousName = config.name): Promise<UpstreamConnection> {
    await this.remove(previousName);
    return this.add(config);
  }

  get(name: string): UpstreamConnection | undefined {
    return this.connections.get(name);
  }

  list(): UpstreamConnection[] {
    return [...this.connections.values()];
  }

  /** Waits until every server's first connection attempt has settled, `timeoutMs` passed, or `signal` aborted. */
  async settled(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      Promise.all(this.list().map((c) => c.whenSettled())),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        onAbort = resolve;
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort!);
  }

  async closeAll(): Promise<void> {
    const all = this.list();
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}

export { DEFAULT_CONNECTION_OPTIONS };
