/**
 * The change feed. Where the account has a webhook that hears every change
 * (active, subscribed to every event), the service lists each change it notified
 * (`/webhook_notifications`, newest first), each naming its `reference_object`: a transport
 * event, an estimate or a container update (each naming its container or shipment), or a
 * tracking request (naming its shipment). An incremental run then reads the notifications since
 * the last one it saw (the anchor) and refreshes just the shipments named there, by id with the
 * walk's includes (so each comes back with its containers exactly as the walk would store it),
 * instead of walking every still-tracking shipment.
 *
 * Correctness first: the walk runs instead whenever the feed cannot be trusted whole: no
 * covering webhook (or not the one the anchor was read under), no anchor, the anchor no longer
 * listed (a gap: pruned, or the webhook deleted), a notification whose record cannot be told, a
 * failed read, more requests than the walk would cost, a walk left half done, or no walk for a
 * day (what no notification tells, such as another client's edit, is then at most a day old).
 * The anchor is read before any record, so a change made while the records are read is listed
 * after it and read again next time, never lost.
 */
import type { JsonApiDocument, JsonApiResource } from '../api/document';
import { listResources, readLink } from '../api/document';
import { ApiError } from '../api/errors';
import { webhookEventNames } from '../../shared/webhooks';
import { walks } from '../resources';
import type { Db } from '../store/database';
import { trustedInstant } from '../store/instant';
import { shipmentsOfContainers } from '../store/queries/feed';
import type { StoredResource } from '../store/resource';
import { clearState, readState, writeState } from '../store/sync-state';
import { writeResources } from '../store/writer';
import { runPool } from './run-pool';
import type { SyncClient } from './types';

/** The walk the feed stands in for: every still-tracking shipment with its containers. */
export const FEED_WALK = 'shipments:active';
const feedWalk = walks.find((w) => w.key === FEED_WALK)!;

const ANCHOR_KEY = 'feed:anchor';
const WALKED_KEY = 'feed:walked_at';
const NONE_KEY = 'feed:none_checked_at';
/** What the last run did with the feed, for the record (tests, diagnostics). */
export const FEED_LAST_KEY = 'feed:last';

/** With no webhook found, the webhooks are asked again after this long. */
const RECHECK_MS = 6 * 3_600_000;
/** The walk runs at least this often whatever the feed says. */
const WALK_AT_LEAST_EVERY_MS = 24 * 3_600_000;
const PAGE_SIZE = 100;
const AT_ONCE = 3;

/** The newest notification a run saw before reading any record, and the webhooks that heard everything then. */
interface Anchor {
  /** Null: the list was empty. */
  id: string | null;
  createdAt: string | null;
  webhooks: string[];
}

export type FeedReason =
  | 'feed'
  | 'no_webhook'
  | 'webhook_changed'
  | 'no_anchor'
  | 'walk_due'
  | 'walk_resumed'
  | 'gap'
  | 'unresolved'
  | 'too_many'
  | 'error';

export interface FeedPlan {
  /** The shipments to refresh in place of the walk; null when the walk runs. */
  shipments: string[] | null;
  reason: FeedReason;
  /** The anchor the next run reads back to, stored once this run's shipments are; null clears it. */
  anchor: Anchor | null;
  /** Notifications read since the anchor (the feed used or not). */
  notifications: number;
  /** Requests the feed spent deciding (the webhooks, the notification pages). */
  requests: number;
}

export interface FeedContext {
  db: Db;
  client: SyncClient;
  signal?: AbortSignal;
  now: () => Date;
  /** One request answered (its written counts), for progress. */
  onRequest: (counts: Record<string, number>) => void;
}

/** Events a webhook must hear for its notifications to tell every change of a shipment or container. */
const feedEvents: readonly string[] = webhookEventNames;

function covers(hook: JsonApiResource): boolean {
  const events = hook.attributes.events;
  return (
    hook.attributes.active === true &&
    Array.isArray(events) &&
    feedEvents.every((event) => (events as unknown[]).includes(event))
  );
}

const walkPlan = (reason: FeedReason, anchor: Anchor | null, notifications = 0, requests = 0): FeedPlan => ({
  shipments: null,
  reason,
  anchor,
  notifications,
  requests,
});

