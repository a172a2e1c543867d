// code-mode-gateway's own answers, as a real process from the build in dist/: a config with a
// misspelt field and a state database it cannot use each end it at once, with a message naming
// the problem (never a "fatal" stack), and a non-zero exit.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GATEWAY = join(ROOT, "dist/src/cli/gateway.js");
const Raw = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => { exec(sql: string): void; close(): void };

function gateway(config: unknown, data: string) {
  const dir = mkdtempSync(join(tmpdir(), "cmg-cli-"));
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify(config));
  return spawnSync(process.execPath, [GATEWAY, "--config", file, "--data", data, "--port", "0"], { cwd: ROOT, encoding: "utf8", timeout: 20_000 });
}

it("refuses a config with a misspelt top-level field, naming it (exit 2)", () => {
  const r = gateway({ govrenance: { require_virtual_key: true } }, mkdtempSync(join(tmpdir(), "cmg-data-")));
  expect(r.status).toBe(2);
  expect(r.stderr).toBe("code-mode-gateway: invalid config: govrenance: unknown field (did you mean governance?)\n");
});

it("refuses a state database written by a newer gateway, naming the file (exit 1)", () => {
  const data = mkdtempSync(join(tmpdir(), "cmg-data-"));
  mkdirSync(data, { recursive: true });
  const db = new Raw(join(data, "gateway.db"));
  db.exec("CREATE TABLE schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1, 99);");
  db.close();
  const r = gateway({}, data);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`code-mode-gateway: cannot use the state database: ${join(data, "gateway.db")}: the database has schema version 99, newer than this gateway's`);
  expect(r.stderr).not.toContain("fatal");
});

it("refuses a data folder another running gateway uses, naming its process (exit 1)", async () => {
  const data = mkdtempSync(join(tmpdir(), "cmg-data-"));
  const dir = mkdtempSync(join(tmpdir(), "cmg-cli-"));
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify({}));
  const first = spawn(process.execPath, [GATEWAY, "--config", file, "--data", data, "--port", "0"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  try {
    // It holds the database once it listens.
    await new Promise<void>((resolve, reject) => {
      let err = "";
      first.stderr!.on("data", (c: Buffer) => {
        err += c.toString();
        if (err.includes("listening on")) resolve();
      });
      first.once("exit", (code) => reject(new Error(`the first gateway exited with ${code}: ${err}`)));
    });
    const r = gateway({}, data);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`code-mode-gateway: cannot use the state database: ${join(data, "gateway.db")}: in use by another gateway, process ${first.pid} on `);
    expect(r.stderr).toContain("use the PostgreSQL store");
  } finally {
    const exited = new Promise((resolve) => first.once("exit", resolve));
    first.kill("SIGTERM");
    await exited;
  }
  // Once the first has stopped, the folder is free again.
  expect(existsSync(join(data, "gateway.db.lock"))).toBe(false);
}, 30_000);
