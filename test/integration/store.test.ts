import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/core/store/database';
import { maintainStore } from '../../src/core/store/maintenance';
import { countContainers, listContainers } from '../../src/core/store/queries/containers';
import { searchMatch } from '../../src/core/store/queries/keyset';
import { storedRecordOf } from '../../src/core/store/queries/raw';
import { containersWithChangedEvents } from '../../src/core/store/queries/sync-plan';
import { countShipments, iterateShipments, listShipments } from '../../src/core/store/queries/shipments';
import { countOncePerRun, writeResources } from '../../src/core/store/writer';
import { shipmentSortFields } from '../../src/shared/views';
import { containerResource, shipmentResource } from '../helpers/resources';
import { tempDir } from '../helpers/temp-dir';

function freshDb(): Db {
  return openDatabase(join(tempDir(), 'store.sqlite'));
}
const at = '2026-02-01T00:00:00Z';

describe('store writer', () => {
  it('writes a page twice with the same result, keeping every attribute in raw', () => {
    const db = freshDb();
    const shipment = shipmentResource({ unknown_new_attribute: { nested: [1, 2] } }, { id: 's1', containers: ['c1'] });
    const page = [shipment, containerResource('s1', {}, 'c1')];
    writeResources(db, page, { syncedAt: at });
    writeResources(db, page, { syncedAt: at });
    expect(db.prepare('SELECT count(*) AS n FROM shipments WHERE raw IS NOT NULL').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM containers').get()).toEqual({ n: 1 });
    const raw = JSON.parse((db.prepare("SELECT raw FROM shipments WHERE id = 's1'").get() as { raw: string }).raw);
    expect(raw.attributes.unknown_new_attribute).toEqual({ nested: [1, 2] });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('counts each record once while a run counts, though it writes it again; an earlier run’s records count', () => {
    const db = freshDb();
    const earlier = '2026-01-31T00:00:00.000Z';
    writeResources(db, [shipmentResource({}, { id: 's0' })], { syncedAt: earlier });
    const end = countOncePerRun(db, at);
    const page = (customer: string) => [
      shipmentResource({ customer_name: customer }, { id: 's1', containers: ['c1'] }),
      containerResource('s1', {}, 'c1'),
    ];
    expect(writeResources(db, page('Acme'), { syncedAt: at })).toEqual({ shipment: 1, container: 1 });
    // The same records again (a second walk, an include) and one written before the run: only it counts.
    const again = [...page('Acme Imports'), shipmentResource({}, { id: 's0' })];
    expect(writeResources(db, again, { syncedAt: '2026-02-01T00:05:00.000Z' })).toEqual({ shipment: 1 });
    // Written all the same: the later values are stored.
    expect(listShipments(db, { search: 'Acme Imports' }).rows.map((r) => r.id)).toEqual(['s1']);
    end();
    // The run over, writes count as before.
    expect(writeResources(db, page('Acme'), { syncedAt: '2026-02-01T00:10:00.000Z' })).toEqual({
      shipment: 1,
      container: 1,
    });
  });

  it('stubs references that have not arrived yet, then fills them in', () => {
    const db = freshDb();
    writeResources(db, [containerResource('s-late', {}, 'c-early')], { syncedAt: at });
    expect(db.prepare("SELECT raw FROM shipments WHERE id = 's-late'").get()).toEqual({ raw: null });
    expect(countShipments(db, {})).toBe(0); // a stub is not a shipment to show
    writeResources(db, [shipmentResource({}, { id: 's-late', containers: ['c-early'] })], { syncedAt: at });
    expect(countShipments(db, {})).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('keeps writing the rest of a page when a resource has an unknown type or is malformed', () => {
    const db = freshDb();
    const counts = writeResources(
      db,
      [
        { id: 'x', type: 'spaceship', attributes: {} },
        { id: 'e1', type: 'transport_event', attributes: {}, relationships: {} },
        shipmentResource(
          { bill_of_lading_number: 42, tags: 'not a list', pod_eta_at: { when: 'soon' } },
          { id: 's-odd' },
        ),
      ],
      { syncedAt: at },
    );
    expect(counts).toEqual({ shipment: 1 });
    expect(listShipments(db, {}).rows[0]).toMatchObject({ id: 's-odd', billOfLading: null, tags: [], eta: null });
  });

  it('keeps search rows in step with what changed, and leaves them alone when nothing did', () => {
    const db = freshDb();
    const page = (customer: string, number: string) => [
      shipmentResource({ customer_name: customer }, { id: 's1', containers: ['c1'] }),
      containerResource('s1', { number }, 'c1'),
    ];
    writeResources(db, page('Acme Imports', 'MSCU1234565'), { syncedAt: at });
    expect(countShipments(db, { search: 'Acme' })).toBe(1);
    expect(countContainers(db, { search: '1234565' })).toBe(1);
    // The same page again: the search tables are not written.
    const before = db.prepare('SELECT count(*) AS n FROM shipment_search_data').get();
    const beforeContainers = db.prepare('SELECT count(*) AS n FROM container_search_data').get();
    writeResources(db, page('Acme Imports', 'MSCU1234565'), { syncedAt: at });
    expect(db.prepare('SELECT count(*) AS n FROM shipment_search_data').get()).toEqual(before);
    expect(db.prepare('SELECT count(*) AS n FROM container_search_data').get()).toEqual(beforeContainers);
    // A new customer and a corrected number: found by the new text only.
    writeResources(db, page('Zenith Traders', 'TGHU7654321'), { syncedAt: at });
    expect(countShipments(db, { search: 'Acme' })).toBe(0);
    expect(countShipments(db, { search: 'Zenith' })).toBe(1);
    expect(countContainers(db, { search: '1234565' })).toBe(0);
    expect(countContainers(db, { search: '7654321' })).toBe(1);
    expect(db.prepare('SELECT count(*) AS n FROM shipment_search').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM container_search').get()).toEqual({ n: 1 });
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('merges search segments between pages, not inside a page write', () => {
    const db = freshDb();
    const segments = () =>
      (db.prepare('SELECT count(DISTINCT segid) AS n FROM shipment_search_idx').get() as { n: number }).n;
    for (let i = 0; i < 6; i++) {
      writeResources(db, [shipmentResource({ customer_name: `Customer ${i}` }, { id: `s${i}` })], { syncedAt: at });
    }
    // Automatic merging is off (migration 0002): each page left its own segment.
    expect(segments()).toBe(6);
    maintainStore(db, { checkpoint: true });
    expect(segments()).toBeLessThan(6);
    expect(countShipments(db, { search: 'Customer 3' })).toBe(1);
    expect(countShipments(db, { search: 'Customer' })).toBe(6);
  });

  it('marks a container changed only when something about the box changed', () => {
    const db = freshDb();
    writeResources(
      db,
      [shipmentResource({}, { id: 's1' }), containerResource('s1', { terminal_checked_at: 'a' }, 'c1')],
      { syncedAt: '2026-02-01T00:00:00Z' },
    );
    writeResources(db, [containerResource('s1', { terminal_checked_at: 'b' }, 'c1')], {
      syncedAt: '2026-02-02T00:00:00Z',
    });
    const changed = () =>
      (db.prepare("SELECT changed_at FROM containers WHERE id = 'c1'").get() as { changed_at: string }).changed_at;
    expect(changed()).toBe('2026-02-01T00:00:00Z');
    writeResources(db, [containerResource('s1', { pod_discharged_at: '2026-02-02T10:00:00Z' }, 'c1')], {
      syncedAt: '2026-02-03T00:00:00Z',
    });
    expect(changed()).toBe('2026-02-03T00:00:00Z');
  });

  it('leaves a rail box alone when only the time its railroad was last asked moved (no events fetched again)', () => {
    const db = freshDb();
    const onRail = (asked: string) =>
      containerResource(
        's1',
        { pod_rail_departed_at: '2026-02-01T06:00:00Z', rail_last_tracking_request_at: asked },
        'c1',
      );
    writeResources(db, [shipmentResource({}, { id: 's1' }), onRail('2026-02-01T07:00:00Z')], {
      syncedAt: '2026-02-01T08:00:00Z',
      eventsCompleteFor: ['c1'],
    });
    expect(containersWithChangedEvents(db)).toEqual([]);
    writeResources(db, [onRail('2026-02-02T07:00:00Z')], { syncedAt: '2026-02-02T08:00:00Z' });
    writeResources(db, [onRail('2026-02-03T07:00:00Z')], { syncedAt: '2026-02-03T08:00:00Z' });
    const changed = () =>
      (db.prepare("SELECT changed_at FROM containers WHERE id = 'c1'").get() as { changed_at: string }).changed_at;
    expect(changed()).toBe('2026-02-01T08:00:00Z');
    expect(containersWithChangedEvents(db)).toEqual([]);
    // The stored record is the newest all the same.
    const record = storedRecordOf(db, 'container', 'c1') as { attributes: Record<string, unknown> };
    expect(record.attributes.rail_last_tracking_request_at).toBe('2026-02-03T07:00:00Z');
  });
});

describe('store queries', () => {
  function seeded(): Db {
    const db = freshDb();
    const resources = [];
    for (let i = 0; i < 230; i++) {
      const id = `s${String(i).padStart(3, '0')}`;
      const eta = i % 7 === 0 ? null : new Date(Date.UTC(2026, 2, 1 + (i % 40), i % 24)).toISOString();
      resources.push(
        shipmentResource(
          {
            pod_eta_at: eta,
            customer_name: i % 5 === 0 ? null : `Customer ${i % 9}`,
            tags: i % 4 === 0 ? ['hot'] : [],
            created_at: i % 11 === 0 ? null : new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
            shipping_line_scac: ['MSCU', 'MAEU', 'CMDU'][i % 3],
          },
          { id, containers: [`${id}-c`] },
        ),
        containerResource(
          id,
          {
            number: `TGHU${String(100000 + i)}${i % 10}`,
            current_status: i % 3 === 0 ? 'available' : 'on_ship',
            available_for_pickup: i % 3 === 0,
            pickup_lfd: i % 3 === 0 ? new Date(Date.UTC(2026, 2, 1 + (i % 10), 8)).toISOString() : null,
          },
          `${id}-c`,
        ),
      );
    }
    writeResources(db, resources, { syncedAt: at });
    return db;
  }

  it('pages through every row in sort order with keyset cursors, for every sort field and both directions', () => {
    const db = seeded();
    const all = listShipments(db, {}, { limit: 1000 }).rows;
    expect(all).toHaveLength(230);
    for (const field of shipmentSortFields) {
      for (const direction of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        let after: string | undefined;
        do {
          const page = listShipments(db, {}, { sort: { field, direction }, limit: 37, after });
          seen.push(...page.rows.map((r) => r.id));
          after = page.next ?? undefined;
        } while (after);
        expect(new Set(seen).size, `${field} ${direction}`).toBe(230);
        expect(seen).toHaveLength(230);
        // The export's stream (sorted, or walking the created_at index) gives the same order.
        const streamed = [...iterateShipments(db, {}, { field, direction })].map((r) => r.id);
        expect(streamed, `${field} ${direction}`).toEqual(seen);
      }
    }
    // ETA ascending: known ETAs in order, unknown ones last.
    const byEta = [...iterateShipments(db, {}, { field: 'eta', direction: 'asc' })];
    const etas = byEta.map((r) => r.eta);
    const known = etas.filter((e): e is string => e !== null);
    expect(known).toEqual([...known].sort());
    expect(etas.slice(known.length).every((e) => e === null)).toBe(true);
  });

  it('streams any stretch of the ordered rows as the whole stream has them, across both phases', () => {
    const db = seeded();
    for (const sort of [undefined, { field: 'eta', direction: 'desc' } as const]) {
      const all = [...iterateShipments(db, {}, sort)].map((r) => r.id);
      expect(all).toHaveLength(230);
      // The default sort walks created_at's index in two phases: 209 dated rows, then 21 without.
      for (const [offset, limit] of [
        [0, 115],
        [115, null],
        [200, 9],
        [205, 10],
        [209, null],
        [215, 3],
        [230, null],
        [0, 0],
      ] as const) {
        const stretch = [...iterateShipments(db, {}, sort, {}, { offset, limit })].map((r) => r.id);
        expect(stretch, `${sort?.field ?? 'created_at'} ${offset}+${limit}`).toEqual(
          all.slice(offset, limit === null ? undefined : offset + limit),
        );
      }
    }
  });

  it('refuses a forged cursor with a clear error', () => {
    const db = seeded();
    expect(() => listShipments(db, {}, { after: 'not-a-cursor' })).toThrow(/page cursor/);
  });

  it('filters and counts the same rows it lists', () => {
    const db = seeded();
    const filters = { carriers: ['MSCU', 'MAEU'], tags: ['hot'] };
    const rows = [...iterateShipments(db, filters)];
    expect(rows.length).toBe(countShipments(db, filters));
    expect(rows.every((r) => ['MSCU', 'MAEU'].includes(r.carrierScac!) && r.tags.includes('hot'))).toBe(true);
    const due = { statuses: ['available' as const], lfdFrom: '2026-03-03T00:00:00Z', lfdTo: '2026-03-06T00:00:00Z' };
    const containers = listContainers(db, due, { limit: 500 }).rows;
    expect(containers.length).toBe(countContainers(db, due));
    expect(containers.length).toBeGreaterThan(0);
    for (const c of containers) expect(c.lfdDeadlineAt! >= due.lfdFrom && c.lfdDeadlineAt! <= due.lfdTo).toBe(true);
  });

  it('finds shipments and containers by any part of a number, and survives hostile search text', () => {
    const db = seeded();
    expect(listContainers(db, { search: '100042' }).rows.map((r) => r.number)).toEqual(['TGHU1000422']);
    expect(listShipments(db, { search: 'tghu1000422' }).rows.map((r) => r.id)).toEqual(['s042']);
    expect(countShipments(db, { search: 'Los Angeles' })).toBe(230);
    for (const hostile of [
      '"',
      '""',
      "'; DROP TABLE shipments; --",
      'NEAR(a b)',
      'body:x',
      '*',
      'a OR b',
      '^',
      '%_\\',
      '😀 上海',
      'x'.repeat(200),
    ]) {
      expect(() => listShipments(db, { search: hostile }), hostile).not.toThrow();
      expect(() => listContainers(db, { search: hostile }), hostile).not.toThrow();
    }
    expect(countShipments(db, {})).toBe(230);
    // Quotes in the input stay characters inside a quoted phrase; short words fall back to LIKE.
    expect(searchMatch('MSCU "12" ab')).toEqual({ match: '"MSCU" AND """12"""', likes: ['%ab%'] });
    expect(searchMatch('50%_')).toEqual({ match: '"50%_"', likes: [] });
    expect(searchMatch('a_')).toEqual({ match: null, likes: ['%a\\_%'] });
  });
});

describe('store writer after a rolled-back page', () => {
  it('writes a reference row again when the page that first carried it did not commit', () => {
    const db = freshDb();
    const port = { id: 'port-x', type: 'port', attributes: { code: 'USLAX', name: 'Los Angeles' } };
    expect(() =>
      writeResources(db, [port], {
        syncedAt: at,
        alsoInTransaction: () => {
          throw new Error('disk full');
        },
      }),
    ).toThrow('disk full');
    expect(db.prepare("SELECT count(*) AS n FROM ports WHERE id = 'port-x'").get()).toEqual({ n: 0 });
    writeResources(db, [port], { syncedAt: at });
    expect(db.prepare("SELECT name FROM ports WHERE id = 'port-x'").get()).toEqual({ name: 'Los Angeles' });
  });
});
