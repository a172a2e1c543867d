// The error of both state stores (store.ts, pg-store.ts) and what they share: a problem with the
// database or one of its rows, named.

/** A problem with the database file or one of its rows; `location` names the file and the row. */
export class StoreError extends Error {
  constructor(
    readonly location: string,
    message: string,
  ) {
    super(`${location}: ${message}`);
    this.name = "StoreError";
  }
}
