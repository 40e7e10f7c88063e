/**
 * Reading the change history as the app, the export and the CLI show it: a
 * period resolved against this database's "last looked at" mark and the clock, rows mapped to the
 * shared `ChangeRow`, values told in words for a spreadsheet or a terminal, and the retention
 * prune run after each sync.
 */
import {
  changeFieldLabels,
  changeValueKinds,
  DEFAULT_CHANGE_RETENTION_DAYS,
  isChangeField,
  type ChangeField,
  type ChangeFilters,
  type ChangeRow,
  type ChangeValue,
} from '../../shared/changes';
import { resolveDays, startOfLocalDay } from '../../shared/date-filters';
import { computerTimeZone } from '../../shared/date-formatters';
import { holdLabel } from '../../shared/labels';
import { containerStatusLabels, type ContainerStatus } from '../../shared/status';
import type { Db } from '../store/database';
import { pruneAlerts } from '../store/queries/alerts';
import { changesLookedAt, pruneChanges, type ChangeDbRow, type ChangeQuery } from '../store/queries/changes';

const DAY_MS = 86_400_000;

/** An instant the renderer or the CLI sent, as the store writes instants (UTC, so text order is time order). */
function utc(value: string | undefined): string | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * The query a filter means now: since the last "mark as looked" (every change kept when never
 * marked), since today's or this week's first midnight in `zone` (Monday's), the 7 days up to
 * now, or the range given (either end open).
 */
export function resolveChangeQuery(db: Db, filters: ChangeFilters, now: Date, zone = computerTimeZone()): ChangeQuery {
  const base = { fields: filters.fields, customers: filters.customers, carriers: filters.carriers };
  switch (filters.period ?? 'since_looked') {
    case 'since_looked':
      return { ...base, from: changesLookedAt(db), fromExclusive: true, to: null };
    case 'today':
    case 'this_week': {
      const preset = filters.period === 'today' ? 'today' : 'thisWeek';
      const first = resolveDays({ preset }, now.getTime(), zone).days!.first!;
      return { ...base, from: new Date(startOfLocalDay(first, zone)).toISOString(), to: null };
    }
    case 'last_7_days':
      return { ...base, from: new Date(now.getTime() - 7 * DAY_MS).toISOString(), to: null };
    case 'range':
      return { ...base, from: utc(filters.from), to: utc(filters.to) };
  }
}

/** A stored value (JSON text) read back; null for none, or for anything that is not a plain value. */
export function parseChangeValue(text: string | null): ChangeValue {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
  } catch {
    return null;
  }
}

/** A stored change as the views read it; null for a kind this Quayside does not know (a newer one wrote it). */
export function toChangeRow(row: ChangeDbRow): ChangeRow | null {
  if (!isChangeField(row.field)) return null;
  return {
    id: String(row.id),
    resource: row.resource,
    recordId: row.record_id,
    number: row.number,
    shipmentId: row.shipment_id,
    billOfLading: row.bill_of_lading,
    customer: row.customer_name,
    carrierScac: row.shipping_line_scac,
    field: row.field,
    detail: row.detail,
    old: parseChangeValue(row.old_value),
    new: parseChangeValue(row.new_value),
    seenAt: row.seen_at,
    zone: row.zone,
  };
}

/** A change's kind in words, with its hold type ("Hold: Customs"). */
export function changeLabel(field: ChangeField, detail: string | null): string {
  const label = changeFieldLabels[field];
  return detail ? `${label}: ${holdLabel(detail)}` : label;
}

/**
 * A value in words for a spreadsheet cell or a terminal: instants in UTC ISO as stored, dates as
 * YYYY-MM-DD, yes/no, statuses and holds in words, amounts as numbers; '' for none.
 */
export function changeValueText(field: ChangeField, value: ChangeValue): string {
  if (value === null) return '';
  switch (changeValueKinds[field]) {
    case 'flag':
      return value === true ? 'yes' : 'no';
    case 'status':
      return containerStatusLabels[value as ContainerStatus] ?? String(value);
    case 'hold':
      return value === 'hold' ? 'on hold' : 'released';
    default:
      return String(value);
  }
}

/**
 * Deletes the changes, and the alerts raised from them, older than the retention (days, default
 * 180); returns how many changes went.
 */
export function pruneChangeHistory(db: Db, retentionDays: number | undefined, now: Date): number {
  const days = retentionDays ?? DEFAULT_CHANGE_RETENTION_DAYS;
  const before = new Date(now.getTime() - days * DAY_MS).toISOString();
  pruneAlerts(db, before);
  return pruneChanges(db, before);
}
