import { relId, relIdOfType } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, relationship, syncedAtColumn } from './define';
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
  columns: {
    id: idColumn,
    container_id: c.ref('containers', (r) => relId(r, 'container'), {
      indexed: true,
      holds: relationship('container', 'container'),
    }),
    // Not indexed (migration 0008): no query reads events by shipment, and the writer's upsert never
    // changes a shipment's id, so SQLite never looks for its events through it.
    shipment_id: c.ref('shipments', (r) => relId(r, 'shipment'), { holds: relationship('shipment', 'shipment') }),
    event: c.textOf('event'),
    timestamp: c.instantOf('timestamp'),
    timezone: c.textOf('timezone'),
    location_locode: c.textOf('location_locode'),
    location_id: c.ref('ports', (r) => relIdOfType(r, 'location', ports.types), {
      holds: relationship('location', 'port'),
    }),
    metro_area_id: c.ref('metroAreas', (r) => relIdOfType(r, 'location', metroAreas.types), {
      holds: relationship('location', 'metro_area'),
    }),
    terminal_id: c.ref('terminals', (r) => relId(r, 'terminal'), { holds: relationship('terminal', 'terminal') }),
    vessel_id: c.ref('vessels', (r) => relId(r, 'vessel'), { holds: relationship('vessel', 'vessel') }),
    voyage_number: c.textOf('voyage_number'),
    data_source: c.textOf('data_source'),
    created_at: c.instantOf('created_at'),
    // Set when the carrier withdrew or corrected the event: kept for history, never a milestone.
    invalidated_at: c.instantOf('invalidated_at'),
    // The event this one corrects (not a foreign key: the earlier version may not be synced yet).
    previous_version_id: c.text((r) => relId(r, 'previous_version'), {
      indexed: true,
      holds: relationship('previous_version', 'transport_event'),
    }),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
  // raw keeps only what the columns do not hold (store/residual.ts): for most events, nothing.
  usual: { attributes: { value: null }, relationships: { source_event: { data: null } } },
});
