// What one execution has started that outlives a step: its sleeps, tool calls and time slices.
// When the execution ends, for whatever reason, each is released at once: its timer cleared, the
// host told to stop its upstream request, and the continuation that waited on it dropped without
// being settled. Nothing of a finished script then stays reachable (its frames and values are
// collectable) or keeps the process alive, and none of its code runs again.
import { CancelledError } from "./errors.js";

/** Node's timers fire at once past this many milliseconds (a 32-bit overflow). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** setTimeout for any delay (in steps of MAX_TIMER_MS); returns what cancels it. */
export function setLongTimeout(fn: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout;
  const arm = (left: number): void => {
    timer = left > MAX_TIMER_MS ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS) : setTimeout(fn, Math.max(0, left));
  };
  arm(ms);
  return () => clearTimeout(timer);
}

/** Starts a wait: calls back once; returns what releases its resources (a timer, a request). */
export type WaitStart<T> = (resolve: (value: T) => void, reject: (error: unknown) => void) => () => void;

interface Slot {
  /** The promise's settle functions, until it settles or the execution ends. */
  settle: { resolve(value: unknown): void; reject(error: unknown): void } | null;
  release: () => void;
}

const NOTHING = (): void => undefined;

/** Why the host's signal is aborted. */
const ENDED = new CancelledError("the execution has ended");

/**
 * Runs a slot's release, then forgets it: whatever began the wait may keep the slot (through
 * the callbacks it was given) after the execution ended, and the release function's closure can
 * reach the whole execution.
 */
function releaseOf(slot: Slot): void {
  const release = slot.release;
  slot.release = NOTHING;
  release();
}

/** The waits of one execution. */
export class Owned {
  private readonly slots = new Set<Slot>();
  private ended = false;
  /** Made at the first host call: making and aborting one costs more than a trivial execution. */
  private controller: AbortController | null = null;

  /** Aborted when the execution ends: host calls pass it on to stop their upstream request. */
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.ended) this.controller.abort(ENDED);
    return this.controller.signal;
  }

  /**
   * A promise settled through `start`'s callbacks, unless the execution ends first: then it never
   * settles, `start`'s release runs, and the callbacks (which whatever `start` began may still
   * hold) no longer reach the promise or anything waiting on it.
   */
  wait<T>(start: WaitStart<T>): Promise<T> {
    const slot: Slot = { settle: null, release: NOTHING };
    const promise = new Promise<T>((resolve, reject) => {
      slot.settle = { resolve: resolve as (value: unknown) => void, reject };
    });
    if (this.ended) return promise;
    this.slots.add(slot);
    this.begin(slot, start as WaitStart<unknown>);
    return promise;
  }

  /** Separate from wait() so that the callbacks' closure holds the slot only, not the promise's functions. */
  private begin(slot: Slot, start: WaitStart<unknown>): void {
    let release: () => void;
    try {
      release = start(
        (value) => this.settle(slot, true, value),
        (error) => this.settle(slot, false, error),
      );
    } catch (e) {
      this.settle(slot, false, e);
      return;
    }
    // Settled while starting: nothing will call release later.
    if (slot.settle === null) release();
    else slot.release = release;
  }

  private settle(slot: Slot, ok: boolean, outcome: unknown): void {
    const settle = slot.settle;
    if (settle === null) return;
    slot.settle = null;
    this.slots.delete(slot);
    releaseOf(slot);
    if (ok) settle.resolve(outcome);
    else settle.reject(outcome);
  }

  /** How many waits are open (tests). */
  get size(): number {
    return this.slots.size;
  }

  /** The execution has ended: releases every wait still open; later waits never start. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const slot of this.slots) {
      slot.settle = null;
      releaseOf(slot);
    }
    this.slots.clear();
    // An explicit reason: the default, a DOMException, would keep its stack's frames (this
    // execution's Runtime among them) alive as long as a host holds on to the signal.
    this.controller?.abort(ENDED);
  }
}
