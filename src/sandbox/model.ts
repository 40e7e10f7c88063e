/**
 * The sandbox's world: reference data, and for every shipment and container a complete plan
 * of its voyage with the instant of each milestone. What the API shows at a given simulated
 * time is derived from the plan (see state.ts), so time can move and the data evolves without
 * a simulation loop.
 */
import type { PortData, RailRoute } from './data/ports';
import type { RailTerminalData } from './data/rail-terminals';
import type { ShippingLineData } from './data/shipping-lines';
import type { TerminalData } from './data/terminals';
import type { VesselData } from './data/vessels';

export interface ShippingLineRec {
  id: string;
  data: ShippingLineData;
}
/** A port, or (role `inland`) a metro area, served as `metro_area` with its rail ramp. */
export interface PortRec {
  id: string;
  data: PortData;
  /** A metro area's rail ramp. */
  ramp?: RailTerminalRec;
}
export interface RailTerminalRec {
  id: string;
  data: RailTerminalData;
  metroArea: PortRec;
}
export interface TerminalRec {
  id: string;
  data: TerminalData;
  port: PortRec;
}
export interface VesselRec {
  id: string;
  data: VesselData;
  /** A resting position for the vessel resource. */
  latitude: number;
  longitude: number;
}
export interface PartyRec {
  id: string;
  companyName: string;
  createdAt: number;
}

export type MilestoneKey =
  | 'empty_out'
  | 'full_in'
  | 'vessel_loaded'
  | 'vessel_departed'
  | 'transshipment_arrived'
  | 'transshipment_discharged'
  | 'transshipment_loaded'
  | 'transshipment_departed'
  | 'vessel_arrived'
  | 'vessel_berthed'
  | 'vessel_discharged'
  | 'available'
  | 'rail_loaded'
  | 'rail_departed'
  | 'rail_arrived'
  | 'rail_unloaded'
  | 'arrived_at_inland_destination'
  | 'full_out'
  | 'empty_in';

export interface Milestone {
  /** The id of the transport event that reports it. */
  id: string;
  /** The id of the raw event the line sent for it. */
  rawId: string;
  key: MilestoneKey;
  /** When it happened (or will), epoch ms. */
  at: number;
  /** When the service learns of it: `at` plus a reporting lag. */
  reportedAt: number;
  port: PortRec;
  terminal: TerminalRec | null;
  vessel: VesselRec | null;
  voyage: string | null;
  dataSource: 'shipping_line' | 'terminal';
  /**
   * The carrier first reported this milestone at a wrong time, then withdrew that report and
   * sent this one as its correction (the live service's `invalidated_at` and `previous_version`).
   */
  withdrawn?: WithdrawnReport;
}

/** A first report of a milestone that the carrier later withdrew. */
export interface WithdrawnReport {
  /** The id of the transport event that carried the wrong report. */
  id: string;
  /** The wrong time it reported. */
  at: number;
  /** When the carrier withdrew it; the correction (the milestone's own event) is reported then. */
  withdrawnAt: number;
}

export interface HoldPlan {
  name: string;
  description: string | null;
  /** Released at this instant; null = not released within the plan. */
  releasedAt: number | null;
}

export interface EtaRevision {
  /** From this instant on, the line reports `eta`. */
  from: number;
  eta: number;
}

