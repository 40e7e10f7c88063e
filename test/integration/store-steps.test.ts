import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/core/store/database';
import { countContainers, listContainers } from '../../src/core/store/queries/containers';
import { countShipments } from '../../src/core/store/queries/shipments';
import { readState, writeState } from '../../src/core/store/sync-state';
import { writeResources } from '../../src/core/store/writer';
import { writeResourcesInSteps } from '../../src/core/store/writer-steps';
import type { StoredResource } from '../../src/core/store/resource';
import { containerResource, shipmentResource } from '../helpers/resources';
import { tempDir } from '../helpers/temp-dir';

const at = '2026-02-01T00:00:00Z';

/** A page as the shipments walk gets it: 40 shipments, each with two containers (included). */
function page(): StoredResource[] {
  const shipments = Array.from({ length: 40 }, (_, i) =>
    shipmentResource({ customer_name: `Customer ${i}` }, { id: `s${i}`, containers: [`c${i}a`, `c${i}b`] }),
  );
  const containers = shipments.flatMap((s, i) => [
    containerResource(s.id, { number: `MSCU${String(i).padStart(6, '0')}1` }, `c${i}a`),
    containerResource(s.id, { number: `TGHU${String(i).padStart(6, '0')}2` }, `c${i}b`),
  ]);
  return [...shipments, ...containers];
}

function dump(db: Db): unknown {
  const table = (name: string) => db.prepare(`SELECT * FROM ${name} ORDER BY id`).all();
  return { shipments: table('shipments'), containers: table('containers'), ports: table('ports') };
}

describe('a page written in slices (never holding the event loop for a whole page)', () => {
  it('stores what one transaction stores, its checkpoint with the last slice and the loop let go between slices', async () => {
    const whole = openDatabase(join(tempDir(), 'whole.sqlite'));
    writeResources(whole, page(), { syncedAt: at, alsoInTransaction: () => writeState(whole, 'walk:test', 'next') });

    const sliced = openDatabase(join(tempDir(), 'sliced.sqlite'));
    // Between two slices: what a view (or a process killed there) would find.
    const between: { shipments: number; checkpoint: unknown }[] = [];
    let done = false;
    const watch = () => {
      between.push({ shipments: countShipments(sliced, {}), checkpoint: readState(sliced, 'walk:test') });
      if (!done) setImmediate(watch);
    };
    setImmediate(watch);
    const counts = await writeResourcesInSteps(sliced, page(), {
      syncedAt: at,
      sliceMs: 0, // one block of resources per slice
      alsoInTransaction: () => writeState(sliced, 'walk:test', 'next'),
    });
    done = true;

    expect(counts).toMatchObject({ shipment: 40, container: 80 });
    expect(dump(sliced)).toEqual(dump(whole));
    expect(readState(sliced, 'walk:test')).toBe('next');
    // Several slices, each seen from outside: rows landing, the checkpoint only at the end.
    const before = between.filter((b) => b.checkpoint === null);
    expect(before.length).toBeGreaterThan(2);
    expect(before.some((b) => b.shipments > 0)).toBe(true);
    // Search rows land with the last slice, and every one is there.
    expect(countShipments(sliced, { search: 'Customer 3' })).toBe(countShipments(whole, { search: 'Customer 3' }));
    expect(countShipments(sliced, { search: 'Customer' })).toBe(40);
    expect(countContainers(sliced, { search: 'TGHU' })).toBe(40);
    expect(listContainers(sliced, { search: 'MSCU0000121' }, { limit: 5 }).rows.map((c) => c.id)).toEqual(['c12a']);
    expect(sliced.pragma('foreign_key_check')).toEqual([]);
    expect(sliced.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a page cut off between two slices is written again whole on resume: nothing lost, nothing twice', async () => {
    const db = openDatabase(join(tempDir(), 'cut.sqlite'));
    const resources = page();
    // The first slices only, as if the process had died after them: no checkpoint yet.
    const first = resources.slice(0, 30);
    await writeResourcesInSteps(db, first, { syncedAt: at, sliceMs: 0 });
    expect(readState(db, 'walk:test')).toBeNull();
    // The resume writes the whole page again, then moves the checkpoint.
    await writeResourcesInSteps(db, resources, {
      syncedAt: at,
      sliceMs: 0,
      alsoInTransaction: () => writeState(db, 'walk:test', 'next'),
    });
    const whole = openDatabase(join(tempDir(), 'whole.sqlite'));
    writeResources(whole, resources, { syncedAt: at });
    expect(dump(db)).toEqual(dump(whole));
    expect(countShipments(db, { search: 'Customer' })).toBe(40);
    expect(readState(db, 'walk:test')).toBe('next');
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
