// `code-mode-gateway migrate --from <sqlite> --to <postgres>` (the built CLI, a real PostgreSQL):
// everything a single-instance gateway kept arrives, log entries in their order; a database
// that already holds state is refused and left as it was; a SQLite file a gateway is using is
// refused; a bad flag names itself.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgStore } from "../../src/gateway/pg-store.js";
import { SqliteLock } from "../../src/gateway/sqlite-lock.js";
import { type NewLogEntry, Store, type StoredSettings } from "../../src/gateway/store.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { type RunningPostgres, startPostgres } from "../fixtures/postgres.js";

const GATEWAY = fileURLToPath(new URL("../../dist/src/cli/gateway.js", import.meta.url));
const run = promisify(execFile);

let server: RunningPostgres;
let dir: string;
let sqlite: string;

const settings: StoredSettings = { limits: { ...DEFAULT_LIMITS, max_steps: 777 }, bindingLevel: "tool", instructionsLimit: 10, directInstructionsLimit: 20, maxAgentDepth: 2 };

function entry(i: number): NewLogEntry {
  return {
    time: new Date(Date.UTC(2026, 5, 1) + i * 60_000).toISOString(),
    key: i % 2 ? "k1" : "-",
    tool: "executeToolCode",
    code_bytes: i,
    duration_seconds: i / 100,
    tool_calls: [{ server: "fs", tool: "read_file", ok: i % 5 !== 0, error: i % 5 ? null : "boom", duration_seconds: 0.01 }],
    outcome: "ok",
    error: null,
  };
}

/** The CLI's exit code and what it printed. */
async function migrate(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [GATEWAY, "migrate", ...args]);
    return { code: 0, stderr };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr };
  }
}

beforeAll(async () => {
  server = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), "cmg-migrate-"));
  sqlite = join(dir, "gateway.db");
  const store = new Store(sqlite);
  store.putClient(parseClientConfig({ name: "fs", connection_type: "stdio", stdio_config: { command: "node", args: ["fs.js"] } }));
  store.putClient(parseClientConfig({ name: "docs", connection_type: "http", connection_string: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer t" } }));
  store.putSettings(settings);
  store.putKey({ id: "k1", name: "one", value: "sk-bf-one", is_active: true, mcp_configs: [{ client_name: "fs", tools_to_execute: ["read_file"] }] });
  store.putShape("fs", "read_file", { types: ["str"] });
  for (let i = 1; i <= 620; i++) store.appendLog(entry(i));
  store.close();
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("code-mode-gateway migrate", () => {
  it("copies clients, settings, keys, shapes and the log into an empty database", async () => {
    const url = await server.createDatabase("target");
    const { code, stderr } = await migrate("--from", sqlite, "--to", url);
    expect(stderr).toBe(`code-mode-gateway: copied 2 clients, the settings, 1 virtual key, 1 observed shape, 620 log entries from ${sqlite} to ${url}\n`);
    expect(code).toBe(0);
    const source = new Store(sqlite);
    const target = await PgStore.open({ url });
    try {
      expect(await target.listClients()).toEqual(source.listClients());
      expect(await target.getSettings()).toEqual(settings);
      expect(await target.listKeys()).toEqual(source.listKeys());
      expect(await target.listShapes()).toEqual(source.listShapes());
      const strip = (p: { total: number; logs: { id: number }[] }) => ({ total: p.total, logs: p.logs.map(({ id: _id, ...e }) => e) });
      expect(strip(await target.queryLogs({ limit: 500 }))).toEqual(strip(source.queryLogs({ limit: 500 })));
      expect(strip(await target.queryLogs({ limit: 500, offset: 500 }))).toEqual(strip(source.queryLogs({ limit: 500, offset: 500 })));
      const since = entry(1).time;
      expect(await target.endingsPerMinute(since)).toEqual(source.endingsPerMinute(since));
    } finally {
      source.close();
      await target.close();
    }

    // Again: the database holds state now, and is left as it is.
    const again = await migrate("--from", sqlite, "--to", url);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already holds clients, settings, virtual keys, log entries: migrate into an empty database");
    const check = await PgStore.open({ url });
    expect((await check.queryLogs({ limit: 1 })).total).toBe(620);
    await check.close();
  });

  it("reads --to from the environment, and names what is wrong with the flags", async () => {
    expect(await migrate("--from", sqlite, "--to", "env.PG_NOWHERE")).toEqual({ code: 2, stderr: "code-mode-gateway: --to refers to the environment variable PG_NOWHERE, which is not set\n" });
    expect((await migrate("--from", sqlite)).stderr).toContain("migrate needs --to");
    expect((await migrate("--from", sqlite, "--to")).stderr).toContain("--to needs a value");
    expect((await migrate("--form", sqlite)).stderr).toContain("unknown argument --form");
    const missing = await migrate("--from", join(dir, "nope.db"), "--to", `${server.url}`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope.db: no such file");
  });

  it("refuses a SQLite file a gateway is using", async () => {
    const lock = SqliteLock.acquire(sqlite);
    try {
      const url = await server.createDatabase("busy");
      const { code, stderr } = await migrate("--from", sqlite, "--to", url);
      expect(code).toBe(1);
      expect(stderr).toContain(`in use by another gateway, process ${process.pid}`);
    } finally {
      lock.release();
    }
  });
});
