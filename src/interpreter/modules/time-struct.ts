// time.struct_time: the named tuple of gmtime(), localtime(), strptime() and timetuple(), nine
// fields in the tuple (tm_year .. tm_isdst) and two by name only (tm_zone, tm_gmtoff).
import { pyError } from "../errors.js";
import type { NativeFn } from "../native.js";
import { rewordNotIterable } from "../ops.js";
import { PyDict, type Value } from "../values.js";
import type { Tm } from "./strftime.js";
import { TupleLike, TupleLikeClass } from "./tuple-like.js";

const FIELDS = ["tm_year", "tm_mon", "tm_mday", "tm_hour", "tm_min", "tm_sec", "tm_wday", "tm_yday", "tm_isdst"];
const EXTRAS = ["tm_zone", "tm_gmtoff"];

/** `time.struct_time(sequence, dict=None)`: 9 to 11 items; missing extras from `dict`, else None. */
const construct: NativeFn = (ctx, args, kwargs) => {
  const names = ["sequence", "dict"];
  const given: (Value | undefined)[] = [args[0], args[1]];
  if (args.length > 2) throw pyError("TypeError", `structseq() takes at most 2 arguments (${args.length} given)`);
  for (const [k, v] of kwargs ?? []) {
    const i = names.indexOf(k);
    if (i < 0) throw pyError("TypeError", `'${k}' is an invalid keyword argument for structseq()`);
    if (given[i] !== undefined) throw pyError("TypeError", `argument for structseq() given by name ('${k}') and position (${i + 1})`);
    given[i] = v;
  }
  if (given[0] === undefined) throw pyError("TypeError", "structseq() missing required argument 'sequence' (pos 1)");
  let items: Value[];
  try {
    items = ctx.toList(given[0]);
  } catch (e) {
    throw rewordNotIterable(e, given[0], () => "constructor requires a sequence");
  }
  if (items.length < 9) throw pyError("TypeError", `time.struct_time() takes an at least 9-sequence (${items.length}-sequence given)`);
  if (items.length > 11) throw pyError("TypeError", `time.struct_time() takes an at most 11-sequence (${items.length}-sequence given)`);
  const dict = given[1];
  if (dict !== undefined && dict !== null && !(dict instanceof PyDict)) throw pyError("TypeError", "time.struct_time() takes a dict as second arg, if any");
  const extras = EXTRAS.map((name, i) => items[9 + i] ?? (dict instanceof PyDict ? dict.get(name) : undefined) ?? null);
  return new TupleLike(STRUCT_TIME, items.slice(0, 9), extras);
};

export const STRUCT_TIME = new TupleLikeClass("struct_time", "time", construct, FIELDS, EXTRAS);

/**
 * The struct_time of a tm (weekday and day of year as Python counts them: Monday 0, January 1st
 * 1). `zone` adds tm_zone and tm_gmtoff (gmtime, localtime); timetuple() leaves them None.
 */
export function structTime(tm: Tm, zone = false): TupleLike {
  const items = [tm.year, tm.month, tm.day, tm.hour, tm.minute, tm.second, (tm.wday + 6) % 7, tm.yday + 1, tm.isdst];
  return new TupleLike(STRUCT_TIME, items, zone ? [tm.zone, tm.gmtoff] : [null, null]);
}
