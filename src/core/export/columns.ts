/**
 * Column definitions for exports, and the time helpers that turn instants into cells a customer
 * can read in Excel. Nothing here knows where rows come from.
 */

/** What a column may produce for one row. Arrays become one cell, joined with "; ". */
export type CellValue = string | number | boolean | null | undefined | Date | readonly string[];

export interface ExportColumn<Row> {
  /** The API field name, written as the header when the header style is 'keys'. */
  key: string;
  /** The header a person reads; the default header style. */
  header: string;
  value: (row: Row) => CellValue;
  /**
   * Set by timestamp() and dateOnly(), whose text is made here (digits, dashes, colons, a zone
   * abbreviation from Intl): nothing in it to remove, quote or neutralise. writeCsv then takes
   * text that starts with a digit as it is, without scanning it; anything else is checked.
   */
  plain?: boolean;
  /**
   * Set by timestamp() and dateOnly(): what the cell's text is, so the XLSX writer makes it a
   * real Excel date (a serial number with a date format) instead of text: an instant in UTC
   * (`utc`, to the second), on the wall clock of the row's place (`local`, to the minute), or a
   * calendar date (`date`).
   */
  date?: 'utc' | 'local' | 'date';
}

/**
 * An instant as the store or the API may hold it: a Date, epoch milliseconds, or ISO 8601 text
 * with `Z` or an offset. Text without a zone is refused (the cell stays empty) rather than
 * guessed: JavaScript would read it in the computer's zone, and SQLite's `datetime()` writes UTC.
 */
export type InstantInput = Date | number | string | null | undefined;

/** Reads a row's IANA time zone, e.g. the port's `America/Los_Angeles`. */
export type ZoneOf<Row> = (row: Row) => string | null | undefined;

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * `2026-03-01T14:05:00Z`, the store's own form (what /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/
 * accepts), checked by character codes: two in five cells of a shipment ask, and a regex
 * call cost more than the check.
 */
function isCanonicalUtc(text: string): boolean {
  return (
    text.length === 20 &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 84 &&
    text.charCodeAt(13) === 58 &&
    text.charCodeAt(16) === 58 &&
    text.charCodeAt(19) === 90 &&
    allDigits(text, 0, 4) &&
    allDigits(text, 5, 7) &&
    allDigits(text, 8, 10) &&
    allDigits(text, 11, 13) &&
    allDigits(text, 14, 16) &&
    allDigits(text, 17, 19)
  );
}

/**
 * Epoch milliseconds of `input`, or undefined when it is missing or not unambiguous (as
 * parseInstant, without a Date object; the store's own UTC text is read by arithmetic).
 */
function instantMs(input: InstantInput): number | undefined {
  let ms: number;
  if (typeof input === 'string') {
    if (isCanonicalUtc(input)) return canonicalUtcMs(input);
    if (!ISO_WITH_ZONE.test(input)) return undefined;
    ms = Date.parse(input);
  } else if (typeof input === 'number') ms = new Date(input).getTime();
  else if (input instanceof Date) ms = input.getTime();
  else return undefined;
  return Number.isNaN(ms) ? undefined : ms;
}

const digits2 = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * `2026-03-01T14:05:00Z` (already checked by isCanonicalUtc) as epoch milliseconds, by
 * arithmetic: four times cheaper than Date.parse, which still judges anything outside the
 * plain ranges (a day the month lacks, 24:00:00, years before 100) so the result is always its own.
 */
