/**
 * The rows behind the detail views (`core/details`): a container's or shipment's own columns
 * past its list row, its terminal and its transport events. A shipment's detail reads every
 * container's, so the statements are prepared once per database. Places (an event's location,
 * a shipment's destination) are named through the `locations` view: a port or a metro area.
 */
import type { Db } from '../database';
import { perDb } from '../statements';
import { instantText, internedText, uuidText } from '../../resources';

type Text = string | null;

export interface TerminalDetailRow {
  id: string;
  name: Text;
  nickname: Text;
  firms_code: Text;
  raw: Text;
  port: Text;
  /** A rail terminal's metro area. */
  metro_area: Text;
  metro_area_code: Text;
}

/** A row of the `locations` view: a port or a metro area. */
export interface LocationRow {
  kind: 'port' | 'metro_area';
  id: string;
  code: Text;
  name: Text;
  city: Text;
  state_abbr: Text;
  country_code: Text;
  time_zone: Text;
}

export interface ContainerDetailRow {
  shipment_id: Text;
  terminal_id: Text;
  /** The shipment's destination terminal (a rail ramp when it rides a train inland). */
  destination_terminal_id: Text;
  events_synced_at: Text;
  empty_out_at: Text;
  delivered_at: Text;
  /** JSON: the inland facility's holds, normalized as `holds`. */
  facility_holds: Text;
  facility_fees_total: number | null;
  pol_timezone: Text;
  location_at_pod_terminal: Text;
  pod_rail_carrier_scac: Text;
  ind_rail_carrier_scac: Text;
}

/** A shipment's plans and destination beyond its list row. */
export interface ShipmentPlanRow {
  pol_original_etd_at: Text;
  destination_eta_at: Text;
  destination_ata_at: Text;
  destination_original_eta_at: Text;
  destination_timezone: Text;
  destination_terminal_id: Text;
  shipping_line_scac: Text;
}

/** A shipping line's name, SCAC and record. */
export interface ShippingLineDetailRow {
  name: Text;
  scac: Text;
  raw: Text;
}

/** An event as the milestone timeline reads it. */
export interface MilestoneEventRow {
  event: Text;
  timestamp: Text;
  timezone: Text;
  location_locode: Text;
  port_name: Text;
  /** When the carrier withdrew it. */
  invalidated_at: Text;
  /** 1 when another event names it as its previous version (a correction replaced it). */
  replaced: number;
  /** 1 when it names a previous version (it corrects another event). */
  corrects: number;
}

/** An event as the container's event list shows it, names joined in. */
export interface TransportEventDetailRow {
  id: string;
  event: Text;
  timestamp: Text;
  timezone: Text;
  location_locode: Text;
  port: Text;
  terminal: Text;
  vessel: Text;
  voyage_number: Text;
  data_source: Text;
  invalidated_at: Text;
  previous_version_id: Text;
  /** The correction that names this event as its previous version (the earliest, if several). */
  replaced_by: Text;
}

/**
 * An event's place, port or metro area, named through the view (one lookup by id in each of
 * its tables: SQLite pushes the id into both halves of the union).
 */
const placeName =
  'SELECT name FROM locations WHERE id = (SELECT text FROM interned WHERE key = coalesce(e.location_key, e.metro_area_key))';

/** An event's repeated texts and ids are keys in `interned`, its instants milliseconds (migration 0009): their text back. */
const text = (column: string) => internedText('e', column);
const instant = (column: string) => `${instantText('e', column)} AS ${column}`;

/** The events of the container whose id is the statement's parameter, through the index on their container. */
const ofContainer = 'e.container_key = (SELECT key FROM interned WHERE text = ?)';

/** The correction that replaces event `e` (the first by id), through the index on `previous_version_id`. */
const replacedBy = `SELECT ${uuidText('r', 'id')} FROM transport_events r WHERE r.previous_version_id = e.id
  ORDER BY r.id LIMIT 1`;

