// Local time in a zone with daylight saving time (America/New_York, set for this file's process
// and inherited by python3): the folds and gaps of datetime.timestamp(), fromtimestamp() and
// astimezone(), and time's localtime, mktime and zone constants, against CPython.
process.env.TZ = "America/New_York";

import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { cpython } from "../cpython.js";

const HEADER = "import time as T\nfrom datetime import date, datetime, time, timedelta, timezone\n";

const PROGRAMS = [
  `print(T.tzname, T.timezone, T.altzone, T.daylight)`,
  // The spring gap (02:00-03:00 does not exist) and the autumn fold (01:00-02:00 happens twice).
  `for args in [(2024, 3, 10, 2, 30), (2024, 3, 10, 1, 59), (2024, 3, 10, 3, 0), (2024, 11, 3, 1, 30), (2024, 11, 3, 0, 59), (2024, 11, 3, 2, 0), (2024, 7, 1, 12), (2024, 1, 1, 12)]:
    for fold in (0, 1):
        d = datetime(*args, fold=fold)
        print(repr(d), d.timestamp(), repr(d.astimezone()), repr(datetime.fromtimestamp(d.timestamp())))`,
  `for t in [1710052200, 1710053999, 1710054000, 1730611800, 1730613600, 1730615400, 1730617199, 1730617200, 0, 315360000, 4102444800]:
    print(t, repr(datetime.fromtimestamp(t)), T.localtime(t), T.strftime("%Z %z %c", T.localtime(t)), T.ctime(t))`,
  `for tt in [(2024, 3, 10, 2, 30, 0, 0, 0, -1), (2024, 11, 3, 1, 30, 0, 0, 0, -1), (2024, 11, 3, 1, 30, 0, 0, 0, 0), (2024, 11, 3, 1, 30, 0, 0, 0, 1), (2024, 7, 1, 12, 0, 0, 0, 0, 0), (2024, 1, 1, 12, 0, 0, 0, 0, 1), (2024, 7, 1, 12, 0, 0, 0, 0, -1)]:
    print(tt, T.mktime(tt))`,
  `u = datetime(2024, 11, 3, 5, 30, tzinfo=timezone.utc)
for h in range(4):
    x = (u + timedelta(hours=h)).astimezone()
    print(repr(x), x.tzname(), x.utcoffset(), x.replace(tzinfo=None).timestamp())`,
  `print(datetime(2024, 6, 1).astimezone(timezone.utc), datetime(2024, 12, 1).astimezone(timezone.utc), datetime(2024, 6, 1, 12).strftime("%s"), date(2024, 6, 1).strftime("%s"))`,
  `print(T.localtime(1718000000).tm_zone, T.localtime(1718000000).tm_gmtoff, T.localtime(1700000000).tm_zone, T.localtime(1700000000).tm_isdst)`,
  `print(datetime.fromtimestamp(1730613600).fold, datetime.fromtimestamp(1730610000).fold, datetime(2024, 11, 3, 1, 30, fold=1) == datetime(2024, 11, 3, 1, 30))`,
];

const expected = cpython(PROGRAMS.map((p) => HEADER + p));

describe("local time with daylight saving time agrees with CPython", () => {
  it.each(PROGRAMS.map((p, i) => [p.split("\n")[0]!, i] as const))("%s", async (_first, i) => {
    const theirs = expected[i]!;
    const ours = await execute(HEADER + PROGRAMS[i]!);
    expect({ stdout: ours.stdout, error: ours.error && `${ours.error.type}: ${ours.error.message}` }).toEqual({
      stdout: theirs.stdout,
      error: theirs.error && `${theirs.error.type}: ${theirs.error.message}`,
    });
  });
});
