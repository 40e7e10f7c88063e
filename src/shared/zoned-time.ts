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

/** The calendar date of an instant in a zone, YYYY-MM-DD. */
export function localDate(instant: number, zone: string): string {
  return dateFormatter('isoDate', zone).format(instant);
}

/** The instant of local midnight `days` calendar days after the local date of `instant`. */
export function localMidnightAfter(instant: number, zone: string, days: number): number {
  const local = new Date(instant + zoneOffsetMs(instant, zone));
  return localMidnightOf(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days), zone);
}

/** The instant a local calendar date (YYYY-MM-DD) ends in a zone: its next local midnight. */
export function endOfLocalDay(date: string, zone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return localMidnightOf(Date.UTC(y, m - 1, d + 1), zone);
}

/** Local midnight of the date whose UTC midnight is `midnightAsUtc`, settling daylight-saving edges. */
function localMidnightOf(midnightAsUtc: number, zone: string): number {
  let guess = midnightAsUtc;
  for (let i = 0; i < 2; i++) guess = midnightAsUtc - zoneOffsetMs(guess, zone);
  return guess;
}
