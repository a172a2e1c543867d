// The part of code-mode-exec that reads a config's servers and connects them (--config). exec.ts
// imports it only when --config is given: the MCP SDK, zod and ajv it brings are most of the
// modules a start-up would otherwise load, and a script without servers needs none of them.
import type { Budget, Hosts, Limits, Value } from "../interpreter/index.js";
import { buildHosts } from "../codemode/bridge.js";
import { defaultCodecs } from "../codemode/media.js";
import { encodeTensors } from "../codemode/tensor/codec.js";
import { type ClientConfig, clientConfigsOf, ConfigError, listAllows } from "../upstream/config.js";
import { DEFAULT_CONNECTION_OPTIONS } from "../upstream/connection.js";
import { UpstreamManager } from "../upstream/manager.js";

export type { ClientConfig };

/** The config's enabled code-mode clients, or the reason the config is invalid. */
export function codeModeClients(config: unknown): { clients: ClientConfig[] } | { invalid: string } {
  try {
    return { clients: clientConfigsOf(config).filter((c) => c.is_code_mode_client && !c.disabled) };
  } catch (e) {
    if (e instanceof ConfigError) return { invalid: e.message };
    throw e;
  }
}

export interface ConnectedServers {
  /** One global per connected server, limited to its `tools_to_execute`. */
  hosts: Hosts;
  /** Turns tensors in the result into wire payloads (only tools hand a script tensors). */
  finalizeResult: (value: Value, budget: Budget) => Promise<Value>;
  /** The servers that did not connect, each with its reason. */
  unavailable(): string[];
  close(): Promise<void>;
}

/** Connects `clients` (waiting at most the connect timeout) and binds those that connected. */
export async function connectServers(clients: ClientConfig[], limits: Limits): Promise<ConnectedServers> {
  const manager = new UpstreamManager();
  try {
    for (const c of clients) manager.add(c);
    await manager.settled(DEFAULT_CONNECTION_OPTIONS.connectTimeoutMs);
    const allowed = new Map(clients.map((c) => [c.name, c.tools_to_execute]));
    const permitted = (server: string, tool: string) => listAllows(allowed.get(server) ?? [], tool);
    const hosts = buildHosts({
      connections: manager.list().filter((c) => c.state === "connected"),
      visible: permitted,
      authorize: (server, tool) => (permitted(server, tool) ? null : `tool '${server}.${tool}' is not allowed (tools_to_execute)`),
      limits,
      codecs: defaultCodecs(),
      skipValidation: new Set(clients.filter((c) => !c.validate_arguments).map((c) => c.name)),
    });
    return {
      hosts,
      finalizeResult: encodeTensors,
      unavailable: () =>
        manager
          .list()
          .filter((c) => c.state !== "connected")
          .map((c) => `server '${c.name}' is unavailable: ${c.lastError ?? c.state}`),
      close: () => manager.closeAll(),
    };
  } catch (e) {
    await manager.closeAll();
    throw e;
  }
}
