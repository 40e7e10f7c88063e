/**
 * Exports the change history the Changes view shows (its period and filters), newest first, to
 * CSV through the project's writer, so every text cell gets its hardening (formula starts
 * neutralised, controls and bidi overrides removed). Streams from a read-only connection of its
 * own, like the list exports.
 */
import { isChangeField, type ChangeFilters } from '../../shared/changes';
import { holdLabel } from '../../shared/labels';
import { changeLabel, changeValueText, parseChangeValue, resolveChangeQuery } from '../history/change-history';
import { openReader, type Db } from '../store/database';
import { iterateChanges, type ChangeDbRow } from '../store/queries/changes';
import { timestamp, type ExportColumn } from './columns';
import { exportToFile, type ExportFileResult } from './write-file';

/** A stored change with its values read back (JSON text) and its kind known. */
interface Row extends ChangeDbRow {
  oldText: string;
  newText: string;
  label: string;
}

/** The columns, in order: when, which record, what changed, from what to what, and the shipment's customer and carrier. */
export const changeColumns: ExportColumn<Row>[] = [
  ...timestamp<Row>('seen_at', 'Seen', (r) => r.seen_at),
  { key: 'resource', header: 'Record', value: (r) => (r.resource === 'shipment' ? 'Shipment' : 'Container') },
  { key: 'number', header: 'Number', value: (r) => r.number },
  { key: 'bill_of_lading_number', header: 'Bill of lading', value: (r) => r.bill_of_lading },
  { key: 'change', header: 'Change', value: (r) => r.label },
  { key: 'field', header: 'Field', value: (r) => r.field },
  { key: 'hold_type', header: 'Hold type', value: (r) => (r.detail === null ? null : holdLabel(r.detail)) },
  { key: 'old', header: 'Was', value: (r) => r.oldText },
  { key: 'new', header: 'Now', value: (r) => r.newText },
  { key: 'customer_name', header: 'Customer', value: (r) => r.customer_name },
  { key: 'shipping_line_scac', header: 'Carrier SCAC', value: (r) => r.shipping_line_scac },
  { key: 'record_id', header: 'Record id', value: (r) => r.record_id },
];

function* rowsOf(changes: Iterable<ChangeDbRow>): Generator<Row> {
  for (const change of changes) {
    if (!isChangeField(change.field)) continue;
    yield {
      ...change,
      label: changeLabel(change.field, change.detail),
      oldText: changeValueText(change.field, parseChangeValue(change.old_value)),
      newText: changeValueText(change.field, parseChangeValue(change.new_value)),
    };
  }
}

export interface ExportChangesOptions {
  filters: ChangeFilters;
  now?: Date;
  headerStyle?: 'human' | 'keys';
  onProgress?: (rows: number) => void;
  signal?: AbortSignal;
}

export async function exportChanges(db: Db, path: string, options: ExportChangesOptions): Promise<ExportFileResult> {
  // The period is resolved on the main connection (the "last looked at" mark), the rows read apart.
  // The rows the view lists: an ETA cleared by its arrival is the arrival's row (its Was and Now as recorded).
  const query = { ...resolveChangeQuery(db, options.filters, options.now ?? new Date()), asEvents: true };
  const reader = openReader(db);
  try {
    return await exportToFile(path, {
      rows: rowsOf(iterateChanges(reader, query, 'newest')),
      columns: changeColumns,
      headerStyle: options.headerStyle,
      onProgress: options.onProgress,
      signal: options.signal,
    });
  } finally {
    reader.close();
  }
}
