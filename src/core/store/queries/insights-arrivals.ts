/**
 * Arrival reliability in one statement: one row of facts per shipment arrived in the range (its
 * first ETA, slip, ETA moves), read from one index (`shipments_arrivals`), grouped by the finest
 * grouping asked (carrier, lane or both), month and slip in tenths of an hour: a short histogram
 * (one row per tenth of an hour that occurs). Its rows are summed here into each grouping asked,
 * per month and over the range, and each group's median and 90th percentile read by nearest rank.
 * Rounding is monotone, so the rank of the rounded slips is the rounded rank: exact to what the
 * answer shows, and no sort over every shipment per grouping.
 *
 * First ETA: `pod_original_eta_at`, else the old value of the earliest ETA change the history
 * kept (the ETA before it moved), else the stored ETA (it never moved while watched).
 * ETA moves: changes from one ETA to another (not the first sight, not the clearing at arrival),
 * counted only for voyages the history covers: departed (else created) at or after `historyFrom`.
 */
import type { Statement } from 'better-sqlite3';
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
/** Slips are counted in tenths of an hour (what the answer shows), rounded half up, so a group is a short histogram. */
const BUCKET_MS = 360_000;
const bucket = `CAST(floor(slip_ms / ${BUCKET_MS}.0 + 0.5) AS INTEGER)`;

/** Milliseconds since 1970 of a stored instant (text), exact to the millisecond. */
export const msOf = (expr: string) => `CAST(round(unixepoch(${expr}, 'subsec') * 1000) AS INTEGER)`;

const firstEta = `coalesce(s.pod_original_eta_at,
  (SELECT rc.old_value ->> '$' FROM record_changes rc
    WHERE rc.record_id = s.id AND rc.field = 'eta' AND rc.old_value IS NOT NULL
    ORDER BY rc.seen_at, rc.id LIMIT 1),
  s.pod_eta_at)`;

/**
 * The shipments in the range, written so an index serves it: the arrival index (open ends as the
 * lowest and a highest text), or with a customer, the customer index.
 */
export const arrivedWhere = (customer: boolean) =>
  `s.pod_ata_at >= coalesce(:from, '') AND s.pod_ata_at < coalesce(:until, '~')${customer ? ' AND s.customer_name = :customer' : ''}`;

/** The month of arrival (bounds from range.ts), by the arrival column `column`. */
export const monthOf = (column: string) =>
  `(SELECT j.value ->> 'm' FROM json_each(:months) j WHERE ${column} >= j.value ->> 'f' AND ${column} < j.value ->> 'u')`;

export type ArrivalDim = ArrivalSqlRow['dim'];

const dimArms: Record<ArrivalDim, [string, string, string]> = {
  carrier: ['carrier', 'NULL', 'NULL'],
  lane: ['NULL', 'pol', 'pod'],
  'carrier-lane': ['carrier', 'pol', 'pod'],
};

/**
 * One histogram of the finest grouping asked: shipments by carrier and/or lane, month and slip in
 * tenths of an hour, with their sums. Coarser groupings and the whole range are sums of its rows
 * (read here), so the statement sorts each shipment once, never once per grouping.
 */
