/**
 * The seeded generator: same seed and size → the same world, entity by entity. Voyages are
 * spread around the start time so that some shipments are still at origin, some at sea, some
 * arrived, available, picked up or returned, and the rest happens as simulated time moves.
 */
import { partyNames } from './data/parties';
import { documentFileOf, uploadedDocuments } from './documents';
import { DAY, HOUR, MINUTE, generateShipment, minute } from './generate-shipment';
import { failedReasons, trackingRequestFor, unresolvedRequest } from './generate-requests';
import type {
  CustomFieldDefinitionRec,
  DocumentRec,
  EmailSubmissionRec,
  PartyRec,
  ShipmentPlan,
  TrackingRequestPlan,
  WebhookNotificationRec,
  WebhookRec,
} from './model';
import { Random, stableUuid } from './random';
import { buildReference, lanesOf, type Reference } from './world-reference';

export { DAY, generateShipment, HOUR } from './generate-shipment';
export { lanesOf, type Lanes, type Reference } from './world-reference';

export interface GeneratedWorld extends Reference {
  seed: string;
  startedAt: number;
  parties: PartyRec[];
  shipments: ShipmentPlan[];
  trackingRequests: TrackingRequestPlan[];
  customFieldDefinitions: CustomFieldDefinitionRec[];
  emailSubmissions: EmailSubmissionRec[];
  /** Every document: those of the email submissions, then those uploaded. */
  documents: DocumentRec[];
  webhooks: WebhookRec[];
  webhookNotifications: WebhookNotificationRec[];
}

export interface GenerateOptions {
  seed: string;
  shipments: number;
  /** Simulated start time, epoch ms. */
  now: number;
}

