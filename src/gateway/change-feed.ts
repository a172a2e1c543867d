// How an instance hears of the changes other instances made to the shared PostgreSQL store:
// every write of state NOTIFYs CHANGE_CHANNEL in its transaction (pg-store.ts), and each
// instance LISTENs on a connection of its own. A note names what changed and who wrote it; an
// instance ignores its own. When the listening connection drops, notes may have been missed:
// it reconnects (retrying, a second apart at most) and asks for a full reload.
import pg from "pg";

/** The channel of the change notes. */
export const CHANGE_CHANNEL = "code_mode_gateway_changes";

/** What a note says changed: each kind is reloaded as a whole by whoever hears it. */
export type ChangeKind = "clients" | "settings" | "keys" | "shapes";

const KINDS: readonly ChangeKind[] = ["clients", "settings", "keys", "shapes"];

/** One change note: its kind, the id of the thing changed, and the instance that wrote it. */
export interface StoreChange {
  kind: ChangeKind;
  id: string;
  instance: string;
}

/** Reads a note's payload; null for one that is not a change note (it is reported, not applied). */
export function parseChange(payload: string | undefined): StoreChange | null {
  try {
    const raw = JSON.parse(payload ?? "") as Partial<StoreChange>;
    if (!KINDS.includes(raw.kind as ChangeKind) || typeof raw.id !== "string" || typeof raw.instance !== "string") return null;
    return { kind: raw.kind as ChangeKind, id: raw.id, instance: raw.instance };
  } catch {
    return null;
  }
}

export interface ChangeFeedOptions {
  url: string;
  /** This instance's id: its own notes are not applied again. */
  instance: string;
  /** Another instance changed something of this kind. */
  onChange(change: StoreChange): void;
  /** The connection came back after a drop: notes may be lost, reload everything. */
  onResync(): void;
  /** Told of a drop, a failed reconnect and a bad note. */
  log(message: string): void;
  /** How long connecting may take (default 5 s). */
  connectTimeoutMs?: number;
}

/** The longest wait between two reconnects. */
const MAX_RETRY_MS = 1000;

export class ChangeFeed {
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  private constructor(private readonly options: ChangeFeedOptions) {}

  /** Connects and listens; rejects when the first connection cannot be made. */
  static async start(options: ChangeFeedOptions): Promise<ChangeFeed> {
    const feed = new ChangeFeed(options);
    await feed.connect();
    return feed;
  }

  /** True while the listening connection is up. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Stops listening and closes the connection. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5000,
      application_name: "code-mode-gateway changes",
      keepAlive: true,
    });
    client.on("notification", (message) => {
      const change = parseChange(message.payload);
      if (!change) {
        this.options.log(`ignored a note on ${CHANGE_CHANNEL} that is not a change: ${String(message.payload).slice(0, 200)}`);
        return;
      }
      if (change.instance !== this.options.instance) this.options.onChange(change);
    });
    let dropped = false;
    const drop = (why: string) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.options.log(`the connection listening for changes dropped (${why}); reconnecting`);
      this.reconnect(100);
    };
    client.on("error", (e) => drop(e.message));
    client.on("end", () => drop("closed by the server"));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (e) {
      dropped = true;
      await client.end().catch(() => undefined);
      throw e;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private reconnect(delayMs: number): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().then(
        () => {
          if (!this.closed) this.options.onResync();
        },
        (e: Error) => {
          this.options.log(`cannot listen for changes yet: ${e.message}`);
          this.reconnect(Math.min(MAX_RETRY_MS, delayMs * 2));
        },
      );
    }, delayMs);
    this.retry.unref();
  }
}
