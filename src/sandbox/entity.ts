/**
 * What the sandbox serialises: an entity (a record of the world and its JSON:API type), the
 * resource object it becomes, and what serialising needs (the simulated time, the account).
 */
import type {
  AccountRec,
  ContainerPlan,
  ContainerUpdatedEventRec,
  CustomFieldDefinitionRec,
  CustomFieldOptionRec,
  CustomFieldRec,
  AnyDocumentRec,
  DocumentSchemaRec,
  EmailSubmissionRec,
  EstimatedEventRec,
  Milestone,
  PartyRec,
  PortRec,
  RailTerminalRec,
  ShipmentPlan,
  ShippingLineRec,
  TerminalRec,
  TrackingRequestPlan,
  VesselRec,
  WebhookNotificationRec,
  WebhookRec,
} from './model';
import { containerState, type EventReport } from './state';

/** A transport event: one report of a container's milestone. */
export type TransportEventRec = EventReport & { container: ContainerPlan };

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
  | { type: 'transport_event'; rec: TransportEventRec }
  | { type: 'raw_event'; rec: { container: ContainerPlan; milestone: Milestone; index: number } }
  | { type: 'tracking_request'; rec: TrackingRequestPlan }
  | { type: 'port'; rec: PortRec }
  | { type: 'metro_area'; rec: PortRec }
  | { type: 'terminal'; rec: TerminalRec }
  | { type: 'rail_terminal'; rec: RailTerminalRec }
  | { type: 'shipping_line'; rec: ShippingLineRec }
  | { type: 'vessel'; rec: VesselRec }
  | { type: 'party'; rec: PartyRec }
  | { type: 'account'; rec: AccountRec }
  | { type: 'custom_field_definition'; rec: CustomFieldDefinitionRec }
  | { type: 'custom_field_option'; rec: CustomFieldOptionRec }
  | { type: 'custom_field'; rec: CustomFieldRec }
  | { type: 'email_submission'; rec: EmailSubmissionRec }
  | { type: 'document'; rec: AnyDocumentRec }
  | { type: 'document_representation'; rec: AnyDocumentRec }
  | { type: 'document_schema'; rec: DocumentSchemaRec }
  | { type: 'webhook'; rec: WebhookRec }
  | { type: 'webhook_notification'; rec: WebhookNotificationRec }
  | { type: 'estimated_event'; rec: EstimatedEventRec }
  | { type: 'container_updated_event'; rec: ContainerUpdatedEventRec };

export type EntityType = Entity['type'];
export type RecOf<T extends EntityType> = Extract<Entity, { type: T }>['rec'];

/**
 * Which service the sandbox answers as: `live` (the default) as the live service answers, its
 * list links and meta per list, paged shipping lines, unknown filters ignored, tracking-request
 * tags as `shipment_tags`; `reference` as the API reference describes it.
 */
export type SandboxShape = 'live' | 'reference';

export interface SerializeContext {
  now: number;
  account: AccountRec;
  /** Absent: `live`. */
  shape?: SandboxShape;
  /** The origin the request came to, for links that must be absolute (a document's download link). */
  origin?: string;
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * ISO 8601 in UTC to the second, as the service writes timestamps. Worked out by arithmetic (days
 * to a civil date, Hinnant's `civil_from_days`): a page of 100 shipments with their containers
 * writes thousands, and `Date#toISOString` and a `replace` each was a tenth of serving it.
 * Years outside 1000-9999 go the slow way, which also writes them as the standard does.
 */
export function iso(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  let rest = seconds - days * 86_400;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 1000 || year > 9999) return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(rest - minute * 60)}Z`;
}

// A container's state is needed for its attributes and its events; compute it once per request.
const stateCache = new WeakMap<
  ContainerPlan,
  { now: number; state: ReturnType<typeof containerState>; events: TransportEventRec[] }
>();
export function containerStateCached(c: ContainerPlan, ctx: SerializeContext) {
  const hit = stateCache.get(c);
  if (hit && hit.now === ctx.now) return hit;
  const state = containerState(c, ctx.now);
  const entry = { now: ctx.now, state, events: state.events.map((e) => ({ ...e, container: c })) };
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
