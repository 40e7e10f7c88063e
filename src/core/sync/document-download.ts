/**
 * One document file from storage to the documents folder, every byte counted as it arrives. The
 * link and each redirect must be https (plain http only to this computer, and only within the
 * origin it started on), three redirects at most: a presigned link is the permission, sent
 * without the key, and it must not lead the app anywhere else. The body is read a chunk at a time
 * into a `.part` file of this process (`<pid>-…`): past the per-file limit or the folder's room
 * (a `ByteBudget` shared by the files under way) it stops, whatever the answer declared. A file
 * that fails leaves no part behind; parts of processes that died are removed when a sync starts
 * (`removeLeftoverParts`). What the file is kept as is decided from its first bytes
 * (document-names.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { isLoopbackHost } from '../../shared/base-url';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import type { KeptFile, WantedFile } from '../store/queries/documents';
import { HEAD_BYTES, insideFolder, keptAs, safeFileName } from './document-names';
import type { Priority } from './types';

const MB = 1024 * 1024;
/** The most an open on demand downloads (files over the sync's per-file limit are opened this way). */
export const OPEN_MAX_BYTES = 200 * MB;
/** Redirects followed from a document's link. */
export const MAX_REDIRECTS = 3;
const FILE_TIMEOUT_MS = 120_000;

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
  /** The clock of the retry times (tests). Default: Date.now. */
  now?: () => number;
}

/** Room shared by the files under way: taken a chunk at a time as bytes arrive, given back when one fails. */
export interface ByteBudget {
  take(bytes: number): boolean;
  give(bytes: number): void;
  /** The sentence for a file that found no room. */
  readonly full: string;
}

/** How much one download may read, and the sentence when it reads more. */
export interface FileLimit {
  maxBytes: number;
  tooLarge: string;
  budget?: ByteBudget;
}

export const OPEN_LIMIT: FileLimit = {
  maxBytes: OPEN_MAX_BYTES,
  tooLarge: `This document's file is larger than ${OPEN_MAX_BYTES / MB} MB, the most Quayside downloads to open a document; it was not opened.`,
};

export interface FetchFileContext {
  db: Db;
  client: DocumentFileClient;
  options: DocumentFilesOptions;
  signal?: AbortSignal;
  /** Records a file fetched (the lane: several in one write); by default `keepFiles` at once. */
  keep: (files: KeptFile[]) => Promise<void>;
}

/** The size in words: "1.2 MB", "512 KB"; a size that rounds to 1024 KB says "1.0 MB". */
export function sizeText(bytes: number): string {
  const kb = Math.max(1, Math.round(bytes / 1024));
  if (kb >= 1024) return `${(bytes / MB).toFixed(1)} MB`;
  return `${kb} KB`;
}

/** A link fit to fetch a file from, or the sentence why not. `from` is the URL that redirected here. */
export function fileUrl(link: unknown, from?: URL): URL | string {
  if (typeof link !== 'string' || link === '') return 'the service gave no link for it';
  let url: URL;
  try {
    url = new URL(link, from);
  } catch {
    return 'its link is not a web address';
  }
  if (url.username !== '' || url.password !== '') return 'its link carries a user name';
  if (url.protocol === 'https:') return url;
  if (url.protocol !== 'http:') return `its link is not https (${url.protocol.replace(/:$/, '')})`;
  if (!isLoopbackHost(url.hostname)) return 'its link is plain http, not https';
  if (from && (from.protocol !== 'http:' || from.origin !== url.origin)) return 'it was redirected to plain http';
  return url;
}

/** Why a download failed, in words, for the error (node's and undici's codes, not their wording). */
function causeText(error: unknown): string {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return 'the documents folder refuses writes';
  if (code === 'ENAMETOOLONG') return 'its name is too long for this disk';
  if (code?.startsWith('UND_ERR') || error instanceof TypeError) return 'the connection was cut off';
  return code ? `the disk answered ${code}` : 'the connection failed';
}

const failed = (why: string) => new QuaysideError('needs_connection', `The file could not be downloaded: ${why}.`);

/**
 * Fetches `url` following at most MAX_REDIRECTS redirects, each checked by `fileUrl`: the answer
 * when it is a 2xx with a body, null when storage said no (expired, gone); throws when a link or a
 * redirect is refused.
 */
async function getFile(start: URL, fetcher: typeof fetch, signal: AbortSignal): Promise<Response | null> {
  let url = start;
  for (let hop = 0; ; hop++) {
    // No key: the link is the permission, and it points at storage, not at the API.
    const response = await fetcher(url, { signal, redirect: 'manual' });
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw failed(`its link redirected more than ${MAX_REDIRECTS} times`);
      const next = fileUrl(response.headers.get('location'), url);
      if (typeof next === 'string') throw failed(next);
      url = next;
      continue;
    }
    if (response.ok && response.body) return response;
    await response.body?.cancel();
    return null;
  }
}

/** Part files this process is writing (`removeLeftoverParts` leaves them alone). */
const partsUnderWay = new Set<string>();
const PART = /^\.(\d+)-[0-9a-f]+\.part$/;

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Removes the part files that outlived their download: a process killed mid-file, a disk that
 * failed as it was removed. Parts of a live process (this one's under way, another app's open on
 * demand) stay.
 */
