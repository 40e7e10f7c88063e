/**
 * JSON:API resource objects for every type the sandbox serves, and the relationship table
 * that both fills `relationships` and resolves `include` paths, so the two never disagree.
 */
import type {
  AccountRec,
  ContainerPlan,
  CustomFieldDefinitionRec,
  DocumentRec,
  EmailSubmissionRec,
  Milestone,
  PartyRec,
  PortRec,
  ShipmentPlan,
  ShippingLineRec,
  TerminalRec,
  TrackingRequestPlan,
  VesselRec,
  WebhookNotificationRec,
  WebhookRec,
} from './model';
import { containerState, shipmentState, trackingRequestState } from './state';

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: Ref | Ref[] | null; links?: Record<string, string> }>;
  links?: Record<string, string>;
}
export interface Ref {
  id: string;
  type: string;
}

export type Entity =
  | { type: 'shipment'; rec: ShipmentPlan }
  | { type: 'container'; rec: ContainerPlan }
  | { type: 'transport_event'; rec: { container: ContainerPlan; milestone: Milestone } }
  | { type: 'raw_event'; rec: { container: ContainerPlan; milestone: Milestone; index: number } }
  | { type: 'tracking_request'; rec: TrackingRequestPlan }
  | { type: 'port'; rec: PortRec }
  | { type: 'terminal'; rec: TerminalRec }
  | { type: 'shipping_line'; rec: ShippingLineRec }
  | { type: 'vessel'; rec: VesselRec }
  | { type: 'party'; rec: PartyRec }
  | { type: 'account'; rec: AccountRec }
  | { type: 'custom_field_definition'; rec: CustomFieldDefinitionRec }
  | { type: 'email_submission'; rec: EmailSubmissionRec }
  | { type: 'document'; rec: DocumentRec }
  | { type: 'document_representation'; rec: DocumentRec }
  | { type: 'webhook'; rec: WebhookRec }
  | { type: 'webhook_notification'; rec: WebhookNotificationRec };

export type EntityType = Entity['type'];
type RecOf<T extends EntityType> = Extract<Entity, { type: T }>['rec'];

export interface SerializeContext {
  now: number;
  account: AccountRec;
}

