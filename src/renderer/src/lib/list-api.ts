/** The IPC calls behind each list, under one shape. */
import type { ContainerRow, ShipmentRow, TrackingRequestRow } from '../../../shared/rows';
import type { Page } from '../../../shared/views';
import type { ExportResult } from '../../../shared/types';
import { api } from './api';
import type { ListId } from './lists';
import type { Filters } from './list-state';

export interface ListQuery {
  filters: Filters;
  sort: { field: string; direction: 'asc' | 'desc' };
}

type RowOf = { shipments: ShipmentRow; containers: ContainerRow; 'tracking-requests': TrackingRequestRow };

// The contract checks filters and sort fields in main; here they travel as the list state holds them.
export function listPage<L extends ListId>(
  id: L,
  query: ListQuery,
  page: { limit: number; after?: string },
): Promise<Page<RowOf[L]>> {
  const arg = { filters: query.filters as never, sort: query.sort as never, page };
  if (id === 'shipments') return api.invoke('shipments:list', arg) as Promise<Page<RowOf[L]>>;
  if (id === 'containers') return api.invoke('containers:list', arg) as Promise<Page<RowOf[L]>>;
  return api.invoke('trackingRequests:list', arg) as Promise<Page<RowOf[L]>>;
}

export function listCount(id: ListId, filters: Filters): Promise<number> {
  const arg = { filters: filters as never };
  if (id === 'shipments') return api.invoke('shipments:count', arg);
  if (id === 'containers') return api.invoke('containers:count', arg);
  return api.invoke('trackingRequests:count', arg);
}

export function exportList(id: ListId, query: ListQuery, columns: string[]): Promise<ExportResult> {
  return api.invoke('export:csv', {
    view: id,
    filters: query.filters as never,
    sort: query.sort,
    columns,
    headerStyle: 'human',
  });
}
