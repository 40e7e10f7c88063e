/**
 * Export of one insights table (carriers, lanes, carrier × lane, terminals; over the range or by
 * month) to CSV or Excel through the project's export writer, so its cells get the same
 * hardening as every list's. The columns are the flat rows' (`insights --json`), in order.
 */
import type { InsightsResult, InsightsTable } from '../../shared/insights';
import type { ExportColumn } from '../export/columns';
import { exportToFile, type ExportFileResult, type ExportFormat } from '../export/write-file';
import { byRank, flatArrival, flatDwell, type FlatRow } from './flat';

/** "on_time_share" → "On time share". */
const headerOf = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ');

/** The table's rows as exported: ranked groups first, then the rest; by month, oldest month first. */
export function insightsTableRows(result: InsightsResult, table: InsightsTable, byMonth: boolean): FlatRow[] {
  const source = byMonth ? result.months : result;
  const monthly = <G extends { month: string | null }>(rows: G[]) =>
    byMonth ? [...rows].sort((a, b) => (a.month ?? '').localeCompare(b.month ?? '')) : rows;
  if (table === 'terminals') return monthly(byRank(source.terminals, (g) => g.containers)).map(flatDwell);
  return monthly(byRank(source[table], (g) => g.shipments)).map(flatArrival);
}

export async function exportInsightsTable(
  result: InsightsResult,
  path: string,
  options: { table: InsightsTable; byMonth?: boolean; format?: ExportFormat },
): Promise<ExportFileResult> {
  const rows = insightsTableRows(result, options.table, options.byMonth ?? false);
  const keys = Object.keys(rows[0] ?? (options.table === 'terminals' ? flatDwellKeys : flatArrivalKeys));
  const columns: ExportColumn<FlatRow>[] = keys.map((key) => ({ key, header: headerOf(key), value: (r) => r[key] }));
  return exportToFile(path, {
    rows,
    columns,
    format: options.format ?? 'csv',
    sheetName: headerOf(options.table === 'carrierLanes' ? 'carrier_lanes' : options.table),
  });
}

// The column names of an empty table: a group's flat row with nothing in it.
const emptySpread = { p50: null, p90: null, count: 0, unknown: 0 };
const flatArrivalKeys = flatArrival({
  dimension: 'carrier',
  key: '',
  carrier: null,
  carrierName: null,
  pol: null,
  polName: null,
  pod: null,
  podName: null,
  month: null,
  shipments: 0,
  small: true,
  rank: null,
  onTime: { share: null, count: 0, unknown: 0 },
  slipHours: emptySpread,
  etaMoves: { mean: null, movedShare: null, count: 0, unknown: 0 },
  firstEtaFromHistory: 0,
});
const flatDwellKeys = flatDwell({
  kind: 'terminal',
  key: '',
  name: null,
  month: null,
  containers: 0,
  small: true,
  rank: null,
  dischargeToAvailable: emptySpread,
  availableToPickedUp: emptySpread,
  dischargeToPickedUp: emptySpread,
  pickedUpToEmptyReturned: emptySpread,
  pickedUpAfterLfd: { share: null, count: 0, unknown: 0 },
  cost: null,
});
