/** An import's results as CSV: one line per data row in file order, what was sent and what came of it. */
import { requestTypeLabels } from '../../shared/labels';
import { importRowStatusLabels, type ImportRow } from '../../shared/imports';
import type { ExportColumn } from '../export/columns';
import { exportToFile, type ExportFileResult } from '../export/write-file';

export const importResultColumns: ExportColumn<ImportRow>[] = [
  { key: 'row', header: 'Row', value: (r) => r.row },
  { key: 'number', header: 'Number', value: (r) => r.number },
  {
    key: 'request_type',
    header: 'Type',
    value: (r) => (r.requestType ? (requestTypeLabels[r.requestType] ?? r.requestType) : null),
  },
  { key: 'scac', header: 'Carrier SCAC', value: (r) => r.carrier },
  { key: 'ref_numbers', header: 'Reference numbers', value: (r) => r.refNumbers },
  { key: 'tags', header: 'Tags', value: (r) => r.tags },
  { key: 'customer', header: 'Customer', value: (r) => r.customer },
  { key: 'status', header: 'Result', value: (r) => importRowStatusLabels[r.status] },
  { key: 'message', header: 'Message', value: (r) => r.message },
  { key: 'tracking_request_id', header: 'Tracking request', value: (r) => r.trackingRequestId },
];

export function exportImportResults(path: string, rows: ImportRow[]): Promise<ExportFileResult> {
  return exportToFile(path, { rows, columns: importResultColumns });
}
