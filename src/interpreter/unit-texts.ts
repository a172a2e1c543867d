// The JavaScript texts of the JS tier's units, kept across scripts: the function each text
// compiles to, and which texts are known shapes, that a unit of a script's first run may move to
// early (tiering.ts KNOWN_SHAPE_TIER_UP).
//
// A unit's text names no Python name, position or constant (they are the unit's data), so two
// scripts that differ only in their names, or that share a loop's shape, make the same text. One
// function makes the units of both, and V8 keeps one set of type feedback and optimized code for
// all of them: a unit of a known text starts warm, where a new text starts cold in V8.
import { PyBytes } from "./values.js";

/** What a unit's text compiles to: given the runtime's names and the unit's constants, its code. */
export type Factory<R, G> = (r: R, c: unknown[]) => G;

/** A text's factory, and the last unit it made while that unit's constants were small (see anchored). */
interface Kept {
  factory: Factory<never, unknown>;
  last: unknown;
}

/**
 * The factories of the latest MAX_FACTORIES unit texts, the most recently used last. V8 caches
 * `new Function` of an identical text too, but drops entries as its collector runs: in a warm
 * process a new script's unit was then compiled afresh in some runs and not in others (dict
 * counting 22 or 45-75 ms, interleaved with other scripts), and a fresh unit, cold in V8 (two
 * TurboFan compiles of some 13 ms of CPU each), lost to the closures.
 *
 * Each entry also holds the last unit its factory made. V8 keeps a function's optimized code in
 * the feedback vector that every unit of a text shares, but only weakly: once the units that ran
 * it are garbage (their scripts ended), the next full collection drops the code, and the next
 * script's unit runs unoptimized until TurboFan has compiled it again (25-60 ms of CPU per unit on
 * V8's compiler thread). Measured on bench:interpreter's workloads, each run a new text, after a
 * full collection between the warm-up and the timed runs: 85-87 unit compiles in the 180 timed
 * runs without the last unit held, 11-13 with it, and the process's CPU time 11.9-13.8 ms
 * (geometric mean, four runs) against 14.2-15.3 (two).
 */
const FACTORIES = new Map<string, Kept>();
const MAX_FACTORIES = 512;

/**
 * A unit is held as its text's last only if its constants weigh at most this much (characters of
 * names, bytes of bytes literals, digits of big ints): held, it keeps them alive until the next
 * unit of its text replaces it, and a script's literals must not outlive it by much.
 */
const MAX_HELD_CONSTANTS = 4096;

/**
 * The latest MAX_SEEN texts asked for early and not known then, by hash (a text may be up to
 * 64 KB; two that share a hash only make one move early). A shape seen a second time (in another
 * script, or another loop of this one) is one that recurs: it is compiled then, so that its later
 * units start warm.
 */
const SEEN = new Set<number>();
const MAX_SEEN = 512;

/** The 32-bit FNV-1a hash of `text`'s UTF-16 code units. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

let texts = 0;

/** Off: no text is known or kept, and each unit's code is new to V8 (the bench's shapes never seen). */
let sharing = true;

/** Turns the sharing of unit texts across units off or back on (bench:interpreter, tests). */
export function setTextSharing(on: boolean): void {
  sharing = on;
}

/** How many unit texts this process has had V8 compile (units of a text seen before share its code). */
export function unitTextCount(): number {
  return texts;
}

/** What makes the units of a text, and whether V8 compiled the text just now (it has no type feedback yet). */
export interface Made<R, G> {
  make: (r: R, c: unknown[]) => G;
  fresh: boolean;
}

/**
 * The maker of `text`'s units (new Function of its body, with parameters R and C). With
 * `knownOnly`, null when the text is not a known shape: neither compiled before nor seen before.
 * Throws what V8 throws for a text it refuses.
 */
export function factoryOf<R, G>(text: string, knownOnly: boolean): Made<R, G> | null {
  if (!sharing) {
    if (knownOnly) return null;
    texts++;
    // A text of its own: V8's cache of `new Function` texts does not match it either.
    return { make: new Function("R", "C", `${text}\n// unit ${texts}`) as Factory<R, G>, fresh: true };
  }
  let kept = FACTORIES.get(text);
  const fresh = kept === undefined;
  if (kept !== undefined) {
    FACTORIES.delete(text);
  } else {
    if (knownOnly) {
      const hash = hashOf(text);
      if (!SEEN.delete(hash)) {
        SEEN.add(hash);
        if (SEEN.size > MAX_SEEN) SEEN.delete(SEEN.values().next().value!);
        return null;
      }
    }
    kept = { factory: new Function("R", "C", text) as Factory<never, unknown>, last: null };
    texts++;
  }
  FACTORIES.set(text, kept);
  if (FACTORIES.size > MAX_FACTORIES) FACTORIES.delete(FACTORIES.keys().next().value!);
  const entry = kept;
  const make = (r: R, c: unknown[]): G => {
    const unit = (entry.factory as unknown as Factory<R, G>)(r, c);
    entry.last = anchored(c) ? unit : null;
    return unit;
  };
  return { make, fresh };
}

/** Whether a unit with constants `c` may be held as its text's last (MAX_HELD_CONSTANTS). */
function anchored(c: unknown[]): boolean {
  let weight = 0;
  for (const v of c) {
    if (typeof v === "string") weight += v.length;
    else if (typeof v === "bigint") weight += v.toString(16).length;
    else if (v instanceof PyBytes) weight += v.bytes.length;
    else weight++;
    if (weight > MAX_HELD_CONSTANTS) return false;
  }
  return true;
}