function arrivalSql(dims: readonly ArrivalDim[], withMonths: boolean, customer: boolean): string {
  const byCarrier = dims.some((d) => dimArms[d][0] !== 'NULL');
  const byLane = dims.some((d) => dimArms[d][1] !== 'NULL');
  const keys = [...(byCarrier ? ['carrier'] : []), ...(byLane ? ['pol', 'pod'] : []), 'month', 'bucket'];
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
      WHERE ${arrivedWhere(customer)}
    )
    SELECT ${byCarrier ? 'carrier' : "'' AS carrier"}, ${byLane ? 'pol, pod' : "'' AS pol, '' AS pod"}, month,
           ${bucket} AS bucket, count(*) AS shipments,
           coalesce(sum(slip_ms <= ${DAY_MS}), 0) AS on_time,
           coalesce(sum(from_history), 0) AS from_history,
           coalesce(sum(covered), 0) AS covered,
           sum(CASE WHEN covered THEN moves END) AS moves,
           coalesce(sum(covered AND moves > 0), 0) AS moved
    FROM f GROUP BY ${keys.join(', ')}`;
}

/** A histogram row: the shipments of one finest group and month whose slip falls in one tenth of an hour (null: no first ETA). */
interface BucketRow {
  carrier: string;
  pol: string;
  pod: string;
  month: string | null;
  bucket: number | null;
  shipments: number;
  on_time: number;
  from_history: number;
  covered: number;
  moves: number | null;
  moved: number;
}

/** A group being summed: its figures so far and its shipments by tenth of an hour (one pair per row summed). */
interface Sum {
  row: ArrivalSqlRow;
  buckets: [number, number][];
}

/** The value at nearest rank ⌈p·n/100⌉ of a group's histogram, sorted by tenth of an hour. */
function rankOf(buckets: [number, number][], known: number, p: number): number | null {
  if (known === 0) return null;
  const rank = Math.max(1, Math.ceil((p * known) / 100));
  let seen = 0;
  for (const [bucket, shipments] of buckets) {
    seen += shipments;
    if (seen >= rank) return bucket * BUCKET_MS;
  }
  return null;
}

const statements = new Map<string, ReturnType<typeof perDb<Statement<[ArrivalParams], BucketRow>>>>();

/** Carriers' and ports' names by code (few rows), as the groups show them. */
const namesStatement = perDb((db) =>
  db.prepare<[], { kind: 'carrier' | 'port'; code: string; name: string | null }>(
    `SELECT 'carrier' AS kind, scac AS code, max(name) AS name FROM shipping_lines WHERE scac IS NOT NULL GROUP BY scac
     UNION ALL
     SELECT 'port', code, max(name) FROM ports WHERE code IS NOT NULL GROUP BY code`,
  ),
);

/** Text order as SQLite's, nulls first: the groups come back by grouping, carrier, lane and month. */
const order = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** The groups of the groupings asked (at least one), over the range and, `withMonths`, per month. */
export function arrivalRows(
  db: Db,
  params: ArrivalParams,
  dims: readonly ArrivalDim[],
  withMonths: boolean,
): ArrivalSqlRow[] {
  const customer = params.customer !== null;
  const key = `${dims.join(',')}|${withMonths}|${customer}`;
  let statement = statements.get(key);
  if (!statement) {
    statement = perDb((d) => d.prepare<[ArrivalParams], BucketRow>(arrivalSql(dims, withMonths, customer)));
    statements.set(key, statement);
  }
  const carriers = new Map<string, string | null>();
  const ports = new Map<string, string | null>();
  for (const n of namesStatement(db).all()) (n.kind === 'carrier' ? carriers : ports).set(n.code, n.name);
  const name = (names: Map<string, string | null>, code: string | null) =>
    code === null ? null : (names.get(code) ?? null);
  const groupings = dims.map((dim) => ({
    dim,
    byCarrier: dimArms[dim][0] !== 'NULL',
    byLane: dimArms[dim][1] !== 'NULL',
  }));
  const sums = new Map<string, Sum>();
  const add = (
    dim: ArrivalDim,
    carrier: string | null,
    pol: string | null,
    pod: string | null,
    month: string | null,
    r: BucketRow,
  ) => {
    const id = `${dim}|${carrier}|${pol}|${pod}|${month}`;
    let sum = sums.get(id);
    if (!sum) {
      sum = {
        row: {
          dim,
          carrier,
          carrier_name: name(carriers, carrier),
          pol,
          pol_name: name(ports, pol),
          pod,
          pod_name: name(ports, pod),
          month,
          shipments: 0,
          known: 0,
          on_time: 0,
          from_history: 0,
          covered: 0,
          moves: null,
          moved: 0,
          slip_p50_ms: null,
          slip_p90_ms: null,
        },
        buckets: [],
      };
      sums.set(id, sum);
    }
    const g = sum.row;
    g.shipments += r.shipments;
    g.on_time += r.on_time;
    g.from_history += r.from_history;
    g.covered += r.covered;
    g.moved += r.moved;
    if (r.moves !== null) g.moves = (g.moves ?? 0) + r.moves;
    if (r.bucket !== null) {
      g.known += r.shipments;
      sum.buckets.push([r.bucket, r.shipments]);
    }
  };
  for (const r of statement(db).all(params))
    for (const { dim, byCarrier, byLane } of groupings) {
      const [carrier, pol, pod] = [byCarrier ? r.carrier : null, byLane ? r.pol : null, byLane ? r.pod : null];
      add(dim, carrier, pol, pod, null, r);
      if (withMonths && r.month !== null) add(dim, carrier, pol, pod, r.month, r);
    }
  const groups: ArrivalSqlRow[] = [];
  for (const { row, buckets } of sums.values()) {
    buckets.sort((a, b) => a[0] - b[0]);
    row.slip_p50_ms = rankOf(buckets, row.known, 50);
    row.slip_p90_ms = rankOf(buckets, row.known, 90);
    groups.push(row);
  }
  return groups.sort(
    (a, b) =>
      order(a.dim, b.dim) ||
      order(a.carrier, b.carrier) ||
      order(a.pol, b.pol) ||
      order(a.pod, b.pod) ||
      order(a.month, b.month),
  );
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
