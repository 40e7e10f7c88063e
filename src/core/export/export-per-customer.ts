/**
 * A list exported as one file per customer into a folder: the same rows, filters, sort and
 * columns as its export to one file, split by the list's customer. The rows stream from one
 * query ordered by customer first (then the list's own order), and each customer's run of rows
 * goes to its file as it comes, so memory stays flat at any size and every row is read once.
 *
 * A file is named after its customer (file-names.ts: plain on every system, at most
 * NAME_MAX_BYTES); the rows without a customer go to "No customer". Two customers whose names
 * come out alike (also alike but for case, as Windows and macOS compare names) get " (2)", " (3)"…
 * A file already in the folder is never replaced: its name is claimed first (created empty, only
 * if absent) and a taken name moves on to the next number; `kept` counts them. Each file is
 * written whole (exportToFile); should one fail, or the export be cancelled, the files this export
 * wrote are removed again, leaving the folder as it was.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { NO_CUSTOMER_FILE, type PerCustomerExport, type PerCustomerFile } from '../../shared/export-per-customer';
import type { ListName } from '../../shared/list-views';
import { QuaysideError } from '../errors';
import { fileNameWithin, plainStem } from '../file-names';
import { lists } from '../resources/lists';
import { openReader, type Db } from '../store/database';
import { checkedListQueries } from '../store/queries/list-view';
import { exportPlan, type ExportViewOptions } from './export-view';
import { describeFsError, exportToFile } from './write-file';

/** Longest file name in UTF-8 bytes: its temp name (a dot, 12 characters and `.tmp` more) stays under 255. */
export const NAME_MAX_BYTES = 150;

/** A customer whose name leaves nothing usable in a file name (only dots, say). */
const UNNAMED_FILE = 'Unnamed customer';

/** How many numbered names are tried for one customer before the folder is called too full. */
const MAX_TRIES = 1000;

/** The list's customer as SQL: what the rows are grouped by. */
const customerColumns: Partial<Record<ListName, string>> = {
  shipments: 's.customer_name',
  containers: 's.customer_name',
  trackingRequests: 'p.company_name',
};

/** A row's customer, as the query groups it: null for none or a name of spaces only (SQLite's trim takes spaces only). */
function customerOf(row: unknown): string | null {
  const customer = (row as { customer?: unknown }).customer;
  return typeof customer === 'string' && !/^ *$/.test(customer) ? customer : null;
}

export type PerCustomerOptions = Omit<ExportViewOptions, 'part'>;

/** One file per customer of the list `options` name, into `folder` (made if it is not there). */
export async function exportPerCustomer(
  db: Db,
  folder: string,
  options: PerCustomerOptions,
): Promise<PerCustomerExport> {
  const reader = openReader(db);
  try {
    return await exportPerCustomerFrom(reader, folder, options);
  } finally {
    reader.close();
  }
}

/** The export read on `reader`, a connection the caller owns and nothing else uses meanwhile. */
export async function exportPerCustomerFrom(
  reader: Db,
  folder: string,
  options: PerCustomerOptions,
): Promise<PerCustomerExport> {
  const { name, filters, sort, at, columns, sheetName } = exportPlan(reader, options);
  const customer = customerColumns[name];
  if (customer === undefined) {
    throw new QuaysideError('invalid_argument', `The ${lists[name].noun} list has no customer to split its rows by.`);
  }
  const dir = resolve(folder);
  await mkdir(dir, { recursive: true }).catch((error: unknown) => {
    throw describeFsError(error);
  });
  const ext = options.format ?? 'csv';
  const names = new Set<string>();
  const files: (PerCustomerFile & { path: string })[] = [];
  let kept = 0;
  let rows = 0;

  /** Claims a free name for `customer` in the folder: created empty, only where none was. */
  async function claim(customer: string | null): Promise<{ file: string; path: string }> {
    const stem = customer === null ? NO_CUSTOMER_FILE : plainStem(customer) || UNNAMED_FILE;
    for (let n = 1; n <= MAX_TRIES; n++) {
      const file = fileNameWithin(stem, n === 1 ? '' : ` (${n})`, ext, NAME_MAX_BYTES);
      // Alike but for case or composition is one name on Windows and macOS.
      const key = file.normalize('NFC').toLowerCase();
      if (names.has(key)) continue;
      const path = join(dir, file);
      try {
        await writeFile(path, '', { flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          kept++;
          continue;
        }
        throw describeFsError(error);
      }
      names.add(key);
      return { file, path };
    }
    throw new QuaysideError(
      'invalid_argument',
      `The folder already holds ${MAX_TRIES} files named like “${stem}”: choose another folder.`,
    );
  }

  // Grouped by the name as stored (as the customer filter tells names apart), a blank one as none.
  const group = `CASE WHEN trim(${customer}) = '' THEN NULL ELSE ${customer} END`;
  const source = checkedListQueries(name).iterate(reader, filters, sort, at, undefined, group);
  let next = source.next();
  let claimed: string | null = null;
  try {
    while (!next.done) {
      const who = customerOf(next.value);
      const { file, path } = await claim(who);
      claimed = path;
      const before = rows;
      // This customer's run of rows; it stops on the next customer's first row, left in `next`.
      const run = function* () {
        while (!next.done && customerOf(next.value) === who) {
          yield next.value;
          next = source.next();
        }
      };
      const result = await exportToFile(path, {
        rows: run(),
        columns,
        headerStyle: options.headerStyle,
        format: ext,
        sheetName,
        onProgress: (done) => options.onProgress?.(before + done),
        signal: options.signal,
      });
      claimed = null;
      files.push({ customer: who, file, path, rows: result.rows });
      rows += result.rows;
    }
  } catch (error) {
    // All or nothing: the files written so far, and the name claimed for the one that failed.
    await Promise.all(
      [...files.map((f) => f.path), ...(claimed === null ? [] : [claimed])].map((p) =>
        rm(p, { force: true }).catch(() => {}),
      ),
    );
    throw error;
  } finally {
    source.return(undefined);
  }
  return { folder: dir, files: files.map(({ path: _path, ...file }) => file), rows, kept };
}
