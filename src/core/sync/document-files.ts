/**
 * Document files kept for offline use, in a `documents` folder beside the database. A sync fetches
 * each document's file whose copy is missing or older than the document (`updated_at`) as its
 * page comes in, then the rest (`DocumentFileLane`), within the size setting: each file up to
 * `maxFileMb` and all of them up to `maxTotalMb`, counted on the bytes received
 * (document-download.ts). A file that cannot be fetched is recorded on its document with the
 * sentence why and asked again after a wait that grows with each failure (`retryAfterMs`).
 * Larger files are fetched when the user opens them. A file comes from the presigned link its
 * document came with, or once that has expired from one asked of the API
 * (`/documents/{id}/download_url`, through the limiter).
 */
import { join, dirname } from 'node:path';
import { rm } from 'node:fs/promises';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import {
  documentsWantingFiles,
  documentsWantingFilesAfter,
  keptFile,
  keptFileBytes,
  lastDocumentSeq,
  recordDocumentFiles,
  recordFileFailures,
  type KeptFile,
  type WantedFile,
} from '../store/queries/documents';
import {
  fetchDocumentFile,
  removeLeftoverParts,
  type ByteBudget,
  type DocumentFilesOptions,
  type FetchFileContext,
  type FileLimit,
} from './document-download';
import { insideFolder } from './document-names';
import { realDatabasePath } from './lock';

export type { DocumentFileClient, DocumentFilesOptions } from './document-download';

const MB = 1024 * 1024;
const AT_ONCE = 3;
/** Files recorded in one write by the sync's lane. */
const KEEP_BATCH = 64;
const MINUTE = 60_000;

/** The wait before a file that failed `failures` times is tried again: 15 minutes, then x4 each time, at most a week. */
export function retryAfterMs(failures: number): number {
  return Math.min(15 * MINUTE * 4 ** Math.max(0, failures - 1), 7 * 24 * 60 * MINUTE);
}

/** The documents folder beside a database file (its real file: a symlink to it finds the same folder). */
export function documentsDirOf(dbPath: string): string {
  return join(dirname(realDatabasePath(dbPath)), 'documents');
}

/**
 * Points each document at its new file, in one write, then removes the files they pointed at
 * before (under another name: the service renamed the file). Until then the old copy stays.
 */
export async function keepFiles(db: Db, dir: string, files: KeptFile[]): Promise<void> {
  if (files.length === 0) return;
  const previous = files.map((f) => keptFile(db, f.id).path);
  recordDocumentFiles(db, files);
  for (const [i, path] of previous.entries()) {
    if (path !== null && path !== files[i]!.state.path) await rm(insideFolder(dir, path), { force: true });
  }
}

/** The sync's limit of one file. */
function fileLimit(maxFileMb: number, budget: ByteBudget): FileLimit {
  return {
    maxBytes: maxFileMb * MB,
    tooLarge: `The file is larger than the ${maxFileMb} MB kept for offline use; it is downloaded when opened.`,
    budget,
  };
}

/** The folder's room, counted on bytes received by every file under way. */
function folderBudget(room: number, maxTotalMb: number): ByteBudget {
  let left = room;
  return {
    take(bytes) {
      if (bytes > left) return false;
      left -= bytes;
      return true;
    },
    give(bytes) {
      left += bytes;
    },
    full: `The documents kept for offline use reached their ${maxTotalMb} MB limit; this file is downloaded when opened.`,
  };
}

export interface FileStepResult {
  files: number;
  bytes: number;
  /** Documents left for on demand: over the file size or the total. */
  skipped: number;
  failed: number;
}

/** The documents whose file this run fetches, within the size setting. */
export function filesToFetch(db: Db, options: DocumentFilesOptions) {
  const { maxFileMb, maxTotalMb } = options.limits();
  let room = maxTotalMb * MB - keptFileBytes(db);
  const chosen: ReturnType<typeof documentsWantingFiles> = [];
  let skipped = 0;
  for (const doc of documentsWantingFiles(db, (options.now ?? Date.now)())) {
    const size = doc.size_bytes ?? maxFileMb * MB;
    if (size > maxFileMb * MB || size > room) {
      skipped++;
      continue;
    }
    room -= size;
    chosen.push(doc);
  }
  return { chosen, skipped, maxFileBytes: maxFileMb * MB };
}

