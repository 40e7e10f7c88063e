/**
 * The sync's pages off the core's event loop: in the app, each page a walk
 * fetches is parsed, checked and written by a worker thread with a writing connection of its own
 * to the same WAL file (as Signal Desktop keeps SQL off its main thread). On the core's loop, a
 * page's JSON.parse alone held it 25–50 ms on a page of containers with their events, and the
 * page's objects made the collector stop it as long; the writes were already cut into 5 ms steps.
 * What stays on the loop is the network, the limiter and the walk's decisions, each a short task.
 *
 * - The walk reads what it needs of a page (links, meta, rows, `updated_at`s: `ReadPage`) and
 *   tells the worker to write it, the checkpoint committing with its last step, as in place.
 * - A page the worker cannot read is a malformed answer, asked again by the client as any.
 * - A worker that cannot start (no worker file, a file it cannot open) leaves every page in place
 *   from then on. One that stops in the middle fails the pages it held:
 *   the run ends as failed with a sentence, its checkpoints where the last written page left them,
 *   and the next run starts a new worker and resumes.
 * - The search indexes' merges and the WAL checkpoint between pages run there too, so the core's
 *   connection never waits behind them.
 * - In the app only (`openSync`'s `pagesAside`): the CLI has no window to keep responsive, and a
 *   second thread's memory would count against its own figures.
 */
import type { Worker } from 'node:worker_threads';
import { parseDocumentInSteps, type JsonApiDocument } from '../api/document';
import { MalformedResponseError } from '../api/errors';
import type { Logger } from '../dispatch';
import { QuaysideError } from '../errors';
import { fileForReaders, type Db } from '../store/database';
import { maintainStoreInSteps } from '../store/maintenance';
import { releaseWorkerTurn, shareWriteTurns, newWriteTurns } from '../store/write-turns';
import { countingSince, type WriteCounts } from '../store/writer';
import { SHORT_LIVED_YOUNG_GENERATION_MB, startWorker, workerEntry } from '../workers/entry';
import { pageInPlace, type PageHandle } from './page-handle';
import type { PageAnswer, PageRequest, PageWorkerSetup, ReadPage } from './page-protocol';

type Ask = Extract<PageRequest, { id: number }>;
type AskWithoutId = Ask extends infer R ? (R extends Ask ? Omit<R, 'id'> : never) : never;

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const stopped = () =>
  new QuaysideError(
    'storage',
    "Quayside's page writer stopped in the middle of the sync; the next sync resumes where it was.",
  );
const closing = () => new QuaysideError('busy', 'Quayside is closing.');
/** What the asks of a worker that never started fail with: the caller does it in place. */
class NeverStarted extends Error {}

const utf8 = new TextDecoder();

/**
 * `bytes` as a view of a whole buffer of their own, which can be moved to another thread: as
 * they are when they are, else copied (a view into a larger buffer, such as Node's pool of small
 * Buffers, would take the rest of that buffer with it).
 */
function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const { buffer } = bytes;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) {
    return bytes as Uint8Array<ArrayBuffer>;
  }
  return new Uint8Array(bytes);
}

export class PagesAside {
  readonly #db: Db;
  readonly #log: Logger;
  #worker: Worker | null = null;
  #ready = false;
  /** Set once a worker could not start: every later page is kept and written in place. */
  #unavailable = false;
  #closed = false;
  #nextId = 1;
  /** Turns at the write lock between the core's connection and the worker's. */
  readonly #turns = newWriteTurns();
  readonly #waiting = new Map<number, Waiting>();
  /** Workers started so far (the first and each one after a stop). */
  workersStarted = 0;

  constructor(db: Db, options: { log?: Logger } = {}) {
    this.#db = db;
    this.#log = options.log ?? (() => {});
  }

  /** The worker thread, for tests that stop it as a crash would. */
  get worker(): Worker | null {
    return this.#worker;
  }

