/**
 * Terminal and rail-terminal dwell in one statement, for the containers of the shipments arrived
 * in the range. A box moved inland by rail counts at its rail terminal (the shipment's
 * destination terminal), from its arrival there (`ind_ata_at`); any other at the terminal it was
 * discharged at, from its discharge. Milestones, as instants:
 *
 * - available: the first `container.transport.available` event at or after that start (not
 *   withdrawn), looked up among the stored "available" events gathered once per statement;
 * - picked up: `pod_full_out_at` (at a rail terminal, `final_destination_full_out_at`);
 * - empty returned: `empty_terminated_at`;
 * - the last free day's end: `lfd_deadline_at`, when it is the same place's (`lfd_source`).
 *
 * A duration is left out (counted unknown) when either end is missing or the later one comes
 * first. The median and 90th percentile are the nearest ranks of each group's known values. Cost
 * buckets: boxes by place, carrier and chargeable days, priced in JavaScript from the rates (few
 * rows: one per distinct day count).
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
/** Added before an integer division so it rounds down below zero too (SQLite truncates toward zero). */
const SHIFT = 100_000;

/**
 * One row per box, from indexes alone (migration 0015): the shipments arrived in the range
 * (`shipments_arrivals`), their boxes (`containers_dwell`; a box joined to its shipment has been
 * written in full: a stub holds its id alone). `available` (dwell only): the instant of every
 * "available" event not withdrawn, by box, read from the events' index
 * (`transport_events_container` carries their kind).
 */
const facts = (withMonths: boolean, customer: boolean, forCost: boolean) => `
  b AS (
    SELECT c.id, ${forCost ? 's.shipping_line_scac' : 'NULL'} AS carrier,
           ${withMonths ? monthOf('s.pod_ata_at') : 'NULL'} AS month,
           (c.ind_ata_at IS NOT NULL OR c.pod_rail_loaded_at IS NOT NULL OR c.lfd_source = 'rail') AS rail,
           s.destination_terminal_id AS ramp_id, c.pod_terminal_id,
           c.ind_ata_at, c.pod_discharged_at, c.final_destination_full_out_at, c.pod_full_out_at,
           c.empty_terminated_at, c.lfd_deadline_at, c.lfd_source
    FROM shipments s JOIN containers c ON c.shipment_id = s.id
    WHERE ${arrivedWhere(customer)}
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
  )${
    forCost
      ? ''
      : `,
  available AS MATERIALIZED (
    SELECT i.text AS id, e.timestamp FROM transport_events e JOIN interned i ON i.key = e.container_key
    WHERE e.event_key = (SELECT key FROM interned WHERE text = 'container.transport.available')
      AND e.invalidated_at IS NULL
  )`
  }`;

const span = (a: string, b: string) => `CASE WHEN ${b} >= ${a} THEN (${b} - ${a}) / ${DAY_MS}.0 END`;

/**
 * The fraction for `percentile_disc` that picks the nearest rank ⌈pct·n/100⌉ of n values: it
 * takes the value at 0-based index ⌊fraction·(n − 1)⌋, so half a step above the wanted index
 * lands on it whatever the rounding (1 at the last; any fraction for one value).
 */
const rankFraction = (pct: number, n: string) =>
  `CASE WHEN ${n} > 1 THEN min(1.0, ((${pct} * ${n} + 99) / 100 - 0.5) / (${n} - 1)) ELSE 0 END`;

const measureColumns: [Exclude<DwellMeasure, 'late'>, string][] = [
  ['d2a', span('t0', 'ta')],
  ['a2p', span('ta', 'tp')],
  ['d2p', span('t0', 'tp')],
  ['p2e', span('tp', 'te')],
];

/**
 * One row per group. The boxes' measures are kept in group order (one sort of the boxes); a
 * first pass over them counts each group's boxes, known values and late pickups; a second takes
 * each measure's nearest-rank median and 90th percentile (`percentile_disc`, each group's values
 * sorted on their own), each box looking up its group's counts. Neither pass sorts again.
 */
