/**
 * Insights: which carrier, lane and terminal a forwarder can trust, from the account's own
 * history, offline. Arrival reliability per carrier, lane and carrier × lane; dwell per terminal
 * and rail terminal with what pickups after the last free day cost at the rates in Settings;
 * each by month too. The figures are computed in the store (insights-arrivals.ts,
 * insights-dwell.ts): a row per group, or per group and tenth of an hour, comes back, so a large
 * account costs the query, not JavaScript. Here the rows become the typed answer: counts beside
 * every figure, small groups flagged and never ranked.
 */
import { DEFAULT_CHANGE_RETENTION_DAYS } from '../../shared/changes';
import { computerTimeZone } from '../../shared/date-formatters';
import { hasRates, priceDays, rateFor, type Rates } from '../../shared/exposure';
import {
  DEFAULT_INSIGHTS_MINIMUM,
  FIRST_ETA_SOURCE,
  insightsRequestSchema,
  type ArrivalGroup,
  type DwellCost,
  type DwellGroup,
  type InsightsRequest,
  type InsightsResult,
  type InsightsTable,
  insightsTables,
  type Spread,
} from '../../shared/insights';
import type { Db } from '../store/database';
import { arrivalRows, firstSyncStart, type ArrivalDim, type ArrivalSqlRow } from '../store/queries/insights-arrivals';
import {
  costRows,
  dwellRows,
  type CostSqlRow,
  type DwellMeasure,
  type DwellSqlRow,
} from '../store/queries/insights-dwell';
import { resolveRange } from './range';

export interface InsightsOptions {
  /** The rates in Settings: with none entered, no cost is given. */
  rates?: Rates | null;
  /** Days of change history kept (Settings); the history starts no earlier than that before `now`. */
  retentionDays?: number;
  now?: number;
}

const HOUR_MS = 3_600_000;

const dimensionOf: Record<Exclude<InsightsTable, 'terminals'>, ArrivalDim> = {
  carriers: 'carrier',
  lanes: 'lane',
  carrierLanes: 'carrier-lane',
};
/** Beyond every stored instant: no voyage is covered when no sync was ever recorded. */
const NEVER = '9999-12-31T23:59:59Z';

/** The instant from which the change history covers a voyage: the first sync, or the retention horizon if later. */
export function historyStart(db: Db, retentionDays: number, now: number): string | null {
  const first = firstSyncStart(db);
  if (first === null) return null;
  const horizon = new Date(now - retentionDays * 86_400_000).toISOString();
  return first > horizon ? first : horizon;
}

const round = (value: number | null, places: number): number | null =>
  value === null ? null : Math.round(value * 10 ** places) / 10 ** places;

function arrivalGroup(r: ArrivalSqlRow, minimum: number): ArrivalGroup {
  const key =
    r.dim === 'carrier' ? (r.carrier ?? '') : r.dim === 'lane' ? `${r.pol}→${r.pod}` : `${r.carrier} ${r.pol}→${r.pod}`;
  const hours = (ms: number | null) => round(ms === null ? null : ms / HOUR_MS, 1);
  return {
    dimension: r.dim,
    key,
    carrier: r.carrier || null,
    carrierName: r.carrier_name,
    pol: r.pol || null,
    polName: r.pol_name,
    pod: r.pod || null,
    podName: r.pod_name,
    month: r.month,
    shipments: r.shipments,
    small: r.shipments < minimum,
    rank: null,
    onTime: {
      share: r.known === 0 ? null : round(r.on_time / r.known, 4),
      count: r.known,
      unknown: r.shipments - r.known,
    },
    slipHours: { p50: hours(r.slip_p50_ms), p90: hours(r.slip_p90_ms), count: r.known, unknown: r.shipments - r.known },
    etaMoves: {
      mean: r.covered === 0 ? null : round((r.moves ?? 0) / r.covered, 2),
      movedShare: r.covered === 0 ? null : round(r.moved / r.covered, 4),
      count: r.covered,
      unknown: r.shipments - r.covered,
    },
    firstEtaFromHistory: r.from_history,
  };
}

