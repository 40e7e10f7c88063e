import {
  badRequest,
  checkParams,
  listDocument,
  notFound,
  resourceDocument,
  type Reply,
  type RouteContext,
} from '../http';
import type { Entity } from '../serialize';
import { requireRouting } from './routing';

export function listShippingLines(route: RouteContext): Reply {
  const items = route.store.world.shippingLines.map((rec): Entity => ({ type: 'shipping_line', rec }));
  // The reference sends the whole list at once; the live service pages it like any other list.
  return listDocument(route, items, 'shipping_line', { paged: route.ctx.shape !== 'reference' });
}

export function getShippingLine(route: RouteContext): Reply {
  const id = route.params[0]!;
  const line = route.store.world.shippingLines.find((l) => l.id === id) ?? route.store.lineByScac.get(id.toUpperCase());
  if (!line) throw notFound('ShippingLine');
  return resourceDocument(route, { type: 'shipping_line', rec: line });
}

export function getTerminal(route: RouteContext): Reply {
  const id = route.params[0]!;
  const terminal = route.store.world.terminals.find((t) => t.id === id);
  if (!terminal) throw notFound('Terminal');
  return resourceDocument(route, { type: 'terminal', rec: terminal });
}

export function getPort(route: RouteContext): Reply {
  const id = route.params[0]!;
  const port = route.store.portById.get(id) ?? route.store.portByCode.get(id.toUpperCase());
  // Inland metro areas are not ports: GET /metro_areas/{id} serves them.
  if (!port || port.data.role === 'inland') throw notFound('Port');
  return resourceDocument(route, { type: 'port', rec: port });
}

/** A metro area by id or UN/LOCODE. */
export function getMetroArea(route: RouteContext): Reply {
  const id = route.params[0]!;
  const place = route.store.portById.get(id) ?? route.store.portByCode.get(id.toUpperCase());
  if (place?.data.role !== 'inland') throw notFound('MetroArea');
  return resourceDocument(route, { type: 'metro_area', rec: place });
}

export function getVessel(route: RouteContext): Reply {
  for (const name of route.url.searchParams.keys()) {
    // Vessel positions are a paid feature (SandboxOptions.routing); the vessel itself is not.
    if (name.startsWith('show_positions')) requireRouting(route);
  }
  const id = route.params[0]!;
  const vessel = route.store.vesselByImo.get(id) ?? route.store.world.vessels.find((v) => v.id === id);
  if (!vessel) throw notFound('Vessel');
  return resourceDocument(route, { type: 'vessel', rec: vessel });
}

const entityTypes = ['Shipment', 'Container', 'TrackingRequest'];

export function listCustomFieldDefinitions(route: RouteContext): Reply {
  const { url } = route;
  checkParams(route, ['filter[entity_type]', 'filter[data_type]', 'filter[display_name]']);
  const entityType = url.searchParams.get('filter[entity_type]');
  if (entityType !== null && !entityTypes.includes(entityType)) {
    throw badRequest(`filter[entity_type] must be one of ${entityTypes.join(', ')}`, 'filter[entity_type]');
  }
  const dataType = url.searchParams.get('filter[data_type]');
  const prefix = url.searchParams.get('filter[display_name]')?.toLowerCase() ?? null;
  const items = route.store.world.customFieldDefinitions
    .filter((d) => entityType === null || d.entityType === entityType)
    .filter((d) => dataType === null || d.dataType === dataType)
    .filter((d) => prefix === null || d.displayName.toLowerCase().startsWith(prefix))
    .map((rec): Entity => ({ type: 'custom_field_definition', rec }));
  return listDocument(route, items, 'custom_field_definition', { defaultSize: 25 });
}

export function getCustomFieldDefinition(route: RouteContext): Reply {
  const definition = route.store.world.customFieldDefinitions.find((d) => d.id === route.params[0]);
  if (!definition) throw notFound('CustomFieldDefinition');
  return resourceDocument(route, { type: 'custom_field_definition', rec: definition }, { selfLink: true });
}
