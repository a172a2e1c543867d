// Three gateway processes (the built CLI) on one PostgreSQL (Debian's server, started by
// test/fixtures/postgres.ts), as issue 25 asks: a change made through one instance's API is in
// force on the others within a second (limits, virtual keys and grants, clients); an MCP session
// opened on one continues on the others; every instance pages the same log; writes a SIGKILLed
// instance acknowledged are all in the store; a load spread over the three has no errors.
import { writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgStore } from "../../src/gateway/pg-store.js";
import { type RunningPostgres, startPostgres } from "../fixtures/postgres.js";
import { type Instance, startInstance, within } from "./instances.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));
/** Issue 25: every instance sees every change within this. */
const PROPAGATION_MS = 1000;

let server: RunningPostgres;
let url: string;
let config: string;
let instances: Instance[] = [];

function edge(name: string): Record<string, unknown> {
  return { name, connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true };
}

beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase("gateway");
  const dir = mkdtempSync(join(tmpdir(), "cmg-scale-"));
  config = join(dir, "config.json");
  writeFileSync(
    config,
    JSON.stringify({ store: { type: "postgres", url: "env.DATABASE_URL" }, server: { allow_unauthenticated_stdio: true }, mcp: { client_configs: [edge("edge")] } }),
  );
  // Started together: one migrates and seeds, the others wait for the lock and find it done.
  instances = await Promise.all([0, 1, 2].map(() => startInstance(config, { DATABASE_URL: url })));
}, 120_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await server?.stop();
});

async function api(instance: Instance, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(instance.url + path, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** Runs a script through the direct tool route; answers the tool message's text. */
async function run(instance: Instance, code: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const call = { id: "c", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code }) } };
  const { status, json } = await api(instance, "POST", "/v1/mcp/tool/execute", call, headers);
  return { status, text: typeof json?.content === "string" ? json.content : JSON.stringify(json) };
}

