/**
 * Exports one list view, with the same filters and sort as on screen, to a file. The rows stream
 * from one ordered query on a connection of their own, so memory stays flat at any size. The
 * views, their columns and their queries are the lists' declarations (src/core/resources/lists.ts).
 */
import { z } from 'zod';
import { listNameOf, listNames, listViews, viewIdOf, type ListName, type ViewId } from '../../shared/list-views';
import type { Sort } from '../../shared/views';
import { QuaysideError } from '../errors';
import type { BaseRowOf } from '../resources/define-list';
import { lists } from '../resources/lists';
import { openReader, type Db } from '../store/database';
import { customFieldCells, customFieldDefinitions, type DefinitionEntityType } from '../store/queries/custom-fields';
import { countOrdered, type RowRange } from '../store/queries/keyset';
import { checkedListQueries } from '../store/queries/list-view';
import type { ExportColumn } from './columns';
import { pickupColumns, pickupReadyColumn, type PickupExportOptions } from './pickup-columns';
import { DEFAULT_TERMINAL_STALE_HOURS } from '../../shared/pickup';
import { exportToFile, type ExportFileResult, type ExportFormat } from './write-file';

/** The names the CLI's `export` and `export:list` take: each list's view id, in registry order. */
export const exportViews: readonly ViewId[] = listNames.map(viewIdOf);
export type ExportView = ViewId;

export interface ExportViewOptions {
  view: ExportView;
  /** Validated here against the view's filter schema. */
  filters?: unknown;
  sort?: unknown;
  columns?: string[];
  headerStyle?: 'human' | 'keys';
  /** CSV (the default) or an Excel workbook (XLSX) of the same rows, order and columns. */
  format?: ExportFormat;
  onProgress?: (rows: number) => void;
  signal?: AbortSignal;
  /** The containers' pickup columns: when "now" is and the stale limit (default: the clock, 24 h). */
  pickup?: Partial<PickupExportOptions>;
  /**
   * Only a stretch of the rows, written to `path` itself for the caller to join (a CSV export made
   * by two workers, export-aside.ts): the first part has the BOM and the header, the next neither.
   */
  part?: ExportPart;
}

/** A part of a CSV export made in two: its rows, and whether it starts the file. */
export interface ExportPart {
  range: RowRange;
  first: boolean;
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw new QuaysideError('invalid_argument', `Invalid ${what}: ${z.prettifyError(result.error)}`);
  return result.data;
}

