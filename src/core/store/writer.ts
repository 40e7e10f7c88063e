/**
 * Writes API resources into the store: one transaction per page, upserts keyed by the API id
 * (so a page written twice changes nothing), stub rows for references not synced yet, derived
 * container columns, and the search rows of every shipment a page touched. Date columns take
 * only real instants (`instant.ts`): a bad date is stored as NULL, its text kept in `raw`.
 * Column lists, write order and the reference cache are in `writer-columns.ts`.
 */
import { deriveContainer, type ShipmentContext } from '../derive/container';
import type Database from 'better-sqlite3';
import type { Db } from './database';
import { storedInstant, storedInstantOrDate, withCheckedDates } from './instant';
import {
  containerColumns,
  containerHash,
  deadlineDates,
  derivedDateAttributes,
  eventColumns,
  rank,
  rememberReferences,
  shipmentColumns,
  syncSearchRow,
  trackingRequestColumns,
  unchangedReference,
  upsert,
} from './writer-columns';
import { bool, num, relId, relIds, relType, str, strings, type StoredResource } from './resource';

export interface WriteCounts {
  [type: string]: number;
}

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

type Statements = ReturnType<typeof prepare>;

const statementCache = new WeakMap<Db, Statements>();
function statements(db: Db): Statements {
  let s = statementCache.get(db);
  if (!s) {
    s = prepare(db);
    statementCache.set(db, s);
  }
  return s;
}

export interface WriteOptions {
  syncedAt: string;
  /** More writes that must commit with the page (a sync checkpoint). */
  alsoInTransaction?: () => void;
  /** Containers whose transport events this page carries in full (their events_synced_at moves). */
  eventsCompleteFor?: Iterable<string>;
}

/** What one page's write remembers while it runs, to skip work it has already done. */
interface PageWrite {
  s: Statements;
  syncedAt: string;
  /** Ids each stub statement has already made sure of (stubbed, or written in full) in this page. */
  present: Map<Database.Statement, Set<string>>;
  /** The shipment fields a container's derived columns need, for shipments written in this page. */
  shipmentContexts: Map<string, ShipmentContext>;
}

/** Writes one page (data plus included) in a single transaction; returns counts by type. */
export function writeResources(db: Db, resources: StoredResource[], options: WriteOptions): WriteCounts {
  const s = statements(db);
  const counts: WriteCounts = {};
  const sorted = [...resources].sort((a, b) => rank(a.type) - rank(b.type));
  const written = new Map<string, string>();
  const write = db.transaction(() => {
    const page: PageWrite = { s, syncedAt: options.syncedAt, present: new Map(), shipmentContexts: new Map() };
    for (const resource of sorted) {
      const raw = json(resource);
      if (unchangedReference(db, resource, raw, written)) continue;
      if (writeOne(page, resource, raw)) {
        counts[resource.type] = (counts[resource.type] ?? 0) + 1;
      }
    }
    for (const id of options.eventsCompleteFor ?? []) s.eventsSynced.run(options.syncedAt, id);
    options.alsoInTransaction?.();
  });
  // Every reference gets a stub row before the row that points at it, so the page keeps the
  // foreign keys by construction; SQLite's own per-row checks made a page of events ~15x
  // slower, so they are off for this write (tests run foreign_key_check after syncs).
  // The pragma cannot change inside a transaction: a caller's transaction keeps the checks.
  const toggle = !db.inTransaction && db.pragma('foreign_keys', { simple: true }) === 1;
  if (toggle) db.pragma('foreign_keys = OFF');
  try {
    write();
  } finally {
    if (toggle) db.pragma('foreign_keys = ON');
  }
  // Inside a caller's transaction the page may still roll back: remember nothing then.
  if (!db.inTransaction) rememberReferences(db, written);
  return counts;
}

function json(value: unknown): string {
  return JSON.stringify(value);
}

function presentIn(page: PageWrite, stub: Database.Statement): Set<string> {
  let ids = page.present.get(stub);
  if (ids === undefined) {
    ids = new Set();
    page.present.set(stub, ids);
  }
  return ids;
}

/**
 * Makes sure a referenced row exists (as a stub if not synced yet) and returns its id. Within
 * a page each id is seen to once: a page names the same ports and shipments hundreds of times.
 */
