import { num, relId } from '../store/resource';
import { attribute, columns, defineResource, idColumn, rawColumn, relationship, syncedAtColumn } from './define';

const c = columns();

/**
 * A container's raw events: the milestones as its carrier reported them, each with the carrier's
 * own wording (`original_event`) beside the service's normalised `event`, estimates of future
 * milestones included. Listed under `/containers/{id}/raw_events` (`api.under`), one request per
 * box: read for a box whose own data changed since its list was read, the most urgent boxes
 * first, a budget a run (the service's transport events stay the milestones; these add words).
 */
export const rawEvents = defineResource({
  name: 'rawEvents',
  types: ['raw_event'],
  table: 'raw_events',
  api: {
    under: {
      parent: 'containers',
      path: '/containers/{id}/raw_events',
      relationship: 'container',
      key: 'container_id',
      fresh: { changed: 'changed_at', full: false, every: null },
      budget: 30,
      order: 'urgent',
      step: "Carriers' own events",
    },
  },
  writeRank: 85,
  accept: (r) => (relId(r, 'container') ?? '') !== '',
  columns: {
    id: idColumn,
    container_id: c.ref('containers', (r) => relId(r, 'container'), {
      indexed: true,
      holds: relationship('container', 'container'),
    }),
    event: c.textOf('event'),
    original_event: c.textOf('original_event'),
    timestamp: c.instantOf('timestamp'),
    estimated: c.integer((r) => (typeof r.attributes.estimated === 'boolean' ? Number(r.attributes.estimated) : null), {
      holds: attribute('estimated', 'flag'),
    }),
    location_name: c.textOf('location_name'),
    vessel_name: c.textOf('vessel_name'),
    voyage_number: c.textOf('voyage_number'),
    position: c.integer((r) => num(r.attributes.index)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
