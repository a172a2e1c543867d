// The upstream clients (SPEC §6): list, add, update, delete, reconnect. The gateway holds the rules
// (client-changes.ts: ids, uniqueness, merging an update, grants that follow a rename, one change
// at a time); these routes translate HTTP to them and back. The one rule of the API's own: a
// stdio client runs a command as the gateway's user, so only the operator may add or edit one.
import type { FastifyPluginAsync } from "fastify";
import { clientId, withoutPassword } from "../gateway/client-changes.js";
import type { ClientChangeOptions, Gateway } from "../gateway/gateway.js";
import type { ClientConfig } from "../upstream/config.js";
import type { UpstreamConnection } from "../upstream/connection.js";
import { clientChangeError, HttpError } from "./errors.js";
import { clientBody, clientSchema, clientsResponse, errorResponses, idParams } from "./schemas.js";
import type { ClientsView, ClientView } from "./types.js";

export interface ClientRoutesOptions {
  gateway: Gateway;
  /** The admin token is set: whoever reaches these routes is the operator. */
  adminToken: boolean;
  /** `server.allow_unauthenticated_stdio`: let the API add or edit stdio clients without an admin token. */
  allowUnauthenticatedStdio?: boolean;
}

const STDIO_REFUSED =
  "adding or editing a stdio client over the API needs the admin token, because a stdio client runs a command on this " +
  'machine as the gateway\'s user: set "server": {"admin_token": "env.ADMIN_TOKEN"} in config.json (and send it with ' +
  'each /api request), or, if every program that can reach this port may run commands, set "server": ' +
  '{"allow_unauthenticated_stdio": true}. Stdio clients listed in config.json are loaded either way.';

/** Fields of a client's view that a read-modify-write sends back; they are not config and are ignored. */
const VIEW_ONLY_FIELDS = new Set(["id", "state", "last_error", "tools", "header_keys"]);

/** A client as the API shows it: its config without secrets (header and env NAMES only) and its live state. */
export function clientView(config: ClientConfig, connection: UpstreamConnection | undefined): ClientView {
  return {
    id: clientId(config),
    name: config.name,
    connection_type: config.connection_type,
    ...(config.connection_string !== undefined ? { connection_string: withoutPassword(config.connection_string) } : {}),
    ...(config.stdio_config
      ? {
          stdio_config: {
            command: config.stdio_config.command,
            args: config.stdio_config.args,
            ...(config.stdio_config.cwd !== undefined ? { cwd: config.stdio_config.cwd } : {}),
            env_keys: Object.keys(config.stdio_config.env),
          },
        }
      : {}),
    header_keys: Object.keys(config.headers),
    is_code_mode_client: config.is_code_mode_client,
    tools_to_execute: config.tools_to_execute,
    tools_to_auto_execute: config.tools_to_auto_execute,
    disabled: config.disabled,
    validate_arguments: config.validate_arguments,
    state: connection?.state ?? "closed",
    last_error: connection?.lastError ?? null,
    tools: connection?.tools.map((t) => t.name) ?? [],
  };
}

/** The gateway's verdict on a change as the route's answer: the change's client, or its error with a status. */
async function answer(change: Promise<ClientConfig>, view: (config: ClientConfig) => ClientView, gateway: Gateway): Promise<ClientView> {
  let config: ClientConfig;
  try {
    config = await change;
  } catch (e) {
    throw clientChangeError(e);
  }
  // Acknowledged means committed: a store that could not take the change answers its error.
  await gateway.settled();
  return view(config);
}

export const clientRoutes: FastifyPluginAsync<ClientRoutesOptions> = async (app, options) => {
  const { gateway } = options;
  const live = (config: ClientConfig) => clientView(config, gateway.manager.get(config.name));
  const stdio: ClientChangeOptions = {
    admit: (config) => {
      if (config.connection_type === "stdio" && !options.adminToken && !options.allowUnauthenticatedStdio) throw new HttpError(403, STDIO_REFUSED);
    },
  };
  const clientRoute = { 200: clientSchema, ...errorResponses } as const;

  app.get<{ Reply: ClientsView }>("/api/mcp/clients", { schema: { response: { 200: clientsResponse, ...errorResponses } } }, async () => ({
    clients: gateway.clientConfigs().map(live),
  }));

  // Connecting starts and is not waited for: the answer shows the state it is in.
  app.post<{ Body: Record<string, unknown> }>("/api/mcp/client", { schema: { body: clientBody, response: clientRoute } }, async (request) =>
    answer(gateway.createClient(request.body, stdio), live, gateway),
  );

  app.put<{ Params: { id: string }; Body: Record<string, unknown> }>(
    "/api/mcp/client/:id",
    { schema: { params: idParams, body: clientBody, response: clientRoute } },
    async (request) => {
      const fields = Object.fromEntries(Object.entries(request.body).filter(([field]) => !VIEW_ONLY_FIELDS.has(field)));
      return answer(gateway.updateClient(request.params.id, fields, stdio), live, gateway);
    },
  );

  // Answers once the connection is closed and a stdio child terminated.
  app.delete<{ Params: { id: string } }>("/api/mcp/client/:id", { schema: { params: idParams, response: clientRoute } }, async (request) =>
    answer(gateway.deleteClient(request.params.id), (config) => clientView(config, undefined), gateway),
  );

  app.post<{ Params: { id: string } }>("/api/mcp/client/:id/reconnect", { schema: { params: idParams, response: clientRoute } }, async (request) =>
    answer(gateway.reconnectClient(request.params.id), live, gateway),
  );
};
