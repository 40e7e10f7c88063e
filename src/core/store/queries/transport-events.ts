/**
 * Transport events for export: every event of one container or of all, withdrawn ones included,
 * with the names a spreadsheet needs (container number, bill of lading, place, terminal, vessel)
 * and what the carrier said of it since (withdrawn when, replaced by which correction).
 */
import type { Db } from '../database';
import { perDb } from '../statements';

type Text = string | null;

export interface TransportEventExportRow {
  id: string;
  container_id: string;
  container_number: Text;
  bill_of_lading: Text;
  event: Text;
  timestamp: Text;
  timezone: Text;
  location: Text;
  location_locode: Text;
  terminal: Text;
  vessel: Text;
  voyage_number: Text;
  data_source: Text;
  created_at: Text;
  invalidated_at: Text;
  previous_version_id: Text;
  /** The correction that names this event as its previous version (the earliest, if several). */
  replaced_by: Text;
}

const select = `SELECT e.id, e.container_id, c.number AS container_number, s.bill_of_lading, e.event, e.timestamp,
    e.timezone, (SELECT name FROM locations WHERE id = coalesce(e.location_id, e.metro_area_id)) AS location,
    e.location_locode, t.name AS terminal, v.name AS vessel, e.voyage_number, e.data_source, e.created_at,
    e.invalidated_at, e.previous_version_id,
    (SELECT min(r.id) FROM transport_events r WHERE r.previous_version_id = e.id) AS replaced_by
  FROM transport_events e JOIN containers c ON c.id = e.container_id
  LEFT JOIN shipments s ON s.id = c.shipment_id LEFT JOIN terminals t ON t.id = e.terminal_id
  LEFT JOIN vessels v ON v.id = e.vessel_id`;

const statements = perDb((db: Db) => ({
  all: db.prepare<[], TransportEventExportRow>(`${select} ORDER BY c.number, e.container_id, e.timestamp, e.id`),
  ofContainer: db.prepare<[string], TransportEventExportRow>(
    `${select} WHERE e.container_id = ? ORDER BY e.timestamp, e.id`,
  ),
  containerId: db
    .prepare<[string, string], string>(
      'SELECT id FROM containers WHERE (id = ? OR number = ?) AND raw IS NOT NULL ORDER BY synced_at DESC LIMIT 1',
    )
    .pluck(),
}));

/** Every stored event, by container number then time, streamed. */
export function iterateTransportEvents(db: Db): IterableIterator<TransportEventExportRow> {
  return statements(db).all.iterate();
}

/** One container's stored events, oldest first. */
export function containerTransportEvents(db: Db, containerId: string): TransportEventExportRow[] {
  return statements(db).ofContainer.all(containerId);
}

/** A synced container by id or by number (the newest synced one when a number repeats). */
export function findContainerId(db: Db, idOrNumber: string): string | null {
  return statements(db).containerId.get(idOrNumber, idOrNumber) ?? null;
}
