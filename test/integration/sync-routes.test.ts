/**
 * Routing (a paid feature): one sync stores the map of every box still on its way, the container
 * page reads it offline; an account without the feature is told once and the sync stops asking.
 */
import { describe, expect, it } from 'vitest';
import { routeOfContainer } from '../../src/core/handlers/routing';
import { ROUTING_RETRY_MS } from '../../src/core/sync/routes';
import { SyncEngine } from '../../src/core/sync/engine';
import { startTestSandbox, useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

const mapRequests = (paths: string[]) => paths.filter((p) => p.endsWith('/map_geojson'));

describe('route maps in the sync', () => {
  const sandbox = useSandbox({ seed: 'routes', shipments: 12, routing: true });

  it('stores the map of each box on its way with one request each, and asks again only once a box at sea is stale', async () => {
    const paths: string[] = [];
    const sync = syncOf(sandbox.get(), { onRequest: (e) => paths.push(e.path) });
    let clock = sandbox.get().clock.now();
    const engine = new SyncEngine({
      db: sync.db,
      client: sync.client,
      meter: sync.meter,
      rateLimit: { limit: 1000, windowMs: 60_000 },
      now: () => new Date(clock),
    });
    try {
      const summary = await engine.run({ mode: 'full' });
      expect(summary.status).toBe('ok');
      const asked = mapRequests(paths);
      expect(asked.length).toBeGreaterThan(0);
      expect(new Set(asked).size).toBe(asked.length);
      expect(summary.counts.container_route).toBe(asked.length);

      // A box at sea: ports named in order, a sailed line, the vessel, the rest estimated.
      const now = sandbox.get().clock.now();
      const atSea = sandbox
        .get()
        .store.containers.find(
          (c) =>
            c.createdAt <= now &&
            c.milestones.some((m) => m.key === 'vessel_departed' && m.reportedAt <= now) &&
            !c.milestones.some((m) => m.key === 'vessel_arrived' && m.reportedAt <= now),
        )!;
      const route = routeOfContainer(sync.db, atSea.id);
      expect(route.state).toBe('map');
      if (route.state !== 'map') throw new Error('no map');
      expect(route.ports[0]!.label).toBe('POL');
      expect(route.ports[0]!.name).toBe(atSea.shipment.pol.data.name);
      expect(route.ports.at(-1)!).toMatchObject({ label: 'POD', name: atSea.shipment.pod.data.name });
      expect(route.lines.map((l) => l.kind)).toEqual(expect.arrayContaining(['past', 'estimated']));
      expect(route.vessel?.name).toBeTruthy();

      // Its vessel's estimated track to the next port: asked once per vessel and leg, kept beside the map.
      const tracks = paths.filter((p) => p.includes('/future_positions'));
      expect(tracks.length).toBeGreaterThan(0);
      expect(tracks.length).toBeLessThanOrEqual(asked.length);
      expect(new Set(tracks).size).toBe(tracks.length);
      expect(tracks.every((p) => /^\/v2\/vessels\/[^/]+\/future_positions\?/.test(p))).toBe(true);
      expect(summary.counts.vessel_future_positions).toBe(tracks.length);
      expect(route.track).not.toBeNull();
      const track = route.track!;
      expect(track.vesselName).toBe(route.vessel!.name);
      expect(track.toName).toBe(route.vessel!.toName);
      expect(track.positions.length).toBeGreaterThan(2);
      // From where the vessel is, hour by hour, to the port it sails for.
      const [lon, lat] = track.positions[0]!.at;
      expect(Math.abs(lon - route.vessel!.at[0]) + Math.abs(lat - route.vessel!.at[1])).toBeLessThan(1);
      const times = track.positions.map((p) => Date.parse(p.time!));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      const next = route.ports.find((p) => p.name === route.vessel!.toName)!;
      const [lastLon, lastLat] = track.positions.at(-1)!.at;
      expect(Math.abs(lastLon - next.at[0]) + Math.abs(lastLat - next.at[1])).toBeLessThan(1);

      // An hour later nothing is due; seven hours later the boxes at sea are asked again.
      paths.length = 0;
      clock += 3_600_000;
      await engine.run({ mode: 'incremental' });
      expect(mapRequests(paths)).toEqual([]);
      clock += 6 * 3_600_000;
      await engine.run({ mode: 'incremental' });
      expect(mapRequests(paths)).toContain(`/v2/containers/${atSea.id}/map_geojson`);
    } finally {
      sync.close();
    }
  });
});

describe('an account without routing', () => {
  it('is refused once: one request, one 403, one sentence on the container page, and no more asking until a week has passed', async () => {
    const sandbox = await startTestSandbox({ seed: 'routes', shipments: 12, routing: false });
    const paths: { path: string; status: number | null }[] = [];
    const sync = syncOf(sandbox, { onRequest: (e) => paths.push({ path: e.path, status: e.status }) });
    let clock = sandbox.clock.now();
    const engine = new SyncEngine({
      db: sync.db,
      client: sync.client,
      meter: sync.meter,
      rateLimit: { limit: 1000, windowMs: 60_000 },
      now: () => new Date(clock),
    });
    try {
      expect(await engine.run({ mode: 'full' })).toMatchObject({ status: 'ok', error: null });
      const refused = paths.filter((p) => p.path.endsWith('/map_geojson'));
      // The first is asked alone: one 403, and no more; no vessel's positions either.
      expect(refused.map((p) => p.status)).toEqual([403]);
      expect(paths.filter((p) => p.path.includes('/future_positions'))).toEqual([]);
      const someId = sandbox.store.containers.find((c) => c.createdAt <= sandbox.clock.now())!.id;
      expect(routeOfContainer(sync.db, someId)).toMatchObject({
        state: 'not_entitled',
        reason:
          'Route maps are a paid feature of the Tracking API that this account does not have, so Quayside has stopped asking for them.',
      });

      paths.length = 0;
      clock += 12 * 3_600_000;
      await engine.run({ mode: 'incremental' });
      expect(paths.filter((p) => p.path.endsWith('/map_geojson'))).toEqual([]);

      // A week on, the account has bought it: one container is asked, and the maps come back.
      sandbox.setEntitlement('routing', true);
      clock += ROUTING_RETRY_MS;
      await engine.run({ mode: 'incremental' });
      expect(paths.filter((p) => p.path.endsWith('/map_geojson'))).toHaveLength(1);
      paths.length = 0;
      clock += 3_600_000;
      await engine.run({ mode: 'incremental' });
      expect(paths.filter((p) => p.path.endsWith('/map_geojson')).length).toBeGreaterThan(0);
    } finally {
      sync.close();
      await sandbox.close();
    }
  });
});
