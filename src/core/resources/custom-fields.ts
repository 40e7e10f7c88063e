import { relId, relType, str } from '../store/resource';
import {
  attribute,
  columns,
  defineResource,
  PAGE_SIZE,
  rawColumn,
  referenceWalks,
  relationship,
  syncedAtEpochColumn,
  uuidIdColumn,
} from './define';

const c = columns();

/** The value a record holds, as JSON text (null when unset). */
function valueJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** The text a list shows for a value: the service's `display_value`, else the value itself. */
function displayText(display: unknown, value: unknown): string | null {
  const shown = str(display);
  if (shown !== null) return shown;
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The record types values are kept on: the list's `filter[entity_type]`, the relationship's type, and in words. */
export const customFieldEntities = [
  { filter: 'Shipment', type: 'shipment', noun: 'shipments' },
  { filter: 'Container', type: 'container', noun: 'containers' },
  { filter: 'TrackingRequest', type: 'tracking_request', noun: 'tracking requests' },
] as const;

/** The walk of one record type's values (its key also names `unavailable:<key>` in sync_state). */
export const customFieldWalkKey = (filter: string) => `custom_fields:${filter}`;

/**
 * Custom field values on shipments, containers and tracking requests, walked once a day (with the
 * reference lists) through the paged `/custom_fields` list, one walk per record type. The live
 * service has been seen answering 500 on that list: the run then goes on and says so once, and a
 * record a user opens has its values read through its own `/<records>/{id}/custom_fields`.
 */
export const customFields = defineResource({
  name: 'customFields',
  types: ['custom_field'],
  table: 'custom_fields',
  api: { path: '/custom_fields' },
  writeRank: 130,
  columns: {
    // 16 bytes, not 36 characters, in the table and its index (migration 0009).
    id: uuidIdColumn,
    // Leads the indexes the lists sort and filter a field's values by (migration 0006). The record's
    // type, its id and the field's slug are kept as keys (migration 0010): the ids of the records
    // are interned already (their events name them), and a value's row and its three indexes each
    // held the 36-character id.
    entity_type_key: c.interned((r) => relType(r, 'entity'), { indexed: true }),
    entity_key: c.interned((r) => relId(r, 'entity'), {
      indexed: true,
      holds: relationship('entity', { typeIn: 'entity_type_key' }),
    }),
    // Not indexed (migration 0008): values are read by record and by slug, never by definition;
    // kept as a key (migration 0009).
    definition_key: c.internedRef('customFieldDefinitions', (r) => relId(r, 'definition'), {
      holds: relationship('definition', 'custom_field_definition'),
    }),
    api_slug_key: c.internedOf('api_slug'),
    value: c.text((r) => valueJson(r.attributes.value), { holds: attribute('value', 'json') }),
    display_value: c.text((r) => displayText(r.attributes.display_value, r.attributes.value), {
      holds: attribute('display_value'),
    }),
    raw: rawColumn,
    synced_at: syncedAtEpochColumn,
  },
  selfLink: '/v2/custom_fields/',
  walks: customFieldEntities.map((e, i) => ({
    key: customFieldWalkKey(e.filter),
    order: 80 + i,
    step: 'Custom field values',
    noun: `custom field values of ${e.noun}`,
    query: { 'page[size]': PAGE_SIZE, 'filter[entity_type]': e.filter },
    when: referenceWalks,
    estimate: 'one page' as const,
    unavailableNotice: `The Tracking API could not list the custom field values of ${e.noun} (it answered with a server error); Quayside reads a record's values when you open it, and asks for the list again at the next daily sync.`,
  })),
});
