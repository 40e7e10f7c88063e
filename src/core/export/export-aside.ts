/**
 * A list's export off the core's event loop (issue 17 item 3): in a worker thread of its own for
 * each export, reading the database file on a connection of its own and writing the file there
 * (`export-worker.ts`). In place, an export of 100k shipments cut into 8 ms batches still kept
 * the core's loop delay p99 at 15–23 ms (the formatting is most of it, and a busy machine
 * stretches every batch); in the worker the loop only relays its progress.
 *
 * Where no worker can run (a database in memory or read into memory, no worker file, a worker
 * that fails to start), the export runs in place as before, with the same result. Errors come
 * back as they would in place: a QuaysideError with its code and sentence (an unknown column,
 * a full disk), anything else as an internal error with its message.
 */
import type { Worker } from 'node:worker_threads';
import type { Logger } from '../dispatch';
import { QuaysideError } from '../errors';
import { fileForReaders, type Db } from '../store/database';
import { startWorker, workerEntry, type WorkerEntry } from '../workers/entry';
import type { ExportAnswer, ExportWorkerSetup } from './export-protocol';
import { exportView, type ExportViewOptions } from './export-view';
import type { ExportFileResult } from './write-file';

type Outcome = Exclude<ExportAnswer, { kind: 'progress' }> | { kind: 'stopped'; why: string };

export interface ExportAsideOptions {
  /** Told when the export runs in place instead, and why. */
  log?: Logger;
  /** The worker's code: found beside this module by default (the bench names the built bundle's). */
  entry?: WorkerEntry;
}

export async function exportViewAside(
  db: Db,
  path: string,
  options: Omit<ExportViewOptions, 'signal'>,
  aside: ExportAsideOptions = {},
): Promise<ExportFileResult> {
  const log = aside.log ?? (() => {});
  const file = fileForReaders(db);
  const entry =
    file === null ? null : (aside.entry ?? workerEntry(import.meta.url, './export-worker.ts', 'export-worker'));
  if (file === null || entry === null) return exportView(db, path, options);
  const { onProgress, ...rest } = options;
  let heard = false;
  let settle: (outcome: Outcome) => void = () => {};
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  let worker: Worker;
  try {
    worker = startWorker<ExportAnswer>(entry, { file, path, options: rest } satisfies ExportWorkerSetup, {
      message: (message) => {
        heard = true;
        if (message.kind === 'progress') onProgress?.(message.rows);
        else settle(message);
      },
      end: (why) => settle({ kind: 'stopped', why }),
    });
  } catch (error) {
    log(`the export runs in the core's own thread: its worker could not start`, error);
    return exportView(db, path, options);
  }
  // Referenced while it works: the export is what the caller waits for.
  worker.ref();
  const answer = await outcome;
  void worker.terminate();
  switch (answer.kind) {
    case 'done':
      return answer.result;
    case 'failed':
      throw new QuaysideError(answer.code ?? 'internal', answer.message);
    case 'stopped':
      if (heard) throw new QuaysideError('internal', `The export stopped before it was done (${answer.why}).`);
      // It never ran: the export is made here instead.
      log(`the export runs in the core's own thread: its worker could not start (${answer.why})`);
      return exportView(db, path, options);
  }
}
