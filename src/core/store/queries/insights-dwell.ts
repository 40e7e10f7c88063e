/**
 * Terminal and rail-terminal dwell in one statement, for the containers of the shipments arrived
 * in the range. A box moved inland by rail counts at its rail terminal (the shipment's
 * destination terminal), from its arrival there (`ind_ata_at`); any other at the terminal it was
 * discharged at, from its discharge. Milestones, as instants:
 *
 * - available: the first `container.transport.available` event at or after that start (not
 *   withdrawn): the box's events from that start on, in time order (its index), the first of
 *   that kind, which is nearly always the first after the start;
 * - picked up: `pod_full_out_at` (at a rail terminal, `final_destination_full_out_at`);
 * - empty returned: `empty_terminated_at`;
 * - the last free day's end: `lfd_deadline_at`, when it is the same place's (`lfd_source`).
 *
 * A duration is left out (counted unknown) when either end is missing or the later one comes
 * first. Each box gives one row per measure; the median and 90th percentile are taken by rank
 * within (place, month, measure). Cost buckets: boxes by place, carrier and chargeable days,
 * priced in JavaScript from the rates (few rows: one per distinct day count).
 */
import type { Db } from '../database';
import { perDb } from '../statements';
import { arrivedWhere, monthOf, msOf } from './insights-arrivals';

export const dwellMeasures = ['d2a', 'a2p', 'd2p', 'p2e', 'late'] as const;
export type DwellMeasure = (typeof dwellMeasures)[number];

export interface DwellSqlRow {
  kind: 'terminal' | 'rail';
  terminal: string;
  name: string | null;
  month: string | null;
  measure: DwellMeasure;
  containers: number;
  known: number;
  /** For `late`: the share late; null otherwise. */
  mean: number | null;
  p50: number | null;
  p90: number | null;
}

export interface CostSqlRow {
  kind: 'terminal' | 'rail';
  terminal: string;
  month: string | null;
  carrier: string | null;
  late_days: number;
  out_days: number | null;
  boxes: number;
}

export interface DwellParams {
  from: string | null;
  until: string | null;
  customer: string | null;
  months: string;
}

const DAY_MS = 86_400_000;
/** A window over the whole partition: one sort serves the rank and the count. */
const WHOLE = 'ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING';
/** Added before an integer division so it rounds down below zero too (SQLite truncates toward zero). */
const SHIFT = 100_000;

const facts = (withMonths: boolean, customer: boolean) => `
  b AS (
    SELECT c.id, s.shipping_line_scac AS carrier,
           ${withMonths ? monthOf('s.pod_ata_at') : 'NULL'} AS month,
           (c.ind_ata_at IS NOT NULL OR c.pod_rail_loaded_at IS NOT NULL OR c.lfd_source = 'rail') AS rail,
           s.destination_terminal_id AS ramp_id, c.pod_terminal_id,
           c.ind_ata_at, c.pod_discharged_at, c.final_destination_full_out_at, c.pod_full_out_at,
           c.empty_terminated_at, c.lfd_deadline_at, c.lfd_source
    FROM shipments s JOIN containers c ON c.shipment_id = s.id
    WHERE ${arrivedWhere(customer)} AND c.raw IS NOT NULL
  ),
  p AS (
    SELECT id, carrier, month, CASE WHEN rail THEN 'rail' ELSE 'terminal' END AS kind,
           coalesce(CASE WHEN rail THEN ramp_id ELSE pod_terminal_id END, '') AS terminal,
           ${msOf('CASE WHEN rail THEN ind_ata_at ELSE pod_discharged_at END')} AS t0,
           ${msOf('CASE WHEN rail THEN final_destination_full_out_at ELSE pod_full_out_at END')} AS tp,
           ${msOf('empty_terminated_at')} AS te,
           CASE WHEN coalesce(lfd_source, 'terminal') = CASE WHEN rail THEN 'rail' ELSE 'terminal' END
                THEN ${msOf('lfd_deadline_at')} END AS tl
    FROM b
  ),
  f AS MATERIALIZED (
    SELECT p.*,
           (SELECT e.timestamp FROM transport_events e
             WHERE e.container_key = (SELECT key FROM interned WHERE text = p.id) AND e.timestamp >= p.t0
               AND e.event_key = (SELECT key FROM interned WHERE text = 'container.transport.available')
               AND e.invalidated_at IS NULL
             ORDER BY e.timestamp LIMIT 1) AS ta
    FROM p
  )`;

const span = (a: string, b: string) => `CASE WHEN ${b} >= ${a} THEN (${b} - ${a}) / ${DAY_MS}.0 END`;

