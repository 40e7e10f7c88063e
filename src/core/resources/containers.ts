import { hash } from 'node:crypto';
import { holdLabel } from '../../shared/labels';
import { containerStatusLabels, statusesOfGroups } from '../../shared/status';
import { deriveContainer, totalOfFees, type DerivedContainer } from '../derive/container';
import { dateOnly, timestamp } from '../export/columns';
import { storedInstantOrDate, withCheckedDates } from '../store/instant';
import { bool, num, relId, str, strings, type StoredResource } from '../store/resource';
import { customFieldFilters, daysIn, flag, from, oneOf, searchEither, to } from '../store/queries/list-sql';
import { pickupInputOf, pickupReadyFilter } from '../store/queries/pickup-ready';
import {
  attribute,
  columns,
  defineResource,
  idColumn,
  PAGE_SIZE,
  rawColumn,
  relationship,
  syncedAtColumn,
  type WriteContext,
} from './define';
import { defineList, type BaseRowOf } from './define-list';
import { shipmentFilters } from './shipments';

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
  'ssl_lfd',
] as const;
const deadlineDates = {
  member: 'import_deadlines',
  names: ['pickup_lfd_terminal', 'pickup_lfd_rail', 'pickup_lfd_line'],
};

/**
 * Attributes that change on every check without anything happening to the box. The live service
 * also sends `rail_last_tracking_request_at` (when the railroad was last asked), which moves on
 * every check of a box on rail: counted, it would re-fetch every rail box's events on every sync.
 */