function canonicalUtcMs(text: string): number | undefined {
  const year = digits2(text, 0) * 100 + digits2(text, 2);
  const month = digits2(text, 5);
  const day = digits2(text, 8);
  const hour = digits2(text, 11);
  const minute = digits2(text, 14);
  const second = digits2(text, 17);
  // Date.UTC reads years 0-99 as 1900-1999.
  if (
    year < 100 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    (day > 28 && day > daysInMonth(year, month)) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return (daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second) * 1000;
}

/** The days of `month` (1-12) of a proleptic Gregorian `year`. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (year >= 100, month 1-12, a day it has),
 * what Date.UTC gives divided by a day, by arithmetic alone (H. Hinnant's days_from_civil).
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The instant `input` stands for, or undefined when it is missing or not unambiguous. */
export function parseInstant(input: InstantInput): Date | undefined {
  let date: Date;
  if (input instanceof Date) date = input;
  else if (typeof input === 'number') date = new Date(input);
  else if (typeof input === 'string' && ISO_WITH_ZONE.test(input)) date = new Date(Date.parse(input));
  else return undefined;
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `2026-03-01T14:05:00Z`: ISO 8601 in UTC to the second, which Excel and scripts both read. */
export function formatUtc(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  return `${date.toISOString().slice(0, 19)}Z`;
}

// Intl is exact but costs microseconds a call, which dominates an export with a few timestamp
// columns. A zone's offset changes at most once in a day, so the offset is read from Intl
// at the start of each UTC day (once per zone and day: a day's end is the next one's start);
// when a day starts and the next one starts with the same offset the day is steady and a
// cell is plain arithmetic. On a day with a change the minute it happens is found by halving
// (eleven more reads, once per zone and day), checked from the millisecond before, and the day
// is two steady parts; one whose change is not on a whole minute is formatted by Intl itself.
interface SteadyDay {
  offsetMs: number;
  zoneName: string;
  /** ` PST`: what follows the time in a cell. */
  suffix: string;
}
/** A day whose offset or zone name changes once, at `at` (a whole minute). */
interface ChangeDay {
  at: number;
  before: SteadyDay;
  after: SteadyDay;
}
interface ZoneClock {
  formatter: Intl.DateTimeFormat;
  days: Map<number, SteadyDay | ChangeDay | null>;
  /** The offset and zone name at the first minute of each UTC day read so far. */
  dayStarts: Map<number, SteadyDay>;
}
interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  zoneName: string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
// Bad zone names are remembered as null so they are not retried on every row.
const zoneClocks = new Map<string, ZoneClock | null>();
const MAX_CACHED_ZONES = 1000;
const MAX_CACHED_DAYS = 5000;

// The two zones last asked for: a row's local columns take turns between two zones (the port of
// lading's, the port of discharge's), and this saves hashing their text again (a Map lookup by a
// fresh string was an eighth of a local cell; with one zone kept, two a row still missed).
let lastZone: string | undefined;
let lastClock: ZoneClock | undefined;
let otherZone: string | undefined;
let otherClock: ZoneClock | undefined;

function getZoneClock(zone: string | null | undefined): ZoneClock | undefined {
  // An undefined timeZone would silently mean the computer's own zone: never what a row meant.
  if (typeof zone !== 'string') return undefined;
  if (zone === lastZone) return lastClock;
  const clock = zone === otherZone ? otherClock : findZoneClock(zone);
  otherZone = lastZone;
  otherClock = lastClock;
  lastZone = zone;
  lastClock = clock;
  return clock;
}

function findZoneClock(zone: string): ZoneClock | undefined {
  let clock = zoneClocks.get(zone);
  if (clock === undefined) {
    if (zone.trim() === '') return undefined;
    try {
      // en-US gives the familiar abbreviations (PST, EDT) for North American zones and an
      // unambiguous "GMT+8" elsewhere, rather than a locale's invented or clashing names.
      const formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      });
      clock = { formatter, days: new Map(), dayStarts: new Map() };
    } catch {
      clock = null;
    }
    if (zoneClocks.size >= MAX_CACHED_ZONES) zoneClocks.clear();
    zoneClocks.set(zone, clock);
  }
  return clock ?? undefined;
}

function readWallClockFromIntl(formatter: Intl.DateTimeFormat, ms: number): WallClock {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatter.formatToParts(ms)) parts[part.type] = part.value;
  const { year = '', month = '', day = '', hour = '', minute = '', timeZoneName = '' } = parts;
  return { year, month, day, hour, minute, zoneName: timeZoneName };
}

/**
 * The wall clock from `format` (`03/01/2026, 06:05 PST`), a third of formatToParts' cost: a
 * zone's offset is read from Intl once per UTC day, a few thousand times in a large export.
 * Any text not of that exact shape (a year before 1000, a locale data change) takes the parts.
 */
