/**
 * Dates, numbers and sizes as a forwarder reads them. Every date names its time zone: the
 * laptop's or the port's (Settings > Time display), and a relative form ("in 3 days") carries the
 * exact value for its tooltip.
 */
import { computerTimeZone, dateFormatter, isTimeZone } from '../../../shared/date-formatters';
import type { TimeDisplay } from '../../../shared/types';

const DAY = 86_400_000;

/** The zone a date is shown in: the port's when asked for and known, else this computer's. */
export function displayZone(display: TimeDisplay, portZone: string | null | undefined): string | undefined {
  return display === 'port' && isTimeZone(portZone) ? portZone : undefined;
}

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The key of an instant's text in a zone: its minute, the finest part the list's dates show, so
 * instants within one minute (seconds apart, or written differently: "Z", "+00:00", milliseconds)
 * are formatted once. Every zone's offset and every switch between offsets is in whole minutes.
 */
function minuteKey(date: Date, zone: string | undefined): string {
  return `${zone ?? ''}|${Math.floor(date.getTime() / 60_000)}`;
}

// Lists show the same instants again and again while scrolling: each minute is formatted once.
const dateTimeCache = new Map<string, string>();

/** "20 Dec 2026, 08:13 PST". */
export function formatDateTime(iso: string | null | undefined, zone?: string): string {
  const date = parse(iso);
  if (!date) return '';
  const key = minuteKey(date, zone);
  let text = dateTimeCache.get(key);
  if (text === undefined) {
    text = dateFormatter('dateTime', zone).format(date);
    if (dateTimeCache.size >= 20_000) dateTimeCache.clear();
    dateTimeCache.set(key, text);
  }
  return text;
}

// Lists show the same instants again and again while scrolling: each minute is formatted once.
const cellCache = new Map<string, string>();
const HALF_YEAR = 182 * DAY;

/**
 * A date and time in a list's cell, where room is short: "Dec 20, 08:13 AM PST", the year left
 * out within half a year of now (the whole date is in the cell's hover text), else as
 * `formatDateTime` says it.
 */
export function formatCellDateTime(iso: string | null | undefined, zone?: string, now = Date.now()): string {
  if (!iso) return '';
  const date = parse(iso);
  if (!date) return '';
  if (Math.abs(date.getTime() - now) >= HALF_YEAR) return formatDateTime(iso, zone);
  const key = minuteKey(date, zone);
  let text = cellCache.get(key);
  if (text === undefined) {
    text =
      cellTextInHour(date.getTime(), zone) ??
      cellParts(date.getTime(), zone)
        .map((p) => p.value)
        .join('');
    if (cellCache.size >= 20_000) cellCache.clear();
    cellCache.set(key, text);
  }
  return text;
}

/** A cell's date and time as parts, the year and the separator before it left out. */
function cellParts(instant: number, zone: string | undefined): Intl.DateTimeFormatPart[] {
  const parts = dateFormatter('dateTime', zone).formatToParts(instant);
  const year = parts.findIndex((p) => p.type === 'year');
  // The year and the separator before it ("Dec 20, 2026, 08:13" → "Dec 20, 08:13").
  return parts.filter((_, i) => year < 0 || (i !== year && !(i === year - 1 && parts[i]!.type === 'literal')));
}

/**
 * An hour of cell texts in a zone: what comes before the minutes and after them, the same for every
 * minute of the hour. Or null where that is not so: the zone's hour does not begin with the UTC
 * hour (offsets of :30 and :45), the clocks change within it, or the locale's minutes are not two
 * digits.
 */
interface CellHour {
  before: string;
  after: string;
}
const cellHours = new Map<string, CellHour | null>();
const HOUR = 3_600_000;

/**
 * A list's dates are minutes scattered over weeks: formatting each one was the list's costliest
 * script while scrolling fast. Within a UTC hour whose local text differs only in its minutes
 * (checked at both ends of the hour), a minute's text is the hour's with its minutes put in.
 */
function cellTextInHour(instant: number, zone: string | undefined): string | null {
  const start = Math.floor(instant / HOUR) * HOUR;
  const key = `${zone ?? ''}|${start}`;
  let hour = cellHours.get(key);
  if (hour === undefined) {
    hour = hourOf(start, zone);
    if (cellHours.size >= 20_000) cellHours.clear();
    cellHours.set(key, hour);
  }
  if (hour === null) return null;
  const minute = Math.floor((instant - start) / 60_000);
  return `${hour.before}${minute < 10 ? '0' : ''}${minute}${hour.after}`;
}

