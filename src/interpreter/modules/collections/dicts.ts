// What collections' dict subclasses (Counter, defaultdict, OrderedDict) share: filling one as
// dict() fills a dict, storing an entry with its charge, dict's own equality, and copying.
import type { Budget } from "../../budget.js";
import { pyError } from "../../errors.js";
import { updateDict } from "../../methods/containers.js";
import type { Kwargs, NativeContext } from "../../native.js";
import { equals, hashOf } from "../../ops.js";
import { entrySize, MAP_ENTRY } from "../../sizes.js";
import type { Pending } from "../../objects.js";
import { PyDict, type Value } from "../../values.js";

/**
 * `d` filled as `dict(*args, **kwargs)` fills a dict: a mapping or an iterable of pairs, then the
 * keywords. `tooMany` words the error for more than one positional argument.
 */
export function fillDict(ctx: NativeContext, d: PyDict, args: readonly Value[], kwargs: Kwargs | null, tooMany: (n: number) => string): undefined | Pending {
  if (args.length > 1) throw pyError("TypeError", tooMany(args.length));
  if (kwargs) ctx.budget.alloc(MAP_ENTRY * kwargs.size);
  return updateDict(ctx, d, args[0], kwargs, "dictionary");
}

/** `d[key] = value`, charging the entry when the key is new. */
export function store(budget: Budget, d: PyDict, key: Value, value: Value): void {
  if (!d.map.has(hashOf(key, budget))) budget.alloc(entrySize(key, value));
  d.set(key, value);
}

/** Every entry of `source` into `target` (which starts empty, or takes them over), charged. */
export function copyEntries(budget: Budget, target: PyDict, source: PyDict): void {
  budget.step(source.size);
  budget.alloc(MAP_ENTRY * source.size);
  target.update(source);
}

/** dict's `==`, regardless of order or subclass (what a subclass's `__eq__` falls back to). */
export function dictEquals(a: PyDict, b: PyDict): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a.map) {
    const w = b.map.get(k);
    if (w === undefined || (w !== v && !equals(v, w))) return false;
  }
  return true;
}
