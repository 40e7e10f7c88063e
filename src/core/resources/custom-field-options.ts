import { num, relId, str } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';

const c = columns();

/**
 * The options of a pick-list custom field. The reference gives an option no relationship to its
 * definition: it is listed under `/custom_field_definitions/{id}/options`, read for each pick-list
 * definition whenever the definitions are walked (`api.under`), which sets `definition`.
 */
export const customFieldOptions = defineResource({
  name: 'customFieldOptions',
  types: ['custom_field_option'],
  table: 'custom_field_options',
  api: {
    under: {
      parent: 'customFieldDefinitions',
      path: '/custom_field_definitions/{id}/options',
      relationship: 'definition',
      key: 'definition_id',
      where: { column: 'data_type', values: ['enum', 'enum_multi'] },
      // Read again whenever the definitions are walked (their rows rewritten: once a day).
      fresh: { changed: 'synced_at', full: true, every: null },
      budget: 200,
      order: 'stored',
      step: 'Custom field options',
    },
  },
  writeRank: 105,
  columns: {
    id: idColumn,
    definition_id: c.ref('customFieldDefinitions', (r) => relId(r, 'definition'), { indexed: true }),
    label: c.text((r) => str(r.attributes.label)),
    value: c.text((r) => str(r.attributes.value)),
    position: c.integer((r) => num(r.attributes.position)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
