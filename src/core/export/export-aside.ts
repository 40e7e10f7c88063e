/**
 * A list's export off the core's event loop: in worker threads of its own for
 * each export, reading the database file on connections of their own and writing the file there
 * (`export-worker.ts`). In place, an export of 100k shipments cut into 8 ms batches still kept
 * the core's loop delay p99 at 15–23 ms (the formatting is most of it, and a busy machine
 * stretches every batch); in the workers the loop only relays their progress.
 *
 * A CSV export is made by two workers at once, each writing half the rows to a part file of its
 * own, joined (the second appended to the first) and renamed over the target when both are done:
 * formatting, not SQLite, is most of an export's time, and the machines Quayside runs on have two
 * cores or more, so two make it in about half the time. Both halves come from one snapshot of the database: each worker
 * opens a read transaction and reads once, and this thread waits for both (`Atomics.wait`, a few
 * milliseconds) before it runs again, so no write of the core's (made on this thread) can fall
 * between them. Each worker counts the export's rows in its snapshot and takes its half (under
 * `SPLIT_FROM_ROWS`, the first takes all); should their counts differ (another program wrote the
 * file in that moment) the export is made again, in place. A workbook is made whole, by one worker.
 *
 * The app starts the workers when a forwarder asks for an export, before its save dialog opens
 * (`startExportAside`), so their code is loaded by the time the file is chosen.
 *
 * Where no worker can run (a database in memory or read into memory, no worker file, a worker
 * that fails to start), the export runs in place, with the same result; where only one
 * starts, it makes the whole export. An export of one file per customer is made by one worker
 * (export-per-customer.ts). Errors come back as they would in place: a QuaysideError
 * with its code and sentence (an unknown column, a full disk), anything else as an internal
 * error with its message.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { PerCustomerExport } from '../../shared/export-per-customer';
import { DEFAULT_TERMINAL_STALE_HOURS } from '../../shared/pickup';
import type { Logger } from '../dispatch';
import { QuaysideError } from '../errors';
import { fileForReaders, type Db } from '../store/database';
import { waitWhile } from '../workers/block';
import { startWorker, workerEntry, type WorkerEntry } from '../workers/entry';
import {
  SPLIT_FROM_ROWS,
  type ExportAnswer,
  type ExportRequest,
  type ExportWorkerSetup,
  type PartRequest,
} from './export-protocol';
import { exportPerCustomer } from './export-per-customer';
import { exportView, type ExportViewOptions } from './export-view';
import { describeFsError, type ExportFileResult } from './write-file';

type Outcome = Exclude<ExportAnswer, { kind: 'progress' | 'ready' }> | { kind: 'stopped'; why: string };

export interface ExportAsideOptions {
  /** Told when the export runs in place instead, and why. */
  log?: Logger;
  /** The workers' code: found beside this module by default (the bench names the built bundle's). */
  entry?: WorkerEntry;
  /** How many workers a CSV export is made by: 2 (the default), or 1 (the bench's anchor for the workbook). */
  workers?: 1 | 2;
  /** Under this many rows the first worker writes them all (`SPLIT_FROM_ROWS`; tests split small exports). */
  splitFromRows?: number;
}

/** An export's workers, started before the file to write is known. */
export interface ExportAside {
  /** Settled once the workers have loaded their code, or could not (the bench times the export alone). */
  readonly ready: Promise<void>;
  /** Makes the export (once): in the workers, or in place where they could not start. */
  run(path: string, options: Omit<ExportViewOptions, 'signal' | 'part'>): Promise<ExportFileResult>;
  /** Or makes it as one file per customer into `folder` (once), by one worker. */
  runPerCustomer(folder: string, options: Omit<ExportViewOptions, 'signal' | 'part'>): Promise<PerCustomerExport>;
  /** No export after all (the save dialog was cancelled): the workers stop. */
  cancel(): void;
  /** Settled once the workers have ended (at once when none started), with why. */
  readonly ended: Promise<string>;
}

