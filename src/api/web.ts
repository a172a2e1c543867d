// The web UI: the built front end (web/, compiled by Vite into dist/web) served at `/`, and the
// few admin routes it needs beyond the public API: the defaults of the settings, a dry run of a
// settings change (so the page shows the API's own messages before saving), and a playground
// that calls the meta-tools as a chosen virtual key would, returning the structured result of a
// script instead of the text the model reads.
//
// The page itself is public (it holds no data; it asks for the admin token), so its routes are
// exempt from the virtual-key check; everything it shows comes from `/api/*`, behind the token.
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { type Caller, DEFAULT_SETTINGS, type Gateway, UNRESTRICTED, UnknownToolError } from "../gateway/gateway.js";
import { callerForKey, type KeyRing } from "../gateway/virtual-keys.js";
import { META_TOOL_NAMES } from "../codemode/meta-tools.js";
import { DEFAULT_LIMITS, type SandboxResult, stringifyPlain } from "../interpreter/index.js";
import { type ConfigFields, HttpError, settingsFromUpdate } from "./settings-update.js";

/** The folder of the built page: `dist/web` under the package root (the folder holding package.json). */
export function defaultWebRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return join(dir, "dist", "web");
}

const NOT_BUILT =
  "<!doctype html><title>code-mode-gateway</title><p>The web UI is not built: run <code>npm run build</code>, then reload.</p>";

const keyQuery = {
  type: "object",
  properties: { key: { type: "string", description: "a virtual key's id; none for an unrestricted caller" } },
  additionalProperties: false,
} as const;

const callBody = {
  type: "object",
  properties: {
    key: { type: "string", description: "a virtual key's id; none for an unrestricted caller" },
    tool: { type: "string", enum: [...META_TOOL_NAMES] },
    arguments: { type: "object" },
  },
  required: ["tool"],
  additionalProperties: false,
} as const;

const checkBody = {
  type: "object",
  properties: { client_config: { type: "object" } },
  required: ["client_config"],
} as const;

/**
 * Registers the page and its routes. Returns the routes of the page's files, which server.ts lets
 * through without a virtual key.
 */
export function registerWeb(app: FastifyInstance, gateway: Gateway, keys: KeyRing, root = defaultWebRoot()): ReadonlySet<string> {
  const pageRoutes = new Set<string>();

  app.register(async (scope) => {
    scope.addHook("onRoute", (route) => {
      pageRoutes.add(route.url);
    });
    if (existsSync(join(root, "index.html"))) {
      // Files are listed once at startup (no wildcard route), so an unknown path stays a JSON 404
      // and `/api/...` is never mistaken for a file.
      await scope.register(fastifyStatic, { root, wildcard: false, index: "index.html" });
    } else {
      scope.get("/", async (_request, reply) => reply.code(503).type("text/html").send(NOT_BUILT));
    }
  });

  const callerFor = (id: string | undefined): Caller => {
    if (id === undefined || id === "") return UNRESTRICTED;
    const key = keys.get(id);
    if (!key) throw new HttpError(404, `no virtual key with id '${id}'`);
    if (!key.is_active) throw new HttpError(400, `virtual key '${key.name}' is not active`);
    return callerForKey(keys, key);
  };

  app.get("/api/ui/defaults", async () => ({
    limits: DEFAULT_LIMITS,
    binding_level: DEFAULT_SETTINGS.bindingLevel,
  }));

  // The same check PUT /api/config makes, without applying anything.
  app.post<{ Body: { client_config: ConfigFields } }>("/api/ui/config/check", { schema: { body: checkBody } }, async (request) => {
    settingsFromUpdate(gateway.settings, request.body.client_config);
    return { ok: true };
  });

  // The virtual files a caller would list, as paths; their text comes from readToolFile.
  app.get<{ Querystring: { key?: string } }>("/api/ui/playground/files", { schema: { querystring: keyQuery } }, async (request) => {
    const catalog = gateway.catalogFor(callerFor(request.query.key));
    const binding = gateway.settings.bindingLevel;
    const files = catalog.servers.flatMap((s) =>
      binding === "server"
        ? [{ path: `servers/${s.name}.pyi`, server: s.name, tools: s.tools.map((t) => t.python).sort() }]
        : s.tools.map((t) => ({ path: `servers/${s.name}/${t.python}.pyi`, server: s.name, tools: [t.python] })).sort((a, b) => a.path.localeCompare(b.path)),
    );
    return { binding_level: binding, files };
  });

  // Captures the structured result of the executeToolCode run started in the same async context.
  const runs = new AsyncLocalStorage<{ result?: SandboxResult }>();
  const onExecution = (event: { result: SandboxResult }) => {
    const slot = runs.getStore();
    if (slot) slot.result = event.result;
  };
  gateway.on("execution", onExecution);
  app.addHook("onClose", async () => {
    gateway.off("execution", onExecution);
  });

  app.post<{ Body: { key?: string; tool: string; arguments?: Record<string, unknown> } }>(
    "/api/ui/playground/call",
    { schema: { body: callBody }, bodyLimit: 16 * 1024 * 1024 },
    async (request) => {
      const caller = callerFor(request.body.key);
      const slot: { result?: SandboxResult } = {};
      try {
        const outcome = await runs.run(slot, () => gateway.callTool(request.body.tool, request.body.arguments ?? {}, caller));
        return { text: outcome.text, is_error: outcome.isError, execution: slot.result ? executionView(slot.result) : null };
      } catch (e) {
        if (e instanceof UnknownToolError) throw new HttpError(404, `${request.body.tool} is not offered by this gateway`);
        throw e;
      }
    },
  );

  return pageRoutes;
}

/** A script's result for the page: the returned value as Python-like text (it may hold big integers). */
function executionView(result: SandboxResult) {
  const { result: value, ...rest } = result;
  return { ...rest, result: value === null ? null : stringifyPlain(value, 2) };
}
