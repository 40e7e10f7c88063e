/** Routing, a paid feature: a container's map GeoJSON and a vessel's future positions (403 without it). */
import { badRequest, HttpError, notFound, type Reply, type RouteContext } from '../http';
import { futurePositions, mapGeoJson } from '../routing';

/** The service's answer to an account without the routing feature. */
export function routingForbidden(): HttpError {
  return new HttpError(403, [
    { status: '403', title: 'Forbidden', detail: 'Routing data feature is not enabled for this account' },
  ]);
}

export function requireRouting(route: RouteContext): void {
  if (!route.store.entitlements.routing) throw routingForbidden();
}

export function getContainerMap(route: RouteContext): Reply {
  const container = route.store.containerById.get(route.params[0]!);
  if (!container || container.createdAt > route.ctx.now) throw notFound('Container');
  requireRouting(route);
  return { status: 200, body: mapGeoJson(container, route.ctx.now) };
}

export function getVesselFuturePositions(route: RouteContext): Reply {
  const id = route.params[0]!;
  const vessel = route.store.world.vessels.find((v) => v.id === id) ?? route.store.vesselByImo.get(id);
  if (!vessel) throw notFound('Vessel');
  requireRouting(route);
  const port = (name: string) => {
    const value = route.url.searchParams.get(name);
    if (!value) throw badRequest(`${name} is required`, name);
    const found = route.store.portById.get(value);
    if (!found) throw notFound('Port');
    return found;
  };
  const previous = port('previous_port_id');
  const next = port('port_id');
  const now = route.ctx.now;
  const positions = futurePositions(vessel, previous, next, route.store.containers, now);
  const here = positions[0]!;
  return {
    status: 200,
    body: {
      data: {
        id: vessel.id,
        type: 'vessel',
        attributes: {
          name: vessel.data.name,
          imo: vessel.data.imo,
          mmsi: vessel.data.mmsi,
          latitude: here.latitude,
          longitude: here.longitude,
          nautical_speed_knots: 17.5,
          navigational_heading_degrees: here.heading,
          position_timestamp: here.timestamp,
          positions,
        },
      },
      links: { self: `${route.origin}${route.url.pathname}${route.url.search}` },
    },
  };
}
