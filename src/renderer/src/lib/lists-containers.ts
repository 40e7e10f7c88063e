/** The containers list: its columns, chips and default sort, and the tone of each status. */
import type { ListRow } from '../../../shared/ipc';
import { customFieldParts } from './lists-custom-fields';
import { holdLabel } from '../../../shared/labels';
import { containerStatuses, containerStatusLabels, type ContainerStatus } from '../../../shared/status';
import { formatMoney } from './format';
import { text, timeColumn, type ListDef, type Tone } from './lists-model';
import { portFilters, trackingFilters } from './lists-shipments';

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

export const containersList: ListDef<'containers'> = {
  id: 'containers',
  title: 'Containers',
  noun: { one: 'container', many: 'containers' },
  searchPlaceholder: 'Search container, BL, reference, vessel, port…',
  // What needs action first: boxes not yet picked up, by last free day, the overdue ones on top.
  // The store sorts boxes already picked up or returned (and those without one) after them.
  defaultSort: { field: 'last_free_day', direction: 'asc' },
  open: (row) => ({ view: 'containers', id: row.id }),
  rowLabel: (row) => `Container ${row.number ?? row.id}`,
  customFields: customFieldParts<ListRow<'containers'>>('container'),
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
      sticky: true,
      label: 'Container',
      sort: 'number',
      width: 124,
      exportKeys: ['number'],
      cell: (r) => text(r.number, { mono: true }),
      shownByDefault: true,
    },
    {
      key: 'status',
      label: 'Status',
      sort: 'status',
      width: 212,
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
      width: 244,
      exportKeys: ['pickup_lfd'],
      cell: (r) => ({
        kind: 'lfd',
        date: r.lastFreeDay,
        deadline: r.lfdDeadlineAt,
        done: r.status === 'picked_up' || r.status === 'empty_returned',
        pickup: r,
      }),
      shownByDefault: true,
    },
    {
      // Pickup truth: Ready / Not ready / Can't tell (terminal data older than Settings allow).
      key: 'pickup',
      label: 'Pickup',
      width: 112,
      exportKeys: ['pickup', 'pickup_detail', 'lfd_source', 'terminal_checked_at', 'terminal_checked_at_local'],
      cell: (r) => ({ kind: 'pickup', input: r }),
      shownByDefault: true,
    },
    {
      // The line's own last free day, beside the terminal's (date only: the deadline is the terminal's).
      key: 'lineLfd',
      label: 'Line LFD',
      width: 130,
      exportKeys: ['ssl_lfd'],
      cell: (r) => ({ kind: 'lfd', date: r.lineLastFreeDay, deadline: null, done: true }),
      shownByDefault: false,
    },
    {
      key: 'holds',
      label: 'Holds',
      sort: 'holds',
      width: 90,
      exportKeys: ['holds_at_pod_terminal'],
      cell: (r) => ({
        kind: 'tags',
        tags: r.holds.filter((h) => h.status !== 'released').map((h) => holdLabel(h.name)),
      }),
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
      width: 136,
      exportKeys: ['bill_of_lading_number'],
      cell: (r) => text(r.billOfLading, { mono: true }),
      shownByDefault: true,
    },
    {
      key: 'carrier',
      label: 'Carrier',
      width: 72,
      exportKeys: ['shipping_line_scac'],
      cell: (r) => text(r.carrierScac),
      shownByDefault: true,
    },
    {
      key: 'customer',
      label: 'Customer',
      width: 140,
      exportKeys: ['customer_name'],
      cell: (r) => text(r.customer),
      shownByDefault: true,
    },
    {
      key: 'pod',
      label: 'Port of discharge',
      width: 120,
      exportKeys: ['port_of_discharge_name'],
      cell: (r) => text(r.portOfDischarge),
      shownByDefault: false,
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
      shownByDefault: false,
    },
    {
      key: 'vessel',
      label: 'Vessel',
      width: 150,
      exportKeys: ['pod_vessel_name'],
      cell: (r) => text(r.vessel),
      shownByDefault: false,
    },
    timeColumn('eta', 'ETA', 'pod_eta_at', (r) => [r.eta, r.podTimezone], { estimated: true }),
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
      // The Pickup column's answer (not the stored flag, which reads availability and holds only).
      cell: (r) => ({ kind: 'pickup', input: r, readyOnly: true }),
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
