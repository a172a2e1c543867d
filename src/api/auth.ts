// Who may call what, checked before any route runs: first the Host and Origin (host-check.ts),
// then `/api/*` is the operator's (the admin token, when one is set) and everything else
// (`/health`, `/v1/*`, `/mcp`) is the callers', each seeing what its virtual key grants. The
// web UI's page files are public (they hold no data). Reading the headers and wording the 401s
// is this module's; the gateway answers who a key value stands for.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { CallerKeys } from "../agent/providers.js";
import { type Caller, callerForValue, isRefusal, type KeyRefusal, withTrace } from "../gateway/caller.js";
import type { Gateway } from "../gateway/gateway.js";
import { isVirtualKeyValue, type KeyRing } from "../gateway/virtual-keys.js";
import { traceContextOf } from "../upstream/trace-context.js";
import { HostPolicy, registerHostCheck } from "./host-check.js";
import { rootPlugin } from "./root-plugin.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A file of the web UI's page: public, without the admin token or a virtual key (web.ts sets it). */
    page?: boolean;
  }
}

export interface AuthOptions {
  gateway: Gateway;
  /** When set, every `/api/*` request must present it. */
  adminToken?: string;
  /** Refuse requests without a virtual key (default: they see everything). */
  requireKey?: boolean;
  /** The Host and Origin requests must come with (default: the loopback names only). */
  hosts?: HostPolicy;
}

/** A request refused for its virtual key: the 401 it answers. */
export interface KeyRefusalAnswer {
  error: string;
  status: 401;
}

type Headers = IncomingHttpHeaders | Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
}

/**
 * The key a request presents: `x-bf-vk` (any value), else an `Authorization: Bearer` or
 * `x-api-key` (the Anthropic SDK's header) value with the virtual-key prefix; any other such
 * value is the caller's own provider key, and the request is keyless.
 */
export function presentedKey(headers: Headers): string | undefined {
  const vk = header(headers, "x-bf-vk");
  if (vk !== undefined) return vk;
  const bearer = /^Bearer\s+(\S+)$/i.exec(header(headers, "authorization") ?? "")?.[1];
  if (bearer !== undefined && isVirtualKeyValue(bearer)) return bearer;
  const apiKey = header(headers, "x-api-key");
  return apiKey !== undefined && isVirtualKeyValue(apiKey) ? apiKey : undefined;
}

/** The caller's own keys: an Authorization Bearer or x-api-key value that is not a virtual key. */
export function callerKeysOf(headers: Headers): CallerKeys {
  const bearer = /^Bearer\s+(\S+)$/i.exec(header(headers, "authorization") ?? "")?.[1];
  const apiKey = header(headers, "x-api-key");
  return {
    ...(bearer !== undefined && !isVirtualKeyValue(bearer) ? { bearer } : {}),
    ...(apiKey && !isVirtualKeyValue(apiKey) ? { apiKey } : {}),
  };
}

/** Why a key was refused, in words that say what to send. */
function refusalText(refusal: KeyRefusal): string {
  switch (refusal.refused) {
    case "missing":
      return "a virtual key is required: send it in the x-bf-vk header or as Authorization: Bearer <key>";
    case "unknown":
      return "unknown virtual key";
    case "inactive":
      return `virtual key '${refusal.name}' is not active`;
  }
}

/**
 * Who a request is: the caller of the key it presents, or UNRESTRICTED when it presents none
 * (unless keys are required). An unknown or inactive key is refused, never taken as no key.
 */
export function callerFromHeaders(headers: Headers, ring: KeyRing, options: { requireKey?: boolean } = {}): Caller | KeyRefusalAnswer {
  const who = callerForValue(ring, presentedKey(headers), options.requireKey);
  return isRefusal(who) ? { status: 401, error: refusalText(who) } : who;
}

/** Compares secrets in a time that does not depend on where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

function presentsAdminToken(request: FastifyRequest, token: string): boolean {
  const bearer = /^Bearer\s+(\S+)$/i.exec(header(request.headers, "authorization") ?? "")?.[1];
  const given = header(request.headers, "x-admin-token");
  return (bearer !== undefined && sameSecret(bearer, token)) || (given !== undefined && sameSecret(given, token));
}

/** The route a request is for: its declared path (so `/api/x/../y` tricks nothing), else the URL's path for a 404. */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split("?")[0]!;
}

function isAdminRoute(route: string): boolean {
  return route === "/api" || route.startsWith("/api/") || route === "/metrics";
}

const callers = new WeakMap<FastifyRequest, Caller>();

/**
 * The caller of a request to a route outside `/api/*`, as the access check found it. Throws for a
 * request that did not pass that check, so a route that missed it fails closed rather than open.
 */
export function callerOf(request: FastifyRequest): Caller {
  const caller = callers.get(request);
  if (!caller) throw new Error(`${request.method} ${routeOf(request)} did not pass the virtual-key check`);
  return caller;
}

function refuse(reply: FastifyReply, realm: string, message: string): FastifyReply {
  return reply.code(401).header("www-authenticate", `Bearer realm="${realm}"`).send({ error: { message } });
}

/** The checks, as hooks on every route of the app: the host check first of all, so nothing answers a foreign page. */
export const access = rootPlugin<AuthOptions>("access", async (app, options) => {
  registerHostCheck(app, options.hosts ?? new HostPolicy());
  const adminToken = options.adminToken || undefined;
  const keys = options.gateway.keys;
  app.addHook("onRequest", async (request, reply) => {
    if (request.routeOptions.config?.page === true) return;
    const route = routeOf(request);
    if (isAdminRoute(route)) {
      if (adminToken !== undefined && !presentsAdminToken(request, adminToken)) {
        return refuse(reply, "admin", "this route needs the admin token: send it as Authorization: Bearer <token> or in the x-admin-token header");
      }
      return;
    }
    const who = callerFromHeaders(request.headers, keys, { requireKey: options.requireKey });
    if ("status" in who) return refuse(reply, "virtual key", who.error);
    // The request's trace context goes with it (telemetry's hook, which runs first, names its own span there).
    callers.set(request, withTrace(who, traceContextOf(request.headers)));
  });
});
