/** Row counts the app shows about its local copy (Settings' data panel, diagnostics). */
import type { Db } from '../database';
import { perDb } from '../statements';

type CountedTable = 'shipments' | 'containers' | 'tracking_requests';

const statements = perDb((db: Db) => {
  const count = (table: CountedTable) =>
    db.prepare<[], number>(`SELECT count(*) AS n FROM ${table} WHERE synced_at IS NOT NULL`).pluck();
  return {
    shipments: count('shipments'),
    containers: count('containers'),
    tracking_requests: count('tracking_requests'),
  };
});

/** Synced rows of a table (stubs, known only by reference, left out). */
export function countSynced(db: Db, table: CountedTable): number {
  return statements(db)[table].get() ?? 0;
}