function hourOf(start: number, zone: string | undefined): CellHour | null {
  const first = cellParts(start, zone);
  const last = cellParts(start + HOUR - 60_000, zone);
  const at = first.findIndex((p) => p.type === 'minute');
  if (at < 0 || first.length !== last.length || first[at]!.value !== '00' || last[at]!.value !== '59') return null;
  for (let i = 0; i < first.length; i++) {
    if (i !== at && (first[i]!.type !== last[i]!.type || first[i]!.value !== last[i]!.value)) return null;
  }
  const text = (from: number, to: number) =>
    first
      .slice(from, to)
      .map((p) => p.value)
      .join('');
  return { before: text(0, at), after: text(at + 1, first.length) };
}

/** "Sun 20 Dec 2026, 08:13 (America/Los_Angeles, PST)": the tooltip form. */
export function formatExact(iso: string | null | undefined, zone?: string): string {
  const date = parse(iso);
  if (!date) return '';
  return `${dateFormatter('exact', zone).format(date)} · ${zone ?? computerTimeZone()}`;
}

/** The day of an instant on this computer's calendar: "Mon, Nov 23, 2026". */
export function formatDay(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? dateFormatter('day').format(date) : '';
}

/** What a date shows on hover: exact, with its zone's name, and how far off it is. */
export function formatHover(iso: string, zone: string | undefined, estimated: boolean, now: number): string {
  return `${estimated ? 'Estimated: ' : ''}${formatExact(iso, zone)} (${formatRelative(iso, now)})`;
}

/** A calendar date (last free day): "Tue 24 Nov 2026". */
export function formatCalendarDate(date: string | null | undefined): string {
  if (!date || !/^\d{4}-\d{2}-\d{2}/.test(date)) return '';
  const [y, m, d] = date.slice(0, 10).split('-').map(Number) as [number, number, number];
  return dateFormatter('calendarDate').format(new Date(Date.UTC(y, m - 1, d)));
}

/**
 * A calendar date where room is short (a list's last-free-day cell), without its year:
 * "Tue, Nov 24". The whole date goes in the cell's hover text.
 */
export function formatShortCalendarDate(date: string | null | undefined): string {
  if (!date || !/^\d{4}-\d{2}-\d{2}/.test(date)) return '';
  return dateFormatter('chartDay').format(new Date(`${date.slice(0, 10)}T00:00:00Z`));
}

/**
 * A calendar date in a list's cell (a custom date field), as the list's dates read: without its
 * year within half a year of now ("Tue, Nov 24"), else whole ("Tue 24 Nov 2026").
 */
export function formatCellCalendarDate(date: string | null | undefined, now = Date.now()): string {
  if (!date || !/^\d{4}-\d{2}-\d{2}/.test(date)) return '';
  const at = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(at)) return '';
  return Math.abs(at - now) < HALF_YEAR ? formatShortCalendarDate(date) : formatCalendarDate(date);
}

/** A calendar date in a chart, without its year: "Tue, Nov 24". */
export function formatChartDay(date: string): string {
  return dateFormatter('chartDay').format(new Date(`${date}T00:00:00Z`));
}

const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "in 3 days", "2 hours ago", "now". */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  const date = parse(iso);
  if (!date) return '';
  const diff = date.getTime() - now;
  const abs = Math.abs(diff);
  if (abs < 45_000) return 'just now';
  if (abs < 3_600_000) return relativeFormat.format(Math.round(diff / 60_000), 'minute');
  if (abs < DAY) return relativeFormat.format(Math.round(diff / 3_600_000), 'hour');
  if (abs < 45 * DAY) return relativeFormat.format(Math.round(diff / DAY), 'day');
  return relativeFormat.format(Math.round(diff / (30 * DAY)), 'month');
}

/**
 * The countdown beside a last free day, in calendar days where the box waits, as a terminal charges
 * them (and as the demurrage estimate counts them): the deadline is the end of the last free day
 * (its next local midnight), so the day after it is "Overdue 1 day", and "Last day today" while it
 * runs.
 */
export function formatDaysLeft(deadlineIso: string | null | undefined, now = Date.now()): string {
  const date = parse(deadlineIso);
  if (!date) return '';
  const ms = date.getTime() - now;
  if (ms <= 0) {
    const days = Math.floor(-ms / DAY) + 1;
    return `Overdue ${days} day${days === 1 ? '' : 's'}`;
  }
  const days = Math.floor(ms / DAY);
  if (days === 0) return 'Last day today';
  return `${days} day${days === 1 ? '' : 's'} left`;
}

const numberFormat = new Intl.NumberFormat();
export function formatCount(n: number): string {
  return numberFormat.format(n);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatMoney(amount: number | null): string {
  if (amount === null) return '';
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }).format(amount);
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}
