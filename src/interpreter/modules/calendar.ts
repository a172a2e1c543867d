// The proleptic Gregorian calendar of Python's datetime: day ordinals (0001-01-01 is day 1),
// weekdays, ISO weeks, and the breakdown of a count of seconds into calendar fields. Pure
// functions on JS numbers: every value they see is bounded by the years 1..9999 (or, for the time
// module, by what a double holds exactly), so nothing here needs bigints.

export const MINYEAR = 1;
export const MAXYEAR = 9999;
/** The ordinal of 9999-12-31. */
export const MAXORDINAL = 3652059;
/** The ordinal of 1970-01-01, the Unix epoch. */
export const EPOCH_ORDINAL = 719163;

export const SECONDS_PER_DAY = 86400;

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

export const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
export const MONTH_NAMES = ["", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

export function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month]!;
}

/** Days in the years before `year` (year 1 has none before it). */
function daysBeforeYear(year: number): number {
  const y = year - 1;
  return y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400);
}

/** Days in the year before the first of `month`. */
function daysBeforeMonth(year: number, month: number): number {
  return DAYS_BEFORE_MONTH[month]! + (month > 2 && isLeap(year) ? 1 : 0);
}

/** The ordinal of a valid date. */
export function ymdToOrd(year: number, month: number, day: number): number {
  return daysBeforeYear(year) + daysBeforeMonth(year, month) + day;
}

const DAYS_IN_400_YEARS = daysBeforeYear(401);
const DAYS_IN_100_YEARS = daysBeforeYear(101);
const DAYS_IN_4_YEARS = daysBeforeYear(5);

/** The (year, month, day) of an ordinal; any integer, not only 1..MAXORDINAL (the time module's years). */
export function ordToYmd(ordinal: number): [number, number, number] {
  // Peel 400-, 100-, 4- and 1-year cycles off the days since 0001-01-01.
  let n = ordinal - 1;
  const n400 = Math.floor(n / DAYS_IN_400_YEARS);
  n -= n400 * DAYS_IN_400_YEARS;
  const n100 = Math.floor(n / DAYS_IN_100_YEARS);
  n -= n100 * DAYS_IN_100_YEARS;
  const n4 = Math.floor(n / DAYS_IN_4_YEARS);
  n -= n4 * DAYS_IN_4_YEARS;
  const n1 = Math.floor(n / 365);
  n -= n1 * 365;
  const year = n400 * 400 + n100 * 100 + n4 * 4 + n1 + 1;
  // The last day of a 4- or 400-year cycle: December 31st of the leap year that ends it.
  if (n1 === 4 || n100 === 4) return [year - 1, 12, 31];
  const leap = n1 === 3 && (n4 !== 24 || n100 === 3);
  // A first guess of the month, at most one too high.
  let month = (n + 50) >> 5;
  let before = DAYS_BEFORE_MONTH[month]! + (month > 2 && leap ? 1 : 0);
  if (before > n) {
    month -= 1;
    before -= month === 2 && leap ? 29 : DAYS_IN_MONTH[month]!;
  }
  return [year, month, n - before + 1];
}

/** Monday 0 .. Sunday 6. */
export function weekdayOf(ordinal: number): number {
  return (((ordinal + 6) % 7) + 7) % 7;
}

/** The day of the year, 1 on January 1st. */
export function dayOfYear(year: number, month: number, day: number): number {
  return daysBeforeMonth(year, month) + day;
}

/** The ordinal of the Monday of ISO week 1 of `year` (the week holding January 4th). */
function isoWeek1Monday(year: number): number {
  const firstDay = ymdToOrd(year, 1, 1);
  const firstWeekday = weekdayOf(firstDay);
  return firstDay - firstWeekday + (firstWeekday > 3 ? 7 : 0);
}

/** ISO year, week and weekday (1..7) of a date. */
export function isoCalendar(year: number, month: number, day: number): [number, number, number] {
  const ordinal = ymdToOrd(year, month, day);
  let isoYear = year;
  let offset = ordinal - isoWeek1Monday(isoYear);
  if (offset < 0) {
    isoYear -= 1;
    offset = ordinal - isoWeek1Monday(isoYear);
  }
  let week = Math.floor(offset / 7);
  if (week >= 52 && ordinal >= isoWeek1Monday(isoYear + 1)) {
    isoYear += 1;
    week = 0;
  }
  return [isoYear, week + 1, (offset % 7) + 1];
}

/**
 * The ordinal of an ISO (year, week, weekday), or the reason it is invalid, as date.fromisocalendar
 * words it: the year must be 1..9999, the week 1..52 (53 in long years), the weekday 1..7.
 */
export function isoToOrdinal(year: number, week: number, weekday: number): number | string {
  if (year < MINYEAR || year > MAXYEAR) return `Year is out of range: ${year}`;
  if (week <= 0 || week >= 53) {
    let valid = false;
    if (week === 53) {
      // A long year starts on a Thursday, or is a leap year starting on a Wednesday.
      const first = weekdayOf(ymdToOrd(year, 1, 1));
      valid = first === 3 || (first === 2 && isLeap(year));
    }
    if (!valid) return `Invalid week: ${week}`;
  }
  if (weekday <= 0 || weekday >= 8) return `Invalid day: ${weekday} (range is [1, 7])`;
  return isoWeek1Monday(year) + (week - 1) * 7 + (weekday - 1);
}

/** Calendar fields of a moment, as `struct tm` has them (month 1..12, weekday Monday 0). */
export interface CalendarFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Monday 0 .. Sunday 6. */
  weekday: number;
  /** 1..366. */
  yday: number;
}

/** The fields of `seconds` counted from 1970-01-01 00:00 (an integer; any sign). */
export function fieldsOfSeconds(seconds: number): CalendarFields {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  let rest = seconds - days * SECONDS_PER_DAY;
  const ordinal = EPOCH_ORDINAL + days;
  const [year, month, day] = ordToYmd(ordinal);
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  return { year, month, day, hour, minute, second: rest - minute * 60, weekday: weekdayOf(ordinal), yday: dayOfYear(year, month, day) };
}

/** Seconds from 1970-01-01 00:00 to a moment given by its fields (the inverse of fieldsOfSeconds). */
export function secondsOfFields(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  return (daysFromEpoch(year, month, day) * 24 + hour) * 3600 + minute * 60 + second;
}

/** Days from 1970-01-01 to a date of any year (month 1..12, day 1..31). */
export function daysFromEpoch(year: number, month: number, day: number): number {
  return daysBeforeYear(year) + daysBeforeMonth(year, month) + day - EPOCH_ORDINAL;
}
