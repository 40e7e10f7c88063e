/**
 * Metro areas synced through the registry. They arrive as includes (a rail
 * shipment's destination, a rail event's location, a rail terminal's city) into their own table;
 * one referenced but never included (a stub) is fetched by GET /metro_areas/{id} in the plan's
 * stub-fill step, once per stub, and not again once filled.
 */
import { describe, expect, it } from 'vitest';
import { countResources } from '../../src/core/store/sync-state';
import { useHostileProxy, type HostileProxyOptions, type ProxiedRequest } from '../helpers/hostile-proxy';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';

interface Resource {
  id: string;
  type: string;
  relationships?: Record<string, { data: unknown }>;
}

const pathOf = (request: ProxiedRequest) => new URL(request.url, 'http://proxy.invalid').pathname;
const metroRequests = (requests: ProxiedRequest[]) =>
  requests.filter((r) => pathOf(r).startsWith('/v2/metro_areas/')).map((r) => decodeURIComponent(pathOf(r).slice(16)));

describe('metro areas', { timeout: 90_000 }, () => {
  const sandbox = useSandbox({ seed: 'metro', shipments: 80 });
  let dropIncluded = false;
  // A service that names metro areas but never includes them: every one is a stub after the walks.
  const rewrite: HostileProxyOptions['rewrite'] = (request, answer) => {
    if (!dropIncluded || request.method !== 'GET' || answer.status !== 200) return undefined;
    const doc = answer.json as { included?: Resource[] } | null;
    if (!doc?.included) return undefined;
    doc.included = doc.included.filter((r) => r.type !== 'metro_area');
    return { status: 200, headers: answer.headers, body: doc };
  };
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url, rewrite }));

  it('arrive as includes into their own table, referenced by shipments, events and rail terminals', async () => {
    dropIncluded = false;
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url });
    try {
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const { db } = sync;
      const areas = db.prepare('SELECT code, name, time_zone, raw IS NOT NULL AS synced FROM metro_areas').all() as {
        code: string;
        synced: number;
      }[];
      expect(areas.length).toBeGreaterThan(2);
      expect(areas.every((a) => a.synced === 1)).toBe(true);
      // `quayside status` counts them.
      expect(countResources(db).metro_areas).toBe(areas.length);
      // Not one metro area is kept as a port any more.
      expect(db.prepare("SELECT count(*) FROM ports WHERE json_extract(raw, '$.type') <> 'port'").pluck().get()).toBe(
        0,
      );
      const codes = new Set(areas.map((a) => a.code));
      expect(
        db
          .prepare('SELECT code FROM ports')
          .pluck()
          .all()
          .filter((c) => codes.has(c as string)),
      ).toEqual([]);
      const bound = db
        .prepare(
          `SELECT s.destination_locode AS locode, m.code FROM shipments s JOIN metro_areas m ON m.id = s.destination_metro_area_id`,
        )
        .all() as { locode: string; code: string }[];
      expect(bound.length).toBeGreaterThan(0);
      for (const b of bound) expect(b.code).toBe(b.locode);
      expect(
        db
          .prepare(
            `SELECT count(*) FROM transport_events e JOIN interned i ON i.key = e.metro_area_key
             JOIN metro_areas m ON m.id = i.text`,
          )
          .pluck()
          .get(),
      ).toBeGreaterThan(0);
      expect(
        db
          .prepare(
            `SELECT count(*) FROM terminals t JOIN metro_areas m ON m.id = t.metro_area_id
             WHERE json_extract(t.raw, '$.type') = 'rail_terminal'`,
          )
          .pluck()
          .get(),
      ).toBeGreaterThan(0);
      // Every one was included: the fill step asked for none.
      expect(metroRequests(proxy.get().requests)).toEqual([]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      sync.close();
    }
  });

  it('referenced but never included: each stub is fetched by id once, and a later run asks for none', async () => {
    dropIncluded = true;
    proxy.get().requests.length = 0;
    const steps = new Set<string>();
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url, onProgress: (p) => steps.add(p.step) });
    try {
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const { db } = sync;
      // The ids the pages named (shipments' destinations, events' locations, rail terminals' cities)…
      const named = db.prepare('SELECT id FROM metro_areas ORDER BY id').pluck().all() as string[];
      expect(named.length).toBeGreaterThan(2);
      // …each asked for once, in the plan's own step, and every stub filled.
      expect(metroRequests(proxy.get().requests).sort()).toEqual(named);
      expect(steps).toContain('Metro areas');
      expect(db.prepare('SELECT count(*) FROM metro_areas WHERE raw IS NULL').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM metro_areas WHERE code IS NULL OR time_zone IS NULL').pluck().get()).toBe(
        0,
      );

      proxy.get().requests.length = 0;
      expect(await sync.engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      expect(metroRequests(proxy.get().requests)).toEqual([]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      sync.close();
    }
  });

  it('a metro area the service does not have fails nothing and is not asked for again on every run', async () => {
    dropIncluded = true;
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url });
    try {
      proxy.get().set({
        rewrite,
        intercept: (request) =>
          pathOf(request).startsWith('/v2/metro_areas/')
            ? { status: 404, body: { errors: [{ status: '404', title: 'Not Found' }] } }
            : undefined,
      });
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const stubs = sync.db.prepare('SELECT id FROM metro_areas WHERE raw IS NULL ORDER BY id').pluck().all();
      expect(stubs.length).toBeGreaterThan(0);
      expect(metroRequests(proxy.get().requests).sort()).toEqual(stubs);

      // The next runs do not spend requests on them again (they are retried after a week).
      proxy.get().requests.length = 0;
      expect(await sync.engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      expect(metroRequests(proxy.get().requests)).toEqual([]);
    } finally {
      proxy.get().set({ rewrite });
      sync.close();
    }
  });

  it('a failing service stops the step at the first failure; the run ends well and the next run asks again', async () => {
    dropIncluded = true;
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url });
    try {
      proxy.get().requests.length = 0;
      proxy.get().set({
        rewrite,
        intercept: (request) =>
          pathOf(request).startsWith('/v2/metro_areas/')
            ? { status: 400, body: { errors: [{ status: '400', title: 'Bad Request' }] } }
            : undefined,
      });
      expect(await sync.engine.run({ mode: 'full' })).toMatchObject({ status: 'ok' });
      const failed = metroRequests(proxy.get().requests);
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.length).toBeLessThanOrEqual(3);

      // The service is well again: the stubs it failed on are asked for and filled.
      proxy.get().requests.length = 0;
      proxy.get().set({ rewrite });
      expect(await sync.engine.run({ mode: 'incremental' })).toMatchObject({ status: 'ok' });
      expect(metroRequests(proxy.get().requests)).toEqual(expect.arrayContaining(failed));
      expect(sync.db.prepare('SELECT count(*) FROM metro_areas WHERE raw IS NULL').pluck().get()).toBe(0);
    } finally {
      proxy.get().set({ rewrite });
      sync.close();
    }
  });
});
