/** Routing, a paid feature: a container's map GeoJSON and a vessel's future positions (403 without it). */
import { badRequest, HttpError, notFound, type Reply, type RouteContext } from '../http';
import type { PortRec, VesselRec } from '../model';
import { futurePositions, futurePositionsFrom, mapGeoJson } from '../routing';

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

function vesselOf(route: RouteContext): VesselRec {
  const id = route.params[0]!;
  const vessel = route.store.world.vessels.find((v) => v.id === id) ?? route.store.vesselByImo.get(id);
  if (!vessel) throw notFound('Vessel');
  requireRouting(route);
  return vessel;
}

function portParam(route: RouteContext, name: string): PortRec {
  const value = route.url.searchParams.get(name);
  if (!value) throw badRequest(`${name} is required`, name);
  const found = route.store.portById.get(value);
  if (!found) throw notFound('Port');
  return found;
}

/** A coordinate parameter: a decimal number within `limit` degrees either side of zero. */
function degreesParam(route: RouteContext, name: string, limit: number): number {
  const raw = route.url.searchParams.get(name);
  if (raw === null || raw.trim() === '') throw badRequest(`${name} is required`, name);
  const value = Number(raw);
  if (!/^-?\d+(\.\d+)?$/.test(raw.trim()) || Math.abs(value) > limit) {
    throw badRequest(`${name} must be a number from -${limit} to ${limit}`, name);
  }
  return value;
}

function positionsDocument(route: RouteContext, vessel: VesselRec, positions: ReturnType<typeof futurePositions>) {
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

export function getVesselFuturePositions(route: RouteContext): Reply {
  const vessel = vesselOf(route);
  const previous = portParam(route, 'previous_port_id');
  const next = portParam(route, 'port_id');
  const now = route.ctx.now;
  return positionsDocument(route, vessel, futurePositions(vessel, previous, next, route.store.containers, now));
}

/** From a position the caller gives (`latitude`, `longitude`) rather than where the plan has the vessel. */
export function getVesselFuturePositionsWithCoordinates(route: RouteContext): Reply {
  const vessel = vesselOf(route);
  const previous = portParam(route, 'previous_port_id');
  const next = portParam(route, 'port_id');
  const at: [number, number] = [degreesParam(route, 'longitude', 180), degreesParam(route, 'latitude', 90)];
  return positionsDocument(route, vessel, futurePositionsFrom(at, previous, next, route.ctx.now));
}
