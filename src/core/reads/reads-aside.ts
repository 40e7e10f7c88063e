/**
 * The long reads off the core's event loop: a list's page and count and
 * Ctrl+K's search over a large account are answered by a worker thread with a read-only
 * connection of its own to the same WAL file (as Signal Desktop reads), so the loop that serves
 * IPC, the sync's steps and the export's batches never waits for one statement. One search over
 * 100k shipments typed a letter at a time held that loop for seconds.
 *
 * - Lazy: the worker starts at the first read that goes to it, and only once the database is
 *   large enough for a read to take long (`READS_ASIDE_FROM_BYTES`; a small account answers
 *   every read in place within a few ms). `mode` 'always' or 'never' overrides (tests).
 * - In order, one at a time: the worker runs one statement at a time anyway. A read with a
 *   `lane` (a search as typed: the list's first page, its count, Ctrl+K) takes the place of one
 *   of the same lane still waiting: that one is answered `busy` without running (its asker, the
 *   renderer, has moved on to the newer text and ignores it). One already running finishes.
 * - A worker that dies is started again and the read it held asked again; a read that a second
 *   worker dies on too is answered in place. A worker that cannot start at all (no worker file, a
 *   file it cannot open) leaves every read in place from then on.
 * - Closed with the session (so nothing holds the file when an account is switched or its
 *   data moved aside); unreferenced while idle, so it never keeps a process alive.
 */
import type { Worker } from 'node:worker_threads';
import type { Logger } from '../dispatch';
import { QuaysideError } from '../errors';
import { nextTurn } from '../loop-turns';
import { databaseBytes, fileForReaders, type Db } from '../store/database';
import { SHORT_LIVED_YOUNG_GENERATION_MB, startWorker, workerEntry } from '../workers/entry';
import { readSteps, type ReadOp } from './read-ops';
import type { ReadAnswer, ReadRequest, WorkerSetup } from './read-protocol';

/**
 * From this database size up, reads go to the worker ('auto'). Measured: 2k shipments (32 MB), a
 * one-letter search's first page took ~100 ms and Ctrl+K's containers ~50 ms in place; below about
 * 500 shipments (the demo account's 300 fill ~5 MB) the slowest read is a few ms.
 */
export const READS_ASIDE_FROM_BYTES = 8 * 1024 * 1024;

export type ReadsAsideMode = 'auto' | 'always' | 'never';

interface Pending {
  id: number;
  read: ReadOp;
  lane: string | undefined;
  /** Workers this read was sent to (a second death and it is answered in place). */
  tries: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const superseded = () => new QuaysideError('busy', 'A newer search took the place of this one before it ran.');
const closing = () => new QuaysideError('busy', 'Quayside is closing.');

export class ReadsAside {
  readonly #db: Db;
  readonly #mode: ReadsAsideMode;
  readonly #log: Logger;
  #worker: Worker | null = null;
  #workerReady = false;
  /** Set once a worker could not start: every later read runs in place. */
  #unavailable = false;
  #large = false;
  #closed = false;
  #nextId = 1;
  #queue: Pending[] = [];
  #current: Pending | null = null;
  /** Workers started so far (the first and each restart). */
  workersStarted = 0;

  constructor(db: Db, options: { mode?: ReadsAsideMode; log?: Logger } = {}) {
    this.#db = db;
    this.#mode = options.mode ?? 'auto';
    this.#log = options.log ?? (() => {});
  }

