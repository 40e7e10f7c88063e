import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { QuaysideError } from '../../core/errors';
import { exportEvents } from '../../core/export/export-events';
import { exportPerCustomer } from '../../core/export/export-per-customer';
import { exportView, exportViews, type ExportView } from '../../core/export/export-view';
import type { ExportFormat } from '../../core/export/write-file';
import { lists } from '../../core/resources/lists';
import type { Db } from '../../core/store/database';
import { listNameOf } from '../../shared/list-views';
import { statusGroups, type StatusGroup } from '../../shared/status';
import { describeDatabaseFailure, openForReading } from '../database-files';
import { exitCodes } from '../exit-codes';
import { UsageError, type CommandIo } from '../io';
import { customFieldFlags, customFieldFlagsUsage } from './custom-field-flags';
import { dateFlagFilters, dateFlagOptions, dateFlagsUsage, withBareOverdue } from './date-flags';
import { perCustomerArgs, perCustomerReport, perCustomerUsage } from './export-per-customer';

/** `--stage`'s values: the stages of src/shared/status.ts, as a shell types them (`not-picked-up`). */
const stageFlagValues = statusGroups.map((g) => g.replaceAll('_', '-'));

export const exportUsage = `export ${exportViews.join('|')} --db PATH --out FILE [options]
                      Write a list, filtered and sorted as in the app, to CSV (UTF-8 with BOM) or to an
                      Excel workbook: --out's extension says which (.csv or .xlsx):
    --search TEXT  --carrier SCAC  --pol LOCODE  --pod LOCODE  --destination LOCODE  --customer NAME
    --tag TAG  --status STATUS  --stage ${stageFlagValues.join('|')}
    --eta-from ISO  --eta-to ISO  --lfd-from ISO  --lfd-to ISO
    --tracking-stopped true|false  --on-hold true|false  --overdue true|false  --pickup-ready true|false
    ${dateFlagsUsage}
    (carrier, ports, customer, tag, status and stage repeat)  --sort FIELD[:asc|desc] (cf.FIELD sorts by a custom field)
    ${customFieldFlagsUsage}
    --columns KEY,KEY (cf.FIELD is a custom field's column)  --header-style human|keys
  ${perCustomerUsage}
  export events --db PATH --out FILE [--container ID|NUMBER] [--header-style human|keys]
                      Write transport events to CSV, withdrawn ones included (a column says when the
                      carrier withdrew each): one container's, or every container's`;

/** The file's format from --out's extension: .csv or .xlsx (any case), nothing else. */
function formatOf(out: string): ExportFormat {
  const extension = extname(out).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.xlsx') return 'xlsx';
  throw new UsageError(
    `--out must end in .csv (a CSV file) or .xlsx (an Excel workbook), not "${extension || basename(out)}": ` +
      'the file name says which format to write.',
  );
}

function stagesOf(values: string[] | undefined): StatusGroup[] | undefined {
  return values?.map((value) => {
    const stage = statusGroups[stageFlagValues.indexOf(value)];
    if (stage === undefined) {
      throw new UsageError(`--stage must be one of ${stageFlagValues.join(', ')}; "${value}" is not one.`);
    }
    return stage;
  });
}

function bool(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`--${name} must be true or false`);
}

