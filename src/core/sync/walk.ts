/**
 * One paged walk over a list endpoint. Pages are written in order, each together with the
 * checkpoint naming the next page, in one transaction: killed at any point, the walk resumes at
 * the first page not yet written, and a page written twice changes nothing (upserts by id).
 * When the service numbers its pages (`page[number]` in `links.next` and `links.last`), a few
 * pages are requested at once so the network wait overlaps; otherwise the next page is requested
 * while the current one is written.
 */
import { listResources, readLink, type JsonApiDocument } from '../api/document';
import { ApiError } from '../api/errors';
import type { Db } from '../store/database';
import type { StoredResource } from '../store/resource';
import { readState } from '../store/sync-state';
import { clearState, writeState } from '../store/sync-state';
import { writeResources, type WriteCounts } from '../store/writer';
import type { Query, SyncClient } from './types';

/** Pages of one walk in flight at once. The limiter still sets the overall pace. */
const PAGES_IN_FLIGHT = 3;

export interface WalkSpec {
  /** Checkpoint key, e.g. "shipments:active". */
  key: string;
  path: string;
  query: Query;
  /** Containers whose events a page carries completely, when the page includes them. */
  eventsComplete?: (doc: JsonApiDocument) => string[];
}

interface Checkpoint {
  next: string;
  pages: number;
  maxUpdatedAt: string | null;
}

export interface WalkContext {
  db: Db;
  client: SyncClient;
  signal?: AbortSignal;
  now: () => Date;
  onPage: (page: {
    key: string;
    total: number | null;
    pageSize: number;
    counts: WriteCounts;
    resumed: boolean;
  }) => void;
}

export interface WalkResult {
  pages: number;
  counts: WriteCounts;
  /** The newest `updated_at` among the primary resources, for incremental cursors. */
  maxUpdatedAt: string | null;
}

export function hasCheckpoint(db: Db, key: string): boolean {
  return readState<Checkpoint>(db, `walk:${key}`) !== null;
}

function pageNumber(url: string | null): number | null {
  if (!url) return null;
  try {
    const value = new URL(url).searchParams.get('page[number]');
    return value !== null && /^\d+$/.test(value) ? Number(value) : null;
  } catch {
    return null;
  }
}

/** The same page URL with another page number, brackets kept as the service wrote them. */
function withPageNumber(url: string, n: number): string {
  return url.replace(
    /page(\[|%5B)number(\]|%5D)=\d+/i,
    (_m, open: string, close: string) => `page${open}number${close}=${n}`,
  );
}

export async function walk(ctx: WalkContext, spec: WalkSpec): Promise<WalkResult> {
  const stateKey = `walk:${spec.key}`;
  const checkpoint = readState<Checkpoint>(ctx.db, stateKey);
  let pages = checkpoint?.pages ?? 0;
  let maxUpdatedAt = checkpoint?.maxUpdatedAt ?? null;
  const counts: WriteCounts = {};
  const stop = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
  const inFlight = new Map<string, Promise<JsonApiDocument>>();
  const request = (url: string | null): Promise<JsonApiDocument> => {
    const key = url ?? '';
    let pending = inFlight.get(key);
    if (!pending) {
      pending = url
        ? ctx.client.getUrl(url, { priority: 'background', signal })
        : ctx.client.get(spec.path, { query: spec.query, priority: 'background', signal });
      pending.catch(() => {}); // awaited in order below; never an unhandled rejection if the walk stops first
      inFlight.set(key, pending);
    }
    return pending;
  };

  /** Writes one page and its checkpoint together; returns the link to the next page. */
  const writePage = (doc: JsonApiDocument): string | null => {
    const primary = listResources(doc);
    for (const resource of primary) {
      const updated = resource.attributes.updated_at;
      if (typeof updated === 'string' && (maxUpdatedAt === null || updated > maxUpdatedAt)) maxUpdatedAt = updated;
    }
    const nextLink = primary.length > 0 ? readLink(doc.links?.next) : null;
    pages++;
    const pageCounts = writeResources(ctx.db, [...primary, ...doc.included] as StoredResource[], {
      syncedAt: ctx.now().toISOString(),
      eventsCompleteFor: spec.eventsComplete?.(doc),
      // The checkpoint commits with the page: either both land or neither does.
      alsoInTransaction: () => {
        if (nextLink) writeState(ctx.db, stateKey, { next: nextLink, pages, maxUpdatedAt } satisfies Checkpoint);
        else clearState(ctx.db, stateKey);
      },
    });
    for (const [type, n] of Object.entries(pageCounts)) counts[type] = (counts[type] ?? 0) + n;
    const total = typeof doc.meta?.total === 'number' ? doc.meta.total : null;
    const pageSize = typeof doc.meta?.size === 'number' ? doc.meta.size : Math.max(primary.length, 1);
    ctx.onPage({ key: spec.key, total, pageSize, counts: pageCounts, resumed: checkpoint !== null });
    return nextLink;
  };

  try {
    let url: string | null = checkpoint?.next ?? null;
    let doc: JsonApiDocument;
    try {
      doc = await request(url);
    } catch (error) {
      // The profile's base URL changed since this checkpoint was written: start the walk over.
      if (!(url && error instanceof ApiError && error.code === 'foreign_origin')) throw error;
      inFlight.delete(url);
      clearState(ctx.db, stateKey);
      pages = 0;
      maxUpdatedAt = null;
      url = null;
      doc = await request(null);
    }
    inFlight.delete(url ?? '');
    for (;;) {
      ctx.signal?.throwIfAborted();
      const next = readLink(doc.links?.next);
      const first = pageNumber(next);
      const last = pageNumber(readLink(doc.links?.last));
      // Ask for the pages after this one before writing it (up to the last numbered page).
      if (next && first !== null && last !== null) {
        for (let n = first; n < first + PAGES_IN_FLIGHT && n <= last; n++) void request(withPageNumber(next, n));
      } else if (next && listResources(doc).length > 0) {
        void request(next);
      }
      const nextLink = writePage(doc);
      if (!nextLink) break;
      url = nextLink;
      doc = await request(url);
      inFlight.delete(url);
    }
  } finally {
    stop.abort();
  }
  return { pages, counts, maxUpdatedAt };
}
