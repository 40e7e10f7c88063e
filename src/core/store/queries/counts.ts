/** Row counts the app shows about its local copy (Settings' data panel, diagnostics). */
import { resources } from '../../resources';
import type { Db } from '../database';
import { perDb } from '../statements';

type Counted = 'shipments' | 'containers' | 'trackingRequests';

const statements = perDb((db: Db) => {
  const count = (name: Counted) =>
    db.prepare<[], number>(`SELECT count(*) AS n FROM ${resources[name].table} WHERE synced_at IS NOT NULL`).pluck();
  return {
    shipments: count('shipments'),
    containers: count('containers'),
    trackingRequests: count('trackingRequests'),
  };
});

/** Synced rows of a resource's table (stubs, known only by reference, left out). */
export function countSynced(db: Db, name: Counted): number {
  return statements(db)[name].get() ?? 0;
}
