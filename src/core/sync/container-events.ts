/**
 * Transport events as the engine gets them: which containers of a container page came with all
 * their events (and whether the service honours the events include at all), and one container's
 * events fetched on their own, every page, when a page left them out or a user opened the box.
 */
import { listResources, readLink, type JsonApiDocument } from '../api/document';
import { ApiError } from '../api/errors';
import { PAGE_SIZE as PAGE, resources as registry } from '../resources';
import type { Db } from '../store/database';
import type { StoredResource } from '../store/resource';
import { writeState } from '../store/sync-state';
import { writeResourcesInSteps } from '../store/writer-steps';
import type { SyncClient } from './types';
import { frameOf } from './page-handle';
import { PageGuard } from './walk';

/** Which containers of a container page have all their events in it. */
function eventsCarried(doc: JsonApiDocument): string[] {
  const included = new Set(doc.included.filter((r) => r.type === 'transport_event').map((r) => r.id));
  return listResources(doc)
    .filter((c) => {
      const refs = c.relationships.transport_events?.data;
      return Array.isArray(refs) && refs.every((ref) => included.has(ref.id));
    })
    .map((c) => c.id);
}

/** Containers a page carries all events of; remembers whether the service honours the include. */
export function eventsComplete(db: Db, doc: JsonApiDocument): string[] {
  const carried = eventsCarried(doc);
  // A service that ignores the include sends event ids without the events: remember, and
  // fetch events container by container from then on. (A container with no events is
  // "carried" by any page, so only those that list events tell.)
  const withEvents = listResources(doc).filter(
    (c) => (c.relationships.transport_events?.data as unknown[] | undefined)?.length,
  );
  const carriedSet = new Set(carried);
  if (withEvents.length > 0) {
    writeState(
      db,
      'events:include_honoured',
      withEvents.some((c) => carriedSet.has(c.id)),
    );
  }
  return carried;
}

/** All events of one container, every page, now (a user opened it) or as background work. */
export async function fetchContainerEvents(
  db: Db,
  client: SyncClient,
  syncedAt: () => string,
  containerId: string,
  priority: 'user' | 'background',
  signal?: AbortSignal,
): Promise<number> {
  const resources: StoredResource[] = [];
  const guard = new PageGuard('container events');
  try {
    let url: string | null = null;
    const api = registry.transportEvents.api!;
    let doc = await client.get(api.path!.replace('{id}', encodeURIComponent(containerId)), {
      query: { 'page[size]': PAGE, include: (api.includes ?? []).join(',') },
      priority,
      signal,
    });
    for (;;) {
      guard.served(url, frameOf(doc));
      const events = listResources(doc);
      // One at a time: spread, a page of 200,000 includes would overflow the stack.
      for (const r of [events, doc.included]) for (const one of r) resources.push(one);
      const next = events.length > 0 ? readLink(doc.links?.next) : null;
      if (!next) break;
      const problem = guard.problemWith(next);
      if (problem) throw problem;
      url = next;
      doc = await client.getUrl(next, { priority, signal });
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return 0; // the container is gone at the service
    throw error;
  }
  // Marked complete only with every page in hand.
  const written = await writeResourcesInSteps(db, resources, {
    syncedAt: syncedAt(),
    eventsCompleteFor: [containerId],
  });
  return written.transport_event ?? 0;
}