function readWallClockFromText(formatter: Intl.DateTimeFormat, ms: number): WallClock {
  const text = formatter.format(ms);
  if (
    text.length > 18 &&
    text.charCodeAt(2) === 47 &&
    text.charCodeAt(5) === 47 &&
    text.charCodeAt(10) === 44 &&
    text.charCodeAt(11) === 32 &&
    text.charCodeAt(14) === 58 &&
    text.charCodeAt(17) === 32 &&
    allDigits(text, 0, 2) &&
    allDigits(text, 3, 5) &&
    allDigits(text, 6, 10) &&
    allDigits(text, 12, 14) &&
    allDigits(text, 15, 17)
  ) {
    return {
      year: text.slice(6, 10),
      month: text.slice(0, 2),
      day: text.slice(3, 5),
      hour: text.slice(12, 14),
      minute: text.slice(15, 17),
      zoneName: text.slice(18),
    };
  }
  return readWallClockFromIntl(formatter, ms);
}

function allDigits(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function readOffset(formatter: Intl.DateTimeFormat, ms: number): SteadyDay {
  const c = readWallClockFromText(formatter, ms);
  const local = Date.UTC(Number(c.year), Number(c.month) - 1, Number(c.day), Number(c.hour), Number(c.minute));
  return { offsetMs: local - Math.floor(ms / MINUTE) * MINUTE, zoneName: c.zoneName, suffix: ` ${c.zoneName}` };
}

function getDayStart(clock: ZoneClock, dayIndex: number): SteadyDay {
  let start = clock.dayStarts.get(dayIndex);
  if (start === undefined) {
    start = readOffset(clock.formatter, dayIndex * DAY);
    if (clock.dayStarts.size >= MAX_CACHED_DAYS) clock.dayStarts.clear();
    clock.dayStarts.set(dayIndex, start);
  }
  return start;
}

const sameClock = (a: SteadyDay, b: SteadyDay) => a.offsetMs === b.offsetMs && a.zoneName === b.zoneName;

function readDay(clock: ZoneClock, dayIndex: number): SteadyDay | ChangeDay | null {
  // A change exactly at the next midnight UTC makes this a change day too: found all the same.
  const first = getDayStart(clock, dayIndex);
  const next = getDayStart(clock, dayIndex + 1);
  if (sameClock(first, next)) return first;
  const start = dayIndex * DAY;
  let before = 0;
  let after = DAY / MINUTE;
  while (after - before > 1) {
    const middle = (before + after) >> 1;
    if (sameClock(readOffset(clock.formatter, start + middle * MINUTE), next)) after = middle;
    else before = middle;
  }
  const at = start + after * MINUTE;
  // The millisecond before must still read as the day began: otherwise the change is not on a
  // whole minute, or there were two in the day.
  return sameClock(readOffset(clock.formatter, at - 1), first) ? { at, before: first, after: next } : null;
}

/** The offset and zone name in force at `ms`, or null when only Intl can tell. */
function getSteadyDay(clock: ZoneClock, ms: number): SteadyDay | null {
  const dayIndex = Math.floor(ms / DAY);
  let day = clock.days.get(dayIndex);
  if (day === undefined) {
    day = readDay(clock, dayIndex);
    if (clock.days.size >= MAX_CACHED_DAYS) clock.days.clear();
    clock.days.set(dayIndex, day);
  }
  if (day === null || !('at' in day)) return day;
  return ms < day.at ? day.before : day.after;
}

const twoDigits = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const pad2 = (n: number) => twoDigits[n] ?? String(n).padStart(2, '0');

function readWallClock(date: Date, zone: string | null | undefined): WallClock | undefined {
  const clock = getZoneClock(zone);
  const ms = date.getTime();
  if (clock === undefined || Number.isNaN(ms)) return undefined;
  const steady = getSteadyDay(clock, ms);
  if (steady === null) return readWallClockFromIntl(clock.formatter, ms);
  const local = new Date(Math.floor(ms / MINUTE) * MINUTE + steady.offsetMs);
  return {
    year: String(local.getUTCFullYear()),
    month: pad2(local.getUTCMonth() + 1),
    day: pad2(local.getUTCDate()),
    hour: pad2(local.getUTCHours()),
    minute: pad2(local.getUTCMinutes()),
    zoneName: steady.zoneName,
  };
}

/**
 * `2026-03-01 06:05 PST`: the instant on the wall clock of `zone`. The abbreviation is kept
 * because it tells apart the two 01:30s of the night the clocks go back. Empty when the zone
 * is missing or unknown: a wrong local time is worse than none.
 */
export function formatInZone(date: Date, zone: string | null | undefined): string {
  return formatMsInZone(date.getTime(), zone);
}

function formatMsInZone(ms: number, zone: string | null | undefined): string {
  const clock = getZoneClock(zone);
  if (clock !== undefined && !Number.isNaN(ms)) {
    const steady = getSteadyDay(clock, ms);
    if (steady !== null) {
      // The common case, without a Date: the local day's text is cached, the time is arithmetic.
      const local = Math.floor(ms / MINUTE) * MINUTE + steady.offsetMs;
      const localDay = Math.floor(local / DAY);
      return dayPrefix(localDay) + clockTimes[Math.floor((local - localDay * DAY) / MINUTE)]! + steady.suffix;
    }
  }
  const c = readWallClock(new Date(ms), zone);
  return c === undefined ? '' : `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute} ${c.zoneName}`;
}

/** `14:05` for each minute of a day, so a cell is three ready pieces joined. */
const clockTimes = Array.from({ length: 1440 }, (_, minute) => `${pad2(Math.floor(minute / 60))}:${pad2(minute % 60)}`);

const dayTexts = new Map<number, string>();
/** `2026-03-01 ` (with the space before the time) for a day number since the epoch. */
function dayPrefix(day: number): string {
  let text = dayTexts.get(day);
  if (text === undefined) {
    text = `${new Date(day * DAY).toISOString().slice(0, 10)} `;
    if (dayTexts.size >= MAX_CACHED_DAYS) dayTexts.clear();
    dayTexts.set(day, text);
  }
  return text;
}

/** `2026-03-04`: the calendar date of the instant in `zone`, or empty when the zone is unknown. */
export function formatDateInZone(date: Date, zone: string | null | undefined): string {
  const c = readWallClock(date, zone);
  return c === undefined ? '' : `${c.year}-${c.month}-${c.day}`;
}

function isRealCalendarDate(text: string): boolean {
  const match = CALENDAR_DATE.exec(text);
  if (match === null) return false;
  const [, year, month, day] = match.map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
}

/**
 * Two columns for one instant: UTC (`key`, "ETA (UTC)") for machines and a stable sort, and the
 * same instant on the local clock of the row's place (`key_local`, "ETA (port local time)"),
 * which is how a forwarder and a trucker talk about it. Without `zone`, only the UTC column.
 */
export function timestamp<Row>(
  key: string,
  header: string,
  get: (row: Row) => InstantInput,
  zone?: ZoneOf<Row>,
  options: { place?: string } = {},
): ExportColumn<Row>[] {
  // The UTC column's last text found canonical: the local column beside it reads the same
  // text next and need not check it again.
  let canonical: string | undefined;
  const utc: ExportColumn<Row> = {
    key,
    header: `${header} (UTC)`,
    plain: true,
    date: 'utc',
    value: (row) => {
      const input = get(row);
      // The store already holds UTC to the second: pass it through rather than parse and reprint.
      if (typeof input === 'string' && isCanonicalUtc(input)) {
        canonical = input;
        return input;
      }
      return parseInstant(input);
    },
  };
  if (zone === undefined) return [utc];
  const local: ExportColumn<Row> = {
    key: `${key}_local`,
    header: `${header} (${options.place ?? 'port'} local time)`,
    plain: true,
    date: 'local',
    value: (row) => {
      const input = get(row);
      const ms = input !== undefined && input === canonical ? canonicalUtcMs(input) : instantMs(input);
      return ms === undefined ? undefined : formatMsInZone(ms, zone(row));
    },
  };
  return [utc, local];
}

/**
 * A calendar date such as a last free day (`2026-03-04`). Text already in `YYYY-MM-DD` is a
 * date and is kept as is. An instant (the API gives a last free day as the local midnight, in
 * UTC) needs the place's zone to land on the right day: midnight in Shanghai is the previous
 * day in UTC. With `zone`, an unknown zone leaves the cell empty; without it, UTC is used.
 */
export function dateOnly<Row>(
  key: string,
  header: string,
  get: (row: Row) => InstantInput,
  zone?: ZoneOf<Row>,
): ExportColumn<Row> {
  return {
    key,
    header,
    plain: true,
    date: 'date',
    value: (row) => {
      const input = get(row);
      if (typeof input === 'string' && CALENDAR_DATE.test(input)) {
        return isRealCalendarDate(input) ? input : undefined;
      }
      const instant = parseInstant(input);
      if (instant === undefined) return undefined;
      return zone === undefined ? formatUtc(instant).slice(0, 10) : formatDateInZone(instant, zone(row));
    },
  };
}
