/** The tracking requests list: its columns, chips and default sort. */
import type { ListRow } from '../../../shared/ipc';
import { customFieldParts } from './lists-custom-fields';
import { failedReasonLabels, requestTypeLabels, trackingRequestStatusLabels } from '../../../shared/labels';
import { trackingRequestStatuses } from '../../../shared/views';
import { date, text, type ListDef, type Tone } from './lists-model';

const requestTone: Record<string, Tone> = {
  pending: 'info',
  awaiting_manifest: 'warn',
  created: 'good',
  failed: 'bad',
  tracking_stopped: 'neutral',
};

export const trackingRequestsList: ListDef<'trackingRequests'> = {
  id: 'trackingRequests',
  title: 'Tracking requests',
  noun: { one: 'tracking request', many: 'tracking requests' },
  searchPlaceholder: 'Search number, reference, tag…',
  defaultSort: { field: 'created_at', direction: 'desc' },
  open: (row) => (row.shipmentId ? { view: 'shipments', id: row.shipmentId } : null),
  rowLabel: (row) => `Tracking request ${row.requestNumber ?? row.id}`,
  customFields: customFieldParts<ListRow<'trackingRequests'>>('tracking_request'),
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
    { key: 'created', label: 'Created', kind: 'range', days: 'createdDays', from: 'createdFrom', to: 'createdTo' },
  ],
  columns: [
    {
      key: 'number',
      sticky: true,
      label: 'Number',
      sort: 'request_number',
      width: 150,
      exportKeys: ['request_number'],
      cell: (r) => text(r.requestNumber, { mono: true }),
      shownByDefault: true,
    },
    {
      key: 'type',
      label: 'Type',
      width: 150,
      exportKeys: ['request_type'],
      cell: (r) => text(r.requestType ? (requestTypeLabels[r.requestType] ?? r.requestType) : ''),
      shownByDefault: true,
      from: 1090,
    },
    {
      key: 'carrier',
      label: 'Carrier',
      sort: 'carrier',
      width: 72,
      exportKeys: ['scac'],
      cell: (r) => text(r.carrierScac),
      shownByDefault: true,
    },
    {
      key: 'status',
      label: 'Status',
      sort: 'status',
      width: 200,
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
      width: 170,
      exportKeys: ['failed_reason'],
      cell: (r) => text(r.failedReason ? (failedReasonLabels[r.failedReason] ?? r.failedReason) : ''),
      shownByDefault: true,
    },
    {
      key: 'customer',
      label: 'Customer',
      // Wide enough to tell customers apart; the whole name on hover.
      width: 180,
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
      shownByDefault: true,
      from: 1240,
    },
    {
      key: 'tags',
      label: 'Tags',
      width: 130,
      exportKeys: ['tags'],
      cell: (r) => ({ kind: 'tags', tags: r.tags }),
      shownByDefault: true,
      from: 1370,
    },
    {
      key: 'created',
      label: 'Created',
      sort: 'created_at',
      width: 168,
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
      shownByDefault: true,
      from: 1540,
    },
  ],
};
