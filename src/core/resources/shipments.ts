import { stopReasonLabels } from '../../shared/labels';
import { timestamp } from '../export/columns';
import { storedInstant } from '../store/instant';
import { customFieldFilters, daysIn, flag, from, oneOf, searchEither, to } from '../store/queries/list-sql';
import { relId, relIdOfType, relIds, strings, type StoredResource } from '../store/resource';
import {
  attribute,
  columns,
  DAILY,
  defineResource,
  idColumn,
  PAGE_SIZE,
  rawColumn,
  relationship,
  syncedAtColumn,
} from './define';
import { defineList, rowList, rowText, type FiltersSql, type ListFiltersOf, type BaseRowOf } from './define-list';
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
// The destination terminal (a rail ramp for a box bound inland) comes with its shipment: the live
// service's lists accept it as an include.
const shipmentIncludes = [
  'containers',
  'pod_terminal',
  'port_of_lading',
  'port_of_discharge',
  'destination',
  'destination_terminal',
];

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
    bill_of_lading: c.textOf('bill_of_lading_number', { indexed: true }),
    normalized_number: c.textOf('normalized_number'),
    shipping_line_scac: c.textOf('shipping_line_scac', { indexed: true }),
    shipping_line_name: c.textOf('shipping_line_name'),
    customer_name: c.textOf('customer_name', { indexed: true }),
    pol_id: c.ref('ports', (r) => relId(r, 'port_of_lading'), { holds: relationship('port_of_lading', 'port') }),
    pol_locode: c.textOf('port_of_lading_locode', { indexed: true }),
    pol_name: c.textOf('port_of_lading_name'),
    pod_id: c.ref('ports', (r) => relId(r, 'port_of_discharge'), { holds: relationship('port_of_discharge', 'port') }),
    pod_locode: c.textOf('port_of_discharge_locode', { indexed: true }),
    pod_name: c.textOf('port_of_discharge_name'),
    pod_terminal_id: c.ref('terminals', (r) => relId(r, 'pod_terminal'), {
      holds: relationship('pod_terminal', 'terminal'),
      indexed: true,
    }),
    destination_id: c.ref('ports', (r) => relIdOfType(r, 'destination', ports.types), {
      holds: relationship('destination', 'port'),
    }),
    destination_metro_area_id: c.ref('metroAreas', (r) => relIdOfType(r, 'destination', ['metro_area']), {
      holds: relationship('destination', 'metro_area'),
    }),
    destination_locode: c.textOf('destination_locode', { indexed: true }),
    destination_terminal_id: c.ref('terminals', (r) => relId(r, 'destination_terminal'), {
      holds: relationship('destination_terminal', 'terminal'),
    }),
    destination_name: c.textOf('destination_name'),
    pod_vessel_name: c.textOf('pod_vessel_name'),
    pod_vessel_imo: c.textOf('pod_vessel_imo'),
    pod_voyage_number: c.textOf('pod_voyage_number'),
    pol_etd_at: c.instantOf('pol_etd_at'),
    pol_original_etd_at: c.instantOf('pol_original_etd_at'),
    pol_atd_at: c.instantOf('pol_atd_at'),
    pod_eta_at: c.text((_r, _w, d) => d.podEta, { indexed: true, holds: attribute('pod_eta_at') }),
    pod_original_eta_at: c.text((_r, _w, d) => d.original, { holds: attribute('pod_original_eta_at') }),
    pod_ata_at: c.text((_r, _w, d) => d.podAta, { indexed: true, holds: attribute('pod_ata_at') }),
    destination_eta_at: c.instantOf('destination_eta_at'),
    destination_ata_at: c.instantOf('destination_ata_at'),
    destination_original_eta_at: c.instantOf('destination_original_eta_at'),
    pol_timezone: c.textOf('pol_timezone'),
    pod_timezone: c.textOf('pod_timezone'),
    destination_timezone: c.textOf('destination_timezone'),
    eta_slip_hours: c.real((_r, _w, d) => etaSlipHours(d)),
    tracking_stopped_at: c.instantOf('line_tracking_stopped_at', { indexed: true }),
    tracking_stopped_reason: c.textOf('line_tracking_stopped_reason'),
    ref_numbers: c.text((_r, _w, d) => JSON.stringify(d.refNumbers), { holds: attribute('ref_numbers', 'json') }),
    tags: c.text((_r, _w, d) => JSON.stringify(d.tags), { holds: attribute('tags', 'json') }),
    container_count: c.integer((r) => relIds(r, 'containers').length),
    created_at: c.instantOf('created_at', { indexed: true }),
    raw: rawColumn,
    // Counting what the views show reads the partial index on synced_at (stubs have none).
    synced_at: { ...syncedAtColumn, indexed: true },
    // Check times every record carries, held as epoch milliseconds: a sixth of their JSON (migration 0017).
    updated_at: c.epochOf('updated_at'),
    line_tracking_attempted_at: c.epochOf('line_tracking_last_attempted_at'),
    line_tracking_succeeded_at: c.epochOf('line_tracking_last_succeeded_at'),
    shipping_line_short_name: c.textOf('shipping_line_short_name'),
  },
  // raw keeps only what the columns do not hold (store/residual.ts).
  usual: { relationships: { line_tracking_stopped_by_user: { data: null } } },
  selfLink: '/v2/shipments/',
  // What a container's derived fields need of its shipment.
  context: ['pol_atd_at', 'pod_timezone', 'destination_timezone'],
  // Change history: arrivals at the port and inland, where the box is landed and on what, tracking.
  history: {
    shipment: 'id',
    fields: [
      { field: 'eta', column: 'pod_eta_at' },
      { field: 'ata', column: 'pod_ata_at' },
      { field: 'destination_eta', column: 'destination_eta_at' },
      { field: 'destination_ata', column: 'destination_ata_at' },
      { field: 'terminal', column: 'pod_terminal_id', as: { nameIn: 'terminals' } },
      { field: 'vessel', column: 'pod_vessel_name' },
      { field: 'tracking_stopped', column: 'tracking_stopped_at' },
    ],
  },
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
    // And its stored boxes' numbers (migration 0016 keeps them as boxes are written later).
    also: {
      column: 'boxes',
      value: (rowid) =>
        `(SELECT group_concat(number, ' ') FROM containers WHERE shipment_id = (SELECT id FROM shipments WHERE rowid = ${rowid}))`,
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
      // Still-tracking shipments bring their containers (last free day, holds, arrival).
      urgent: true,
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

/** A shipment's search row: its own text (`body`) and its containers' numbers (`boxes`). */
export const shipmentSearchText = {
  table: 'shipment_search',
  columns: [
    { name: 'body', stored: 'c0' },
    { name: 'boxes', stored: 'c1' },
  ],
} as const;

/**
 * The shipment filters as SQL over `shipments s` (the containers list reuses them through its
 * shipment, with its own search).
 */
export const shipmentFilters: FiltersSql<ListFiltersOf<'shipments'>> = {
  // Its own text (BL, references, ports, customer…) or one of its containers' numbers, both in
  // its search row (migration 0016).
  search: searchEither({ ...shipmentSearchText, ownRow: 's.rowid' }),
  carriers: oneOf('s.shipping_line_scac'),
  portsOfLading: oneOf('s.pol_locode'),
  portsOfDischarge: oneOf('s.pod_locode'),
  destinations: oneOf('s.destination_locode'),
  terminals: oneOf('s.pod_terminal_id'),
  customers: oneOf('s.customer_name'),
  tags: (tags, q) => {
    if (tags.length === 0) return;
    q.where.push(`s.id IN (SELECT shipment_id FROM shipment_tags WHERE tag IN (${tags.map(() => '?').join(', ')}))`);
    q.params.push(...tags);
  },
  etaFrom: from('coalesce(s.pod_ata_at, s.pod_eta_at)'),
  etaTo: to('coalesce(s.pod_ata_at, s.pod_eta_at)'),
  // Late: the ETA passed and no arrival yet.
  etaDays: daysIn('coalesce(s.pod_ata_at, s.pod_eta_at)', 'instant', 's.pod_eta_at < ? AND s.pod_ata_at IS NULL'),
  ataDays: daysIn('s.pod_ata_at', 'instant'),
  trackingStopped: flag('s.tracking_stopped_at IS NOT NULL', 's.tracking_stopped_at IS NULL'),
  etaSlipped: flag('s.eta_slip_hours >= 24', 'coalesce(s.eta_slip_hours, 0) < 24'),
  customFields: customFieldFilters('shipment', 's.id'),
};

type Row = BaseRowOf<'shipments'>;

/** The shipments list: its row, sorts, filters and CSV columns. */
export const shipmentsList = defineList({
  name: 'shipments',
  noun: 'shipment',
  select: `s.id, s.bill_of_lading, s.shipping_line_scac, s.shipping_line_name, s.customer_name, s.pol_name,
  s.pol_locode, s.pod_name, s.pod_locode, s.destination_name, s.destination_locode, t.name AS terminal_name,
  dt.name AS destination_terminal_name,
  s.pod_vessel_name, s.pod_voyage_number, s.pol_etd_at, s.pol_atd_at, s.pod_eta_at, s.pod_original_eta_at, s.pod_ata_at,
  s.eta_slip_hours, s.pol_timezone, s.pod_timezone, s.container_count, s.ref_numbers, s.tags, s.tracking_stopped_at,
  s.tracking_stopped_reason, s.created_at`,
  from: `shipments s LEFT JOIN terminals t ON t.id = s.pod_terminal_id
  LEFT JOIN terminals dt ON dt.id = s.destination_terminal_id`,
  idColumn: 's.id',
  countFrom: () => 'shipments s',
  customFields: 'shipment',
  sort: {
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
  },
  indexOrderedSorts: ['created_at'],
  tiesById: ['carrier', 'customer'],
  filters: shipmentFilters,
  toRow: (r) => ({
    id: r.id as string,
    billOfLading: rowText(r.bill_of_lading),
    carrierScac: rowText(r.shipping_line_scac),
    carrierName: rowText(r.shipping_line_name),
    customer: rowText(r.customer_name),
    portOfLading: rowText(r.pol_name),
    portOfLadingCode: rowText(r.pol_locode),
    portOfDischarge: rowText(r.pod_name),
    portOfDischargeCode: rowText(r.pod_locode),
    destination: rowText(r.destination_name),
    destinationCode: rowText(r.destination_locode),
    terminal: rowText(r.terminal_name),
    destinationTerminal: rowText(r.destination_terminal_name),
    vessel: rowText(r.pod_vessel_name),
    voyage: rowText(r.pod_voyage_number),
    etd: rowText(r.pol_etd_at),
    atd: rowText(r.pol_atd_at),
    eta: rowText(r.pod_eta_at),
    originalEta: rowText(r.pod_original_eta_at),
    ata: rowText(r.pod_ata_at),
    etaSlipHours: typeof r.eta_slip_hours === 'number' ? r.eta_slip_hours : null,
    polTimezone: rowText(r.pol_timezone),
    podTimezone: rowText(r.pod_timezone),
    containerCount: typeof r.container_count === 'number' ? r.container_count : 0,
    refNumbers: rowList(r.ref_numbers),
    tags: rowList(r.tags),
    trackingStoppedAt: rowText(r.tracking_stopped_at),
    trackingStoppedReason: rowText(r.tracking_stopped_reason),
    createdAt: rowText(r.created_at),
  }),
  export: [
    { key: 'bill_of_lading_number', header: 'Bill of lading', value: (r) => r.billOfLading },
    { key: 'shipping_line_scac', header: 'Carrier SCAC', value: (r) => r.carrierScac },
    { key: 'shipping_line_name', header: 'Carrier', value: (r) => r.carrierName },
    { key: 'customer_name', header: 'Customer', value: (r) => r.customer },
    { key: 'ref_numbers', header: 'Reference numbers', value: (r) => r.refNumbers },
    { key: 'tags', header: 'Tags', value: (r) => r.tags },
    { key: 'port_of_lading_name', header: 'Port of lading', value: (r) => r.portOfLading },
    { key: 'port_of_lading_locode', header: 'Port of lading code', value: (r) => r.portOfLadingCode },
    { key: 'port_of_discharge_name', header: 'Port of discharge', value: (r) => r.portOfDischarge },
    { key: 'port_of_discharge_locode', header: 'Port of discharge code', value: (r) => r.portOfDischargeCode },
    { key: 'destination_name', header: 'Destination', value: (r) => r.destination },
    { key: 'destination_locode', header: 'Destination code', value: (r) => r.destinationCode },
    { key: 'pod_terminal', header: 'Terminal', value: (r) => r.terminal },
    { key: 'destination_terminal', header: 'Destination terminal', value: (r) => r.destinationTerminal },
    { key: 'pod_vessel_name', header: 'Vessel', value: (r) => r.vessel },
    { key: 'pod_voyage_number', header: 'Voyage', value: (r) => r.voyage },
    ...timestamp<Row>(
      'pol_etd_at',
      'ETD',
      (r) => r.etd,
      (r) => r.polTimezone,
    ),
    ...timestamp<Row>(
      'pol_atd_at',
      'ATD',
      (r) => r.atd,
      (r) => r.polTimezone,
    ),
    ...timestamp<Row>(
      'pod_eta_at',
      'ETA',
      (r) => r.eta,
      (r) => r.podTimezone,
    ),
    ...timestamp<Row>(
      'pod_original_eta_at',
      'Original ETA',
      (r) => r.originalEta,
      (r) => r.podTimezone,
    ),
    ...timestamp<Row>(
      'pod_ata_at',
      'ATA',
      (r) => r.ata,
      (r) => r.podTimezone,
    ),
    {
      key: 'eta_slip_days',
      header: 'ETA slip (days)',
      value: (r) => (r.etaSlipHours === null ? null : Math.round(r.etaSlipHours / 2.4) / 10),
    },
    { key: 'container_count', header: 'Containers', value: (r) => r.containerCount },
    ...timestamp<Row>('line_tracking_stopped_at', 'Tracking stopped', (r) => r.trackingStoppedAt),
    {
      key: 'line_tracking_stopped_reason',
      header: 'Why tracking stopped',
      value: (r) =>
        r.trackingStoppedReason ? (stopReasonLabels[r.trackingStoppedReason] ?? r.trackingStoppedReason) : null,
    },
  ],
});