  /**
   * Reads a page from its bytes: in the worker, which keeps the page until it is written or
   * dropped; in place where no worker runs. `eventsComplete` marks the containers whose events the
   * page carries (the worker runs the same rule on its own connection). Once the worker is ready
   * the bytes are moved to it (`body` is left empty), so the page's text is never in the core's
   * heap; before, they are copied, as a worker that never starts leaves the page to be read here.
   */
  async read(body: Uint8Array, eventsComplete: ((doc: JsonApiDocument) => string[]) | undefined): Promise<PageHandle> {
    const inPlace = async () => pageInPlace(this.#db, await parseDocumentInSteps(utf8.decode(body)), eventsComplete);
    const worker = this.#closed ? null : this.#start();
    if (worker === null) return inPlace();
    const id = this.#nextId++;
    let read: ReadPage;
    try {
      const moved = this.#ready ? ownBuffer(body) : null;
      read = (await this.#ask(
        worker,
        { kind: 'read', body: moved ?? body, carriesEvents: eventsComplete !== undefined },
        id,
        moved ? [moved.buffer] : [],
      )) as ReadPage;
    } catch (error) {
      if (error instanceof NeverStarted) return inPlace();
      throw error;
    }
    let settled = false;
    const drop = () => {
      if (settled) return;
      settled = true;
      if (worker === this.#worker) worker.postMessage({ kind: 'drop', page: id } satisfies PageRequest);
    };
    return {
      ...read,
      write: async (options) => {
        if (settled) throw new Error('a page is written once');
        settled = true;
        if (worker !== this.#worker) throw stopped();
        const runStart = countingSince(this.#db);
        return (await this.#ask(worker, { kind: 'write', page: id, options, runStart }, this.#nextId++)) as WriteCounts;
      },
      drop,
    };
  }

  /** The search indexes' merges (and a WAL checkpoint) between pages: in the worker when one runs. */
  async upkeep(options: { checkpoint: boolean }): Promise<void> {
    const worker = this.#closed || this.#unavailable ? null : this.#worker;
    if (worker === null) return maintainStoreInSteps(this.#db, options);
    try {
      await this.#ask(worker, { kind: 'upkeep', checkpoint: options.checkpoint });
    } catch (error) {
      if (!(error instanceof NeverStarted)) throw error;
      await maintainStoreInSteps(this.#db, options);
    }
  }

  /** Stops the worker (its connection closes with it); what it was asked and has not answered fails `busy`. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#failAll(closing());
    const worker = this.#worker;
    this.#worker = null;
    if (worker) {
      // Referenced until it has exited: an idle worker is not, and a host with nothing else to do
      // (a script ending with `await core.close()`) would end before this promise settles.
      worker.ref();
      worker.postMessage({ kind: 'close' } satisfies PageRequest);
      await new Promise<void>((done) => {
        worker.once('exit', () => done());
        // A worker busy past a second is not waited for.
        setTimeout(() => void worker.terminate().then(() => done()), 1000).unref();
      });
    }
    this.#noTurns();
  }

  /** No worker writes any more: the core's writes stop taking turns (and wait for none left marked). */
  #noTurns(): void {
    shareWriteTurns(this.#db, null);
    releaseWorkerTurn(this.#turns);
  }

  #ask(worker: Worker, request: AskWithoutId, id = this.#nextId++, transfer: ArrayBuffer[] = []): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...request, id }, transfer);
    });
  }

  #start(): Worker | null {
    if (this.#worker) return this.#worker;
    if (this.#unavailable) return null;
    const file = fileForReaders(this.#db);
    const entry = file === null ? null : workerEntry(import.meta.url, './page-worker.ts', 'page-worker');
    if (file === null || entry === null) {
      this.#giveUp(file === null ? 'the database is not a file' : 'no worker file was found');
      return null;
    }
    let worker: Worker;
    try {
      worker = startWorker<PageAnswer>(
        entry,
        { file, turns: this.#turns } satisfies PageWorkerSetup,
        {
          message: (answer) => this.#onAnswer(worker, answer),
          end: (why) => this.#onStop(worker, why),
        },
        // A page's objects live until its write: collected young, not left to pile up.
        { maxYoungGenerationSizeMb: SHORT_LIVED_YOUNG_GENERATION_MB },
      );
    } catch (error) {
      this.#giveUp(error instanceof Error ? error.message : String(error));
      return null;
    }
    this.workersStarted++;
    this.#worker = worker;
    shareWriteTurns(this.#db, this.#turns);
    this.#ready = false;
    return worker;
  }

  #onAnswer(worker: Worker, answer: PageAnswer): void {
    if (worker !== this.#worker) return;
    if (answer.kind === 'ready') {
      this.#ready = true;
      return;
    }
    const waiting = this.#waiting.get(answer.id);
    if (!waiting) return;
    this.#waiting.delete(answer.id);
    if (this.#waiting.size === 0) worker.unref();
    if (answer.ok) waiting.resolve(answer.value);
    else if (answer.error.malformed) waiting.reject(new MalformedResponseError());
    else waiting.reject(new Error(answer.error.message));
  }

  #onStop(worker: Worker, why: string): void {
    if (worker !== this.#worker) return;
    this.#worker = null;
    this.#noTurns();
    if (this.#closed) return;
    if (!this.#ready) {
      // It never started: pages stay in place from now on, those it was asked too.
      this.#giveUp(why);
      this.#failAll(new NeverStarted(why));
      return;
    }
    this.#log(`the sync pages' worker stopped (${why}); the next page starts another`);
    this.#failAll(stopped());
  }

  #failAll(error: Error): void {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const w of waiting) w.reject(error);
  }

  #giveUp(why: string): void {
    if (!this.#unavailable)
      this.#log(`sync pages are written in the core's own thread: their worker could not start (${why})`);
    this.#unavailable = true;
  }
}
