import { relId, relType, str } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';

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

/** Custom field values on shipments, containers and tracking requests. */
export const customFields = defineResource({
  name: 'customFields',
  types: ['custom_field'],
  table: 'custom_fields',
  writeRank: 130,
  columns: {
    id: idColumn,
    entity_type: c.text((r) => relType(r, 'entity')),
    entity_id: c.text((r) => relId(r, 'entity'), { indexed: true }),
    definition_id: c.ref('customFieldDefinitions', (r) => relId(r, 'definition'), { indexed: true }),
    api_slug: c.text((r) => str(r.attributes.api_slug)),
    value: c.text((r) => valueJson(r.attributes.value)),
    display_value: c.text((r) => displayText(r.attributes.display_value, r.attributes.value)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
