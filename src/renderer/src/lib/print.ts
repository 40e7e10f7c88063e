/**
 * A list printed (or saved as PDF): every row the filters match, up to `PRINT_CAP`, as plain
 * text cells, with the filters said in words, the time printed and the time zone of its dates.
 */
import { computerTimeZone } from '../../../shared/date-formatters';
import { DEFAULT_TERMINAL_STALE_HOURS, pickupStateLabels, pickupTruth } from '../../../shared/pickup';
import type { ListRow } from '../../../shared/ipc';
import type { FilterOptions, TimeDisplay } from '../../../shared/types';
import { displayZone, formatCalendarDate, formatCount, formatDateTime, formatDaysLeft } from './format';
import { listPage, type ListQuery } from './list-api';
import { customFieldFilterOf, customFieldSummary } from './lists-custom-fields';
import { dateChipText } from './date-filter-text';
import { searchOf, valuesOf } from './lists-filters';
import type { Cell, FilterDef, ListId } from './lists-model';

/** The most rows a printout holds: past it, the forwarder is told to narrow the filters. */
export const PRINT_CAP = 5_000;

/**
 * A cell as print shows it: text only, dates in the zone Settings choose, the pickup answer and
 * the last free day's countdown as the screen gives them (none on terminal data too old to tell).
 */
export function cellText(
  cell: Cell,
  timeDisplay: TimeDisplay,
  now: number,
  staleHours: number = DEFAULT_TERMINAL_STALE_HOURS,
): string {
  switch (cell.kind) {
    case 'text':
      return cell.text;
    case 'date':
      return cell.at
        ? `${formatDateTime(cell.at, displayZone(timeDisplay, cell.zone))}${cell.estimated ? ' (est.)' : ''}`
        : '';
    case 'status':
      return cell.label;
    case 'tags':
      return cell.tags.join(', ');
    case 'lfd': {
      if (!cell.date) return '';
      const unsure = cell.pickup !== undefined && pickupTruth(cell.pickup, now, staleHours).state === 'unknown';
      if (unsure) return `${formatCalendarDate(cell.date)} (data old)`;
      const left = cell.done ? '' : formatDaysLeft(cell.deadline, now);
      return left ? `${formatCalendarDate(cell.date)} (${left})` : formatCalendarDate(cell.date);
    }
    case 'pickup': {
      const truth = pickupTruth(cell.input, now, staleHours);
      if (cell.readyOnly && truth.state !== 'ready') return '';
      return pickupStateLabels[truth.state];
    }
  }
}

/** The filters in words, one phrase per chip ("Status: Available, On hold"), plus the search. */
export function describeFilters<F extends object>(
  def: { filters: readonly FilterDef<F>[] },
  filters: F,
  options: FilterOptions | null,
): string[] {
  const out: string[] = [];
  const search = searchOf(filters);
  if (search) out.push(`Search: “${search}”`);
  for (const chip of def.filters) {
    if (chip.kind === 'range') {
      const days = dateChipText(chip, filters);
      if (days) out.push(`${chip.label}: ${days}`);
    } else if (chip.kind === 'flag') {
      const value: unknown = filters[chip.key];
      if (typeof value === 'boolean') out.push(`${chip.label}: ${value ? chip.yes : chip.no}`);
    } else if (chip.kind === 'customField') {
      const filter = customFieldFilterOf(filters, chip.key.slice('cf.'.length));
      if (filter) out.push(`${chip.label}: ${customFieldSummary(chip.field, filter)}`);
    } else {
      const values = valuesOf(filters, chip.key);
      if (values.length === 0) continue;
      const known = chip.kind === 'choices' ? chip.choices : (options?.[chip.source] ?? []);
      out.push(`${chip.label}: ${values.map((v) => known.find((o) => o.value === v)?.label ?? v).join(', ')}`);
    }
  }
  return out;
}

/** "Times in Europe/Berlin (this computer's zone)" or the ports' zones, as Settings choose. */
export function zoneWords(timeDisplay: TimeDisplay): string {
  return timeDisplay === 'port'
    ? `Times in each port’s local time zone; where a port’s zone is unknown, in ${computerTimeZone()}`
    : `Times in ${computerTimeZone()} (this computer’s time zone)`;
}

/** Every row the query matches, up to `PRINT_CAP`, with whether more matched. */
export async function rowsForPrint<L extends ListId>(
  id: L,
  query: ListQuery<L>,
  cap = PRINT_CAP,
): Promise<{ rows: ListRow<L>[]; capped: boolean }> {
  let rows: ListRow<L>[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await listPage(id, query, {
      limit: Math.min(500, cap + 1 - rows.length),
      ...(after ? { after } : {}),
    });
    rows = rows.concat(page.rows);
    if (rows.length > cap) return { rows: rows.slice(0, cap), capped: true };
    if (page.next === null) return { rows, capped: false };
    after = page.next;
  }
}

export function capMessage(total: number, noun: string, cap = PRINT_CAP): string {
  return `Only the first ${formatCount(cap)} of ${formatCount(total)} ${noun} are printed: narrow the filters to print the rest.`;
}
