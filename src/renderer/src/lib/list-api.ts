/** The IPC calls behind each list, typed by the list's contract: filters, sort and rows. */
import type { PerCustomerExportResult } from '../../../shared/export-per-customer';
import type { ArgOf, ListRow } from '../../../shared/ipc';
import { viewIdOf } from '../../../shared/list-views';
import type { ListFilters, ListSort } from '../../../shared/requests';
import type { ExportResult } from '../../../shared/types';
import type { Page, PageRequest } from '../../../shared/views';
import { api } from './api';
import type { ListId } from './lists-model';

export interface ListQuery<L extends ListId> {
  filters: ListFilters<L>;
  sort: ListSort<L>;
}

/** A list's `<name>:list`, `<name>:count` and `export:list` calls, from the contract's channels. */
function callsOf<L extends ListId>(id: L) {
  return {
    page: (query: ListQuery<L>, page: PageRequest) =>
      api.invoke(`${id}:list`, { ...query, page } as ArgOf<`${L}:list`>) as Promise<Page<ListRow<L>>>,
    count: (filters: ListFilters<L>) => api.invoke(`${id}:count`, { filters } as ArgOf<`${L}:count`>),
    export: (query: ListQuery<L>, columns: string[], format: ExportFormat) =>
      api.invoke('export:list', {
        view: viewIdOf(id),
        ...query,
        columns,
        headerStyle: 'human',
        format,
      } as ArgOf<'export:list'>),
  };
}

export function listPage<L extends ListId>(id: L, query: ListQuery<L>, page: PageRequest): Promise<Page<ListRow<L>>> {
  return callsOf(id).page(query, page);
}

export function listCount<L extends ListId>(id: L, filters: ListFilters<L>): Promise<number> {
  return callsOf(id).count(filters);
}

/** The file an export writes: CSV, or an Excel workbook (.xlsx) of the same rows and columns. */
export type ExportFormat = 'csv' | 'xlsx';

/** The same export as `exportList`, as one file per customer into a folder the user picks (main asks which). */
export function exportListPerCustomer<L extends ListId>(
  id: L,
  query: ListQuery<L>,
  columns: string[],
  format: ExportFormat,
): Promise<PerCustomerExportResult> {
  return api.invoke('export:perCustomer', {
    view: viewIdOf(id),
    ...query,
    columns,
    headerStyle: 'human',
    format,
  } as ArgOf<'export:perCustomer'>);
}

/** Exports exactly what the list shows: its filters, sort and shown columns (their CSV keys). */
export function exportList<L extends ListId>(
  id: L,
  query: ListQuery<L>,
  columns: string[],
  format: ExportFormat = 'csv',
): Promise<ExportResult> {
  return callsOf(id).export(query, columns, format);
}
