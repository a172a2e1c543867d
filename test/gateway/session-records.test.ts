// The MCP session record contract (gateway/mcp-sessions.ts), held by both stores of it: memory
// and the SQLite table (sqlite-sessions.ts) in a real database file.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type McpSessionRecord, type McpSessionRecords, MemorySessionRecords } from "../../src/gateway/mcp-sessions.js";
import { Store } from "../../src/gateway/store.js";

const record = (id: string, lastUsed: number): McpSessionRecord => ({
  id,
  owner: "key:k1",
  host: "127.0.0.1:8080",
  hello: { protocolVersion: "2025-06-18", capabilities: { roots: {} }, clientInfo: { name: "c", version: "1" } },
  lastUsed,
});

describe.each([
  ["memory", () => new MemorySessionRecords()],
  ["SQLite", () => new Store(join(mkdtempSync(join(tmpdir(), "cmg-sessions-")), "gateway.db")).sessions],
] as [string, () => McpSessionRecords][])("session records in %s", (_name, make) => {
  it("keep a record as written, and replace it by id", async () => {
    const records = make();
    await records.put(record("a", 1000));
    expect(await records.get("a")).toEqual(record("a", 1000));
    await records.put({ ...record("a", 2000), owner: "-" });
    expect(await records.get("a")).toMatchObject({ owner: "-", lastUsed: 2000 });
    expect(await records.get("b")).toBeNull();
  });

  it("move lastUsed forward only, and say whether the record exists", async () => {
    const records = make();
    await records.put(record("a", 1000));
    expect(await records.touch("a", 3000)).toBe(true);
    expect(await records.touch("a", 2000)).toBe(true);
    expect((await records.get("a"))?.lastUsed).toBe(3000);
    expect(await records.touch("gone", 3000)).toBe(false);
  });

  it("delete one, and expire those unused since a time", async () => {
    const records = make();
    await records.put(record("old", 1000));
    await records.put(record("new", 5000));
    await records.put(record("del", 5000));
    await records.delete("del");
    expect(await records.get("del")).toBeNull();
    expect(await records.expire(4000)).toBe(1);
    expect(await records.get("old")).toBeNull();
    expect(await records.get("new")).not.toBeNull();
  });
});
