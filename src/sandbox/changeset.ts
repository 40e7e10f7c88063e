/** What a container update (`container_updated_event`) says changed: its alertable attributes before and after. */
import { iso } from './entity';
import type { ContainerPlan } from './model';
import { containerState } from './state';

/** What a container's alertable attributes were just before an instant and are at it (`[before, after]` per changed one). */
export function containerChangeset(c: ContainerPlan, at: number): Record<string, [unknown, unknown]> {
  const view = (t: number) => {
    const state = containerState(c, t);
    return {
      available_for_pickup: state.availableForPickup,
      pickup_lfd: iso(state.lineLastFreeDay ?? state.lastFreeDay ?? state.railLastFreeDay),
      fees_at_pod_terminal: state.fees,
      holds_at_pod_terminal: state.holds,
      pickup_appointment_at: iso(state.appointmentAt),
      ind_facility_holds: state.facilityHolds,
      ind_facility_fees: state.facilityFees,
      delivered_at: iso(state.deliveredAt),
      // What the service writes moves the record's update time even when no alertable attribute shows it.
      updated_at: iso(state.updatedAt),
    };
  };
  const before: Record<string, unknown> = view(at - 1000);
  const after: Record<string, unknown> = view(at);
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changes[key] = [before[key], after[key]];
  }
  return changes;
}
