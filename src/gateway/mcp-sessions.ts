// MCP sessions as records: what an instance needs to continue a session another instance (or an
// earlier run of this one) opened. A session's SDK server and transport live in one process; its
// record (who opened it, what the client said in `initialize`, when it was last used) lives in
// the store, so that a request carrying its id can be served wherever it lands. What cannot
// move (an event stream in flight) stays with the process that holds it.

/** The `initialize` request's params, as a resumed session's server needs them. */
export interface McpClientHello {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string; [field: string]: unknown };
}

export interface McpSessionRecord {
  /** The id the client presents in `Mcp-Session-Id`. */
  id: string;
  /** Who opened it: `key:<virtual key id>`, or "-" without a key (api/mcp.ts ownerOf). */
  owner: string;
  /** The Host header it was opened with (for the operator: a process that continues it keeps to the Host it is reached by). */
  host: string;
  hello: McpClientHello;
  /** When a request last used it, in ms since the epoch. */
  lastUsed: number;
}

/** Where session records are kept: the store's table, or memory for a gateway without one. */
export interface McpSessionRecords {
  get(id: string): Promise<McpSessionRecord | null>;
  /** Writes the record, replacing one with the same id. */
  put(record: McpSessionRecord): Promise<void>;
  /** Moves `lastUsed` forward (never back); answers whether the record exists (false: deleted or expired elsewhere). */
  touch(id: string, lastUsed: number): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** Deletes the records last used before `before` (ms since the epoch); answers how many. */
  expire(before: number): Promise<number>;
}

/** Records in this process only: sessions do not outlive it or move to another instance. */
export class MemorySessionRecords implements McpSessionRecords {
  private readonly records = new Map<string, McpSessionRecord>();

  async get(id: string): Promise<McpSessionRecord | null> {
    const record = this.records.get(id);
    return record ? structuredClone(record) : null;
  }

  async put(record: McpSessionRecord): Promise<void> {
    this.records.set(record.id, structuredClone(record));
  }

  async touch(id: string, lastUsed: number): Promise<boolean> {
    const record = this.records.get(id);
    if (record && lastUsed > record.lastUsed) record.lastUsed = lastUsed;
    return record !== undefined;
  }

  async delete(id: string): Promise<void> {
    this.records.delete(id);
  }

  async expire(before: number): Promise<number> {
    let n = 0;
    for (const [id, record] of this.records) {
      if (record.lastUsed < before) {
        this.records.delete(id);
        n++;
      }
    }
    return n;
  }
}