const volatileContainerAttributes = new Set([
  'terminal_checked_at',
  'pod_last_tracking_request_at',
  'shipment_last_tracking_request_at',
  'rail_last_tracking_request_at',
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

/**
 * `events_synced_at` of a box whose events were never stored whole: the epoch, so the sync plan
 * (`changed_at > events_synced_at`) fetches them, with the length of every mark (an ISO instant
 * with milliseconds). Read as "never" (`eventsSyncedAtOf`); NULL is a stub's.
 */
export const EVENTS_PENDING = new Date(0).toISOString();

/** SQL: the box `c` (an alias of `containers`) owes its events: never stored whole, or it changed since. */
export const owesEvents = (c: string) =>
  `(${c}.events_synced_at IS NULL OR ${c}.events_synced_at = '${EVENTS_PENDING}' OR ${c}.changed_at > ${c}.events_synced_at)`;

/** A stored `events_synced_at` as the instant the box's events were stored whole, if they were. */
export function eventsSyncedAtOf(stored: string | null): string | null {
  return stored === EVENTS_PENDING ? null : stored;
}

/** As SQLite's `json_array_length(raw, '$.relationships.transport_events.data')`. */
function listedEvents(r: StoredResource): number | null {
  const rel: unknown = r.relationships?.transport_events;
  if (typeof rel !== 'object' || rel === null || Array.isArray(rel) || !('data' in rel)) return null;
  const data: unknown = rel.data;
  return Array.isArray(data) ? data.length : 0;
}

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
    shipment_id: c.ref('shipments', (r) => relId(r, 'shipment'), {
      indexed: true,
      holds: relationship('shipment', 'shipment'),
    }),
    number: c.textOf('number', { indexed: true }),
    equipment_type: c.textOf('equipment_type'),
    equipment_length: c.integer((r) => num(r.attributes.equipment_length), { holds: attribute('equipment_length') }),
    equipment_height: c.textOf('equipment_height'),
    weight_lbs: c.real((r) => num(r.attributes.weight_in_lbs), { holds: attribute('weight_in_lbs') }),
    seal_number: c.textOf('seal_number'),
    api_status: c.textOf('current_status'),
    status: c.text((_r, _w, d) => d.status, { indexed: true }),
    // The pickup facility is nearly always the terminal the box is discharged at.
    pod_terminal_id: c.ref('terminals', (r) => relId(r, 'pod_terminal'), {
      holds: [relationship('pod_terminal', 'terminal'), relationship('pickup_facility', 'terminal')],
    }),
    pod_arrived_at: c.instantOf('pod_arrived_at'),
    pod_discharged_at: c.instantOf('pod_discharged_at', { indexed: true }),
    available_for_pickup: c.integer((r) => bool(r.attributes.available_for_pickup), {
      holds: attribute('available_for_pickup', 'flag'),
    }),
    availability_known: c.integer((r) => bool(r.attributes.availability_known), {
      holds: attribute('availability_known', 'flag'),
    }),
    pickup_lfd: c.text((r) => storedInstantOrDate(r.attributes.pickup_lfd), { holds: attribute('pickup_lfd') }),
    last_free_day: c.text((_r, _w, d) => d.lastFreeDay),
    lfd_deadline_at: c.text((_r, _w, d) => d.lfdDeadlineAt, { indexed: true }),
    lfd_timezone: c.text((_r, _w, d) => d.lfdTimezone),
    // Whose deadline last_free_day is (terminal or rail), so a change of it says which (migration 0006).
    lfd_source: c.text((_r, _w, d) => d.lfdSource),
    holds: c.text((_r, _w, d) => JSON.stringify(d.holds)),
    hold_types: c.text((_r, _w, d) => (d.holdTypes.length > 0 ? d.holdTypes.join(',') : null)),
    holds_count: c.integer((_r, _w, d) => d.holds.length, { indexed: true }),
    fees_total: c.real((_r, _w, d) => d.feesTotal),
    pickup_ready: c.integer((_r, _w, d) => (d.pickupReady ? 1 : 0)),
    pickup_appointment_at: c.instantOf('pickup_appointment_at'),
    pod_full_out_at: c.instantOf('pod_full_out_at'),
    final_destination_full_out_at: c.instantOf('final_destination_full_out_at'),
    empty_terminated_at: c.instantOf('empty_terminated_at'),
    delivered_at: c.instantOf('delivered_at'),
    empty_out_at: c.instantOf('empty_out_at'),
    pol_full_in_at: c.instantOf('pol_full_in_at'),
    pol_vessel_loaded_at: c.instantOf('pol_vessel_loaded_at'),
    pol_vessel_departed_at: c.instantOf('pol_vessel_departed_at'),
    // The shipping line's own last free day, beside the terminal's: a calendar date where the box waits.
    line_lfd: c.text((_r, _w, d) => d.lineLfd),
    facility_holds: c.text((_r, _w, d) => (d.facilityHolds === null ? null : JSON.stringify(d.facilityHolds))),
    facility_fees_total: c.real((r) => totalOfFees(r.attributes.ind_facility_fees)),
    location_at_pod_terminal: c.textOf('location_at_pod_terminal'),
    pod_rail_carrier_scac: c.textOf('pod_rail_carrier_scac'),
    ind_rail_carrier_scac: c.textOf('ind_rail_carrier_scac'),
    pod_rail_loaded_at: c.instantOf('pod_rail_loaded_at'),
    pod_rail_departed_at: c.instantOf('pod_rail_departed_at'),
    ind_eta_at: c.instantOf('ind_eta_at'),
    ind_ata_at: c.instantOf('ind_ata_at'),
    pod_timezone: c.textOf('pod_timezone'),
    terminal_checked_at: c.instantOf('terminal_checked_at'),
    ref_numbers: c.text((r) => JSON.stringify(strings(r.attributes.ref_numbers)), {
      holds: attribute('ref_numbers', 'json'),
    }),
    created_at: c.instantOf('created_at', { indexed: true }),
    // How many events the record lists (null: it says nothing), read by the sync plan (migration 0008).
    listed_events: c.integer((r) => listedEvents(r)),
    raw: rawColumn,
    raw_hash: c.text((r) => containerHash(r)),
    synced_at: syncedAtColumn,
    changed_at: c.text((_r, w) => w.syncedAt),
    // When the box's events were last stored whole, set by the events-complete mark (writer.ts).
    // A box is written first with EVENTS_PENDING, as long as a mark, so the mark rewrites its row
    // in place: a row grown after the shipments' walk wrote it split its full page.
    events_synced_at: c.text(() => EVENTS_PENDING),
    // Check times every record carries, held as epoch milliseconds: a sixth of their JSON (migration 0017).
    updated_at: c.epochOf('updated_at'),
    shipment_tracked_at: c.epochOf('shipment_last_tracking_request_at'),
  },
  // raw keeps only what the columns do not hold (store/residual.ts), nor these when they are as usual.
  usual: {
    attributes: {
      holds_at_pod_terminal: [],
      fees_at_pod_terminal: [],
      pod_full_out_chassis_number: null,
      pod_last_tracking_request_at: null,
      final_destination_timezone: null,
      empty_terminated_timezone: null,
      ind_rail_unloaded_at: null,
      ind_facility_lfd_on: null,
      import_deadlines: { pickup_lfd_terminal: null, pickup_lfd_rail: null, pickup_lfd_line: null },
      ssl_lfd: null,
      ind_facility_holds: null,
      ind_facility_fees: null,
      rail_last_tracking_request_at: null,
    },
  },
  selfLink: '/v2/containers/',
  // changed_at moves only when the box's own data changed (raw_hash), so events are fetched only then.
  onConflict: {
    changed_at:
      'CASE WHEN containers.raw_hash IS excluded.raw_hash THEN containers.changed_at ELSE excluded.synced_at END',
    // Only the mark moves a stored value (a stub's NULL takes the placeholder).
    events_synced_at: 'coalesce(containers.events_synced_at, excluded.events_synced_at)',
  },
  // Change history: what a forwarder acts on at the terminal. A box whose hash is unchanged changed nothing.
  history: {
    shipment: 'shipment_id',
    unchangedWhenEqual: 'raw_hash',
    fields: [
      { field: 'status', column: 'status' },
      {
        field: 'lfd_terminal',
        column: 'last_free_day',
        fieldBy: { column: 'lfd_source', fields: { terminal: 'lfd_terminal', rail: 'lfd_rail' } },
      },
      { field: 'lfd_line', column: 'line_lfd' },
      { field: 'hold', column: 'holds', as: 'holds' },
      { field: 'facility_hold', column: 'facility_holds', as: 'holds' },
      { field: 'available', column: 'available_for_pickup', as: 'flag' },
      { field: 'fees', column: 'fees_total' },
    ],
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

type Row = BaseRowOf<'containers'>;
// A container's own rows are enough unless a filter is about its shipment.
const { search: _shipmentSearch, ...byShipment } = shipmentFilters;
const overdue = "c.lfd_deadline_at < ? AND c.status NOT IN ('picked_up', 'empty_returned')";

/** The containers list: each box with its shipment's fields, sorts, filters and CSV columns. */
export const containersList = defineList({
  name: 'containers',
  noun: 'container',
  select: `c.id, c.shipment_id, c.number, c.status, c.equipment_type, c.equipment_length, c.equipment_height,
  s.bill_of_lading, s.shipping_line_scac, s.customer_name, s.pod_name, s.destination_name, t.name AS terminal_name,
  s.pod_vessel_name, s.pod_eta_at, s.pod_ata_at, c.pod_discharged_at, c.available_for_pickup, c.last_free_day,
  c.lfd_deadline_at, c.lfd_timezone, c.line_lfd, c.holds, c.fees_total, c.pickup_ready, c.pickup_appointment_at,
  c.facility_holds, c.lfd_source, c.terminal_checked_at,
  coalesce(c.pod_full_out_at, c.final_destination_full_out_at) AS picked_up_at, c.empty_terminated_at,
  coalesce(c.pod_timezone, s.pod_timezone) AS pod_timezone, s.tags, c.created_at`,
  // LEFT JOIN: a container the service sent without its shipment is still listed (and counted).
  from: `containers c LEFT JOIN shipments s ON s.id = c.shipment_id
  LEFT JOIN terminals t ON t.id = coalesce(c.pod_terminal_id, s.pod_terminal_id)`,
  idColumn: 'c.id',
  customFields: 'container',
  countFrom: (where) =>
    where.some((w) => /\bs\./.test(w)) ? 'containers c LEFT JOIN shipments s ON s.id = c.shipment_id' : 'containers c',
  sort: {
    created_at: 'c.created_at',
    number: 'c.number',
    status: 'c.status',
    // Boxes already picked up or returned empty are done with their last free day: they sort
    // after the ones still waiting (with the boxes that have none), either way round.
    last_free_day: { column: 'c.lfd_deadline_at', when: "c.status NOT IN ('picked_up', 'empty_returned')" },
    discharged: 'c.pod_discharged_at',
    available: 'c.available_for_pickup',
    picked_up: 'coalesce(c.pod_full_out_at, c.final_destination_full_out_at)',
    holds: 'c.holds_count',
    fees: 'c.fees_total',
  },
  indexOrderedSorts: ['created_at'],
  tiesById: ['status'],
  filters: {
    ...byShipment,
    // Its own number, or anything on its shipment (BL, references, ports, customer…).
    search: searchEither(
      { table: 'container_search', ownRow: 'c.rowid' },
      {
        // The shipment's own text, not its boxes' numbers (a sibling box's number finds that box alone).
        table: 'shipment_search',
        columns: [{ name: 'body', stored: 'c0' }],
        // The containers of the matching shipments, by rowid.
        rowsOf: (matching) =>
          `SELECT c2.rowid FROM shipments s2 JOIN containers c2 ON c2.shipment_id = s2.id WHERE s2.rowid IN (${matching})`,
        // The container's shipment matching.
        relatedRows: (test) =>
          `EXISTS (SELECT 1 FROM shipments s3 WHERE s3.id = c.shipment_id AND ${test('s3.rowid')})`,
      },
    ),
    statuses: oneOf('c.status'),
    // A stage is its statuses, resolved here so a saved stage follows what it means.
    statusGroups: (groups, q) => oneOf('c.status')(statusesOfGroups(groups), q),
    lfdFrom: from('c.lfd_deadline_at'),
    lfdTo: to('c.lfd_deadline_at'),
    // The day as the list shows it (where the box waits); overdue as the Overdue filter.
    lfdDays: daysIn('c.last_free_day', 'date', overdue),
    onHold: flag('c.holds_count > 0', 'c.holds_count = 0'),
    holdTypes: (types, q) => {
      if (types.length === 0) return;
      q.where.push(`(${types.map(() => "(',' || c.hold_types || ',') LIKE ?").join(' OR ')})`);
      q.params.push(...types.map((h) => `%,${h},%`));
    },
    // The Pickup column's own decision, at the query's moment with the Settings stale limit (not
    // the stored pickup_ready, which reads availability and holds only).
    pickupReady: pickupReadyFilter,
    // The box's own fields (the shipment's are the shipments list's).
    customFields: customFieldFilters('container', 'c.id'),
    overdue: (yes, q) => {
      q.where.push(yes ? `(${overdue})` : `NOT coalesce(${overdue}, 0)`);
      q.params.push(q.now);
    },
  },
  toRow: (r) => {
    const s = (k: string) => (typeof r[k] === 'string' ? r[k] : null);
    const parse = <T>(k: string, fallback: T): T => {
      try {
        return typeof r[k] === 'string' ? (JSON.parse(r[k]) as T) : fallback;
      } catch {
        return fallback;
      }
    };
    // Read as the Ready for pickup filter reads them, so the Pickup column and the filter agree.
    const pickup = pickupInputOf(
      r.status,
      r.available_for_pickup,
      r.holds,
      r.facility_holds,
      r.fees_total,
      r.terminal_checked_at,
    );
    const length = typeof r.equipment_length === 'number' ? `${r.equipment_length}'` : null;
    const equipment = [length, s('equipment_type'), s('equipment_height') === 'high_cube' ? 'HC' : null]
      .filter(Boolean)
      .join(' ');
    return {
      id: r.id as string,
      shipmentId: s('shipment_id'),
      number: s('number'),
      status: pickup.status,
      equipment: equipment || null,
      billOfLading: s('bill_of_lading'),
      carrierScac: s('shipping_line_scac'),
      customer: s('customer_name'),
      portOfDischarge: s('pod_name'),
      destination: s('destination_name'),
      terminal: s('terminal_name'),
      vessel: s('pod_vessel_name'),
      eta: s('pod_eta_at'),
      ata: s('pod_ata_at'),
      dischargedAt: s('pod_discharged_at'),
      availableForPickup: pickup.availableForPickup,
      lastFreeDay: s('last_free_day'),
      lfdDeadlineAt: s('lfd_deadline_at'),
      lfdTimezone: s('lfd_timezone'),
      lineLastFreeDay: s('line_lfd'),
      holds: pickup.holds,
      facilityHolds: pickup.facilityHolds,
      feesTotal: pickup.feesTotal,
      pickupReady: r.pickup_ready === 1,
      lfdSource: r.lfd_source === 'terminal' || r.lfd_source === 'rail' ? r.lfd_source : null,
      terminalCheckedAt: pickup.terminalCheckedAt,
      pickupAppointmentAt: s('pickup_appointment_at'),
      pickedUpAt: s('picked_up_at'),
      emptyReturnedAt: s('empty_terminated_at'),
      podTimezone: s('pod_timezone'),
      tags: parse('tags', []),
      createdAt: s('created_at'),
    };
  },
  export: [
    { key: 'number', header: 'Container', value: (r) => r.number },
    { key: 'current_status', header: 'Status', value: (r) => containerStatusLabels[r.status] },
    { key: 'equipment', header: 'Equipment', value: (r) => r.equipment },
    { key: 'bill_of_lading_number', header: 'Bill of lading', value: (r) => r.billOfLading },
    { key: 'shipping_line_scac', header: 'Carrier SCAC', value: (r) => r.carrierScac },
    { key: 'customer_name', header: 'Customer', value: (r) => r.customer },
    { key: 'port_of_discharge_name', header: 'Port of discharge', value: (r) => r.portOfDischarge },
    { key: 'destination_name', header: 'Destination', value: (r) => r.destination },
    { key: 'pod_terminal', header: 'Terminal', value: (r) => r.terminal },
    { key: 'pod_vessel_name', header: 'Vessel', value: (r) => r.vessel },
    ...timestamp<Row>(
      'pod_eta_at',
      'ETA',
      (r) => r.eta,
      (r) => r.podTimezone,
    ),
    ...timestamp<Row>(
      'pod_ata_at',
      'ATA',
      (r) => r.ata,
      (r) => r.podTimezone,
    ),
    ...timestamp<Row>(
      'pod_discharged_at',
      'Discharged',
      (r) => r.dischargedAt,
      (r) => r.podTimezone,
    ),
    { key: 'available_for_pickup', header: 'Available for pickup', value: (r) => r.availableForPickup },
    dateOnly<Row>('pickup_lfd', 'Last free day', (r) => r.lastFreeDay),
    dateOnly<Row>('ssl_lfd', 'Last free day (line)', (r) => r.lineLastFreeDay),
    // As the list shows them: the holds still in force, in words ("Customs", "USDA").
    {
      key: 'holds_at_pod_terminal',
      header: 'Holds',
      value: (r) => r.holds.filter((h) => h.status !== 'released').map((h) => holdLabel(h.name)),
    },
    { key: 'fees_total', header: 'Fees (USD)', value: (r) => r.feesTotal },
    { key: 'pickup_ready', header: 'Ready for pickup', value: (r) => r.pickupReady },
    ...timestamp<Row>(
      'pickup_appointment_at',
      'Pickup appointment',
      (r) => r.pickupAppointmentAt,
      (r) => r.podTimezone,
    ),
    ...timestamp<Row>(
      'pod_full_out_at',
      'Picked up',
      (r) => r.pickedUpAt,
      (r) => r.podTimezone,
    ),
    ...timestamp<Row>(
      'empty_terminated_at',
      'Empty returned',
      (r) => r.emptyReturnedAt,
      (r) => r.podTimezone,
    ),
    { key: 'tags', header: 'Tags', value: (r) => r.tags },
  ],
});
