/**
 * The prepared statements of the store's writer, made once per connection: positional upserts
 * generated from each table's column list, stubs for references, and the search-row lookups.
 */
import type { Db } from './database';

/**
 * An idempotent upsert keyed by id, from a column list: positional parameters (binding 40
 * named ones costs more than the insert itself) and, on conflict, every column but id replaced
 * by the new value, or set by the expression `onConflict` gives for it.
 */
function upsert<K extends string>(
  db: Db,
  table: string,
  columns: readonly K[],
  onConflict: Partial<Record<K, string>> = {},
): { run: (row: Record<K, unknown>) => void } {
  const updates = columns.filter((c) => c !== 'id').map((c) => `${c} = ${onConflict[c] ?? `excluded.${c}`}`);
  const statement = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
     ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
  );
  return {
    run: (row) => {
      statement.run(columns.map((c) => row[c]));
    },
  };
}

const containerColumns = [
  'id',
  'shipment_id',
  'number',
  'equipment_type',
  'equipment_length',
  'equipment_height',
  'weight_lbs',
  'seal_number',
  'api_status',
  'status',
  'pod_terminal_id',
  'pod_arrived_at',
  'pod_discharged_at',
  'available_for_pickup',
  'availability_known',
  'pickup_lfd',
  'last_free_day',
  'lfd_deadline_at',
  'lfd_timezone',
  'holds',
  'hold_types',
  'holds_count',
  'fees_total',
  'pickup_ready',
  'pickup_appointment_at',
  'pod_full_out_at',
  'final_destination_full_out_at',
  'empty_terminated_at',
  'location_at_pod_terminal',
  'pod_rail_carrier_scac',
  'ind_rail_carrier_scac',
  'pod_rail_loaded_at',
  'pod_rail_departed_at',
  'ind_eta_at',
  'ind_ata_at',
  'pod_timezone',
  'terminal_checked_at',
  'ref_numbers',
  'created_at',
  'raw',
  'raw_hash',
  'synced_at',
  'changed_at',
] as const;

const shipmentColumns = [
  'id',
  'bill_of_lading',
  'normalized_number',
  'shipping_line_scac',
  'shipping_line_name',
  'customer_name',
  'pol_id',
  'pol_locode',
  'pol_name',
  'pod_id',
  'pod_locode',
  'pod_name',
  'pod_terminal_id',
  'destination_id',
  'destination_locode',
  'destination_name',
  'pod_vessel_name',
  'pod_vessel_imo',
  'pod_voyage_number',
  'pol_etd_at',
  'pol_atd_at',
  'pod_eta_at',
  'pod_original_eta_at',
  'pod_ata_at',
  'destination_eta_at',
  'destination_ata_at',
  'pol_timezone',
  'pod_timezone',
  'destination_timezone',
  'eta_slip_hours',
  'tracking_stopped_at',
  'tracking_stopped_reason',
  'ref_numbers',
  'tags',
  'container_count',
  'created_at',
  'raw',
  'synced_at',
] as const;

const eventColumns = [
  'id',
  'container_id',
  'shipment_id',
  'event',
  'timestamp',
  'timezone',
  'location_locode',
  'location_id',
  'terminal_id',
  'vessel_id',
  'voyage_number',
  'data_source',
  'created_at',
  'raw',
  'synced_at',
] as const;

const trackingRequestColumns = [
  'id',
  'request_number',
  'request_type',
  'scac',
  'status',
  'failed_reason',
  'is_retrying',
  'retry_count',
  'shipment_id',
  'customer_id',
  'ref_numbers',
  'tags',
  'created_at',
  'updated_at',
  'raw',
  'synced_at',
] as const;