const statements = perDb((db: Db) => ({
  terminal: db.prepare<[string], TerminalDetailRow>(
    `SELECT t.id, t.name, t.nickname, t.firms_code, t.raw, p.name AS port, m.name AS metro_area,
       m.code AS metro_area_code
     FROM terminals t LEFT JOIN ports p ON p.id = t.port_id LEFT JOIN metro_areas m ON m.id = t.metro_area_id
     WHERE t.id = ?`,
  ),
  container: db.prepare<[string], ContainerDetailRow>(
    `SELECT c.shipment_id, coalesce(c.pod_terminal_id, s.pod_terminal_id) AS terminal_id,
       s.destination_terminal_id, c.events_synced_at, c.location_at_pod_terminal, c.pod_rail_carrier_scac,
       c.ind_rail_carrier_scac, c.empty_out_at, c.delivered_at, c.facility_holds, c.facility_fees_total, s.pol_timezone
     FROM containers c LEFT JOIN shipments s ON s.id = c.shipment_id WHERE c.id = ?`,
  ),
  milestoneEvents: db.prepare<[string], MilestoneEventRow>(
    `SELECT ${text('event_key')} AS event, ${instant('timestamp')}, ${text('timezone_key')} AS timezone,
       e.location_locode, (${placeName}) AS port_name, ${instant('invalidated_at')},
       EXISTS (SELECT 1 FROM transport_events r WHERE r.previous_version_id = e.id) AS replaced,
       e.previous_version_id IS NOT NULL AS corrects
     FROM transport_events e WHERE ${ofContainer} ORDER BY e.timestamp`,
  ),
  shipmentContainers: db
    .prepare<[string], string>(
      'SELECT id FROM containers WHERE shipment_id = ? AND synced_at IS NOT NULL ORDER BY number',
    )
    .pluck(),
  shipmentTerminal: db.prepare<[string], string | null>('SELECT pod_terminal_id FROM shipments WHERE id = ?').pluck(),
  latestRequest: db
    .prepare<[string], string>(
      'SELECT id FROM tracking_requests WHERE shipment_id = ? AND synced_at IS NOT NULL ORDER BY created_at DESC LIMIT 1',
    )
    .pluck(),
  events: db.prepare<[string], TransportEventDetailRow>(
    `SELECT ${uuidText('e', 'id')} AS id, ${text('event_key')} AS event, ${instant('timestamp')}, ${text('timezone_key')} AS timezone,
       e.location_locode, (${placeName}) AS port, t.name AS terminal, v.name AS vessel, e.voyage_number,
       ${text('data_source_key')} AS data_source, ${instant('invalidated_at')},
       ${uuidText('e', 'previous_version_id')} AS previous_version_id, (${replacedBy}) AS replaced_by
     FROM transport_events e
     LEFT JOIN interned tk ON tk.key = e.terminal_key LEFT JOIN terminals t ON t.id = tk.text
     LEFT JOIN interned vk ON vk.key = e.vessel_key LEFT JOIN vessels v ON v.id = vk.text
     WHERE ${ofContainer} ORDER BY e.timestamp, e.id`,
  ),
  shipmentDestination: db.prepare<[string], LocationRow>(
    `SELECT kind, id, code, name, city, state_abbr, country_code, time_zone FROM locations
     WHERE id = (SELECT coalesce(destination_metro_area_id, destination_id) FROM shipments WHERE id = ?)`,
  ),
  shipmentPlan: db.prepare<[string], ShipmentPlanRow>(
    `SELECT pol_original_etd_at, destination_eta_at, destination_ata_at, destination_original_eta_at,
       destination_timezone, destination_terminal_id, shipping_line_scac
     FROM shipments WHERE id = ?`,
  ),
  shippingLine: db.prepare<[string], ShippingLineDetailRow>(
    'SELECT name, scac, raw FROM shipping_lines WHERE scac = ? ORDER BY raw IS NULL, id LIMIT 1',
  ),
}));

/** A terminal with its port's name, stub or synced (a stub has no `raw`). */
export function terminalDetailRow(db: Db, id: string): TerminalDetailRow | undefined {
  return statements(db).terminal.get(id);
}

/** A container's columns its detail shows (its record and its shipment's: `storedRecordOf`). */
export function containerDetailRow(db: Db, id: string): ContainerDetailRow | undefined {
  return statements(db).container.get(id);
}

/** A container's events, oldest first, for its milestone timeline, each saying whether it still stands. */
export function milestoneEvents(db: Db, containerId: string): MilestoneEventRow[] {
  return statements(db).milestoneEvents.all(containerId);
}

/** A shipment's synced containers, by number. */
export function shipmentContainerIds(db: Db, shipmentId: string): string[] {
  return statements(db).shipmentContainers.all(shipmentId);
}

/** The terminal a shipment is discharged at, if it names one. */
export function shipmentTerminalId(db: Db, shipmentId: string): string | null {
  return statements(db).shipmentTerminal.get(shipmentId) ?? null;
}

/** The newest synced tracking request that made this shipment. */
export function latestTrackingRequestId(db: Db, shipmentId: string): string | null {
  return statements(db).latestRequest.get(shipmentId) ?? null;
}

/** A container's transport events with place, terminal and vessel names, oldest first. */
export function transportEventRows(db: Db, containerId: string): TransportEventDetailRow[] {
  return statements(db).events.all(containerId);
}

/** Where a shipment is bound: its destination port or metro area, as the `locations` view names it. */
export function shipmentDestinationRow(db: Db, shipmentId: string): LocationRow | undefined {
  return statements(db).shipmentDestination.get(shipmentId);
}

/** A shipment's first plans, its destination's dates and terminal, and its line's SCAC. */
export function shipmentPlanRow(db: Db, shipmentId: string): ShipmentPlanRow | undefined {
  return statements(db).shipmentPlan.get(shipmentId);
}

/** The shipping line with this SCAC, if the store has it. */
export function shippingLineRow(db: Db, scac: string): ShippingLineDetailRow | undefined {
  return statements(db).shippingLine.get(scac);
}
