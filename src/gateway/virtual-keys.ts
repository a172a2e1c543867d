// Virtual keys (SPEC §6): a key grants per-client tool lists, and a request that presents one
// sees and calls only what it grants, on every route. This is the model of a key (its schema
// and its type, which the store and the API's views take) and the KeyRing that holds the keys in
// force; whoever persists them (the store) loads the ring at startup and listens to its "change"
// events. The Gateway owns the ring (`gateway.keys`); caller.ts says who a key value stands for.
import { createHash, randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { z } from "zod";
import { checkToolList, ConfigError, ToolListSchema } from "../upstream/config.js";

const GrantSchema = z
  .object({
    client_name: z.string().min(1, "must not be empty"),
    // The rules of a client's tools_to_execute (SPEC §5): "*" alone means every tool, [] none.
    tools_to_execute: ToolListSchema.default([]),
  })
  .strict();

const VirtualKeySchema = z
  .object({
    /** Stable id for the API; defaults to the name. */
    id: z.string().min(1, "must not be empty").optional(),
    name: z.string().min(1, "must not be empty"),
    value: z.string().min(1, "must not be empty").regex(/^\S+$/, "must not contain spaces"),
    description: z.string().optional(),
    is_active: z.boolean().default(true),
    mcp_configs: z.array(GrantSchema).default([]),
  })
  .strict();

/** What a key grants on one client: a tools_to_execute-style list. */
export type McpGrant = z.infer<typeof GrantSchema>;

export type VirtualKey = Omit<z.infer<typeof VirtualKeySchema>, "id"> & { id: string };

/** Two keys share an id, a name or a value. */
export class KeyConflictError extends ConfigError {}

function pathText(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "virtual key";
}

/**
 * What every generated key value starts with (Bifrost's prefix, so keys made for it or by earlier
 * versions keep working). An `Authorization: Bearer` or `x-api-key` value is read as a virtual key
 * only when it has it: any other value is the caller's own provider key, so an SDK's usual key
 * does not collide with the gateway's keys.
 */
export const VIRTUAL_KEY_PREFIX = "sk-bf-";

/** Does this value claim to be a virtual key (so that, unknown or inactive, it is refused)? */
export function isVirtualKeyValue(value: string): boolean {
  return value.startsWith(VIRTUAL_KEY_PREFIX);
}

/** A fresh key value: the prefix and 32 random bytes. */
export function generateKeyValue(): string {
  return `${VIRTUAL_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/**
 * Checks one key; `at` is where it sits (`governance.virtual_keys[0]`, or "" for a request body).
 * A key without mcp_configs grants nothing: as in Bifrost, a key is an allow-list.
 */
export function parseVirtualKey(raw: unknown, at = ""): VirtualKey {
  const parsed = VirtualKeySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === "unrecognized_keys") throw new ConfigError(pathText(at, [...issue.path, issue.keys[0]!]), "unknown field");
    throw new ConfigError(pathText(at, issue.path), issue.message);
  }
  const key = parsed.data;
  const clients = new Set<string>();
  key.mcp_configs.forEach((grant, i) => {
    const where = pathText(at, ["mcp_configs", i]);
    if (clients.has(grant.client_name)) throw new ConfigError(`${where}.client_name`, `'${grant.client_name}' is listed twice`);
    clients.add(grant.client_name);
    checkToolList(grant.tools_to_execute, `${where}.tools_to_execute`);
  });
  return { ...key, id: key.id ?? key.name };
}

/** Checks a config file's `governance.virtual_keys`: each key, then that ids, names and values are unique. */
export function parseVirtualKeys(raw: unknown, at = "governance.virtual_keys"): VirtualKey[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ConfigError(at, "must be a list of virtual keys");
  const keys = raw.map((k, i) => parseVirtualKey(k, `${at}[${i}]`));
  checkUnique(keys, (i) => `${at}[${i}]`);
  return keys;
}

function checkUnique(keys: readonly VirtualKey[], where: (i: number) => string): void {
  for (const field of ["id", "name", "value"] as const) {
    const seen = new Map<string, number>();
    keys.forEach((k, i) => {
      const earlier = seen.get(k[field]);
      // A value is a secret: a message names the key that has it, never the value itself.
      const shown = field === "value" ? "this value" : `'${k[field]}'`;
      if (earlier !== undefined) throw new KeyConflictError(`${where(i)}.${field}`, `${shown} is already the ${field} of ${where(earlier)}`);
      seen.set(k[field], i);
    });
  }
}

/** Values are looked up by their digest, so that finding one takes no time that depends on how much of it matched. */
function digest(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

interface Entry {
  key: VirtualKey;
  grants: ReadonlyMap<string, readonly string[]>;
}

export type KeyChange = { type: "put"; key: VirtualKey; previous: VirtualKey | undefined } | { type: "delete"; key: VirtualKey };

/**
 * The virtual keys in force. `put` and `delete` emit "change" (a KeyChange) for whoever persists
 * them; `load` replaces them all silently (it is how persisted keys come back).
 */
export class KeyRing extends EventEmitter {
  private readonly byId = new Map<string, Entry>();
  private readonly byDigest = new Map<string, string>();

  constructor(keys: readonly VirtualKey[] = []) {
    super();
    this.load(keys);
  }

  /** A ring from a config file's `governance.virtual_keys`; throws ConfigError naming the field. */
  static fromConfig(raw: unknown, at = "governance.virtual_keys"): KeyRing {
    return new KeyRing(parseVirtualKeys(raw, at));
  }

  load(keys: readonly VirtualKey[]): void {
    const checked = keys.map((k, i) => parseVirtualKey(k, `keys[${i}]`));
    checkUnique(checked, (i) => `keys[${i}]`);
    this.byId.clear();
    this.byDigest.clear();
    for (const key of checked) this.insert(key);
  }

  list(): VirtualKey[] {
    return [...this.byId.values()].map((e) => e.key);
  }

  get(id: string): VirtualKey | undefined {
    return this.byId.get(id)?.key;
  }

  /** The key with this value, active or not. */
  find(value: string): VirtualKey | undefined {
    const id = this.byDigest.get(digest(value));
    return id === undefined ? undefined : this.byId.get(id)?.key;
  }

  /** Adds a key, or replaces the one with its id. Throws ConfigError (KeyConflictError for a clash). */
  put(raw: VirtualKey): VirtualKey {
    const key = parseVirtualKey(raw);
    for (const other of this.byId.values()) {
      if (other.key.id === key.id) continue;
      if (other.key.name === key.name) throw new KeyConflictError("name", `'${key.name}' is already the name of virtual key '${other.key.id}'`);
      if (other.key.value === key.value) throw new KeyConflictError("value", `this value is already the value of virtual key '${other.key.id}'`);
    }
    const previous = this.byId.get(key.id)?.key;
    if (previous) this.byDigest.delete(digest(previous.value));
    this.insert(key);
    this.emit("change", { type: "put", key, previous } satisfies KeyChange);
    return key;
  }

  delete(id: string): VirtualKey | undefined {
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    this.byId.delete(id);
    this.byDigest.delete(digest(entry.key.value));
    this.emit("change", { type: "delete", key: entry.key } satisfies KeyChange);
    return entry.key;
  }

  /** What the key with this id grants now; null when it is gone or inactive. */
  grantsOf(id: string): ReadonlyMap<string, readonly string[]> | null {
    const entry = this.byId.get(id);
    return entry && entry.key.is_active ? entry.grants : null;
  }

  private insert(key: VirtualKey): void {
    this.byId.set(key.id, { key, grants: new Map(key.mcp_configs.map((g) => [g.client_name, g.tools_to_execute])) });
    this.byDigest.set(digest(key.value), key.id);
  }
}
