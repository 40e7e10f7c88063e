/**
 * Transport events for export: every event of one container or of all, withdrawn ones included,
 * with the names a spreadsheet needs (container number, bill of lading, place, terminal, vessel)
 * and what the carrier said of it since (withdrawn when, replaced by which correction).
 */
import type { Db } from '../database';
import { perDb } from '../statements';
import { instantText, internedText, uuidText } from '../../resources';

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
  /** The carrier's own words for it: its box's raw event of the same kind nearest its time. */
  carrier_wording: Text;
}

const t = (column: string) => internedText('e', column);
const instant = (column: string) => `${instantText('e', column)} AS ${column}`;

/**
 * An event's ids and repeated texts are keys in `interned`, its instants milliseconds, its own id
 * bytes (migration 0009): joined back to their texts, and to the rows they name, through
 * `interned`'s primary key.
 */
const select = `SELECT ${uuidText('e', 'id')} AS id, ck.text AS container_id, c.number AS container_number, s.bill_of_lading,
    ${t('event_key')} AS event, ${instant('timestamp')}, ${t('timezone_key')} AS timezone,
    (SELECT name FROM locations
      WHERE id = (SELECT text FROM interned WHERE key = coalesce(e.location_key, e.metro_area_key))) AS location,
    e.location_locode, tr.name AS terminal, v.name AS vessel, e.voyage_number, ${t('data_source_key')} AS data_source,
    ${instant('created_at')}, ${instant('invalidated_at')}, ${uuidText('e', 'previous_version_id')} AS previous_version_id,
    (SELECT ${uuidText('r', 'id')} FROM transport_events r WHERE r.previous_version_id = e.id ORDER BY r.id LIMIT 1)
      AS replaced_by,
    (SELECT w.original_event FROM raw_events w
      WHERE w.container_id = ck.text AND w.original_event IS NOT NULL
        AND w.event = replace(replace(${t('event_key')}, 'container.transport.', ''),
          'arrived_at_inland_destination', 'arrived_at_destination')
      ORDER BY abs(julianday(w.timestamp) - julianday(${instantText('e', 'timestamp')})) LIMIT 1) AS carrier_wording
  FROM transport_events e JOIN interned ck ON ck.key = e.container_key JOIN containers c ON c.id = ck.text
  LEFT JOIN shipments s ON s.id = c.shipment_id
  LEFT JOIN interned tk ON tk.key = e.terminal_key LEFT JOIN terminals tr ON tr.id = tk.text
  LEFT JOIN interned vk ON vk.key = e.vessel_key LEFT JOIN vessels v ON v.id = vk.text`;

const statements = perDb((db: Db) => ({
  all: db.prepare<[], TransportEventExportRow>(`${select} ORDER BY c.number, ck.text, e.timestamp, e.id`),
  ofContainer: db.prepare<[string], TransportEventExportRow>(
    `${select} WHERE e.container_key = (SELECT key FROM interned WHERE text = ?) ORDER BY e.timestamp, e.id`,
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
