// The JavaScript texts of the JS tier's units, kept across scripts: the function each text
// compiles to, and which texts are known shapes, that a unit of a script's first run may move to
// early (tiering.ts KNOWN_SHAPE_TIER_UP).
//
// A unit's text names no Python name, position or constant (they are the unit's data), so two
// scripts that differ only in their names, or that share a loop's shape, make the same text. One
// function makes the units of both, and V8 keeps one set of type feedback and optimized code for
// all of them: a unit of a known text starts warm, where a new text starts cold in V8.

/** What a unit's text compiles to: given the runtime's names and the unit's constants, its code. */
export type Factory<R, G> = (r: R, c: unknown[]) => G;

/**
 * The factories of the latest MAX_FACTORIES unit texts, the most recently used last. V8 caches
 * `new Function` of an identical text too, but drops entries as its collector runs: in a warm
 * process a new script's unit was then compiled afresh in some runs and not in others (dict
 * counting 22 or 45-75 ms, interleaved with other scripts), and a fresh unit, cold in V8 (two
 * TurboFan compiles of some 13 ms of CPU each), lost to the closures.
 */
const FACTORIES = new Map<string, Factory<never, unknown>>();
const MAX_FACTORIES = 512;

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

/** A unit text's factory, and whether V8 compiled it just now (it has no type feedback yet). */
export interface Made<R, G> {
  factory: Factory<R, G>;
  fresh: boolean;
}

/**
 * The factory of `text` (new Function of its body, with parameters R and C). With `knownOnly`,
 * null when the text is not a known shape: neither compiled before nor seen before. Throws what
 * V8 throws for a text it refuses.
 */
export function factoryOf<R, G>(text: string, knownOnly: boolean): Made<R, G> | null {
  if (!sharing) {
    if (knownOnly) return null;
    texts++;
    // A text of its own: V8's cache of `new Function` texts does not match it either.
    return { factory: new Function("R", "C", `${text}\n// unit ${texts}`) as Factory<R, G>, fresh: true };
  }
  const kept = FACTORIES.get(text) as Factory<R, G> | undefined;
  if (kept !== undefined) {
    FACTORIES.delete(text);
    FACTORIES.set(text, kept);
    return { factory: kept, fresh: false };
  }
  if (knownOnly) {
    const hash = hashOf(text);
    if (!SEEN.delete(hash)) {
      SEEN.add(hash);
      if (SEEN.size > MAX_SEEN) SEEN.delete(SEEN.values().next().value!);
      return null;
    }
  }
  const factory = new Function("R", "C", text) as Factory<R, G>;
  texts++;
  FACTORIES.set(text, factory);
  if (FACTORIES.size > MAX_FACTORIES) FACTORIES.delete(FACTORIES.keys().next().value!);
  return { factory, fresh: true };
}