function dwellSql(withMonths: boolean, customer: boolean): string {
  const measures: [string, string][] = [
    ['d2a', span('t0', 'ta')],
    ['a2p', span('ta', 'tp')],
    ['d2p', span('t0', 'tp')],
    ['p2e', span('tp', 'te')],
  ];
  const monthly = [false, ...(withMonths ? [true] : [])];
  const from = (m: boolean) => `FROM f${m ? ' WHERE month IS NOT NULL' : ''}`;
  // Only known values are sorted; the unknown are the group's boxes less the known.
  const arms = measures.flatMap(([measure, value]) =>
    monthly.map(
      (m) => `SELECT kind, terminal, ${m ? 'month' : 'NULL'} AS month, '${measure}' AS measure, v
              FROM (SELECT kind, terminal, month, ${value} AS v ${from(m)}) WHERE v IS NOT NULL`,
    ),
  );
  const groups = monthly.map(
    (m) => `SELECT kind, terminal, ${m ? 'month' : 'NULL'} AS month,
                   CASE WHEN tp IS NOT NULL AND tl IS NOT NULL THEN tp > tl END AS late ${from(m)}`,
  );
  return `
    WITH ${facts(withMonths, customer)},
    m AS (${arms.join('\n UNION ALL ')}),
    r AS (
      SELECT m.*, row_number() OVER w AS rn, count(*) OVER (w ${WHOLE}) AS n
      FROM m WINDOW w AS (PARTITION BY kind, terminal, month, measure ORDER BY v)
    ),
    pc AS (
      SELECT kind, terminal, month, measure, max(n) AS n,
             max(CASE WHEN rn = (50 * n + 99) / 100 THEN v END) AS p50,
             max(CASE WHEN rn = (90 * n + 99) / 100 THEN v END) AS p90
      FROM r WHERE rn = (50 * n + 99) / 100 OR rn = (90 * n + 99) / 100
      GROUP BY kind, terminal, month, measure
    ),
    c AS (
      SELECT kind, terminal, month, count(*) AS containers, count(late) AS judged, sum(late) AS late
      FROM (${groups.join('\n UNION ALL ')}) GROUP BY kind, terminal, month
    ),
    out AS (
      SELECT c.kind, c.terminal, c.month, pc.measure, c.containers, pc.n AS known, NULL AS mean, pc.p50, pc.p90
      FROM c JOIN pc ON pc.kind = c.kind AND pc.terminal = c.terminal AND pc.month IS c.month
      UNION ALL
      SELECT kind, terminal, month, 'late', containers, judged, CASE WHEN judged > 0 THEN late * 1.0 / judged END,
             NULL, NULL
      FROM c
    )
    SELECT out.*, (SELECT t.name FROM terminals t WHERE t.id = out.terminal) AS name
    FROM out ORDER BY kind, month, terminal, measure`;
}

/**
 * Chargeable days per box: demurrage from the last free day's end to pickup, whole days rounded
 * up; days out from the pickup's day to the return's, both counted, the days told by the last
 * free day's end (a local midnight where the box waits).
 */
function costSql(withMonths: boolean, customer: boolean): string {
  const dayIndex = (t: string) => `((${t} - tl + ${SHIFT} * ${DAY_MS}) / ${DAY_MS} - ${SHIFT})`;
  const arms = [false, ...(withMonths ? [true] : [])].map(
    (monthly) =>
      `SELECT kind, terminal, ${monthly ? 'month' : 'NULL'} AS month, carrier,
              CASE WHEN tp > tl THEN (tp - tl + ${DAY_MS - 1}) / ${DAY_MS} ELSE 0 END AS late_days,
              CASE WHEN te >= tp THEN ${dayIndex('te')} - ${dayIndex('tp')} + 1 END AS out_days
       FROM f WHERE tp IS NOT NULL AND tl IS NOT NULL${monthly ? ' AND month IS NOT NULL' : ''}`,
  );
  return `
    WITH ${facts(withMonths, customer)},
    d AS (${arms.join('\n UNION ALL ')})
    SELECT kind, terminal, month, carrier, late_days, out_days, count(*) AS boxes
    FROM d GROUP BY kind, terminal, month, carrier, late_days, out_days`;
}

/** By months (0, 1) and customer (0, 2): each variant its own statement, so each uses its index. */
const variants = [0, 1, 2, 3].map((i) => [(i & 1) === 1, (i & 2) === 2] as const);
const dwell = variants.map(([m, c]) => perDb((db) => db.prepare<[DwellParams], DwellSqlRow>(dwellSql(m, c))));
const cost = variants.map(([m, c]) => perDb((db) => db.prepare<[DwellParams], CostSqlRow>(costSql(m, c))));
const variant = (params: DwellParams, withMonths: boolean) => (withMonths ? 1 : 0) + (params.customer === null ? 0 : 2);

export function dwellRows(db: Db, params: DwellParams, withMonths: boolean): DwellSqlRow[] {
  return dwell[variant(params, withMonths)]!(db).all(params);
}

export function costRows(db: Db, params: DwellParams, withMonths: boolean): CostSqlRow[] {
  return cost[variant(params, withMonths)]!(db).all(params);
}