function stubRef(page: PageWrite, stub: Database.Statement, id: string | null): string | null {
  if (id) {
    const ids = presentIn(page, stub);
    if (!ids.has(id)) {
      stub.run(id);
      ids.add(id);
    }
  }
  return id;
}

function writeOne(page: PageWrite, r: StoredResource, raw: string): boolean {
  const { s, syncedAt } = page;
  const a = r.attributes;
  switch (r.type) {
    case 'port':
    case 'metro_area':
      s.port.run({
        id: r.id,
        code: str(a.code),
        name: str(a.name),
        city: str(a.city),
        state_abbr: str(a.state_abbr),
        country_code: str(a.country_code),
        time_zone: str(a.time_zone),
        raw,
        synced_at: syncedAt,
      });
      presentIn(page, s.stubPort).add(r.id);
      return true;
    case 'terminal':
    case 'rail_terminal':
      s.terminal.run({
        id: r.id,
        port_id: stubRef(page, s.stubPort, relId(r, 'port')),
        name: str(a.name),
        nickname: str(a.nickname),
        firms_code: str(a.firms_code),
        raw,
        synced_at: syncedAt,
      });
      presentIn(page, s.stubTerminal).add(r.id);
      return true;
    case 'vessel':
      s.vessel.run({ id: r.id, name: str(a.name), imo: str(a.imo), raw, synced_at: syncedAt });
      presentIn(page, s.stubVessel).add(r.id);
      return true;
    case 'party':
      s.party.run({ id: r.id, company_name: str(a.company_name), raw, synced_at: syncedAt });
      presentIn(page, s.stubParty).add(r.id);
      return true;
    case 'shipping_line':
      s.shippingLine.run({
        id: r.id,
        scac: str(a.scac),
        name: str(a.name),
        short_name: str(a.short_name),
        raw,
        synced_at: syncedAt,
      });
      return true;
    case 'custom_field_definition':
      s.customField.run({
        id: r.id,
        entity_type: str(a.entity_type),
        api_slug: str(a.api_slug),
        display_name: str(a.display_name),
        data_type: str(a.data_type),
        raw,
        synced_at: syncedAt,
      });
      return true;
    case 'email_submission':
      s.emailSubmission.run({
        id: r.id,
        subject: str(a.subject),
        sent_at: storedInstant(a.sent_at),
        raw,
        synced_at: syncedAt,
      });
      return true;
    case 'webhook':
      s.webhook.run({ id: r.id, url: str(a.url), active: bool(a.active), raw, synced_at: syncedAt });
      return true;
    case 'shipment':
      writeShipment(page, r, raw);
      return true;
    case 'container': {
      const shipmentId = stubRef(page, s.stubShipment, relId(r, 'shipment'));
      writeContainer(page, r, raw, shipmentId);
      presentIn(page, s.stubContainer).add(r.id);
      return true;
    }
    case 'transport_event': {
      const containerId = relId(r, 'container');
      if (!containerId) return false; // an event belongs to a container; without one it cannot be placed
      stubRef(page, s.stubContainer, containerId);
      const locationId =
        relType(r, 'location') === 'port' || relType(r, 'location') === 'metro_area' ? relId(r, 'location') : null;
      s.event.run({
        id: r.id,
        container_id: containerId,
        shipment_id: stubRef(page, s.stubShipment, relId(r, 'shipment')),
        event: str(a.event),
        timestamp: storedInstant(a.timestamp),
        timezone: str(a.timezone),
        location_locode: str(a.location_locode),
        location_id: stubRef(page, s.stubPort, locationId),
        terminal_id: stubRef(page, s.stubTerminal, relId(r, 'terminal')),
        vessel_id: stubRef(page, s.stubVessel, relId(r, 'vessel')),
        voyage_number: str(a.voyage_number),
        data_source: str(a.data_source),
        created_at: storedInstant(a.created_at),
        raw,
        synced_at: syncedAt,
      });
      return true;
    }
    case 'tracking_request': {
      const tracked = relType(r, 'tracked_object') === 'shipment' ? relId(r, 'tracked_object') : null;
      s.trackingRequest.run({
        id: r.id,
        request_number: str(a.request_number),
        request_type: str(a.request_type),
        scac: str(a.scac),
        status: str(a.status),
        failed_reason: str(a.failed_reason),
        is_retrying: bool(a.is_retrying),
        retry_count: num(a.retry_count),
        shipment_id: stubRef(page, s.stubShipment, tracked),
        customer_id: stubRef(page, s.stubParty, relId(r, 'customer')),
        ref_numbers: json(strings(a.ref_numbers)),
        tags: json(strings(a.tags)),
        created_at: storedInstant(a.created_at),
        updated_at: storedInstant(a.updated_at),
        raw,
        synced_at: syncedAt,
      });
      syncSearchRow(
        s.requestSearchBody,
        s.deleteRequestSearch,
        s.insertRequestSearch,
        s.requestRowid.get(r.id) as number,
        [a.request_number, a.scac, ...strings(a.ref_numbers), ...strings(a.tags)].join(' '),
      );
      return true;
    }
    default:
      return false; // a type the store does not keep; the page's other resources still land
  }
}

