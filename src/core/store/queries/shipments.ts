import type { ShipmentRow } from '../../../shared/rows';
import type { ShipmentFilters, shipmentSortFields } from '../../../shared/views';
import { inList, searchFilter } from './keyset';
import { defineListView } from './list-view';

type ShipmentSortField = (typeof shipmentSortFields)[number];

const sortColumns: Record<ShipmentSortField, string> = {
  created_at: 's.created_at',
  bill_of_lading: 's.bill_of_lading',
  carrier: 's.shipping_line_scac',
  customer: 's.customer_name',
  port_of_lading: 's.pol_name',
  port_of_discharge: 's.pod_name',
  destination: 's.destination_name',
  etd: 's.pol_etd_at',
  atd: 's.pol_atd_at',
  eta: 's.pod_eta_at',
  ata: 's.pod_ata_at',
  eta_slip: 's.eta_slip_hours',
  containers: 's.container_count',
};

export const shipmentSelect = `s.id, s.bill_of_lading, s.shipping_line_scac, s.shipping_line_name, s.customer_name, s.pol_name,
  s.pol_locode, s.pod_name, s.pod_locode, s.destination_name, s.destination_locode, t.name AS terminal_name,
  s.pod_vessel_name, s.pod_voyage_number, s.pol_etd_at, s.pol_atd_at, s.pod_eta_at, s.pod_original_eta_at, s.pod_ata_at,
  s.eta_slip_hours, s.pol_timezone, s.pod_timezone, s.container_count, s.ref_numbers, s.tags, s.tracking_stopped_at,
  s.tracking_stopped_reason, s.created_at`;

const shipmentFrom = 'shipments s LEFT JOIN terminals t ON t.id = s.pod_terminal_id';

/** WHERE clauses for shipment filters; containers reuse them through their shipment. */
export function shipmentWhere(
  filters: ShipmentFilters,
  where: string[],
  params: unknown[],
  requireSynced = true,
): void {
  if (requireSynced) where.push('s.synced_at IS NOT NULL');
  if (filters.search) {
    // Its own row (BL, references, ports, customer…) or one of its containers' numbers.
    const own: string[] = [];
    const ownParams: unknown[] = [];
    const viaContainer: string[] = [];
    const containerParams: unknown[] = [];
    searchFilter('rowid', 'shipment_search', filters.search, own, ownParams);
    searchFilter('rowid', 'container_search', filters.search, viaContainer, containerParams);
    if (own.length > 0) {
      where.push(
        `s.id IN (SELECT id FROM shipments WHERE ${own.join(' AND ')} UNION SELECT shipment_id FROM containers WHERE ${viaContainer.join(' AND ')})`,
      );
      params.push(...ownParams, ...containerParams);
    }
  }
  inList('s.shipping_line_scac', filters.carriers ?? [], where, params);
  inList('s.pol_locode', filters.portsOfLading ?? [], where, params);
  inList('s.pod_locode', filters.portsOfDischarge ?? [], where, params);
  inList('s.destination_locode', filters.destinations ?? [], where, params);
  inList('s.pod_terminal_id', filters.terminals ?? [], where, params);
  inList('s.customer_name', filters.customers ?? [], where, params);
  if (filters.tags && filters.tags.length > 0) {
    where.push(
      `s.id IN (SELECT shipment_id FROM shipment_tags WHERE tag IN (${filters.tags.map(() => '?').join(', ')}))`,
    );
    params.push(...filters.tags);
  }
  if (filters.etaFrom) {
    where.push('coalesce(s.pod_ata_at, s.pod_eta_at) >= ?');
    params.push(filters.etaFrom);
  }
  if (filters.etaTo) {
    where.push('coalesce(s.pod_ata_at, s.pod_eta_at) <= ?');
    params.push(filters.etaTo);
  }
  if (filters.trackingStopped !== undefined)
    where.push(`s.tracking_stopped_at IS ${filters.trackingStopped ? 'NOT ' : ''}NULL`);
  if (filters.etaSlipped !== undefined)
    where.push(filters.etaSlipped ? 's.eta_slip_hours >= 24' : 'coalesce(s.eta_slip_hours, 0) < 24');
}

/** A JSON array of strings as the writer stores it ('[]' for none, the common case). */
function parseList(value: unknown): string[] {
  if (typeof value !== 'string' || value === '[]') return [];
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Text or null: SQLite hands back null (or, for a damaged row, another type) for "unknown". */
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

// Plain property reads (no per-row closure or computed keys): an export maps every row.
export function toShipmentRow(r: Record<string, unknown>): ShipmentRow {
  return {
    id: r.id as string,
    billOfLading: text(r.bill_of_lading),
    carrierScac: text(r.shipping_line_scac),
    carrierName: text(r.shipping_line_name),
    customer: text(r.customer_name),
    portOfLading: text(r.pol_name),
    portOfLadingCode: text(r.pol_locode),
    portOfDischarge: text(r.pod_name),
    portOfDischargeCode: text(r.pod_locode),
    destination: text(r.destination_name),
    destinationCode: text(r.destination_locode),
    terminal: text(r.terminal_name),
    vessel: text(r.pod_vessel_name),
    voyage: text(r.pod_voyage_number),
    etd: text(r.pol_etd_at),
    atd: text(r.pol_atd_at),
    eta: text(r.pod_eta_at),
    originalEta: text(r.pod_original_eta_at),
    ata: text(r.pod_ata_at),
    etaSlipHours: typeof r.eta_slip_hours === 'number' ? r.eta_slip_hours : null,
    polTimezone: text(r.pol_timezone),
    podTimezone: text(r.pod_timezone),
    containerCount: typeof r.container_count === 'number' ? r.container_count : 0,
    refNumbers: parseList(r.ref_numbers),
    tags: parseList(r.tags),
    trackingStoppedAt: text(r.tracking_stopped_at),
    trackingStoppedReason: text(r.tracking_stopped_reason),
    createdAt: text(r.created_at),
  };
}

export const shipmentView = defineListView({
  select: shipmentSelect,
  from: shipmentFrom,
  idColumn: 's.id',
  sortColumns,
  indexOrderedSorts: ['created_at'],
  where: (filters: ShipmentFilters, where, params) => shipmentWhere(filters, where, params),
  countFrom: () => 'shipments s',
  toRow: toShipmentRow,
});

export const listShipments = shipmentView.page;
export const countShipments = shipmentView.count;
export const iterateShipments = shipmentView.iterate;
export const getShipmentRow = shipmentView.get;
