import { storedInstant } from '../store/instant';
import { relId, relIdOfType, relIds, str, strings, type StoredResource } from '../store/resource';
import { columns, DAILY, defineResource, idColumn, PAGE_SIZE, rawColumn, syncedAtColumn } from './define';
import { ports } from './ports';

/** What the shipment columns read besides the attributes: its checked ETA dates, references and tags. */
export interface ShipmentDerived {
  podEta: string | null;
  podAta: string | null;
  original: string | null;
  refNumbers: string[];
  tags: string[];
}

// Dates are checked once here: a column holds a real instant or NULL (raw keeps what came).
function derive(r: StoredResource): ShipmentDerived {
  const a = r.attributes;
  return {
    podEta: storedInstant(a.pod_eta_at),
    podAta: storedInstant(a.pod_ata_at),
    original: storedInstant(a.pod_original_eta_at),
    refNumbers: strings(a.ref_numbers),
    tags: strings(a.tags),
  };
}

function etaSlipHours(d: ShipmentDerived): number | null {
  const eta = d.podEta ?? d.podAta;
  const slip = eta && d.original ? (Date.parse(eta) - Date.parse(d.original)) / 3_600_000 : null;
  return slip !== null && Number.isFinite(slip) ? Math.round(slip * 10) / 10 : null;
}

const c = columns<ShipmentDerived>();
const text = (name: string) => (r: StoredResource) => str(r.attributes[name]);
const instant = (name: string) => (r: StoredResource) => storedInstant(r.attributes[name]);
const shipmentIncludes = ['containers', 'pod_terminal', 'port_of_lading', 'port_of_discharge', 'destination'];

/** Shipments (bills of lading), walked with their containers, ports and terminal included. */
export const shipments = defineResource({
  name: 'shipments',
  types: ['shipment'],
  table: 'shipments',
  api: { path: '/shipments', includes: shipmentIncludes },
  writeRank: 60,
  derive,
  columns: {
    id: idColumn,
    bill_of_lading: c.text(text('bill_of_lading_number'), { indexed: true }),
    normalized_number: c.text(text('normalized_number')),
    shipping_line_scac: c.text(text('shipping_line_scac'), { indexed: true }),
    shipping_line_name: c.text(text('shipping_line_name')),
    customer_name: c.text(text('customer_name'), { indexed: true }),
    pol_id: c.ref('ports', (r) => relId(r, 'port_of_lading')),
    pol_locode: c.text(text('port_of_lading_locode')),
    pol_name: c.text(text('port_of_lading_name')),
    pod_id: c.ref('ports', (r) => relId(r, 'port_of_discharge')),
    pod_locode: c.text(text('port_of_discharge_locode'), { indexed: true }),
    pod_name: c.text(text('port_of_discharge_name')),
    pod_terminal_id: c.ref('terminals', (r) => relId(r, 'pod_terminal')),
    destination_id: c.ref('ports', (r) => relIdOfType(r, 'destination', ports.types)),
    destination_metro_area_id: c.ref('metroAreas', (r) => relIdOfType(r, 'destination', ['metro_area'])),
    destination_locode: c.text(text('destination_locode')),
    destination_name: c.text(text('destination_name')),
    pod_vessel_name: c.text(text('pod_vessel_name')),
    pod_vessel_imo: c.text(text('pod_vessel_imo')),
    pod_voyage_number: c.text(text('pod_voyage_number')),
    pol_etd_at: c.text(instant('pol_etd_at')),
    pol_atd_at: c.text(instant('pol_atd_at')),
    pod_eta_at: c.text((_r, _w, d) => d.podEta, { indexed: true }),
    pod_original_eta_at: c.text((_r, _w, d) => d.original),
    pod_ata_at: c.text((_r, _w, d) => d.podAta, { indexed: true }),
    destination_eta_at: c.text(instant('destination_eta_at')),
    destination_ata_at: c.text(instant('destination_ata_at')),
    pol_timezone: c.text(text('pol_timezone')),
    pod_timezone: c.text(text('pod_timezone')),
    destination_timezone: c.text(text('destination_timezone')),
    eta_slip_hours: c.real((_r, _w, d) => etaSlipHours(d)),
    tracking_stopped_at: c.text(instant('line_tracking_stopped_at'), { indexed: true }),
    tracking_stopped_reason: c.text(text('line_tracking_stopped_reason')),
    ref_numbers: c.text((_r, _w, d) => JSON.stringify(d.refNumbers)),
    tags: c.text((_r, _w, d) => JSON.stringify(d.tags)),
    container_count: c.integer((r) => relIds(r, 'containers').length),
    created_at: c.text(instant('created_at'), { indexed: true }),
    raw: rawColumn,
    // Counting what the views show reads the partial index on synced_at (stubs have none).
    synced_at: { ...syncedAtColumn, indexed: true },
  },
  // What a container's derived fields need of its shipment.
  context: ['pol_atd_at', 'pod_timezone', 'destination_timezone'],
  listTable: { table: 'shipment_tags', parent: 'shipment_id', column: 'tag', values: (_r, d) => d.tags },
  search: {
    table: 'shipment_search',
    // Its numbers, references, tags, vessel, ports, customer and carrier: what a forwarder types.
    body: (r, d) => {
      const a = r.attributes;
      return [
        a.bill_of_lading_number,
        a.normalized_number,
        ...d.refNumbers,
        ...d.tags,
        a.pod_vessel_name,
        a.port_of_lading_name,
        a.port_of_lading_locode,
        a.port_of_discharge_name,
        a.port_of_discharge_locode,
        a.destination_name,
        a.customer_name,
        a.shipping_line_scac,
      ]
        .filter((v) => typeof v === 'string' && v !== '')
        .join(' ');
    },
  },
  walks: [
    {
      key: 'shipments:active',
      order: 50,
      step: 'Shipments still tracking',
      noun: 'shipments',
      query: { 'page[size]': PAGE_SIZE, 'filter[tracking_stopped]': false },
      when: { kind: 'always' },
      estimate: 'stored rows',
    },
    {
      key: 'shipments:stopped',
      order: 60,
      step: 'Shipments no longer tracking',
      noun: 'shipments',
      query: { 'page[size]': PAGE_SIZE, 'filter[tracking_stopped]': true },
      when: {
        kind: 'every',
        every: DAILY,
        doneKey: 'stopped:completed_at',
        resumeWith: 'shipments:stopped',
        markedBy: 'shipments:stopped',
      },
      estimate: 'stored rows',
    },
  ],
});
