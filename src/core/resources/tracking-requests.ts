import { failedReasonLabels, requestTypeLabels, trackingRequestStatusLabels } from '../../shared/labels';
import { timestamp } from '../export/columns';
import { customFieldFilters, daysIn, from, oneOf, searchEither, to } from '../store/queries/list-sql';
import { bool, num, relId, relIdOfType, strings, type StoredResource } from '../store/resource';
import {
  attribute,
  columns,
  defineResource,
  idColumn,
  PAGE_SIZE,
  rawColumn,
  relationship,
  syncedAtColumn,
} from './define';
import { defineList, type BaseRowOf } from './define-list';
import { shipments } from './shipments';

const c = columns();

/**
 * A request's tags: the live service sends them as `shipment_tags`, the reference (and the
 * sandbox) as `tags`. The one that holds tags wins, `shipment_tags` first.
 */
export function requestTags(r: StoredResource): string[] {
  const live = strings(r.attributes.shipment_tags);
  return live.length > 0 ? live : strings(r.attributes.tags);
}

/** The API list of tracking requests (walked, and where a new request is posted and a key checked). */
export const trackingRequestsPath = '/tracking_requests';

/** Tracking requests: every run asks what changed since the cursor. */
export const trackingRequests = defineResource({
  name: 'trackingRequests',
  types: ['tracking_request'],
  table: 'tracking_requests',
  api: { path: trackingRequestsPath },
  writeRank: 90,
  columns: {
    id: idColumn,
    request_number: c.textOf('request_number', { indexed: true }),
    request_type: c.textOf('request_type'),
    scac: c.textOf('scac'),
    status: c.textOf('status', { indexed: true }),
    failed_reason: c.textOf('failed_reason'),
    is_retrying: c.integer((r) => bool(r.attributes.is_retrying), { holds: attribute('is_retrying', 'flag') }),
    retry_count: c.integer((r) => num(r.attributes.retry_count), { holds: attribute('retry_count') }),
    shipment_id: c.ref('shipments', (r) => relIdOfType(r, 'tracked_object', shipments.types), {
      indexed: true,
      holds: relationship('tracked_object', 'shipment'),
    }),
    customer_id: c.ref('parties', (r) => relId(r, 'customer'), { holds: relationship('customer', 'party') }),
    ref_numbers: c.text((r) => JSON.stringify(strings(r.attributes.ref_numbers)), {
      holds: attribute('ref_numbers', 'json'),
    }),
    tags: c.text((r) => JSON.stringify(requestTags(r))),
    created_at: c.instantOf('created_at', { indexed: true }),
    updated_at: c.instantOf('updated_at', { indexed: true }),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
  usual: { attributes: { shipment_tags: [] } },
  selfLink: '/v2/tracking_requests/',
  search: {
    table: 'tracking_request_search',
    body: (r) => {
      const a = r.attributes;
      return [a.request_number, a.scac, ...strings(a.ref_numbers), ...requestTags(r)].join(' ');
    },
  },
  walks: [
    {
      key: 'tracking_requests',
      order: 40,
      step: 'Tracking requests',
      noun: 'tracking requests',
      query: { 'page[size]': PAGE_SIZE },
      when: { kind: 'always' },
      estimate: 'stored rows',
      // A cursor that is no date or lies in the future is no cursor: every request is read.
      cursor: { key: 'cursor:tracking_requests', filter: 'filter[updated_at][start]', overlapMs: 10 * 60_000 },
    },
  ],
});

type Row = BaseRowOf<'trackingRequests'>;

/** The tracking requests list: its row, sorts, filters and CSV columns. */
export const trackingRequestsList = defineList({
  name: 'trackingRequests',
  noun: 'tracking request',
  select: `r.id, r.request_number, r.request_type, r.scac, r.status, r.failed_reason, r.is_retrying, r.shipment_id,
  p.company_name, r.ref_numbers, r.tags, r.created_at, r.updated_at`,
  from: `${trackingRequests.table} r LEFT JOIN parties p ON p.id = r.customer_id`,
  idColumn: 'r.id',
  countFrom: () => `${trackingRequests.table} r`,
  customFields: 'tracking_request',
  sort: {
    created_at: 'r.created_at',
    updated_at: 'r.updated_at',
    request_number: 'r.request_number',
    status: 'r.status',
    carrier: 'r.scac',
  },
  indexOrderedSorts: ['created_at'],
  tiesById: ['status'],
  filters: {
    search: searchEither({ table: 'tracking_request_search', ownRow: 'r.rowid' }),
    statuses: oneOf('r.status'),
    carriers: oneOf('r.scac'),
    requestTypes: oneOf('r.request_type'),
    failedReasons: oneOf('r.failed_reason'),
    createdFrom: from('r.created_at'),
    createdTo: to('r.created_at'),
    createdDays: daysIn('r.created_at', 'instant'),
    customFields: customFieldFilters('tracking_request', 'r.id'),
  },
  toRow: (r) => {
    const s = (k: string) => (typeof r[k] === 'string' ? r[k] : null);
    const list = (k: string) => {
      try {
        return typeof r[k] === 'string' ? (JSON.parse(r[k]) as string[]) : [];
      } catch {
        return [];
      }
    };
    return {
      id: r.id as string,
      requestNumber: s('request_number'),
      requestType: s('request_type'),
      carrierScac: s('scac'),
      status: s('status'),
      failedReason: s('failed_reason'),
      isRetrying: r.is_retrying === 1,
      shipmentId: s('shipment_id'),
      customer: s('company_name'),
      refNumbers: list('ref_numbers'),
      tags: list('tags'),
      createdAt: s('created_at'),
      updatedAt: s('updated_at'),
    };
  },
  export: [
    { key: 'request_number', header: 'Number', value: (r) => r.requestNumber },
    {
      key: 'request_type',
      header: 'Type',
      value: (r) => (r.requestType ? (requestTypeLabels[r.requestType] ?? r.requestType) : null),
    },
    { key: 'scac', header: 'Carrier SCAC', value: (r) => r.carrierScac },
    {
      key: 'status',
      header: 'Status',
      value: (r) => (r.status ? (trackingRequestStatusLabels[r.status] ?? r.status) : null),
    },
    {
      key: 'failed_reason',
      header: 'Why it failed',
      value: (r) => (r.failedReason ? (failedReasonLabels[r.failedReason] ?? r.failedReason) : null),
    },
    { key: 'customer', header: 'Customer', value: (r) => r.customer },
    { key: 'ref_numbers', header: 'Reference numbers', value: (r) => r.refNumbers },
    { key: 'tags', header: 'Tags', value: (r) => r.tags },
    ...timestamp<Row>('created_at', 'Created', (r) => r.createdAt),
    ...timestamp<Row>('updated_at', 'Updated', (r) => r.updatedAt),
  ],
});
