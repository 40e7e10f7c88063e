/**
 * The Changes view as data: its columns (a change's record, what happened to it as an event, when
 * it was seen, the shipment's customer and carrier; fitted to a 1366 px screen) and its filter
 * chips. Dates read as the rest of the app shows them: instants in the zone Settings choose, last
 * free days as calendar dates. The raw values before and after are the export's Was and Now.
 */
import { changeFieldLabels, changeFields, type ChangeField, type ChangeRow } from '../../../shared/changes';
import { app } from './app-state.svelte';
import { changeSentence, type EventFormats } from './change-events';
import { displayZone, formatCalendarDate, formatCellCalendarDate, formatCellDateTime, formatDateTime } from './format';
import { date, text, type Column, type FilterDef } from './lists-model';

/** The chips' filters: kinds, customers and carriers (the period is chosen apart). */
export interface ChangeChipFilters {
  fields?: ChangeField[];
  customers?: string[];
  carriers?: string[];
}

export const changeChips: FilterDef<ChangeChipFilters>[] = [
  {
    key: 'fields',
    label: 'Kind',
    kind: 'choices',
    choices: changeFields.map((field) => ({ value: field, label: changeFieldLabels[field] })),
  },
  { key: 'customers', label: 'Customer', kind: 'options', source: 'customers' },
  { key: 'carriers', label: 'Carrier', kind: 'options', source: 'carriers' },
];

export const changeColumns: Column<ChangeRow, 'seen_at'>[] = [
  {
    key: 'number',
    label: 'Container / BL',
    sticky: true,
    width: 134,
    exportKeys: ['number'],
    // A container's shipment is named on hover (and in the CSV).
    cell: (c) =>
      text(c.number ?? '', {
        mono: true,
        title: c.resource === 'shipment' ? 'Shipment' : `Container of BL ${c.billOfLading ?? 'not known'}`,
      }),
    shownByDefault: true,
  },
  {
    key: 'event',
    label: 'What happened',
    // "ETA moved 2.3 days later, to Dec 19, 10:49 PM UTC" whole; the longest read whole on hover.
    width: 440,
    exportKeys: ['change', 'old', 'new'],
    cell: (c) => text(changeSentence(c, cellFormats()), { title: changeSentence(c, fullFormats()) }),
    shownByDefault: true,
  },
  {
    key: 'seen',
    label: 'Seen',
    sort: 'seen_at',
    // "Nov 26, 01:10 PM UTC" whole.
    width: 160,
    exportKeys: ['seen_at'],
    cell: (c) => date(c.seenAt, null),
    shownByDefault: true,
  },
  {
    key: 'customer',
    label: 'Customer',
    width: 170,
    exportKeys: ['customer_name'],
    cell: (c) => text(c.customer ?? ''),
    shownByDefault: true,
  },
  {
    key: 'carrier',
    label: 'Carrier',
    width: 70,
    exportKeys: ['shipping_line_scac'],
    cell: (c) => text(c.carrierScac ?? '', { mono: true }),
    shownByDefault: true,
  },
];

/** Where a change's row leads: its container, or its shipment. */
export function changeTarget(change: ChangeRow): { view: 'shipments' | 'containers'; id: string } {
  return change.resource === 'container'
    ? { view: 'containers', id: change.recordId }
    : { view: 'shipments', id: change.recordId };
}

/** A row as a screen reader announces it: the record and what happened to it. */
export function changeRowLabel(change: ChangeRow): string {
  const what = change.resource === 'container' ? 'Container' : 'Shipment';
  return `${what} ${change.number ?? ''}: ${changeSentence(change, fullFormats())}`;
}

/** Dates in a cell, short (the year only when far off), in the zone Settings choose. */
function cellFormats(): EventFormats {
  return {
    instant: (iso, zone) => formatCellDateTime(iso, displayZone(app.timeDisplay, zone), app.now),
    date: (day) => formatCellCalendarDate(day, app.now),
  };
}

/** Dates whole, for the hover text, a screen reader and a record's page. */
export function fullFormats(): EventFormats {
  return {
    instant: (iso, zone) => formatDateTime(iso, displayZone(app.timeDisplay, zone)),
    date: (day) => formatCalendarDate(day),
  };
}
