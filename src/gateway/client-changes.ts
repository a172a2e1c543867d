// The rules of changing the upstream clients, whoever asks (the HTTP API, a test, a future
// face): a client is named by its id or its name; names are unique in any case and no client's
// name or id is another's; a partial update merges into the client's config and may not move its
// connection; a renamed client keeps its virtual keys' grants and a deleted one takes them with
// it; and changes run one at a time. The Gateway applies them (createClient, updateClient,
// renameClient, deleteClient, reconnectClient); this module holds the pure parts.
import { type ClientConfig, ConfigError, parseClientConfig } from "../upstream/config.js";
import type { KeyRing } from "./virtual-keys.js";

/** A client's fields that are not a valid config; the message names the field (`stdio_config.command: must not be empty`). */
export class ClientInputError extends Error {}

/** No client has the id (or name) asked for. */
export class ClientNotFoundError extends Error {}

/** The change would give two clients the same name, or a name or id another client has. */
export class ClientConflictError extends Error {}

/** A client's id in URLs and requests: its client_id, else its name. */
export function clientId(config: ClientConfig): string {
  return config.client_id ?? config.name;
}

/** The client `id` names, by id first, then by name. */
export function findClient(configs: readonly ClientConfig[], id: string): ClientConfig {
  const found = configs.find((c) => clientId(c) === id) ?? configs.find((c) => c.name === id);
  if (!found) throw new ClientNotFoundError(`no client with id '${id}'`);
  return found;
}

/**
 * Refuses `config` when it would clash with another client: names are unique in any case (as in
 * the config file), and no client's name or id may be another's name or id, so an id names one client.
 */
export function checkUnique(configs: readonly ClientConfig[], config: ClientConfig, except?: ClientConfig): void {
  for (const other of configs) {
    if (other === except) continue;
    if (other.name.toLowerCase() === config.name.toLowerCase()) throw new ClientConflictError(`a client named '${other.name}' already exists`);
    const taken = [other.name, clientId(other)];
    const clash = [config.name, clientId(config)].find((x) => taken.includes(x));
    if (clash !== undefined) throw new ClientConflictError(`'${clash}' is already the name or id of client '${other.name}'`);
  }
}

/**
 * parseClientConfig's verdict on a client's fields, naming the field as the fields have it
 * (`stdio_config.command: must not be empty`, `tools: unknown field`).
 */
export function parseClientInput(raw: unknown): ClientConfig {
  const base = "client";
  try {
    return parseClientConfig(raw, base);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // Unknown fields come named by their path too (config-file's refuseUnknownFields).
    const field = e.path === base ? "" : e.path.slice(base.length).replace(/^\./, "");
    const text = e.message.slice(e.path.length + 2);
    throw new ClientInputError(field ? `${field}: ${text}` : text);
  }
}

/** A URL's password is a secret: wherever a client is shown, its connection string is shown without it. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = "";
    return parsed.toString();
  } catch {
    return url;
  }
}

/** The fields that say where a client connects; changing them is a different client. */
const CONNECTION_FIELDS = ["connection_type", "connection_string", "stdio_config"] as const;

type ConnectionField = (typeof CONNECTION_FIELDS)[number];

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Does `value` describe the connection field `field` of `current`? The client as it is shown is
 * accepted as well as its config (the URL without its password, `env_keys` for `env`), so a
 * read-modify-write of what was shown keeps the connection.
 */
function sameConnection(current: ClientConfig, field: ConnectionField, value: unknown): boolean {
  switch (field) {
    case "connection_type":
      return value === current.connection_type;
    case "connection_string":
      if (current.connection_string === undefined) return value === null;
      return value === current.connection_string || value === withoutPassword(current.connection_string);
    case "stdio_config": {
      const stdio = current.stdio_config;
      if (!stdio) return value === null;
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      const given = value as Record<string, unknown>;
      if (Object.keys(given).some((k) => !["command", "args", "env", "env_keys", "cwd"].includes(k))) return false;
      const args = given.args ?? [];
      if (given.command !== stdio.command || !Array.isArray(args) || !sameStrings(args, stdio.args) || given.cwd !== stdio.cwd) return false;
      const names = Object.keys(stdio.env).sort();
      if (given.env !== undefined) {
        const env = given.env as Record<string, unknown>;
        if (typeof env !== "object" || env === null || !sameStrings(Object.keys(env).sort(), names)) return false;
        if (names.some((n) => env[n] !== stdio.env[n])) return false;
      }
      if (given.env_keys !== undefined && (!Array.isArray(given.env_keys) || !sameStrings([...given.env_keys].sort(), names))) return false;
      return true;
    }
  }
}

/**
 * The config an update asks for: `fields` over the current config. A field left out keeps its
 * value, so both a partial update and a read-modify-write work; the connection and the id stay.
 */
export function updatedClient(current: ClientConfig, fields: Readonly<Record<string, unknown>>): ClientConfig {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(fields)) {
    if ((CONNECTION_FIELDS as readonly string[]).includes(field)) {
      if (!sameConnection(current, field as ConnectionField, value)) {
        throw new ClientInputError(
          `${field} cannot be changed: connection_type, connection_string and stdio_config are fixed when a client is added; ` +
            "delete the client and add it again",
        );
      }
      continue;
    }
    if (field === "client_id" && value !== clientId(current)) {
      throw new ClientInputError(`client_id cannot be changed (it is '${clientId(current)}')`);
    }
    next[field] = value;
  }
  return parseClientInput(next);
}

/**
 * Keeps virtual keys' grants with their client: a renamed client's grants follow it (`to`), a
 * deleted client's grants go (`to` null), so that a later client of the same name inherits nothing.
 */
export function regrant(keys: KeyRing, from: string, to: string | null): void {
  for (const key of keys.list()) {
    if (!key.mcp_configs.some((g) => g.client_name === from)) continue;
    // A stale grant already naming the new client (one no client had) gives way to the moved one.
    const kept = key.mcp_configs.filter((g) => g.client_name !== (to ?? from));
    const mcp_configs = to === null ? kept : kept.map((g) => (g.client_name === from ? { ...g, client_name: to } : g));
    keys.put({ ...key, mcp_configs });
  }
}

/**
 * Runs tasks one at a time, in the order they were given: each sees the clients the previous one
 * left, and a client's connection is closed (its stdio child gone) before the next change starts.
 * A task that fails does not stop the ones after it.
 */
export class ChangeQueue {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const next = this.last.then(task, task);
    this.last = next.catch(() => undefined);
    return next;
  }
}
