import { relId, relIdOfType } from '../store/resource';
import { columns, defineResource, rawColumn, relationship, syncedAtEpochColumn, uuidIdColumn } from './define';
import { metroAreas } from './metro-areas';
import { ports } from './ports';

const c = columns();

/** Transport events: a container's milestones, from container pages or fetched per container. */
export const transportEvents = defineResource({
  name: 'transportEvents',
  types: ['transport_event'],
  table: 'transport_events',
  api: { path: '/containers/{id}/transport_events', includes: ['location', 'vessel', 'terminal'] },
  writeRank: 80,
  // An event belongs to a container; without one it cannot be placed.
  accept: (r) => (relId(r, 'container') ?? '') !== '',
  // Ids and the few texts every event repeats (its kind, time zone, source) are kept as keys in
  // `interned`, its instants as epoch milliseconds, its own id (and the one it corrects) as 16
  // bytes (migration 0009): an event's row was mostly seven 36-character ids and four instants.
  columns: {
    id: uuidIdColumn,
    container_key: c.internedRef('containers', (r) => relId(r, 'container'), {
      indexed: true,
      holds: relationship('container', 'container'),
    }),
    // Not indexed (migration 0008): no query reads events by shipment.
    shipment_key: c.internedRef('shipments', (r) => relId(r, 'shipment'), {
      holds: relationship('shipment', 'shipment'),
    }),
    event_key: c.internedOf('event'),
    timestamp: c.epochOf('timestamp'),
    timezone_key: c.internedOf('timezone'),
    location_locode: c.textOf('location_locode'),
    location_key: c.internedRef('ports', (r) => relIdOfType(r, 'location', ports.types), {
      holds: relationship('location', 'port'),
    }),
    metro_area_key: c.internedRef('metroAreas', (r) => relIdOfType(r, 'location', metroAreas.types), {
      holds: relationship('location', 'metro_area'),
    }),
    terminal_key: c.internedRef('terminals', (r) => relId(r, 'terminal'), {
      holds: relationship('terminal', 'terminal'),
    }),
    vessel_key: c.internedRef('vessels', (r) => relId(r, 'vessel'), { holds: relationship('vessel', 'vessel') }),
    voyage_number: c.textOf('voyage_number'),
    data_source_key: c.internedOf('data_source'),
    created_at: c.epochOf('created_at'),
    // Set when the carrier withdrew or corrected the event: kept for history, never a milestone.
    invalidated_at: c.epochOf('invalidated_at'),
    // The event this one corrects (not a foreign key: the earlier version may not be synced yet).
    // Its index holds only the events that correct one (a partial index, migration 0009).
    previous_version_id: c.uuid((r) => relId(r, 'previous_version'), {
      indexed: true,
      holds: relationship('previous_version', 'transport_event'),
    }),
    raw: rawColumn,
    synced_at: syncedAtEpochColumn,
  },
  // raw keeps only what the columns do not hold (store/residual.ts): for most events, nothing.
  usual: { attributes: { value: null }, relationships: { source_event: { data: null } } },
});
