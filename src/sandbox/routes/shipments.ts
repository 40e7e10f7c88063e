import {
  bodyData,
  booleanParam,
  checkParams,
  HttpError,
  listDocument,
  notFound,
  resourceDocument,
  stringArray,
  unprocessable,
  type Reply,
  type RouteContext,
} from '../http';
import type { ShipmentPlan } from '../model';
import type { Entity } from '../serialize';
import { trackingStop } from '../state';

const entity = (rec: ShipmentPlan): Entity => ({ type: 'shipment', rec });

export function listShipments(route: RouteContext): Reply {
  const { url } = route;
  checkParams(route, ['filter[tracking_stopped]']);
  const now = route.ctx.now;
  const q = url.searchParams.get('q')?.trim().toUpperCase() || null;
  const number = url.searchParams.get('number')?.trim().toUpperCase() || null;
  const stopped = booleanParam(url, 'filter[tracking_stopped]');
  const items: Entity[] = [];
  for (const s of route.store.shipments) {
    if (s.createdAt > now) continue;
    if (number !== null && s.billOfLading !== number && s.bookingNumber !== number) continue;
    if (
      q !== null &&
      !s.billOfLading.includes(q) &&
      !s.refNumbers.some((r) => r.toUpperCase().includes(q)) &&
      !s.containers.some((c) => c.number.includes(q))
    ) {
      continue;
    }
    if (stopped !== null && (trackingStop(s, now) !== null) !== stopped) continue;
    items.push(entity(s));
  }
  return listDocument(route, items, 'shipment');
}

function findShipment(route: RouteContext): ShipmentPlan {
  const shipment = route.store.shipmentById.get(route.params[0]!);
  if (!shipment || shipment.createdAt > route.ctx.now) throw notFound('Shipment');
  return shipment;
}

export function getShipment(route: RouteContext): Reply {
  return resourceDocument(route, entity(findShipment(route)));
}

/** Editable through PATCH; everything else about a shipment comes from the line. */
const editable = ['ref_numbers', 'tags'];

export function editShipment(route: RouteContext): Reply {
  const shipment = findShipment(route);
  const { attributes } = bodyData(route, 'shipment', { attributesRequired: true });
  const unknown = Object.keys(attributes).filter((name) => !editable.includes(name));
  if (unknown.length > 0) {
    throw unprocessable(
      unknown.map((name) => ({
        pointer: `/data/attributes/${name}`,
        detail: `${name} is not an editable attribute`,
        code: 'invalid',
      })),
    );
  }
  if (attributes.ref_numbers !== undefined) {
    shipment.refNumbers = stringArray(attributes.ref_numbers, '/data/attributes/ref_numbers')
      .map((r) => r.trim())
      .filter(Boolean);
  }
  if (attributes.tags !== undefined) {
    const tags = stringArray(attributes.tags, '/data/attributes/tags')
      .map((t) => t.trim())
      .filter(Boolean);
    if (new Set(tags).size !== tags.length) {
      throw unprocessable([{ pointer: '/data/attributes/tags', detail: 'Tags must be unique', code: 'taken' }]);
    }
    shipment.tags = tags;
  }
  return resourceDocument(route, entity(shipment));
}

export function stopTracking(route: RouteContext): Reply {
  const shipment = findShipment(route);
  if (trackingStop(shipment, route.ctx.now) === null) shipment.stoppedByUserAt = route.ctx.now;
  return resourceDocument(route, entity(shipment));
}

export function resumeTracking(route: RouteContext): Reply {
  const shipment = findShipment(route);
  const stop = trackingStop(shipment, route.ctx.now);
  if (stop && !stop.byUser) {
    throw new HttpError(422, [
      {
        status: '422',
        title: 'Unprocessable Entity',
        detail: `Tracking stopped because ${stop.reason.replace(/_/g, ' ')} and cannot be resumed`,
        source: { pointer: '/data' },
      },
    ]);
  }
  if (shipment.stoppedByUserAt !== null) {
    shipment.stoppedByUserAt = null;
    shipment.resumedAt = route.ctx.now;
  }
  return resourceDocument(route, entity(shipment));
}
