// Virtual keys (SPEC §6): list, show, add, update, delete the keys in the gateway's KeyRing, which
// checks them (virtual-keys.ts) and tells whoever persists them. Values are shown, as Bifrost
// shows them: whoever may call /api/* can already add a stdio client that runs any command, so
// hiding them would protect nothing.
import type { FastifyPluginAsync } from "fastify";
import type { Gateway } from "../gateway/gateway.js";
import { generateKeyValue, parseVirtualKey, type VirtualKey } from "../gateway/virtual-keys.js";
import { HttpError, keyError } from "./errors.js";
import { errorResponses, idParams, virtualKeyBody, virtualKeyResponse, virtualKeysResponse } from "./schemas.js";
import type { VirtualKeyAnswer, VirtualKeysView, VirtualKeyView } from "./types.js";

export function keyView(key: VirtualKey): VirtualKeyView {
  return {
    id: key.id,
    name: key.name,
    value: key.value,
    ...(key.description !== undefined ? { description: key.description } : {}),
    is_active: key.is_active,
    mcp_configs: key.mcp_configs,
  };
}

/** The KeyRing's verdict on a change (a key's fields checked, then its clashes), with 400 or 409 for what is wrong. */
function checked<T>(change: () => T): T {
  try {
    return change();
  } catch (e) {
    throw keyError(e);
  }
}

export const keyRoutes: FastifyPluginAsync<{ gateway: Gateway }> = async (app, { gateway }) => {
  const keys = gateway.keys;
  const keyRoute = { 200: virtualKeyResponse, ...errorResponses } as const;
  const findKey = (id: string): VirtualKey => {
    const key = keys.get(id);
    if (!key) throw new HttpError(404, `no virtual key with id '${id}'`);
    return key;
  };

  app.get<{ Reply: VirtualKeysView }>("/api/governance/virtual-keys", { schema: { response: { 200: virtualKeysResponse, ...errorResponses } } }, async () => {
    const all = keys.list().map(keyView);
    return { virtual_keys: all, count: all.length };
  });

  app.get<{ Params: { id: string }; Reply: VirtualKeyAnswer }>(
    "/api/governance/virtual-keys/:id",
    { schema: { params: idParams, response: keyRoute } },
    async (request) => ({ virtual_key: keyView(findKey(request.params.id)) }),
  );

  app.post<{ Body: Record<string, unknown>; Reply: VirtualKeyAnswer }>(
    "/api/governance/virtual-keys",
    { schema: { body: virtualKeyBody, response: keyRoute } },
    async (request) => {
      const key = checked(() => parseVirtualKey({ ...request.body, value: request.body.value ?? generateKeyValue() }));
      if (keys.get(key.id)) throw new HttpError(409, `a virtual key with id '${key.id}' already exists`);
      const saved = keyView(checked(() => keys.put(key)));
      await gateway.settled();
      return { virtual_key: saved };
    },
  );

  app.put<{ Params: { id: string }; Body: Record<string, unknown>; Reply: VirtualKeyAnswer }>(
    "/api/governance/virtual-keys/:id",
    { schema: { params: idParams, body: virtualKeyBody, response: keyRoute } },
    async (request) => {
      const current = findKey(request.params.id);
      const { id } = request.body;
      if (id !== undefined && id !== current.id) throw new HttpError(400, `id cannot be changed (it is '${current.id}')`);
      // A field left out keeps its value.
      const key = checked(() => parseVirtualKey({ ...current, ...request.body, id: current.id }));
      const saved = keyView(checked(() => keys.put(key)));
      await gateway.settled();
      return { virtual_key: saved };
    },
  );

  app.delete<{ Params: { id: string }; Reply: VirtualKeyAnswer }>(
    "/api/governance/virtual-keys/:id",
    { schema: { params: idParams, response: keyRoute } },
    async (request) => {
      const deleted = keyView(keys.delete(findKey(request.params.id).id)!);
      await gateway.settled();
      return { virtual_key: deleted };
    },
  );
};
