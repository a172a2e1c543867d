// The web UI: the built front end (web/, compiled by Vite into dist/web) served at `/`, and the
// few admin routes it needs beyond the public API: the defaults of the settings, a dry run of a
// settings change (so the page shows the API's own messages before saving), and a playground
// that calls the meta-tools as a chosen virtual key would, answering the structured result of a
// script (Gateway.callTool's `execution`) beside the text the model reads.
//
// The page itself is public (it holds no data; it asks for the admin token): its files' routes
// are marked `page`, which the access check lets through; everything it shows comes from
// `/api/*`, behind the token.
import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync } from "fastify";
import { type Caller, callerForKey, UNRESTRICTED } from "../gateway/caller.js";
import { DEFAULT_SETTINGS, type Gateway, UnknownToolError } from "../gateway/gateway.js";
import { DEFAULT_LIMITS, type SandboxResult, stringifyPlain } from "../interpreter/index.js";
import { packageRoot } from "../package-root.js";
import { HttpError } from "./errors.js";
import { configCheckBody, playgroundCallBody, playgroundQuery } from "./schemas.js";
import { settingsFromUpdate } from "./settings-update.js";
import type { ConfigFields, ExecutionView, PlaygroundAnswer, PlaygroundFiles, UiDefaults } from "./types.js";

/** The folder of the built page: `dist/web` under the package root (the folder holding package.json). */
export function defaultWebRoot(): string {
  return join(packageRoot(import.meta.url), "dist", "web");
}

const NOT_BUILT =
  "<!doctype html><title>code-mode-gateway</title><p>The web UI is not built: run <code>npm run build</code>, then reload.</p>";

export interface WebOptions {
  gateway: Gateway;
  /** The built page's folder (default: defaultWebRoot()). */
  root?: string;
}

/** A script's result for the page: the returned value as Python-like text (it may hold big integers). */
function executionView(result: SandboxResult): ExecutionView {
  const { result: value, ...rest } = result;
  return { ...rest, result: value === null ? null : stringifyPlain(value, 2) };
}

/** The page's files, public. */
const pageFiles: FastifyPluginAsync<{ root: string }> = async (scope, { root }) => {
  scope.addHook("onRoute", (route) => {
    route.config = { ...route.config, page: true };
  });
  if (existsSync(join(root, "index.html"))) {
    // Files are listed once at startup (no wildcard route), so an unknown path stays a JSON 404
    // and `/api/...` is never mistaken for a file.
    await scope.register(fastifyStatic, { root, wildcard: false, index: "index.html" });
  } else {
    scope.get("/", async (_request, reply) => reply.code(503).type("text/html").send(NOT_BUILT));
  }
};

export const webRoutes: FastifyPluginAsync<WebOptions> = async (app, { gateway, root = defaultWebRoot() }) => {
  await app.register(pageFiles, { root });

  const callerFor = (id: string | undefined): Caller => {
    if (id === undefined || id === "") return UNRESTRICTED;
    const key = gateway.keys.get(id);
    if (!key) throw new HttpError(404, `no virtual key with id '${id}'`);
    if (!key.is_active) throw new HttpError(400, `virtual key '${key.name}' is not active`);
    return callerForKey(gateway.keys, key);
  };

  app.get<{ Reply: UiDefaults }>("/api/ui/defaults", async () => ({
    limits: DEFAULT_LIMITS,
    binding_level: DEFAULT_SETTINGS.bindingLevel,
  }));

  // The same check PUT /api/config makes, without applying anything.
  app.post<{ Body: { client_config: ConfigFields } }>("/api/ui/config/check", { schema: { body: configCheckBody } }, async (request) => {
    settingsFromUpdate(gateway.settings, request.body.client_config);
    return { ok: true };
  });

  // The virtual files a caller would list, as paths; their text comes from readToolFile.
  app.get<{ Querystring: { key?: string }; Reply: PlaygroundFiles }>("/api/ui/playground/files", { schema: { querystring: playgroundQuery } }, async (request) => {
    const catalog = gateway.catalogFor(callerFor(request.query.key));
    const binding = gateway.settings.bindingLevel;
    const files = catalog.servers.flatMap((s) =>
      binding === "server"
        ? [{ path: `servers/${s.name}.pyi`, server: s.name, tools: s.tools.map((t) => t.python).sort() }]
        : s.tools.map((t) => ({ path: `servers/${s.name}/${t.python}.pyi`, server: s.name, tools: [t.python] })).sort((a, b) => a.path.localeCompare(b.path)),
    );
    return { binding_level: binding, files };
  });

  app.post<{ Body: { key?: string; tool: string; arguments?: Record<string, unknown> }; Reply: PlaygroundAnswer }>(
    "/api/ui/playground/call",
    { schema: { body: playgroundCallBody }, bodyLimit: 16 * 1024 * 1024 },
    async (request) => {
      const caller = callerFor(request.body.key);
      try {
        const outcome = await gateway.callTool(request.body.tool, request.body.arguments ?? {}, caller);
        return { text: outcome.text, is_error: outcome.isError, execution: outcome.execution ? executionView(outcome.execution) : null };
      } catch (e) {
        if (e instanceof UnknownToolError) throw new HttpError(404, `${request.body.tool} is not offered by this gateway`);
        throw e;
      }
    },
  );
};