/** The whole account: reference data, customers, shipments, tracking requests and the rest. */
export function generateWorld(options: GenerateOptions): GeneratedWorld {
  const { seed, now } = options;
  const reference = buildReference(seed);
  const lanes = lanesOf(reference);
  const random = new Random(`${seed}:account`);

  const parties: PartyRec[] = partyNames.map((companyName, i) => ({
    id: stableUuid(seed, `party:${i}`),
    companyName,
    createdAt: minute(now - random.float(120, 700) * DAY),
  }));

  const shipments: ShipmentPlan[] = [];
  const trackingRequests: TrackingRequestPlan[] = [];
  for (let i = 0; i < options.shipments; i++) {
    const shipment = generateShipment(seed, `s${i}`, reference, lanes, parties, {
      index: i,
      createdBefore: now,
      departureFrom: now - 80 * DAY,
      departureTo: now + 25 * DAY,
    });
    shipments.push(shipment);
    trackingRequests.push(trackingRequestFor(seed, `s${i}`, shipment));
  }

  // Requests that did not (yet) become shipments: pending, awaiting manifest, and every kind of failure.
  const unresolved = Math.max(failedReasons.length + 4, Math.round(options.shipments * 0.08));
  for (let i = 0; i < unresolved; i++) {
    trackingRequests.push(unresolvedRequest(seed, i, now, reference, parties));
  }

  shipments.sort((a, b) => b.createdAt - a.createdAt);
  trackingRequests.sort((a, b) => b.createdAt - a.createdAt);

  const webhooks: WebhookRec[] = [
    {
      id: stableUuid(seed, 'webhook:0'),
      url: 'https://hooks.example.com/terminal49',
      active: true,
      events: ['tracking_request.succeeded', 'tracking_request.failed', 'container.transport.vessel_arrived'],
      secret: `whsec_${new Random(`${seed}:whsecret`).letters(24).toLowerCase()}`,
      headers: [{ name: 'x-source', value: 'quayside-sandbox' }],
      createdAt: minute(now - 200 * DAY),
    },
    {
      id: stableUuid(seed, 'webhook:1'),
      url: 'https://tms.example.org/inbound/terminal49',
      active: false,
      events: ['container.transport.available', 'container.pickup_lfd.changed'],
      secret: `whsec_${new Random(`${seed}:whsecret1`).letters(24).toLowerCase()}`,
      headers: null,
      createdAt: minute(now - 90 * DAY),
    },
  ];
  const webhookNotifications: WebhookNotificationRec[] = trackingRequests.slice(0, 40).map((request, i) => {
    const last = request.transitions[request.transitions.length - 1]!;
    return {
      id: stableUuid(seed, `webhook_notification:${i}`),
      webhook: webhooks[0]!,
      event: last.status === 'failed' ? 'tracking_request.failed' : 'tracking_request.succeeded',
      deliveryStatus: i % 9 === 4 ? 'failed' : 'succeeded',
      reference: { type: 'tracking_request' as const, rec: request },
      createdAt: Math.min(last.at, now),
    };
  });

  const customFieldDefinitions: CustomFieldDefinitionRec[] = [
    { entityType: 'Shipment', apiSlug: 'po_number', displayName: 'PO number', dataType: 'short_text' },
    { entityType: 'Shipment', apiSlug: 'customs_broker', displayName: 'Customs broker', dataType: 'short_text' },
    { entityType: 'Shipment', apiSlug: 'incoterm', displayName: 'Incoterm', dataType: 'enum' },
    { entityType: 'Shipment', apiSlug: 'cargo_ready_date', displayName: 'Cargo ready date', dataType: 'date' },
    { entityType: 'Container', apiSlug: 'delivery_address', displayName: 'Delivery address', dataType: 'short_text' },
    { entityType: 'Container', apiSlug: 'pallet_count', displayName: 'Pallet count', dataType: 'number' },
    {
      entityType: 'Container',
      apiSlug: 'temperature_controlled',
      displayName: 'Temperature controlled',
      dataType: 'boolean',
    },
    { entityType: 'TrackingRequest', apiSlug: 'cost_centre', displayName: 'Cost centre', dataType: 'short_text' },
  ].map((d, i) => ({
    ...d,
    entityType: d.entityType as CustomFieldDefinitionRec['entityType'],
    dataType: d.dataType as CustomFieldDefinitionRec['dataType'],
    id: stableUuid(seed, `custom_field_definition:${i}`),
    description: null,
  }));

  const emailSubmissions: EmailSubmissionRec[] = shipments.slice(0, Math.min(12, shipments.length)).map((s, i) => {
    const sentAt = minute(Math.min(s.createdAt + HOUR, now - HOUR));
    // One email in five brought no document the service could read (a reply, a signature image).
    const documents = Array.from({ length: i % 5 === 4 ? 0 : 1 + (i % 3) }, (_, d) => ({
      id: stableUuid(seed, `document:${i}:${d}`),
      name: `${['Bill of lading', 'Commercial invoice', 'Packing list'][d]} ${s.billOfLading}`,
      documentType: ['bill_of_lading', 'commercial_invoice', 'packing_list'][d]!,
      createdAt: sentAt + MINUTE,
      representationId: stableUuid(seed, `document_representation:${i}:${d}`),
      ...documentFileOf(seed, `${i}:${d}`, ['bill_of_lading', 'commercial_invoice', 'packing_list'][d]!, s),
      source: 'email' as const,
      emailSubmission: null,
      shipment: s,
    }));
    return {
      id: stableUuid(seed, `email_submission:${i}`),
      subject: `Documents for ${s.billOfLading}`,
      body: `Please find attached the documents for bill of lading ${s.billOfLading}.`,
      from: ['docs@shipper.example.com'],
      to: ['inbound@quayside.example.com'],
      sentAt,
      messageId: `<${stableUuid(seed, `message:${i}`)}@mail.example.com>`,
      documents,
      createdAt: sentAt + 30_000,
    };
  });

  for (const m of emailSubmissions) for (const d of m.documents) d.emailSubmission = m;

  return {
    ...reference,
    seed,
    startedAt: now,
    parties,
    shipments,
    trackingRequests,
    customFieldDefinitions,
    emailSubmissions,
    documents: [...emailSubmissions.flatMap((m) => m.documents), ...uploadedDocuments(seed, shipments, now)],
    webhooks,
    webhookNotifications,
  };
}