  /** Whether reads go to the worker now (it may still be starting). */
  get aside(): boolean {
    if (this.#mode === 'never' || this.#unavailable || this.#closed) return false;
    if (fileForReaders(this.#db) === null) return false;
    if (this.#mode === 'always') return true;
    // A database only grows large (a first sync): once large, always large for this session.
    this.#large ||= databaseBytes(this.#db) >= READS_ASIDE_FROM_BYTES;
    return this.#large;
  }

  /** The worker thread, for tests that stop it as a crash would. */
  get worker(): Worker | null {
    return this.#worker;
  }

  /** Answers `read`: in the worker when reads go there, else in place, each step its own task. */
  run<T>(read: ReadOp, lane?: string): Promise<T> {
    if (this.#closed) return Promise.reject(closing());
    if (!this.aside) return this.#inPlace(read) as Promise<T>;
    return new Promise<T>((resolve, reject) => {
      if (lane !== undefined) {
        const older = this.#queue.findIndex((p) => p.lane === lane);
        if (older >= 0) this.#queue.splice(older, 1)[0]!.reject(superseded());
      }
      this.#queue.push({ id: this.#nextId++, read, lane, tries: 0, resolve: resolve as (v: unknown) => void, reject });
      this.#pump();
    });
  }

  /** Stops the worker (its connection closes with it); reads still waiting are answered `busy`. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#queue.splice(0)) pending.reject(closing());
    this.#current?.reject(closing());
    this.#current = null;
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
  }

  async #inPlace(read: ReadOp): Promise<unknown> {
    const { steps, answer } = readSteps(this.#db, read);
    for (let i = 0; i < steps.length; i++) {
      if (i > 0) await nextTurn();
      steps[i]!();
    }
    return answer();
  }

  #settleInPlace(pending: Pending): void {
    this.#inPlace(pending.read).then(pending.resolve, pending.reject);
  }

  #pump(): void {
    if (this.#current || this.#queue.length === 0 || this.#closed) return;
    const worker = this.#worker ?? this.#start();
    if (!worker) {
      for (const pending of this.#queue.splice(0)) this.#settleInPlace(pending);
      return;
    }
    const pending = this.#queue.shift()!;
    this.#current = pending;
    pending.tries++;
    worker.ref();
    worker.postMessage({ kind: 'read', id: pending.id, read: pending.read } satisfies ReadRequest);
  }

  #start(): Worker | null {
    const file = fileForReaders(this.#db);
    const entry = file === null ? null : workerEntry(import.meta.url, './read-worker.ts', 'read-worker');
    if (file === null || entry === null) {
      this.#giveUp('no worker file was found');
      return null;
    }
    let worker: Worker;
    try {
      worker = startWorker<ReadAnswer>(
        entry,
        { file } satisfies WorkerSetup,
        {
          message: (answer) => this.#onAnswer(worker, answer),
          end: (why) => this.#onDeath(worker, why),
        },
        { maxYoungGenerationSizeMb: SHORT_LIVED_YOUNG_GENERATION_MB },
      );
    } catch (error) {
      this.#giveUp(error instanceof Error ? error.message : String(error));
      return null;
    }
    this.workersStarted++;
    this.#worker = worker;
    this.#workerReady = false;
    return worker;
  }

  #onAnswer(worker: Worker, answer: ReadAnswer): void {
    if (worker !== this.#worker) return;
    if (answer.kind === 'ready') {
      this.#workerReady = true;
      return;
    }
    const pending = this.#current;
    if (!pending || pending.id !== answer.id) return;
    this.#current = null;
    if (answer.ok) pending.resolve(answer.value);
    else {
      const { code, message, fields } = answer.error;
      pending.reject(code ? new QuaysideError(code, message, fields ? { fields } : undefined) : new Error(message));
    }
    if (this.#queue.length === 0) worker.unref();
    this.#pump();
  }

  #onDeath(worker: Worker, why: string): void {
    if (worker !== this.#worker) return;
    this.#worker = null;
    if (this.#closed) return;
    const pending = this.#current;
    this.#current = null;
    if (!this.#workerReady) {
      // It never started: reads stay in place from now on.
      this.#giveUp(why);
      if (pending) this.#settleInPlace(pending);
      for (const waiting of this.#queue.splice(0)) this.#settleInPlace(waiting);
      return;
    }
    this.#log(`the reads' worker stopped (${why}); starting another`);
    if (pending) {
      // A read two workers died on is answered here rather than sent to a third.
      if (pending.tries >= 2) this.#settleInPlace(pending);
      else this.#queue.unshift(pending);
    }
    this.#pump();
  }

  #giveUp(why: string): void {
    if (!this.#unavailable) this.#log(`reads run in the core's own thread: their worker could not start (${why})`);
    this.#unavailable = true;
  }
}
