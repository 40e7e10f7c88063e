/**
 * Arrival reliability in one statement: one row of facts per shipment arrived in the range (its
 * first ETA, slip, ETA moves), fanned out to its carrier, lane and carrier × lane (and the same
 * per month), grouped by slip in tenths of an hour: each group comes back as a short histogram (one
 * row per tenth of an hour that occurs), whose median and 90th percentile by nearest rank are read
 * here. Rounding is monotone, so the rank of the rounded slips is the rounded rank: exact to what
 * the answer shows, and no window sort over every shipment.
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

/** Only the groupings asked are fanned out: each costs a share of the one sort the percentiles take. */
function arrivalSql(dims: readonly ArrivalDim[], withMonths: boolean, customer: boolean): string {
  const arms = dims
    .map((dim) => [dim, ...dimArms[dim]] as const)
    .flatMap(([dim, carrier, pol, pod]) =>
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
      WHERE ${arrivedWhere(customer)}
    ),
    g AS (${arms.join('\n UNION ALL ')}),
    b AS (
      SELECT dim, carrier, pol, pod, month, ${bucket} AS bucket, count(*) AS shipments,
             coalesce(sum(slip_ms <= ${DAY_MS}), 0) AS on_time,
             coalesce(sum(from_history), 0) AS from_history,
             coalesce(sum(covered), 0) AS covered,
             sum(CASE WHEN covered THEN moves END) AS moves,
             coalesce(sum(covered AND moves > 0), 0) AS moved
      FROM g GROUP BY dim, carrier, pol, pod, month, bucket
    )
    SELECT b.*,
           (SELECT max(l.name) FROM shipping_lines l WHERE l.scac = b.carrier) AS carrier_name,
           (SELECT max(p.name) FROM ports p WHERE p.code = b.pol) AS pol_name,
           (SELECT max(p.name) FROM ports p WHERE p.code = b.pod) AS pod_name
    FROM b ORDER BY dim, carrier, pol, pod, month, bucket`;
}

/** A histogram row: the shipments of one group whose slip falls in one tenth of an hour (null: no first ETA). */
interface BucketRow extends Omit<ArrivalSqlRow, 'known' | 'slip_p50_ms' | 'slip_p90_ms'> {
  bucket: number | null;
}

/** The value at nearest rank ⌈p·n/100⌉ of a group's histogram, sorted by bucket. */
function rankOf(buckets: readonly BucketRow[], known: number, p: number): number | null {
  if (known === 0) return null;
  const rank = Math.max(1, Math.ceil((p * known) / 100));
  let seen = 0;
  for (const b of buckets) {
    if (b.bucket === null) continue;
    seen += b.shipments;
    if (seen >= rank) return b.bucket * BUCKET_MS;
  }
  return null;
}

/** One group from its histogram rows. */
function fold(rows: BucketRow[]): ArrivalSqlRow {
  const first = rows[0]!;
  const sum = (f: (r: BucketRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  const known = sum((r) => (r.bucket === null ? 0 : r.shipments));
  const moves = rows.some((r) => r.moves !== null) ? sum((r) => r.moves ?? 0) : null;
  return {
    dim: first.dim,
    carrier: first.carrier,
    carrier_name: first.carrier_name,
    pol: first.pol,
    pol_name: first.pol_name,
    pod: first.pod,
    pod_name: first.pod_name,
    month: first.month,
    shipments: sum((r) => r.shipments),
    known,
    on_time: sum((r) => r.on_time),
    from_history: sum((r) => r.from_history),
    covered: sum((r) => r.covered),
    moves,
    moved: sum((r) => r.moved),
    slip_p50_ms: rankOf(rows, known, 50),
    slip_p90_ms: rankOf(rows, known, 90),
  };
}

const statements = new Map<string, ReturnType<typeof perDb<Statement<[ArrivalParams], BucketRow>>>>();

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
  const groups: ArrivalSqlRow[] = [];
  let rows: BucketRow[] = [];
  const idOf = (r: BucketRow) => `${r.dim}|${r.carrier}|${r.pol}|${r.pod}|${r.month}`;
  for (const row of statement(db).iterate(params)) {
    if (rows.length > 0 && idOf(rows[0]!) !== idOf(row)) {
      groups.push(fold(rows));
      rows = [];
    }
    rows.push(row);
  }
  if (rows.length > 0) groups.push(fold(rows));
  return groups;
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
