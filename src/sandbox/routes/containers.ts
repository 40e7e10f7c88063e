import { checkParams, listDocument, notFound, resourceDocument, type Reply, type RouteContext } from '../http';
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