export async function removeLeftoverParts(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const match = PART.exec(name);
    if (!match || partsUnderWay.has(name)) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && processAlive(pid)) continue;
    await rm(insideFolder(dir, name), { force: true }).catch(() => {});
    removed++;
  }
  return removed;
}

interface Saved {
  part: string;
  bytes: number;
  sha256: string;
  head: Uint8Array;
}

/** Reads the body into a part file within the limit; on any failure the part is removed and the room given back. */
async function saveBody(response: Response, dir: string, limit: FileLimit, signal: AbortSignal): Promise<Saved> {
  await mkdir(dir, { recursive: true });
  const part = `.${process.pid}-${randomBytes(6).toString('hex')}.part`;
  const path = insideFolder(dir, part);
  partsUnderWay.add(part);
  const hash = createHash('sha256');
  const head = new Uint8Array(HEAD_BYTES);
  let headLength = 0;
  let bytes = 0;
  let taken = 0;
  const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  let file: Awaited<ReturnType<typeof open>> | null = null;
  try {
    file = await open(path, 'wx', 0o600);
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal.aborted) throw error;
        throw failed(`${causeText(error)} after ${sizeText(bytes)}`);
      }
      if (chunk.done) break;
      const value = chunk.value;
      bytes += value.length;
      if (bytes > limit.maxBytes) throw new QuaysideError('invalid_argument', limit.tooLarge);
      if (limit.budget) {
        if (!limit.budget.take(value.length)) throw new QuaysideError('storage', limit.budget.full);
        taken += value.length;
      }
      if (headLength < HEAD_BYTES) {
        const piece = value.subarray(0, HEAD_BYTES - headLength);
        head.set(piece, headLength);
        headLength += piece.length;
      }
      hash.update(value);
      await file.write(value);
    }
    await file.close();
    file = null;
    return { part, bytes, sha256: hash.digest('hex'), head: head.subarray(0, headLength) };
  } catch (error) {
    await reader.cancel().catch(() => {});
    await file?.close().catch(() => {});
    await rm(path, { force: true }).catch(() => {});
    partsUnderWay.delete(part);
    if (taken > 0) limit.budget?.give(taken);
    throw error instanceof QuaysideError || signal.aborted ? error : failed(causeText(error));
  }
}

/**
 * Fetches one document's file into the folder and records it (`ctx.keep`); returns the bytes
 * downloaded. A file over the limit, a refused link or a failed connection throws a
 * QuaysideError with one sentence, and leaves nothing in the folder.
 */
export async function fetchDocumentFile(
  ctx: FetchFileContext,
  doc: Pick<WantedFile, 'id' | 'file_name' | 'updated_at' | 'link'>,
  priority: Priority,
  limit: FileLimit,
): Promise<number> {
  const timeout = AbortSignal.timeout(FILE_TIMEOUT_MS);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  const fetcher = ctx.options.fetch ?? fetch;
  let refused: string | null = null;
  // The link the document came with costs no request; once it has expired, the API gives a fresh one.
  // A connection that fails (not an answer: a kept-alive socket the storage closed in that very
  // moment, a reset) is tried once more on the same link before a fresh one costs a request.
  const fromLink = async (link: unknown, attempts: number): Promise<Response | null> => {
    const url = fileUrl(link);
    if (typeof url === 'string') {
      refused = url;
      return null;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await getFile(url, fetcher, signal);
      } catch (error) {
        if (ctx.signal?.aborted || error instanceof QuaysideError) throw error;
        if (timeout.aborted) throw failed(`no answer came within ${FILE_TIMEOUT_MS / 1000} seconds`);
        if (attempt >= attempts) return null;
      }
    }
  };
  let response = await fromLink(doc.link, 2);
  if (!response) {
    const answer = await ctx.client.getJson(`/documents/${encodeURIComponent(doc.id)}/download_url`, {
      priority,
      signal: ctx.signal,
    });
    response = await fromLink(answer.download_url, 1);
  }
  if (!response) throw failed(refused ?? 'storage did not give the file; it is tried again later');
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit.maxBytes) {
    await response.body?.cancel();
    throw new QuaysideError('invalid_argument', limit.tooLarge);
  }
  let saved: Saved;
  try {
    saved = await saveBody(response, ctx.options.dir, limit, signal);
  } catch (error) {
    if (timeout.aborted && !ctx.signal?.aborted) {
      throw failed(`it took over ${FILE_TIMEOUT_MS / 1000} seconds`);
    }
    throw error;
  }
  const name = safeFileName(doc.id, doc.file_name, keptAs(doc.file_name, saved.head));
  try {
    await rename(insideFolder(ctx.options.dir, saved.part), insideFolder(ctx.options.dir, name));
  } catch (error) {
    await rm(insideFolder(ctx.options.dir, saved.part), { force: true }).catch(() => {});
    limit.budget?.give(saved.bytes);
    throw failed(causeText(error));
  } finally {
    partsUnderWay.delete(saved.part);
  }
  const state = { path: name, sha256: saved.sha256, updatedAt: doc.updated_at, bytes: saved.bytes };
  await ctx.keep([{ id: doc.id, state }]);
  return saved.bytes;
}
