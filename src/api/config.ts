// The settings in force (SPEC §6): GET /api/config shows them in Bifrost's client_config shape,
// PUT /api/config changes them for every execution that starts from then on.
import type { FastifyPluginAsync } from "fastify";
import type { Gateway } from "../gateway/gateway.js";
import { configResponse, configUpdateBody, errorResponses } from "./schemas.js";
import { configView, settingsFromUpdate } from "./settings-update.js";
import type { ConfigFields, ConfigView } from "./types.js";

export const configRoutes: FastifyPluginAsync<{ gateway: Gateway }> = async (app, { gateway }) => {
  app.get<{ Reply: ConfigView }>("/api/config", { schema: { response: { 200: configResponse, ...errorResponses } } }, async () => configView(gateway.settings));

  app.put<{ Body: { client_config: ConfigFields }; Reply: ConfigView }>(
    "/api/config",
    { schema: { body: configUpdateBody, response: { 200: configResponse, ...errorResponses } } },
    async (request) => {
      // Applies to executions that start from now on; running ones keep the settings they began with.
      gateway.settings = settingsFromUpdate(gateway.settings, request.body.client_config);
      const view = configView(gateway.settings);
      // Acknowledged means committed: a store that could not take them answers its error.
      await gateway.settled();
      return view;
    },
  );
};
