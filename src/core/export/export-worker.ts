/**
 * A list's export in a worker thread (see export-aside.ts): started for one export with the
 * database file, it loads its code and says it is ready, then waits for the file to write and
 * the export's options (the app starts it while its save dialog is open). It opens its own
 * read-only connection, runs the export on it as in place, posts the rows written as it goes and
 * then its result (or its error, a QuaysideError keeping its code). Asked for a part of a CSV
 * export made in two (`PartRequest`), it writes half the rows of one snapshot the other worker
 * shares; asked for one file per customer, it writes them all into the folder it is given.
 * Built as its own entry beside the main bundle (`out/main/export-worker.js`); from source it is
 * loaded through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { QuaysideError } from '../errors';
import { holdSnapshot, openReadConnection, releaseSnapshot } from '../store/database';
import { type ExportAnswer, type ExportRequest, type ExportWorkerSetup, type PartRequest } from './export-protocol';
import { exportPerCustomerFrom } from './export-per-customer';
import { exportRowCount, exportViewFrom, type ExportViewOptions } from './export-view';

const port = parentPort!;
const { file } = workerData as ExportWorkerSetup;
/**
 * SQLite's page cache per export connection, in MB: an export reads each row's pages once, in
 * order, so a larger cache only fills with pages it never reads again (at 100k shipments, two
 * workers' default caches held 64 MB of them); what it reads more than once, the indexes' upper
 * pages, fits in this (the store bench's exports are as fast with it).
 */
const EXPORT_CACHE_MB = 2;

/** A part of an export made in two: one snapshot for both (see PartRequest), half the rows each. */
async function runPart(path: string, options: ExportViewOptions, part: PartRequest): Promise<ExportAnswer> {
  const db = openReadConnection(file, EXPORT_CACHE_MB);
  try {
    holdSnapshot(db);
    const held = new Int32Array(part.held);
    Atomics.add(held, 0, 1);
    Atomics.notify(held, 0);
    const counted = exportRowCount(db, options);
    const half = counted < part.splitFrom ? counted : Math.ceil(counted / 2);
    const range = part.index === 0 ? { offset: 0, limit: half } : { offset: half, limit: null };
    const result = await exportViewFrom(db, path, {
      ...options,
      part: { range, first: part.index === 0 },
      onProgress: (rows) => port.postMessage({ kind: 'progress', rows } satisfies ExportAnswer),
    });
    releaseSnapshot(db);
    return { kind: 'done', result, counted };
  } finally {
    db.close();
  }
}

async function run({ path, options, part, per }: ExportRequest): Promise<ExportAnswer> {
  if (part !== undefined) return runPart(path, options, part);
  const db = openReadConnection(file, EXPORT_CACHE_MB);
  const onProgress = (rows: number) => port.postMessage({ kind: 'progress', rows } satisfies ExportAnswer);
  try {
    if (per === 'customer') {
      return { kind: 'split', result: await exportPerCustomerFrom(db, path, { ...options, onProgress }) };
    }
    const result = await exportViewFrom(db, path, { ...options, onProgress });
    return { kind: 'done', result };
  } finally {
    db.close();
  }
}

port.once('message', (request: ExportRequest) => {
  run(request).then(
    (answer) => port.postMessage(answer),
    (error: unknown) =>
      port.postMessage({
        kind: 'failed',
        code: error instanceof QuaysideError ? error.code : null,
        message: error instanceof Error ? error.message : String(error),
      } satisfies ExportAnswer),
  );
});
port.postMessage({ kind: 'ready' } satisfies ExportAnswer);
