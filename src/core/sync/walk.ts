/**
 * One paged walk over a list endpoint. Each page is written together with the checkpoint
 * naming the next page, in one transaction: killed at any point, the walk resumes at the first
 * page not yet written, and a page written twice changes nothing (upserts by id).
 */
import { listResources, readLink, type JsonApiDocument } from '../api/document';
import type { Db } from '../store/database';
import type { StoredResource } from '../store/resource';
import { clearState, readState, writeState } from '../store/sync-state';
import { writeResources, type WriteCounts } from '../store/writer';
import type { Query, SyncClient } from './types';

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

export async function walk(ctx: WalkContext, spec: WalkSpec): Promise<WalkResult> {
  const stateKey = `walk:${spec.key}`;
  const checkpoint = readState<Checkpoint>(ctx.db, stateKey);
  let pages = checkpoint?.pages ?? 0;
  let maxUpdatedAt = checkpoint?.maxUpdatedAt ?? null;
  const counts: WriteCounts = {};
  // The next page is requested before this one is written, so the wait for the network
  // overlaps the write. A stopped walk aborts the request it no longer needs.
  const stop = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
  const fetchPage = (url: string | null) => {
    const request = url
      ? ctx.client.getUrl(url, { priority: 'background', signal })
      : ctx.client.get(spec.path, { query: spec.query, priority: 'background', signal });
    request.catch(() => {}); // awaited below; never an unhandled rejection if the walk stops first
    return request;
  };
  let pending = fetchPage(checkpoint?.next ?? null);
  try {
    for (;;) {
      ctx.signal?.throwIfAborted();
      const doc = await pending;
      const primary = listResources(doc);
      for (const resource of primary) {
        const updated = resource.attributes.updated_at;
        if (typeof updated === 'string' && (maxUpdatedAt === null || updated > maxUpdatedAt)) maxUpdatedAt = updated;
      }
      const nextLink = primary.length > 0 ? readLink(doc.links?.next) : null;
      if (nextLink) pending = fetchPage(nextLink);
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
      if (!nextLink) break;
    }
  } finally {
    stop.abort();
  }
  return { pages, counts, maxUpdatedAt };
}
