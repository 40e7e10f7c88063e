import { coordinate, str } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';

const c = columns();

/**
 * Metro areas: the inland places (a rail ramp's city) an event happens in or a shipment is bound
 * for, as events, shipments and rail terminals include them. One referenced but never included
 * (a stub) is fetched by id after the walks (`api.get`).
 */
export const metroAreas = defineResource({
  name: 'metroAreas',
  types: ['metro_area'],
  table: 'metro_areas',
  api: { get: '/metro_areas/{id}', fill: 'Metro areas' },
  lookup: { title: 'name', alt: 'code', path: '/metro_areas/{id}' },
  writeRank: 10,
  cacheUnchanged: true,
  columns: {
    id: idColumn,
    code: c.text((r) => str(r.attributes.code), { indexed: true }),
    name: c.text((r) => str(r.attributes.name)),
    state_abbr: c.text((r) => str(r.attributes.state_abbr)),
    country_code: c.text((r) => str(r.attributes.country_code)),
    time_zone: c.text((r) => str(r.attributes.time_zone)),
    latitude: c.real((r) => coordinate(r.attributes.latitude, 90)),
    longitude: c.real((r) => coordinate(r.attributes.longitude, 180)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
