/**
 * A list's date filters (src/shared/date-filters.ts) in words: on their chip, in a printout's
 * filters, and as the days "next 5 days" covers today, so a forwarder sees which days a saved
 * "next 5 days" means on the day it is opened.
 */
import { resolveDays, type DaysFilter } from '../../../shared/date-filters';
import { computerTimeZone } from '../../../shared/date-formatters';
import { formatCalendarDate, formatDay, formatShortCalendarDate } from './format';
import { daysOf, instantOf } from './lists-filters';
import type { DateChip } from './lists-model';

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/** Whether the filter gives its days as dates rather than counting them from today. */
export const isGivenDays = (value: DaysFilter): value is Extract<DaysFilter, { from?: string }> =>
  !('preset' in value) && !('next' in value) && !('last' in value);

/** "Next 5 days", "Overdue or next 5 days", "This week", "Tue, Dec 3, 2026 – Thu, Dec 5, 2026". */
export function daysText(value: DaysFilter, overdue = 'Overdue'): string {
  if ('preset' in value) return value.preset === 'overdue' ? overdue : value.preset === 'today' ? 'Today' : 'This week';
  if ('next' in value) return value.overdue ? `${overdue} or next ${days(value.next)}` : `Next ${days(value.next)}`;
  if ('last' in value) return `Last ${days(value.last)}`;
  const from = value.from ? formatCalendarDate(value.from) : null;
  const to = value.to ? formatCalendarDate(value.to) : null;
  if (from && to) return from === to ? from : `${from} – ${to}`;
  return from ? `From ${from}` : `Until ${to ?? ''}`;
}

/**
 * The days a filter counted from today covers at `now` in this computer's calendar ("Tue, Mar 3 –
 * Sun, Mar 8"); '' for days given as dates or for "overdue" alone.
 */
export function daysHint(value: DaysFilter, now: number, zone = computerTimeZone()): string {
  if (isGivenDays(value)) return '';
  const range = resolveDays(value, now, zone).days;
  if (!range?.first || !range.last) return '';
  const first = formatShortCalendarDate(range.first);
  return range.first === range.last ? first : `${first} – ${formatShortCalendarDate(range.last)}`;
}

/**
 * Why a date field cannot apply yet, or null: half typed (the browser holds no date, or a year
 * such as 0202 while "12/03/202" is typed), or a year outside 2000–2099.
 */
export function typedDayProblem(input: HTMLInputElement | null): string | null {
  if (input === null) return null;
  const text = input.value;
  if (input.validity.badInput) return 'Finish the date: month, day and a 4-digit year.';
  if (text === '') return null;
  const year = Number(text.slice(0, 4));
  const whole = /^\d{4}-\d{2}-\d{2}$/.test(text) && year >= 2000 && year <= 2099;
  return whole ? null : 'Finish the date: month, day and a 4-digit year.';
}

/** A date chip's filter in words: its days, or the instants a link or an older saved view gave. */
export function dateChipText<F>(def: DateChip<F>, filters: F): string {
  const value = daysOf(filters, def);
  if (value) return daysText(value, def.due?.overdue);
  const from = def.from === undefined ? undefined : instantOf(filters, def.from);
  const to = def.to === undefined ? undefined : instantOf(filters, def.to);
  if (!from && !to) return '';
  // A range of whole UTC days (a day of the arrivals chart) reads as those days, in UTC.
  const utcDays = (!from || from.endsWith('T00:00:00.000Z')) && (!to || to.endsWith('T23:59:59.999Z'));
  if (utcDays) {
    const f = from ? formatCalendarDate(from.slice(0, 10)) : '…';
    const t = to ? formatCalendarDate(to.slice(0, 10)) : '…';
    return f === t ? `${f} (UTC)` : `${f} – ${t} (UTC)`;
  }
  return `${from ? formatDay(from) : '…'} – ${to ? formatDay(to) : '…'}`;
}
