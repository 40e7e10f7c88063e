import { str } from '../store/resource';
import { columns, defineResource, idColumn, PAGE_SIZE, rawColumn, referenceWalks, syncedAtColumn } from './define';

const c = columns();

/** Custom field definitions: the names and types of the account's own fields. */
export const customFieldDefinitions = defineResource({
  name: 'customFieldDefinitions',
  types: ['custom_field_definition'],
  table: 'custom_field_definitions',
  api: { path: '/custom_field_definitions' },
  lookup: { title: 'display_name', path: '/custom_field_definitions/{id}' },
  writeRank: 100,
  columns: {
    id: idColumn,
    entity_type: c.text((r) => str(r.attributes.entity_type)),
    api_slug: c.text((r) => str(r.attributes.api_slug)),
    display_name: c.text((r) => str(r.attributes.display_name)),
    data_type: c.text((r) => str(r.attributes.data_type)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
  walks: [
    {
      key: 'reference:custom_field_definitions',
      order: 30,
      step: 'Custom fields',
      noun: 'custom fields',
      query: { 'page[size]': PAGE_SIZE },
      when: referenceWalks,
      estimate: 'one page',
    },
  ],
});
