/**
 * Exports one list view, with the same filters and sort as on screen, to a file. The rows stream
 * from one ordered query on a connection of their own, so memory stays flat at any size. The
 * views, their columns and their queries are the lists' declarations (src/core/resources/lists.ts).
 */
import { z } from 'zod';
import { listNameOf, listNames, listViews, viewIdOf, type ListName, type ViewId } from '../../shared/list-views';
import type { Sort } from '../../shared/views';
import { QuaysideError } from '../errors';
import { lists } from '../resources/lists';
import { openReader, type Db } from '../store/database';
import { checkedListQueries } from '../store/queries/list-view';
import type { ExportColumn } from './columns';
import { exportToFile, type ExportFileResult } from './write-file';

/** The names the CLI's `export` and `export:csv` take: each list's view id, in registry order. */
export const exportViews: readonly ViewId[] = listNames.map(viewIdOf);
export type ExportView = ViewId;

export interface ExportViewOptions {
  view: ExportView;
  /** Validated here against the view's filter schema. */
  filters?: unknown;
  sort?: unknown;
  columns?: string[];
  headerStyle?: 'human' | 'keys';
  onProgress?: (rows: number) => void;
  signal?: AbortSignal;
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
  const name = listNameOf(options.view);
  if (!name) throw new QuaysideError('invalid_argument', `There is no list called ${options.view}.`);
  // The rows stream from a connection of their own: the export yields between batches, and the
  // views and the sync keep using the main one meanwhile.
  const reader = openReader(db);
  try {
    return await exportRows(reader, name, path, options);
  } finally {
    reader.close();
  }
}

async function exportRows<N extends ListName>(
  db: Db,
  name: N,
  path: string,
  options: ExportViewOptions,
): Promise<ExportFileResult> {
  const schemas: { filters: z.ZodType; sort: z.ZodType } = listViews[name];
  const filters = parse(schemas.filters, options.filters, 'filters');
  const sort = options.sort === undefined ? undefined : parse(schemas.sort, options.sort, 'sort');
  let columns;
  try {
    columns = chooseColumns(lists[name].export, options.columns);
  } catch (error) {
    throw new QuaysideError('invalid_argument', (error as Error).message);
  }
  return exportToFile(path, {
    rows: checkedListQueries(name).iterate(db, filters, sort as Sort | undefined),
    columns,
    headerStyle: options.headerStyle,
    onProgress: options.onProgress,
    signal: options.signal,
  });
}