/**
 * Ranks the groups that are not small and whose figure stands on at least the minimum of known
 * boxes or shipments (a median of 1 known box in 5 is not ranked), best first, within each month.
 */
function rank<G extends { small: boolean; rank: number | null; month: string | null }>(
  groups: G[],
  has: (g: G) => boolean,
  better: (a: G, b: G) => number,
): G[] {
  const byMonth = new Map<string | null, G[]>();
  for (const g of groups) {
    if (g.small || !has(g)) continue;
    const list = byMonth.get(g.month);
    if (list) list.push(g);
    else byMonth.set(g.month, [g]);
  }
  for (const list of byMonth.values()) list.sort(better).forEach((g, i) => (g.rank = i + 1));
  return groups;
}

const byOnTime = (a: ArrivalGroup, b: ArrivalGroup) =>
  b.onTime.share! - a.onTime.share! || (a.slipHours.p50 ?? 0) - (b.slipHours.p50 ?? 0) || a.key.localeCompare(b.key);

function spread(row: DwellSqlRow | undefined, containers: number): Spread {
  const known = row?.known ?? 0;
  return {
    p50: round(row?.p50 ?? null, 2),
    p90: round(row?.p90 ?? null, 2),
    count: known,
    unknown: containers - known,
  };
}

function dwellGroups(rows: DwellSqlRow[], costs: Map<string, DwellCost> | null, minimum: number): DwellGroup[] {
  const groups = new Map<string, Map<DwellMeasure, DwellSqlRow>>();
  for (const row of rows) {
    const id = `${row.kind}|${row.terminal}|${row.month ?? ''}`;
    const measures = groups.get(id) ?? new Map<DwellMeasure, DwellSqlRow>();
    measures.set(row.measure, row);
    groups.set(id, measures);
  }
  const out: DwellGroup[] = [];
  for (const [id, measures] of groups) {
    const any = measures.values().next().value!;
    const containers = any.containers;
    const late = measures.get('late');
    const lateKnown = late?.known ?? 0;
    out.push({
      kind: any.kind,
      key: any.terminal,
      name: any.name,
      month: any.month,
      containers,
      small: containers < minimum,
      rank: null,
      dischargeToAvailable: spread(measures.get('d2a'), containers),
      availableToPickedUp: spread(measures.get('a2p'), containers),
      dischargeToPickedUp: spread(measures.get('d2p'), containers),
      pickedUpToEmptyReturned: spread(measures.get('p2e'), containers),
      pickedUpAfterLfd: {
        share: lateKnown === 0 ? null : round(late!.mean, 4),
        count: lateKnown,
        unknown: containers - lateKnown,
      },
      cost: costs === null ? null : (costs.get(id) ?? null),
    });
  }
  return rank(
    out,
    (g) => g.dischargeToPickedUp.p50 !== null && g.dischargeToPickedUp.count >= minimum,
    (a, b) =>
      a.dischargeToPickedUp.p50! - b.dischargeToPickedUp.p50! ||
      a.kind.localeCompare(b.kind) ||
      a.key.localeCompare(b.key),
  );
}

/**
 * What the boxes' chargeable days cost at the rates, per group, as the exposure estimate prices
 * them (src/shared/exposure.ts): demurrage at the terminal's rate (else the carrier's, else the
 * default), detention at the carrier's past its free days.
 */