/**
 * The sync's file step, run beside its walks. A document's presigned link expires (minutes, not
 * hours), and a first sync of a large account takes hours at the API's rate limit: files fetched
 * once every list is in would each need a fresh link from the API, one request apiece (37,500
 * of a 100k-shipment sync's 48,500). So each time a page stores documents (`take`), the new ones
 * whose file is wanted are fetched at once from the link they came with, three at a time, within
 * the size setting, and the walk that brought them goes on once they are all under way
 * (`drained`): the other walks keep the limiter busy meanwhile. `finish` then fetches what is
 * still wanted (documents from earlier runs, or that the room left by then allows), newest
 * first, asking for fresh links where theirs expired. A file that cannot be fetched does not fail
 * the run: its document records why, and it is wanted again once its wait is over. The sizes a
 * document declares only choose what is queued; what is read is bounded by the limits.
 */
export class DocumentFileLane {
  readonly #ctx: FetchFileContext & { onQueued?: (n: number) => void; onFile?: () => void };
  readonly #maxFileBytes: number;
  readonly #limit: FileLimit;
  /** The room left by the sizes documents declare: what is queued, not what is read. */
  #room: number;
  /** Part files of earlier runs, removed before the first file of this one. */
  readonly #cleaned: Promise<unknown>;
  #seq: number;
  readonly #queue: WantedFile[] = [];
  /** Documents this run fetched or tried: `finish` does not try a failed one again. */
  readonly #tried = new Set<string>();
  readonly #workers = new Set<Promise<void>>();
  readonly #result: FileStepResult = { files: 0, bytes: 0, skipped: 0, failed: 0 };
  /** Set when the lane stops: the run's signal aborted it (the error to give), or `close`. */
  #failure: { error: Error | null } | null = null;
  readonly #drainWaiters: (() => void)[] = [];

  /** Files fetched and not recorded yet: recorded by the batch (one write, not one per file). */
  readonly #kept: KeptFile[] = [];
  /** Files that failed, recorded with the same batch. */
  readonly #failed: { id: string; problem: string; retryAt: number }[] = [];
  #keeping: Promise<void> = Promise.resolve();

  constructor(ctx: Omit<FetchFileContext, 'keep'> & { onQueued?: (n: number) => void; onFile?: () => void }) {
    // A write on the core's connection waits for the page worker's write under way (write
    // turns): recording 64 files in one write waits once where one write per file waited 64 times.
    this.#ctx = {
      ...ctx,
      keep: async (files) => {
        this.#kept.push(...files);
        if (this.#kept.length >= KEEP_BATCH) await this.#record();
      },
    };
    const { maxFileMb, maxTotalMb } = ctx.options.limits();
    this.#maxFileBytes = maxFileMb * MB;
    this.#room = maxTotalMb * MB - keptFileBytes(ctx.db);
    this.#limit = fileLimit(maxFileMb, folderBudget(this.#room, maxTotalMb));
    this.#cleaned = removeLeftoverParts(ctx.options.dir);
    // Documents stored before this run have had their links for a while: `finish` takes them.
    this.#seq = lastDocumentSeq(ctx.db);
  }

