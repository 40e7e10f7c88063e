/** A database of many shipments, written straight from the sandbox's generator (no HTTP). */
import { openDatabase, type Db } from '../../src/core/store/database';
import type { StoredResource } from '../../src/core/store/resource';
import { writeResources } from '../../src/core/store/writer';
import { generateWorld } from '../../src/sandbox/generate';
import { serialize, type SerializeContext } from '../../src/sandbox/serialize';

export interface BigDatabase {
  db: Db;
  seconds: number;
  rows: number;
  sampleBl: string;
}

export function buildBigDatabase(path: string, shipments: number, seed = 'bench-store'): BigDatabase {
  const world = generateWorld({ seed, shipments, now: Date.now() });
  const ctx: SerializeContext = { now: Date.now(), account: world.account };
  const db = openDatabase(path);
  const started = performance.now();
  let rows = 0;
  const reference: StoredResource[] = [
    ...world.ports.map((rec) => serialize({ type: 'port', rec }, ctx)),
    ...world.terminals.map((rec) => serialize({ type: 'terminal', rec }, ctx)),
  ] as StoredResource[];
  writeResources(db, reference, { syncedAt: new Date().toISOString() });
  for (let i = 0; i < world.shipments.length; i += 100) {
    const batch: StoredResource[] = [];
    for (const shipment of world.shipments.slice(i, i + 100)) {
      batch.push(serialize({ type: 'shipment', rec: shipment }, ctx) as StoredResource);
      for (const container of shipment.containers)
        batch.push(serialize({ type: 'container', rec: container }, ctx) as StoredResource);
    }
    writeResources(db, batch, { syncedAt: new Date().toISOString() });
    rows += batch.length;
  }
  const sampleBl = world.shipments[Math.floor(world.shipments.length / 2)]!.billOfLading;
  return { db, seconds: (performance.now() - started) / 1000, rows, sampleBl };
}
