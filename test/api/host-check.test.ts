// No foreign page may drive the gateway: a real gateway on 127.0.0.1 (buildServer and mountMcp)
// refuses a Host that is not one of its names (DNS rebinding) and a browser Origin that is not
// its own, on every route, /mcp included, while same-origin pages and Origin-less clients pass.
import { existsSync, mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPolicy } from "../../src/api/host-check.js";
import { buildServer } from "../../src/api/server.js";
import { Gateway } from "../../src/gateway/gateway.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (fetch would not let a test choose the Host). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers: { ...headers, ...(body ? { "content-length": Buffer.byteLength(body) } : {}) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function serve(options: { allowedHosts?: string[]; allowUnauthenticatedStdio?: boolean } = {}) {
  const gateway = new Gateway();
  const hosts = new HostPolicy({ host: "127.0.0.1", allowedHosts: options.allowedHosts });
  const app = buildServer(gateway, { hosts, allowUnauthenticatedStdio: options.allowUnauthenticatedStdio });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { gateway, app, port: (app.server.address() as AddressInfo).port };
}

describe("HostPolicy", () => {
  const policy = new HostPolicy({ host: "127.0.0.1", allowedHosts: ["Gateway.LAN", "[fd00::5]"] });

  it.each(["127.0.0.1", "127.0.0.1:8080", "localhost", "LOCALHOST:8080", "localhost.:8080", "[::1]:8080", "[::1]", "gateway.lan:9", "[FD00::5]:8080"])(
    "accepts the Host %s",
    (host) => expect(policy.refuseHost(host)).toBeNull(),
  );

  it.each(["rebind.attacker.example", "rebind.attacker.example:8080", "127.0.0.2", "localhost.attacker.example", "::1", "127.0.0.1:8080/x", "user@localhost", ""])(
    "refuses the Host %j, naming it and server.allowed_hosts",
    (host) => {
      const message = policy.refuseHost(host)!;
      expect(message).toContain(`Host '${host}'`);
      expect(message).toContain("server.allowed_hosts");
    },
  );

  it("refuses a request without a Host header", () => {
    expect(policy.refuseHost(undefined)).toMatch(/^a request without a Host header is not an address of this gateway/);
  });

  it("asks for the machine's names in allowed_hosts when bound to every interface", () => {
    const wide = new HostPolicy({ host: "0.0.0.0" });
    expect(wide.refuseHost("0.0.0.0:8080")).not.toBeNull();
    expect(wide.refuseHost("192.168.1.20:8080")).toBe(
      "Host '192.168.1.20:8080' is not an address of this gateway (it answers to 127.0.0.1, localhost, [::1]): the gateway listens on 0.0.0.0 " +
        '(every interface), so each name or address it is reached by must be listed in server.allowed_hosts in config.json ("server": ' +
        '{"allowed_hosts": ["192.168.1.20"]}). This check keeps web pages from reaching the gateway by DNS rebinding.',
    );
    expect(new HostPolicy({ host: "0.0.0.0", allowedHosts: ["192.168.1.20"] }).refuseHost("192.168.1.20:8080")).toBeNull();
    expect(new HostPolicy({ host: "gw.internal" }).refuseHost("GW.internal:8080")).toBeNull();
  });

  it.each([
    ["http://127.0.0.1:8080", "127.0.0.1:8080"],
    ["http://localhost:8080", "127.0.0.1:8080"],
    ["https://gateway.lan:8080", "gateway.lan:8080"],
    ["http://[::1]:8080", "[::1]:8080"],
    ["http://localhost", "localhost"],
    ["https://gateway.lan", "gateway.lan"],
  ])("accepts the Origin %s on a request to %s", (origin, host) => {
    expect(policy.refuseOrigin(origin, host)).toBeNull();
  });

  it.each([
    ["http://evil.example", "127.0.0.1:8080"],
    ["http://localhost:3000", "127.0.0.1:8080"],
    ["http://127.0.0.1", "127.0.0.1:8080"],
    ["null", "127.0.0.1:8080"],
    ["file://", "127.0.0.1:8080"],
    ["http://127.0.0.1:8080/path", "127.0.0.1:8080"],
    ["http://user@127.0.0.1:8080", "127.0.0.1:8080"],
    ["http://localhost.attacker.example:8080", "localhost:8080"],
  ])("refuses the Origin %s on a request to %s", (origin, host) => {
    expect(policy.refuseOrigin(origin, host)).toContain(`Origin '${origin}' may not use this gateway`);
  });

  it("lists the gateway's own origins, as browsers write them", () => {
    expect(new HostPolicy().originsFor("localhost:8080")).toEqual([
      "http://127.0.0.1:8080", "https://127.0.0.1:8080", "http://localhost:8080", "https://localhost:8080", "http://[::1]:8080", "https://[::1]:8080",
    ]);
    expect(new HostPolicy().originsFor("localhost:80")).toContain("http://localhost");
    expect(new HostPolicy().originsFor("localhost:80")).toContain("https://localhost:80");
  });
});

