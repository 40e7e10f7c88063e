/**
 * JSON:API resource objects for every type the sandbox serves, and the relationship table
 * that both fills `relationships` and resolves `include` paths, so the two never disagree.
 * The entity types live in entity.ts, the attributes in attributes.ts.
 */
import type { ContainerPlan, PortRec, ShipmentPlan, TerminalRec, VesselRec } from './model';
import { attributesOf } from './attributes';
import { downloadUrl } from './documents';
import {
  containerStateCached,
  entityId,
  ref,
  type Entity,
  type EntityType,
  type RecOf,
  type ResourceObject,
  type SerializeContext,
} from './entity';
import { trackingRequestState } from './state';

export { entityId, iso, ref } from './entity';
export type { Entity, EntityType, Ref, ResourceObject, SandboxShape, SerializeContext } from './entity';

/** The rail milestones that happen at a metro area's ramp. */
const atRamp = new Set(['rail_arrived', 'rail_unloaded', 'arrived_at_inland_destination', 'available', 'full_out']);

const e = {
  port: (rec: PortRec): Entity => ({ type: 'port', rec }),
  /** A place: a port, or an inland metro area (the API's polymorphic location and destination). */
  place: (rec: PortRec): Entity => ({ type: rec.data.role === 'inland' ? 'metro_area' : 'port', rec }),
  ramp: (rec: PortRec | null | undefined): Entity | null =>
    rec?.data.role === 'inland' && rec.ramp ? { type: 'rail_terminal', rec: rec.ramp } : null,
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
    destination: (s) => e.place(s.destination),
    destination_terminal: (s) => (s.rail ? e.ramp(s.destination) : null),
    line_tracking_stopped_by_user: () => null,
    containers: (s, ctx) => s.containers.filter((c) => c.createdAt <= ctx.now).map(e.container),
  },
  container: {
    shipment: (c) => e.shipment(c.shipment),
    pod_terminal: (c) => e.terminal(c.shipment.podTerminal),
    pickup_facility: (c) => (c.shipment.rail ? null : e.terminal(c.shipment.podTerminal)),
    transport_events: (c, ctx) =>
      containerStateCached(c, ctx).events.map((rec) => ({ type: 'transport_event' as const, rec })),
    raw_events: (c) =>
      c.milestones.map((milestone, index) => ({ type: 'raw_event' as const, rec: { container: c, milestone, index } })),
  },
  raw_event: {
    location: ({ milestone }) => e.place(milestone.port),
    vessel: ({ milestone }) => (milestone.vessel ? e.vessel(milestone.vessel) : null),
  },
  transport_event: {
    shipment: ({ container }) => e.shipment(container.shipment),
    container: ({ container }) => e.container(container),
    location: ({ milestone }) => e.place(milestone.port),
    terminal: ({ milestone }) =>
      milestone.terminal ? e.terminal(milestone.terminal) : atRamp.has(milestone.key) ? e.ramp(milestone.port) : null,
    vessel: ({ milestone }) => (milestone.vessel ? e.vessel(milestone.vessel) : null),
    // The live service links the raw event an event came from; the sandbox does not model that link.
    source_event: () => null,
    // A correction names the withdrawn event it replaces.
    previous_version: ({ container, previousVersion }, ctx) => {
      if (!previousVersion) return null;
      const rec = containerStateCached(container, ctx).events.find((event) => event.milestone === previousVersion);
      return rec ? { type: 'transport_event', rec } : null;
    },
  },
  tracking_request: {
    tracked_object: (r, ctx) =>
      r.shipment && trackingRequestState(r, ctx.now).status !== 'pending' && r.shipment.createdAt <= ctx.now
        ? e.shipment(r.shipment)
        : null,
    customer: (r) => (r.customer ? { type: 'party', rec: r.customer } : null),
  },
  terminal: { port: (t) => e.port(t.port) },
  rail_terminal: { port: () => null, metro_area: (t) => e.place(t.metroArea) },
  port: {},
  metro_area: {},
  shipping_line: {},
  vessel: {},
  party: {},
  account: {},
  custom_field_definition: {},
  // The reference gives an option no relationship to its definition (it is listed under it).
  custom_field_option: {},
  custom_field: {
    entity: (f) => f.entity,
    definition: (f) => ({ type: 'custom_field_definition', rec: f.definition }),
  },
  email_submission: {
    account: (_s, ctx) => ({ type: 'account', rec: ctx.account }),
    user: () => null,
    documents: (s) => s.documents.map((rec) => ({ type: 'document' as const, rec })),
  },
  document: {
    account: (_d, ctx) => ({ type: 'account', rec: ctx.account }),
    user: () => null,
    email_submission: (d) => (d.emailSubmission ? { type: 'email_submission', rec: d.emailSubmission } : null),
    last_document_representation: (d) => ({ type: 'document_representation', rec: d }),
    shipments: (d) => (d.shipment ? [e.shipment(d.shipment)] : []),
    cargos: (d, ctx) => d.shipment?.containers.filter((c) => c.createdAt <= ctx.now).map(e.container) ?? [],
  },
  document_representation: {},
  document_schema: {},
  webhook: {},
  webhook_notification: {
    webhook: (n) => ({ type: 'webhook', rec: n.webhook }),
    reference_object: (n, ctx) => {
      const reference = n.reference;
      if (reference.type !== 'transport_event') return reference;
      const rec = containerStateCached(reference.container, ctx).events.find(
        (event) => event.milestone.id === reference.eventId,
      );
      return rec ? { type: 'transport_event', rec } : null;
    },
  },
  estimated_event: {
    shipment: (r) => e.shipment(r.shipment),
    // A port of the reference's `port`; an inland destination is a metro area, which it does not name.
    port: (r) => (r.port.data.role === 'inland' ? null : e.port(r.port)),
    vessel: (r) => e.vessel(r.shipment.vessel),
  },
  container_updated_event: {
    container: (r) => e.container(r.container),
    terminal: (r) => e.terminal(r.container.shipment.podTerminal),
  },
};

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

const selfPaths: Partial<Record<EntityType, string>> = {
  shipment: 'shipments',
  container: 'containers',
  tracking_request: 'tracking_requests',
  party: 'parties',
  email_submission: 'email_submissions',
  custom_field_definition: 'custom_field_definitions',
  custom_field: 'custom_fields',
  document: 'documents',
  document_schema: 'document_schemas',
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
  // A document carries its file's presigned link (`links.download`), as the reference shows.
  if (entity.type === 'document' && ctx.origin) resource.links!.download = downloadUrl(ctx.origin, id, ctx.now);
  return resource;
}
