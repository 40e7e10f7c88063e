/**
 * Custom field values (`/custom_fields`, and per record under shipments, containers and
 * tracking requests) and the options of pick-list definitions, as the reference describes them.
 */
import { definitionEntityType, valueProblem, type CustomFieldEntityType } from '../custom-fields';
import {
  badRequest,
  bodyData,
  checkParams,
  listDocument,
  listDocumentOf,
  notFound,
  resourceDocument,
  unprocessable,
  type Reply,
  type RouteContext,
} from '../http';
import type { CustomFieldDefinitionRec, CustomFieldRec } from '../model';
import type { Entity } from '../serialize';

export function entityOf(_route: RouteContext, rec: CustomFieldRec): Entity {
  return { type: 'custom_field', rec };
}

const typeOfFilter: Record<string, CustomFieldEntityType> = {
  Shipment: 'shipment',
  Container: 'container',
  TrackingRequest: 'tracking_request',
};

/** GET /custom_fields: every value, filtered by entity type, record or definition. */
export function listCustomFields(route: RouteContext): Reply {
  const { url } = route;
  checkParams(route, ['filter[entity_type]', 'filter[entity_id]', 'filter[definition_id]']);
  const typeName = url.searchParams.get('filter[entity_type]');
  if (typeName !== null && !(typeName in typeOfFilter)) {
    throw badRequest(
      `filter[entity_type] must be one of ${Object.keys(typeOfFilter).join(', ')}`,
      'filter[entity_type]',
    );
  }
  const entityId = url.searchParams.get('filter[entity_id]');
  const definitionId = url.searchParams.get('filter[definition_id]');
  const book = route.store.customFields;
  const now = route.ctx.now;
  const toEntity = (rec: CustomFieldRec) => entityOf(route, rec);
  if (entityId === null && definitionId === null && typeName !== null) {
    // The sync's walk: a page of a view, not the whole list rebuilt per page.
    return listDocumentOf(route, book.visible(typeOfFilter[typeName]!, now), toEntity, 'custom_field', {
      defaultSize: 25,
    });
  }
  const items = book
    .all(typeName === null ? null : typeOfFilter[typeName]!, now)
    .filter(
      (rec) =>
        (entityId === null || rec.entity.rec.id === entityId) &&
        (definitionId === null || rec.definition.id === definitionId),
    );
  return listDocumentOf(route, items, toEntity, 'custom_field', { defaultSize: 25 });
}

export function getCustomField(route: RouteContext): Reply {
  const rec = route.store.customFields.find(route.params[0]!, route.ctx.now);
  if (!rec) throw notFound('CustomField');
  return resourceDocument(route, entityOf(route, rec), { selfLink: true });
}

/** The record a per-record path (or a body) names, if it exists at the simulated time. */
export function recordOf(
  route: RouteContext,
  type: CustomFieldEntityType,
  id = route.params[0]!,
): CustomFieldRec['entity'] | null {
  const { store } = route;
  const found =
    type === 'shipment'
      ? store.shipmentById.get(id)
      : type === 'container'
        ? store.containerById.get(id)
        : store.trackingRequestById.get(id);
  if (!found || found.createdAt > route.ctx.now) return null;
  return { type, rec: found } as CustomFieldRec['entity'];
}

function pathRecord(route: RouteContext, type: CustomFieldEntityType): CustomFieldRec['entity'] {
  const entity = recordOf(route, type);
  if (!entity) {
    throw notFound({ shipment: 'Shipment', container: 'Container', tracking_request: 'TrackingRequest' }[type]);
  }
  return entity;
}

export function definitionOf(route: RouteContext, type: CustomFieldEntityType, slug: unknown, pointer: string) {
  const definition =
    typeof slug === 'string'
      ? route.store.customFields.definitionsFor(type).find((d) => d.apiSlug === slug)
      : undefined;
  if (!definition) {
    throw unprocessable([
      {
        pointer,
        detail: `No ${definitionEntityType[type]} custom field definition has api_slug '${String(slug).slice(0, 60)}'`,
        code: 'invalid',
      },
    ]);
  }
  return definition;
}

