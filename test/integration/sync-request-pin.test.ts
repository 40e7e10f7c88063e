/**
 * What a sync costs, pinned: every request a full sync and an incremental sync an hour later make
 * of one fixed account (a sandbox whose clock stands still), counted by template (ids, times and
 * page numbers in braces). Any change of plan, a new per-record list, a budget or a freshness
 * rule changes one of these counts, and this test names the template that moved.
 */
import { describe, expect, it } from 'vitest';
import { SyncEngine } from '../../src/core/sync/engine';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

const START = Date.parse('2026-06-01T12:00:00Z');

/** A request as a template: path segments that are ids, and times, page numbers and cursors in values, in braces. */
export function requestTemplate(path: string): string {
  const url = new URL(path, 'http://api.invalid');
  const segments = url.pathname
    .replace(/^\/v2/, '')
    .split('/')
    .map((segment) => (/^[a-z_]*$/.test(segment) ? segment : '{id}'));
  const query = [...url.searchParams.entries()]
    .map(([key, value]) => {
      if (/updated_at|created_at|\[start\]|\[end\]/.test(key)) return `${key}={time}`;
      if (key === 'page[number]') return `${key}={n}`;
      if (/cursor|after|before/.test(key)) return `${key}={cursor}`;
      if (/^[0-9a-f-]{36}$/i.test(value)) return `${key}={id}`;
      return `${key}=${value}`;
    })
    .sort();
  return `${segments.join('/')}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

function countByTemplate(paths: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const path of paths) {
    const template = requestTemplate(path);
    counts[template] = (counts[template] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

describe('the requests a sync makes, pinned', () => {
  const sandbox = useSandbox({
    seed: 'request-pin',
    shipments: 20,
    routing: true,
    start: START,
    tick: 0,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
  });

  it('a full sync and an incremental one an hour later make exactly these requests', async () => {
    const paths: string[] = [];
    const sync = syncOf(sandbox.get(), { onRequest: (e) => paths.push(e.path) });
    let clock = START;
    const engine = new SyncEngine({
      db: sync.db,
      client: sync.client,
      meter: sync.meter,
      rateLimit: { limit: 1_000_000, windowMs: 60_000 },
      now: () => new Date(clock),
    });
    try {
      expect(await engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const full = countByTemplate(paths);
      paths.length = 0;
      sandbox.get().advance(3600);
      clock += 3_600_000;
      expect(await engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      const incremental = countByTemplate(paths);
      expect({ full, incremental }).toEqual(PINNED);
    } finally {
      sync.close();
    }
  });
});

const PINNED = {
  full: {
    '/containers/{id}/map_geojson': 10,
    '/containers/{id}/raw_events?page[size]=100': 30,
    '/containers?include=transport_events,transport_events.vessel,transport_events.terminal&page[size]=100': 1,
    '/custom_field_definitions/{id}/options?page[size]=100': 1,
    '/custom_field_definitions?page[size]=100': 1,
    '/custom_fields?filter[entity_type]=Container&page[size]=100': 1,
    '/custom_fields?filter[entity_type]=Shipment&page[size]=100': 1,
    '/custom_fields?filter[entity_type]=TrackingRequest&page[size]=100': 1,
    '/document_schemas/{id}': 5,
    '/documents?include=last_document_representation&page[size]=100': 1,
    '/email_submissions?include=documents,documents.last_document_representation&page[size]=100': 1,
    '/parties?page[size]=100': 1,
    '/shipments?filter[tracking_stopped]=false&include=containers,pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal&page[size]=100': 1,
    '/shipments?filter[tracking_stopped]=true&include=containers,pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal&page[size]=100': 1,
    '/shipping_lines?page[size]=100': 1,
    '/tracking_requests?page[size]=100': 1,
    '/vessels/{id}/future_positions?port_id={id}&previous_port_id={id}': 5,
  },
  incremental: {
    '/containers/{id}/map_geojson': 7,
    '/containers/{id}/raw_events?page[size]=100': 12,
    '/documents?include=last_document_representation&page[size]=100': 1,
    '/email_submissions?include=documents,documents.last_document_representation&page[size]=100': 1,
    '/shipments?filter[tracking_stopped]=false&include=containers,pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal&page[size]=100': 1,
    '/tracking_requests?filter[updated_at][start]={time}&page[size]=100': 1,
    '/vessels/{id}/future_positions?port_id={id}&previous_port_id={id}': 1,
    '/webhooks?page[size]=100': 1,
  },
};