describe("a gateway on 127.0.0.1 with the default config", () => {
  let server: Awaited<ReturnType<typeof serve>>;
  const foreign = { host: "rebind.attacker.example", origin: "http://rebind.attacker.example" };

  beforeAll(async () => {
    // Even with stdio clients allowed without a token, the Host check alone stops the rebinding page.
    server = await serve({ allowUnauthenticatedStdio: true });
    foreign.host = `rebind.attacker.example:${server.port}`;
    foreign.origin = `http://rebind.attacker.example:${server.port}`;
  });

  afterAll(async () => {
    await server?.app.close();
    await server?.gateway.close();
  });

  it("does not run a command sent by a DNS-rebinding page to POST /api/mcp/client", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "cmg-rebind-")), "ran");
    const body = JSON.stringify({ name: "pwn", connection_type: "stdio", stdio_config: { command: "touch", args: [marker] } });
    const res = await send(server.port, "POST", "/api/mcp/client", { ...foreign, "content-type": "application/json" }, body);
    expect(res.status).toBe(421);
    expect(JSON.parse(res.body).error.message).toContain(`Host '${foreign.host}' is not an address of this gateway`);
    expect(server.gateway.clientConfigs()).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(marker)).toBe(false);
  });

  it.each([
    ["GET", "/api/mcp/clients", undefined],
    ["GET", "/health", undefined],
    ["GET", "/", undefined],
    ["GET", "/no/such/route", undefined],
    ["POST", "/v1/mcp/tool/execute", JSON.stringify({ id: "c", type: "function", function: { name: "listToolFiles", arguments: "{}" } })],
    ["POST", "/mcp", INITIALIZE],
  ])("refuses %s %s with a foreign Host (421, naming it)", async (method, path, body) => {
    const res = await send(server.port, method, path, { ...foreign, ...MCP_HEADERS }, body);
    expect(res.status).toBe(421);
    expect(JSON.parse(res.body).error.message).toMatch(/^Host 'rebind\.attacker\.example:\d+' is not an address of this gateway .*server\.allowed_hosts/);
  });

  it.each([
    ["GET", "/api/mcp/clients", undefined],
    ["POST", "/api/mcp/client", JSON.stringify({ name: "web", connection_type: "http", connection_string: "http://127.0.0.1:9/mcp" })],
    ["POST", "/v1/mcp/tool/execute", JSON.stringify({ id: "c", type: "function", function: { name: "listToolFiles", arguments: "{}" } })],
    ["POST", "/mcp", INITIALIZE],
  ])("refuses %s %s from a foreign page sent to 127.0.0.1 (403, naming the Origin)", async (method, path, body) => {
    const res = await send(server.port, method, path, { host: `127.0.0.1:${server.port}`, origin: "http://evil.example", ...MCP_HEADERS }, body);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.message).toContain("Origin 'http://evil.example' may not use this gateway");
    expect(server.gateway.clientConfigs()).toEqual([]);
  });

  it("serves same-origin pages and clients without an Origin, under any of its names", async () => {
    const { port } = server;
    for (const headers of [
      { host: `127.0.0.1:${port}` } as Record<string, string>,
      { host: `LocalHost:${port}`, origin: `http://localhost:${port}` },
      { host: `[::1]:${port}`, origin: `http://[::1]:${port}` },
      { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
    ]) {
      const res = await send(port, "GET", "/health", headers);
      expect([res.status, res.body]).toEqual([200, '{"status":"ok","servers":[]}']);
    }
  });

  it("serves the MCP SDK's client, and refuses it when it claims a foreign Origin", async () => {
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
    const foreignClient = new Client({ name: "t", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), { requestInit: { headers: { origin: "http://evil.example" } } });
    await expect(foreignClient.connect(transport)).rejects.toThrow(/403|Origin/);
  });

  it("turns on the SDK's own check: a session answers only on the Host it was opened with", async () => {
    const { port } = server;
    const open = await send(port, "POST", "/mcp", { host: `localhost:${port}`, ...MCP_HEADERS }, INITIALIZE);
    expect(open.status).toBe(200);
    const sid = String(open.headers["mcp-session-id"]);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    const session = { ...MCP_HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
    // 127.0.0.1 passes buildServer's check, but it is not the Host the session was opened on.
    const other = await send(port, "POST", "/mcp", { host: `127.0.0.1:${port}`, ...session }, list);
    expect(other.status).toBe(403);
    expect(JSON.parse(other.body).error.message).toBe(`Invalid Host header: 127.0.0.1:${port}`);
    const same = await send(port, "POST", "/mcp", { host: `localhost:${port}`, ...session }, list);
    expect(same.status).toBe(200);
  });
});

describe("server.allowed_hosts", () => {
  it("lets the gateway answer to the names it lists, and pages served under them", async () => {
    const server = await serve({ allowedHosts: ["gateway.lan"] });
    try {
      const host = `gateway.lan:${server.port}`;
      expect((await send(server.port, "GET", "/health", { host, origin: `http://${host}` })).status).toBe(200);
      expect((await send(server.port, "GET", "/health", { host: `other.lan:${server.port}` })).status).toBe(421);
      expect((await send(server.port, "GET", "/health", { host, origin: "http://other.lan" })).status).toBe(403);
    } finally {
      await server.app.close();
      await server.gateway.close();
    }
  });
});
