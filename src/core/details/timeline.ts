/**
 * A container's milestones from empty-out to empty-return, built from what the store has:
 * the shipment's and container's attributes (always there, so a timeline never waits for events)
 * and the transport events when they have been fetched (they add origin and transshipment
 * moves). Planned moments appear as estimated. An event the carrier withdrew, or one a
 * correction replaced, is never a milestone: the correction takes its place, else the records'
 * dates (unless they still carry the withdrawn time), else the estimate.
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
  /** Withdrawn by the carrier: kept for history, never a milestone. */
  invalidated_at?: string | null;
  /** Named by a correction as its previous version: the correction stands in its place. */
  replaced?: number | boolean | null;
  /** Names a previous version: it corrects an event the carrier withdrew. */
  corrects?: number | boolean | null;
}

const order = Object.keys(milestoneLabels);
// The legs of a box's ride inland, its arrival at the inland destination last.
const railLegs = ['rail_loaded', 'rail_departed', 'rail_arrived', 'rail_unloaded', 'arrived_at_inland_destination'];

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
  const put = (
    key: string,
    at: string | null,
    estimated: boolean,
    place: string | null,
    timezone: string | null,
    corrected = false,
  ) => {
    if (!at) return;
    const existing = byKey.get(key);
    // An actual beats an estimate; the first actual of a kind wins (the transshipment repeats).
    if (existing && (!existing.estimated || estimated)) return;
    const label = milestoneLabels[key] ?? key;
    byKey.set(key, { key, label, at, estimated, place, timezone, ...(corrected ? { corrected } : {}) });
  };
  // What the carrier withdrew, by kind and instant: a record still carrying that time (the
  // service may copy an event's time into the container's attributes) is not taken as fact.
  const withdrawn = new Set<string>();
  const actual = (key: string, value: unknown): string | null => {
    const at = storedInstant(value);
    return at !== null && withdrawn.has(`${key} ${at}`) ? null : at;
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
    // A withdrawn event, or one a correction replaces, is history, never a milestone.
    if (e.invalidated_at || e.replaced) {
      if (at !== null) withdrawn.add(`${key} ${at}`);
      continue;
    }
    put(key, at, at !== null && Date.parse(at) > now, e.port_name ?? e.location_locode, e.timezone, !!e.corrects);
  }

  put('empty_out', actual('empty_out', container.empty_out_at), false, pol, polTz);
  put('full_in', actual('full_in', container.pol_full_in_at), false, pol, polTz);
  put('vessel_loaded', actual('vessel_loaded', container.pol_vessel_loaded_at), false, pol, polTz);
  // The box's own departure (its first vessel) before the shipment's.
  const departed =
    actual('vessel_departed', container.pol_vessel_departed_at) ?? actual('vessel_departed', shipment.pol_atd_at);
  put('vessel_departed', departed ?? storedInstant(shipment.pol_etd_at), !departed, pol, polTz);
  const arrived = actual('vessel_arrived', container.pod_arrived_at) ?? actual('vessel_arrived', shipment.pod_ata_at);
  put('vessel_arrived', arrived ?? storedInstant(shipment.pod_eta_at), !arrived, pod, podTz);
  put('vessel_discharged', actual('vessel_discharged', container.pod_discharged_at), false, pod, podTz);
  put('rail_loaded', actual('rail_loaded', container.pod_rail_loaded_at), false, pod, podTz);
  put('rail_departed', actual('rail_departed', container.pod_rail_departed_at), false, pod, podTz);
  const inland = actual('rail_arrived', container.ind_ata_at);
  put('rail_arrived', inland ?? storedInstant(container.ind_eta_at), !inland, destination, destTz);
  put('rail_unloaded', actual('rail_unloaded', container.ind_rail_unloaded_at), false, destination, destTz);
  const inlandFullOut = actual('full_out', container.final_destination_full_out_at);
  const fullOut = actual('full_out', container.pod_full_out_at) ?? inlandFullOut;
  put('full_out', fullOut, false, inlandFullOut ? destination : pod, inlandFullOut ? destTz : podTz);
  put('delivered', actual('delivered', container.delivered_at), false, null, inlandFullOut ? destTz : podTz);
  const emptyIn = actual('empty_in', container.empty_terminated_at);
  put('empty_in', emptyIn, false, null, text(container.empty_terminated_timezone));

  // A box that rides inland becomes available at the rail ramp, after its rail legs, not at the
  // port: an actual availability no earlier than the last actual rail leg goes after it.
  const lastRailLeg = railLegs
    .map((key) => byKey.get(key))
    .filter((m): m is Milestone => m !== undefined && !m.estimated && m.at !== null)
    .at(-1);
  const availableHere = byKey.get('available');
  const rank = (m: Milestone): number =>
    m === availableHere && lastRailLeg && !m.estimated && (m.at ?? '') >= (lastRailLeg.at ?? '')
      ? order.indexOf(lastRailLeg.key) + 0.5
      : order.indexOf(m.key);
  return [...byKey.values()].sort((a, b) => {
    const byOrder = rank(a) - rank(b);
    return byOrder !== 0 ? byOrder : (a.at ?? '').localeCompare(b.at ?? '');
  });
}
