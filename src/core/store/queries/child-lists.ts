/**
 * What the child-list step of a sync asks (`sync/child-lists.ts`): the parent rows whose list is
 * read, and the removal of child rows the parent's list no longer names. Tables and columns come
 * from the descriptors (`api.under`), never from outside.
 */
import { resources as registry, type ResourceName } from '../../resources';
import type { Db } from '../database';
import type { StoredResource } from '../resource';
import { writeResources, type WriteCounts } from '../writer';

const ident = (name: string) => {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a plain SQL name: ${name}`);
  return name;
};

/** Synced parent rows whose `column` holds one of `values`, by id. */
export function childListParents(db: Db, parent: ResourceName, column: string, values: readonly string[]): string[] {
  const table = ident(registry[parent].table);
  const marks = values.map(() => '?').join(', ');
  return db
    .prepare<unknown[], { id: string }>(
      `SELECT id FROM ${table} WHERE raw IS NOT NULL AND ${ident(column)} IN (${marks}) ORDER BY id`,
    )
    .all(...values)
    .map((r) => r.id);
}

/** Deletes the rows of `child` under `parentId` (through `column`) that are not in `keep`. */
function dropChildrenNotIn(db: Db, child: ResourceName, column: string, parentId: string, keep: string[]): number {
  const table = ident(registry[child].table);
  return db
    .prepare(`DELETE FROM ${table} WHERE ${ident(column)} = ? AND id NOT IN (SELECT value FROM json_each(?))`)
    .run(parentId, JSON.stringify(keep)).changes;
}

/**
 * A parent's whole list, in one transaction: the rows of `child` under `parentId` that the list
 * no longer names are deleted, then the list's records written.
 */
export function replaceChildList(
  db: Db,
  child: ResourceName,
  column: string,
  parentId: string,
  records: StoredResource[],
  syncedAt: string,
): WriteCounts {
  return db
    .transaction(() => {
      dropChildrenNotIn(
        db,
        child,
        column,
        parentId,
        records.map((r) => r.id),
      );
      return writeResources(db, records, { syncedAt });
    })
    .immediate();
}
