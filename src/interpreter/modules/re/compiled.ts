// A pattern compiled once for every execution that uses it: parsed, checked, turned into a
// program with its machine, and kept in a bounded cache by (type, text, flags), as CPython's
// re module keeps the patterns it compiled.
import type { Budget } from "../../budget.js";
import { pyError } from "../../errors.js";
import { PyBytes, type Value } from "../../values.js";
import { reError } from "./error.js";
import { FlagsError, NestingError, OverflowMarker, parse } from "./parse.js";
import { compile, MAX_INSTRUCTIONS, type Program, TooLargeError } from "./program.js";
import { Machine } from "./vm.js";

export interface Compiled {
  /** The pattern as the script gave it: a str or bytes. */
  readonly source: Value;
  readonly istext: boolean;
  readonly flags: number;
  readonly groups: number;
  readonly groupIndex: ReadonlyMap<string, number>;
  /** Group index to name. */
  readonly groupNames: ReadonlyMap<number, string>;
  readonly program: Program;
  readonly machine: Machine;
  /** What it holds in the heap, charged to the execution that compiles it. */
  readonly bytes: number;
}

/** What finding a compiled pattern in the cache costs, in steps (its text's hash and comparison aside). */
const LOOKUP_STEPS = 4;
/** What parsing costs per character of the pattern, in steps. */
const STEPS_PER_CHAR = 10;

/** The most patterns kept (CPython keeps 512), and the most memory they may hold together. */
const CACHE_SIZE = 256;
const CACHE_BYTES = 64 << 20;
const cache = new Map<string, Compiled>();
let cacheBytes = 0;

/** re.purge(): forgets the compiled patterns. */
export function purgeCache(): void {
  cache.clear();
  cacheBytes = 0;
}

/** Keeps `compiled`, forgetting the least recently used patterns to stay within the bounds. */
function keep(key: string, compiled: Compiled): void {
  if (compiled.bytes > CACHE_BYTES / 8) return;
  while (cache.size > 0 && (cache.size >= CACHE_SIZE || cacheBytes + compiled.bytes > CACHE_BYTES)) {
    const [oldest, old] = cache.entries().next().value!;
    cache.delete(oldest);
    cacheBytes -= old.bytes;
  }
  cache.set(key, compiled);
  cacheBytes += compiled.bytes;
}

/** The characters of a pattern: a str's code points, or a character per byte. */
export function patternText(source: string | PyBytes): { chars: string[]; text: string } {
  if (typeof source === "string") return { chars: Array.from(source), text: source };
  const chars = Array.from(source.bytes, (b) => String.fromCharCode(b));
  return { chars, text: chars.join("") };
}

/**
 * The compiled form of `source` under `flags`, from the cache or made now: parsing and compiling
 * are charged to `budget` (steps per character of the pattern and per instruction), the
 * program's memory too when it is made.
 */
export function compilePattern(source: string | PyBytes, flags: number, budget: Budget): Compiled {
  const istext = typeof source === "string";
  const key = istext ? `s${flags}:${source}` : `b${flags}:${Array.from(source.bytes).join(",")}`;
  budget.step(LOOKUP_STEPS + (key.length >> 4));
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const { chars } = patternText(source);
  budget.step(STEPS_PER_CHAR * chars.length);
  const compiled = build(source, chars, istext, flags, budget);
  budget.alloc(compiled.bytes);
  keep(key, compiled);
  return compiled;
}

function build(source: string | PyBytes, chars: string[], istext: boolean, flags: number, budget: Budget): Compiled {
  try {
    const parsed = parse(chars, istext, source, flags);
    const program = compile(parsed, budget);
    const machine = new Machine(program);
    const groupNames = new Map<number, string>();
    for (const [name, index] of parsed.groupIndex) groupNames.set(index, name);
    return {
      source,
      istext,
      flags: parsed.flags,
      groups: parsed.groups,
      groupIndex: parsed.groupIndex,
      groupNames,
      program,
      machine,
      bytes: 256 + 16 * program.size + machine.heapBytes() + 64 * parsed.groupIndex.size,
    };
  } catch (e) {
    if (e instanceof FlagsError) throw pyError("ValueError", e.message);
    if (e instanceof OverflowMarker) throw pyError("OverflowError", e.message);
    if (e instanceof NestingError) throw pyError("RecursionError", "maximum recursion depth exceeded");
    if (e instanceof TooLargeError) {
      throw reError(
        `pattern too large for the sandbox's regex engine: it needs ${e.instructions > MAX_INSTRUCTIONS * 100 ? "far more than" : "about"} ${Math.min(e.instructions, MAX_INSTRUCTIONS * 100)} instructions, at most ${MAX_INSTRUCTIONS} are allowed (large repeat counts {m,n} multiply the size of what they repeat)`,
      );
    }
    throw e;
  }
}
