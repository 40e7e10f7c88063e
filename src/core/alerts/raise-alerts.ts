/**
 * Raising alerts after a sync, under the rules picked in Settings: boxes whose
 * last free day is within N days and not picked up; the run's recorded changes of availability,
 * holds and ETAs (slipped by more than N days); tracking requests that failed during the run.
 * Each occurrence is raised once (the same box's same last free day, the same change, the same
 * failure), so a later sync does not raise it again. The app shows a sync's new alerts as one
 * desktop notification; the CLI lists them.
 */
import {
  defaultNotificationSettings,
  groupAlerts,
  isAlertRule,
  type AlertRow,
  type DesktopNotification,
  type NotificationSettings,
} from '../../shared/alerts';
import { dateFormatter, isTimeZone } from '../../shared/date-formatters';
import { holdLabel } from '../../shared/labels';
import type { Db } from '../store/database';
import {
  changesSince,
  failedRequestIds,
  failedRequests,
  insertAlerts,
  lfdSoonCandidates,
  listAlerts,
  type AlertDbRow,
  type ChangeCandidate,
  type NewAlert,
} from '../store/queries/alerts';
import { readState } from '../store/sync-state';

const DAY_MS = 86_400_000;

/** What is taken before a run, to tell afterwards what the run changed. */
export interface AlertBaseline {
  /** When the run started (UTC ISO): the changes it recorded are seen at or after. */
  startedAt: string;
  /** The tracking requests already failed before the run. */
  failedBefore: ReadonlySet<string>;
  /** Whether the database had a completed sync before: a first sync raises no "failed" for old failures. */
  hadSync: boolean;
}

export function alertBaseline(db: Db, now = new Date()): AlertBaseline {
  return {
    startedAt: now.toISOString(),
    failedBefore: failedRequestIds(db),
    hadSync: readState<string>(db, 'sync:completed_at') !== null,
  };
}

/** A calendar date (YYYY-MM-DD) as a forwarder reads it: "Fri, Mar 6, 2026". */
function calendarDay(date: string): string {
  const ms = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(ms) ? date : dateFormatter('calendarDate').format(ms);
}

/** An instant's day in the port's zone (the computer's when unknown): "Tue, Mar 10, 2026". */
function dayOf(instant: string, zone: string | null): string {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return instant;
  return dateFormatter('day', isTimeZone(zone) ? zone : undefined).format(ms);
}

const lfdSources: Record<string, string> = {
  terminal: 'at the terminal',
  rail: 'at the rail ramp',
  line: 'of the line',
};

/** A stored change value (JSON text) as text; null when none. */
function text(value: string | null): string | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' || typeof parsed === 'number' || typeof parsed === 'boolean'
      ? String(parsed)
      : null;
  } catch {
    return null;
  }
}

function changeAlert(
  change: ChangeCandidate,
  rules: NotificationSettings,
  base: Omit<NewAlert, 'rule' | 'resource' | 'recordId' | 'shipmentId' | 'detail' | 'occurrence'>,
): NewAlert | null {
  const from = text(change.old_value);
  const to = text(change.new_value);
  const common = {
    ...base,
    resource: change.resource,
    recordId: change.record_id,
    shipmentId: change.shipment_id,
    occurrence: `change:${change.id}`,
  };
  switch (change.field) {
    case 'available':
      return rules.available.on && to === 'true'
        ? { ...common, rule: 'available', detail: 'Available for pickup' }
        : null;
    case 'hold':
    case 'facility_hold': {
      if (!rules.holds.on || (to !== 'hold' && to !== 'released')) return null;
      const where = change.field === 'facility_hold' ? ' at the inland facility' : '';
      const type = holdLabel(change.detail ?? 'hold');
      return {
        ...common,
        rule: 'hold',
        detail: to === 'hold' ? `${type} hold put on${where}` : `${type} hold released${where}`,
      };
    }
    case 'eta':
    case 'destination_eta': {
      if (!rules.etaSlip.on || from === null || to === null) return null;
      const slipMs = Date.parse(to) - Date.parse(from);
      if (!(slipMs > rules.etaSlip.days * DAY_MS)) return null;
      const days = Math.round(slipMs / DAY_MS);
      const place = change.field === 'eta' ? 'port of discharge' : 'destination';
      return {
        ...common,
        rule: 'eta_slip',
        detail: `ETA at the ${place} ${days} ${days === 1 ? 'day' : 'days'} later: ${dayOf(to, change.zone)} (was ${dayOf(from, change.zone)})`,
      };
    }
    default:
      return null;
  }
}

