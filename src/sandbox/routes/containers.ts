import {
  HttpError,
  bodyData,
  checkParams,
  listDocument,
  notFound,
  resourceDocument,
  stringArray,
  unprocessable,
  type Reply,
  type RouteContext,
} from '../http';
import type { ContainerPlan } from '../model';
import { related, serialize, type Entity } from '../serialize';

const entity = (rec: ContainerPlan): Entity => ({ type: 'container', rec });

export function listContainers(route: RouteContext): Reply {
  checkParams(route, ['filter[number]']);
  const now = route.ctx.now;
  const number = route.url.searchParams.get('filter[number]')?.trim().toUpperCase() || null;
  const items: Entity[] = [];
  for (const c of route.store.containers) {
    if (c.createdAt > now) continue;
    if (number !== null && c.number !== number) continue;
    items.push(entity(c));
  }
  return listDocument(route, items, 'container');
}

function findContainer(route: RouteContext): ContainerPlan {
  const container = route.store.containerById.get(route.params[0]!);
  if (!container || container.createdAt > route.ctx.now) throw notFound('Container');
  return container;
}

export function getContainer(route: RouteContext): Reply {
  return resourceDocument(route, entity(findContainer(route)));
}

/**
 * `PATCH /containers`: a container's reference numbers. The reference's path names no container,
 * so the body does, by `data.id`.
 */
export function editContainer(route: RouteContext): Reply {
  const { attributes } = bodyData(route, 'container', { typeRequired: true, attributesRequired: true });
  const id = (route.body as { data: { id?: unknown } }).data.id;
  if (typeof id !== 'string' || id === '') {
    throw unprocessable([{ pointer: '/data/id', detail: 'Id must name the container to edit', code: 'blank' }]);
  }
  const container = findContainer({ ...route, params: [id] });
  if (attributes.ref_numbers !== undefined) {
    container.refNumbers = [...stringArray(attributes.ref_numbers, '/data/attributes/ref_numbers')];
  }
  return resourceDocument(route, entity(container));
}

export function listTransportEvents(route: RouteContext): Reply {
  const container = findContainer(route);
  const events = related(entity(container), 'transport_events', route.ctx);
  return listDocument(route, Array.isArray(events) ? events : [], 'transport_event', { defaultSize: 100 });
}

export function listRawEvents(route: RouteContext): Reply {
  const container = findContainer(route);
  const events = related(entity(container), 'raw_events', route.ctx);
  const list = Array.isArray(events) ? events : [];
  return { status: 200, body: { data: list.map((e) => serialize(e, route.ctx)) } };
}

/**
 * `PATCH /containers/{id}/refresh`: schedules a refresh from the container's sources. A paid
 * feature (403 without it, in the reference's words); its own bucket of 10 a minute is kept by the
 * server's limiter. The answer is plain JSON, `{ message }`, as the reference shows.
 */
export function refreshContainer(route: RouteContext): Reply {
  if (!route.store.containerRefresh) {
    throw new HttpError(403, [
      {
        status: '403',
        title: 'API access not enabled',
        detail: 'This API endpoint is not enabled for your account. Please contact support@terminal49.com',
      },
    ]);
  }
  const container = findContainer(route);
  const sources = ['Shipping line', 'Terminal'];
  if (container.shipment.rail) sources.push('Rail');
  return { status: 200, body: { message: `Started refresh for ${sources.join(', ')}` } };
}
