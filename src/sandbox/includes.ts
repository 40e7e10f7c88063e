import {
  related,
  ref,
  serialize,
  type Entity,
  type EntityType,
  type ResourceObject,
  type SerializeContext,
} from './serialize';

/** The types each relationship may point at, to validate include paths before resolving them. */
const targets: Record<EntityType, Record<string, EntityType[]>> = {
  shipment: {
    port_of_lading: ['port'],
    port_of_discharge: ['port'],
    pod_terminal: ['terminal'],
    destination: ['port', 'metro_area'],
    destination_terminal: ['terminal', 'rail_terminal'],
    line_tracking_stopped_by_user: [],
    containers: ['container'],
  },
  container: {
    shipment: ['shipment'],
    pod_terminal: ['terminal'],
    pickup_facility: ['terminal'],
    transport_events: ['transport_event'],
    raw_events: ['raw_event'],
  },
  transport_event: {
    shipment: ['shipment'],
    container: ['container'],
    location: ['port', 'metro_area'],
    terminal: ['terminal', 'rail_terminal'],
    vessel: ['vessel'],
    source_event: [],
    previous_version: ['transport_event'],
  },
  raw_event: { location: ['port', 'metro_area'], vessel: ['vessel'] },
  tracking_request: { tracked_object: ['shipment'], customer: ['party'] },
  terminal: { port: ['port'] },
  rail_terminal: { port: ['port'], metro_area: ['metro_area'] },
  port: {},
  metro_area: {},
  shipping_line: {},
  vessel: {},
  party: {},
  account: {},
  custom_field_definition: {},
  custom_field_option: {},
  custom_field: { entity: ['shipment', 'container', 'tracking_request'], definition: ['custom_field_definition'] },
  email_submission: { account: ['account'], user: [], documents: ['document'] },
  document: {
    account: ['account'],
    user: [],
    email_submission: ['email_submission'],
    last_document_representation: ['document_representation'],
    shipments: ['shipment'],
    cargos: ['container'],
  },
  document_representation: {},
  document_schema: {},
  webhook: {},
  webhook_notification: {
    webhook: ['webhook'],
    reference_object: ['tracking_request', 'transport_event', 'estimated_event', 'container_updated_event'],
  },
  estimated_event: { shipment: ['shipment'], port: ['port'], vessel: ['vessel'] },
  container_updated_event: { container: ['container'], terminal: ['terminal'] },
};

const serializerNames: Partial<Record<EntityType, string>> = {
  shipment: 'ShipmentSerializer',
  container: 'ContainerSerializer',
  tracking_request: 'TrackingRequestSerializer',
  transport_event: 'TransportEventSerializer',
  email_submission: 'EmailSubmissionSerializer',
  document: 'DocumentSerializer',
  webhook_notification: 'WebhookNotificationSerializer',
};

export type IncludeResult = { ok: true; paths: string[][] } | { ok: false; detail: string };

/** Parses `include=a,b.c`; an unknown relationship anywhere in a path is refused. */
export function parseInclude(raw: string | null, rootType: EntityType, defaults: string[] = []): IncludeResult {
  const names =
    raw === null
      ? defaults
      : raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const paths: string[][] = [];
  for (const name of names) {
    const path = name.split('.');
    let types: EntityType[] = [rootType];
    for (const segment of path) {
      const next = types.flatMap((type) => targets[type][segment] ?? []);
      const known = types.some((type) => segment in targets[type]);
      if (!known) {
        const owner = serializerNames[types[0]!] ?? `${types[0]}Serializer`;
        return { ok: false, detail: `${segment} is not specified as a relationship on V2::${owner}` };
      }
      types = next;
    }
    paths.push(path);
  }
  return { ok: true, paths };
}

/** Every resource the include paths reach from the primary data, once each, primary excluded. */
export function collectIncluded(primary: Entity[], paths: string[][], ctx: SerializeContext): ResourceObject[] {
  const seen = new Set(primary.map((entity) => `${entity.type}:${ref(entity).id}`));
  const included: ResourceObject[] = [];
  for (const path of paths) {
    let frontier = primary;
    for (const segment of path) {
      const next: Entity[] = [];
      for (const entity of frontier) {
        const value = related(entity, segment, ctx);
        if (!value) continue;
        for (const target of Array.isArray(value) ? value : [value]) {
          next.push(target);
          const key = `${target.type}:${ref(target).id}`;
          if (!seen.has(key)) {
            seen.add(key);
            included.push(serialize(target, ctx));
          }
        }
      }
      frontier = next;
    }
  }
  return included;
}
