/**
 * A container's milestones from empty-out to empty-return, built from what the store has:
 * the shipment's and container's attributes (always there, so a timeline never waits for events)
 * and the transport events when they have been fetched (they add origin and transshipment
 * moves). Planned moments appear as estimated.
 */
import { milestoneLabels } from '../../shared/labels';
import type { Milestone } from '../../shared/types';
import { storedInstant } from '../store/instant';

type Attributes = Record<string, unknown>;
interface EventRow {
  event: string | null;
  timestamp: string | null;
  timezone: string | null;
  location_locode: string | null;
  port_name: string | null;
}

const order = Object.keys(milestoneLabels);

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function buildMilestones(
  shipment: Attributes,
  container: Attributes,
  events: EventRow[],
  now = Date.now(),
): Milestone[] {
  const byKey = new Map<string, Milestone>();
  const put = (key: string, at: string | null, estimated: boolean, place: string | null, timezone: string | null) => {
    if (!at) return;
    const existing = byKey.get(key);
    // An actual beats an estimate; the first actual of a kind wins (the transshipment repeats).
    if (existing && (!existing.estimated || estimated)) return;
    byKey.set(key, { key, label: milestoneLabels[key] ?? key, at, estimated, place, timezone });
  };
  // Dates from the raw record are checked as the store checks its columns: a bad one counts as none.
  const pol = text(shipment.port_of_lading_name);
  const pod = text(shipment.port_of_discharge_name);
  const destination = text(shipment.destination_name);
  const polTz = text(shipment.pol_timezone);
  const podTz = text(container.pod_timezone) ?? text(shipment.pod_timezone);
  const destTz = text(container.final_destination_timezone) ?? text(shipment.destination_timezone);

  for (const e of events) {
    if (!e.event) continue;
    const key = e.event.replace(/^container\.transport\./, '');
    if (!(key in milestoneLabels)) continue;
    const at = storedInstant(e.timestamp);
    put(key, at, at !== null && Date.parse(at) > now, e.port_name ?? e.location_locode, e.timezone);
  }

  put('empty_out', storedInstant(container.empty_out_at), false, pol, polTz);
  put('full_in', storedInstant(container.pol_full_in_at), false, pol, polTz);
  put('vessel_loaded', storedInstant(container.pol_vessel_loaded_at), false, pol, polTz);
  // The box's own departure (its first vessel) before the shipment's.
  const departed = storedInstant(container.pol_vessel_departed_at) ?? storedInstant(shipment.pol_atd_at);
  put('vessel_departed', departed ?? storedInstant(shipment.pol_etd_at), !departed, pol, polTz);
  const arrived = storedInstant(container.pod_arrived_at) ?? storedInstant(shipment.pod_ata_at);
  put('vessel_arrived', arrived ?? storedInstant(shipment.pod_eta_at), !arrived, pod, podTz);
  put('vessel_discharged', storedInstant(container.pod_discharged_at), false, pod, podTz);
  put('rail_loaded', storedInstant(container.pod_rail_loaded_at), false, pod, podTz);
  put('rail_departed', storedInstant(container.pod_rail_departed_at), false, pod, podTz);
  const inland = storedInstant(container.ind_ata_at);
  put('rail_arrived', inland ?? storedInstant(container.ind_eta_at), !inland, destination, destTz);
  put('rail_unloaded', storedInstant(container.ind_rail_unloaded_at), false, destination, destTz);
  const fullOut = storedInstant(container.pod_full_out_at) ?? storedInstant(container.final_destination_full_out_at);
  const inlandFullOut = storedInstant(container.final_destination_full_out_at) !== null;
  put('full_out', fullOut, false, inlandFullOut ? destination : pod, inlandFullOut ? destTz : podTz);
  put('delivered', storedInstant(container.delivered_at), false, null, inlandFullOut ? destTz : podTz);
  put('empty_in', storedInstant(container.empty_terminated_at), false, null, text(container.empty_terminated_timezone));

  return [...byKey.values()].sort((a, b) => {
    const byOrder = order.indexOf(a.key) - order.indexOf(b.key);
    return byOrder !== 0 ? byOrder : (a.at ?? '').localeCompare(b.at ?? '');
  });
}