function writeShipment(page: PageWrite, r: StoredResource, raw: string): void {
  const { s, syncedAt } = page;
  const a = r.attributes;
  // Dates are checked once here: a column holds a real instant or NULL (raw keeps what came).
  const podEta = storedInstant(a.pod_eta_at);
  const podAta = storedInstant(a.pod_ata_at);
  const original = storedInstant(a.pod_original_eta_at);
  const eta = podEta ?? podAta;
  const slip = eta && original ? (Date.parse(eta) - Date.parse(original)) / 3_600_000 : null;
  const refNumbers = strings(a.ref_numbers);
  const tags = strings(a.tags);
  const destinationType = relType(r, 'destination');
  const row = {
    id: r.id,
    bill_of_lading: str(a.bill_of_lading_number),
    normalized_number: str(a.normalized_number),
    shipping_line_scac: str(a.shipping_line_scac),
    shipping_line_name: str(a.shipping_line_name),
    customer_name: str(a.customer_name),
    pol_id: stubRef(page, s.stubPort, relId(r, 'port_of_lading')),
    pol_locode: str(a.port_of_lading_locode),
    pol_name: str(a.port_of_lading_name),
    pod_id: stubRef(page, s.stubPort, relId(r, 'port_of_discharge')),
    pod_locode: str(a.port_of_discharge_locode),
    pod_name: str(a.port_of_discharge_name),
    pod_terminal_id: stubRef(page, s.stubTerminal, relId(r, 'pod_terminal')),
    destination_id: stubRef(
      page,
      s.stubPort,
      destinationType === 'port' || destinationType === 'metro_area' ? relId(r, 'destination') : null,
    ),
    destination_locode: str(a.destination_locode),
    destination_name: str(a.destination_name),
    pod_vessel_name: str(a.pod_vessel_name),
    pod_vessel_imo: str(a.pod_vessel_imo),
    pod_voyage_number: str(a.pod_voyage_number),
    pol_etd_at: storedInstant(a.pol_etd_at),
    pol_atd_at: storedInstant(a.pol_atd_at),
    pod_eta_at: podEta,
    pod_original_eta_at: original,
    pod_ata_at: podAta,
    destination_eta_at: storedInstant(a.destination_eta_at),
    destination_ata_at: storedInstant(a.destination_ata_at),
    pol_timezone: str(a.pol_timezone),
    pod_timezone: str(a.pod_timezone),
    destination_timezone: str(a.destination_timezone),
    eta_slip_hours: slip !== null && Number.isFinite(slip) ? Math.round(slip * 10) / 10 : null,
    tracking_stopped_at: storedInstant(a.line_tracking_stopped_at),
    tracking_stopped_reason: str(a.line_tracking_stopped_reason),
    ref_numbers: json(refNumbers),
    tags: json(tags),
    container_count: relIds(r, 'containers').length,
    created_at: storedInstant(a.created_at),
    raw,
    synced_at: syncedAt,
  };
  s.shipment.run(row);
  presentIn(page, s.stubShipment).add(r.id);
  page.shipmentContexts.set(r.id, {
    polAtdAt: row.pol_atd_at,
    podTimezone: row.pod_timezone,
    destinationTimezone: row.destination_timezone,
  });
  s.deleteTags.run(r.id);
  for (const tag of tags) s.insertTag.run(r.id, tag);
  // Its numbers, references, tags, vessel, ports, customer and carrier: what a forwarder types.
  const body = [
    row.bill_of_lading,
    row.normalized_number,
    ...refNumbers,
    ...tags,
    row.pod_vessel_name,
    row.pol_name,
    row.pol_locode,
    row.pod_name,
    row.pod_locode,
    row.destination_name,
    row.customer_name,
    row.shipping_line_scac,
  ]
    .filter((v) => typeof v === 'string' && v !== '')
    .join(' ');
  const rowid = s.shipmentRowid.get(r.id) as number;
  syncSearchRow(s.shipmentSearchBody, s.deleteShipmentSearch, s.insertShipmentSearch, rowid, body);
}

