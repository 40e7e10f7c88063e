/**
 * A list's export in a worker thread (see export-aside.ts): started for one export with the
 * database file, it loads its code and says it is ready, then waits for the file to write and
 * the export's options (the app starts it while its save dialog is open). It opens its own
 * read-only connection, runs `exportView` as in place, posts the rows written as it goes and then
 * its result (or its error, a QuaysideError keeping its code). Built as its own entry beside the
 * main bundle (`out/main/export-worker.js`); from source it is loaded through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { QuaysideError } from '../errors';
import { openReadConnection } from '../store/database';
import type { ExportAnswer, ExportRequest, ExportWorkerSetup } from './export-protocol';
import { exportView } from './export-view';

const port = parentPort!;
const { file } = workerData as ExportWorkerSetup;

async function run({ path, options }: ExportRequest): Promise<ExportAnswer> {
  const db = openReadConnection(file);
  try {
    const result = await exportView(db, path, {
      ...options,
      onProgress: (rows) => port.postMessage({ kind: 'progress', rows } satisfies ExportAnswer),
    });
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
