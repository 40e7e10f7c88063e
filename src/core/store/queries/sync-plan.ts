/**
 * What the sync engine asks the store while it plans a run: which containers still owe
 * transport events, and how many rows a walk's table holds (for its page estimate).
 */
import { descriptors, type ResourceName, resources as registry } from '../../resources';
import type { Db } from '../database';
import { perDb } from '../statements';
import { owesEvents } from '../../resources/containers';

/** Tables whose rows estimate a walk's pages: those of the resources a walk estimates from stored rows. */
const walkedTables = [
  ...new Set(descriptors.filter((d) => d.walks?.some((w) => w.estimate === 'stored rows')).map((d) => d.table)),
];
/** Tables the sync fills by id (their descriptor names `api.get`). */
const filledTables = descriptors.filter((d) => d.api?.get).map((d) => d.table);

const statements = perDb((db: Db) => ({
  changedEvents: db
    .prepare<[], string>(
      `SELECT c.id FROM containers c JOIN shipments s ON s.id = c.shipment_id
       WHERE c.synced_at IS NOT NULL AND ${owesEvents('c')}
       ORDER BY (s.tracking_stopped_at IS NOT NULL), c.changed_at DESC`,
    )
    .pluck(),
  missingEvents: db
    .prepare<{ soon: string }, string>(
      `SELECT c.id FROM containers c LEFT JOIN shipments s ON s.id = c.shipment_id
       WHERE c.synced_at IS NOT NULL
         AND ${owesEvents('c')}
         AND coalesce(c.listed_events, 1) > 0
       ORDER BY
         CASE
           WHEN s.tracking_stopped_at IS NOT NULL OR c.status IN ('picked_up', 'empty_returned') THEN 3
           WHEN c.holds_count > 0 OR c.lfd_deadline_at <= :soon
             OR (s.pod_ata_at IS NULL AND c.pod_arrived_at IS NULL AND s.pod_eta_at <= :soon) THEN 0
           WHEN c.status IN ('arrived', 'discharged', 'available', 'on_rail') THEN 1
           ELSE 2
         END,
         coalesce(c.lfd_deadline_at, s.pod_eta_at, '9999') , c.id`,
    )
    .pluck(),
  urgent: db
    .prepare<{ lfdBy: string; arrivingBy: string }, string>(
      `SELECT c.id FROM containers c JOIN shipments s ON s.id = c.shipment_id
       WHERE c.synced_at IS NOT NULL AND s.tracking_stopped_at IS NULL
         AND coalesce(c.status, '') NOT IN ('picked_up', 'empty_returned')
         AND (c.holds_count > 0 OR c.lfd_deadline_at <= :lfdBy
           OR (s.pod_ata_at IS NULL AND c.pod_arrived_at IS NULL AND s.pod_eta_at <= :arrivingBy))
       ORDER BY c.id`,
    )
    .pluck(),
  stubs: new Map(
    filledTables.map((table) => [
      table,
      db.prepare<[number], string>(`SELECT id FROM ${table} WHERE raw IS NULL ORDER BY id LIMIT ?`).pluck(),
    ]),
  ),
  isStub: new Map(
    filledTables.map((table) => [
      table,
      db.prepare<[string], number>(`SELECT raw IS NULL FROM ${table} WHERE id = ?`).pluck(),
    ]),
  ),
  count: new Map(
    walkedTables.map((table) => [table, db.prepare<[], number>(`SELECT count(*) AS n FROM ${table}`).pluck()]),
  ),
}));

/**
 * Containers of the shipments a sync has seen whose attributes changed since their events were
 * last fetched (never fetched counts): still-tracking shipments first, newest change first.
 */
export function containersWithChangedEvents(db: Db): string[] {
  return statements(db).changedEvents.all();
}

/**
 * Containers a full run still owes events: synced, events not fetched since the box last
 * changed, and a record that lists events (or does not say). Most urgent first: boxes still
 * in play with a hold, a last free day before `soon` (or past) or an arrival before `soon`;
 * then those at the port; then the rest in play; then picked up, returned or no longer
 * tracked. Within each, the soonest deadline or arrival first.
 */
export function containersMissingEvents(db: Db, soon: string): string[] {
  return statements(db).missingEvents.all({ soon });
}

/**
 * What a forwarder needs today, as the sync orders it (urgent walks first): boxes still in play
 * with a hold, a last free day before `lfdBy` (or past), or not yet arrived with an arrival
 * before `arrivingBy`.
 */
export function urgentContainerIds(db: Db, by: { lfdBy: string; arrivingBy: string }): string[] {
  return statements(db).urgent.all(by);
}

const storedCounts = perDb(
  (db: Db) =>
    new Map(descriptors.map((d) => [d.name, db.prepare<[], number>(`SELECT count(*) AS n FROM ${d.table}`).pluck()])),
);

/** Every row a resource's table holds, stubs included: what the account is known to hold of it. */
export function countStoredRows(db: Db, resource: ResourceName): number {
  return storedCounts(db).get(resource)?.get() ?? 0;
}

/** Every row of a walked resource's table, stubs included: the page estimate when no run has counted it. */
export function countWalkedRows(db: Db, resource: ResourceName): number {
  const count = statements(db).count.get(registry[resource].table);
  if (count === undefined) throw new Error(`${resource} has no walk estimated from stored rows`);
  return count.get() ?? 0;
}

/** Ids of rows referenced but never synced (stubs) of a resource the sync fills by id, at most `limit`. */
export function stubIds(db: Db, resource: ResourceName, limit: number): string[] {
  const stubs = statements(db).stubs.get(registry[resource].table);
  if (stubs === undefined) throw new Error(`${resource} is not filled by id (its descriptor has no api.get)`);
  return stubs.all(limit);
}

/** Whether the row `id` of a resource the sync fills by id is (still) a stub. */
export function isStub(db: Db, resource: ResourceName, id: string): boolean {
  const query = statements(db).isStub.get(registry[resource].table);
  if (query === undefined) throw new Error(`${resource} is not filled by id (its descriptor has no api.get)`);
  return query.get(id) === 1;
}
