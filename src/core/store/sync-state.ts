import { descriptors, resources, type ResourceDescriptor, type ResourceName } from '../resources';
import type { Db } from './database';
import { perDb } from './statements';

/** A stored sync state entry as written: its key, its value as JSON text, when it was written. */
export interface SyncStateRow {
  key: string;
  value: string;
  updated_at: string;
}

// Read and written on every page of a sync (its checkpoint), so prepared once per database; each
// apart, because a read-only copy refuses a writing statement at prepare.
const read = perDb((db) => db.prepare<[string], string>('SELECT value FROM sync_state WHERE key = ?').pluck());
const write = perDb((db) =>
  db.prepare<[string, string, string]>(
    `INSERT INTO sync_state (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ),
);
const clear = perDb((db) => db.prepare<[string]>('DELETE FROM sync_state WHERE key = ?'));

/** Cursors and checkpoints as JSON values under a key; written inside the page's transaction. */
export function readState<T>(db: Db, key: string): T | null {
  const value = read(db).get(key);
  if (value === undefined) return null;
  try {
    return JSON.parse(value) as T;
  } catch {
    // A value no JSON parser reads (a damaged row, a hand edit) counts as absent: a sync then
    // starts that walk afresh instead of failing on it for ever.
    return null;
  }
}

export function writeState(db: Db, key: string, value: unknown): void {
  write(db).run(key, JSON.stringify(value), new Date().toISOString());
}

export function clearState(db: Db, key: string): void {
  clear(db).run(key);
}

/** Every walk's saved checkpoint is dropped: the next sync starts each walk from its first page. */
export function clearWalkCheckpoints(db: Db): void {
  db.prepare("DELETE FROM sync_state WHERE key LIKE 'walk:%'").run();
}

/** Cursors, checkpoints and run marks, by key, for `status` (page estimates left out). */
export function listSyncState(db: Db): SyncStateRow[] {
  return db
    .prepare<[], SyncStateRow>(
      "SELECT key, value, updated_at FROM sync_state WHERE key NOT LIKE 'pages:%' ORDER BY key",
    )
    .all();
}

/** The resources `status` lists first: what a forwarder works with. The rest follow in registry order. */
const shownFirst: readonly ResourceName[] = ['shipments', 'containers', 'transportEvents', 'trackingRequests'];
const counted = [
  ...shownFirst.map((name) => resources[name] as ResourceDescriptor),
  ...descriptors.filter((d) => !shownFirst.includes(d.name as ResourceName)),
];
/** Resources other rows reference, whose tables may hold stubs (not counted: not synced yet). */
const referenced = new Set(
  descriptors.flatMap((d) => Object.values(d.columns).flatMap((c) => (c.references ? [c.references] : []))),
);

/** Synced records per resource table (stubs left out), for `status` and the dashboard. */
export function countResources(db: Db): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of counted) {
    const synced = referenced.has(d.name) ? ' WHERE synced_at IS NOT NULL' : '';
    counts[d.table] = db.prepare<[], number>(`SELECT count(*) AS n FROM ${d.table}${synced}`).pluck().get() ?? 0;
  }
  return counts;
}

/** When a sync last ended its urgent walks (`engine.ts`): the dashboard's box tiles count from then. */
export const URGENT_STORED_KEY = 'urgent:completed_at';
