/**
 * What an account's admin does with custom fields through the API: create, edit and delete
 * definitions and the options of pick-list ones, and values by id under `/custom_fields`. Every
 * problem with a body is named at once (422, each with its pointer); an unknown id in the path is 404.
 */
import { valueProblem, type CustomFieldEntityType } from '../custom-fields';
import { bodyData, notFound, resourceDocument, unprocessable, type Reply, type RouteContext } from '../http';
import type { CustomFieldDefinitionRec, CustomFieldOptionRec, CustomFieldRec } from '../model';
import { checkedValue, definitionById, definitionOf, entityOf, recordOf } from './custom-fields';

type Problem = { pointer: string; detail: string; code?: string };

const entityTypes = ['Shipment', 'Container', 'TrackingRequest'] as const;
const dataTypes = ['short_text', 'number', 'date', 'datetime', 'boolean', 'enum', 'enum_multi'] as const;
const pickLists = new Set<string>(['enum', 'enum_multi']);
const SLUG = /^[a-z][a-z0-9_]{0,62}$/;
const at = (name: string) => `/data/attributes/${name}`;

/** Text that must be there: trimmed, at most `max` characters. */
function text(attributes: Record<string, unknown>, name: string, label: string, problems: Problem[], max = 255) {
  const value = attributes[name];
  if (typeof value !== 'string' || value.trim() === '') {
    problems.push({ pointer: at(name), detail: `${label} can't be blank`, code: 'blank' });
    return '';
  }
  if (value.trim().length > max) {
    problems.push({ pointer: at(name), detail: `${label} is too long (at most ${max} characters)`, code: 'too_long' });
  }
  return value.trim();
}

/** The optional settings a definition keeps as sent: validation, default format and default value. */
function settings(
  attributes: Record<string, unknown>,
  dataType: CustomFieldDefinitionRec['dataType'],
  problems: Problem[],
): Partial<CustomFieldDefinitionRec> {
  const out: Partial<CustomFieldDefinitionRec> = {};
  if ('validation' in attributes) {
    const v = attributes.validation;
    if (v !== null && (typeof v !== 'object' || Array.isArray(v))) {
      problems.push({ pointer: at('validation'), detail: 'Validation must be an object', code: 'invalid' });
    } else out.validation = v as Record<string, unknown> | null;
  }
  if ('default_format' in attributes) {
    const v = attributes.default_format;
    if (v !== null && typeof v !== 'string') {
      problems.push({ pointer: at('default_format'), detail: 'Default format must be text', code: 'invalid' });
    } else out.defaultFormat = v;
  }
  if ('default_value' in attributes) {
    // A new definition has no options yet, so a pick-list's default can only be empty.
    const problem = valueProblem({ dataType } as CustomFieldDefinitionRec, attributes.default_value, []);
    if (problem) problems.push({ pointer: at('default_value'), detail: `Default value ${problem}`, code: 'invalid' });
    else out.defaultValue = attributes.default_value as CustomFieldRec['value'];
  }
  return out;
}

function selfLinked(route: RouteContext, reply: Reply, path: string): Reply {
  (reply.body as Record<string, unknown>).links = { self: `${route.origin}/v2${path}` };
  return reply;
}

