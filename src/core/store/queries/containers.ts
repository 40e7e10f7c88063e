import type { ContainerRow } from '../../../shared/rows';
import type { ContainerStatus } from '../../../shared/status';
import type { ContainerFilters, containerSortFields } from '../../../shared/views';
import { inList, searchFilter } from './keyset';
import { defineListView } from './list-view';
import { shipmentWhere } from './shipments';

type ContainerSortField = (typeof containerSortFields)[number];

const sortColumns: Record<ContainerSortField, string> = {
  created_at: 'c.created_at',
  number: 'c.number',
  status: 'c.status',
  last_free_day: 'c.lfd_deadline_at',
  discharged: 'c.pod_discharged_at',
  available: 'c.available_for_pickup',
  picked_up: 'coalesce(c.pod_full_out_at, c.final_destination_full_out_at)',
  holds: 'c.holds_count',
  fees: 'c.fees_total',
};

const select = `c.id, c.shipment_id, c.number, c.status, c.equipment_type, c.equipment_length, c.equipment_height,
  s.bill_of_lading, s.shipping_line_scac, s.customer_name, s.pod_name, s.destination_name, t.name AS terminal_name,
  s.pod_vessel_name, s.pod_eta_at, s.pod_ata_at, c.pod_discharged_at, c.available_for_pickup, c.last_free_day,
  c.lfd_deadline_at, c.lfd_timezone, c.holds, c.fees_total, c.pickup_ready, c.pickup_appointment_at,
  coalesce(c.pod_full_out_at, c.final_destination_full_out_at) AS picked_up_at, c.empty_terminated_at,
  coalesce(c.pod_timezone, s.pod_timezone) AS pod_timezone, s.tags, c.created_at`;

// LEFT JOIN: a container the service sent without its shipment is still listed (and counted).
const from = `containers c LEFT JOIN shipments s ON s.id = c.shipment_id
  LEFT JOIN terminals t ON t.id = coalesce(c.pod_terminal_id, s.pod_terminal_id)`;

function containerWhere(filters: ContainerFilters, now: string, where: string[], params: unknown[]): void {
  where.push('c.synced_at IS NOT NULL');
  const { search, statuses, lfdFrom, lfdTo, onHold, holdTypes, pickupReady, overdue, ...shipmentFilters } = filters;
  // A container's own rows are enough unless a filter is about its shipment.
  shipmentWhere(shipmentFilters, where, params, false);
  if (search) {
    // Its own number, or anything on its shipment (BL, references, ports, customer…).
    const own: string[] = [];
    const ownParams: unknown[] = [];
    const viaShipment: string[] = [];
    const shipmentParams: unknown[] = [];
    searchFilter('rowid', 'container_search', search, own, ownParams);
    searchFilter('rowid', 'shipment_search', search, viaShipment, shipmentParams);
    if (own.length > 0) {
      where.push(
        `c.id IN (SELECT id FROM containers WHERE ${own.join(' AND ')} UNION SELECT c2.id FROM containers c2 JOIN shipments s2 ON s2.id = c2.shipment_id WHERE s2.${viaShipment.join(' AND s2.')})`,
      );
      params.push(...ownParams, ...shipmentParams);
    }
  }
  inList('c.status', statuses ?? [], where, params);
  if (lfdFrom) {
    where.push('c.lfd_deadline_at >= ?');
    params.push(lfdFrom);
  }
  if (lfdTo) {
    where.push('c.lfd_deadline_at <= ?');
    params.push(lfdTo);
  }
  if (onHold !== undefined) where.push(onHold ? 'c.holds_count > 0' : 'c.holds_count = 0');
  if (holdTypes && holdTypes.length > 0) {
    where.push(`(${holdTypes.map(() => "(',' || c.hold_types || ',') LIKE ?").join(' OR ')})`);
    params.push(...holdTypes.map((h) => `%,${h},%`));
  }
  if (pickupReady !== undefined) where.push(`c.pickup_ready = ${pickupReady ? 1 : 0}`);
  if (overdue !== undefined) {
    const condition = "c.lfd_deadline_at < ? AND c.status NOT IN ('picked_up', 'empty_returned')";
    where.push(overdue ? `(${condition})` : `NOT coalesce(${condition}, 0)`);
    params.push(now);
  }
}

function toContainerRow(r: Record<string, unknown>): ContainerRow {
  const s = (k: string) => (typeof r[k] === 'string' ? r[k] : null);
  const parse = <T>(k: string, fallback: T): T => {
    try {
      return typeof r[k] === 'string' ? (JSON.parse(r[k]) as T) : fallback;
    } catch {
      return fallback;
    }
  };
  const length = typeof r.equipment_length === 'number' ? `${r.equipment_length}'` : null;
  const equipment = [length, s('equipment_type'), s('equipment_height') === 'high_cube' ? 'HC' : null]
    .filter(Boolean)
    .join(' ');
  return {
    id: r.id as string,
    shipmentId: s('shipment_id'),
    number: s('number'),
    status: (s('status') ?? 'booked') as ContainerStatus,
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
    availableForPickup: r.available_for_pickup === null ? null : r.available_for_pickup === 1,
    lastFreeDay: s('last_free_day'),
    lfdDeadlineAt: s('lfd_deadline_at'),
    lfdTimezone: s('lfd_timezone'),
    holds: parse('holds', []),
    feesTotal: typeof r.fees_total === 'number' ? r.fees_total : null,
    pickupReady: r.pickup_ready === 1,
    pickupAppointmentAt: s('pickup_appointment_at'),
    pickedUpAt: s('picked_up_at'),
    emptyReturnedAt: s('empty_terminated_at'),
    podTimezone: s('pod_timezone'),
    tags: parse('tags', []),
    createdAt: s('created_at'),
  };
}

export const containerView = defineListView({
  select,
  from,
  idColumn: 'c.id',
  sortColumns,
  indexOrderedSorts: ['created_at'],
  where: (filters: ContainerFilters, where, params, now) => containerWhere(filters, now, where, params),
  countFrom: (where) =>
    where.some((w) => /\bs\./.test(w)) ? 'containers c LEFT JOIN shipments s ON s.id = c.shipment_id' : 'containers c',
  toRow: toContainerRow,
});

export const listContainers = containerView.page;
export const countContainers = containerView.count;
export const iterateContainers = containerView.iterate;
export const getContainerRow = containerView.get;
