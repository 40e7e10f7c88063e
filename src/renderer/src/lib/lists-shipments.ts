/** The shipments list: its columns, chips and default sort. */
import type { ListRow } from '../../../shared/ipc';
import { customFieldParts } from './lists-custom-fields';
import { stopReasonLabels } from '../../../shared/labels';
import type { ListFilters } from '../../../shared/requests';
import { text, timeColumn, type FilterDef, type ListDef } from './lists-model';

/** Chips the shipments list offers, and the containers list too (its filters extend these): who, where and when it arrives. */
export const portFilters: FilterDef<ListFilters<'shipments'>>[] = [
  { key: 'carriers', label: 'Carrier', kind: 'options', source: 'carriers' },
  { key: 'portsOfLading', label: 'Port of lading', kind: 'options', source: 'portsOfLading' },
  { key: 'portsOfDischarge', label: 'Port of discharge', kind: 'options', source: 'portsOfDischarge' },
  { key: 'destinations', label: 'Destination', kind: 'options', source: 'destinations' },
  { key: 'terminals', label: 'Terminal', kind: 'options', source: 'terminals' },
  { key: 'customers', label: 'Customer', kind: 'options', source: 'customers' },
  { key: 'tags', label: 'Tag', kind: 'options', source: 'tags' },
  {
    key: 'eta',
    label: 'ETA',
    kind: 'range',
    days: 'etaDays',
    from: 'etaFrom',
    to: 'etaTo',
    due: { overdue: 'Late', means: 'ETA passed, not arrived' },
  },
  { key: 'ata', label: 'Arrived (ATA)', kind: 'range', days: 'ataDays' },
];
export const trackingFilters: FilterDef<ListFilters<'shipments'>>[] = [
  { key: 'trackingStopped', label: 'Tracking', kind: 'flag', yes: 'Stopped', no: 'Active' },
  { key: 'etaSlipped', label: 'ETA slipped', kind: 'flag', yes: 'Slipped a day or more', no: 'On time' },
];

export const shipmentsList: ListDef<'shipments'> = {
  id: 'shipments',
  title: 'Shipments',
  noun: { one: 'shipment', many: 'shipments' },
  searchPlaceholder: 'Search BL, container, reference, vessel, port…',
  defaultSort: { field: 'eta', direction: 'asc' },
  open: (row) => ({ view: 'shipments', id: row.id }),
  rowLabel: (row) => `Shipment ${row.billOfLading ?? row.id}`,
  customFields: customFieldParts<ListRow<'shipments'>>('shipment'),
  filters: [...portFilters, ...trackingFilters],
  columns: [
    {
      key: 'bl',
      sticky: true,
      label: 'Bill of lading',
      sort: 'bill_of_lading',
      width: 136,
      exportKeys: ['bill_of_lading_number'],
      cell: (r) => text(r.billOfLading, { mono: true }),
      shownByDefault: true,
    },
    {
      key: 'carrier',
      label: 'Carrier',
      sort: 'carrier',
      width: 72,
      exportKeys: ['shipping_line_scac', 'shipping_line_name'],
      cell: (r) => text(r.carrierScac, { title: r.carrierName ?? undefined }),
      shownByDefault: true,
    },
    {
      key: 'customer',
      label: 'Customer',
      sort: 'customer',
      width: 120,
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
      width: 130,
      exportKeys: ['port_of_lading_name', 'port_of_lading_locode'],
      cell: (r) => text(r.portOfLading, { title: r.portOfLadingCode ?? undefined }),
      shownByDefault: true,
      from: 1180,
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
      shownByDefault: true,
      from: 1310,
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
      key: 'destinationTerminal',
      label: 'Destination terminal',
      width: 170,
      exportKeys: ['destination_terminal'],
      cell: (r) => text(r.destinationTerminal),
      shownByDefault: false,
    },
    {
      key: 'vessel',
      label: 'Vessel / voyage',
      width: 170,
      exportKeys: ['pod_vessel_name', 'pod_voyage_number'],
      cell: (r) => text([r.vessel, r.voyage].filter(Boolean).join(' · ')),
      shownByDefault: true,
      from: 1480,
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
      width: 80,
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
      width: 64,
      align: 'end',
      exportKeys: ['container_count'],
      cell: (r) => text(String(r.containerCount), { title: 'Containers on this shipment' }),
      shownByDefault: true,
    },
    {
      key: 'tags',
      label: 'Tags',
      width: 96,
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
