import { defineView } from './define';

/**
 * Locations: where an event happened or a shipment is bound for, a port or a metro area (the
 * API's polymorphic `location` and `destination`). Not a resource of its own: the SQL view
 * `locations` (migration 0003) unites the two tables, `kind` saying which.
 */
export const locations = defineView({
  name: 'locations',
  view: { table: 'locations', sources: ['ports', 'metroAreas'] },
  columns: ['kind', 'id', 'code', 'name', 'city', 'state_abbr', 'country_code', 'time_zone'],
});
