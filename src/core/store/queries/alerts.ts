/**
 * Alerts (migration 0007's part notifications): what a sync's rules find (boxes whose last free
 * day is near, the changes the run recorded, tracking requests failed since before the run), the
 * alerts it raises (each occurrence once), and reading them by sync or by time, with the
 * retention prune.
 */
import type { Db } from '../database';
import { perDb } from '../statements';

/** A box whose last free day falls in the window and that is not picked up. */
export interface LfdSoonCandidate {
  id: string;
  number: string | null;
  shipment_id: string | null;
  last_free_day: string;
  lfd_source: string | null;
}

/** A change the run recorded, with what the alert names. */
export interface ChangeCandidate {
  id: number;
  resource: 'shipment' | 'container';
  record_id: string;
  shipment_id: string | null;
  field: string;
  detail: string | null;
  old_value: string | null;
  new_value: string | null;
  number: string | null;
  zone: string | null;
}

export interface FailedRequest {
  id: string;
  request_number: string | null;
  failed_reason: string | null;
  updated_at: string | null;
  shipment_id: string | null;
}

export interface NewAlert {
  runId: number | null;
  rule: string;
  resource: 'shipment' | 'container' | 'tracking_request';
  recordId: string;
  shipmentId: string | null;
  detail: string;
  occurrence: string;
  raisedAt: string;
}

export interface AlertDbRow {
  id: number;
  run_id: number | null;
  rule: string;
  resource: 'shipment' | 'container' | 'tracking_request';
  record_id: string;
  shipment_id: string | null;
  detail: string;
  raised_at: string;
  number: string | null;
  customer_name: string | null;
}

/**
 * Boxes not picked up (nor returned) whose last free day's deadline lies between now and `until`:
 * the ones a forwarder must move before it costs.
 */
export function lfdSoonCandidates(db: Db, now: string, until: string): LfdSoonCandidate[] {
  return db
    .prepare(
      `SELECT id, number, shipment_id, last_free_day, lfd_source FROM containers
       WHERE lfd_deadline_at >= ? AND lfd_deadline_at <= ? AND last_free_day IS NOT NULL
         AND synced_at IS NOT NULL AND pod_full_out_at IS NULL
         AND coalesce(status, '') NOT IN ('picked_up', 'empty_returned')
       ORDER BY lfd_deadline_at, id`,
    )
    .all(now, until) as LfdSoonCandidate[];
}

/** The changes of the kinds given seen at or after `since` (the run's start), oldest first. */
export function changesSince(db: Db, since: string, fields: readonly string[]): ChangeCandidate[] {
  if (fields.length === 0) return [];
  return db
    .prepare(
      `SELECT ch.id, ch.resource, ch.record_id, ch.shipment_id, ch.field, ch.detail, ch.old_value, ch.new_value,
         CASE ch.resource WHEN 'shipment' THEN coalesce(s.bill_of_lading, s.normalized_number) ELSE c.number END AS number,
         CASE WHEN ch.field = 'destination_eta' THEN s.destination_timezone ELSE s.pod_timezone END AS zone
       FROM record_changes ch
       LEFT JOIN shipments s ON s.id = ch.shipment_id
       LEFT JOIN containers c ON ch.resource = 'container' AND c.id = ch.record_id
       WHERE ch.seen_at >= ? AND ch.field IN (${fields.map(() => '?').join(', ')})
       ORDER BY ch.id`,
    )
    .all(since, ...fields) as ChangeCandidate[];
}

/** The ids of the tracking requests that are failed now (taken before a run, to see which fail during it). */
export function failedRequestIds(db: Db): Set<string> {
  return new Set(db.prepare("SELECT id FROM tracking_requests WHERE status = 'failed'").pluck().all() as string[]);
}

export function failedRequests(db: Db): FailedRequest[] {
  return db
    .prepare(
      `SELECT id, request_number, failed_reason, updated_at, shipment_id FROM tracking_requests
       WHERE status = 'failed' AND synced_at IS NOT NULL ORDER BY id`,
    )
    .all() as FailedRequest[];
}

const statements = perDb((db) => ({
  insert: db.prepare(
    `INSERT OR IGNORE INTO alerts (run_id, rule, resource, record_id, shipment_id, detail, occurrence, raised_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
}));

/** Raises the alerts not raised before (same rule, record and occurrence); answers how many are new. */
export function insertAlerts(db: Db, alerts: readonly NewAlert[]): number {
  const { insert } = statements(db);
  let added = 0;
  db.transaction(() => {
    for (const a of alerts) {
      added += insert.run(
        a.runId,
        a.rule,
        a.resource,
        a.recordId,
        a.shipmentId,
        a.detail,
        a.occurrence,
        a.raisedAt,
      ).changes;
    }
  }).immediate();
  return added;
}

const select = `SELECT a.id, a.run_id, a.rule, a.resource, a.record_id, a.shipment_id, a.detail, a.raised_at,
    CASE a.resource
      WHEN 'container' THEN c.number
      WHEN 'tracking_request' THEN t.request_number
      ELSE coalesce(s.bill_of_lading, s.normalized_number) END AS number,
    s.customer_name
  FROM alerts a
  LEFT JOIN shipments s ON s.id = a.shipment_id
  LEFT JOIN containers c ON a.resource = 'container' AND c.id = a.record_id
  LEFT JOIN tracking_requests t ON a.resource = 'tracking_request' AND t.id = a.record_id`;

export interface AlertQuery {
  runId?: number;
  since?: string;
  rules?: readonly string[];
  limit: number;
  /** Newest sync first (the view) or oldest first (the CLI); within a sync, most urgent first either way. */
  order?: 'newest' | 'oldest';
}

/** Within one sync, the kinds in the order a forwarder acts on them (the notification's). */
const urgency = `CASE a.rule WHEN 'lfd_soon' THEN 0 WHEN 'available' THEN 1 WHEN 'hold' THEN 2
    WHEN 'eta_slip' THEN 3 ELSE 4 END`;

/** Alerts: one sync's, or those raised since an instant; of the rules given. */
export function listAlerts(db: Db, q: AlertQuery): AlertDbRow[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.runId !== undefined) {
    where.push('a.run_id = ?');
    params.push(q.runId);
  }
  if (q.since !== undefined) {
    where.push('a.raised_at >= ?');
    params.push(q.since);
  }
  if (q.rules && q.rules.length > 0) {
    where.push(`a.rule IN (${q.rules.map(() => '?').join(', ')})`);
    params.push(...q.rules);
  }
  return db
    .prepare(
      `${select}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
       ORDER BY a.raised_at ${q.order === 'oldest' ? 'ASC' : 'DESC'}, ${urgency}, a.id LIMIT ?`,
    )
    .all(...params, q.limit) as AlertDbRow[];
}

/** The syncs that raised alerts, newest first, with when and how many. */
export function alertRuns(db: Db, limit: number): { runId: number; raisedAt: string; count: number }[] {
  return db
    .prepare(
      `SELECT run_id AS runId, max(raised_at) AS raisedAt, count(*) AS count FROM alerts
       WHERE run_id IS NOT NULL GROUP BY run_id ORDER BY run_id DESC LIMIT ?`,
    )
    .all(limit) as { runId: number; raisedAt: string; count: number }[];
}

/** Deletes alerts raised before `before` (the change history's retention); answers how many. */
export function pruneAlerts(db: Db, before: string): number {
  return db.prepare('DELETE FROM alerts WHERE raised_at < ?').run(before).changes;
}
