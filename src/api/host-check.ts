// Which Host and Origin may drive the gateway. A web page the user visits can send requests to
// 127.0.0.1 (a "simple" cross-origin POST), or, by DNS rebinding, make its own host name resolve
// to 127.0.0.1 and talk to the gateway as if same-origin. Both are refused here, before any
// route runs: the Host must be one of the gateway's own names (any port), and a browser's
// Origin, when it sends one, must be one of those names on the port the request came to.
// Requests without an Origin (curl, SDKs, desktop clients) are not browsers' and pass.
import type { FastifyInstance, FastifyRequest } from "fastify";

/** The names a local gateway always answers to. */
const LOOPBACK = ["127.0.0.1", "localhost", "::1"];

/** Addresses that mean "every interface": a Host is never one of them. */
const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);

export interface HostPolicyOptions {
  /** The address the gateway binds to (server.host, or --host). */
  host?: string;
  /** `server.allowed_hosts`: further names or addresses the gateway is reached by. */
  allowedHosts?: readonly string[];
}

/** A Host header or an allowed host, split: a lowercase name without brackets, and its port ("" when none). */
interface HostPort {
  name: string;
  port: string;
}

/** Parses `name`, `name:port`, `[v6]` or `[v6]:port`; null for anything else (a path, a bare v6 with a port...). */
function parseHost(text: string): HostPort | null {
  const lower = text.trim().toLowerCase();
  const m = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(lower) ?? /^([^\s:/?#@[\]]+)(?::(\d{1,5}))?$/.exec(lower);
  if (!m) return null;
  // "localhost." is the same name as "localhost" (a fully qualified form).
  return { name: m[1]!.replace(/\.$/, ""), port: m[2] ?? "" };
}

/** A name as it appears in a URL: a v6 address in brackets. */
function urlName(name: string): string {
  return name.includes(":") ? `[${name}]` : name;
}

export class HostPolicy {
  private readonly names: Set<string>;
  /** The names, as a refusal lists them. */
  private readonly shown: string;
  private readonly wildcard: string | undefined;

  constructor(options: HostPolicyOptions = {}) {
    const names = [...LOOPBACK];
    const host = options.host?.trim() ?? "";
    this.wildcard = WILDCARD.has(host) ? host : undefined;
    if (!this.wildcard && host) names.push(host);
    names.push(...(options.allowedHosts ?? []));
    this.names = new Set(names.map((n) => parseHost(n)?.name ?? n.toLowerCase()));
    this.shown = [...this.names].map(urlName).join(", ");
  }

  /** Why a request with this Host header is refused, or null when it is one of the gateway's names. */
  refuseHost(host: string | undefined): string | null {
    const parsed = host === undefined ? null : parseHost(host);
    if (parsed && this.names.has(parsed.name)) return null;
    const what = host === undefined ? "a request without a Host header" : `Host '${host}'`;
    const where = this.wildcard
      ? `the gateway listens on ${this.wildcard} (every interface), so each name or address it is reached by must be listed in`
      : "if it is a name of this machine, add it to";
    const example = parsed ? `"server": {"allowed_hosts": ["${parsed.name}"]}` : `"server": {"allowed_hosts": ["gateway.lan"]}`;
    return (
      `${what} is not an address of this gateway (it answers to ${this.shown}): ${where} server.allowed_hosts in ` +
      `config.json (${example}). This check keeps web pages from reaching the gateway by DNS rebinding.`
    );
  }

  /** Why a request with this Origin (sent to `host`, already accepted) is refused, or null. */
  refuseOrigin(origin: string | undefined, host: string): string | null {
    if (origin === undefined) return null;
    const target = parseHost(host);
    if (target && this.allowsOrigin(origin, target.port)) return null;
    return (
      `a web page from Origin '${origin}' may not use this gateway: only pages it serves itself ` +
      `(${this.originsFor(host).join(", ")}) may. If that origin is this gateway under another name, ` +
      "add its host to server.allowed_hosts in config.json."
    );
  }

  /** The origins a browser shows for pages of this gateway reached as `host` (for the MCP SDK's own check). */
  originsFor(host: string): string[] {
    const port = parseHost(host)?.port ?? "";
    const out: string[] = [];
    for (const name of this.names) {
      for (const scheme of ["http", "https"] as const) {
        // Browsers leave a scheme's default port out of the Origin.
        const shownPort = port === "" || port === (scheme === "http" ? "80" : "443") ? "" : `:${port}`;
        out.push(`${scheme}://${urlName(name)}${shownPort}`);
      }
    }
    return out;
  }

  private allowsOrigin(origin: string, port: string): boolean {
    // Scheme and host only: "null" (a sandboxed frame, a file:// page), a path or credentials are no Origin of ours.
    if (!/^https?:\/\/[^/?#@\\\s]+$/i.test(origin)) return false;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    const name = url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
    const originPort = url.port || (url.protocol === "http:" ? "80" : "443");
    // A Host without a port was reached on the scheme's default one.
    return this.names.has(name) && (port === "" || port === originPort);
  }
}

/** Refuses, before any route runs, a request whose Host (421) or Origin (403) is not the gateway's (auth.ts adds it first). */
export function registerHostCheck(app: FastifyInstance, policy: HostPolicy): void {
  app.addHook("onRequest", async (request: FastifyRequest, reply) => {
    const host = request.headers.host;
    const badHost = policy.refuseHost(host);
    if (badHost) return reply.code(421).send({ error: { message: badHost } });
    const origin = request.headers.origin;
    const badOrigin = policy.refuseOrigin(Array.isArray(origin) ? origin[0] : origin, host!);
    if (badOrigin) return reply.code(403).send({ error: { message: badOrigin } });
  });
}
