/**
 * Exports transport events, every one the carrier sent, withdrawn ones included and said so: one
 * container's (from its detail) or all containers' (the CLI's `export events`). Streams from a
 * read-only connection of its own, like the list exports.
 */
import { eventLabel } from '../../shared/labels';
import { QuaysideError } from '../errors';
import { openReader, type Db } from '../store/database';
import {
  containerTransportEvents,
  findContainerId,
  iterateTransportEvents,
  type TransportEventExportRow,
} from '../store/queries/transport-events';
import { timestamp, type ExportColumn } from './columns';
import { exportToFile, type ExportFileResult } from './write-file';

type Row = TransportEventExportRow;
const zone = (r: Row) => r.timezone;

/** The columns, in order: the event, then whether and when the carrier withdrew or corrected it. */
export const eventColumns: ExportColumn<Row>[] = [
  { key: 'container_number', header: 'Container', value: (r) => r.container_number },
  { key: 'bill_of_lading_number', header: 'Bill of lading', value: (r) => r.bill_of_lading },
  { key: 'event_label', header: 'Event', value: (r) => eventLabel(r.event ?? '') },
  { key: 'event', header: 'Event code', value: (r) => r.event },
  { key: 'carrier_wording', header: "Carrier's wording", value: (r) => r.carrier_wording },
  ...timestamp<Row>('timestamp', 'Time', (r) => r.timestamp, zone, { place: 'event place' }),
  { key: 'timezone', header: 'Time zone', value: (r) => r.timezone },
  { key: 'location', header: 'Place', value: (r) => r.location },
  { key: 'location_locode', header: 'UN/LOCODE', value: (r) => r.location_locode },
  { key: 'terminal', header: 'Terminal', value: (r) => r.terminal },
  { key: 'vessel', header: 'Vessel', value: (r) => r.vessel },
  { key: 'voyage_number', header: 'Voyage', value: (r) => r.voyage_number },
  { key: 'data_source', header: 'Source', value: (r) => r.data_source },
  ...timestamp<Row>('created_at', 'Reported', (r) => r.created_at),
  {
    key: 'withdrawn',
    header: 'Withdrawn by the carrier',
    value: (r) => (r.invalidated_at !== null || r.replaced_by !== null ? 'yes' : 'no'),
  },
  ...timestamp<Row>('invalidated_at', 'Withdrawn', (r) => r.invalidated_at),
  { key: 'replaced_by', header: 'Corrected by event', value: (r) => r.replaced_by },
  { key: 'previous_version', header: 'Corrects event', value: (r) => r.previous_version_id },
  { key: 'id', header: 'Event id', value: (r) => r.id },
];

export interface ExportEventsOptions {
  /** One container, by id or number; all containers when left out. */
  container?: string;
  headerStyle?: 'human' | 'keys';
  onProgress?: (rows: number) => void;
  signal?: AbortSignal;
}

export async function exportEvents(db: Db, path: string, options: ExportEventsOptions = {}): Promise<ExportFileResult> {
  const reader = openReader(db);
  try {
    let rows: Iterable<Row>;
    if (options.container === undefined) rows = iterateTransportEvents(reader);
    else {
      const id = findContainerId(reader, options.container);
      if (id === null) {
        throw new QuaysideError('not_found', `There is no container ${options.container} in the local data (yet).`);
      }
      rows = containerTransportEvents(reader, id);
    }
    return await exportToFile(path, {
      rows,
      columns: eventColumns,
      headerStyle: options.headerStyle,
      onProgress: options.onProgress,
      signal: options.signal,
    });
  } finally {
    reader.close();
  }
}
