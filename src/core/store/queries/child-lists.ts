/**
 * What the child-list step of a sync asks (`sync/child-lists.ts`): the parent rows whose list is
 * due, the removal of child rows the parent's list no longer names, and each read kept. Tables and columns come
 * from the descriptors (`api.under`), never from outside.
 */
import { resources as registry, type ResourceName } from '../../resources';
import type { ChildList } from '../../resources/define';
import type { Db } from '../database';
import type { StoredResource } from '../resource';
import { writeResources, type WriteCounts } from '../writer';

const ident = (name: string) => {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a plain SQL name: ${name}`);
  return name;
};

/** A parent whose list is due, with the value of its change column the read will have seen. */
export interface DueParent {
  id: string;
  changed: string | null;
}

/** How a child list's parents are ordered: `urgent` as container events are fetched (boxes needed today first). */
const ORDERS = {
  urgent: {
    join: 'LEFT JOIN shipments s ON s.id = p.shipment_id',
    by: `CASE
           WHEN s.tracking_stopped_at IS NOT NULL OR p.status IN ('picked_up', 'empty_returned') THEN 3
           WHEN p.holds_count > 0 OR p.lfd_deadline_at <= :soon
             OR (s.pod_ata_at IS NULL AND p.pod_arrived_at IS NULL AND s.pod_eta_at <= :soon) THEN 0
           WHEN p.status IN ('arrived', 'discharged', 'available', 'on_rail') THEN 1
           ELSE 2
         END, r.read_at IS NOT NULL, coalesce(p.lfd_deadline_at, s.pod_eta_at, '9999'), p.id`,
  },
  stored: { join: '', by: 'r.read_at IS NOT NULL, r.read_at, p.rowid' },
} as const;

/**
 * The parents of `list` (a child resource's name) whose list is due, as its descriptor's `fresh`
 * says: never read, its parent's `changed` column moved since the read, every parent on a full
 * run when `full`, or a read older than `every` ms; at most `budget`, in its `order`.
 */
export function dueParents(
  db: Db,
  child: ResourceName,
  under: ChildList,
  mode: 'full' | 'incremental',
  now: Date,
): DueParent[] {
  const table = ident(registry[under.parent as ResourceName].table);
  const changed = ident(under.fresh.changed);
  const order = ORDERS[under.order];
  const where = under.where ? `AND p.${ident(under.where.column)} IN (SELECT value FROM json_each(:values))` : '';
  const staleBefore = under.fresh.every === null ? null : new Date(now.getTime() - under.fresh.every).toISOString();
  return db
    .prepare<Record<string, unknown>, DueParent>(
      `SELECT p.id, p.${changed} AS changed FROM ${table} p ${order.join}
       LEFT JOIN child_list_reads r ON r.list = :list AND r.parent_id = p.id
       WHERE p.raw IS NOT NULL ${where}
         AND (r.parent_id IS NULL OR r.parent_changed IS NOT p.${changed} OR :full = 1
           OR r.read_at < :staleBefore)
       ORDER BY ${order.by} LIMIT :budget`,
    )
    .all({
      list: child,
      values: JSON.stringify(under.where?.values ?? []),
      full: mode === 'full' && under.fresh.full ? 1 : 0,
      staleBefore,
      budget: under.budget,
      ...(under.order === 'urgent' ? { soon: new Date(now.getTime() + 3 * 86_400_000).toISOString() } : {}),
    });
}

/** Deletes the rows of `child` under `parentId` (through `column`) that are not in `keep`. */
function dropChildrenNotIn(db: Db, child: ResourceName, column: string, parentId: string, keep: string[]): number {
  const table = ident(registry[child].table);
  return db
    .prepare(`DELETE FROM ${table} WHERE ${ident(column)} = ? AND id NOT IN (SELECT value FROM json_each(?))`)
    .run(parentId, JSON.stringify(keep)).changes;
}

/**
 * A parent's whole list, in one transaction: the rows of `child` under the parent that the list
 * no longer names are deleted, then the list's records written, and the read recorded with the
 * parent's change it saw (`records` null: the parent is gone at the service; only the read is
 * recorded, so it is not asked again until the parent changes).
 */
export function replaceChildList(
  db: Db,
  child: ResourceName,
  column: string,
  parent: DueParent,
  records: StoredResource[] | null,
  syncedAt: string,
): WriteCounts {
  return db
    .transaction(() => {
      let counts: WriteCounts = {};
      if (records !== null) {
        dropChildrenNotIn(
          db,
          child,
          column,
          parent.id,
          records.map((r) => r.id),
        );
        counts = writeResources(db, records, { syncedAt });
      }
      db.prepare(
        `INSERT INTO child_list_reads (list, parent_id, read_at, parent_changed) VALUES (?, ?, ?, ?)
         ON CONFLICT (list, parent_id) DO UPDATE SET read_at = excluded.read_at, parent_changed = excluded.parent_changed`,
      ).run(child, parent.id, syncedAt, parent.changed);
      return counts;
    })
    .immediate();
}