  /** Fetches the files of documents stored since the last call (a page just written), within the room. */
  take(): void {
    if (this.#failure) return;
    const { wanted, last } = documentsWantingFilesAfter(this.#ctx.db, this.#seq, this.#now());
    this.#seq = last;
    const queued = wanted.filter((doc) => {
      const size = doc.size_bytes ?? this.#maxFileBytes;
      if (size > this.#maxFileBytes || size > this.#room) return false;
      this.#room -= size;
      return true;
    });
    this.#enqueue(queued);
  }

  /**
   * Resolves once every file queued so far is under way: the walk that brought them waits for it
   * before its next page, so a list of documents never runs ahead of their files by more than a
   * page or two, however slowly files come (links expire in minutes; a page comes every second).
   */
  drained(): Promise<void> {
    if (this.#queue.length === 0) return Promise.resolve();
    return new Promise((done) => this.#drainWaiters.push(done));
  }

  /** The files still wanted once the walks are done; resolves when every file is in (or failed). */
  async finish(): Promise<FileStepResult> {
    await this.#settled();
    const rest = filesToFetch(this.#ctx.db, this.#ctx.options);
    this.#result.skipped = rest.skipped;
    this.#enqueue(rest.chosen.filter((doc) => !this.#tried.has(doc.id)));
    await this.#settled();
    return { ...this.#result };
  }

  /** Stops fetching (the run failed or was cancelled) and waits for the files under way to stop. */
  async close(): Promise<void> {
    this.#failure ??= { error: null };
    this.#queue.length = 0;
    this.#drainedNow();
    await Promise.allSettled(this.#workers);
    // The files already in the folder are kept (on a disk that cannot take the write, they are
    // asked for again next run).
    await this.#record();
  }

  #now(): number {
    return (this.#ctx.options.now ?? Date.now)();
  }

  /** Records the files fetched (and those that failed) so far; a write that fails stops the lane with its error. */
  #record(): Promise<void> {
    const files = this.#kept.splice(0);
    const failed = this.#failed.splice(0);
    if (files.length === 0 && failed.length === 0) return this.#keeping;
    this.#keeping = this.#keeping.then(async () => {
      try {
        if (failed.length > 0) recordFileFailures(this.#ctx.db, failed);
        await keepFiles(this.#ctx.db, this.#ctx.options.dir, files);
      } catch (error) {
        this.#failure ??= { error: error instanceof Error ? error : new Error(String(error)) };
        this.#queue.length = 0;
        this.#drainedNow();
      }
    });
    return this.#keeping;
  }

  #enqueue(docs: WantedFile[]): void {
    if (docs.length === 0) return;
    for (const doc of docs) this.#tried.add(doc.id);
    this.#queue.push(...docs);
    this.#ctx.onQueued?.(docs.length);
    while (this.#workers.size < AT_ONCE && this.#workers.size < this.#queue.length) {
      const worker: Promise<void> = this.#work().finally(() => {
        this.#workers.delete(worker);
        // Nothing under way: what was fetched is recorded now, not with the next page's files.
        if (this.#workers.size === 0) void this.#record();
      });
      this.#workers.add(worker);
    }
  }

  #drainedNow(): void {
    if (this.#queue.length === 0) for (const done of this.#drainWaiters.splice(0)) done();
  }

  async #work(): Promise<void> {
    await this.#cleaned;
    for (let doc = this.#queue.shift(); doc; doc = this.#queue.shift()) {
      this.#drainedNow();
      try {
        this.#ctx.signal?.throwIfAborted();
        this.#result.bytes += await fetchDocumentFile(this.#ctx, doc, 'background', this.#limit);
        this.#result.files++;
      } catch (error) {
        if (this.#ctx.signal?.aborted) {
          this.#failure ??= { error: error instanceof Error ? error : new Error(String(error)) };
          this.#queue.length = 0;
          this.#drainedNow();
          return;
        }
        // One file that cannot be fetched (gone, too large after all, storage down) does not
        // fail the run: its document says why, and it is asked again after its wait.
        this.#result.failed++;
        const failures = (doc.file_failures ?? 0) + 1;
        this.#failed.push({
          id: doc.id,
          problem: error instanceof QuaysideError ? error.message : 'The file could not be downloaded.',
          retryAt: this.#now() + retryAfterMs(failures),
        });
      }
      this.#ctx.onFile?.();
    }
  }

  /**
   * Every file queued so far fetched and recorded; rethrows what stopped the lane (the run's
   * signal, a failed write).
   */
  async #settled(): Promise<void> {
    await this.#cleaned;
    while (this.#workers.size > 0) await Promise.allSettled(this.#workers);
    await this.#record();
    if (this.#failure && this.#failure.error !== null) throw this.#failure.error;
  }
}
