/**
 * Arrival reliability in one statement: one row of facts per shipment arrived in the range (its
 * first ETA, slip, ETA moves), fanned out to its carrier, lane and carrier × lane (and the same
 * per month), grouped, with the median and 90th percentile of the slip taken by rank within each
 * group (window functions): nothing but one row per group reaches JavaScript.
 *
 * First ETA: `pod_original_eta_at`, else the old value of the earliest ETA change the history
 * kept (the ETA before it moved), else the stored ETA (it never moved while watched).
 * ETA moves: changes from one ETA to another (not the first sight, not the clearing at arrival),
 * counted only for voyages the history covers: departed (else created) at or after `historyFrom`.
 */
import type { Db } from '../database';
import { perDb } from '../statements';

export interface ArrivalSqlRow {
  dim: 'carrier' | 'lane' | 'carrier-lane';
  carrier: string | null;
  carrier_name: string | null;
  pol: string | null;
  pol_name: string | null;
  pod: string | null;
  pod_name: string | null;
  month: string | null;
  shipments: number;
  known: number;
  on_time: number;
  from_history: number;
  covered: number;
  moves: number | null;
  moved: number;
  slip_p50_ms: number | null;
  slip_p90_ms: number | null;
}

export interface ArrivalParams {
  from: string | null;
  until: string | null;
  customer: string | null;
  /** The instant the change history starts ('' when no sync recorded: nothing covered). */
  historyFrom: string;
  /** JSON of MonthBounds[] (range.ts). */
  months: string;
}

const DAY_MS = 86_400_000;

/** Milliseconds since 1970 of a stored instant (text), exact to the millisecond. */
export const msOf = (expr: string) => `CAST(round(unixepoch(${expr}, 'subsec') * 1000) AS INTEGER)`;

const firstEta = `coalesce(s.pod_original_eta_at,
  (SELECT rc.old_value ->> '$' FROM record_changes rc
    WHERE rc.record_id = s.id AND rc.field = 'eta' AND rc.old_value IS NOT NULL
    ORDER BY rc.seen_at, rc.id LIMIT 1),
  s.pod_eta_at)`;

/** The shipments in the range: the arrival index leads, the customer narrows. */
export const arrivedWhere = `s.pod_ata_at IS NOT NULL
  AND (:from IS NULL OR s.pod_ata_at >= :from) AND (:until IS NULL OR s.pod_ata_at < :until)
  AND (:customer IS NULL OR s.customer_name = :customer)`;

/** The month of arrival (bounds from range.ts), by the arrival column `column`. */
export const monthOf = (column: string) =>
  `(SELECT j.value ->> 'm' FROM json_each(:months) j WHERE ${column} >= j.value ->> 'f' AND ${column} < j.value ->> 'u')`;

function arrivalSql(withMonths: boolean): string {
  const arms = [
    ['carrier', 'carrier', 'NULL', 'NULL'],
    ['lane', 'NULL', 'pol', 'pod'],
    ['carrier-lane', 'carrier', 'pol', 'pod'],
  ].flatMap(([dim, carrier, pol, pod]) =>
    [false, ...(withMonths ? [true] : [])].map(
      (monthly) =>
        `SELECT '${dim}' AS dim, ${carrier} AS carrier, ${pol} AS pol, ${pod} AS pod, ${monthly ? 'month' : 'NULL'} AS month,
           slip_ms, from_history, covered, moves FROM f${monthly ? ' WHERE month IS NOT NULL' : ''}`,
    ),
  );
  return `
    WITH f AS MATERIALIZED (
      SELECT coalesce(s.shipping_line_scac, '') AS carrier, coalesce(s.pol_locode, '') AS pol,
             coalesce(s.pod_locode, '') AS pod,
             ${withMonths ? monthOf('s.pod_ata_at') : 'NULL'} AS month,
             ${msOf('s.pod_ata_at')} - ${msOf(firstEta)} AS slip_ms,
             s.pod_original_eta_at IS NULL AND ${firstEta} IS NOT NULL AS from_history,
             coalesce(s.pol_atd_at, s.created_at) >= :historyFrom AS covered,
             (SELECT count(*) FROM record_changes rc
               WHERE rc.record_id = s.id AND rc.field = 'eta'
                 AND rc.old_value IS NOT NULL AND rc.new_value IS NOT NULL) AS moves
      FROM shipments s
      WHERE ${arrivedWhere}
    ),
    g AS (${arms.join('\n UNION ALL ')}),
    r AS (
      SELECT g.*,
             row_number() OVER (PARTITION BY dim, carrier, pol, pod, month ORDER BY slip_ms IS NULL, slip_ms) AS rn,
             count(slip_ms) OVER (PARTITION BY dim, carrier, pol, pod, month) AS ns
      FROM g
    ),
    a AS (
      SELECT dim, carrier, pol, pod, month, count(*) AS shipments,
             count(slip_ms) AS known,
             coalesce(sum(slip_ms <= ${DAY_MS}), 0) AS on_time,
             coalesce(sum(from_history), 0) AS from_history,
             coalesce(sum(covered), 0) AS covered,
             sum(CASE WHEN covered THEN moves END) AS moves,
             coalesce(sum(covered AND moves > 0), 0) AS moved,
             max(CASE WHEN slip_ms IS NOT NULL AND rn = (50 * ns + 99) / 100 THEN slip_ms END) AS slip_p50_ms,
             max(CASE WHEN slip_ms IS NOT NULL AND rn = (90 * ns + 99) / 100 THEN slip_ms END) AS slip_p90_ms
      FROM r GROUP BY dim, carrier, pol, pod, month
    )
    SELECT a.*,
           (SELECT max(l.name) FROM shipping_lines l WHERE l.scac = a.carrier) AS carrier_name,
           (SELECT max(p.name) FROM ports p WHERE p.code = a.pol) AS pol_name,
           (SELECT max(p.name) FROM ports p WHERE p.code = a.pod) AS pod_name
    FROM a ORDER BY dim, month, carrier, pol, pod`;
}

const statements = [false, true].map((withMonths) =>
  perDb((db) => db.prepare<[ArrivalParams], ArrivalSqlRow>(arrivalSql(withMonths))),
);

export function arrivalRows(db: Db, params: ArrivalParams, withMonths: boolean): ArrivalSqlRow[] {
  return statements[withMonths ? 1 : 0]!(db).all(params);
}

/** The first and last arrival stored: where an open range ends. */
const arrivalSpanStatement = perDb((db) =>
  db.prepare<[], { first: string | null; last: string | null }>(
    `SELECT (SELECT min(pod_ata_at) FROM shipments WHERE pod_ata_at IS NOT NULL) AS first,
            (SELECT max(pod_ata_at) FROM shipments) AS last`,
  ),
);

export function arrivalSpan(db: Db): { first: string | null; last: string | null } {
  return arrivalSpanStatement(db).get() ?? { first: null, last: null };
}

const firstSyncStatement = perDb((db) => db.prepare<[], string | null>('SELECT min(started_at) FROM sync_log').pluck());

/** When this database's first sync started; null when none was recorded. */
export function firstSyncStart(db: Db): string | null {
  return firstSyncStatement(db).get() ?? null;
}
