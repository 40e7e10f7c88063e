/** Detail views read from the local database: they work offline. */
import { QuaysideError } from '../errors';
import { eventLabel } from '../../shared/labels';
import type {
  ContainerDetail,
  LookupRecord,
  ShipmentDetail,
  TerminalInfo,
  TransportEventRow,
} from '../../shared/types';
import type { Db } from '../store/database';
import { getContainerRow } from '../store/queries/containers';
import { getShipmentRow } from '../store/queries/shipments';
import { buildMilestones } from './timeline';

function parseRaw(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') return {};
  try {
    const parsed = JSON.parse(raw) as { attributes?: Record<string, unknown> };
    return parsed.attributes ?? {};
  } catch {
    return {};
  }
}

function terminalInfo(db: Db, id: string | null): TerminalInfo | null {
  if (!id) return null;
  const row = db
    .prepare(
      'SELECT t.id, t.name, t.nickname, t.firms_code, t.raw, p.name AS port FROM terminals t LEFT JOIN ports p ON p.id = t.port_id WHERE t.id = ?',
    )
    .get(id) as Record<string, string | null> | undefined;
  if (!row || row.raw === null) return null;
  const a = parseRaw(row.raw);
  const address = [a.street, a.city, [a.state_abbr ?? a.state, a.zip].filter(Boolean).join(' ')]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(', ');
  return {
    id: row.id!,
    name: row.name ?? null,
    nickname: row.nickname ?? null,
    firmsCode: row.firms_code ?? null,
    address: address || null,
    port: row.port ?? null,
  };
}

export function containerDetail(db: Db, id: string): ContainerDetail {
  const container = getContainerRow(db, id);
  if (!container) throw new QuaysideError('not_found', 'This container is not in the local data (yet).');
  const row = db
    .prepare(
      `SELECT c.raw AS container_raw, s.raw AS shipment_raw, coalesce(c.pod_terminal_id, s.pod_terminal_id) AS terminal_id,
         c.events_synced_at, c.location_at_pod_terminal, c.pod_rail_carrier_scac, c.ind_rail_carrier_scac
       FROM containers c LEFT JOIN shipments s ON s.id = c.shipment_id WHERE c.id = ?`,
    )
    .get(id) as Record<string, string | null>;
  const events = db
    .prepare(
      `SELECT e.event, e.timestamp, e.timezone, e.location_locode, p.name AS port_name
       FROM transport_events e LEFT JOIN ports p ON p.id = e.location_id WHERE e.container_id = ? ORDER BY e.timestamp`,
    )
    .all(id) as {
    event: string | null;
    timestamp: string | null;
    timezone: string | null;
    location_locode: string | null;
    port_name: string | null;
  }[];
  return {
    container,
    milestones: buildMilestones(parseRaw(row.shipment_raw), parseRaw(row.container_raw), events),
    terminal: terminalInfo(db, row.terminal_id ?? null),
    railCarriers: { pod: row.pod_rail_carrier_scac ?? null, inland: row.ind_rail_carrier_scac ?? null },
    location: row.location_at_pod_terminal ?? null,
    eventsSyncedAt: row.events_synced_at ?? null,
  };
}

export function shipmentDetail(db: Db, id: string): ShipmentDetail {
  const shipment = getShipmentRow(db, id);
  if (!shipment) throw new QuaysideError('not_found', 'This shipment is not in the local data (yet).');
  const containerIds = db
    .prepare('SELECT id FROM containers WHERE shipment_id = ? AND synced_at IS NOT NULL ORDER BY number')
    .all(id) as { id: string }[];
  const meta = db.prepare('SELECT pod_terminal_id FROM shipments WHERE id = ?').get(id) as {
    pod_terminal_id: string | null;
  };
  const request = db
    .prepare(
      'SELECT id FROM tracking_requests WHERE shipment_id = ? AND synced_at IS NOT NULL ORDER BY created_at DESC LIMIT 1',
    )
    .get(id) as { id: string } | undefined;
  return {
    shipment,
    containers: containerIds.map((c) => containerDetail(db, c.id)),
    terminal: terminalInfo(db, meta.pod_terminal_id),
    trackingRequestId: request?.id ?? null,
  };
}

export function containerEvents(db: Db, id: string): TransportEventRow[] {
  const rows = db
    .prepare(
      `SELECT e.id, e.event, e.timestamp, e.timezone, e.location_locode, p.name AS port, t.name AS terminal, v.name AS vessel,
         e.voyage_number, e.data_source
       FROM transport_events e LEFT JOIN ports p ON p.id = e.location_id LEFT JOIN terminals t ON t.id = e.terminal_id
       LEFT JOIN vessels v ON v.id = e.vessel_id WHERE e.container_id = ? ORDER BY e.timestamp, e.id`,
    )
    .all(id) as Record<string, string | null>[];
  return rows.map((r) => ({
    id: r.id!,
    event: r.event ?? '',
    label: eventLabel(r.event ?? ''),
    timestamp: r.timestamp ?? null,
    timezone: r.timezone ?? null,
    location: r.port ?? null,
    locationCode: r.location_locode ?? null,
    terminal: r.terminal ?? null,
    vessel: r.vessel ?? null,
    voyage: r.voyage_number ?? null,
    dataSource: r.data_source ?? null,
  }));
}

const lookupTables = {
  shipping_line: { table: 'shipping_lines', title: 'name' },
  terminal: { table: 'terminals', title: 'name' },
  party: { table: 'parties', title: 'company_name' },
  custom_field_definition: { table: 'custom_field_definitions', title: 'display_name' },
  email_submission: { table: 'email_submissions', title: 'subject' },
  port: { table: 'ports', title: 'name' },
} as const;
export type LookupType = keyof typeof lookupTables;

function toLookup(type: LookupType, row: Record<string, string | null>): LookupRecord {
  return {
    id: row.id!,
    type,
    title: row.title ?? null,
    attributes: parseRaw(row.raw),
    syncedAt: row.synced_at ?? null,
  };
}

export function lookup(db: Db, type: LookupType, id: string): LookupRecord {
  const { table, title } = lookupTables[type];
  // Ports are also found by UN/LOCODE, shipping lines by SCAC.
  const alt = type === 'port' ? ' OR code = ?' : type === 'shipping_line' ? ' OR scac = ?' : '';
  const params = alt ? [id, id.toUpperCase()] : [id];
  const row = db
    .prepare(
      `SELECT id, ${title} AS title, raw, synced_at FROM ${table} WHERE (id = ?${alt}) AND synced_at IS NOT NULL LIMIT 1`,
    )
    .get(...params) as Record<string, string | null> | undefined;
  if (!row) throw new QuaysideError('not_found', `This ${type.replaceAll('_', ' ')} is not in the local data (yet).`);
  return toLookup(type, row);
}

export function listShippingLines(db: Db): LookupRecord[] {
  const rows = db
    .prepare('SELECT id, name AS title, raw, synced_at FROM shipping_lines WHERE synced_at IS NOT NULL ORDER BY name')
    .all() as Record<string, string | null>[];
  return rows.map((r) => toLookup('shipping_line', r));
}