/** Picks columns by key, in the order asked; an unknown key is an error naming the known ones. */
export function chooseColumns<Row>(
  all: readonly ExportColumn<Row>[],
  keys: readonly string[] | undefined,
): ExportColumn<Row>[] {
  if (!keys || keys.length === 0) return [...all];
  const byKey = new Map(all.map((c) => [c.key, c]));
  const unknown = keys.filter((k) => !byKey.has(k));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; known: ${all.map((c) => c.key).join(', ')}`,
    );
  }
  return keys.map((k) => byKey.get(k)!);
}

export async function exportView(db: Db, path: string, options: ExportViewOptions): Promise<ExportFileResult> {
  // The rows stream from a connection of their own: the export yields between batches, and the
  // views and the sync keep using the main one meanwhile.
  const reader = openReader(db);
  try {
    return await exportViewFrom(reader, path, options);
  } finally {
    reader.close();
  }
}

/**
 * The export read on `reader`, a connection the caller owns and nothing else uses meanwhile (an
 * export worker's, which may hold a read transaction open so its rows come from one snapshot).
 */
export async function exportViewFrom(reader: Db, path: string, options: ExportViewOptions): Promise<ExportFileResult> {
  return exportRows(reader, path, options);
}

/** How many rows an export of these options has (read on `reader`, as `exportViewFrom` would). */
export function exportRowCount(reader: Db, options: ExportViewOptions): number {
  const { name, filters, sort, at } = exportQuery(options);
  return countOrdered(reader, checkedListQueries(name).orderedSql(reader, filters, sort, at));
}

/**
 * The list an export reads, its filters and sort checked against the list's schemas, and one
 * moment and one stale limit for the whole export: its filters (ready for pickup, overdue) and
 * its pickup columns answer alike.
 */
function exportQuery(options: ExportViewOptions) {
  const name = listNameOf(options.view);
  if (!name) throw new QuaysideError('invalid_argument', `There is no list called ${options.view}.`);
  const schemas: { filters: z.ZodType; sort: z.ZodType } = listViews[name];
  const filters = parse(schemas.filters, options.filters, 'filters');
  const sort = options.sort === undefined ? undefined : (parse(schemas.sort, options.sort, 'sort') as Sort);
  const pickup: PickupExportOptions = {
    now: options.pickup?.now ?? Date.now(),
    staleHours: options.pickup?.staleHours ?? DEFAULT_TERMINAL_STALE_HOURS,
  };
  return {
    name,
    filters,
    sort,
    pickup,
    at: { now: new Date(pickup.now).toISOString(), staleHours: pickup.staleHours },
  };
}

/**
 * What an export of `options` reads on `db` and writes: the list and its checked filters, sort
 * and moment (`exportQuery`), the columns asked for (an unknown one refused) and the sheet's name.
 */
export function exportPlan(db: Db, options: ExportViewOptions) {
  const query = exportQuery(options);
  const { name, pickup } = query;
  let columns: ExportColumn<BaseRowOf<typeof name>>[];
  try {
    const keys = options.columns?.map((key) => (key === 'number' ? numberKeys[name] : key));
    columns = chooseColumns(
      [...baseColumns(name, pickup), ...extraColumns(name, pickup), ...customFieldColumns(db, name)],
      keys,
    );
  } catch (error) {
    throw new QuaysideError('invalid_argument', (error as Error).message);
  }
  return { ...query, columns, sheetName: sheetNameOf(options.view) };
}

async function exportRows(db: Db, path: string, options: ExportViewOptions): Promise<ExportFileResult> {
  const { name, filters, sort, at, columns, sheetName } = exportPlan(db, options);
  const part = options.part;
  if (part !== undefined && options.format === 'xlsx') {
    throw new QuaysideError('internal', 'A workbook is made whole, not in parts.');
  }
  return exportToFile(path, {
    rows: checkedListQueries(name).iterate(db, filters, sort, at, part?.range),
    columns,
    headerStyle: options.headerStyle,
    ...(part === undefined ? {} : { bom: part.first, header: part.first, direct: true, flush: part.first }),
    format: options.format,
    sheetName,
    onProgress: options.onProgress,
    signal: options.signal,
  });
}

/** The workbook's sheet: the list's view id in words (`tracking-requests` → "Tracking requests"). */
const sheetNameOf = (view: string) => view.charAt(0).toUpperCase() + view.slice(1).replaceAll('-', ' ');

/** Columns a list adds that depend on the moment of the export: the containers' pickup answer. */
/** The list's own export columns; the containers' "Ready for pickup" answered as the Pickup column is. */
function baseColumns<N extends ListName>(name: N, pickup: PickupExportOptions): readonly ExportColumn<BaseRowOf<N>>[] {
  const columns = lists[name].export as readonly ExportColumn<BaseRowOf<N>>[];
  if (name !== 'containers') return columns;
  const ready = pickupReadyColumn(pickup) as unknown as ExportColumn<BaseRowOf<N>>;
  return columns.map((column) => (column.key === ready.key ? ready : column));
}

function extraColumns<N extends ListName>(name: N, pickup: PickupExportOptions): ExportColumn<BaseRowOf<N>>[] {
  if (name !== 'containers') return [];
  return pickupColumns(pickup) as unknown as ExportColumn<BaseRowOf<N>>[];
}

/** `number` names each list's identifying column too (`--columns number,cf.po_number`). */
const numberKeys: Record<ListName, string> = {
  shipments: 'bill_of_lading_number',
  containers: 'number',
  trackingRequests: 'request_number',
  emailSubmissions: 'subject',
};

/** The record type whose custom fields a list's rows carry (email submissions have none). */
const customFieldTypes: Partial<Record<ListName, { definitions: DefinitionEntityType; values: string }>> = {
  shipments: { definitions: 'Shipment', values: 'shipment' },
  containers: { definitions: 'Container', values: 'container' },
  trackingRequests: { definitions: 'TrackingRequest', values: 'tracking_request' },
};

/**
 * One column per custom field of the list's record type, keyed `cf.<api_slug>`, headed by its
 * name, after the list's own columns: the text the list shows (the service's display value).
 * The values are read once, by record, before the rows stream.
 */
function customFieldColumns(db: Db, name: ListName): ExportColumn<{ id: string }>[] {
  const type = customFieldTypes[name];
  if (type === undefined) return [];
  const definitions = customFieldDefinitions(db, type.definitions);
  if (definitions.length === 0) return [];
  let cells: Map<string, Map<string, string | null>> | null = null;
  const cellsOf = (id: string) => (cells ??= customFieldCells(db, type.values)).get(id);
  return definitions.map((d) => ({
    key: `cf.${d.apiSlug}`,
    header: d.name ?? d.apiSlug,
    value: (row: { id: string }) => cellsOf(row.id)?.get(d.apiSlug) ?? null,
  }));
}
