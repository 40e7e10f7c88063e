/** The IPC calls behind each list, typed by the list's contract: filters, sort and rows. */
import type { ListRow } from '../../../shared/ipc';
import type { ListFilters, ListSort } from '../../../shared/requests';
import type { ExportResult } from '../../../shared/types';
import type { Page, PageRequest } from '../../../shared/views';
import { api } from './api';
import type { ListId } from './lists-model';

export interface ListQuery<L extends ListId> {
  filters: ListFilters<L>;
  sort: ListSort<L>;
}

type ListCalls = {
  [L in ListId]: {
    page(query: ListQuery<L>, page: PageRequest): Promise<Page<ListRow<L>>>;
    count(filters: ListFilters<L>): Promise<number>;
    export(query: ListQuery<L>, columns: string[]): Promise<ExportResult>;
  };
};

const calls: ListCalls = {
  shipments: {
    page: (query, page) => api.invoke('shipments:list', { ...query, page }),
    count: (filters) => api.invoke('shipments:count', { filters }),
    export: (query, columns) =>
      api.invoke('export:csv', { view: 'shipments', ...query, columns, headerStyle: 'human' }),
  },
  containers: {
    page: (query, page) => api.invoke('containers:list', { ...query, page }),
    count: (filters) => api.invoke('containers:count', { filters }),
    export: (query, columns) =>
      api.invoke('export:csv', { view: 'containers', ...query, columns, headerStyle: 'human' }),
  },
  'tracking-requests': {
    page: (query, page) => api.invoke('trackingRequests:list', { ...query, page }),
    count: (filters) => api.invoke('trackingRequests:count', { filters }),
    export: (query, columns) =>
      api.invoke('export:csv', { view: 'tracking-requests', ...query, columns, headerStyle: 'human' }),
  },
};

export function listPage<L extends ListId>(id: L, query: ListQuery<L>, page: PageRequest): Promise<Page<ListRow<L>>> {
  return calls[id].page(query, page);
}

export function listCount<L extends ListId>(id: L, filters: ListFilters<L>): Promise<number> {
  return calls[id].count(filters);
}

/** Exports exactly what the list shows: its filters, sort and shown columns (their CSV keys). */
export function exportList<L extends ListId>(id: L, query: ListQuery<L>, columns: string[]): Promise<ExportResult> {
  return calls[id].export(query, columns);
}
