/**
 * Container routes (the service's map GeoJSON, a paid feature): which containers a sync asks for,
 * and the stored answer the container page draws.
 */
import type { Db } from '../database';
import { perDb } from '../statements';

const reads = perDb((db: Db) => ({
  due: db
    .prepare<{ stale: string; limit: number }, string>(
      `SELECT c.id FROM containers c JOIN shipments s ON s.id = c.shipment_id
       LEFT JOIN container_routes r ON r.container_id = c.id
       WHERE c.synced_at IS NOT NULL AND s.tracking_stopped_at IS NULL
         AND (
           -- still on its way to the port of discharge: asked when new, changed, or every few hours at sea
           (c.pod_arrived_at IS NULL AND s.pod_ata_at IS NULL
             AND (r.fetched_at IS NULL OR r.fetched_at < c.changed_at
                  OR (c.pol_vessel_departed_at IS NOT NULL AND r.fetched_at < :stale)))
           -- arrived since its route was stored: once more, for the whole voyage as sailed
           OR (r.fetched_at IS NOT NULL AND r.fetched_at < coalesce(c.pod_arrived_at, s.pod_ata_at))
         )
       ORDER BY (r.fetched_at IS NOT NULL), coalesce(s.pod_eta_at, '9999'), c.id
       LIMIT :limit`,
    )
    .pluck(),
  get: db.prepare<[string], { geojson: string; fetchedAt: string }>(
    'SELECT geojson, fetched_at AS fetchedAt FROM container_routes WHERE container_id = ?',
  ),
  future: db.prepare<[string], FuturePositionsRow>(
    `SELECT vessel_id AS vesselId, vessel_name AS vesselName, to_port_name AS toPortName, positions,
            fetched_at AS fetchedAt
       FROM vessel_future_positions WHERE container_id = ?`,
  ),
}));
const upsertFuture = perDb((db: Db) =>
  db.prepare<[string, string, string | null, string | null, string, string]>(
    `INSERT INTO vessel_future_positions (container_id, vessel_id, vessel_name, to_port_name, positions, fetched_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (container_id) DO UPDATE SET vessel_id = excluded.vessel_id, vessel_name = excluded.vessel_name,
       to_port_name = excluded.to_port_name, positions = excluded.positions, fetched_at = excluded.fetched_at`,
  ),
);
const removeFuture = perDb((db: Db) =>
  db.prepare<[string]>('DELETE FROM vessel_future_positions WHERE container_id = ?'),
);

/** A container's current vessel's estimated track as stored (positions as JSON text). */
export interface FuturePositionsRow {
  vesselId: string;
  vesselName: string | null;
  toPortName: string | null;
  positions: string;
  fetchedAt: string;
}
const upsert = perDb((db: Db) =>
  db.prepare<[string, string, string]>(
    `INSERT INTO container_routes (container_id, geojson, fetched_at) VALUES (?, ?, ?)
     ON CONFLICT (container_id) DO UPDATE SET geojson = excluded.geojson, fetched_at = excluded.fetched_at`,
  ),
);

/**
 * Containers whose route a sync should ask for, at most `limit`: boxes of still-tracking
 * shipments not yet at the port of discharge whose route is missing, older than the box's last
 * change, or (at sea) older than `stale`; and boxes that arrived after their route was stored.
 * Never-asked first, then the soonest arrival.
 */
export function containersDueRoutes(db: Db, stale: string, limit: number): string[] {
  return reads(db).due.all({ stale, limit });
}

/** Stores a container's route as the service sent it. */
export function writeContainerRoute(db: Db, containerId: string, geojson: string, fetchedAt: string): void {
  upsert(db).run(containerId, geojson, fetchedAt);
}

/** A container's stored route, if any. */
export function containerRoute(db: Db, containerId: string): { geojson: string; fetchedAt: string } | undefined {
  return reads(db).get.get(containerId);
}

/** Stores the estimated track of a container's current vessel (its route must be stored). */
export function writeFuturePositions(db: Db, containerId: string, row: FuturePositionsRow): void {
  upsertFuture(db).run(containerId, row.vesselId, row.vesselName, row.toPortName, row.positions, row.fetchedAt);
}

/** Forgets a container's vessel track (its map shows no vessel under way any more). */
export function deleteFuturePositions(db: Db, containerId: string): void {
  removeFuture(db).run(containerId);
}

/** A container's stored vessel track, if any. */
export function futurePositionsOf(db: Db, containerId: string): FuturePositionsRow | undefined {
  return reads(db).future.get(containerId);
}