/** ISO 8601 in UTC to the second, as the service writes timestamps. */
export function iso(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const e = {
  port: (rec: PortRec): Entity => ({ type: 'port', rec }),
  terminal: (rec: TerminalRec): Entity => ({ type: 'terminal', rec }),
  vessel: (rec: VesselRec): Entity => ({ type: 'vessel', rec }),
  shipment: (rec: ShipmentPlan): Entity => ({ type: 'shipment', rec }),
  container: (rec: ContainerPlan): Entity => ({ type: 'container', rec }),
};

type Related = Entity | Entity[] | null;
type RelationshipTable = {
  [T in EntityType]: Record<string, (rec: RecOf<T>, ctx: SerializeContext) => Related>;
};

/** Every relationship each type has, by name. `include` accepts exactly these names. */
export const relationships: RelationshipTable = {
  shipment: {
    port_of_lading: (s) => e.port(s.pol),
    port_of_discharge: (s) => e.port(s.pod),
    pod_terminal: (s) => e.terminal(s.podTerminal),
    destination: (s) => e.port(s.destination),
    destination_terminal: () => null,
    line_tracking_stopped_by_user: () => null,
    containers: (s, ctx) => s.containers.filter((c) => c.createdAt <= ctx.now).map(e.container),
  },
  container: {
    shipment: (c) => e.shipment(c.shipment),
    pod_terminal: (c) => e.terminal(c.shipment.podTerminal),
    pickup_facility: (c) => (c.shipment.rail ? null : e.terminal(c.shipment.podTerminal)),
    transport_events: (c, ctx) =>
      containerStateCached(c, ctx).events.map((milestone) => ({
        type: 'transport_event' as const,
        rec: { container: c, milestone },
      })),
    raw_events: (c) =>
      c.milestones.map((milestone, index) => ({ type: 'raw_event' as const, rec: { container: c, milestone, index } })),
  },
  raw_event: {
    location: ({ milestone }) => e.port(milestone.port),
    vessel: ({ milestone }) => (milestone.vessel ? e.vessel(milestone.vessel) : null),
  },
  transport_event: {
    shipment: ({ container }) => e.shipment(container.shipment),
    container: ({ container }) => e.container(container),
    location: ({ milestone }) => e.port(milestone.port),
    terminal: ({ milestone }) => (milestone.terminal ? e.terminal(milestone.terminal) : null),
    vessel: ({ milestone }) => (milestone.vessel ? e.vessel(milestone.vessel) : null),
  },
  tracking_request: {
    tracked_object: (r, ctx) =>
      r.shipment && trackingRequestState(r, ctx.now).status !== 'pending' && r.shipment.createdAt <= ctx.now
        ? e.shipment(r.shipment)
        : null,
    customer: (r) => (r.customer ? { type: 'party', rec: r.customer } : null),
  },
  terminal: { port: (t) => e.port(t.port) },
  port: {},
  shipping_line: {},
  vessel: {},
  party: {},
  account: {},
  custom_field_definition: {},
  email_submission: {
    account: (_s, ctx) => ({ type: 'account', rec: ctx.account }),
    user: () => null,
    documents: (s) => s.documents.map((rec) => ({ type: 'document' as const, rec })),
  },
  document: {
    last_document_representation: (d) => ({ type: 'document_representation', rec: d }),
  },
  document_representation: {},
  webhook: {},
  webhook_notification: {
    webhook: (n) => ({ type: 'webhook', rec: n.webhook }),
    reference_object: (n) => ({ type: 'tracking_request', rec: n.trackingRequest }),
  },
};

// A container's state is needed for its attributes and its events; compute it once per request.
const stateCache = new WeakMap<
  ContainerPlan,
  { now: number; state: ReturnType<typeof containerState>; events: Milestone[] }
>();
function containerStateCached(c: ContainerPlan, ctx: SerializeContext) {
  const hit = stateCache.get(c);
  if (hit && hit.now === ctx.now) return hit;
  const state = containerState(c, ctx.now);
  const entry = { now: ctx.now, state, events: [...state.known.values()] };
  stateCache.set(c, entry);
  return entry;
}

export function entityId(entity: Entity): string {
  switch (entity.type) {
    case 'transport_event':
      return entity.rec.milestone.id;
    case 'raw_event':
      return entity.rec.milestone.rawId;
    case 'document_representation':
      return entity.rec.representationId;
    default:
      return entity.rec.id;
  }
}

export function ref(entity: Entity): Ref {
  return { id: entityId(entity), type: entity.type };
}

export function related(entity: Entity, name: string, ctx: SerializeContext): Related | undefined {
  const table = relationships[entity.type] as Record<string, (rec: unknown, ctx: SerializeContext) => Related>;
  const resolve = table[name];
  return resolve ? resolve(entity.rec, ctx) : undefined;
}

function relationshipsOf(entity: Entity, ctx: SerializeContext): ResourceObject['relationships'] {
  const table = relationships[entity.type] as Record<string, (rec: unknown, ctx: SerializeContext) => Related>;
  const out: NonNullable<ResourceObject['relationships']> = {};
  for (const [name, resolve] of Object.entries(table)) {
    const value = resolve(entity.rec, ctx);
    out[name] = { data: value === null ? null : Array.isArray(value) ? value.map(ref) : ref(value) };
  }
  return out;
}

function shipmentAttributes(s: ShipmentPlan, ctx: SerializeContext): Record<string, unknown> {
  const state = shipmentState(s, ctx.now);
  const line = s.line.data;
  const scacPrefix = s.billOfLading.startsWith(line.scac) ? line.scac.length : 0;
  return {
    created_at: iso(s.createdAt),
    ref_numbers: s.refNumbers,
    tags: s.tags,
    bill_of_lading_number: s.billOfLading,
    normalized_number: s.billOfLading.slice(scacPrefix),
    shipping_line_scac: line.scac,
    shipping_line_name: line.name,
    shipping_line_short_name: line.shortName,
    customer_name: s.customer?.companyName ?? null,
    port_of_lading_locode: s.pol.data.code,
    port_of_lading_name: s.pol.data.name,
    port_of_discharge_locode: s.pod.data.code,
    port_of_discharge_name: s.pod.data.name,
    pod_vessel_name: s.vessel.data.name,
    pod_vessel_imo: s.vessel.data.imo,
    pod_voyage_number: s.voyage,
    destination_locode: s.destination.data.code,
    destination_name: s.destination.data.name,
    destination_timezone: s.destination.data.timeZone,
    destination_ata_at: iso(state.destinationAta),
    destination_eta_at: iso(state.destinationEta),
    pol_etd_at: iso(state.etd),
    pol_atd_at: iso(state.atd),
    pol_timezone: s.pol.data.timeZone,
    pod_eta_at: iso(state.eta),
    pod_original_eta_at: iso(state.originalEta),
    pod_ata_at: iso(state.ata),
    pod_timezone: s.pod.data.timeZone,
    line_tracking_last_attempted_at: iso(state.lastAttemptedAt),
    line_tracking_last_succeeded_at: iso(state.lastAttemptedAt),
    line_tracking_stopped_at: iso(state.stop?.at),
    line_tracking_stopped_reason: state.stop?.reason ?? null,
    // Not in the reference schema; real payloads carry more than it lists.
    updated_at: iso(state.updatedAt),
  };
}

function containerAttributes(c: ContainerPlan, ctx: SerializeContext): Record<string, unknown> {
  const { state } = containerStateCached(c, ctx);
  const at = (key: Parameters<typeof state.known.get>[0]) => iso(state.known.get(key)?.at);
  const s = c.shipment;
  const rail = s.rail !== null && s.destination !== s.pod;
  const emptyIn = state.known.get('empty_in');
  return {
    number: c.number,
    seal_number: c.sealNumber,
    created_at: iso(c.createdAt),
    ref_numbers: c.refNumbers,
    equipment_type: c.equipmentType,
    equipment_length: c.equipmentLength,
    equipment_height: c.equipmentHeight,
    weight_in_lbs: c.weightLbs,
    pod_arrived_at: at('vessel_arrived'),
    pod_discharged_at: at('vessel_discharged'),
    final_destination_full_out_at: rail ? at('full_out') : null,
    holds_at_pod_terminal: state.holds,
    available_for_pickup: state.availableForPickup,
    pod_full_out_at: rail ? null : at('full_out'),
    empty_terminated_at: at('empty_in'),
    terminal_checked_at: iso(state.terminalCheckedAt),
    fees_at_pod_terminal: state.fees,
    // The service coalesces the deadlines, preferring the line's.
    pickup_lfd: iso(state.lineLastFreeDay ?? state.lastFreeDay ?? state.railLastFreeDay),
    pickup_appointment_at: iso(state.appointmentAt),
    pod_full_out_chassis_number: state.known.has('full_out') && !rail ? c.chassisNumber : null,
    location_at_pod_terminal: state.location,
    pod_last_tracking_request_at: iso(state.terminalCheckedAt),
    shipment_last_tracking_request_at: iso(state.shipmentCheckedAt),
    availability_known: state.availabilityKnown,
    pod_timezone: s.pod.data.timeZone,
    final_destination_timezone: rail ? s.destination.data.timeZone : null,
    empty_terminated_timezone: emptyIn ? emptyIn.port.data.timeZone : null,
    pod_rail_carrier_scac: rail ? s.rail!.podRailScac : null,
    ind_rail_carrier_scac: rail ? s.rail!.indRailScac : null,
    pod_rail_loaded_at: at('rail_loaded'),
    pod_rail_departed_at: at('rail_departed'),
    ind_eta_at: rail && !state.known.has('rail_arrived') ? iso(shipmentState(s, ctx.now).destinationEta) : null,
    ind_ata_at: at('rail_arrived'),
    ind_rail_unloaded_at: at('rail_unloaded'),
    ind_facility_lfd_on: iso(state.railLastFreeDay),
    import_deadlines: {
      pickup_lfd_terminal: iso(state.lastFreeDay),
      pickup_lfd_rail: iso(state.railLastFreeDay),
      pickup_lfd_line: iso(state.lineLastFreeDay),
    },
    current_status: state.status,
    updated_at: iso(state.updatedAt),
  };
}

const eventNames: Record<Milestone['key'], string> = {
  empty_out: 'container.transport.empty_out',
  full_in: 'container.transport.full_in',
  vessel_loaded: 'container.transport.vessel_loaded',
  vessel_departed: 'container.transport.vessel_departed',
  transshipment_arrived: 'container.transport.transshipment_arrived',
  transshipment_discharged: 'container.transport.transshipment_discharged',
  transshipment_loaded: 'container.transport.transshipment_loaded',
  transshipment_departed: 'container.transport.transshipment_departed',
  vessel_arrived: 'container.transport.vessel_arrived',
  vessel_berthed: 'container.transport.vessel_berthed',
  vessel_discharged: 'container.transport.vessel_discharged',
  available: 'container.transport.available',
  rail_loaded: 'container.transport.rail_loaded',
  rail_departed: 'container.transport.rail_departed',
  rail_arrived: 'container.transport.rail_arrived',
  rail_unloaded: 'container.transport.rail_unloaded',
  arrived_at_inland_destination: 'container.transport.arrived_at_inland_destination',
  full_out: 'container.transport.full_out',
  empty_in: 'container.transport.empty_in',
};

const rawEventNames: Record<Milestone['key'], string | null> = {
  empty_out: 'empty_out',
  full_in: 'full_in',
  vessel_loaded: 'vessel_loaded',
  vessel_departed: 'vessel_departed',
  transshipment_arrived: 'transshipment_arrived',
  transshipment_discharged: 'transshipment_discharged',
  transshipment_loaded: 'transshipment_loaded',
  transshipment_departed: 'transshipment_departed',
  vessel_arrived: 'vessel_arrived',
  vessel_berthed: null,
  vessel_discharged: 'vessel_discharged',
  available: 'available',
  rail_loaded: 'rail_loaded',
  rail_departed: 'rail_departed',
  rail_arrived: 'rail_arrived',
  rail_unloaded: 'rail_unloaded',
  arrived_at_inland_destination: 'arrived_at_destination',
  full_out: 'full_out',
  empty_in: 'empty_in',
};

/** What a line's own tracking page calls each milestone. */
const originalEventText: Record<Milestone['key'], string> = {
  empty_out: 'Empty container released to shipper',
  full_in: 'Gate in full',
  vessel_loaded: 'Loaded on vessel',
  vessel_departed: 'Vessel departure',
  transshipment_arrived: 'Arrival at transshipment port',
  transshipment_discharged: 'Discharged at transshipment port',
  transshipment_loaded: 'Loaded at transshipment port',
  transshipment_departed: 'Departure from transshipment port',
  vessel_arrived: 'Vessel arrival',
  vessel_berthed: 'Vessel berthed',
  vessel_discharged: 'Discharged from vessel',
  available: 'Available for delivery',
  rail_loaded: 'Loaded on rail',
  rail_departed: 'Rail departure',
  rail_arrived: 'Rail arrival at destination',
  rail_unloaded: 'Unloaded from rail',
  arrived_at_inland_destination: 'Arrived at final destination',
  full_out: 'Gate out full for delivery',
  empty_in: 'Empty container returned',
};

export function transportEventName(key: Milestone['key']): string {
  return eventNames[key];
}

function attributesOf(entity: Entity, ctx: SerializeContext): Record<string, unknown> {
  switch (entity.type) {
    case 'shipment':
      return shipmentAttributes(entity.rec, ctx);
    case 'container':
      return containerAttributes(entity.rec, ctx);
    case 'transport_event': {
      const { milestone } = entity.rec;
      return {
        event: eventNames[milestone.key],
        created_at: iso(milestone.reportedAt),
        voyage_number: milestone.voyage,
        timestamp: iso(milestone.at),
        timezone: milestone.port.data.timeZone,
        location_locode: milestone.port.data.code,
        data_source: milestone.dataSource,
      };
    }
    case 'raw_event': {
      const { milestone, index } = entity.rec;
      const known = milestone.reportedAt <= ctx.now && milestone.at <= ctx.now;
      const day = iso(milestone.at)!.slice(0, 10);
      return {
        event: rawEventNames[milestone.key],
        original_event: originalEventText[milestone.key],
        timestamp: iso(milestone.at),
        estimated: !known,
        actual_on: known ? day : null,
        estimated_on: known ? null : day,
        actual_at: known ? iso(milestone.at) : null,
        estimated_at: known ? null : iso(milestone.at),
        timezone: milestone.port.data.timeZone,
        created_at: iso(Math.min(milestone.reportedAt, ctx.now)),
        location_name: milestone.port.data.name,
        location_locode: milestone.port.data.code,
        vessel_name: milestone.vessel?.data.name ?? null,
        vessel_imo: milestone.vessel?.data.imo ?? null,
        index,
        voyage_number: milestone.voyage,
      };
    }
    case 'tracking_request': {
      const r = entity.rec;
      const state = trackingRequestState(r, ctx.now);
      return {
        request_number: r.requestNumber,
        request_type: r.requestType,
        scac: r.scacKnownFrom !== null && ctx.now < r.scacKnownFrom ? null : r.scac,
        ref_numbers: r.refNumbers,
        tags: r.tags,
        status: state.status,
        failed_reason: state.failedReason,
        created_at: iso(r.createdAt),
        updated_at: iso(state.updatedAt),
        is_retrying: state.isRetrying,
        retry_count: state.retryCount,
      };
    }
    case 'port': {
      const p = entity.rec.data;
      return {
        name: p.name,
        code: p.code,
        state_abbr: p.stateAbbr,
        city: p.city,
        country_code: p.countryCode,
        time_zone: p.timeZone,
        latitude: p.latitude,
        longitude: p.longitude,
      };
    }
    case 'terminal': {
      const t = entity.rec.data;
      // The schema has no nulls here: what the service does not know, it leaves out.
      return {
        name: t.name,
        nickname: t.nickname,
        firms_code: t.firmsCode,
        ...(t.street === null ? {} : { street: t.street }),
        city: t.city,
        state: t.state,
        state_abbr: t.state,
        ...(t.zip === null ? {} : { zip: t.zip }),
        country: t.country,
      };
    }
    case 'shipping_line': {
      const l = entity.rec.data;
      return {
        scac: l.scac,
        name: l.name,
        alternative_scacs: [],
        short_name: l.shortName,
        bill_of_lading_tracking_support: l.supported,
        booking_number_tracking_support: l.supported,
        container_number_tracking_support: l.supported,
      };
    }
    case 'vessel': {
      const v = entity.rec;
      return {
        name: v.data.name,
        imo: v.data.imo,
        mmsi: v.data.mmsi,
        latitude: v.latitude,
        longitude: v.longitude,
        nautical_speed_knots: 14.2,
        navigational_heading_degrees: 271,
        position_timestamp: iso(ctx.now - 40 * 60_000),
      };
    }
    case 'party':
      return { company_name: entity.rec.companyName };
    case 'account':
      return { company_name: entity.rec.companyName };
    case 'custom_field_definition': {
      const d = entity.rec;
      return {
        entity_type: d.entityType,
        api_slug: d.apiSlug,
        display_name: d.displayName,
        description: d.description,
        data_type: d.dataType,
        reference_type: null,
        validation: null,
        default_format: null,
        default_value: null,
      };
    }
    case 'email_submission': {
      const m = entity.rec;
      return {
        subject: m.subject,
        body: m.body,
        from: m.from,
        to: m.to,
        cc: [],
        sent_at: iso(m.sentAt),
        message_id: m.messageId,
        in_reply_to: null,
        references: [],
        content_type: 'multipart/mixed',
        documents_count: m.documents.length,
        created_at: iso(m.createdAt),
        updated_at: iso(m.createdAt),
      };
    }
    case 'document': {
      const d = entity.rec;
      return {
        name: d.name,
        source: 'email',
        document_type: d.documentType,
        created_at: iso(d.createdAt),
        updated_at: iso(d.createdAt),
      };
    }
    case 'document_representation': {
      const d = entity.rec;
      return {
        schema_version: '1.0',
        payload: { document_type: d.documentType },
        created_at: iso(d.createdAt),
        updated_at: iso(d.createdAt),
      };
    }
    case 'webhook': {
      const w = entity.rec;
      return {
        url: w.url,
        active: w.active,
        events: w.events,
        secret: w.secret,
        headers: w.headers,
        created_at: iso(w.createdAt),
      };
    }
    case 'webhook_notification': {
      const n = entity.rec;
      return { event: n.event, delivery_status: n.deliveryStatus, created_at: iso(n.createdAt) };
    }
  }
}

const selfPaths: Partial<Record<EntityType, string>> = {
  shipment: 'shipments',
  container: 'containers',
  tracking_request: 'tracking_requests',
  party: 'parties',
  email_submission: 'email_submissions',
  custom_field_definition: 'custom_field_definitions',
};

export function serialize(entity: Entity, ctx: SerializeContext): ResourceObject {
  const id = entityId(entity);
  const resource: ResourceObject = {
    id,
    type: entity.type,
    attributes: attributesOf(entity, ctx),
  };
  const rels = relationshipsOf(entity, ctx);
  if (rels && Object.keys(rels).length > 0) resource.relationships = rels;
  const path = selfPaths[entity.type];
  if (path) resource.links = { self: `/v2/${path}/${id}` };
  return resource;
}

export type { RecOf };
