import type { TrackingRequestRow } from '../../../shared/rows';
import type { TrackingRequestFilters, trackingRequestSortFields } from '../../../shared/views';
import { inList, searchFilter } from './keyset';
import { defineListView } from './list-view';

type TrackingRequestSortField = (typeof trackingRequestSortFields)[number];

const sortColumns: Record<TrackingRequestSortField, string> = {
  created_at: 'r.created_at',
  updated_at: 'r.updated_at',
  request_number: 'r.request_number',
  status: 'r.status',
  carrier: 'r.scac',
};

const select = `r.id, r.request_number, r.request_type, r.scac, r.status, r.failed_reason, r.is_retrying, r.shipment_id,
  p.company_name, r.ref_numbers, r.tags, r.created_at, r.updated_at`;
const from = 'tracking_requests r LEFT JOIN parties p ON p.id = r.customer_id';

function requestWhere(filters: TrackingRequestFilters, where: string[], params: unknown[]): void {
  where.push('r.synced_at IS NOT NULL');
  if (filters.search) searchFilter('r.rowid', 'tracking_request_search', filters.search, where, params);
  inList('r.status', filters.statuses ?? [], where, params);
  inList('r.scac', filters.carriers ?? [], where, params);
  inList('r.request_type', filters.requestTypes ?? [], where, params);
  inList('r.failed_reason', filters.failedReasons ?? [], where, params);
  if (filters.createdFrom) {
    where.push('r.created_at >= ?');
    params.push(filters.createdFrom);
  }
  if (filters.createdTo) {
    where.push('r.created_at <= ?');
    params.push(filters.createdTo);
  }
}

function toRow(r: Record<string, unknown>): TrackingRequestRow {
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
}

export const trackingRequestView = defineListView({
  select,
  from,
  idColumn: 'r.id',
  sortColumns,
  indexOrderedSorts: ['created_at'],
  where: (filters: TrackingRequestFilters, where, params) => requestWhere(filters, where, params),
  countFrom: () => 'tracking_requests r',
  toRow,
});

export const listTrackingRequests = trackingRequestView.page;
export const countTrackingRequests = trackingRequestView.count;
export const iterateTrackingRequests = trackingRequestView.iterate;
export const getTrackingRequestRow = trackingRequestView.get;