export interface RaiseOptions {
  runId: number | null;
  rules?: NotificationSettings;
  now?: Date;
}

/** Raises the alerts the run's data calls for; answers the ones new in this run. */
export function raiseAlerts(db: Db, baseline: AlertBaseline, options: RaiseOptions): number {
  const rules = options.rules ?? defaultNotificationSettings;
  const now = options.now ?? new Date();
  const raisedAt = now.toISOString();
  const base = { runId: options.runId, raisedAt };
  const alerts: NewAlert[] = [];

  if (rules.lfdSoon.on) {
    const until = new Date(now.getTime() + rules.lfdSoon.days * DAY_MS).toISOString();
    for (const box of lfdSoonCandidates(db, raisedAt, until)) {
      const source = box.lfd_source ? lfdSources[box.lfd_source] : undefined;
      alerts.push({
        ...base,
        rule: 'lfd_soon',
        resource: 'container',
        recordId: box.id,
        shipmentId: box.shipment_id,
        detail: `Last free day ${calendarDay(box.last_free_day)}${source ? ` ${source}` : ''}, not picked up`,
        occurrence: `lfd:${box.last_free_day}`,
      });
    }
  }

  const fields = [
    ...(rules.available.on ? ['available'] : []),
    ...(rules.holds.on ? ['hold', 'facility_hold'] : []),
    ...(rules.etaSlip.on ? ['eta', 'destination_eta'] : []),
  ];
  for (const change of changesSince(db, baseline.startedAt, fields)) {
    const alert = changeAlert(change, rules, base);
    if (alert) alerts.push(alert);
  }

  if (rules.trackingFailed.on && baseline.hadSync) {
    for (const request of failedRequests(db)) {
      if (baseline.failedBefore.has(request.id)) continue;
      alerts.push({
        ...base,
        rule: 'tracking_failed',
        resource: 'tracking_request',
        recordId: request.id,
        shipmentId: request.shipment_id,
        detail: `Tracking failed${request.failed_reason ? `: ${request.failed_reason.replaceAll('_', ' ')}` : ''}`,
        occurrence: `failed:${request.updated_at ?? raisedAt}`,
      });
    }
  }
  return alerts.length === 0 ? 0 : insertAlerts(db, alerts);
}

/** A stored alert as the views and the CLI read it; null for a rule this Quayside does not know. */
export function toAlertRow(row: AlertDbRow): AlertRow | null {
  if (!isAlertRule(row.rule)) return null;
  return {
    id: row.id,
    runId: row.run_id,
    rule: row.rule,
    resource: row.resource,
    recordId: row.record_id,
    number: row.number,
    shipmentId: row.shipment_id,
    customer: row.customer_name,
    detail: row.detail,
    raisedAt: row.raised_at,
  };
}

export function knownAlerts(rows: readonly AlertDbRow[]): AlertRow[] {
  return rows.map(toAlertRow).filter((r): r is AlertRow => r !== null);
}

/** The desktop notification for a run's alerts; null when it raised none. */
export function notificationForRun(db: Db, runId: number): DesktopNotification | null {
  return groupAlerts(runId, knownAlerts(listAlerts(db, { runId, limit: 5000 })));
}
