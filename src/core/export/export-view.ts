/**
 * Exports one list view, with the same filters and sort as on screen, to a file. The rows stream
 * from one ordered query on a connection of their own, so memory stays flat at any size.
 */
import { z } from 'zod';
import { QuaysideError } from '../errors';
import { openReader, type Db } from '../store/database';
import { iterateContainers } from '../store/queries/containers';
import { iterateShipments } from '../store/queries/shipments';
import { iterateTrackingRequests } from '../store/queries/tracking-requests';
import {
  containerFiltersSchema,
  containerSortFields,
  shipmentFiltersSchema,
  shipmentSortFields,
  sortSchema,
  trackingRequestFiltersSchema,
  trackingRequestSortFields,
} from '../../shared/views';
import { chooseColumns, containerColumns, shipmentColumns, trackingRequestColumns } from './view-columns';
import { exportToFile, type ExportFileResult } from './write-file';

export const exportViews = ['shipments', 'containers', 'tracking-requests'] as const;
export type ExportView = (typeof exportViews)[number];

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

export async function exportView(db: Db, path: string, options: ExportViewOptions): Promise<ExportFileResult> {
  // The rows stream from a connection of their own: the export yields between batches, and the
  // views and the sync keep using the main one meanwhile.
  const reader = openReader(db);
  try {
    return await exportRows(reader, path, options);
  } finally {
    reader.close();
  }
}

async function exportRows(db: Db, path: string, options: ExportViewOptions): Promise<ExportFileResult> {
  const common = { headerStyle: options.headerStyle, onProgress: options.onProgress, signal: options.signal };
  const columnsOf = <Row>(all: Parameters<typeof chooseColumns<Row>>[0]) => {
    try {
      return chooseColumns(all, options.columns);
    } catch (error) {
      throw new QuaysideError('invalid_argument', (error as Error).message);
    }
  };
  switch (options.view) {
    case 'shipments': {
      const filters = parse(shipmentFiltersSchema, options.filters, 'filters');
      const sort = options.sort === undefined ? undefined : parse(sortSchema(shipmentSortFields), options.sort, 'sort');
      return exportToFile(path, {
        rows: iterateShipments(db, filters, sort),
        columns: columnsOf(shipmentColumns),
        ...common,
      });
    }
    case 'containers': {
      const filters = parse(containerFiltersSchema, options.filters, 'filters');
      const sort =
        options.sort === undefined ? undefined : parse(sortSchema(containerSortFields), options.sort, 'sort');
      return exportToFile(path, {
        rows: iterateContainers(db, filters, sort),
        columns: columnsOf(containerColumns),
        ...common,
      });
    }
    case 'tracking-requests': {
      const filters = parse(trackingRequestFiltersSchema, options.filters, 'filters');
      const sort =
        options.sort === undefined ? undefined : parse(sortSchema(trackingRequestSortFields), options.sort, 'sort');
      return exportToFile(path, {
        rows: iterateTrackingRequests(db, filters, sort),
        columns: columnsOf(trackingRequestColumns),
        ...common,
      });
    }
  }
}
