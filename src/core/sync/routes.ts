/**
 * The route step of a sync (routing, a paid feature of the service): the map GeoJSON of each
 * container still on its way to the port of discharge (and once more after it arrived), stored
 * whole so the container page draws it offline. Taken on full runs and, on incremental ones, an
 * hour after the last time (so a quiet run still costs one request); at most `ROUTES_PER_RUN` a
 * step, never-asked first, then the soonest arrival; a boat at sea is asked again after
 * `ROUTE_STALE_MS`. Background priority within the limiter, three at once.
 *
 * An account without the feature answers 403: that is said once (kept under `routing:refused`,
 * shown on the container page as one sentence) and the step stops asking; it asks one container
 * again a week later, in case the account has bought it since. A 404 skips the container; any
 * other failure ends the step without failing the run (the next run tries again).
 */
import { ApiError, ForbiddenError } from '../api/errors';
import { isFeatureCollection } from '../details/route-map';
import type { Db } from '../store/database';
import { trustedInstant } from '../store/instant';
import { containersDueRoutes, writeContainerRoute } from '../store/queries/routing';
import { clearState, readState, writeState } from '../store/sync-state';
import type { SyncClient } from './types';

export const ROUTES_PER_RUN = 10;
/** An incremental run takes the route step only this long after the last one (a quiet run stays one request). */
export const ROUTE_STEP_EVERY_MS = 3_600_000;
const STEP_DONE_KEY = 'routes:done_at';
export const ROUTE_STALE_MS = 6 * 3_600_000;
/** After a 403, the service is asked again (one container) this long after. */
export const ROUTING_RETRY_MS = 7 * 86_400_000;
const AT_ONCE = 3;
export const ROUTING_REFUSED_KEY = 'routing:refused';

export interface RoutingRefusal {
  at: string;
  message: string;
}

/** The sentence an account without routing gets, once. */
export const NOT_ENTITLED =
  'Route maps are a paid feature of the Tracking API that this account does not have, so Quayside has stopped asking for them.';

/** The service's last refusal of routing, if it still holds. */
export function routingRefusal(db: Db): RoutingRefusal | null {
  return readState<RoutingRefusal>(db, ROUTING_REFUSED_KEY);
}

/**
 * Containers whose route this run asks for: on a full run, or an incremental one an hour after
 * the last route step; none after a refusal, then one a week later to try again.
 */
export function routesToAsk(db: Db, now: Date, mode: 'full' | 'incremental'): string[] {
  const last = trustedInstant(readState<unknown>(db, STEP_DONE_KEY), now);
  if (mode === 'incremental' && last !== null && now.getTime() - last < ROUTE_STEP_EVERY_MS) return [];
  const refused = routingRefusal(db);
  if (refused !== null) {
    const since = Date.parse(refused.at);
    if (Number.isFinite(since) && now.getTime() - since < ROUTING_RETRY_MS) return [];
    return containersDueRoutes(db, new Date(now.getTime() - ROUTE_STALE_MS).toISOString(), 1);
  }
  return containersDueRoutes(db, new Date(now.getTime() - ROUTE_STALE_MS).toISOString(), ROUTES_PER_RUN);
}

export interface RouteContext {
  db: Db;
  client: SyncClient;
  signal?: AbortSignal;
  now: () => Date;
  /** After each request, whether it stored a route. */
  onFetched: (stored: boolean) => void;
}

/** Fetches and stores the routes of `ids`; stops at a refusal or a failure. */
export async function syncRoutes(ctx: RouteContext, ids: readonly string[]): Promise<void> {
  const getJson = ctx.client.getJson?.bind(ctx.client);
  if (!getJson || ids.length === 0) return;
  writeState(ctx.db, STEP_DONE_KEY, ctx.now().toISOString());
  let next = 0;
  let stopped = false;
  const ask = async (id: string) => {
    ctx.signal?.throwIfAborted();
    try {
      const answer = await getJson(`/containers/${encodeURIComponent(id)}/map_geojson`, {
        priority: 'background',
        signal: ctx.signal,
      });
      const stored = isFeatureCollection(answer);
      if (stored) writeContainerRoute(ctx.db, id, JSON.stringify(answer), ctx.now().toISOString());
      if (routingRefusal(ctx.db) !== null) clearState(ctx.db, ROUTING_REFUSED_KEY);
      ctx.onFetched(stored);
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      if (error instanceof ForbiddenError) {
        writeState(ctx.db, ROUTING_REFUSED_KEY, { at: ctx.now().toISOString(), message: NOT_ENTITLED });
        stopped = true;
      } else if (error instanceof ApiError && error.status === 404) {
        ctx.onFetched(false);
      } else {
        stopped = true; // the service is unwell: the next run tries again
      }
    }
  };
  const worker = async () => {
    while (next < ids.length && !stopped) await ask(ids[next++]!);
  };
  // The first alone: an account without routing is refused once, not three times at once.
  await ask(ids[next++]!);
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, ids.length - next) }, worker));
}
