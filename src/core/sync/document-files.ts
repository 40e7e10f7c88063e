/**
 * Document files kept for offline use, in a `documents` folder beside the database. A sync fetches
 * each document's file whose copy is missing or older than the document (`updated_at`) as its
 * page comes in, then the rest (`DocumentFileLane`), within the size setting (each file up to
 * `maxFileBytes`, all of them up to `maxTotalBytes`); larger ones are fetched when the user opens
 * them (`fetchDocumentFile` at user priority). A file comes from the presigned link its document
 * came with, or once that has expired from one asked of the API (`/documents/{id}/download_url`,
 * through the limiter), sent without the key (the link is the permission, and it points at
 * storage, not the API).
 * Names come from the service: `safeFileName` keeps them inside the folder whatever they hold.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import {
  documentsWantingFiles,
  documentsWantingFilesAfter,
  keptFile,
  keptFileBytes,
  lastDocumentSeq,
  recordDocumentFiles,
  type KeptFile,
  type WantedFile,
} from '../store/queries/documents';
import type { Priority } from './types';

const MB = 1024 * 1024;
/** A file fetched on demand is still refused past this (a link that streams forever). */
export const ON_DEMAND_MAX_BYTES = 4096 * MB;
const FILE_TIMEOUT_MS = 120_000;
const AT_ONCE = 3;
/** Files recorded in one write by the sync's lane. */
const KEEP_BATCH = 64;

export interface DocumentFileClient {
  getJson(path: string, options?: { priority?: Priority; signal?: AbortSignal }): Promise<Record<string, unknown>>;
}

export interface DocumentFilesOptions {
  /** The documents folder (created when the first file is kept). */
  dir: string;
  /** The size setting, read at each run (Settings → documentFiles). */
  limits: () => { maxFileMb: number; maxTotalMb: number };
  /** Fetch for the presigned links (tests). */
  fetch?: typeof fetch;
}

/** The documents folder beside a database file. */
export function documentsDirOf(dbPath: string): string {
  return join(dirname(dbPath), 'documents');
}