/** The second part is appended to the first this many bytes at a time. */
const JOIN_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Appends the file at `from` to the one at `to` through one buffer, and flushes it: in chunks of
 * a few MB (64 KB made the join a tenth of the export), read into the same buffer each time (a
 * stream allocates each chunk anew, and the garbage held some 20 MB at the join's peak).
 */
async function appendFileTo(from: string, to: string): Promise<void> {
  const buffer = Buffer.allocUnsafeSlow(JOIN_CHUNK_BYTES);
  const source = await open(from, 'r');
  try {
    const target = await open(to, 'a');
    try {
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        for (let written = 0; written < bytesRead;) {
          written += (await target.write(buffer, written, bytesRead - written)).bytesWritten;
        }
      }
      await target.sync();
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** How long this thread waits for both workers to hold their snapshot before going on regardless. */
const HOLD_WAIT_MS = 2000;

/** One export worker: its thread, whether it loaded, what it answered last, and its progress. */
interface Hand {
  worker: Worker;
  ready: Promise<void>;
  outcome: Promise<Outcome>;
  ended: Promise<string>;
  /** It answered something about an export (so it ran, and a stop is a failure, not a fallback). */
  heard: boolean;
  onProgress?: (rows: number) => void;
}

function startHand(entry: WorkerEntry, file: string): Hand {
  let loaded: () => void = () => {};
  let settle: (outcome: Outcome) => void = () => {};
  let endedWith: (why: string) => void = () => {};
  const hand = {
    heard: false,
    ready: new Promise<void>((resolve) => (loaded = resolve)),
    outcome: new Promise<Outcome>((resolve) => (settle = resolve)),
    ended: new Promise<string>((resolve) => (endedWith = resolve)),
  } as Hand;
  hand.worker = startWorker<ExportAnswer>(entry, { file } satisfies ExportWorkerSetup, {
    message: (message) => {
      if (message.kind === 'ready') return loaded();
      hand.heard = true;
      if (message.kind === 'progress') hand.onProgress?.(message.rows);
      else settle(message);
    },
    end: (why) => {
      loaded();
      settle({ kind: 'stopped', why });
      endedWith(why);
    },
  });
  return hand;
}

/** Blocks this thread until `parties` workers have said they hold their snapshot, or `ms` have passed. */
function waitForHolds(held: Int32Array, parties: number, ms: number): boolean {
  const deadline = performance.now() + ms;
  for (;;) {
    const now = Atomics.load(held, 0);
    if (now >= parties) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    waitWhile(held, 0, now, left);
  }
}

/** A part file beside the target (same folder, so the rename at the end stays on one file system). */
const partPath = (target: string, index: number) =>
  join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.part${index}`);

/**
 * Starts an export's workers now, so they load their code (about a quarter of a second) while the
 * forwarder picks where to save; `run` then hands them the file and the options.
 */
export function startExportAside(db: Db, aside: ExportAsideOptions = {}): ExportAside {
  const log = aside.log ?? (() => {});
  const file = fileForReaders(db);
  const entry =
    file === null ? null : (aside.entry ?? workerEntry(import.meta.url, './export-worker.ts', 'export-worker'));
  const inPlace: ExportAside = {
    ready: Promise.resolve(),
    run: (path, options) => exportView(db, path, options),
    runPerCustomer: (folder, options) => exportPerCustomer(db, folder, options),
    cancel: () => {},
    ended: Promise.resolve('no worker started'),
  };
  if (file === null || entry === null) return inPlace;

  const hands: Hand[] = [];
  for (let i = 0; i < (aside.workers ?? 2); i++) {
    try {
      hands.push(startHand(entry, file));
    } catch (error) {
      if (i === 0) {
        log(`the export runs in the core's own thread: its worker could not start`, error);
        return inPlace;
      }
      log(`the export is made by one worker: its second could not start`, error);
    }
  }
  let asked = false;
  const stop = (hand: Hand) => void hand.worker.terminate();

  /**
   * A whole export by the first worker (the second, if any, stops): what it made, or null when
   * it never ran (the caller makes the export here instead).
   */
  async function runByOne(
    request: ExportRequest,
    onProgress: ((rows: number) => void) | undefined,
  ): Promise<Extract<Outcome, { kind: 'done' | 'split' }> | null> {
    const [hand, ...rest] = hands;
    rest.forEach(stop);
    hand!.onProgress = onProgress;
    // Referenced while it works: the export is what the caller waits for.
    hand!.worker.ref();
    hand!.worker.postMessage(request);
    const answer = await hand!.outcome;
    stop(hand!);
    switch (answer.kind) {
      case 'failed':
        throw new QuaysideError(answer.code ?? 'internal', answer.message);
      case 'stopped':
        if (hand!.heard) throw new QuaysideError('internal', `The export stopped before it was done (${answer.why}).`);
        log(`the export runs in the core's own thread: its worker could not start (${answer.why})`);
        return null;
      default:
        return answer;
    }
  }

  async function runWhole(path: string, options: Omit<ExportViewOptions, 'signal'>): Promise<ExportFileResult> {
    const { onProgress, ...request } = options;
    const answer = await runByOne({ kind: 'run', path, options: request }, onProgress);
    if (answer === null) return exportView(db, path, options);
    if (answer.kind !== 'done') throw new QuaysideError('internal', 'An export worker made another kind of export.');
    return answer.result;
  }

  /** The export in two parts, one by each worker, from one snapshot; joined and renamed when both are done. */
  async function runInTwo(path: string, options: Omit<ExportViewOptions, 'signal'>): Promise<ExportFileResult> {
    await Promise.all(hands.map((hand) => hand.ready));
    const target = resolve(path);
    const parts = hands.map((_, i) => partPath(target, i));
    const { onProgress, ...rest } = options;
    // One moment for both halves: their pickup columns and filters answer alike.
    const request = {
      ...rest,
      pickup: {
        now: options.pickup?.now ?? Date.now(),
        staleHours: options.pickup?.staleHours ?? DEFAULT_TERMINAL_STALE_HOURS,
      },
    };
    const held = new SharedArrayBuffer(4);
    const written = hands.map(() => 0);
    hands.forEach((hand, index) => {
      hand.onProgress = (rows) => {
        written[index] = rows;
        onProgress?.(written.reduce((a, b) => a + b, 0));
      };
      hand.worker.ref();
      const part: PartRequest = { index: index as 0 | 1, held, splitFrom: aside.splitFromRows ?? SPLIT_FROM_ROWS };
      hand.worker.postMessage({ kind: 'run', path: parts[index]!, options: request, part } satisfies ExportRequest);
    });
    // Until both hold their snapshot, this thread (where the core writes) does nothing else.
    waitForHolds(new Int32Array(held), hands.length, HOLD_WAIT_MS);
    const answers = await Promise.all(hands.map((hand) => hand.outcome));
    hands.forEach(stop);
    const removeParts = () => Promise.all(parts.map((part) => rm(part, { force: true }).catch(() => {})));
    try {
      const done: Extract<Outcome, { kind: 'done' }>[] = [];
      for (const [index, answer] of answers.entries()) {
        if (answer.kind === 'failed') throw new QuaysideError(answer.code ?? 'internal', answer.message);
        if (answer.kind === 'stopped') {
          if (hands[index]!.heard) {
            throw new QuaysideError('internal', `The export stopped before it was done (${answer.why}).`);
          }
          await removeParts();
          log(`the export runs in the core's own thread: a worker could not start (${answer.why})`);
          return exportView(db, path, options);
        }
        if (answer.kind !== 'done')
          throw new QuaysideError('internal', 'An export worker made another kind of export.');
        done.push(answer);
      }
      if (new Set(done.map((answer) => answer.counted)).size !== 1) {
        // Another program wrote the file between the two snapshots: the halves may not meet.
        await removeParts();
        log('the export is made in the core’s own thread: the database changed as its two workers started');
        return await exportView(db, path, options);
      }
      // Flushed: the first part was flushed by its worker as it ended, the second not at all.
      await appendFileTo(parts[1]!, parts[0]!);
      await rm(parts[1]!);
      await rename(parts[0]!, target);
      return {
        path: target,
        rows: done.reduce((n, answer) => n + answer.result.rows, 0),
        bytes: done.reduce((n, answer) => n + answer.result.bytes, 0),
        parts: done.map((answer) => answer.result.rows),
      };
    } catch (error) {
      await removeParts();
      throw error instanceof QuaysideError ? error : describeFsError(error);
    }
  }

  return {
    ready: Promise.all(hands.map((hand) => hand.ready)).then(() => {}),
    ended: Promise.all(hands.map((hand) => hand.ended)).then((whys) => whys[0]!),
    cancel: () => {
      if (!asked) hands.forEach(stop);
    },
    run: (path, options) => {
      if (asked) return Promise.reject(new Error('an export worker makes one export'));
      asked = true;
      const inTwo = hands.length === 2 && (options.format ?? 'csv') === 'csv';
      return inTwo ? runInTwo(path, options) : runWhole(path, options);
    },
    runPerCustomer: async (folder, options) => {
      if (asked) throw new Error('an export worker makes one export');
      asked = true;
      const { onProgress, ...request } = options;
      const answer = await runByOne({ kind: 'run', path: folder, options: request, per: 'customer' }, onProgress);
      if (answer === null) return exportPerCustomer(db, folder, options);
      if (answer.kind !== 'split') throw new QuaysideError('internal', 'An export worker made another kind of export.');
      return answer.result;
    },
  };
}

/** An export made by worker threads of its own (started now), or in place where none can run. */
export function exportViewAside(
  db: Db,
  path: string,
  options: Omit<ExportViewOptions, 'signal' | 'part'>,
  aside: ExportAsideOptions = {},
): Promise<ExportFileResult> {
  return startExportAside(db, aside).run(path, options);
}