/** POST /custom_field_definitions */
export function createDefinition(route: RouteContext): Reply {
  const { attributes } = bodyData(route, 'custom_field_definition', { typeRequired: true, attributesRequired: true });
  const problems: Problem[] = [];
  const entityType = attributes.entity_type;
  if (!entityTypes.includes(entityType as (typeof entityTypes)[number])) {
    problems.push({
      pointer: at('entity_type'),
      detail: `Entity type must be one of ${entityTypes.join(', ')}`,
      code: 'inclusion',
    });
  }
  const slug = attributes.api_slug;
  if (typeof slug !== 'string' || !SLUG.test(slug)) {
    problems.push({
      pointer: at('api_slug'),
      detail: 'Api slug must start with a lowercase letter and hold only lowercase letters, digits and _',
      code: 'invalid',
    });
  } else if (route.store.world.customFieldDefinitions.some((d) => d.entityType === entityType && d.apiSlug === slug)) {
    problems.push({ pointer: at('api_slug'), detail: 'Api slug has already been taken', code: 'taken' });
  }
  const displayName = text(attributes, 'display_name', 'Display name', problems);
  const dataType = attributes.data_type as CustomFieldDefinitionRec['dataType'];
  const knownType = dataTypes.includes(dataType);
  if (!knownType) {
    problems.push({
      pointer: at('data_type'),
      detail: `Data type must be one of ${dataTypes.join(', ')}`,
      code: 'inclusion',
    });
  }
  const extra = knownType ? settings(attributes, dataType, problems) : {};
  if (problems.length > 0) throw unprocessable(problems);
  const definition = route.store.customFields.addDefinition({
    entityType: entityType as CustomFieldDefinitionRec['entityType'],
    apiSlug: slug as string,
    displayName,
    description: typeof attributes.description === 'string' ? attributes.description : null,
    dataType,
    ...extra,
  });
  const reply = resourceDocument(route, { type: 'custom_field_definition', rec: definition }, { status: 201 });
  reply.headers = { location: `${route.origin}/v2/custom_field_definitions/${definition.id}` };
  return selfLinked(route, reply, `/custom_field_definitions/${definition.id}`);
}

/** PATCH /custom_field_definitions/{id}: the display name and settings; what values hang on stays. */
export function editDefinition(route: RouteContext): Reply {
  const definition = definitionById(route);
  const { attributes } = bodyData(route, 'custom_field_definition', { typeRequired: true, attributesRequired: true });
  const problems: Problem[] = [];
  const fixed: [string, string, unknown][] = [
    ['entity_type', 'Entity type', definition.entityType],
    ['api_slug', 'Api slug', definition.apiSlug],
    ['data_type', 'Data type', definition.dataType],
  ];
  for (const [name, label, current] of fixed) {
    if (name in attributes && attributes[name] !== current) {
      problems.push({ pointer: at(name), detail: `${label} cannot be changed`, code: 'immutable' });
    }
  }
  const changes = settings(attributes, definition.dataType, problems);
  if ('display_name' in attributes) changes.displayName = text(attributes, 'display_name', 'Display name', problems);
  if (problems.length > 0) throw unprocessable(problems);
  Object.assign(definition, changes);
  return selfLinked(
    route,
    resourceDocument(route, { type: 'custom_field_definition', rec: definition }),
    `/custom_field_definitions/${definition.id}`,
  );
}

/** DELETE /custom_field_definitions/{id}: its options and every value of it go with it. */
export function deleteDefinition(route: RouteContext): Reply {
  route.store.customFields.removeDefinition(definitionById(route));
  return { status: 200 };
}

function optionById(route: RouteContext): { definition: CustomFieldDefinitionRec; option: CustomFieldOptionRec } {
  const definition = definitionById(route);
  const option = route.store.customFields.optionsOf(definition).find((o) => o.id === route.params[1]);
  if (!option) throw notFound('CustomFieldOption');
  return { definition, option };
}

function position(attributes: Record<string, unknown>, problems: Problem[]): number | null | undefined {
  if (!('position' in attributes)) return undefined;
  const value = attributes.position;
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    problems.push({ pointer: at('position'), detail: 'Position must be a whole number of 1 or more', code: 'invalid' });
    return undefined;
  }
  return value;
}

/** POST /custom_field_definitions/{id}/options */
export function createOption(route: RouteContext): Reply {
  const definition = definitionById(route);
  const { attributes } = bodyData(route, 'custom_field_option', { typeRequired: true, attributesRequired: true });
  const problems: Problem[] = [];
  if (!pickLists.has(definition.dataType)) {
    problems.push({
      pointer: '/data',
      detail: `Options belong to pick-list fields (enum, enum_multi); ${definition.displayName} is ${definition.dataType}`,
      code: 'invalid',
    });
  }
  const label = text(attributes, 'label', 'Label', problems);
  const value = text(attributes, 'value', 'Value', problems);
  const book = route.store.customFields;
  if (value !== '' && book.optionsOf(definition).some((o) => o.value === value)) {
    problems.push({ pointer: at('value'), detail: 'Value has already been taken', code: 'taken' });
  }
  const place = position(attributes, problems);
  if (problems.length > 0) throw unprocessable(problems);
  const option = book.addOption(definition, label, value, place ?? null);
  const reply = resourceDocument(route, { type: 'custom_field_option', rec: option }, { status: 201 });
  return selfLinked(route, reply, `/custom_field_definitions/${definition.id}/options/${option.id}`);
}