function dwellSql(withMonths: boolean, customer: boolean): string {
  const arms = [false, ...(withMonths ? [true] : [])].map((monthly) => {
    const keys = monthly ? 'kind, terminal, month' : 'kind, terminal';
    const where = monthly ? 'WHERE month IS NOT NULL' : '';
    const on = `n.kind = f.kind AND n.terminal = f.terminal${monthly ? ' AND n.month = f.month' : ''}`;
    const percentiles = measureColumns.flatMap(([name]) =>
      [50, 90].map((pct) => `percentile_disc(f.${name}, ${rankFraction(pct, `n.n_${name}`)}) AS ${name}_p${pct}`),
    );
    return `SELECT n.*, ${percentiles.join(', ')}
      FROM f CROSS JOIN (
        SELECT ${keys}${monthly ? '' : ", '' AS month"}, count(*) AS containers, count(late) AS judged,
               sum(late) AS late, ${measureColumns.map(([name]) => `count(${name}) AS n_${name}`).join(', ')}
        FROM f ${where} GROUP BY ${keys}
      ) n ON ${on}
      ${monthly ? 'WHERE f.month IS NOT NULL' : ''} GROUP BY ${keys.replace(/\w+/g, (k) => `f.${k}`)}`;
  });
  return `
    WITH ${facts(withMonths, customer, false)},
    f AS MATERIALIZED (
      SELECT kind, terminal, month, ${measureColumns.map(([name, value]) => `${value} AS ${name}`).join(', ')},
             CASE WHEN tp IS NOT NULL AND tl IS NOT NULL THEN tp > tl END AS late
      -- OFFSET 0 keeps this a subquery of its own, so each box’s available instant is looked up once, not per measure.
      FROM (SELECT p.*, (SELECT min(a.timestamp) FROM available a WHERE a.id = p.id AND a.timestamp >= p.t0) AS ta
            FROM p LIMIT -1 OFFSET 0)
      ORDER BY kind, terminal, month
    ),
    out AS (${arms.join('\n UNION ALL ')})
    SELECT out.*, (SELECT t.name FROM terminals t WHERE t.id = out.terminal) AS name
    FROM out ORDER BY kind, month, terminal`;
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
    WITH ${facts(withMonths, customer, true)},
    f AS MATERIALIZED (SELECT kind, terminal, month, carrier, tp, te, tl FROM p),
    d AS (${arms.join('\n UNION ALL ')})
    SELECT kind, terminal, month, carrier, late_days, out_days, count(*) AS boxes
    FROM d GROUP BY kind, terminal, month, carrier, late_days, out_days`;
}

/** By months (0, 1) and customer (0, 2): each variant its own statement, so each uses its index. */
const variants = [0, 1, 2, 3].map((i) => [(i & 1) === 1, (i & 2) === 2] as const);
const dwell = variants.map(([m, c]) => perDb((db) => db.prepare<[DwellParams], WideRow>(dwellSql(m, c))));
const cost = variants.map(([m, c]) => perDb((db) => db.prepare<[DwellParams], CostSqlRow>(costSql(m, c))));
const variant = (params: DwellParams, withMonths: boolean) => (withMonths ? 1 : 0) + (params.customer === null ? 0 : 2);

/** A group's row as the statement gives it: every measure's count and percentiles side by side. */
type WideRow = Pick<DwellSqlRow, 'kind' | 'terminal' | 'name' | 'containers'> & {
  month: string;
  judged: number;
  late: number | null;
} & Record<`n_${Exclude<DwellMeasure, 'late'>}`, number> &
  Record<`${Exclude<DwellMeasure, 'late'>}_p${50 | 90}`, number | null>;

export function dwellRows(db: Db, params: DwellParams, withMonths: boolean): DwellSqlRow[] {
  const rows: DwellSqlRow[] = [];
  for (const r of dwell[variant(params, withMonths)]!(db).all(params)) {
    const group = {
      kind: r.kind,
      terminal: r.terminal,
      name: r.name,
      month: r.month || null,
      containers: r.containers,
    };
    for (const [measure] of measureColumns)
      if (r[`n_${measure}`] > 0)
        rows.push({
          ...group,
          measure,
          known: r[`n_${measure}`],
          mean: null,
          p50: r[`${measure}_p50`],
          p90: r[`${measure}_p90`],
        });
    const share = r.judged > 0 ? r.late! / r.judged : null;
    rows.push({ ...group, measure: 'late', known: r.judged, mean: share, p50: null, p90: null });
  }
  return rows;
}

export function costRows(db: Db, params: DwellParams, withMonths: boolean): CostSqlRow[] {
  return cost[variant(params, withMonths)]!(db).all(params);
}
