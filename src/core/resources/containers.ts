import { hash } from 'node:crypto';
import { deriveContainer, type DerivedContainer } from '../derive/container';
import { storedInstant, storedInstantOrDate, withCheckedDates } from '../store/instant';
import { bool, num, relId, str, strings, type StoredResource } from '../store/resource';
import { columns, defineResource, idColumn, PAGE_SIZE, rawColumn, syncedAtColumn, type WriteContext } from './define';

/** Date attributes the derived container fields read, besides the columns written below. */
const derivedDateAttributes = [
  'pickup_lfd',
  'ind_facility_lfd_on',
  'pod_arrived_at',
  'pod_discharged_at',
  'pod_full_out_at',
  'final_destination_full_out_at',
  'empty_terminated_at',
  'pod_rail_loaded_at',
  'pod_rail_departed_at',
  'ind_rail_unloaded_at',
] as const;
const deadlineDates = {
  member: 'import_deadlines',
  names: ['pickup_lfd_terminal', 'pickup_lfd_rail', 'pickup_lfd_line'],
};

/** Attributes that change on every check without anything happening to the box. */
const volatileContainerAttributes = new Set([
  'terminal_checked_at',
  'pod_last_tracking_request_at',
  'shipment_last_tracking_request_at',
  'updated_at',
]);

/**
 * The hash of what the box's own record says, volatile check times left out. The same text as
 * stringifying with a replacer that drops those keys (no nested member of a container record
 * carries one), without calling a replacer for every key: this runs for every container written.
 */
export function containerHash(resource: StoredResource): string {
  // No prototype: an attribute named "__proto__" stays a member, as it is in the record.
  const kept: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key in resource.attributes) {
    if (!volatileContainerAttributes.has(key)) kept[key] = resource.attributes[key];
  }
  return hash('sha1', JSON.stringify(kept), 'base64');
}

/** Status, last free day, holds and pickup readiness, with the shipment's dates and zones. */
function derive(r: StoredResource, w: WriteContext): DerivedContainer {
  const shipment = w.contextOf('shipments', relId(r, 'shipment'));
  return deriveContainer(withCheckedDates(r.attributes, derivedDateAttributes, deadlineDates), {
    polAtdAt: str(shipment.pol_atd_at),
    podTimezone: str(shipment.pod_timezone),
    destinationTimezone: str(shipment.destination_timezone),
  });
}

const c = columns<DerivedContainer>();
const text = (name: string) => (r: StoredResource) => str(r.attributes[name]);
const instant = (name: string) => (r: StoredResource) => storedInstant(r.attributes[name]);

/** Containers, walked on full runs with their transport events included. */
export const containers = defineResource({
  name: 'containers',
  types: ['container'],
  table: 'containers',
  // Events bring their terminal: a rail ramp (rail_terminal) is included nowhere else.
  api: {
    path: '/containers',
    includes: ['transport_events', 'transport_events.vessel', 'transport_events.terminal'],
  },
  writeRank: 70,
  derive,
  columns: {
    id: idColumn,
    shipment_id: c.ref('shipments', (r) => relId(r, 'shipment'), { indexed: true }),
    number: c.text(text('number'), { indexed: true }),
    equipment_type: c.text(text('equipment_type')),
    equipment_length: c.integer((r) => num(r.attributes.equipment_length)),
    equipment_height: c.text(text('equipment_height')),
    weight_lbs: c.real((r) => num(r.attributes.weight_in_lbs)),
    seal_number: c.text(text('seal_number')),
    api_status: c.text(text('current_status')),
    status: c.text((_r, _w, d) => d.status, { indexed: true }),
    pod_terminal_id: c.ref('terminals', (r) => relId(r, 'pod_terminal')),
    pod_arrived_at: c.text(instant('pod_arrived_at')),
    pod_discharged_at: c.text(instant('pod_discharged_at'), { indexed: true }),
    available_for_pickup: c.integer((r) => bool(r.attributes.available_for_pickup)),
    availability_known: c.integer((r) => bool(r.attributes.availability_known)),
    pickup_lfd: c.text((r) => storedInstantOrDate(r.attributes.pickup_lfd)),
    last_free_day: c.text((_r, _w, d) => d.lastFreeDay),
    lfd_deadline_at: c.text((_r, _w, d) => d.lfdDeadlineAt, { indexed: true }),
    lfd_timezone: c.text((_r, _w, d) => d.lfdTimezone),
    holds: c.text((_r, _w, d) => JSON.stringify(d.holds)),
    hold_types: c.text((_r, _w, d) => (d.holdTypes.length > 0 ? d.holdTypes.join(',') : null)),
    holds_count: c.integer((_r, _w, d) => d.holds.length),
    fees_total: c.real((_r, _w, d) => d.feesTotal),
    pickup_ready: c.integer((_r, _w, d) => (d.pickupReady ? 1 : 0)),
    pickup_appointment_at: c.text(instant('pickup_appointment_at')),
    pod_full_out_at: c.text(instant('pod_full_out_at')),
    final_destination_full_out_at: c.text(instant('final_destination_full_out_at')),
    empty_terminated_at: c.text(instant('empty_terminated_at')),
    location_at_pod_terminal: c.text(text('location_at_pod_terminal')),
    pod_rail_carrier_scac: c.text(text('pod_rail_carrier_scac')),
    ind_rail_carrier_scac: c.text(text('ind_rail_carrier_scac')),
    pod_rail_loaded_at: c.text(instant('pod_rail_loaded_at')),
    pod_rail_departed_at: c.text(instant('pod_rail_departed_at')),
    ind_eta_at: c.text(instant('ind_eta_at')),
    ind_ata_at: c.text(instant('ind_ata_at')),
    pod_timezone: c.text(text('pod_timezone')),
    terminal_checked_at: c.text(instant('terminal_checked_at')),
    ref_numbers: c.text((r) => JSON.stringify(strings(r.attributes.ref_numbers))),
    created_at: c.text(instant('created_at'), { indexed: true }),
    raw: rawColumn,
    raw_hash: c.text((r) => containerHash(r)),
    synced_at: syncedAtColumn,
    changed_at: c.text((_r, w) => w.syncedAt),
  },
  // changed_at moves only when the box's own data changed (raw_hash), so events are fetched only then.
  onConflict: {
    changed_at:
      'CASE WHEN containers.raw_hash IS excluded.raw_hash THEN containers.changed_at ELSE excluded.synced_at END',
  },
  keptColumns: {
    events_synced_at: { type: 'TEXT', writtenBy: 'writeResources({ eventsCompleteFor })' },
  },
  // A container's own search row holds its number; the rest is found through its shipment's row.
  search: { table: 'container_search', body: (r) => str(r.attributes.number) || null },
  walks: [
    {
      key: 'containers:events',
      order: 70,
      step: 'Containers and their events',
      noun: 'containers',
      query: { 'page[size]': PAGE_SIZE },
      when: { kind: 'full' },
      estimate: 'stored rows',
      carriesEvents: true,
    },
  ],
});
