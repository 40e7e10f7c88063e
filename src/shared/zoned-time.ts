/**
 * Calendar arithmetic in IANA time zones with Intl alone (no date library), shared by the
 * derived container fields and the sandbox. The formatters are the shared ones of date-formatters.ts.
 */
import { dateFormatter } from './date-formatters';

/** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
export function zoneOffsetMs(instant: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of dateFormatter('parts', zone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** A local calendar day in a zone and the instants it runs over: [from, to). */
interface LocalDay {
  date: string;
  from: number;
  to: number;
}

/**
 * Per zone, the days last asked about: a page of containers asks about a few, the dashboard's
 * arrivals 28 in no order. With 8 kept, those 28 missed most of the time and a miss (the date and
 * both its bounds) cost several formattings: 40k arrivals took 570 ms against 90 formatting each;
 * with 64, 25 ms.
 */
const recentDays = new Map<string, LocalDay[]>();
const RECENT_DAYS = 64;
const MAX_ZONES = 512;

/**
 * The calendar date of an instant in a zone, YYYY-MM-DD. Formatting is the cost (a sync derives
 * several dates a container), so the answer is kept with the day's bounds, by zone: another
 * instant within them has the same date, known without formatting.
 */
export function localDate(instant: number, zone: string): string {
  const days = recentDays.get(zone);
  if (days !== undefined) {
    for (const day of days) if (instant >= day.from && instant < day.to) return day.date;
  }
  const date = dateFormatter('isoDate', zone).format(instant);
  if (!Number.isFinite(instant) || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const day = { date, from: localMidnightOf(Date.UTC(y, m - 1, d), zone), to: endOfLocalDay(date, zone) };
  // Kept only when the bounds hold the instant (they always should; a zone's oddity must not stick).
  if (day.from <= instant && instant < day.to) {
    if (days === undefined) {
      if (recentDays.size >= MAX_ZONES) recentDays.clear();
      recentDays.set(zone, [day]);
    } else {
      days.unshift(day);
      if (days.length > RECENT_DAYS) days.pop();
    }
  }
  return date;
}

/** The instant of local midnight `days` calendar days after the local date of `instant`. */
export function localMidnightAfter(instant: number, zone: string, days: number): number {
  const local = new Date(instant + zoneOffsetMs(instant, zone));
  return localMidnightOf(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days), zone);
}

/** Day ends worked out, by zone and date: last free days repeat across a page's containers. */
const dayEnds = new Map<string, number>();
const MAX_DAY_ENDS = 4096;

/** The instant a local calendar date (YYYY-MM-DD) ends in a zone: its next local midnight. */
export function endOfLocalDay(date: string, zone: string): number {
  const key = `${zone}|${date}`;
  let end = dayEnds.get(key);
  if (end === undefined) {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    end = localMidnightOf(Date.UTC(y, m - 1, d + 1), zone);
    if (dayEnds.size >= MAX_DAY_ENDS) dayEnds.clear();
    dayEnds.set(key, end);
  }
  return end;
}

/** Local midnight of the date whose UTC midnight is `midnightAsUtc`, settling daylight-saving edges. */
function localMidnightOf(midnightAsUtc: number, zone: string): number {
  let guess = midnightAsUtc;
  for (let i = 0; i < 2; i++) guess = midnightAsUtc - zoneOffsetMs(guess, zone);
  return guess;
}
