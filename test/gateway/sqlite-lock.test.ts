// One gateway per SQLite database (src/gateway/sqlite-lock.ts): a live holder in another process
// is named in the refusal, a holder that is gone is taken over, and release() lets go only of the
// lock this process holds.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteLock, SqliteLockError } from "../../src/gateway/sqlite-lock.js";
import { StoreError } from "../../src/gateway/store.js";

const LOCK_MODULE = fileURLToPath(new URL("../../dist/src/gateway/sqlite-lock.js", import.meta.url));

/** A process that takes the lock (from the build) and holds it until killed. */
function holder(database: string): Promise<ChildProcess> {
  const code = `import(${JSON.stringify(LOCK_MODULE)}).then((m) => { m.SqliteLock.acquire(${JSON.stringify(database)}); console.log("held"); setInterval(() => {}, 1000); });`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", () => resolve(child));
    child.once("exit", (status) => reject(new Error(`the holder exited with ${status}`)));
  });
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

function database(): string {
  return join(mkdtempSync(join(tmpdir(), "cmg-lock-")), "gateway.db");
}

describe("SqliteLock", () => {
  it("refuses a database another live process holds, naming it and the PostgreSQL store", async () => {
    const db = database();
    const child = await holder(db);
    children.push(child);
    let error: unknown;
    try {
      SqliteLock.acquire(db);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SqliteLockError);
    expect(error).toBeInstanceOf(StoreError);
    const message = (error as Error).message;
    expect(message).toContain(`${db}: in use by another gateway, process ${child.pid} on ${hostname()}`);
    expect(message).toContain('"store": {"type": "postgres"');
    expect((error as SqliteLockError).holder?.pid).toBe(child.pid);
  });

  it("takes over the lock of a holder that was killed", async () => {
    const db = database();
    const child = await holder(db);
    const gone = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await gone;
    expect(JSON.parse(readFileSync(`${db}.lock`, "utf8")).pid).toBe(child.pid);
    const lock = SqliteLock.acquire(db);
    expect(JSON.parse(readFileSync(`${db}.lock`, "utf8")).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(`${db}.lock`)).toBe(false);
  });

  it("takes over a lock whose pid now belongs to a different process", () => {
    const db = database();
    // This very process, but started at another time: the pid was reused.
    writeFileSync(`${db}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), since: "2020-01-01T00:00:00.000Z", startTicks: 1 }));
    const lock = SqliteLock.acquire(db);
    lock.release();
  });

  it("treats an unreadable lock file as no holder", () => {
    const db = database();
    writeFileSync(`${db}.lock`, '{"pid": 12');
    SqliteLock.acquire(db).release();
  });

  it("refuses a holder on another host without guessing, saying which file to delete", () => {
    const db = database();
    writeFileSync(`${db}.lock`, JSON.stringify({ pid: 1, host: "elsewhere.example", since: "2026-01-01T00:00:00.000Z" }));
    expect(() => SqliteLock.acquire(db)).toThrow(`process 1 on elsewhere.example (since 2026-01-01T00:00:00.000Z): a SQLite store serves one instance (if that gateway is gone, delete ${db}.lock)`);
  });

  it("refuses a second lock in the same process, and lets go only of its own", () => {
    const db = database();
    const lock = SqliteLock.acquire(db);
    expect(() => SqliteLock.acquire(db)).toThrow(SqliteLockError);
    lock.release();
    const again = SqliteLock.acquire(db);
    // A lock someone else took after this one was let go is not removed by a late release().
    lock.release();
    expect(existsSync(`${db}.lock`)).toBe(true);
    again.release();
  });

  it("leaves no draft files behind", () => {
    const db = database();
    SqliteLock.acquire(db).release();
    const r = spawnSync("ls", ["-a", join(db, "..")], { encoding: "utf8" });
    expect(r.stdout.split("\n").filter((f) => f.includes(".tmp") || f.includes(".stale"))).toEqual([]);
  });
});
