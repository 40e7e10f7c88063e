import type { Db } from './database';

/** Cursors and checkpoints as JSON values under a key; written inside the page's transaction. */
export function readState<T>(db: Db, key: string): T | null {
  const row = db.prepare('SELECT value FROM sync_state WHERE key = ?').get(key) as { value: string } | undefined;
  if (!row) return null;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    // A value no JSON parser reads (a damaged row, a hand edit) counts as absent: a sync then
    // starts that walk afresh instead of failing on it for ever.
    return null;
  }
}

export function writeState(db: Db, key: string, value: unknown): void {
  db.prepare(
    `INSERT INTO sync_state (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(key, JSON.stringify(value), new Date().toISOString());
}

export function clearState(db: Db, key: string): void {
  db.prepare('DELETE FROM sync_state WHERE key = ?').run(key);
}

/** Counts per resource, for `status` and the dashboard. */
export function countResources(db: Db): Record<string, number> {
  const tables = [
    'shipments',
    'containers',
    'transport_events',
    'tracking_requests',
    'shipping_lines',
    'ports',
    'terminals',
    'vessels',
    'parties',
    'custom_field_definitions',
    'email_submissions',
    'webhooks',
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const raw = table === 'transport_events' ? '' : ' WHERE synced_at IS NOT NULL';
    counts[table] = (db.prepare(`SELECT count(*) AS n FROM ${table}${raw}`).get() as { n: number }).n;
  }
  return counts;
}