export interface ShipmentPlan {
  id: string;
  createdAt: number;
  billOfLading: string;
  bookingNumber: string;
  line: ShippingLineRec;
  customer: PartyRec | null;
  refNumbers: string[];
  tags: string[];
  pol: PortRec;
  pod: PortRec;
  destination: PortRec;
  podTerminal: TerminalRec;
  transshipment: PortRec | null;
  /** The vessel that brings the cargo to the port of discharge. */
  vessel: VesselRec;
  voyage: string;
  /** The first-leg vessel when there is a transshipment. */
  feederVessel: VesselRec | null;
  etdRevisions: EtaRevision[];
  departedAt: number;
  etaRevisions: EtaRevision[];
  arrivedAt: number;
  rail: RailRoute | null;
  /** Inland (rail) arrival plan, when there is a rail leg. */
  destinationEtaRevisions: EtaRevision[];
  destinationArrivedAt: number | null;
  containers: ContainerPlan[];
  /** Set by stop_tracking, cleared by resume_tracking. */
  stoppedByUserAt: number | null;
  /** When tracking was last resumed by a user, so the request's updated_at moves. */
  resumedAt: number | null;
  /** The line cancelled the booking at this instant (tracking stops then). */
  bookingCancelledAt: number | null;
}

export interface ContainerPlan {
  id: string;
  shipment: ShipmentPlan;
  createdAt: number;
  number: string;
  equipmentType: 'dry' | 'reefer' | 'open top' | 'flat rack' | 'tank';
  equipmentLength: 20 | 40 | 45;
  equipmentHeight: 'standard' | 'high_cube';
  weightLbs: number;
  sealNumber: string;
  refNumbers: string[];
  milestones: Milestone[];
  holds: HoldPlan[];
  /** Free days at the terminal (or rail ramp) before demurrage. */
  freeDays: number;
  /** Daily demurrage once past the last free day, USD. */
  demurragePerDay: number;
  customsExam: boolean;
  chassisNumber: string | null;
  /** Pickup appointment booked this long before full_out, if any (ms). */
  appointmentLeadMs: number | null;
  /** Delivered to the consignee this long after full_out (before the empty return), ms. */
  deliveredAfterMs: number;
  /** Holds at the inland rail facility (rail boxes): in force from rail unloading until released. */
  facilityHolds: HoldPlan[];
}

export type TrackingRequestType = 'bill_of_lading' | 'booking_number' | 'container';
export type FailedReason =
  | 'booking_cancelled'
  | 'duplicate'
  | 'expired'
  | 'internal_processing_error'
  | 'invalid_number'
  | 'not_found'
  | 'retries_exhausted'
  | 'shipping_line_unreachable'
  | 'unrecognized_response'
  | 'data_unavailable'
  | 'scac_auto_detect_failed';

/** A status change of a tracking request at an instant. */
export interface TrackingRequestTransition {
  at: number;
  status: 'pending' | 'awaiting_manifest' | 'created' | 'failed';
  failedReason?: FailedReason;
  retryCount?: number;
  isRetrying?: boolean;
}

export interface TrackingRequestPlan {
  id: string;
  createdAt: number;
  requestType: TrackingRequestType;
  requestNumber: string;
  /** Null while an auto-detected carrier is unknown. */
  scac: string | null;
  /** With auto-detection, the carrier becomes known at this instant. */
  scacKnownFrom: number | null;
  refNumbers: string[];
  tags: string[];
  customer: PartyRec | null;
  /** The shipment it resolves to, once `created`. */
  shipment: ShipmentPlan | null;
  transitions: TrackingRequestTransition[];
  /** Set when a user edits the request (PATCH). */
  editedAt: number | null;
}

export interface CustomFieldDefinitionRec {
  id: string;
  entityType: 'Shipment' | 'Container' | 'TrackingRequest';
  apiSlug: string;
  displayName: string;
  description: string | null;
  dataType: 'short_text' | 'number' | 'date' | 'datetime' | 'boolean' | 'enum' | 'enum_multi';
  /** Kept as an admin sent them through the API (the generated definitions have none). */
  validation?: Record<string, unknown> | null;
  defaultFormat?: string | null;
  defaultValue?: CustomFieldRec['value'];
}