export async function runExport(args: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: withBareOverdue(args),
      strict: true,
      allowPositionals: true,
      options: {
        db: { type: 'string' },
        out: { type: 'string' },
        search: { type: 'string' },
        carrier: { type: 'string', multiple: true },
        pol: { type: 'string', multiple: true },
        pod: { type: 'string', multiple: true },
        destination: { type: 'string', multiple: true },
        customer: { type: 'string', multiple: true },
        tag: { type: 'string', multiple: true },
        status: { type: 'string', multiple: true },
        stage: { type: 'string', multiple: true },
        'eta-from': { type: 'string' },
        'eta-to': { type: 'string' },
        'lfd-from': { type: 'string' },
        'lfd-to': { type: 'string' },
        'tracking-stopped': { type: 'string' },
        'on-hold': { type: 'string' },
        overdue: { type: 'string' },
        'pickup-ready': { type: 'string' },
        ...dateFlagOptions,
        cf: { type: 'string', multiple: true },
        sort: { type: 'string' },
        columns: { type: 'string' },
        'header-style': { type: 'string' },
        container: { type: 'string' },
        per: { type: 'string' },
        'out-dir': { type: 'string' },
        format: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals[0] === 'events') return runEventsExport(values, positionals, io);
  if (values.container !== undefined) throw new UsageError('--container goes with export events');
  const view = positionals[0] as ExportView | undefined;
  const list = view === undefined ? undefined : listNameOf(view);
  if (!view || !list || positionals.length > 1) {
    throw new UsageError(`export needs one of ${exportViews.join(', ')} or events`);
  }
  if (values.stage !== undefined && list !== 'containers')
    throw new UsageError(`${view} exports do not filter by stage`);
  const per = perCustomerArgs(values, list, view);
  if (!values.db || (per === null && !values.out)) throw new UsageError('export needs --db PATH and --out FILE');
  const format = per?.format ?? formatOf(values.out!);
  if (!existsSync(values.db)) {
    io.err.write(`There is no database at ${values.db}; run sync first.\n`);
    return exitCodes.failure;
  }
  const headerStyle = values['header-style'] ?? 'human';
  if (headerStyle !== 'human' && headerStyle !== 'keys') throw new UsageError('--header-style must be human or keys');
  const filters: Record<string, unknown> = {
    search: values.search,
    carriers: values.carrier,
    portsOfLading: values.pol,
    portsOfDischarge: values.pod,
    destinations: values.destination,
    customers: values.customer,
    tags: values.tag,
    etaFrom: values['eta-from'],
    etaTo: values['eta-to'],
    trackingStopped: bool(values['tracking-stopped'], 'tracking-stopped'),
  };
  if (list === 'containers') {
    Object.assign(filters, {
      statuses: values.status,
      statusGroups: stagesOf(values.stage),
      lfdFrom: values['lfd-from'],
      lfdTo: values['lfd-to'],
      onHold: bool(values['on-hold'], 'on-hold'),
      overdue: bool(values.overdue, 'overdue'),
      pickupReady: bool(values['pickup-ready'], 'pickup-ready'),
    });
  }
  if (list === 'trackingRequests') {
    for (const key of [
      'portsOfLading',
      'portsOfDischarge',
      'destinations',
      'customers',
      'tags',
      'etaFrom',
      'etaTo',
      'trackingStopped',
    ]) {
      if (filters[key] !== undefined) throw new UsageError(`${view} exports do not filter by ${key}`);
      delete filters[key];
    }
    filters.statuses = values.status;
  }
  if (list === 'emailSubmissions') {
    // Only the search text applies: the other flags name shipment and container fields.
    for (const key of Object.keys(filters)) {
      if (key === 'search') continue;
      if (filters[key] !== undefined) throw new UsageError(`${view} exports do not filter by ${key}`);
      delete filters[key];
    }
  }
  Object.assign(filters, dateFlagFilters(values, list, view));
  for (const key of Object.keys(filters)) if (filters[key] === undefined) delete filters[key];
  // The record type whose custom fields the list's rows carry (none for email submissions).
  const customFieldType = lists[list].customFields;
  const cf = values.cf ?? [];
  if (cf.length > 0 && customFieldType === undefined)
    throw new UsageError(`${view} exports do not filter by custom fields`);
  let sort: { field: string; direction: string } | undefined;
  if (values.sort) {
    const [field, direction = 'asc'] = values.sort.split(':');
    sort = { field: field!, direction };
  }
  const columns = values.columns
    ?.split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const out = values.out;
  return exportFrom(values.db, io, { code: 'invalid_argument', exit: exitCodes.validation }, async (db) => {
    // Custom field flags are read by each field's type, in this database.
    if (cf.length > 0 && customFieldType !== undefined) {
      filters.customFields = customFieldFlags(db, customFieldType, `${lists[list].noun}s`, cf);
    }
    if (per !== null) {
      const result = await exportPerCustomer(db, per.outDir, { view, filters, sort, columns, headerStyle, format });
      return perCustomerReport(result, per.json);
    }
    const result = await exportView(db, out!, { view, filters, sort, columns, headerStyle, format });
    return `Wrote ${result.rows} rows to ${result.path}`;
  });
}

type ExportValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** `export events`: transport events, of one container or all, through the same file writer. */
async function runEventsExport(values: ExportValues, positionals: string[], io: CommandIo): Promise<number> {
  if (positionals.length > 1) throw new UsageError('export events takes no other list name');
  const { db: dbPath, out, container } = values;
  const headerStyle = values['header-style'] ?? 'human';
  const allowed = new Set(['db', 'out', 'container', 'header-style']);
  const other = Object.keys(values).filter((key) => values[key] !== undefined && !allowed.has(key));
  if (other.length > 0) throw new UsageError(`export events takes no --${other.join(', --')}`);
  if (typeof dbPath !== 'string' || typeof out !== 'string') {
    throw new UsageError('export needs --db PATH and --out FILE');
  }
  if (headerStyle !== 'human' && headerStyle !== 'keys') throw new UsageError('--header-style must be human or keys');
  if (extname(out).toLowerCase() === '.xlsx') {
    throw new UsageError('export events writes CSV only: give --out a name ending in .csv');
  }
  if (!existsSync(dbPath)) {
    io.err.write(`There is no database at ${dbPath}; run sync first.\n`);
    return exitCodes.failure;
  }
  return exportFrom(dbPath, io, { code: 'not_found', exit: exitCodes.failure }, async (db) => {
    const result = await exportEvents(db, out, {
      container: typeof container === 'string' ? container : undefined,
      headerStyle,
    });
    return `Wrote ${result.rows} events to ${result.path}`;
  });
}

/**
 * Opens the database read-only, runs one export on it and says what it wrote; the error the
 * export may expect (a refused argument, a container not there) is its own sentence and exit
 * code, a database failure one sentence naming the file.
 */
async function exportFrom(
  dbPath: string,
  io: CommandIo,
  expected: { code: string; exit: number },
  run: (db: Db) => Promise<string>,
): Promise<number> {
  const opened = openForReading(dbPath);
  if ('error' in opened) {
    io.err.write(`${opened.error}\n`);
    return exitCodes.failure;
  }
  const { db } = opened;
  try {
    io.out.write(`${await run(db)}\n`);
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof QuaysideError && error.code === expected.code) {
      io.err.write(`${error.message}\n`);
      return expected.exit;
    }
    const sentence = describeDatabaseFailure(error, dbPath);
    if (sentence === null) throw error;
    io.err.write(`${sentence}\n`);
    return exitCodes.failure;
  } finally {
    db.close();
  }
}
