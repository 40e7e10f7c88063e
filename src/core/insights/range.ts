/**
 * The range an insights request asks about, as the store compares it: the days in the user's
 * zone turned into instants, [start of the first day, end of the last day), and each month of
 * arrival in that zone as its own pair of instants. SQLite knows no zones, so the months come
 * to it as a JSON list of bounds.
 */
import { addDays, startOfLocalDay } from '../../shared/date-filters';
import { endOfLocalDay, localDate } from '../../shared/zoned-time';
import { MAX_INSIGHTS_MONTHS } from '../../shared/insights';
import type { Db } from '../store/database';
import { arrivalSpan } from '../store/queries/insights-arrivals';

export interface MonthBounds {
  /** YYYY-MM */
  m: string;
  /** [f, u): ISO instants */
  f: string;
  u: string;
}

export interface ResolvedRange {
  fromInstant: string | null;
  untilInstant: string | null;
  months: MonthBounds[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Days given (both included) as instants in `zone`, and the months they touch (the latest `MAX_INSIGHTS_MONTHS`). */
export function resolveRange(db: Db, from: string | null, to: string | null, zone: string): ResolvedRange {
  const fromInstant = from === null ? null : iso(startOfLocalDay(from, zone));
  const untilInstant = to === null ? null : iso(endOfLocalDay(to, zone));
  let first = from;
  let last = to;
  if (first === null || last === null) {
    const span = arrivalSpan(db);
    const firstMs = span?.first ? Date.parse(span.first) : NaN;
    const lastMs = span?.last ? Date.parse(span.last) : NaN;
    first ??= Number.isNaN(firstMs) ? null : localDate(firstMs, zone);
    last ??= Number.isNaN(lastMs) ? null : localDate(lastMs, zone);
  }
  return { fromInstant, untilInstant, months: first && last && first <= last ? monthsOf(first, last, zone) : [] };
}

/** Each calendar month from `first`'s to `last`'s (YYYY-MM-DD), as instants in `zone`; the latest ones when many. */
export function monthsOf(first: string, last: string, zone: string): MonthBounds[] {
  const months: MonthBounds[] = [];
  let year = Number(last.slice(0, 4));
  let month = Number(last.slice(5, 7));
  const stop = first.slice(0, 7);
  while (months.length < MAX_INSIGHTS_MONTHS) {
    const m = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
    if (m < stop) break;
    const start = `${m}-01`;
    const next =
      month === 12
        ? `${String(year + 1).padStart(4, '0')}-01-01`
        : `${m.slice(0, 5)}${String(month + 1).padStart(2, '0')}-01`;
    months.push({ m, f: iso(startOfLocalDay(start, zone)), u: iso(endOfLocalDay(addDays(next, -1), zone)) });
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
  return months.reverse();
}
