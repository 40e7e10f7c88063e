import { relId, str } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';

const c = columns();

/** Terminals (and rail terminals), as shipments, containers and events include them. */
export const terminals = defineResource({
  name: 'terminals',
  types: ['terminal', 'rail_terminal'],
  table: 'terminals',
  lookup: { title: 'name', path: '/terminals/{id}' },
  writeRank: 20,
  cacheUnchanged: true,
  columns: {
    id: idColumn,
    port_id: c.ref('ports', (r) => relId(r, 'port')),
    // A rail terminal's city (metro_area relationship); ocean terminals have none.
    metro_area_id: c.ref('metroAreas', (r) => relId(r, 'metro_area')),
    name: c.text((r) => str(r.attributes.name)),
    nickname: c.text((r) => str(r.attributes.nickname)),
    firms_code: c.text((r) => str(r.attributes.firms_code)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
