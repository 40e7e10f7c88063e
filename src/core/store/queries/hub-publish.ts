/**
 * What a team hub reads from its store to publish it (`core/team/publisher.ts`): the ids of the
 * records written since an instant, page by page in id order; whether a record is still kept; the
 * change history and the sync log after a row. Read-only.
 */
import { storedUuid, uuidText, type ResourceDescriptor } from '../../resources';
import type { Db } from '../database';
import type { SyncLogRow } from '../sync-log';

/**
 * Ids (as text) of the records of `d` (rows with a synced_at: stubs have none) written at or
 * after `since` (all when null), after the id `after` (from the first when null), in id order.
 */
export function writtenRecordIds(
  db: Db,
  d: ResourceDescriptor,
  since: string | null,
  after: string | null,
  limit: number,
): string[] {
  const uuid = d.columns.id?.uuid === true;
  const params: unknown[] = [];
  let where = 't.synced_at IS NOT NULL';
  if (since !== null) {
    where += ' AND t.synced_at >= ?';
    params.push(d.columns.synced_at?.epochMs ? Date.parse(since) : since);
  }
  // Always a range on the id (from the lowest text on the first page: a UUID kept as bytes sorts
  // after every text), so each page walks the primary key's index instead of sorting the table.
  where += after === null ? " AND t.id >= ''" : ' AND t.id > ?';
  if (after !== null) params.push(uuid ? storedUuid(after) : after);
  params.push(limit);
  return db
    .prepare<unknown[], string>(
      `SELECT ${uuid ? uuidText('t', 'id') : 't.id'} FROM ${d.table} t WHERE ${where} ORDER BY t.id LIMIT ?`,
    )
    .pluck()
    .all(...params);
}

/** Whether the store keeps the record `id` of `d` (a stub does not count). */
export function keepsRecord(db: Db, d: ResourceDescriptor, id: string): boolean {
  const stored = d.columns.id?.uuid ? storedUuid(id) : id;
  return db.prepare(`SELECT 1 FROM ${d.table} WHERE id = ? AND raw IS NOT NULL`).pluck().get(stored) !== undefined;
}

export interface ChangeRow {
  id: number;
  resource: string;
  record_id: string;
  shipment_id: string | null;
  field: string;
  detail: string | null;
  old_value: string | null;
  new_value: string | null;
  seen_at: string;
}

/** Change history rows after the id `after`, oldest first. */
export function changesAfter(db: Db, after: number, limit: number): ChangeRow[] {
  return db
    .prepare<[number, number], ChangeRow>(
      `SELECT id, resource, record_id, shipment_id, field, detail, old_value, new_value, seen_at
         FROM record_changes WHERE id > ? ORDER BY id LIMIT ?`,
    )
    .all(after, limit);
}

/** Sync log rows from the id `from` on, oldest first. */
export function syncLogFrom(db: Db, from: number, limit: number): SyncLogRow[] {
  return db
    .prepare<[number, number], SyncLogRow>(
      `SELECT id, kind, started_at, finished_at, status, requests, rate_limited, counts, error
         FROM sync_log WHERE id >= ? ORDER BY id LIMIT ?`,
    )
    .all(from, limit);
}
