/**
 * The sandbox's account at run time: the generated world plus what clients changed (edits,
 * stopped tracking, new tracking requests, parties, webhooks), with the indexes routes need.
 */
import { isValidContainerNumber } from '../shared/identifiers';
import { DAY, generateShipment, lanesOf, type GeneratedWorld, type Lanes } from './generate';
import type {
  AnyDocumentRec,
  ContainerPlan,
  PartyRec,
  PortRec,
  ShipmentPlan,
  ShippingLineRec,
  TrackingRequestPlan,
  TrackingRequestType,
  VesselRec,
  WebhookRec,
} from './model';
import { SandboxCustomFields } from './custom-fields';
import { hash32, Random, stableUuid } from './random';

/** Keeps a list sorted newest first by createdAt as items are added. */
function insertNewestFirst<T extends { createdAt: number }>(list: T[], item: T): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.createdAt > item.createdAt) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
}

export class SandboxStore {
  readonly world: GeneratedWorld;
  readonly lanes: Lanes;
  readonly shipments: ShipmentPlan[];
  readonly containers: ContainerPlan[];
  readonly trackingRequests: TrackingRequestPlan[];
  readonly shipmentById = new Map<string, ShipmentPlan>();
  readonly containerById = new Map<string, ContainerPlan>();
  readonly trackingRequestById = new Map<string, TrackingRequestPlan>();
  readonly portById = new Map<string, PortRec>();
  readonly portByCode = new Map<string, PortRec>();
  readonly lineByScac = new Map<string, ShippingLineRec>();
  readonly vesselByImo = new Map<string, VesselRec>();
  readonly partyById = new Map<string, PartyRec>();
  /** Paid features this account has (SandboxOptions.routing; `Sandbox.setEntitlement` in tests). */
  readonly entitlements = { routing: true };
  /**
   * Whether the account has container refresh (`PATCH /containers/{id}/refresh`, a paid feature):
   * without it the service answers 403. `SandboxOptions.containerRefresh`; tests may flip it.
   */
  containerRefresh = true;
  /** Documents created through the API (`POST /documents`), oldest first. */
  readonly createdDocuments: AnyDocumentRec[] = [];
  /** Custom field values and the options of pick-list fields. */
  readonly customFields: SandboxCustomFields;
  #created = 0;

  constructor(world: GeneratedWorld) {
    this.world = world;
    this.lanes = lanesOf(world);
    this.shipments = [...world.shipments];
    this.trackingRequests = [...world.trackingRequests];
    this.containers = world.shipments.flatMap((s) => s.containers).sort((a, b) => b.createdAt - a.createdAt);
    for (const s of this.shipments) this.shipmentById.set(s.id, s);
    for (const c of this.containers) this.containerById.set(c.id, c);
    for (const r of this.trackingRequests) this.trackingRequestById.set(r.id, r);
    for (const p of world.ports) {
      this.portById.set(p.id, p);
      this.portByCode.set(p.data.code, p);
    }
    for (const l of world.shippingLines) this.lineByScac.set(l.data.scac, l);
    for (const v of world.vessels) this.vesselByImo.set(v.data.imo, v);
    for (const p of world.parties) this.partyById.set(p.id, p);
    this.customFields = new SandboxCustomFields(this);
  }

  /** Every document the account holds: the generated ones, then those created through the API. */
  documents(): AnyDocumentRec[] {
    return [...this.world.documents, ...this.createdDocuments];
  }

  addParty(companyName: string, now: number): PartyRec {
    const party = { id: stableUuid(this.world.seed, `party:new:${companyName}:${now}`), companyName, createdAt: now };
    this.world.parties.push(party);
    this.partyById.set(party.id, party);
    return party;
  }

  addWebhook(webhook: Omit<WebhookRec, 'id'>): WebhookRec {
    const rec = { ...webhook, id: stableUuid(this.world.seed, `webhook:new:${webhook.url}:${webhook.createdAt}`) };
    this.world.webhooks.push(rec);
    return rec;
  }

  /** An existing request for the same number and line that has not failed. */
  findActiveDuplicate(requestNumber: string, scac: string | null, now: number): TrackingRequestPlan | undefined {
    return this.trackingRequests.find((r) => {
      if (
        r.requestNumber !== requestNumber ||
        (scac !== null && r.scac !== null && r.scac !== scac) ||
        r.createdAt > now
      ) {
        return false;
      }
      let status = r.transitions[0]!.status;
      for (const t of r.transitions) if (t.at <= now) status = t.status;
      return status !== 'failed';
    });
  }

