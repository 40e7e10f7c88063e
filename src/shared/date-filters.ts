/**
 * The lists' date filters (ETA, ATA, last free day, created, sent): calendar days given as they
 * are (`{ from, to }`), or days counted from today (`{ preset: 'today' }`, `{ next: 5 }`,
 * `{ last: 7 }`), or, for a date that is due (ETA, last free day), "overdue" alone or beside
 * the next days (`{ next: 5, overdue: true }`). A saved view or a link keeps the value as given,
 * so "next 5 days" is the next 5 days whenever it is opened; the core turns it into days when
 * it queries, at its clock and in the user's time zone (`resolveDays`).
 *
 * "Next N days" is today and the N days after it (what is at most N days away), as a box is
 * "due within 3 days" on the Pickup column when its last free day is at most 3 days off;
 * "last N days" likewise looks back. "This week" runs Monday to Sunday.
 */
import { z } from 'zod';
import { endOfLocalDay, localDate } from './zoned-time';

/** Presets a due date takes: what is overdue (per field: past its date and not done), today, this week. */
export const duePresets = ['overdue', 'today', 'thisWeek'] as const;
/** Presets a date in the past (an arrival, a request made) takes. */
export const pastPresets = ['today', 'thisWeek'] as const;
export type DaysPreset = (typeof duePresets)[number];

/** The most days a "next" or "last" counts (a year). */
export const MAX_DAY_COUNT = 366;
const dayCount = z
  .number({ error: 'Give a number of days.' })
  .int('Give whole days.')
  .min(1, 'At least 1 day.')
  .max(MAX_DAY_COUNT, `At most ${MAX_DAY_COUNT} days.`);
const day = z.iso.date({ error: 'A day is written YYYY-MM-DD.' });

const between = z
  .object({ from: day.optional(), to: day.optional() })
  .strict()
  .refine((r) => r.from !== undefined || r.to !== undefined, 'Give the first or the last day')
  .refine((r) => r.from === undefined || r.to === undefined || r.from <= r.to, 'The first day is after the last');
const last = z.object({ last: dayCount }).strict();

/** A due date's filter: ETA, last free day. */
export const dueDaysSchema = z.union([
  z.object({ preset: z.enum(duePresets) }).strict(),
  z.object({ next: dayCount, overdue: z.literal(true).optional() }).strict(),
  last,
  between,
]);
/** A past date's filter: ATA, created, sent. */
export const pastDaysSchema = z.union([z.object({ preset: z.enum(pastPresets) }).strict(), last, between]);

export type DaysFilter = z.infer<typeof dueDaysSchema>;

/** Calendar days, both included; null: open at that end. */
export interface DayRange {
  first: string | null;
  last: string | null;
}

/** What a date filter asks at a moment: days (none when only "overdue"), and whether overdue ones count too. */
export interface ResolvedDays {
  days: DayRange | null;
  overdue: boolean;
}

/** YYYY-MM-DD `n` calendar days after `date` (before, when negative). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Monday of the week `date` falls in. */
function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(date, -((weekday + 6) % 7));
}

/** The days a filter means at `now` (epoch ms) in `zone`'s calendar. */
export function resolveDays(value: DaysFilter, now: number, zone: string): ResolvedDays {
  const today = localDate(now, zone);
  if ('preset' in value) {
    switch (value.preset) {
      case 'overdue':
        return { days: null, overdue: true };
      case 'today':
        return { days: { first: today, last: today }, overdue: false };
      case 'thisWeek': {
        const monday = mondayOf(today);
        return { days: { first: monday, last: addDays(monday, 6) }, overdue: false };
      }
    }
  }
  if ('next' in value)
    return { days: { first: today, last: addDays(today, value.next) }, overdue: value.overdue === true };
  if ('last' in value) return { days: { first: addDays(today, -value.last), last: today }, overdue: false };
  return { days: { first: value.from ?? null, last: value.to ?? null }, overdue: false };
}

/** The instant a calendar day starts in `zone`. */
export function startOfLocalDay(date: string, zone: string): number {
  return endOfLocalDay(addDays(date, -1), zone);
}

/** Days as instants in `zone`: from the first day's start, to the last day's end (excluded); null where open. */
export function instantsOf(days: DayRange, zone: string): { from: string | null; until: string | null } {
  return {
    from: days.first === null ? null : new Date(startOfLocalDay(days.first, zone)).toISOString(),
    until: days.last === null ? null : new Date(endOfLocalDay(days.last, zone)).toISOString(),
  };
}