function prepare(db: Db) {
  const stub = (table: string) => db.prepare(`INSERT OR IGNORE INTO ${table} (id) VALUES (?)`);
  return {
    stubPort: stub('ports'),
    stubTerminal: stub('terminals'),
    stubVessel: stub('vessels'),
    stubParty: stub('parties'),
    stubShipment: stub('shipments'),
    stubContainer: stub('containers'),
    port: upsert(db, 'ports', [
      'id',
      'code',
      'name',
      'city',
      'state_abbr',
      'country_code',
      'time_zone',
      'raw',
      'synced_at',
    ]),
    terminal: upsert(db, 'terminals', ['id', 'port_id', 'name', 'nickname', 'firms_code', 'raw', 'synced_at']),
    vessel: upsert(db, 'vessels', ['id', 'name', 'imo', 'raw', 'synced_at']),
    party: upsert(db, 'parties', ['id', 'company_name', 'raw', 'synced_at']),
    shippingLine: upsert(db, 'shipping_lines', ['id', 'scac', 'name', 'short_name', 'raw', 'synced_at']),
    customField: upsert(db, 'custom_field_definitions', [
      'id',
      'entity_type',
      'api_slug',
      'display_name',
      'data_type',
      'raw',
      'synced_at',
    ]),
    emailSubmission: upsert(db, 'email_submissions', ['id', 'subject', 'sent_at', 'raw', 'synced_at']),
    webhook: upsert(db, 'webhooks', ['id', 'url', 'active', 'raw', 'synced_at']),
    shipment: upsert(db, 'shipments', shipmentColumns),
    deleteTags: db.prepare('DELETE FROM shipment_tags WHERE shipment_id = ?'),
    insertTag: db.prepare('INSERT OR IGNORE INTO shipment_tags (shipment_id, tag) VALUES (?, ?)'),
    shipmentContext: db.prepare('SELECT pol_atd_at, pod_timezone, destination_timezone FROM shipments WHERE id = ?'),
    // changed_at moves only when the box's own data changed (raw_hash), so events are fetched only then.
    container: upsert(db, 'containers', containerColumns, {
      changed_at:
        'CASE WHEN containers.raw_hash IS excluded.raw_hash THEN containers.changed_at ELSE excluded.synced_at END',
    }),
    event: upsert(db, 'transport_events', eventColumns),
    eventsSynced: db.prepare('UPDATE containers SET events_synced_at = ? WHERE id = ?'),
    trackingRequest: upsert(db, 'tracking_requests', trackingRequestColumns),
    // A RETURNING rowid on the upserts made them three times slower than this lookup.
    shipmentRowid: db.prepare('SELECT rowid FROM shipments WHERE id = ?').pluck(),
    containerRowid: db.prepare('SELECT rowid FROM containers WHERE id = ?').pluck(),
    requestRowid: db.prepare('SELECT rowid FROM tracking_requests WHERE id = ?').pluck(),
    shipmentSearchBody: db.prepare('SELECT body FROM shipment_search WHERE rowid = ?').pluck(),
    deleteShipmentSearch: db.prepare('DELETE FROM shipment_search WHERE rowid = ?'),
    insertShipmentSearch: db.prepare('INSERT INTO shipment_search (rowid, body) VALUES (?, ?)'),
    containerSearchBody: db.prepare('SELECT body FROM container_search WHERE rowid = ?').pluck(),
    deleteContainerSearch: db.prepare('DELETE FROM container_search WHERE rowid = ?'),
    insertContainerSearch: db.prepare('INSERT INTO container_search (rowid, body) VALUES (?, ?)'),
    requestSearchBody: db.prepare('SELECT body FROM tracking_request_search WHERE rowid = ?').pluck(),
    deleteRequestSearch: db.prepare('DELETE FROM tracking_request_search WHERE rowid = ?'),
    insertRequestSearch: db.prepare('INSERT INTO tracking_request_search (rowid, body) VALUES (?, ?)'),
  };
}

export type Statements = ReturnType<typeof prepare>;

/** The statements of one connection, prepared on first use. */
const statementCache = new WeakMap<Db, Statements>();
export function statements(db: Db): Statements {
  let s = statementCache.get(db);
  if (!s) {
    s = prepare(db);
    statementCache.set(db, s);
  }
  return s;
}