  /**
   * A tracking request created through the API. It is pending at first; a little later (in
   * simulated time) the "line" answers: the number resolves to a shipment, waits for its
   * manifest, or fails, decided by the number itself so the same number always behaves alike.
   */
  createTrackingRequest(input: {
    requestType: TrackingRequestType;
    requestNumber: string;
    scac: string | null;
    refNumbers: string[];
    tags: string[];
    customer: PartyRec | null;
    now: number;
  }): TrackingRequestPlan {
    const seed = this.world.seed;
    const label = `created:${this.#created++}:${input.requestNumber}`;
    const random = new Random(`${seed}:${input.requestNumber}`);
    const createdAt = input.now;
    const answeredAt = createdAt + random.int(20, 90) * 1000;
    const duplicate = this.findActiveDuplicate(input.requestNumber, input.scac, input.now);
    const request: TrackingRequestPlan = {
      id: stableUuid(seed, `${label}:tracking_request`),
      createdAt,
      requestType: input.requestType,
      requestNumber: input.requestNumber,
      scac: input.scac,
      scacKnownFrom: null,
      refNumbers: input.refNumbers,
      tags: input.tags,
      customer: input.customer,
      shipment: null,
      transitions: [{ at: createdAt, status: 'pending' }],
      editedAt: null,
    };
    const line = input.scac ? this.lineByScac.get(input.scac) : this.inferLine(input.requestNumber);
    const roll = hash32(`${seed}:outcome:${input.requestNumber}`) % 100;
    if (duplicate) {
      request.transitions.push({ at: createdAt + 5000, status: 'failed', failedReason: 'duplicate', retryCount: 0 });
    } else if (!line) {
      request.transitions.push({
        at: answeredAt,
        status: 'failed',
        failedReason: 'scac_auto_detect_failed',
        retryCount: 0,
      });
    } else if (input.requestType === 'container' && !isValidContainerNumber(input.requestNumber)) {
      request.transitions.push({ at: answeredAt, status: 'failed', failedReason: 'invalid_number', retryCount: 0 });
    } else if (roll < 8) {
      request.transitions.push({ at: answeredAt, status: 'failed', failedReason: 'not_found', retryCount: 3 });
    } else {
      if (input.scac === null) {
        request.scac = line.data.scac;
        request.scacKnownFrom = answeredAt;
      }
      let resolvedAt = answeredAt;
      if (input.requestType === 'booking_number' && roll < 25) {
        request.transitions.push({ at: answeredAt, status: 'awaiting_manifest' });
        resolvedAt = answeredAt + random.float(1, 3) * DAY;
      }
      const shipment = generateShipment(seed, label, this.world, this.lanes, this.world.parties, {
        index: -1,
        line,
        createdAt: resolvedAt,
        createdBefore: resolvedAt,
        departureFrom: resolvedAt - 20 * DAY,
        departureTo: resolvedAt + 15 * DAY,
        billOfLading: input.requestType === 'bill_of_lading' ? input.requestNumber : undefined,
      });
      if (input.requestType === 'booking_number') shipment.bookingNumber = input.requestNumber;
      if (input.requestType === 'container') shipment.containers[0]!.number = input.requestNumber;
      shipment.customer = input.customer ?? shipment.customer;
      shipment.refNumbers = [...input.refNumbers];
      shipment.tags = [...input.tags];
      request.transitions.push({ at: resolvedAt, status: 'created' });
      request.shipment = shipment;
      this.#addShipment(shipment);
    }
    insertNewestFirst(this.trackingRequests, request);
    this.trackingRequestById.set(request.id, request);
    return request;
  }

  /** Which supported line's bill-of-lading prefix a number starts with, if any. */
  inferLine(requestNumber: string): ShippingLineRec | undefined {
    return this.world.shippingLines.find((l) => l.data.supported && requestNumber.startsWith(l.data.bolPrefix));
  }

  #addShipment(shipment: ShipmentPlan): void {
    insertNewestFirst(this.shipments, shipment);
    this.shipmentById.set(shipment.id, shipment);
    for (const container of shipment.containers) {
      insertNewestFirst(this.containers, container);
      this.containerById.set(container.id, container);
    }
  }
}
