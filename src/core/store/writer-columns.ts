/**
 * The tables the store's writer fills: each one's column list and the positional upsert
 * generated from it, the order a page's types are written in, the container hash that tells a
 * changed box, search rows written only when their text changed, and the cache of reference
 * rows (ports, terminals) that lets a page skip the ones it repeats unchanged.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Db } from './database';
import type { StoredResource } from './resource';

/**
 * An idempotent upsert keyed by id, from a column list: positional parameters (binding 40
 * named ones costs more than the insert itself) and, on conflict, every column but id replaced
 * by the new value, or set by the expression `onConflict` gives for it.
 */
export function upsert<K extends string>(
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

export const containerColumns = [
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

export const shipmentColumns = [
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

export const eventColumns = [
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

export const trackingRequestColumns = [
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

/** Attributes that change on every check without anything happening to the box. */
const volatileContainerAttributes = new Set([
  'terminal_checked_at',
  'pod_last_tracking_request_at',
  'shipment_last_tracking_request_at',
  'updated_at',
]);

export function containerHash(resource: StoredResource): string {
  const stable = JSON.stringify(resource.attributes, (key, value: unknown) =>
    volatileContainerAttributes.has(key) ? undefined : value,
  );
  return createHash('sha1').update(stable).digest('base64');
}

/** Reference types first, so the rows that point at them find them (or their stubs) present. */
const writeOrder = [
  'port',
  'metro_area',
  'terminal',
  'rail_terminal',
  'vessel',
  'party',
  'shipping_line',
  'shipment',
  'container',
  'transport_event',
  'tracking_request',
  'custom_field_definition',
  'email_submission',
  'webhook',
];
const ranks = new Map(writeOrder.map((type, index) => [type, index]));
export function rank(type: string): number {
  return ranks.get(type) ?? writeOrder.length;
}

/**
 * Keeps a search row equal to `body` (none when null), writing only when it differs: a page
 * synced again mostly repeats what the store holds, and an FTS5 row rewritten costs its
 * whole trigram list twice (out, then in).
 */
export function syncSearchRow(
  current: Database.Statement,
  remove: Database.Statement,
  insert: Database.Statement,
  rowid: number,
  body: string | null,
): void {
  const existing = current.get(rowid) as string | undefined;
  if (existing === (body ?? undefined)) return;
  if (existing !== undefined) remove.run(rowid);
  if (body !== null) insert.run(rowid, body);
}

/** Date attributes the derived container fields read, besides the columns written above. */
export const derivedDateAttributes = [
  'pickup_lfd',
  'ind_facility_lfd_on',
  'pod_arrived_at',
  'pod_discharged_at',
  'pod_full_out_at',
  'final_destination_full_out_at',
  'empty_terminated_at',
  'pod_rail_loaded_at',
  'pod_rail_departed_at',
  'ind_rail_unloaded_at',
] as const;
export const deadlineDates = {
  member: 'import_deadlines',
  names: ['pickup_lfd_terminal', 'pickup_lfd_rail', 'pickup_lfd_line'],
};

/**
 * Every shipment page includes the same ports and terminals again; remember what each small
 * reference row last held so an unchanged one is not written again.
 */
const referenceCache = new WeakMap<Db, Map<string, string>>();
const cachedTypes = new Set(['port', 'metro_area', 'terminal', 'rail_terminal', 'vessel', 'shipping_line', 'party']);
export function unchangedReference(
  db: Db,
  resource: StoredResource,
  raw: string,
  written: Map<string, string>,
): boolean {
  if (!cachedTypes.has(resource.type)) return false;
  const key = `${resource.type}:${resource.id}`;
  if (referenceCache.get(db)?.get(key) === raw) return true;
  // Remembered only once the page has committed: a rolled-back page must be written again.
  written.set(key, raw);
  return false;
}

/** The reference rows a committed page wrote, so the next page can skip them when unchanged. */
export function rememberReferences(db: Db, written: Map<string, string>): void {
  let cache = referenceCache.get(db);
  if (!cache) {
    cache = new Map<string, string>();
    referenceCache.set(db, cache);
  }
  for (const [key, raw] of written) cache.set(key, raw);
}
