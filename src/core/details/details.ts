/** Detail views read from the local database: they work offline. */
import { QuaysideError } from '../errors';
import { eventLabel } from '../../shared/labels';
import type {
  ContainerDetail,
  LocationInfo,
  LookupRecord,
  Milestone,
  ShipmentDetail,
  ShippingLineInfo,
  TerminalInfo,
  TransportEventRow,
} from '../../shared/types';
import type { Db } from '../store/database';
import { getContainerRow } from '../store/queries/containers';
import {
  containerDetailRow,
  latestTrackingRequestId,
  milestoneEvents,
  shipmentContainerIds,
  shipmentDestinationRow,
  shipmentPlanRow,
  shipmentTerminalId,
  shippingLineRow,
  terminalDetailRow,
  transportEventRows,
  type LocationRow,
} from '../store/queries/details';
import type { LookupName } from '../../shared/lookups';
import { resources } from '../resources';
import { eventsSyncedAtOf } from '../resources/containers';
import { lookupRow, shippingLineRows, type LookupRow } from '../store/queries/lookups';
import { storedRecordOf } from '../store/queries/raw';
import { getShipmentRow } from '../store/queries/shipments';
import { buildMilestones } from './timeline';
import { carrierWordings, wordingFor, type CarrierWording } from '../store/queries/raw-events';

function parseRaw(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') return {};
  try {
    const parsed = JSON.parse(raw) as { attributes?: Record<string, unknown> };
    return parsed.attributes ?? {};
  } catch {
    return {};
  }
}

/** A stored record's attributes (none for a stub or a record the store does not have). */
function attributesOf(record: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const attributes = record?.attributes;
  return typeof attributes === 'object' && attributes !== null && !Array.isArray(attributes)
    ? (attributes as Record<string, unknown>)
    : {};
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A web address the service gave, kept only when it is one (http or https); shown as text, never opened. */
function webAddress(value: unknown): string | null {
  const text = textOf(value);
  if (text === null || !URL.canParse(text)) return null;
  const protocol = new URL(text).protocol;
  return protocol === 'https:' || protocol === 'http:' ? text : null;
}

function parseList<T>(json: string | null): T[] | null {
  if (json === null) return null;
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed as T[]) : null;
  } catch {
    return null;
  }
}

function terminalInfo(db: Db, id: string | null): TerminalInfo | null {
  if (!id) return null;
  const row = terminalDetailRow(db, id);
  if (!row || row.raw === null) return null;
  const a = parseRaw(row.raw);
  const address = [a.street, a.city, [a.state_abbr ?? a.state, a.zip].filter(Boolean).join(' ')]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(', ');
  return {
    id: row.id,
    name: row.name,
    nickname: row.nickname,
    firmsCode: row.firms_code,
    smdgCode: textOf(a.smdg_code),
    bicFacilityCode: textOf(a.bic_facility_code),
    address: address || null,
    port: row.port,
    metroArea:
      row.metro_area === null && row.metro_area_code === null
        ? null
        : { name: row.metro_area, code: row.metro_area_code },
  };
}

/** A row of the `locations` view as the views show it; a stub (nothing known yet) is none. */
export function locationInfo(row: LocationRow | undefined): LocationInfo | null {
  if (!row || (row.name === null && row.code === null)) return null;
  return {
    kind: row.kind,
    id: row.id,
    code: row.code,
    name: row.name,
    stateAbbr: row.state_abbr,
    countryCode: row.country_code,
    timeZone: row.time_zone,
  };
}

/** The destination terminal when it is a rail ramp (it names a metro area). */
function railTerminalInfo(db: Db, id: string | null): TerminalInfo | null {
  const info = terminalInfo(db, id);
  return info?.metroArea ? info : null;
}

/** Each milestone with the carrier's own words for it, where its raw events say them. */
function withCarrierWording(milestones: Milestone[], wordings: readonly CarrierWording[]): Milestone[] {
  if (wordings.length === 0) return milestones;
  return milestones.map((m) => {
    const wording = wordingFor(wordings, m.key, m.at);
    return wording === null ? m : { ...m, carrierWording: wording };
  });
}

