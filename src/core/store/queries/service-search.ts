/**
 * What Ctrl+K's search on the service asks of the local copy: whether a record it found is here
 * already (synced, not a stub), by its id or its number, and the shipment a fetched tracking
 * request became.
 */
import type { Db } from '../database';
import { perDb } from '../statements';

const here = perDb((db) => ({
  shipment: db
    .prepare<[string, string], number>(
      'SELECT 1 FROM shipments WHERE raw IS NOT NULL AND (id = ? OR bill_of_lading = ?) LIMIT 1',
    )
    .pluck(),
  container: db
    .prepare<[string, string], number>(
      'SELECT 1 FROM containers WHERE raw IS NOT NULL AND (id = ? OR number = ?) LIMIT 1',
    )
    .pluck(),
  trackingRequest: db
    .prepare<[string, string], number>(
      'SELECT 1 FROM tracking_requests WHERE raw IS NOT NULL AND (id = ? OR request_number = ?) LIMIT 1',
    )
    .pluck(),
}));

const synced = perDb((db) => ({
  shipment: db.prepare<[string], number>('SELECT 1 FROM shipments WHERE raw IS NOT NULL AND id = ?').pluck(),
  container: db.prepare<[string], number>('SELECT 1 FROM containers WHERE raw IS NOT NULL AND id = ?').pluck(),
  trackingRequest: db
    .prepare<[string], number>('SELECT 1 FROM tracking_requests WHERE raw IS NOT NULL AND id = ?')
    .pluck(),
}));

const requestShipment = perDb((db) =>
  db.prepare<[string], string | null>('SELECT shipment_id FROM tracking_requests WHERE id = ?').pluck(),
);

export type LocalKind = 'shipment' | 'container' | 'trackingRequest';

/** Whether the local copy has this record, or one of its kind with the same number. */
export function inLocalCopy(db: Db, kind: LocalKind, id: string, number: string): boolean {
  return here(db)[kind].get(id, number) !== undefined;
}

/** Whether the record with this id is synced here (a stub is not). */
export function isSynced(db: Db, kind: LocalKind, id: string): boolean {
  return synced(db)[kind].get(id) !== undefined;
}

/** The shipment a stored tracking request became, if it says. */
export function trackingRequestShipment(db: Db, id: string): string | null {
  return requestShipment(db).get(id) ?? null;
}
