/**
 * The three lists: their columns (with the CSV columns each stands for, so an export holds
 * exactly what is shown), their sorts and their filter chips.
 */
import type { ContainerRow, ShipmentRow, TrackingRequestRow } from '../../../shared/rows';
import { containerStatuses, containerStatusLabels, type ContainerStatus } from '../../../shared/status';
import {
  failedReasonLabels,
  requestTypeLabels,
  stopReasonLabels,
  trackingRequestStatusLabels,
} from '../../../shared/labels';
import { trackingRequestStatuses } from '../../../shared/views';
import type { FilterOptions } from '../../../shared/types';
import { formatMoney } from './format';

export type ListId = 'shipments' | 'containers' | 'tracking-requests';

export type Cell =
  | { kind: 'text'; text: string; title?: string; mono?: boolean }
  | { kind: 'date'; at: string | null; zone: string | null; estimated?: boolean }
  | { kind: 'status'; status: string; label: string; tone: Tone }
  | { kind: 'tags'; tags: string[] }
  | { kind: 'lfd'; date: string | null; deadline: string | null; done: boolean };

export type Tone = 'neutral' | 'info' | 'good' | 'warn' | 'bad';

export interface Column<Row> {
  key: string;
  label: string;
  /** The sort field the list asks the store for, when the column sorts. */
  sort?: string;
  width: number;
  align?: 'end';
  /** The CSV columns (export keys) this column stands for. */
  exportKeys: string[];
  cell: (row: Row) => Cell;
  shownByDefault: boolean;
}

export type FilterDef =
  | { key: string; label: string; kind: 'options'; source: keyof FilterOptions }
  | { key: string; label: string; kind: 'choices'; choices: { value: string; label: string }[] }
  | { key: string; label: string; kind: 'range'; from: string; to: string }
  | { key: string; label: string; kind: 'flag'; yes: string; no: string };

export interface ListDef<Row> {
  id: ListId;
  title: string;
  noun: { one: string; many: string };
  columns: Column<Row>[];
  filters: FilterDef[];
  defaultSort: { field: string; direction: 'asc' | 'desc' };
  searchPlaceholder: string;
  /** Where a row leads, if anywhere. */
  open: (row: Row) => { view: 'shipments' | 'containers'; id: string } | null;
  rowLabel: (row: Row) => string;
}

const text = (value: string | null | undefined, extra: { title?: string; mono?: boolean } = {}): Cell => ({
  kind: 'text',
  text: value ?? '',
  ...extra,
});
const date = (at: string | null, zone: string | null, estimated = false): Cell => ({
  kind: 'date',
  at,
  zone,
  estimated,
});

/** A timestamp column: shown in the zone Settings choose, exported in UTC and in port-local time. */
function timeColumn<Row>(
  key: string,
  label: string,
  exportKey: string,
  get: (row: Row) => [string | null, string | null],
  options: { sort?: string; estimated?: boolean; shown?: boolean } = {},
): Column<Row> {
  return {
    key,
    label,
    sort: options.sort,
    width: 170,
    exportKeys: [exportKey, `${exportKey}_local`],
    cell: (row) => {
      const [at, zone] = get(row);
      return date(at, zone, options.estimated ?? false);
    },
    shownByDefault: options.shown ?? false,
  };
}

export const statusTone: Record<ContainerStatus, Tone> = {
  booked: 'neutral',
  in_transit: 'info',
  arrived: 'info',
  discharged: 'warn',
  available: 'good',
  on_rail: 'info',
  picked_up: 'neutral',
  empty_returned: 'neutral',
};

const requestTone: Record<string, Tone> = {
  pending: 'info',
  awaiting_manifest: 'warn',
  created: 'good',
  failed: 'bad',
  tracking_stopped: 'neutral',
};

