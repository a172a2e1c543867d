// How CPU-bound executions share the event loop. An execution whose slice is used up waits here
// for its next one. Waiting executions run in turns, one turn per event-loop iteration: a turn
// hands out at most TURN_MS of CPU in all, split between the executions it lets run, and those it
// has no room for wait for the next turn, first in line. However many scripts are busy, timers
// and I/O (a `/health` request, a tool result) are served after every turn, about every TURN_MS.

/** The CPU that one turn hands out, to every execution it lets run together. */
export const TURN_MS = 5;
/** The shortest slice an execution is given: below it, suspending and resuming would cost too much. */
export const MIN_SLICE_MS = 0.25;
/** The most executions one turn lets run. */
const PER_TURN = Math.floor(TURN_MS / MIN_SLICE_MS);

/** Executions waiting for a slice, first in line first; each is told the length of its slice. */
const waiting: ((sliceMs: number) => void)[] = [];
let turnScheduled = false;

/**
 * Calls `resolve`, with the slice's length in ms, when the execution may run again; returns what
 * takes it out of the line (an execution that ends while it waits).
 */
export function waitForSlice(resolve: (sliceMs: number) => void): () => void {
  waiting.push(resolve);
  if (!turnScheduled) {
    turnScheduled = true;
    setImmediate(turn);
  }
  return () => {
    const at = waiting.indexOf(resolve);
    if (at >= 0) waiting.splice(at, 1);
  };
}

function turn(): void {
  turnScheduled = false;
  const granted = waiting.splice(0, PER_TURN);
  // The ones left over go first in the next turn; the ones that suspend again in this turn join
  // them (an immediate scheduled now runs in the next iteration of the event loop).
  if (waiting.length) {
    turnScheduled = true;
    setImmediate(turn);
  }
  const slice = TURN_MS / granted.length;
  for (const resolve of granted) resolve(slice);
}

/**
 * The slice of an execution that resumes outside a turn (its first slice, or after a tool call
 * returns), given how many executions may be using the CPU.
 */
export function sliceFor(runnable: number): number {
  return Math.max(MIN_SLICE_MS, TURN_MS / Math.max(1, runnable));
}
