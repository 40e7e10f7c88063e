/**
 * The Changes view as data: its columns (a change's record, kind, value before and after, when it
 * was seen, the shipment's customer and carrier; fitted to a 1366 px screen), its filter chips and how a value reads in a
 * cell or a sentence. Values read as the rest of the app shows them: instants in the zone Settings
 * choose, last free days as calendar dates, statuses and holds as badges in words.
 */
import {
  changeFieldLabels,
  changeFields,
  changeValueKinds,
  type ChangeField,
  type ChangeRow,
  type ChangeValue,
} from '../../../shared/changes';
import { holdLabel } from '../../../shared/labels';
import { containerStatusLabels, type ContainerStatus } from '../../../shared/status';
import { formatCalendarDate, formatMoney } from './format';
import { statusTone } from './lists-containers';
import { date, text, type Cell, type Column, type FilterDef } from './lists-model';

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

/** A change's kind in words, with its hold type ("Hold: Customs"). */
export function changeLabel(change: Pick<ChangeRow, 'field' | 'detail'>): string {
  const label = changeFieldLabels[change.field];
  return change.detail ? `${label}: ${holdLabel(change.detail)}` : label;
}

/** A value as a sentence reads it ('none' when there is none); instants are left to the caller's date formatting. */
export function valueText(field: ChangeField, value: ChangeValue): string {
  if (value === null) return 'none';
  switch (changeValueKinds[field]) {
    case 'date':
      return formatCalendarDate(String(value));
    case 'flag':
      return value === true ? 'Yes' : 'No';
    case 'amount':
      return typeof value === 'number' ? formatMoney(value) : String(value);
    case 'status':
      return containerStatusLabels[value as ContainerStatus] ?? String(value);
    case 'hold':
      return value === 'hold' ? 'On hold' : 'Released';
    default:
      return String(value);
  }
}

/** A value in a cell: a date in the zone Settings choose, a status or hold as a badge, else its words. */
function valueCell(change: ChangeRow, value: ChangeValue): Cell {
  if (value === null) return text('—', { title: 'None' });
  switch (changeValueKinds[change.field]) {
    case 'instant':
      return date(String(value), change.zone);
    case 'status': {
      const status = value as ContainerStatus;
      return { kind: 'status', status, label: valueText(change.field, value), tone: statusTone[status] ?? 'neutral' };
    }
    case 'hold':
      return {
        kind: 'status',
        status: String(value),
        label: valueText(change.field, value),
        tone: value === 'hold' ? 'bad' : 'good',
      };
    default:
      return text(valueText(change.field, value));
  }
}

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
    key: 'change',
    label: 'Change',
    width: 190,
    exportKeys: ['change'],
    cell: (c) => text(changeLabel(c)),
    shownByDefault: true,
  },
  {
    key: 'old',
    label: 'Was',
    width: 198,
    exportKeys: ['old'],
    cell: (c) => valueCell(c, c.old),
    shownByDefault: true,
  },
  {
    key: 'new',
    label: 'Now',
    width: 198,
    exportKeys: ['new'],
    cell: (c) => valueCell(c, c.new),
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
    width: 110,
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

/** A row as a screen reader announces it. */
export function changeRowLabel(change: ChangeRow): string {
  const what = change.resource === 'container' ? 'Container' : 'Shipment';
  return `${what} ${change.number ?? ''}: ${changeLabel(change)}`;
}
