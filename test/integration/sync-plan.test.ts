/**
 * The sync plan as the resource registry declares it: which lists a run reads, with which
 * query, and when the daily walks (reference lists, shipments no longer tracking) come round.
 */
import { describe, expect, it } from 'vitest';
import { SyncEngine } from '../../src/core/sync/engine';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

/** The first request of each list a run made (later pages follow links), decoded. */
function listRequests(paths: string[]): string[] {
  return paths
    .map((p) => decodeURIComponent(p).replace(/^\/v2/, ''))
    .filter((p) => !p.includes('page[number]') && !/^\/containers\/[^/?]+\//.test(p));
}

describe('the sync plan', () => {
  const sandbox = useSandbox({
    seed: 'plan',
    shipments: 40,
    routing: true,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
  });

  it('reads each walk of the registry on a full run, then only what changes until a day has passed', async () => {
    const paths: string[] = [];
    const sync = syncOf(sandbox.get(), { onRequest: (e) => paths.push(e.path) });
    let clock = Date.parse('2030-01-01T00:00:00Z');
    const steps = new Set<string>();
    const engine = new SyncEngine({
      db: sync.db,
      client: sync.client,
      meter: sync.meter,
      rateLimit: { limit: 1000, windowMs: 60_000 },
      now: () => new Date(clock),
      onProgress: (p) => steps.add(p.step),
    });
    try {
      expect(await engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const full = listRequests(paths);
      expect(full).toEqual(
        expect.arrayContaining([
          '/shipping_lines?page[size]=100',
          '/parties?page[size]=100',
          '/custom_field_definitions?page[size]=100',
          '/tracking_requests?page[size]=100',
          '/shipments?page[size]=100&filter[tracking_stopped]=false&include=containers,pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal',
          '/shipments?page[size]=100&filter[tracking_stopped]=true&include=containers,pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal',
          '/containers?page[size]=100&include=transport_events,transport_events.vessel,transport_events.terminal',
        ]),
      );
      expect([...steps]).toEqual(
        expect.arrayContaining([
          'Shipping lines',
          'Customers',
          'Custom fields',
          'Tracking requests',
          'Shipments still tracking',
          'Shipments no longer tracking',
          'Containers and their events',
          'Route maps',
        ]),
      );
      // Routing: one map per box still on its way (routes.ts), after the lists.
      expect(paths.filter((p) => p.endsWith('/map_geojson')).length).toBeGreaterThan(0);

      // An hour later: tracking requests from the cursor and still-tracking shipments only.
      paths.length = 0;
      clock += 3_600_000;
      expect(await engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      const soon = listRequests(paths);
      expect(soon.filter((p) => p.startsWith('/tracking_requests'))).toEqual([
        expect.stringMatching(/^\/tracking_requests\?page\[size\]=100&filter\[updated_at\]\[start\]=\d{4}-/),
      ]);
      expect(soon.filter((p) => p.startsWith('/shipments'))).toEqual([
        expect.stringContaining('filter[tracking_stopped]=false'),
      ]);
      expect(soon.filter((p) => /^\/(shipping_lines|parties|custom_field_definitions)/.test(p))).toEqual([]);

      // A day after the full run: the reference lists and the stopped shipments come round again.
      paths.length = 0;
      clock += 24 * 3_600_000;
      expect(await engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      const later = listRequests(paths).map((p) => p.split('?')[0]);
      expect(later).toEqual(
        expect.arrayContaining(['/shipping_lines', '/parties', '/custom_field_definitions', '/tracking_requests']),
      );
      expect(listRequests(paths).filter((p) => p.includes('filter[tracking_stopped]=true'))).toHaveLength(1);
    } finally {
      sync.close();
    }
  });
});
