// A stdio client runs a command as the gateway's user, so without an admin token the API refuses
// to add or edit one (unless server.allow_unauthenticated_stdio says otherwise); clients the
// gateway was started with (config.json) still load, and HTTP clients are still managed freely.
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { buildServer, type ServerOptions } from "../../src/api/server.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { parseClientConfig } from "../../src/upstream/config.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));
const TOKEN = "t0ken-" + randomUUID();

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

async function serve(options: ServerOptions = {}) {
  const gateway = new Gateway();
  const app = buildServer(gateway, options);
  await app.ready();
  closing.push(async () => {
    await app.close();
    await gateway.close();
  });
  return { gateway, app };
}

function stdioClient(name: string, marker = join(mkdtempSync(join(tmpdir(), "cmg-stdio-")), "ran")) {
  return { name, connection_type: "stdio", stdio_config: { command: "touch", args: [marker] } };
}

const REFUSAL = /^adding or editing a stdio client over the API needs the admin token.*"admin_token".*"allow_unauthenticated_stdio": true/;

describe("stdio clients over the API without an admin token", () => {
  it("refuses to add one (403, naming both remedies), and runs nothing", async () => {
    const { gateway, app } = await serve();
    const marker = join(mkdtempSync(join(tmpdir(), "cmg-stdio-")), "ran");
    const res = await app.inject({ method: "POST", url: "/api/mcp/client", payload: stdioClient("pwn", marker) });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toMatch(REFUSAL);
    expect(gateway.clientConfigs()).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses to edit one the gateway was started with, which still loads and connects", async () => {
    const { gateway, app } = await serve();
    gateway.addClient(parseClientConfig({ name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"] }));
    await gateway.manager.settled(15_000);
    expect(gateway.manager.get("edge")!.state).toBe("connected");
    const res = await app.inject({ method: "PUT", url: "/api/mcp/client/edge", payload: { tools_to_execute: ["echo"] } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toMatch(REFUSAL);
    expect(gateway.clientConfigs()[0]!.tools_to_execute).toEqual(["*"]);
    // Deleting one runs nothing, and neither does reconnecting the command the operator configured.
    expect((await app.inject({ method: "POST", url: "/api/mcp/client/edge/reconnect" })).statusCode).toBe(200);
    expect((await app.inject({ method: "DELETE", url: "/api/mcp/client/edge" })).statusCode).toBe(200);
  });

  it("still adds and edits HTTP clients", async () => {
    const { app } = await serve();
    const http = { name: "remote", connection_type: "http", connection_string: "http://127.0.0.1:9/mcp", disabled: true };
    expect((await app.inject({ method: "POST", url: "/api/mcp/client", payload: http })).statusCode).toBe(200);
    expect((await app.inject({ method: "PUT", url: "/api/mcp/client/remote", payload: { tools_to_execute: ["x"] } })).statusCode).toBe(200);
  });
});

describe("stdio clients over the API", () => {
  it("are added with the admin token", async () => {
    const { gateway, app } = await serve({ adminToken: TOKEN });
    const res = await app.inject({ method: "POST", url: "/api/mcp/client", payload: { ...stdioClient("ok"), disabled: true }, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(gateway.clientConfigs().map((c) => c.name)).toEqual(["ok"]);
  });

  it("are added without one when server.allow_unauthenticated_stdio is set", async () => {
    const { gateway, app } = await serve({ allowUnauthenticatedStdio: true });
    const res = await app.inject({ method: "POST", url: "/api/mcp/client", payload: { ...stdioClient("ok"), disabled: true } });
    expect(res.statusCode).toBe(200);
    expect((await app.inject({ method: "PUT", url: "/api/mcp/client/ok", payload: { tools_to_execute: ["x"] } })).statusCode).toBe(200);
    expect(gateway.clientConfigs().map((c) => c.tools_to_execute)).toEqual([["x"]]);
  });
});
