/**
 * A box's events-complete mark: written with its page's last slice, over a placeholder the box
 * was first written with, so the mark neither claims events a killed page never stored nor grows
 * the row (a row grown in a full page splits it, and the file keeps the empty half).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { containerDetail } from '../../src/core/details/details';
import { EVENTS_PENDING, owesEvents } from '../../src/core/resources/containers';
import { openDatabase, type Db } from '../../src/core/store/database';
import type { StoredResource } from '../../src/core/store/resource';
import { writeSlice } from '../../src/core/store/writer';
import { rank } from '../../src/core/store/writer-columns';
import { containerResource, shipmentResource } from '../helpers/resources';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

/** A box as the service lists it, naming its events. */
function box(shipment: string, i: number): StoredResource {
  const r = containerResource(shipment, { number: `MSCU${String(i).padStart(7, '0')}` }, `c${i}`);
  const events = [{ type: 'transport_event', id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }];
  return { ...r, relationships: { ...r.relationships, transport_events: { data: events } } };
}

const owing = (db: Db) =>
  db
    .prepare(`SELECT id FROM containers c WHERE synced_at IS NOT NULL AND ${owesEvents('c')} ORDER BY id`)
    .pluck()
    .all();

describe("a box's events-complete mark", { timeout: 120_000 }, () => {
  const sandbox = useSandbox({ seed: 'events-mark', shipments: 600 });

  it('rewrites the row in place: after a full sync (boxes written by the shipments walk, then with their events) their pages are full', async () => {
    const sync = syncOf(sandbox.get());
    expect((await sync.engine.run({ mode: 'full' })).status).toBe('ok');
    expect(owing(sync.db)).toEqual([]);
    const marked = sync.db
      .prepare('SELECT id FROM containers WHERE synced_at IS NOT NULL LIMIT 1')
      .pluck()
      .get() as string;
    expect(containerDetail(sync.db, marked).eventsSyncedAt).toMatch(/^20\d\d-/);
    sync.close();
    const stat = new Database(sync.dbPath);
    const leaves = stat
      .prepare(
        "SELECT count(*) AS pages, sum(unused) AS unused, sum(pgsize) AS size FROM dbstat WHERE name = 'containers' AND pagetype = 'leaf'",
      )
      .get() as { pages: number; unused: number; size: number };
    stat.close();
    expect(leaves.pages).toBeGreaterThan(50);
    // Appended rows leave only each page's tail empty (under a row); marks that grew the rows
    // split their pages and leave far more.
    expect(leaves.unused / leaves.size).toBeLessThan(0.09);
  });

  it('commits with the last slice: a page stopped between its slices leaves its boxes owing their events', () => {
    const db = openDatabase(join(tempDir(), 'sliced.sqlite'));
    const boxes = Array.from({ length: 6 }, (_, i) => box('s0', i));
    const sorted = [shipmentResource({}, { id: 's0', containers: boxes.map((b) => b.id) }), ...boxes].sort(
      (a, b) => rank(a.type) - rank(b.type),
    );
    const options = { syncedAt: '2026-03-01T00:00:00.000Z', eventsCompleteFor: boxes.map((b) => b.id) };
    // A deadline already passed: one resource a slice.
    let slice = writeSlice(db, sorted, 0, 0, options);
    while (slice.next < sorted.length) slice = writeSlice(db, sorted, slice.next, 0, options);
    // Every box written, the page not done: the process could die here.
    expect(slice.done).toBe(false);
    expect(db.prepare('SELECT count(*) FROM containers WHERE synced_at IS NOT NULL').pluck().get()).toBe(6);
    expect(owing(db)).toEqual(boxes.map((b) => b.id).sort());
    expect(containerDetail(db, 'c0').eventsSyncedAt).toBeNull();
    // Each holds the placeholder, as long as the mark that will replace it.
    const stored = db.prepare('SELECT DISTINCT events_synced_at FROM containers').pluck().all();
    expect(stored).toEqual([EVENTS_PENDING]);
    expect(EVENTS_PENDING).toHaveLength(options.syncedAt.length);
    slice = writeSlice(db, sorted, slice.next, Infinity, options);
    expect(slice.done).toBe(true);
    expect(owing(db)).toEqual([]);
    expect(containerDetail(db, 'c0').eventsSyncedAt).toBe('2026-03-01T00:00:00.000Z');
    db.close();
  });
});