/** A custom field's value on one shipment, container or tracking request (edited through the API). */
export interface CustomFieldRec {
  id: string;
  definition: CustomFieldDefinitionRec;
  entity:
    | { type: 'shipment'; rec: ShipmentPlan }
    | { type: 'container'; rec: ContainerPlan }
    | { type: 'tracking_request'; rec: TrackingRequestPlan };
  /** A multi-select (`enum_multi`) holds the values of its options. */
  value: string | number | boolean | string[] | null;
  /** The text the service shows for the value (kept with it: a list page serves thousands). */
  displayValue: string | null;
  createdAt: number;
}

/** One choice of a pick-list (`enum`) custom field. */
export interface CustomFieldOptionRec {
  id: string;
  definition: CustomFieldDefinitionRec;
  label: string;
  value: string;
  position: number;
}

export interface DocumentRec {
  id: string;
  name: string;
  documentType: string;
  createdAt: number;
  representationId: string;
  /** How it reached the account (`email` from an email submission, `api` through `POST /documents`, else `upload`). */
  source: 'email' | 'upload' | 'api';
  /** The type an admin set by hand (`PATCH /documents/{id}`), over the classified one. */
  documentTypeManual?: string | null;
  extractedDataManual?: Record<string, unknown> | null;
  /** The uploaded blob it was made from (documents created through the API). */
  blobId?: string;
  /** When it was last changed through the API. */
  updatedAt?: number;
  fileName: string;
  /** The file's size: its generated bytes are padded to it (src/sandbox/documents.ts). */
  sizeBytes: number;
  /** Set once its submission exists (generate.ts). */
  emailSubmission: EmailSubmissionRec | null;
  shipment: ShipmentPlan;
}

/** A document as served: a generated one, or one created through the API, linked to no shipment yet. */
export type AnyDocumentRec = Omit<DocumentRec, 'shipment'> & { shipment: ShipmentPlan | null };

/** A document schema version (`/document_schemas/{id}`, id `<type>@<date>`). */
export interface DocumentSchemaRec {
  id: string;
  documentType: string;
  label: string;
  version: string;
  createdAt: number;
}

export interface EmailSubmissionRec {
  id: string;
  subject: string;
  body: string;
  from: string[];
  to: string[];
  sentAt: number;
  messageId: string;
  documents: DocumentRec[];
  createdAt: number;
}

export interface WebhookRec {
  id: string;
  url: string;
  active: boolean;
  events: string[];
  secret: string;
  headers: { name: string; value: string }[] | null;
  createdAt: number;
}

export interface WebhookNotificationRec {
  id: string;
  webhook: WebhookRec;
  event: string;
  deliveryStatus: 'pending' | 'succeeded' | 'failed';
  /** What the notification is about (its `reference_object`). */
  reference: NotificationReference;
  createdAt: number;
}

/**
 * A notification's `reference_object`, as the reference lists them: a tracking request, a
 * container's transport event (by the milestone it reports), an estimate of a shipment, or a
 * container's attributes that changed.
 */
export type NotificationReference =
  | { type: 'tracking_request'; rec: TrackingRequestPlan }
  | { type: 'transport_event'; container: ContainerPlan; eventId: string }
  | { type: 'estimated_event'; rec: EstimatedEventRec }
  | { type: 'container_updated_event'; rec: ContainerUpdatedEventRec };

/** A new estimate the line gave for a shipment (arrival, departure, inland arrival). */
export interface EstimatedEventRec {
  id: string;
  event: string;
  shipment: ShipmentPlan;
  /** The estimate (or, once it happened, the actual time). */
  estimatedAt: number | null;
  port: PortRec;
  createdAt: number;
}

/** A change of a container's attributes at the terminal (holds, fees, last free day, appointment). */
export interface ContainerUpdatedEventRec {
  id: string;
  container: ContainerPlan;
  /** When the change was seen; the changeset compares the box just before and at this instant. */
  timestamp: number;
}

export interface AccountRec {
  id: string;
  companyName: string;
}

/** What a list is paged over: an array, or a view that slices without copying the whole. */
export interface ListSource<T> {
  readonly length: number;
  slice(start: number, end: number): T[];
}
