// The datetime module of CPython 3.11: date, datetime, time, timedelta, timezone and tzinfo, and
// the constants MINYEAR, MAXYEAR and UTC. Each type is in its own file; this is the module's table.
import type { NativeFn } from "../native.js";
import type { Value } from "../values.js";
import { MAXYEAR, MINYEAR } from "./calendar.js";
import { DATE } from "./datetime-date.js";
import { DATETIME } from "./datetime-datetime.js";
import { TIMEDELTA } from "./datetime-delta.js";
import { TIME } from "./datetime-time.js";
import { TIMEZONE, TZINFO, UTC } from "./datetime-timezone.js";
import { refreshZone } from "./host-time.js";

const DATETIME_MODULE: Record<string, NativeFn | Value> = {
  date: DATE,
  datetime: DATETIME,
  time: TIME,
  timedelta: TIMEDELTA,
  timezone: TIMEZONE,
  tzinfo: TZINFO,
  MINYEAR,
  MAXYEAR,
  UTC,
};

/** `import datetime`: the module's table (the host's zone is looked at again first). */
export function datetimeModule(): Record<string, NativeFn | Value> {
  refreshZone();
  return DATETIME_MODULE;
}
