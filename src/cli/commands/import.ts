/**
 * `import FILE.csv|FILE.xlsx (--db PATH | --profile NAME) [--base-url URL] [--json]`: every data
 * row of the file checked against the local copy, its missing carriers asked of the service, the
 * valid rows sent through the limiter, one result per data row in file order. Rows with a problem
 * do not hold back the valid ones: those are sent, and the exit code is 6.
 */
import { basename } from 'node:path';
import { ImportJob } from '../../core/import/import-job';
import { importLookups } from '../../core/import/lookups';
import { readImportPath } from '../../core/import/read-file';
import { ImportFileError, readImportFile, type ReadTable } from '../../core/import/read-table';
import { describeTable } from '../../core/import/table';
import type { SecretStore } from '../../core/secrets/index';
import { readState } from '../../core/store/sync-state';
import { openSync } from '../../core/sync/open-sync';
import { importRowStatusLabels, type ImportRow } from '../../shared/imports';
import { resolveAccount } from '../account';
import { exitCodes } from '../exit-codes';
import { progressLine, UsageError, type CommandIo, parseCommandLine } from '../io';

export const importUsage = `import FILE.csv|FILE.xlsx (--db PATH | --profile NAME) [--base-url URL] [--json]
                      Create a tracking request for each row of a CSV or Excel file (columns: number,
                      type, carrier SCAC, references, tags, customer; headers such as BL, Container #,
                      SCAC, Line, Ref or PO are understood). Rows are checked against the local copy
                      first (sync it before); valid rows are sent even when others have problems.
                      --json prints {"rows": [...]}, one result per data row in file order. Exits 6
                      when any row failed validation. Account and key as for sync.`;

/** A row's result as scripts read it. */
export interface ImportRowJson {
  row: number;
  number: string;
  number_type: string | null;
  carrier: string | null;
  status: 'validation' | 'created' | 'already_tracked' | 'failed';
  message: string | null;
  tracking_request_id: string | null;
}

/** The four statuses of the contract: a row never sent (cancelled) is a failure saying so. */
export function rowJson(row: ImportRow): ImportRowJson {
  const settled = row.status === 'validation' || row.status === 'created' || row.status === 'already_tracked';
  return {
    row: row.row,
    number: row.number,
    number_type: row.requestType,
    carrier: row.carrier,
    status: settled ? (row.status as ImportRowJson['status']) : 'failed',
    message: settled || row.status === 'failed' ? row.message : (row.message ?? 'Not sent: the import was cancelled.'),
    tracking_request_id: row.status === 'created' ? row.trackingRequestId : null,
  };
}

export interface ImportDeps {
  keychain?: SecretStore;
  fetch?: typeof fetch;
}

export async function runImport(args: string[], io: CommandIo, deps: ImportDeps = {}): Promise<number> {
  const parsed = parseCommandLine({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      profile: { type: 'string' },
      'base-url': { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('import needs one file: import FILE.csv|FILE.xlsx');
  if (!values.db && !values.profile) throw new UsageError('import needs --db PATH or --profile NAME');
  const file = positionals[0]!;
  const json = values.json ?? false;

  const name = basename(file);
  const refuse = (error: ImportFileError) => {
    io.err.write(`${error.message}\n`);
    if (json) io.out.write(`${JSON.stringify({ rows: [], error: error.message })}\n`);
    return exitCodes.validation;
  };
  let bytes: Uint8Array;
  try {
    bytes = await readImportPath(file, file);
  } catch (error) {
    if (error instanceof ImportFileError) return refuse(error);
    const code = (error as NodeJS.ErrnoException).code;
    io.err.write(
      code === 'ENOENT'
        ? `There is no file ${file}.\n`
        : `${file} could not be read (${code ?? (error as Error).message}).\n`,
    );
    return exitCodes.failure;
  }

  const account = await resolveAccount(values, io, deps.keychain, 'import');
  if ('code' in account) return account.code;

  let read: ReadTable;
  try {
    read = await readImportFile(name, bytes);
  } catch (error) {
    if (!(error instanceof ImportFileError)) throw error;
    return refuse(error);
  }

  const sync = openSync({
    dbPath: account.dbPath,
    baseUrl: account.baseUrl,
    apiKey: account.apiKey,
    fetch: deps.fetch,
  });
  const controller = new AbortController();
  let job: ImportJob | null = null;
  const cancel = () => {
    controller.abort();
    job?.cancel();
  };
  process.once('SIGINT', cancel);
  io.signal?.addEventListener('abort', cancel);
  const progress = progressLine(io.err);
  try {
    if (readState<string>(sync.db, 'sync:completed_at') === null) {
      io.err.write(
        'Note: this database has never been synced, so carriers, customers and numbers already tracked cannot be checked here first.\n',
      );
    }
    const table = describeTable('cli', name, read, importLookups(sync.db));
    for (const note of table.unsure) io.err.write(`${note}\n`);
    let shown = '';
    job = new ImportJob({
      id: 'cli',
      name,
      table: read.rows,
      db: sync.db,
      client: sync.client,
      flushEveryMs: 0,
      onChange: json
        ? undefined
        : (event) => {
            const line = `${event.phase}:${event.progress?.done}`;
            if (line === shown) return;
            shown = line;
            if (event.progress && event.phase !== 'preview' && event.phase !== 'done') {
              const verb = event.phase === 'inferring' ? 'Finding carriers' : 'Sending';
              const eta = event.progress.etaSeconds ? `, about ${event.progress.etaSeconds} s left` : '';
              progress.show(`${verb}: ${event.progress.done} of ${event.progress.total}${eta}`);
            }
          },
    });
    job.preview(table.mapping);
    if (!controller.signal.aborted && job.waitingForInference > 0) await job.infer();
    if (!controller.signal.aborted && job.state().counts.ready > 0) await job.send();
    const state = job.state();
    const results = state.rows.map(rowJson);
    progress.clear();
    io.out.write(json ? `${JSON.stringify({ rows: results })}\n` : resultsText(state.rows));
    if (results.some((r) => r.status === 'validation')) return exitCodes.validation;
    if (controller.signal.aborted || state.cancelled) return exitCodes.cancelled;
    switch (job.stoppedBy) {
      case 'auth':
        return exitCodes.auth;
      case 'network':
        return exitCodes.network;
      case 'rate_limited':
        return exitCodes.rateLimited;
      default:
        return results.some((r) => r.status === 'failed') ? exitCodes.failure : exitCodes.ok;
    }
  } finally {
    // A failure's sentence (printed by the caller) starts on a clean line.
    progress.clear();
    process.off('SIGINT', cancel);
    io.signal?.removeEventListener('abort', cancel);
    sync.close();
  }
}

function resultsText(rows: ImportRow[]): string {
  const lines = rows.map((row) => {
    const r = rowJson(row);
    const status = importRowStatusLabels[r.status];
    return `${String(r.row).padStart(5)}  ${r.number.padEnd(16)} ${(r.carrier ?? '').padEnd(5)} ${status.padEnd(15)} ${r.message ?? ''}`.trimEnd();
  });
  const count = (status: ImportRowJson['status']) => rows.map(rowJson).filter((r) => r.status === status).length;
  const summary = `${count('created')} created, ${count('already_tracked')} already tracked, ${count('failed')} failed, ${count('validation')} need a fix.`;
  return `${'  Row'}  ${'Number'.padEnd(16)} ${'SCAC'.padEnd(5)} ${'Result'.padEnd(15)} Message\n${lines.join('\n')}\n${summary}\n`;
}
