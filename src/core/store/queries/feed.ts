/** What the sync's change feed (`sync/feed.ts`) asks the local copy. */
import type { Db } from '../database';
import { perDb } from '../statements';

const shipmentsOf = perDb((db) =>
  db.prepare<[string], { id: string; shipment_id: string | null }>(
    `SELECT c.id, c.shipment_id FROM containers c WHERE c.id IN (SELECT value FROM json_each(?))`,
  ),
);

/** The shipment of each stored container among `ids` (a container not stored, or without one, is left out). */
export function shipmentsOfContainers(db: Db, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  for (const row of shipmentsOf(db).all(JSON.stringify(ids))) if (row.shipment_id) out.set(row.id, row.shipment_id);
  return out;
}