/** A relationship's single linkage. */
function linkage(r: JsonApiResource | undefined, name: string): { id: string; type: string } | null {
  const data = r?.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? { id: String(data.id), type: data.type } : null;
}

/**
 * The shipment each notification is about: its reference object's shipment (an estimate, a
 * transport event, a tracking request's tracked shipment) or its container's, as stored here.
 * Undefined when one cannot be told (the walk then runs); a tracking request with no shipment
 * yet names none (the tracking requests' own walk reads it).
 */
function namedShipments(
  db: Db,
  notifications: JsonApiResource[],
  included: JsonApiResource[],
): Set<string> | undefined {
  const byKey = new Map(included.map((r) => [`${r.type}:${r.id}`, r]));
  const shipments = new Set<string>();
  const containers: string[] = [];
  for (const n of notifications) {
    const event = typeof n.attributes.event === 'string' ? n.attributes.event : '';
    if (event.startsWith('document.')) continue;
    const ref = linkage(n, 'reference_object');
    const object = ref ? byKey.get(`${ref.type}:${ref.id}`) : undefined;
    if (!ref || !object) return undefined;
    if (ref.type === 'tracking_request') {
      const tracked = linkage(object, 'tracked_object');
      if (tracked?.type === 'shipment') shipments.add(tracked.id);
      continue;
    }
    const shipment = linkage(object, 'shipment');
    const container = linkage(object, 'container');
    if (shipment) shipments.add(shipment.id);
    else if (container) containers.push(container.id);
    else return undefined;
  }
  const known = shipmentsOfContainers(db, containers);
  for (const id of containers) {
    const shipment = known.get(id);
    // A box this copy does not hold yet: which shipment it belongs to is unknown here.
    if (shipment === undefined) return undefined;
    shipments.add(shipment);
  }
  return shipments;
}

/**
 * Decides whether an incremental run reads the feed instead of walking still-tracking shipments,
 * reading the webhooks and the notifications since the anchor. Never throws for the service's
 * sake: a failed read means the walk runs. A full run does not ask (its first requests are the
 * urgent boxes'); it leaves the anchor as it was, still true since nothing is lost by a walk.
 */