function pricedCosts(rows: CostSqlRow[], names: Map<string, string | null>, rates: Rates): Map<string, DwellCost> {
  const costs = new Map<string, DwellCost>();
  for (const row of rows) {
    const id = `${row.kind}|${row.terminal}|${row.month ?? ''}`;
    const cost = costs.get(id) ?? {
      currency: rates.currency,
      demurrage: 0,
      detention: 0,
      total: 0,
      priced: 0,
      unpriced: 0,
    };
    costs.set(id, cost);
    const input = {
      status: 'picked_up' as const,
      carrierScac: row.carrier,
      terminals: [names.get(`${row.kind}|${row.terminal}`) ?? null],
      lastFreeDay: null,
      zone: null,
      pickedUpAt: null,
      emptyReturnedAt: null,
    };
    let chargeable = false;
    let unpriced = false;
    if (row.late_days > 0) {
      chargeable = true;
      const set = rateFor(rates, 'demurrage', input);
      if (set) cost.demurrage += priceDays(set.demurrage, row.late_days).amount * row.boxes;
      else unpriced = true;
    }
    if (row.out_days !== null) {
      const set = rateFor(rates, 'detention', input);
      const days = set?.detention ? Math.max(0, row.out_days - set.detention.freeDays) : 0;
      if (days > 0 && set?.detention) {
        chargeable = true;
        cost.detention += priceDays(set.detention.tiers, days).amount * row.boxes;
      }
    }
    if (chargeable) {
      if (unpriced) cost.unpriced += row.boxes;
      else cost.priced += row.boxes;
    }
  }
  for (const cost of costs.values()) {
    cost.demurrage = Math.round(cost.demurrage * 100) / 100;
    cost.detention = Math.round(cost.detention * 100) / 100;
    cost.total = Math.round((cost.demurrage + cost.detention) * 100) / 100;
  }
  return costs;
}

/** The insights a request asks for (checked with its schema here too: the CLI and the read worker call this). */
export function computeInsights(db: Db, request: InsightsRequest = {}, options: InsightsOptions = {}): InsightsResult {
  const asked = insightsRequestSchema.parse(request);
  const zone = asked.zone ?? computerTimeZone();
  const minimum = asked.minimum ?? DEFAULT_INSIGHTS_MINIMUM;
  const withMonths = asked.months ?? true;
  const range = resolveRange(db, asked.from ?? null, asked.to ?? null, zone);
  const historyFrom = historyStart(
    db,
    options.retentionDays ?? DEFAULT_CHANGE_RETENTION_DAYS,
    options.now ?? Date.now(),
  );
  const base = {
    from: range.fromInstant,
    until: range.untilInstant,
    customer: asked.customer ?? null,
    months: JSON.stringify(range.months),
  };
  const tables = insightsTables.filter((t) => asked.tables?.includes(t) ?? true);
  const dims = tables.flatMap((t): ArrivalDim[] => (t === 'terminals' ? [] : [dimensionOf[t]]));
  const arrivals =
    dims.length === 0
      ? []
      : arrivalRows(db, { ...base, historyFrom: historyFrom ?? NEVER }, dims, withMonths).map((r) =>
          arrivalGroup(r, minimum),
        );
  const withDwell = tables.includes('terminals');
  const dwellSql = withDwell ? dwellRows(db, base, withMonths) : [];
  const rates = hasRates(options.rates) ? options.rates : null;
  let costs: Map<string, DwellCost> | null = null;
  if (rates && withDwell) {
    const names = new Map(dwellSql.map((r) => [`${r.kind}|${r.terminal}`, r.name]));
    costs = pricedCosts(costRows(db, base, withMonths), names, rates);
  }
  const dwell = dwellGroups(dwellSql, costs, minimum);
  const pick = (dim: ArrivalGroup['dimension'], monthly: boolean) =>
    rank(
      arrivals.filter((g) => g.dimension === dim && (g.month !== null) === monthly),
      (g) => g.onTime.share !== null && g.onTime.count >= minimum,
      byOnTime,
    );
  return {
    zone,
    from: asked.from ?? null,
    to: asked.to ?? null,
    fromInstant: range.fromInstant,
    untilInstant: range.untilInstant,
    customer: asked.customer ?? null,
    minimum,
    firstEtaSource: FIRST_ETA_SOURCE,
    tables,
    historyFrom,
    carriers: pick('carrier', false),
    lanes: pick('lane', false),
    carrierLanes: pick('carrier-lane', false),
    terminals: dwell.filter((g) => g.month === null),
    months: {
      carriers: pick('carrier', true),
      lanes: pick('lane', true),
      carrierLanes: pick('carrier-lane', true),
      terminals: dwell.filter((g) => g.month !== null),
    },
  };
}