const portFilters: FilterDef[] = [
  { key: 'carriers', label: 'Carrier', kind: 'options', source: 'carriers' },
  { key: 'portsOfLading', label: 'Port of lading', kind: 'options', source: 'portsOfLading' },
  { key: 'portsOfDischarge', label: 'Port of discharge', kind: 'options', source: 'portsOfDischarge' },
  { key: 'destinations', label: 'Destination', kind: 'options', source: 'destinations' },
  { key: 'terminals', label: 'Terminal', kind: 'options', source: 'terminals' },
  { key: 'customers', label: 'Customer', kind: 'options', source: 'customers' },
  { key: 'tags', label: 'Tag', kind: 'options', source: 'tags' },
  { key: 'eta', label: 'ETA', kind: 'range', from: 'etaFrom', to: 'etaTo' },
];
const trackingFilters: FilterDef[] = [
  { key: 'trackingStopped', label: 'Tracking', kind: 'flag', yes: 'Stopped', no: 'Active' },
  { key: 'etaSlipped', label: 'ETA slipped', kind: 'flag', yes: 'Slipped a day or more', no: 'On time' },
];

export const shipmentsList: ListDef<ShipmentRow> = {
  id: 'shipments',
  title: 'Shipments',
  noun: { one: 'shipment', many: 'shipments' },
  searchPlaceholder: 'Search BL, container, reference, vessel, port…',
  defaultSort: { field: 'eta', direction: 'asc' },
  open: (row) => ({ view: 'shipments', id: row.id }),
  rowLabel: (row) => `Shipment ${row.billOfLading ?? row.id}`,
  filters: [...portFilters, ...trackingFilters],
  columns: [
    {
      key: 'bl',
      label: 'Bill of lading',
      sort: 'bill_of_lading',
      width: 150,
      exportKeys: ['bill_of_lading_number'],
      cell: (r) => text(r.billOfLading, { mono: true }),
      shownByDefault: true,
    },
    {
      key: 'carrier',
      label: 'Carrier',
      sort: 'carrier',
      width: 90,
      exportKeys: ['shipping_line_scac', 'shipping_line_name'],
      cell: (r) => text(r.carrierScac, { title: r.carrierName ?? undefined }),
      shownByDefault: true,
    },
    {
      key: 'customer',
      label: 'Customer',
      sort: 'customer',
      width: 170,
      exportKeys: ['customer_name'],
      cell: (r) => text(r.customer),
      shownByDefault: true,
    },
    {
      key: 'refs',
      label: 'References',
      width: 140,
      exportKeys: ['ref_numbers'],
      cell: (r) => text(r.refNumbers.join(', ')),
      shownByDefault: false,
    },
    {
      key: 'pol',
      label: 'Port of lading',
      sort: 'port_of_lading',
      width: 140,
      exportKeys: ['port_of_lading_name', 'port_of_lading_locode'],
      cell: (r) => text(r.portOfLading, { title: r.portOfLadingCode ?? undefined }),
      shownByDefault: true,
    },
    {
      key: 'pod',
      label: 'Port of discharge',
      sort: 'port_of_discharge',
      width: 140,
      exportKeys: ['port_of_discharge_name', 'port_of_discharge_locode'],
      cell: (r) => text(r.portOfDischarge, { title: r.portOfDischargeCode ?? undefined }),
      shownByDefault: true,
    },
    {
      key: 'destination',
      label: 'Destination',
      sort: 'destination',
      width: 130,
      exportKeys: ['destination_name', 'destination_locode'],
      cell: (r) => text(r.destination, { title: r.destinationCode ?? undefined }),
      shownByDefault: false,
    },
    {
      key: 'terminal',
      label: 'Terminal',
      width: 150,
      exportKeys: ['pod_terminal'],
      cell: (r) => text(r.terminal),
      shownByDefault: false,
    },
    {
      key: 'vessel',
      label: 'Vessel / voyage',
      width: 170,
      exportKeys: ['pod_vessel_name', 'pod_voyage_number'],
      cell: (r) => text([r.vessel, r.voyage].filter(Boolean).join(' · ')),
      shownByDefault: true,
    },
    timeColumn('etd', 'ETD', 'pol_etd_at', (r) => [r.etd, r.polTimezone], { sort: 'etd', estimated: true }),
    timeColumn('atd', 'ATD', 'pol_atd_at', (r) => [r.atd, r.polTimezone], { sort: 'atd' }),
    timeColumn('eta', 'ETA', 'pod_eta_at', (r) => [r.eta, r.podTimezone], {
      sort: 'eta',
      estimated: true,
      shown: true,
    }),
    timeColumn('originalEta', 'Original ETA', 'pod_original_eta_at', (r) => [r.originalEta, r.podTimezone], {
      estimated: true,
    }),
    timeColumn('ata', 'ATA', 'pod_ata_at', (r) => [r.ata, r.podTimezone], { sort: 'ata', shown: true }),
    {
      key: 'slip',
      label: 'ETA slip',
      sort: 'eta_slip',
      width: 90,
      align: 'end',
      exportKeys: ['eta_slip_days'],
      cell: (r) =>
        text(
          r.etaSlipHours === null || Math.abs(r.etaSlipHours) < 1
            ? ''
            : `${r.etaSlipHours > 0 ? '+' : '−'}${(Math.abs(r.etaSlipHours) / 24).toFixed(1)} d`,
          { title: 'Days the ETA moved since the first one the carrier gave' },
        ),
      shownByDefault: true,
    },
    {
      key: 'containers',
      label: 'Boxes',
      sort: 'containers',
      width: 70,
      align: 'end',
      exportKeys: ['container_count'],
      cell: (r) => text(String(r.containerCount), { title: 'Containers on this shipment' }),
      shownByDefault: true,
    },
    {
      key: 'tags',
      label: 'Tags',
      width: 150,
      exportKeys: ['tags'],
      cell: (r) => ({ kind: 'tags', tags: r.tags }),
      shownByDefault: true,
    },
    {
      key: 'stopped',
      label: 'Tracking',
      width: 150,
      exportKeys: ['line_tracking_stopped_at', 'line_tracking_stopped_reason'],
      cell: (r) =>
        r.trackingStoppedAt
          ? {
              kind: 'status',
              status: 'stopped',
              label: r.trackingStoppedReason ? (stopReasonLabels[r.trackingStoppedReason] ?? 'Stopped') : 'Stopped',
              tone: 'neutral',
            }
          : { kind: 'status', status: 'active', label: 'Tracking', tone: 'good' },
      shownByDefault: false,
    },
  ],
};