/** PATCH /custom_field_definitions/{id}/options/{option_id}: label and position; the value is what records hold. */
export function editOption(route: RouteContext): Reply {
  const { definition, option } = optionById(route);
  const { attributes } = bodyData(route, 'custom_field_option', { typeRequired: true, attributesRequired: true });
  const problems: Problem[] = [];
  if ('value' in attributes && attributes.value !== option.value) {
    problems.push({ pointer: at('value'), detail: 'Value cannot be changed', code: 'immutable' });
  }
  const label = 'label' in attributes ? text(attributes, 'label', 'Label', problems) : undefined;
  const place = position(attributes, problems);
  if (problems.length > 0) throw unprocessable(problems);
  route.store.customFields.editOption(option, { label, position: place });
  return selfLinked(
    route,
    resourceDocument(route, { type: 'custom_field_option', rec: option }),
    `/custom_field_definitions/${definition.id}/options/${option.id}`,
  );
}

/** DELETE /custom_field_definitions/{id}/options/{option_id} */
export function deleteOption(route: RouteContext): Reply {
  route.store.customFields.removeOption(optionById(route).option);
  return { status: 200 };
}

const recordTypes: readonly CustomFieldEntityType[] = ['shipment', 'container', 'tracking_request'];

/** POST /custom_fields: a value for the record `relationships.entity` names. */
export function createValue(route: RouteContext): Reply {
  const { attributes, relationships } = bodyData(route, 'custom_field', {
    typeRequired: true,
    attributesRequired: true,
  });
  const linkage = (relationships.entity as { data?: { type?: unknown; id?: unknown } } | undefined)?.data;
  const type = linkage?.type as CustomFieldEntityType;
  if (!recordTypes.includes(type) || typeof linkage?.id !== 'string') {
    throw unprocessable([
      {
        pointer: '/data/relationships/entity',
        detail: `Entity must name a ${recordTypes.join(', ')} by type and id`,
        code: 'blank',
      },
    ]);
  }
  const entity = recordOf(route, type, linkage.id);
  if (!entity) {
    throw unprocessable([
      {
        pointer: '/data/relationships/entity/data/id',
        detail: `No ${type} has id '${linkage.id.slice(0, 60)}'`,
        code: 'invalid',
      },
    ]);
  }
  const definition = definitionOf(route, type, attributes.api_slug, at('api_slug'));
  const value = checkedValue(route, definition, attributes);
  const book = route.store.customFields;
  if (book.valuesOf(entity).some((v) => v.definition === definition)) {
    throw unprocessable([{ pointer: at('api_slug'), detail: 'Api slug has already been taken', code: 'taken' }]);
  }
  const { rec } = book.set(entity, definition, value, route.ctx.now);
  const reply = resourceDocument(route, entityOf(route, rec), { status: 201 });
  return selfLinked(route, reply, `/custom_fields/${rec.id}`);
}

function valueById(route: RouteContext): CustomFieldRec {
  const rec = route.store.customFields.find(route.params[0]!, route.ctx.now);
  if (!rec) throw notFound('CustomField');
  return rec;
}

/** PATCH /custom_fields/{id} */
export function editValue(route: RouteContext): Reply {
  const current = valueById(route);
  const { attributes } = bodyData(route, 'custom_field', { attributesRequired: true });
  const value = checkedValue(route, current.definition, attributes);
  const { rec } = route.store.customFields.set(current.entity, current.definition, value, route.ctx.now);
  return resourceDocument(route, entityOf(route, rec), { selfLink: true });
}

/** DELETE /custom_fields/{id} */
export function deleteValue(route: RouteContext): Reply {
  const rec = valueById(route);
  route.store.customFields.remove(rec.entity, rec.definition);
  return { status: 200 };
}
