import { coordinate, str } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';

const c = columns();

/** Ports, as the shipments, terminals and events that name them include them. */
export const ports = defineResource({
  name: 'ports',
  types: ['port'],
  table: 'ports',
  lookup: { title: 'name', alt: 'code', path: '/ports/{id}' },
  writeRank: 10,
  cacheUnchanged: true,
  columns: {
    id: idColumn,
    code: c.text((r) => str(r.attributes.code), { indexed: true }),
    name: c.text((r) => str(r.attributes.name)),
    city: c.text((r) => str(r.attributes.city)),
    state_abbr: c.text((r) => str(r.attributes.state_abbr)),
    country_code: c.text((r) => str(r.attributes.country_code)),
    time_zone: c.text((r) => str(r.attributes.time_zone)),
    // The live service sends the position as text ("35.10162"), the reference as numbers.
    latitude: c.real((r) => coordinate(r.attributes.latitude, 90)),
    longitude: c.real((r) => coordinate(r.attributes.longitude, 180)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