export const containersList: ListDef<ContainerRow> = {
  id: 'containers',
  title: 'Containers',
  noun: { one: 'container', many: 'containers' },
  searchPlaceholder: 'Search container, BL, reference, vessel, port…',
  defaultSort: { field: 'created_at', direction: 'desc' },
  open: (row) => ({ view: 'containers', id: row.id }),
  rowLabel: (row) => `Container ${row.number ?? row.id}`,
  filters: [
    {
      key: 'statuses',
      label: 'Status',
      kind: 'choices',
      choices: containerStatuses.map((s) => ({ value: s, label: containerStatusLabels[s] })),
    },
    { key: 'lfd', label: 'Last free day', kind: 'range', from: 'lfdFrom', to: 'lfdTo' },
    { key: 'overdue', label: 'Past last free day', kind: 'flag', yes: 'Overdue', no: 'Not overdue' },
    { key: 'onHold', label: 'Holds', kind: 'flag', yes: 'On hold', no: 'No holds' },
    { key: 'holdTypes', label: 'Hold type', kind: 'options', source: 'holdTypes' },
    { key: 'pickupReady', label: 'Pickup', kind: 'flag', yes: 'Ready for pickup', no: 'Not ready' },
    ...portFilters,
    ...trackingFilters,
  ],
  columns: [
    {
      key: 'number',
      label: 'Container',
      sort: 'number',
      width: 130,
      exportKeys: ['number'],
      cell: (r) => text(r.number, { mono: true }),
      shownByDefault: true,
    },
    {
      key: 'status',
      label: 'Status',
      sort: 'status',
      width: 215,
      exportKeys: ['current_status'],
      cell: (r) => ({
        kind: 'status',
        status: r.status,
        label: containerStatusLabels[r.status],
        tone: statusTone[r.status],
      }),
      shownByDefault: true,
    },
    {
      key: 'lfd',
      label: 'Last free day',
      sort: 'last_free_day',
      width: 235,
      exportKeys: ['pickup_lfd'],
      cell: (r) => ({
        kind: 'lfd',
        date: r.lastFreeDay,
        deadline: r.lfdDeadlineAt,
        done: r.status === 'picked_up' || r.status === 'empty_returned',
      }),
      shownByDefault: true,
    },
    {
      key: 'holds',
      label: 'Holds',
      sort: 'holds',
      width: 130,
      exportKeys: ['holds_at_pod_terminal'],
      cell: (r) => ({ kind: 'tags', tags: r.holds.filter((h) => h.status !== 'released').map((h) => h.name) }),
      shownByDefault: true,
    },
    {
      key: 'equipment',
      label: 'Equipment',
      width: 120,
      exportKeys: ['equipment'],
      cell: (r) => text(r.equipment),
      shownByDefault: false,
    },
    {
      key: 'bl',
      label: 'Bill of lading',
      width: 150,
      exportKeys: ['bill_of_lading_number'],
      cell: (r) => text(r.billOfLading, { mono: true }),
      shownByDefault: true,
    },
    {
      key: 'carrier',
      label: 'Carrier',
      width: 80,
      exportKeys: ['shipping_line_scac'],
      cell: (r) => text(r.carrierScac),
      shownByDefault: true,
    },
    {
      key: 'customer',
      label: 'Customer',
      width: 160,
      exportKeys: ['customer_name'],
      cell: (r) => text(r.customer),
      shownByDefault: true,
    },
    {
      key: 'pod',
      label: 'Port of discharge',
      width: 140,
      exportKeys: ['port_of_discharge_name'],
      cell: (r) => text(r.portOfDischarge),
      shownByDefault: true,
    },
    {
      key: 'destination',
      label: 'Destination',
      width: 130,
      exportKeys: ['destination_name'],
      cell: (r) => text(r.destination),
      shownByDefault: false,
    },
    {
      key: 'terminal',
      label: 'Terminal',
      width: 150,
      exportKeys: ['pod_terminal'],
      cell: (r) => text(r.terminal),
      shownByDefault: true,
    },
    {
      key: 'vessel',
      label: 'Vessel',
      width: 150,
      exportKeys: ['pod_vessel_name'],
      cell: (r) => text(r.vessel),
      shownByDefault: false,
    },
    timeColumn('eta', 'ETA', 'pod_eta_at', (r) => [r.eta, r.podTimezone], { estimated: true, shown: true }),
    timeColumn('ata', 'ATA', 'pod_ata_at', (r) => [r.ata, r.podTimezone]),
    timeColumn('discharged', 'Discharged', 'pod_discharged_at', (r) => [r.dischargedAt, r.podTimezone], {
      sort: 'discharged',
    }),
    {
      key: 'available',
      label: 'Available',
      sort: 'available',
      width: 100,
      exportKeys: ['available_for_pickup'],
      cell: (r) => text(r.availableForPickup === null ? '' : r.availableForPickup ? 'Yes' : 'No'),
      shownByDefault: false,
    },
    {
      key: 'pickupReady',
      label: 'Ready for pickup',
      width: 130,
      exportKeys: ['pickup_ready'],
      cell: (r) => (r.pickupReady ? { kind: 'status', status: 'ready', label: 'Ready', tone: 'good' } : text('')),
      shownByDefault: false,
    },
    {
      key: 'fees',
      label: 'Fees',
      sort: 'fees',
      width: 100,
      align: 'end',
      exportKeys: ['fees_total'],
      cell: (r) => text(formatMoney(r.feesTotal)),
      shownByDefault: false,
    },
    timeColumn('appointment', 'Pickup appointment', 'pickup_appointment_at', (r) => [
      r.pickupAppointmentAt,
      r.podTimezone,
    ]),
    timeColumn('pickedUp', 'Picked up', 'pod_full_out_at', (r) => [r.pickedUpAt, r.podTimezone], { sort: 'picked_up' }),
    timeColumn('emptyReturned', 'Empty returned', 'empty_terminated_at', (r) => [r.emptyReturnedAt, r.podTimezone]),
    {
      key: 'tags',
      label: 'Tags',
      width: 140,
      exportKeys: ['tags'],
      cell: (r) => ({ kind: 'tags', tags: r.tags }),
      shownByDefault: false,
    },
  ],
};

