/**
 * What a laptop pulling from a team hub (`core/team/puller.ts`) needs of its store beyond the
 * writer: a record the hub deleted (a tombstone) removed with its search and list rows, and the
 * containers of shipments a page rewrites (their derived columns read the shipment's dates and
 * zones, which the service's own walk brings with each shipment page). Run inside the page's
 * transaction (`writeResources`' `alsoInTransaction`).
 */
import { descriptors, storedUuid, type ResourceDescriptor } from '../../resources';
import type { Db } from '../database';
import { storedRecord } from './raw';

/** Resources other rows reference: a deleted one is left as a stub, so no reference dangles. */
const referenced = new Set(
  descriptors.flatMap((d) => Object.values(d.columns).flatMap((c) => (c.references ? [c.references] : []))),
);

/**
 * Removes the record `id` of JSON:API type `type` from `d`'s table, as the hub's store no longer
 * keeps it; returns whether a record was removed. In a table of several types (terminals and
 * rail terminals) a row now holding another type is left alone: the hub published that one apart.
 */
export function deletePulledRecord(db: Db, d: ResourceDescriptor, type: string, id: string): boolean {
  const record = storedRecord(db, d, id);
  if (!record) return false;
  if (d.types.length > 1 && record.type !== type) return false;
  const key = d.columns.id?.uuid ? storedUuid(id) : id;
  if (d.search) {
    db.prepare(`DELETE FROM ${d.search.table} WHERE rowid = (SELECT rowid FROM ${d.table} WHERE id = ?)`).run(key);
  }
  if (d.listTable) db.prepare(`DELETE FROM ${d.listTable.table} WHERE ${d.listTable.parent} = ?`).run(key);
  db.prepare(`DELETE FROM ${d.table} WHERE id = ?`).run(key);
  if (referenced.has(d.name)) db.prepare(`INSERT OR IGNORE INTO ${d.table} (id) VALUES (?)`).run(key);
  return true;
}

/** The containers the store keeps (stubs left out) of the shipments `shipmentIds`, as stored records. */
export function containersOfShipments(db: Db, d: ResourceDescriptor, shipmentIds: readonly string[]) {
  if (shipmentIds.length === 0) return [];
  const ids = db
    .prepare<[string], string>(
      `SELECT id FROM ${d.table} WHERE shipment_id IN (SELECT value FROM json_each(?)) AND raw IS NOT NULL`,
    )
    .pluck()
    .all(JSON.stringify(shipmentIds));
  return ids.flatMap((id) => {
    const record = storedRecord(db, d, id);
    return record ? [record] : [];
  });
}