export function checkedValue(
  route: RouteContext,
  definition: CustomFieldDefinitionRec,
  attributes: Record<string, unknown>,
) {
  if (!('value' in attributes)) {
    throw unprocessable([{ pointer: '/data/attributes/value', detail: "Value can't be blank", code: 'blank' }]);
  }
  const value = attributes.value;
  const problem = valueProblem(definition, value, route.store.customFields.optionsOf(definition));
  if (problem)
    throw unprocessable([{ pointer: '/data/attributes/value', detail: `Value ${problem}`, code: 'invalid' }]);
  return value as CustomFieldRec['value'];
}

/** GET, POST, PATCH and DELETE of one record's values, for each record type. */
export function perRecord(type: CustomFieldEntityType) {
  return {
    list: (route: RouteContext): Reply => {
      const entity = pathRecord(route, type);
      const items = route.store.customFields.valuesOf(entity).map((rec) => entityOf(route, rec));
      return listDocument(route, items, 'custom_field', { defaultSize: 25 });
    },
    create: (route: RouteContext): Reply => {
      const entity = pathRecord(route, type);
      const { attributes } = bodyData(route, 'custom_field', { attributesRequired: true });
      const definition = definitionOf(route, type, attributes.api_slug, '/data/attributes/api_slug');
      const value = checkedValue(route, definition, attributes);
      const book = route.store.customFields;
      if (book.valuesOf(entity).some((v) => v.definition === definition)) {
        throw unprocessable([
          { pointer: '/data/attributes/api_slug', detail: 'Api slug has already been taken', code: 'taken' },
        ]);
      }
      const { rec } = book.set(entity, definition, value, route.ctx.now);
      return resourceDocument(route, entityOf(route, rec), { status: 201, selfLink: true });
    },
    update: (route: RouteContext): Reply => {
      const entity = pathRecord(route, type);
      const definition = route.store.customFields.definitionsFor(type).find((d) => d.apiSlug === route.params[1]);
      if (!definition) throw notFound('CustomField');
      const { attributes } = bodyData(route, 'custom_field', { attributesRequired: true });
      const value = checkedValue(route, definition, attributes);
      const { rec } = route.store.customFields.set(entity, definition, value, route.ctx.now);
      return resourceDocument(route, entityOf(route, rec), { selfLink: true });
    },
    remove: (route: RouteContext): Reply => {
      const entity = pathRecord(route, type);
      const definition = route.store.customFields.definitionsFor(type).find((d) => d.apiSlug === route.params[1]);
      if (!definition || !route.store.customFields.remove(entity, definition)) throw notFound('CustomField');
      return { status: 204 };
    },
  };
}

export function definitionById(route: RouteContext): CustomFieldDefinitionRec {
  const definition = route.store.world.customFieldDefinitions.find((d) => d.id === route.params[0]);
  if (!definition) throw notFound('CustomFieldDefinition');
  return definition;
}

/** GET /custom_field_definitions/{id}/options */
export function listOptions(route: RouteContext): Reply {
  const definition = definitionById(route);
  const items = route.store.customFields
    .optionsOf(definition)
    .map((rec): Entity => ({ type: 'custom_field_option', rec }));
  return listDocument(route, items, 'custom_field_option', { defaultSize: 25 });
}

/** GET /custom_field_definitions/{id}/options/{option_id} */
export function getOption(route: RouteContext): Reply {
  const definition = definitionById(route);
  const option = route.store.customFields.optionsOf(definition).find((o) => o.id === route.params[1]);
  if (!option) throw notFound('CustomFieldOption');
  return resourceDocument(route, { type: 'custom_field_option', rec: option }, { selfLink: true });
}
