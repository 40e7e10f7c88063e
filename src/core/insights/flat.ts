/**
 * Each insights group as one flat row with snake_case keys: the contract of `insights --json`
 * and the columns of the CSV and Excel export, so the two read the same figures under the same
 * names.
 */
import type { ArrivalGroup, DwellGroup, Spread } from '../../shared/insights';

export type FlatValue = string | number | boolean | null;
export type FlatRow = Record<string, FlatValue>;

export function flatArrival(g: ArrivalGroup): FlatRow {
  return {
    key: g.key,
    carrier: g.carrier,
    carrier_name: g.carrierName,
    pol: g.pol,
    pol_name: g.polName,
    pod: g.pod,
    pod_name: g.podName,
    month: g.month,
    shipments: g.shipments,
    small: g.small,
    rank: g.rank,
    on_time_share: g.onTime.share,
    on_time_count: g.onTime.count,
    on_time_unknown: g.onTime.unknown,
    slip_hours_p50: g.slipHours.p50,
    slip_hours_p90: g.slipHours.p90,
    slip_count: g.slipHours.count,
    eta_moves_mean: g.etaMoves.mean,
    eta_moved_share: g.etaMoves.movedShare,
    eta_moves_count: g.etaMoves.count,
    eta_history_not_covering: g.etaMoves.unknown,
    first_eta_from_history: g.firstEtaFromHistory,
  };
}

const spread = (name: string, s: Spread): FlatRow => ({
  [`${name}_days_p50`]: s.p50,
  [`${name}_days_p90`]: s.p90,
  [`${name}_count`]: s.count,
  [`${name}_unknown`]: s.unknown,
});

export function flatDwell(g: DwellGroup): FlatRow {
  return {
    key: g.key,
    kind: g.kind,
    name: g.name,
    month: g.month,
    containers: g.containers,
    small: g.small,
    rank: g.rank,
    ...spread('discharge_to_available', g.dischargeToAvailable),
    ...spread('available_to_picked_up', g.availableToPickedUp),
    ...spread('discharge_to_picked_up', g.dischargeToPickedUp),
    ...spread('picked_up_to_empty_returned', g.pickedUpToEmptyReturned),
    picked_up_after_lfd_share: g.pickedUpAfterLfd.share,
    picked_up_after_lfd_count: g.pickedUpAfterLfd.count,
    picked_up_after_lfd_unknown: g.pickedUpAfterLfd.unknown,
    cost_currency: g.cost?.currency ?? null,
    demurrage_cost: g.cost?.demurrage ?? null,
    detention_cost: g.cost?.detention ?? null,
    cost_total: g.cost?.total ?? null,
    cost_priced_boxes: g.cost?.priced ?? null,
    cost_unpriced_boxes: g.cost?.unpriced ?? null,
  };
}

/** Ranked groups first, by rank; then the rest, the most shipments (containers) first. */
export function byRank<G extends { rank: number | null; key: string }>(
  groups: readonly G[],
  size: (g: G) => number,
): G[] {
  return [...groups].sort(
    (a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || size(b) - size(a) || a.key.localeCompare(b.key),
  );
}