function httpUrl(link: unknown): URL | null {
  if (typeof link !== 'string') return null;
  try {
    const url = new URL(link);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;

/**
 * The name a document's file is kept under: the document's id (or its hash when the id is not
 * plain) and the service's file name with every path part, control, bidi and reserved character
 * taken out, never starting with a dot, at most ~150 characters. Always one name inside the folder.
 */
export function safeFileName(id: string, fileName: string | null): string {
  const idPart = /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : createHash('sha256').update(id).digest('hex').slice(0, 32);
  let base = (fileName ?? '').split(/[\\/]/).pop() ?? '';
  base = base
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are what is being removed
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '');
  if (base.length > 120) {
    const dot = base.lastIndexOf('.');
    const ext = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : '';
    base = base.slice(0, 120 - ext.length) + ext;
  }
  if (base === '') base = 'document';
  if (RESERVED.test(base)) base = `_${base}`;
  return `${idPart}-${base}`;
}

/** The full path of a kept name, refused unless it is directly inside the folder. */
export function insideFolder(dir: string, name: string): string {
  const folder = resolve(dir);
  const full = resolve(folder, name);
  if (dirname(full) !== folder || basename(full) !== name) {
    throw new QuaysideError('internal', 'A document file name would leave the documents folder.');
  }
  return full;
}

export interface FetchFileContext {
  db: Db;
  client: DocumentFileClient;
  options: DocumentFilesOptions;
  signal?: AbortSignal;
  /** Records files fetched (the lane: several in one write); by default each at once. */
  keep?: (files: KeptFile[]) => Promise<void>;
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

/**
 * Fetches one document's file into the folder and records it; returns the bytes downloaded.
 * A file larger than `maxBytes` is abandoned (its partial copy removed) with an error.
 */
export async function fetchDocumentFile(
  ctx: FetchFileContext,
  doc: Pick<WantedFile, 'id' | 'file_name' | 'updated_at' | 'link'>,
  priority: Priority,
  maxBytes: number,
): Promise<number> {
  const timeout = AbortSignal.timeout(FILE_TIMEOUT_MS);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  const get = async (link: unknown): Promise<Response | null> => {
    const url = httpUrl(link);
    if (!url) return null;
    // No key: the link is the permission, and it points at storage, not at the API.
    const response = await (ctx.options.fetch ?? fetch)(url, { signal, redirect: 'follow' });
    if (response.ok && response.body) return response;
    await response.body?.cancel();
    return null;
  };
  // The link the document came with costs no request; once it has expired, the API gives a fresh one.
  // A connection that fails (not an answer: a kept-alive socket the storage closed in that very
  // moment, a reset) is tried once more on the same link before a fresh one costs a request.
  const fromLink = async (): Promise<Response | null> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await get(doc.link);
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
        if (attempt === 2 || timeout.aborted) return null;
      }
    }
  };
  let response = await fromLink();
  if (!response) {
    const answer = await ctx.client.getJson(`/documents/${encodeURIComponent(doc.id)}/download_url`, {
      priority,
      signal: ctx.signal,
    });
    if (!httpUrl(answer.download_url)) {
      throw new QuaysideError('internal', 'The Tracking API sent no usable download link for this document.');
    }
    response = await get(answer.download_url);
  }
  if (!response?.body) {
    throw new QuaysideError('needs_connection', "The document's file could not be downloaded; try again later.");
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel();
    throw new QuaysideError('invalid_argument', 'The document file is larger than the size kept for offline use.');
  }
  await mkdir(ctx.options.dir, { recursive: true });
  const name = safeFileName(doc.id, doc.file_name);
  const target = insideFolder(ctx.options.dir, name);
  const temp = insideFolder(ctx.options.dir, `.${randomBytes(6).toString('hex')}.part`);
  const hash = createHash('sha256');
  let bytes = 0;
  const out = createWriteStream(temp);
  try {
    const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (bytes > maxBytes) {
        await reader.cancel();
        throw new QuaysideError('invalid_argument', 'The document file is larger than the size kept for offline use.');
      }
      hash.update(value);
      if (!out.write(value)) await new Promise<void>((done) => out.once('drain', () => done()));
    }
    await new Promise<void>((done, fail) => out.end((error?: Error | null) => (error ? fail(error) : done())));
    await rename(temp, target);
  } catch (error) {
    out.destroy();
    await rm(temp, { force: true });
    throw error;
  }
  const kept = { id: doc.id, state: { path: name, sha256: hash.digest('hex'), updatedAt: doc.updated_at, bytes } };
  await (ctx.keep ?? ((files) => keepFiles(ctx.db, ctx.options.dir, files)))([kept]);
  return bytes;
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
  for (const doc of documentsWantingFiles(db)) {
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
 * the run: it is wanted again next run.
 */
export class DocumentFileLane {
  readonly #ctx: FetchFileContext & { onQueued?: (n: number) => void; onFile?: () => void };
  readonly #maxFileBytes: number;
  #room: number;
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
  #keeping: Promise<void> = Promise.resolve();

  constructor(ctx: FetchFileContext & { onQueued?: (n: number) => void; onFile?: () => void }) {
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
    // Documents stored before this run have had their links for a while: `finish` takes them.
    this.#seq = lastDocumentSeq(ctx.db);
  }

  /** Fetches the files of documents stored since the last call (a page just written), within the room. */
  take(): void {
    if (this.#failure) return;
    const { wanted, last } = documentsWantingFilesAfter(this.#ctx.db, this.#seq);
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

  /** Records the files fetched so far; a write that fails stops the lane with its error. */
  #record(): Promise<void> {
    const files = this.#kept.splice(0);
    if (files.length === 0) return this.#keeping;
    this.#keeping = this.#keeping.then(async () => {
      try {
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
    for (let doc = this.#queue.shift(); doc; doc = this.#queue.shift()) {
      this.#drainedNow();
      try {
        this.#ctx.signal?.throwIfAborted();
        this.#result.bytes += await fetchDocumentFile(this.#ctx, doc, 'background', this.#maxFileBytes);
        this.#result.files++;
      } catch (error) {
        if (this.#ctx.signal?.aborted) {
          this.#failure ??= { error: error instanceof Error ? error : new Error(String(error)) };
          this.#queue.length = 0;
          this.#drainedNow();
          return;
        }
        // One file that cannot be fetched (gone, too large after all, storage down) does not
        // fail the run; it is asked again next run.
        this.#result.failed++;
      }
      this.#ctx.onFile?.();
    }
  }

  /**
   * Every file queued so far fetched and recorded; rethrows what stopped the lane (the run's
   * signal, a failed write).
   */
  async #settled(): Promise<void> {
    while (this.#workers.size > 0) await Promise.allSettled(this.#workers);
    await this.#record();
    if (this.#failure && this.#failure.error !== null) throw this.#failure.error;
  }
}