export function containerDetail(db: Db, id: string): ContainerDetail {
  const container = getContainerRow(db, id);
  if (!container) throw new QuaysideError('not_found', 'This container is not in the local data (yet).');
  // The list row above was found, so this one is there too (same id, same read).
  const row = containerDetailRow(db, id)!;
  const events = milestoneEvents(db, id);
  const shipment = attributesOf(row.shipment_id === null ? null : storedRecordOf(db, 'shipment', row.shipment_id));
  const attributes = attributesOf(storedRecordOf(db, 'container', id));
  return {
    container,
    milestones: withCarrierWording(buildMilestones(shipment, attributes, events), carrierWordings(db, id)),
    emptyOut: row.empty_out_at ? { at: row.empty_out_at, timezone: row.pol_timezone } : null,
    delivered: row.delivered_at
      ? {
          at: row.delivered_at,
          timezone: textOf(attributes.final_destination_timezone) ?? container.podTimezone,
        }
      : null,
    facilityHolds: parseList(row.facility_holds),
    facilityFeesTotal: row.facility_fees_total,
    terminal: terminalInfo(db, row.terminal_id),
    railCarriers: { pod: row.pod_rail_carrier_scac, inland: row.ind_rail_carrier_scac },
    railTerminal: railTerminalInfo(db, row.destination_terminal_id),
    location: row.location_at_pod_terminal,
    eventsSyncedAt: eventsSyncedAtOf(row.events_synced_at),
  };
}

/** The line by its SCAC, with its tracking and contact pages; none when the store does not have it. */
function shippingLineInfo(db: Db, scac: string | null): ShippingLineInfo | null {
  const row = scac === null ? undefined : shippingLineRow(db, scac);
  if (!row) return null;
  const a = parseRaw(row.raw);
  return {
    name: row.name,
    scac: row.scac,
    trackingUrl: webAddress(a.tracking_url),
    contactUrl: webAddress(a.contact_url),
  };
}

export function shipmentDetail(db: Db, id: string): ShipmentDetail {
  const shipment = getShipmentRow(db, id);
  if (!shipment) throw new QuaysideError('not_found', 'This shipment is not in the local data (yet).');
  // The list row above was found, so this one is there too.
  const plan = shipmentPlanRow(db, id)!;
  return {
    shipment,
    containers: shipmentContainerIds(db, id).map((containerId) => containerDetail(db, containerId)),
    terminal: terminalInfo(db, shipmentTerminalId(db, id)),
    destination: locationInfo(shipmentDestinationRow(db, id)),
    destinationTerminal: terminalInfo(db, plan.destination_terminal_id),
    originalEtd: plan.pol_original_etd_at,
    destinationEta: plan.destination_eta_at,
    destinationAta: plan.destination_ata_at,
    destinationOriginalEta: plan.destination_original_eta_at,
    destinationTimezone: plan.destination_timezone,
    shippingLine: shippingLineInfo(db, plan.shipping_line_scac),
    trackingRequestId: latestTrackingRequestId(db, id),
  };
}

export function containerEvents(db: Db, id: string): TransportEventRow[] {
  return transportEventRows(db, id).map((r) => ({
    id: r.id,
    event: r.event ?? '',
    label: eventLabel(r.event ?? ''),
    timestamp: r.timestamp,
    timezone: r.timezone,
    location: r.port,
    locationCode: r.location_locode,
    terminal: r.terminal,
    vessel: r.vessel,
    voyage: r.voyage_number,
    dataSource: r.data_source,
    withdrawnAt: r.invalidated_at,
    replacedBy: r.replaced_by,
    replaces: r.previous_version_id,
  }));
}

/** A looked-up record's type: its resource's (first) JSON:API type, as `shipping_line`. */
const typeOf = (name: LookupName): string => resources[name].types[0];

function toLookup(name: LookupName, row: LookupRow): LookupRecord {
  return {
    id: row.id,
    type: typeOf(name),
    title: row.title,
    attributes: parseRaw(row.raw),
    syncedAt: row.synced_at,
  };
}

export function lookup(db: Db, name: LookupName, id: string): LookupRecord {
  const row = lookupRow(db, name, id);
  if (!row) {
    throw new QuaysideError('not_found', `This ${typeOf(name).replaceAll('_', ' ')} is not in the local data (yet).`);
  }
  return toLookup(name, row);
}

export function listShippingLines(db: Db): LookupRecord[] {
  return shippingLineRows(db).map((r) => toLookup('shippingLines', r));
}