describe("three instances on one PostgreSQL", () => {
  it("seeded the store once from config.json, and each connected to the upstream server itself", async () => {
    for (const instance of instances) {
      await within("edge connected", 20_000, async () => (await api(instance, "GET", "/api/mcp/clients")).json.clients.some((c: any) => c.name === "edge" && c.state === "connected"));
    }
    const store = await PgStore.open({ url });
    try {
      expect((await store.listClients()).map((c) => c.name)).toEqual(["edge"]);
    } finally {
      await store.close();
    }
    expect((await run(instances[2]!, "RESULT = edge.add(a=40, b=2)")).text).toContain("42");
    expect((await api(instances[1]!, "GET", "/health")).json.store).toEqual({ type: "postgres", listening: true });
  });

  it("puts limits changed on one in force on the others within a second", async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    const current = (await api(a, "GET", "/api/config")).json.client_config;
    const changed = { ...current, mcp_code_mode_limits: { ...current.mcp_code_mode_limits, max_steps: 4321 } };
    expect((await api(a, "PUT", "/api/config", { client_config: changed })).status).toBe(200);
    for (const other of [b, c]) {
      const ms = await within("max_steps on another instance", 5000, async () => (await api(other, "GET", "/api/config")).json.client_config.mcp_code_mode_limits.max_steps === 4321);
      expect(ms).toBeLessThan(PROPAGATION_MS);
    }
    expect((await run(c, "i = 0\nwhile True:\n    i += 1")).text).toContain("max_steps exceeded (limit 4321)");
    await api(a, "PUT", "/api/config", { client_config: current });
  });

  it("makes a key made on one limit calls on another, and a key deleted there unknown", async () => {
    const [a, b] = instances as [Instance, Instance, Instance];
    const made = await api(b, "POST", "/api/governance/virtual-keys", { id: "narrow", name: "narrow", mcp_configs: [{ client_name: "edge", tools_to_execute: ["add"] }] });
    expect(made.status).toBe(200);
    const asNarrow = { "x-bf-vk": made.json.virtual_key.value as string };
    const ms = await within("the key on another instance", 5000, async () => (await run(a, "RESULT = edge.add(a=1, b=2)", asNarrow)).status === 200);
    expect(ms).toBeLessThan(PROPAGATION_MS);
    expect((await run(a, "RESULT = edge.add(a=1, b=2)", asNarrow)).text).toContain("3");
    // The grant holds there: the key sees add only.
    expect((await run(a, "RESULT = edge.echo(text='x')", asNarrow)).text).toMatch(/AttributeError|not (granted|allowed)|has no attribute/);
    expect((await api(b, "DELETE", "/api/governance/virtual-keys/narrow")).status).toBe(200);
    const gone = await within("the deleted key refused on another instance", 5000, async () => (await run(a, "RESULT = 1", asNarrow)).status === 401);
    expect(gone).toBeLessThan(PROPAGATION_MS);
  });

  it("connects a client added on one on the others", async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    expect((await api(a, "POST", "/api/mcp/client", edge("edge2"))).status).toBe(200);
    for (const other of [b, c]) {
      const ms = await within("edge2 listed on another instance", 5000, async () => (await api(other, "GET", "/api/mcp/clients")).json.clients.some((x: any) => x.name === "edge2"));
      expect(ms).toBeLessThan(PROPAGATION_MS);
      await within("edge2 connected", 20_000, async () => (await api(other, "GET", "/api/mcp/clients")).json.clients.some((x: any) => x.name === "edge2" && x.state === "connected"));
    }
    expect((await run(c, "RESULT = edge2.add(a=2, b=3)")).text).toContain("5");
    expect((await api(b, "DELETE", "/api/mcp/client/edge2")).status).toBe(200);
    const ms = await within("edge2 gone on another instance", 5000, async () => !(await api(a, "GET", "/api/mcp/clients")).json.clients.some((x: any) => x.name === "edge2"));
    expect(ms).toBeLessThan(PROPAGATION_MS);
  });

  it("continues an MCP session opened on one on the others, and ends it everywhere", async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    const first = new Client({ name: "mover", version: "1.0.0" });
    const opened = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`));
    await first.connect(opened);
    const sessionId = opened.sessionId!;
    for (const [i, instance] of [b, c].entries()) {
      const client = new Client({ name: "mover", version: "1.0.0" });
      const moved = new StreamableHTTPClientTransport(new URL(`${instance.url}/mcp`), { sessionId });
      await client.connect(moved);
      const result = await client.callTool({ name: "executeToolCode", arguments: { code: `RESULT = edge.add(a=${i}, b=100)` } });
      expect(JSON.stringify(result.content)).toContain(String(100 + i));
      expect(moved.sessionId).toBe(sessionId);
    }
    // Ended on one: the others answer 404 for it within a second.
    await opened.terminateSession();
    const ms = await within("the ended session refused elsewhere", 5000, async () => {
      const res = await fetch(`${c.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      await res.text();
      return res.status === 404;
    });
    expect(ms).toBeLessThan(PROPAGATION_MS + 1000);
  });

  it("reloads what it missed when its listening connection drops", async () => {
    const [a, b] = instances as [Instance, Instance, Instance];
    // Every instance's listener is cut (as a database restart or a network drop would).
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    try {
      const cut = await raw.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'code-mode-gateway changes'");
      expect(cut.rowCount).toBe(3);
    } finally {
      await raw.end();
    }
    // Made at once, before the others listen again: only the reload after the reconnect brings it.
    const made = await api(a, "POST", "/api/governance/virtual-keys", { id: "after-drop", name: "after-drop" });
    expect(made.status).toBe(200);
    await within("the key made during the drop, on another instance", 5000, async () => (await api(b, "GET", "/api/governance/virtual-keys/after-drop")).status === 200);
    expect(b.stderr()).toContain("the connection listening for changes dropped");
    await within("listening again, as /health says", 5000, async () => (await api(b, "GET", "/health")).json.store.listening === true);
    // Listening again: the next change arrives as a note.
    expect((await api(a, "PUT", "/api/governance/virtual-keys/after-drop", { name: "renamed" })).status).toBe(200);
    const ms = await within("the rename on another instance", 5000, async () => (await api(b, "GET", "/api/governance/virtual-keys/after-drop")).json.virtual_key?.name === "renamed");
    expect(ms).toBeLessThan(PROPAGATION_MS);
  });

  it("pages one log on every instance", async () => {
    const before = (await api(instances[0]!, "GET", "/api/logs?limit=1")).json.total as number;
    // Told apart by their sizes: a script of 600 + i bytes on instance i.
    for (const [i, instance] of instances.entries()) expect((await run(instance, `RESULT = 1${" ".repeat(590 + i)}`)).status).toBe(200);
    // An entry is written as its execution's answer goes out: each is there soon after.
    await within("the three entries", 5000, async () => (await api(instances[0]!, "GET", "/api/logs?limit=1")).json.total >= before + 3);
    const pages = await Promise.all(instances.map(async (i) => (await api(i, "GET", "/api/logs?limit=200")).json));
    for (const page of pages) {
      expect(page.total).toBe(before + 3);
      expect(page.logs.map((l: any) => l.code_bytes).filter((n: number) => n >= 600 && n < 603).sort()).toEqual([600, 601, 602]);
      expect(page.logs.map((l: any) => l.id)).toEqual(pages[0].logs.map((l: any) => l.id));
    }
  });

  it("spreads a load over the three with no errors", async () => {
    let failures = 0;
    let done = 0;
    const lane = async (n: number) => {
      for (let i = 0; i < 40; i++) {
        const instance = instances[(n + i) % 3]!;
        const { status, text } = await run(instance, `RESULT = edge.add(a=${n}, b=${i})`);
        if (status !== 200 || !text.includes(String(n + i))) failures++;
        done++;
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(lane));
    expect({ done, failures }).toEqual({ done: 240, failures: 0 });
  });
});

describe("an instance killed mid-burst", () => {
  it("loses none of the writes it acknowledged, over four lanes", async () => {
    const victim = await startInstance(config, { DATABASE_URL: url });
    const acked: string[] = [];
    let stop = false;
    const lane = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const id = `burst-${n}-${i}`;
        try {
          const res = await api(victim, "POST", "/api/governance/virtual-keys", { id, name: id });
          if (res.status === 200) acked.push(id);
        } catch {
          return; // The process is gone.
        }
      }
    };
    const lanes = Promise.all([0, 1, 2, 3].map(lane));
    await within("some writes acknowledged", 20_000, async () => acked.length >= 40);
    victim.child.kill("SIGKILL");
    await new Promise((resolve) => victim.child.once("exit", resolve));
    stop = true;
    await lanes;
    const store = await PgStore.open({ url });
    try {
      const ids = new Set((await store.listKeys()).map((k) => k.id));
      const lost = acked.filter((id) => !ids.has(id));
      expect({ acknowledged: acked.length >= 40, lost }).toEqual({ acknowledged: true, lost: [] });
    } finally {
      await store.close();
    }
    // The survivors heard of every write.
    const listed = (await api(instances[0]!, "GET", "/api/governance/virtual-keys")).json.virtual_keys.map((k: any) => k.id);
    for (const id of acked) expect(listed).toContain(id);
  }, 60_000);
});
