/**
 * A list's export off the core's event loop (issue 17 item 3): in a worker thread of its own for
 * each export, reading the database file on a connection of its own and writing the file there
 * (`export-worker.ts`). In place, an export of 100k shipments cut into 8 ms batches still kept
 * the core's loop delay p99 at 15–23 ms (the formatting is most of it, and a busy machine
 * stretches every batch); in the worker the loop only relays its progress.
 *
 * The app starts the worker when a forwarder asks for an export, before its save dialog opens
 * (`startExportAside`), so the worker's code is loaded by the time the file is chosen.
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
import type { ExportAnswer, ExportRequest, ExportWorkerSetup } from './export-protocol';
import { exportView, type ExportViewOptions } from './export-view';
import type { ExportFileResult } from './write-file';

type Outcome = Exclude<ExportAnswer, { kind: 'progress' | 'ready' }> | { kind: 'stopped'; why: string };

export interface ExportAsideOptions {
  /** Told when the export runs in place instead, and why. */
  log?: Logger;
  /** The worker's code: found beside this module by default (the bench names the built bundle's). */
  entry?: WorkerEntry;
}

/** An export's worker, started before the file to write is known. */
export interface ExportAside {
  /** Settled once the worker has loaded its code, or could not (the bench times the export alone). */
  readonly ready: Promise<void>;
  /** Makes the export (once): in the worker, or in place where it could not start. */
  run(path: string, options: Omit<ExportViewOptions, 'signal'>): Promise<ExportFileResult>;
  /** No export after all (the save dialog was cancelled): the worker stops. */
  cancel(): void;
  /** Settled once the worker has ended (at once when none started), with why. */
  readonly ended: Promise<string>;
}

/**
 * Starts an export's worker now, so it loads its code (about a quarter of a second) while the
 * forwarder picks where to save; `run` then hands it the file and the options.
 */
export function startExportAside(db: Db, aside: ExportAsideOptions = {}): ExportAside {
  const log = aside.log ?? (() => {});
  const file = fileForReaders(db);
  const entry =
    file === null ? null : (aside.entry ?? workerEntry(import.meta.url, './export-worker.ts', 'export-worker'));
  const inPlace: ExportAside = {
    ready: Promise.resolve(),
    run: (path, options) => exportView(db, path, options),
    cancel: () => {},
    ended: Promise.resolve('no worker started'),
  };
  if (file === null || entry === null) return inPlace;

  let onProgress: ((rows: number) => void) | undefined;
  let asked = false;
  let heard = false;
  let loaded: () => void = () => {};
  const ready = new Promise<void>((resolve) => (loaded = resolve));
  let settle: (outcome: Outcome) => void = () => {};
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  let endedWith: (why: string) => void = () => {};
  const ended = new Promise<string>((resolve) => (endedWith = resolve));
  let worker: Worker;
  try {
    worker = startWorker<ExportAnswer>(entry, { file } satisfies ExportWorkerSetup, {
      message: (message) => {
        if (message.kind === 'ready') return loaded();
        heard = true;
        if (message.kind === 'progress') onProgress?.(message.rows);
        else settle(message);
      },
      end: (why) => {
        loaded();
        settle({ kind: 'stopped', why });
        endedWith(why);
      },
    });
  } catch (error) {
    log(`the export runs in the core's own thread: its worker could not start`, error);
    return inPlace;
  }
  return {
    ready,
    ended,
    cancel: () => {
      if (!asked) void worker.terminate();
    },
    run: async (path, options) => {
      if (asked) throw new Error('an export worker makes one export');
      asked = true;
      const { onProgress: progress, ...rest } = options;
      onProgress = progress;
      // Referenced while it works: the export is what the caller waits for.
      worker.ref();
      worker.postMessage({ kind: 'run', path, options: rest } satisfies ExportRequest);
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
    },
  };
}

/** An export made by a worker thread of its own (started now), or in place where none can run. */
export function exportViewAside(
  db: Db,
  path: string,
  options: Omit<ExportViewOptions, 'signal'>,
  aside: ExportAsideOptions = {},
): Promise<ExportFileResult> {
  return startExportAside(db, aside).run(path, options);
}