function shipmentContext(page: PageWrite, shipmentId: string | null): ShipmentContext {
  const known = shipmentId === null ? undefined : page.shipmentContexts.get(shipmentId);
  if (known !== undefined) return known;
  const stored = (shipmentId ? page.s.shipmentContext.get(shipmentId) : undefined) as
    { pol_atd_at: string | null; pod_timezone: string | null; destination_timezone: string | null } | undefined;
  return {
    polAtdAt: stored?.pol_atd_at ?? null,
    podTimezone: stored?.pod_timezone ?? null,
    destinationTimezone: stored?.destination_timezone ?? null,
  };
}

function writeContainer(page: PageWrite, r: StoredResource, raw: string, shipmentId: string | null): void {
  const { s, syncedAt } = page;
  const a = r.attributes;
  const derived = deriveContainer(
    withCheckedDates(a, derivedDateAttributes, deadlineDates),
    shipmentContext(page, shipmentId),
  );
  const terminalId = stubRef(page, s.stubTerminal, relId(r, 'pod_terminal'));
  const number = str(a.number);
  s.container.run({
    id: r.id,
    shipment_id: shipmentId,
    number,
    equipment_type: str(a.equipment_type),
    equipment_length: num(a.equipment_length),
    equipment_height: str(a.equipment_height),
    weight_lbs: num(a.weight_in_lbs),
    seal_number: str(a.seal_number),
    api_status: str(a.current_status),
    status: derived.status,
    pod_terminal_id: terminalId,
    pod_arrived_at: storedInstant(a.pod_arrived_at),
    pod_discharged_at: storedInstant(a.pod_discharged_at),
    available_for_pickup: bool(a.available_for_pickup),
    availability_known: bool(a.availability_known),
    pickup_lfd: storedInstantOrDate(a.pickup_lfd),
    last_free_day: derived.lastFreeDay,
    lfd_deadline_at: derived.lfdDeadlineAt,
    lfd_timezone: derived.lfdTimezone,
    holds: json(derived.holds),
    hold_types: derived.holdTypes.length > 0 ? derived.holdTypes.join(',') : null,
    holds_count: derived.holds.length,
    fees_total: derived.feesTotal,
    pickup_ready: derived.pickupReady ? 1 : 0,
    pickup_appointment_at: storedInstant(a.pickup_appointment_at),
    pod_full_out_at: storedInstant(a.pod_full_out_at),
    final_destination_full_out_at: storedInstant(a.final_destination_full_out_at),
    empty_terminated_at: storedInstant(a.empty_terminated_at),
    location_at_pod_terminal: str(a.location_at_pod_terminal),
    pod_rail_carrier_scac: str(a.pod_rail_carrier_scac),
    ind_rail_carrier_scac: str(a.ind_rail_carrier_scac),
    pod_rail_loaded_at: storedInstant(a.pod_rail_loaded_at),
    pod_rail_departed_at: storedInstant(a.pod_rail_departed_at),
    ind_eta_at: storedInstant(a.ind_eta_at),
    ind_ata_at: storedInstant(a.ind_ata_at),
    pod_timezone: str(a.pod_timezone),
    terminal_checked_at: storedInstant(a.terminal_checked_at),
    ref_numbers: json(strings(a.ref_numbers)),
    created_at: storedInstant(a.created_at),
    raw,
    raw_hash: containerHash(r),
    synced_at: syncedAt,
    changed_at: syncedAt,
  });
  // A container's own search row holds its number; the rest is found through its shipment's row.
  const rowid = s.containerRowid.get(r.id) as number;
  syncSearchRow(s.containerSearchBody, s.deleteContainerSearch, s.insertContainerSearch, rowid, number || null);
}
