/** `containers:route`: a container's route map from the local copy (routing, a paid feature). */
import type { Handlers } from '../../shared/ipc';
import type { ContainerRoute, RouteTrack } from '../../shared/routing';
import { readRouteMap, thinned } from '../details/route-map';
import type { Db } from '../store/database';
import { containerRoute, futurePositionsOf } from '../store/queries/routing';
import { routingRefusal } from '../sync/routes';
import type { CoreContext } from './context';

/** The stored estimated track of a container's vessel; a damaged row reads as none. */
function trackOf(db: Db, id: string): RouteTrack | null {
  const row = futurePositionsOf(db, id);
  if (!row) return null;
  let positions: unknown;
  try {
    positions = JSON.parse(row.positions);
  } catch {
    return null;
  }
  if (!Array.isArray(positions)) return null;
  const isPosition = (p: unknown): p is RouteTrack['positions'][number] => {
    if (typeof p !== 'object' || p === null) return false;
    const { at, time } = p as { at?: unknown; time?: unknown };
    return (
      Array.isArray(at) &&
      at.length === 2 &&
      at.every((n: unknown) => typeof n === 'number' && Number.isFinite(n)) &&
      (time === null || typeof time === 'string')
    );
  };
  const list = thinned(positions as unknown[]).filter(isPosition);
  if (list.length < 2) return null;
  return { vesselName: row.vesselName, toName: row.toPortName, fetchedAt: row.fetchedAt, positions: list };
}

export function routeOfContainer(db: Db, id: string): ContainerRoute {
  const stored = containerRoute(db, id);
  if (stored) {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(stored.geojson);
    } catch {
      // A damaged row reads as no map; the next sync stores it again.
    }
    const map = readRouteMap(parsed);
    if (map.ports.length > 0 || map.lines.length > 0) {
      return { state: 'map', fetchedAt: stored.fetchedAt, ...map, track: map.vessel ? trackOf(db, id) : null };
    }
  }
  const refused = routingRefusal(db);
  if (refused) return { state: 'not_entitled', reason: refused.message, since: refused.at };
  return {
    state: 'none',
    reason: 'No route map yet: the sync asks for one while the container is on its way to the port of discharge.',
  };
}

export function routingHandlers(ctx: CoreContext): Pick<Handlers, 'containers:route'> {
  return {
    'containers:route': async ({ id }) => routeOfContainer((await ctx.session()).db, id),
  };
}