export const trackingRequestsList: ListDef<TrackingRequestRow> = {
  id: 'tracking-requests',
  title: 'Tracking requests',
  noun: { one: 'tracking request', many: 'tracking requests' },
  searchPlaceholder: 'Search number, reference, tag…',
  defaultSort: { field: 'created_at', direction: 'desc' },
  open: (row) => (row.shipmentId ? { view: 'shipments', id: row.shipmentId } : null),
  rowLabel: (row) => `Tracking request ${row.requestNumber ?? row.id}`,
  filters: [
    {
      key: 'statuses',
      label: 'Status',
      kind: 'choices',
      choices: trackingRequestStatuses.map((s) => ({ value: s, label: trackingRequestStatusLabels[s] ?? s })),
    },
    { key: 'failedReasons', label: 'Why it failed', kind: 'options', source: 'failedReasons' },
    { key: 'carriers', label: 'Carrier', kind: 'options', source: 'carriers' },
    {
      key: 'requestTypes',
      label: 'Type',
      kind: 'choices',
      choices: Object.entries(requestTypeLabels).map(([value, label]) => ({ value, label })),
    },
    { key: 'created', label: 'Created', kind: 'range', from: 'createdFrom', to: 'createdTo' },
  ],
  columns: [
    {
      key: 'number',
      label: 'Number',
      sort: 'request_number',
      width: 160,
      exportKeys: ['request_number'],
      cell: (r) => text(r.requestNumber, { mono: true }),
      shownByDefault: true,
    },
    {
      key: 'type',
      label: 'Type',
      width: 140,
      exportKeys: ['request_type'],
      cell: (r) => text(r.requestType ? (requestTypeLabels[r.requestType] ?? r.requestType) : ''),
      shownByDefault: true,
    },
    {
      key: 'carrier',
      label: 'Carrier',
      sort: 'carrier',
      width: 80,
      exportKeys: ['scac'],
      cell: (r) => text(r.carrierScac),
      shownByDefault: true,
    },
    {
      key: 'status',
      label: 'Status',
      sort: 'status',
      width: 170,
      exportKeys: ['status'],
      cell: (r) => ({
        kind: 'status',
        status: r.status ?? 'unknown',
        label:
          (r.status ? (trackingRequestStatusLabels[r.status] ?? r.status) : 'Unknown') +
          (r.isRetrying ? ' (retrying)' : ''),
        tone: requestTone[r.status ?? ''] ?? 'neutral',
      }),
      shownByDefault: true,
    },
    {
      key: 'failedReason',
      label: 'Why it failed',
      width: 330,
      exportKeys: ['failed_reason'],
      cell: (r) => text(r.failedReason ? (failedReasonLabels[r.failedReason] ?? r.failedReason) : ''),
      shownByDefault: true,
    },
    {
      key: 'customer',
      label: 'Customer',
      width: 160,
      exportKeys: ['customer'],
      cell: (r) => text(r.customer),
      shownByDefault: true,
    },
    {
      key: 'refs',
      label: 'References',
      width: 150,
      exportKeys: ['ref_numbers'],
      cell: (r) => text(r.refNumbers.join(', ')),
      shownByDefault: false,
    },
    {
      key: 'tags',
      label: 'Tags',
      width: 130,
      exportKeys: ['tags'],
      cell: (r) => ({ kind: 'tags', tags: r.tags }),
      shownByDefault: false,
    },
    {
      key: 'created',
      label: 'Created',
      sort: 'created_at',
      width: 170,
      exportKeys: ['created_at'],
      cell: (r) => date(r.createdAt, null),
      shownByDefault: true,
    },
    {
      key: 'updated',
      label: 'Updated',
      sort: 'updated_at',
      width: 170,
      exportKeys: ['updated_at'],
      cell: (r) => date(r.updatedAt, null),
      shownByDefault: false,
    },
  ],
};

export const lists = {
  shipments: shipmentsList,
  containers: containersList,
  'tracking-requests': trackingRequestsList,
} as const;
