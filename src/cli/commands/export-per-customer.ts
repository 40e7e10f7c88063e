/**
 * `export <list> --per customer --out-dir DIR [--format csv|xlsx] [--json]`: the list's export
 * as one file per customer (core/export/export-per-customer.ts). Its flags are checked here;
 * the filters, sort and columns are the one-file export's (export.ts).
 */
import { join } from 'node:path';
import { splitsByCustomer, type PerCustomerExport } from '../../shared/export-per-customer';
import type { ListName } from '../../shared/list-views';
import type { ExportFormat } from '../../core/export/write-file';
import { UsageError } from '../io';
import { plain } from '../text-output';

export const perCustomerUsage = `export shipments|containers|tracking-requests --db PATH --per customer --out-dir DIR
                      [--format csv|xlsx] [--json] [the filters, sort and columns above]
                      One file per customer into DIR (made if it is not there), named after the
                      customer; rows without one go to "No customer". A file already in DIR is
                      never replaced: the new one takes a number after its name ("ACME (2).csv").`;

export interface PerCustomerFlags {
  per?: string;
  'out-dir'?: string;
  format?: string;
  json?: boolean;
  out?: string;
}

/** The flags of an export per customer, checked; null for an export to one file (none given). */
export function perCustomerArgs(
  values: PerCustomerFlags,
  list: ListName,
  view: string,
): { outDir: string; format: ExportFormat; json: boolean } | null {
  const { per, 'out-dir': outDir, format, json, out } = values;
  if (per === undefined) {
    if (outDir !== undefined) throw new UsageError('--out-dir goes with --per customer (one file per customer).');
    if (format !== undefined)
      throw new UsageError('--format goes with --per customer: --out’s extension says the format of one file.');
    if (json === true) throw new UsageError('--json goes with --per customer.');
    return null;
  }
  if (per !== 'customer') throw new UsageError(`--per takes customer only (one file per customer), not "${per}".`);
  if (!splitsByCustomer(list)) {
    throw new UsageError(
      `${view} name no customer: --per customer goes with shipments, containers or tracking-requests.`,
    );
  }
  if (out !== undefined)
    throw new UsageError('--per customer writes into a folder: give --out-dir DIR, not --out FILE.');
  if (outDir === undefined || outDir === '')
    throw new UsageError('--per customer needs --out-dir DIR, the folder to write into.');
  if (format !== undefined && format !== 'csv' && format !== 'xlsx') {
    throw new UsageError(`--format must be csv or xlsx, not "${format}".`);
  }
  return { outDir, format: format ?? 'csv', json: json === true };
}

/** What the export wrote: JSON for scripts, or one line per file and one for the whole. */
export function perCustomerReport(result: PerCustomerExport, json: boolean): string {
  if (json) {
    return JSON.stringify({
      folder: result.folder,
      files: result.files.map(({ customer, file, rows }) => ({ customer, file, rows })),
      rows: result.rows,
    });
  }
  if (result.files.length === 0) return `No rows match: no file was written to ${result.folder}`;
  // The customer's name from the service, made safe for a terminal line.
  const lines = result.files.map(
    (f) =>
      `Wrote ${f.rows} ${f.rows === 1 ? 'row' : 'rows'} for ${f.customer === null ? 'no customer' : plain(f.customer)} to ${join(result.folder, f.file)}`,
  );
  const files = result.files.length;
  lines.push(`Wrote ${result.rows} rows in ${files} ${files === 1 ? 'file' : 'files'} to ${result.folder}`);
  if (result.kept > 0) {
    lines.push(
      `${result.kept} ${result.kept === 1 ? 'file' : 'files'} already in the folder kept ${result.kept === 1 ? 'its' : 'their'} name: the new ${result.kept === 1 ? 'one has' : 'ones have'} a number after it.`,
    );
  }
  return lines.join('\n');
}
