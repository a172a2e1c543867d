// The routes the web UI adds (src/api/web.ts), without a browser: the page is public while the
// API stays behind the admin token and the key check, and the UI's own admin routes answer in
// the API's shapes.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fastify, type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { webRoutes } from "../../src/api/web.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { KeyRing, parseVirtualKey } from "../../src/gateway/virtual-keys.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";

const TOKEN = "t0ken";
const admin = { authorization: `Bearer ${TOKEN}` };

let gateway: Gateway;
let app: FastifyInstance;
const keys = new KeyRing([
  parseVirtualKey({ name: "off", value: "vk-off", is_active: false, mcp_configs: [] }),
  parseVirtualKey({ name: "none", value: "vk-none", mcp_configs: [] }),
]);

beforeAll(async () => {
  gateway = new Gateway(undefined, keys);
  app = buildServer(gateway, { adminToken: TOKEN, requireKey: true });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await gateway?.close();
});

describe("the page's routes", () => {
  it("serves the page without a virtual key or the admin token", async () => {
    const res = await app.inject({ method: "GET", url: "/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain('<div id="app">');
  });

  it("keeps the API behind the admin token and other paths behind the key check", async () => {
    expect((await app.inject({ method: "GET", url: "/api/nothing" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/api/ui/defaults" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(401);
    const unknown = await app.inject({ method: "GET", url: "/nothing.html", headers: { "x-bf-vk": "vk-none" } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { message: "no route GET /nothing.html" } });
  });

  it("says how to build the page when it is not built", async () => {
    const bare = fastify();
    await bare.register(webRoutes, { gateway, root: mkdtempSync(join(tmpdir(), "no-web-")) });
    const res = await bare.inject({ method: "GET", url: "/" });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain("npm run build");
    await bare.close();
  });

  it("serves whatever files the build holds, each of them public", async () => {
    const root = mkdtempSync(join(tmpdir(), "web-"));
    writeFileSync(join(root, "index.html"), "<p>hello</p>");
    writeFileSync(join(root, "app.js"), "1");
    const built = buildServer(gateway, { adminToken: TOKEN, requireKey: true, webRoot: root });
    await built.ready();
    for (const [url, body] of [["/", "<p>hello</p>"], ["/index.html", "<p>hello</p>"], ["/app.js", "1"]]) {
      const res = await built.inject({ method: "GET", url });
      expect([url, res.statusCode, res.body]).toEqual([url, 200, body]);
    }
    // Only the page's files: the API and the callers' routes beside them keep their checks.
    expect((await built.inject({ method: "GET", url: "/api/ui/defaults" })).statusCode).toBe(401);
    expect((await built.inject({ method: "GET", url: "/health" })).statusCode).toBe(401);
    await built.close();
  });
});

describe("the UI's admin routes", () => {
  it("shows the defaults of the limits", async () => {
    const res = await app.inject({ method: "GET", url: "/api/ui/defaults", headers: admin });
    expect(res.json()).toEqual({ limits: DEFAULT_LIMITS, binding_level: "server" });
  });

  it("checks a settings change with PUT /api/config's message, changing nothing", async () => {
    const before = gateway.settings;
    const bad = await app.inject({
      method: "POST",
      url: "/api/ui/config/check",
      headers: admin,
      payload: { client_config: { mcp_code_mode_limits: { max_value_bytes: 10 } } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: { message: "client_config.mcp_code_mode_limits.max_value_bytes must be 0 or at least 1024" } });
    const good = await app.inject({
      method: "POST",
      url: "/api/ui/config/check",
      headers: admin,
      payload: { client_config: { mcp_code_mode_limits: { max_steps: 10 } } },
    });
    expect(good.json()).toEqual({ ok: true });
    expect(gateway.settings).toBe(before);
  });

  it("runs a script as executeToolCode does, answering its structured result", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/ui/playground/call",
      headers: admin,
      payload: { tool: "executeToolCode", arguments: { code: "print('a')\nRESULT = [1, 2**70]\nx = 1 / 0" } },
    });
    const body = res.json();
    expect(body.is_error).toBe(true);
    expect(body.execution.stdout).toBe("a\n");
    expect(body.execution.error).toMatchObject({ type: "ZeroDivisionError", line: 3 });
    expect(body.text).toContain("ZeroDivisionError");
  });

  it("shows a script's result as text, big integers included", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/ui/playground/call",
      headers: admin,
      payload: { tool: "executeToolCode", arguments: { code: "RESULT = [1, 2**70]" } },
    });
    expect(res.json().execution.result).toBe("[\n  1,\n  1180591620717411303424\n]");
  });

  it("refuses an unknown or inactive key by name", async () => {
    const unknown = await app.inject({ method: "GET", url: "/api/ui/playground/files?key=nope", headers: admin });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe("no virtual key with id 'nope'");
    const off = await app.inject({ method: "POST", url: "/api/ui/playground/call", headers: admin, payload: { key: "off", tool: "listToolFiles" } });
    expect(off.statusCode).toBe(400);
    expect(off.json().error.message).toBe("virtual key 'off' is not active");
  });

  it("lists no files for a key that grants nothing", async () => {
    const res = await app.inject({ method: "GET", url: "/api/ui/playground/files?key=none", headers: admin });
    expect(res.json()).toEqual({ binding_level: "server", files: [] });
  });
});
