// Acknowledged means committed, with a store that commits later (PostgreSQL): the composition
// hands every write of a change here, and a route that made a change awaits settled() before it
// answers, so a 200 is sent only once the store has the change, and a failed commit answers an
// error. A synchronous store (SQLite) has committed before track() returns.

/**
 * The writes of changes not yet known to be committed. A write that succeeds is forgotten; one
 * that fails is kept until settled() reports it, so the route that made the change (or the next
 * one) answers the error rather than 200.
 */
export class PendingWrites {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly failed = new Map<Promise<unknown>, Error>();

  constructor(private readonly onFailure: (error: Error) => void) {}

  /** Runs one write; a synchronous store's refusal is thrown at once, as it always was. */
  track(write: () => unknown): void {
    const result = write();
    if (!(result instanceof Promise)) return;
    this.pending.add(result);
    result.then(
      () => this.pending.delete(result),
      (e: Error) => {
        this.pending.delete(result);
        this.failed.set(result, e);
        this.onFailure(e);
      },
    );
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    const [first] = this.failed.values();
    this.failed.clear();
    if (first) throw first;
  }
}

