// One gateway per SQLite database. The store keeps in-memory copies of its rows, so a second
// process on the same file would accept writes the first never sees; it is refused at start-up
// instead, naming the process that holds the file and pointing to the PostgreSQL store, which is
// the one for several instances. The lock is a file beside the database (`gateway.db.lock`)
// saying who holds it; a holder that is gone (killed, crashed) is noticed and its lock taken over.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { StoreError } from "./store.js";

/** Who holds a database: what the lock file says. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When it took the lock (ISO 8601). */
  since: string;
  /** The process's start time in clock ticks after boot (Linux), so that a reused pid is not taken for the holder. */
  startTicks?: number;
  /** Tells this lock from any other the same process takes (release() checks it). */
  token?: string;
}

/** The database is held by another live process; the message names it and says what to do. */
export class SqliteLockError extends StoreError {
  constructor(
    database: string,
    readonly holder: LockHolder | null,
    message: string,
  ) {
    super(database, message);
    this.name = "SqliteLockError";
  }
}

/** The start time of process `pid` in clock ticks after boot, where /proc tells it. */
function startTicksOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22; the command (field 2) is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (e) {
    // EPERM: it exists, as another user.
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (holder.startTicks === undefined) return true;
  const ticks = startTicksOf(holder.pid);
  return ticks === undefined || ticks === holder.startTicks;
}

function readHolder(path: string): { text: string; holder: LockHolder | null } | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === "number" && typeof value.host === "string" && typeof value.since === "string") return { text, holder: value as LockHolder };
  } catch {
    // Not ours, or cut short by a crash while it was written: as good as no holder.
  }
  return { text, holder: null };
}

function refusal(database: string, lockPath: string, holder: LockHolder | null, remote: boolean): SqliteLockError {
  const who = holder ? `process ${holder.pid} on ${holder.host} (since ${holder.since})` : "another process";
  const what = remote ? `if that gateway is gone, delete ${lockPath}` : "stop it first";
  return new SqliteLockError(
    database,
    holder,
    `in use by another gateway, ${who}: a SQLite store serves one instance (${what}). ` +
      'To run several instances on shared state, use the PostgreSQL store: "store": {"type": "postgres", "url": "env.DATABASE_URL"} in config.json (README: Running several instances).',
  );
}

/** The lock on one SQLite database, held until release(). */
export class SqliteLock {
  private constructor(
    readonly lockPath: string,
    private readonly text: string,
  ) {}

  /**
   * Takes the lock on the database at `database`, or throws SqliteLockError naming the live
   * process that holds it. A lock left by a process that is gone is taken over.
   */
  static acquire(database: string): SqliteLock {
    const lockPath = `${database}.lock`;
    const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), token: randomUUID() };
    const ticks = startTicksOf(process.pid);
    if (ticks !== undefined) me.startTicks = ticks;
    const text = `${JSON.stringify(me)}\n`;
    // Written whole under a private name, then linked into place: the lock file appears complete or not at all.
    const draft = `${lockPath}.${process.pid}.tmp`;
    writeFileSync(draft, text, { mode: 0o600 });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          linkSync(draft, lockPath);
          return new SqliteLock(lockPath, text);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
        }
        const found = readHolder(lockPath);
        if (found === null) continue;
        const { holder } = found;
        const remote = holder !== null && holder.host !== me.host;
        if (holder !== null && (remote || isAlive(holder))) throw refusal(database, lockPath, holder, remote);
        // Gone: move its file aside, and take over only if what moved is what was read (no one else took over meanwhile).
        const aside = `${lockPath}.${process.pid}.stale`;
        try {
          renameSync(lockPath, aside);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOENT") continue;
          throw e;
        }
        const moved = readHolder(aside);
        if (moved?.text !== found.text) {
          renameSync(aside, lockPath);
          throw refusal(database, lockPath, moved?.holder ?? null, false);
        }
        unlinkSync(aside);
      }
      throw refusal(database, lockPath, null, false);
    } finally {
      unlinkSync(draft);
    }
  }

  /** Lets the database go (only if the lock file is still this process's). */
  release(): void {
    try {
      if (readFileSync(this.lockPath, "utf8") === this.text) unlinkSync(this.lockPath);
    } catch {
      // Already gone.
    }
  }
}
