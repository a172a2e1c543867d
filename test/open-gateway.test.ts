// openGateway: the whole durable system in this process, on a real data folder, a real port and
// a real upstream server over stdio. Changes made over HTTP survive a close and a reopen on the
// same folder; config.json seeds only an empty one; a taken port is an error naming it, and
// closing leaves no child process.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayConfig, parseGatewayConfig } from "../src/gateway/config-file.js";
import { ListenError, type OpenedGateway, openGateway } from "../src/open-gateway.js";
import { processesMarked } from "./fixtures/marked-processes.js";

const Raw = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => { prepare(sql: string): { run(): unknown }; close(): void };
const EDGE = fileURLToPath(new URL("../dist/test/fixtures/edge-server.js", import.meta.url));

/** A config whose one code-mode server, `edge`, is started with EDGE_MARK=`mark`. */
function configOf(mark: string, extra: Record<string, unknown> = {}): GatewayConfig {
  return parseGatewayConfig({ mcpServers: { edge: { command: process.execPath, args: [EDGE], env: { EDGE_MARK: mark } } }, ...extra }, {});
}

const opened: OpenedGateway[] = [];
const messages: string[] = [];

async function open(config: GatewayConfig, dataDir: string): Promise<OpenedGateway> {
  const g = await openGateway({ config, dataDir, port: 0, log: (m) => messages.push(m) });
  opened.push(g);
  return g;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((g) => g.close()));
  messages.length = 0;
});

async function until<T>(probe: () => T, done: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function send(url: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${url}${path}`, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
}

function script(code: string) {
  return { id: "c", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code }) } };
}

describe("openGateway", () => {
  it("keeps what was changed over HTTP across a close and a reopen on the same data folder", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cmg-open-"));
    const mark = randomUUID();
    const first = await open(configOf(mark), dataDir);
    const { url } = await first.listen();
    await first.gateway.manager.settled(15_000);
    expect(processesMarked(mark)).toHaveLength(1);

    expect((await send(url, "PUT", "/api/config", { client_config: { mcp_code_mode_limits: { max_steps: 4321 } } })).status).toBe(200);
    const key = await send(url, "POST", "/api/governance/virtual-keys", { name: "team", value: "sk-team", mcp_configs: [{ client_name: "edge", tools_to_execute: ["add"] }] });
    expect(key.status).toBe(200);
    const ran = await send(url, "POST", "/v1/mcp/tool/execute", script("RESULT = edge.add(a=2, b=3)"));
    expect(((await ran.json()) as { content: string }).content).toContain("5");

    await first.close();
    // Closing ended the upstream server's process.
    expect(await until(() => processesMarked(mark), (p) => p.length === 0)).toEqual([]);

    // The second start's config.json differs: it seeds nothing, the database is not empty.
    const again = await open(configOf(mark, { governance: { virtual_keys: [{ name: "other", value: "sk-other" }] } }), dataDir);
    const second = await again.listen();
    const config = (await (await send(second.url, "GET", "/api/config")).json()) as { client_config: { mcp_code_mode_limits: { max_steps: number } } };
    expect(config.client_config.mcp_code_mode_limits.max_steps).toBe(4321);
    const keys = (await (await send(second.url, "GET", "/api/governance/virtual-keys")).json()) as { virtual_keys: { name: string }[] };
    expect(keys.virtual_keys.map((k) => k.name)).toEqual(["team"]);
    const logs = (await (await send(second.url, "GET", "/api/logs")).json()) as { total: number; logs: { id: number; tool_calls: { server: string; tool: string }[] }[] };
    expect(logs.total).toBe(1);
    expect(logs.logs[0]!.tool_calls).toMatchObject([{ server: "edge", tool: "add", ok: true }]);
    expect(again.gateway.clientConfigs().map((c) => c.name)).toEqual(["edge"]);
  }, 40_000);

  it("seeds an empty data folder from config.json: clients, keys and settings", async () => {
    const mark = randomUUID();
    const config = configOf(mark, {
      governance: { virtual_keys: [{ name: "ci", value: "sk-ci" }] },
      mcp: { tool_manager_config: { code_mode_limits: { max_steps: 777 } } },
    });
    const g = await open(config, mkdtempSync(join(tmpdir(), "cmg-open-")));
    expect((await g.store.listClients()).map((c) => c.name)).toEqual(["edge"]);
    expect((await g.store.listKeys()).map((k) => k.name)).toEqual(["ci"]);
    expect((await g.store.getSettings())?.limits.max_steps).toBe(777);
    expect(g.gateway.settings.limits.max_steps).toBe(777);
    // /health names the store: one SQLite file.
    expect((await g.app.inject({ method: "GET", url: "/health" })).json().store).toEqual({ type: "sqlite" });
  });

  it("refuses a taken port with a ListenError naming it, and closes leaving no child process", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    const mark = randomUUID();
    try {
      const g = await open(configOf(mark), mkdtempSync(join(tmpdir(), "cmg-open-")));
      await g.gateway.manager.settled(15_000);
      expect(processesMarked(mark)).toHaveLength(1);
      const error = await g.listen("127.0.0.1", port).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ListenError);
      expect(error).toMatchObject({ code: "EADDRINUSE", port, message: `port ${port} on 127.0.0.1 is in use` });
      await g.close();
      expect(await until(() => processesMarked(mark), (p) => p.length === 0)).toEqual([]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 30_000);

  it("fails to open on a corrupt row, naming it, before any upstream server is started", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cmg-open-"));
    const [mark, second] = [randomUUID(), randomUUID()];
    const first = await open(configOf(mark, { governance: { virtual_keys: [{ name: "ci", value: "sk-ci" }] } }), dataDir);
    await first.close();
    const db = new Raw(join(dataDir, "gateway.db"));
    db.prepare("UPDATE virtual_keys SET data = 'garbage'").run();
    db.close();
    // The stored client is the first start's; only the environment of its process tells the two apart.
    const db2 = new Raw(join(dataDir, "gateway.db"));
    db2.prepare(`UPDATE clients SET config = json_set(config, '$.stdio_config.env.EDGE_MARK', '${second}')`).run();
    db2.close();
    await expect(open(configOf(second), dataDir)).rejects.toThrow(/virtual_keys row 'ci': corrupt row \(not valid JSON/);
    await new Promise((r) => setTimeout(r, 300));
    expect(processesMarked(second)).toEqual([]);
  });

  it("reports the upstream servers' states through its log", async () => {
    const g = await open(configOf(randomUUID()), mkdtempSync(join(tmpdir(), "cmg-open-")));
    await g.gateway.manager.settled(15_000);
    expect(messages).toContain("server edge: connected");
  });

  it("closes once, however often it is asked", async () => {
    const g = await open(configOf(randomUUID()), mkdtempSync(join(tmpdir(), "cmg-open-")));
    await Promise.all([g.close(), g.close()]);
    await g.close();
    expect(() => g.store.listClients()).toThrow(/not open/);
  });
});
