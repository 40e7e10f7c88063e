import { storedInstant } from '../store/instant';
import { relId, relIdOfType, str, type StoredResource } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';
import { metroAreas } from './metro-areas';
import { ports } from './ports';

const c = columns();
const text = (name: string) => (r: StoredResource) => str(r.attributes[name]);
const instant = (name: string) => (r: StoredResource) => storedInstant(r.attributes[name]);

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
    container_id: c.ref('containers', (r) => relId(r, 'container'), { indexed: true }),
    // SQLite looks up child rows through this index when a shipment row is written.
    shipment_id: c.ref('shipments', (r) => relId(r, 'shipment'), { indexed: true }),
    event: c.text(text('event')),
    timestamp: c.text(instant('timestamp')),
    timezone: c.text(text('timezone')),
    location_locode: c.text(text('location_locode')),
    location_id: c.ref('ports', (r) => relIdOfType(r, 'location', ports.types)),
    metro_area_id: c.ref('metroAreas', (r) => relIdOfType(r, 'location', metroAreas.types)),
    terminal_id: c.ref('terminals', (r) => relId(r, 'terminal')),
    vessel_id: c.ref('vessels', (r) => relId(r, 'vessel')),
    voyage_number: c.text(text('voyage_number')),
    data_source: c.text(text('data_source')),
    created_at: c.text(instant('created_at')),
    // Set when the carrier withdrew or corrected the event: kept for history, never a milestone.
    invalidated_at: c.text(instant('invalidated_at')),
    // The event this one corrects (not a foreign key: the earlier version may not be synced yet).
    previous_version_id: c.text((r) => relId(r, 'previous_version'), { indexed: true }),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
