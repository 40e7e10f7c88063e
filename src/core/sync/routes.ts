/**
 * The route step of a sync (routing, a paid feature of the service): the map GeoJSON of each
 * container still on its way to the port of discharge (and once more after it arrived), stored
 * (bounded) so the container page draws it offline, and for a map showing its vessel under way, that
 * vessel's future positions to the next port (`/vessels/{id}/future_positions`, once a step per
 * vessel and leg), kept beside it. Taken on full runs and, on incremental ones, an
 * hour after the last time (so a quiet run still costs one request); at most `ROUTES_PER_RUN` a
 * step, never-asked first, then the soonest arrival; a boat at sea is asked again after
 * `ROUTE_STALE_MS`. Background priority within the limiter, three at once.
 *
 * An account without the feature answers 403: that is said once (kept under `routing:refused`,
 * shown on the container page as one sentence) and the step stops asking; it asks one container
 * again a week later, in case the account has bought it since. A 404, or an answer Quayside cannot
 * read (too large, nested too deep), skips the container; any other failure ends the step without
 * failing the run (the next run tries again). A map is stored bounded (`boundedRouteMap`), and a
 * vessel's track thinned to as many positions as a map line keeps.
 */
import { ApiError, ForbiddenError } from '../api/errors';
import { boundedRouteMap, isFeatureCollection, thinned } from '../details/route-map';
import type { Db } from '../store/database';
import { trustedInstant } from '../store/instant';
import {
  containersDueRoutes,
  deleteFuturePositions,
  writeContainerRoute,
  writeFuturePositions,
} from '../store/queries/routing';
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
  /** After each request, whether it stored a route (or, `track`, a vessel's future positions). */
  onFetched: (stored: boolean, what?: 'route' | 'track') => void;
}

/** The vessel a stored map shows under way, and the ports of its leg (what future positions are asked with). */
function vesselUnderWay(
  map: unknown,
): { vesselId: string; vesselName: string | null; fromId: string; toId: string; toName: string | null } | null {
  const features = (map as { features?: unknown }).features;
  if (!Array.isArray(features)) return null;
  for (const f of features) {
    const props = (f as { properties?: Record<string, unknown> } | null)?.properties;
    if (props?.feature_type !== 'current_vessel') continue;
    const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    const vesselId = text(props.vessel_id);
    const fromId = text(props.departure_port_id);
    const toId = text(props.arrival_port_id);
    if (vesselId === null || fromId === null || toId === null) return null;
    return { vesselId, vesselName: text(props.vessel_name), fromId, toId, toName: text(props.arrival_port_name) };
  }
  return null;
}

/** The positions of a `future_positions` answer, as `[{ at: [lon, lat], time }]`; unreadable ones left out. */
export function readFuturePositions(doc: unknown): { at: [number, number]; time: string | null }[] {
  const data = (doc as { data?: { attributes?: { positions?: unknown } } } | null)?.data;
  const list = data?.attributes?.positions;
  if (!Array.isArray(list)) return [];
  return thinned(list).flatMap((p: unknown) => {
    const { latitude, longitude, timestamp } = (p ?? {}) as Record<string, unknown>;
    const lat = typeof latitude === 'string' ? Number(latitude) : latitude;
    const lon = typeof longitude === 'string' ? Number(longitude) : longitude;
    if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) return [];
    if (Math.abs(lat) > 90 || Math.abs(lon) > 540) return [];
    return [{ at: [lon, lat] as [number, number], time: typeof timestamp === 'string' ? timestamp : null }];
  });
}

/** Fetches and stores the routes of `ids`; stops at a refusal or a failure. */
export async function syncRoutes(ctx: RouteContext, ids: readonly string[]): Promise<void> {
  const getJson = ctx.client.getJson?.bind(ctx.client);
  if (!getJson || ids.length === 0) return;
  writeState(ctx.db, STEP_DONE_KEY, ctx.now().toISOString());
  let next = 0;
  let stopped = false;
  // Boxes on one vessel's leg share its track: asked once a step.
  const tracks = new Map<string, Promise<string>>();
  const track = async (id: string, answer: unknown) => {
    const vessel = vesselUnderWay(answer);
    if (vessel === null) {
      deleteFuturePositions(ctx.db, id);
      return;
    }
    const key = `${vessel.vesselId}:${vessel.fromId}:${vessel.toId}`;
    let positions = tracks.get(key);
    if (positions === undefined) {
      positions = ctx.client
        .get(`/vessels/${encodeURIComponent(vessel.vesselId)}/future_positions`, {
          query: { port_id: vessel.toId, previous_port_id: vessel.fromId },
          priority: 'background',
          signal: ctx.signal,
        })
        .then((doc) => {
          ctx.onFetched(true, 'track');
          return JSON.stringify(readFuturePositions(doc));
        });
      tracks.set(key, positions);
    }
    writeFuturePositions(ctx.db, id, {
      vesselId: vessel.vesselId,
      vesselName: vessel.vesselName,
      toPortName: vessel.toName,
      positions: await positions,
      fetchedAt: ctx.now().toISOString(),
    });
  };
  const ask = async (id: string) => {
    ctx.signal?.throwIfAborted();
    try {
      const answer = await getJson(`/containers/${encodeURIComponent(id)}/map_geojson`, {
        priority: 'background',
        signal: ctx.signal,
      });
      const stored = isFeatureCollection(answer);
      if (stored) writeContainerRoute(ctx.db, id, JSON.stringify(boundedRouteMap(answer)), ctx.now().toISOString());
      if (routingRefusal(ctx.db) !== null) clearState(ctx.db, ROUTING_REFUSED_KEY);
      ctx.onFetched(stored);
      // The vessel's estimated track to its next port, for boxes whose map shows it under way.
      if (stored) await track(id, answer);
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      if (error instanceof ForbiddenError) {
        writeState(ctx.db, ROUTING_REFUSED_KEY, { at: ctx.now().toISOString(), message: NOT_ENTITLED });
        stopped = true;
      } else if (error instanceof ApiError && (error.status === 404 || error.code === 'malformed')) {
        // None, or one Quayside cannot read (too large, too deep): this box is skipped, not the step.
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