export async function planFeed(
  ctx: FeedContext,
  options: { walkResumed: boolean; walkPages: number },
): Promise<FeedPlan> {
  const { db, client, signal } = ctx;
  const now = ctx.now();
  const checked = trustedInstant(readState<unknown>(db, NONE_KEY), now);
  if (checked !== null && now.getTime() - checked < RECHECK_MS) {
    return walkPlan('no_webhook', null);
  }
  let requests = 0;
  const ask = async (read: () => Promise<JsonApiDocument>): Promise<JsonApiDocument> => {
    const doc = await read();
    requests++;
    return doc;
  };
  try {
    const hooks = await ask(() =>
      client.get('/webhooks', { query: { 'page[size]': PAGE_SIZE }, priority: 'background', signal }),
    );
    ctx.onRequest({});
    const covering = listResources(hooks)
      .filter(covers)
      .map((h) => String(h.id));
    if (covering.length === 0) {
      writeState(db, NONE_KEY, now.toISOString());
      return walkPlan('no_webhook', null, 0, requests);
    }
    clearState(db, NONE_KEY);

    const query = { 'page[size]': PAGE_SIZE, include: 'reference_object' };
    let page = await ask(() => client.get('/webhook_notifications', { query, priority: 'background', signal }));
    const head = listResources(page)[0];
    const anchor: Anchor = {
      id: head ? String(head.id) : null,
      createdAt: head && typeof head.attributes.created_at === 'string' ? head.attributes.created_at : null,
      webhooks: covering,
    };
    const old = readState<Anchor>(db, ANCHOR_KEY);
    const walked = trustedInstant(readState<unknown>(db, WALKED_KEY), now);
    const keep = (doc: JsonApiDocument) => {
      const counts = writeResources(db, listResources(doc), { syncedAt: now.toISOString() });
      ctx.onRequest(counts);
    };
    keep(page);
    // A walk resumed from an earlier run read its first pages before this anchor: not a whole picture.
    if (options.walkResumed) return walkPlan('walk_resumed', null, 0, requests);
    if (!old || !Array.isArray(old.webhooks)) return walkPlan('no_anchor', anchor, 0, requests);
    if (!old.webhooks.some((id) => covering.includes(id))) return walkPlan('webhook_changed', anchor, 0, requests);
    if (walked === null || now.getTime() - walked >= WALK_AT_LEAST_EVERY_MS) {
      return walkPlan('walk_due', anchor, 0, requests);
    }

    const since: JsonApiResource[] = [];
    const included: JsonApiResource[] = [];
    const oldAt = old.createdAt === null ? null : trustedInstant(old.createdAt, new Date(8.64e15));
    let found = false;
    for (;;) {
      // One at a time: spread, a page of 200,000 includes would overflow the stack.
      for (const r of page.included) included.push(r);
      for (const n of listResources(page)) {
        if (old.id !== null && String(n.id) === old.id) {
          found = true;
          break;
        }
        const at = trustedInstant(n.attributes.created_at, new Date(8.64e15));
        // Past the anchor's time without meeting it: the anchor is no longer listed.
        if (oldAt !== null && at !== null && at < oldAt) return walkPlan('gap', anchor, since.length, requests);
        since.push(n);
      }
      if (found) break;
      const next = readLink(page.links?.next);
      if (next === null || listResources(page).length === 0) {
        // The whole list read: complete only when the list was empty at the anchor.
        if (old.id === null) break;
        return walkPlan('gap', anchor, since.length, requests);
      }
      // Every page beyond the first (and the webhooks) is a request the walk would not have spent.
      if (requests - 2 >= options.walkPages) return walkPlan('too_many', anchor, since.length, requests);
      page = await ask(() => client.getUrl(next, { priority: 'background', signal }));
      keep(page);
    }
    const named = namedShipments(db, since, included);
    if (named === undefined) return walkPlan('unresolved', anchor, since.length, requests);
    if (requests - 2 + named.size >= options.walkPages) return walkPlan('too_many', anchor, since.length, requests);
    return { shipments: [...named], reason: 'feed', anchor, notifications: since.length, requests };
  } catch (caught) {
    if (signal?.aborted) throw caught;
    if (!(caught instanceof ApiError)) throw caught;
    // The walk reads everything anyway; the next run starts the feed afresh.
    return walkPlan('error', null, 0, requests);
  }
}

/**
 * The named shipments, each by id with the walk's includes, three at once, at background
 * priority. One the service no longer has (404) is skipped, as the walk would not list it.
 */
export async function refreshShipments(ctx: FeedContext, ids: string[]): Promise<void> {
  const include = feedWalk.includes.join(',');
  await runPool(ids, AT_ONCE, async (id) => {
    ctx.signal?.throwIfAborted();
    let doc: JsonApiDocument;
    try {
      doc = await ctx.client.get(`/shipments/${encodeURIComponent(id)}`, {
        query: include ? { include } : {},
        priority: 'background',
        signal: ctx.signal,
      });
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 404) {
        ctx.onRequest({});
        return;
      }
      throw caught;
    }
    const counts = writeResources(ctx.db, [...listResources(doc), ...doc.included] as StoredResource[], {
      syncedAt: ctx.now().toISOString(),
    });
    ctx.onRequest(counts);
  });
}

/**
 * The account's webhooks were changed from Quayside (Settings → Webhooks): the next incremental run
 * looks for a covering webhook again instead of trusting a "none" found less than RECHECK_MS ago,
 * so a webhook made here carries the feed from the next sync, not hours later.
 */
export function webhooksChanged(db: Db): void {
  clearState(db, NONE_KEY);
}

/**
 * Once the shipments are stored (walked or refreshed from the feed): the anchor for the next run,
 * and, after a walk, when one last ran.
 */
export function settleFeed(db: Db, plan: FeedPlan, now: Date): void {
  if (plan.anchor) writeState(db, ANCHOR_KEY, plan.anchor);
  else clearState(db, ANCHOR_KEY);
  if (plan.shipments === null) {
    if (plan.anchor) writeState(db, WALKED_KEY, now.toISOString());
    else clearState(db, WALKED_KEY);
  }
  writeState(db, FEED_LAST_KEY, {
    at: now.toISOString(),
    used: plan.shipments !== null,
    reason: plan.reason,
    notifications: plan.notifications,
    shipments: plan.shipments?.length ?? null,
  });
}
