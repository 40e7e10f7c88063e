/** The tracking requests of a sandbox world: one per shipment, and those that never became one. */
import type { FailedReason, PartyRec, ShipmentPlan, TrackingRequestPlan } from './model';
import { DAY, HOUR, MINUTE, minute } from './generate-shipment';
import { Random, stableUuid } from './random';
import type { Reference } from './world-reference';

export const failedReasons: FailedReason[] = [
  'not_found',
  'invalid_number',
  'retries_exhausted',
  'shipping_line_unreachable',
  'booking_cancelled',
  'expired',
  'duplicate',
  'internal_processing_error',
  'unrecognized_response',
  'data_unavailable',
  'scac_auto_detect_failed',
];

export function trackingRequestFor(seed: string, label: string, shipment: ShipmentPlan): TrackingRequestPlan {
  const random = new Random(`${seed}:${label}:request`);
  const requestType = random.weighted<TrackingRequestPlan['requestType']>([
    ['bill_of_lading', 80],
    ['booking_number', 18],
    ['container', 2],
  ]);
  const requestNumber =
    requestType === 'bill_of_lading'
      ? shipment.billOfLading
      : requestType === 'booking_number'
        ? shipment.bookingNumber
        : shipment.containers[0]!.number;
  const createdAt = shipment.createdAt - random.int(5, 120) * 1000;
  const transitions: TrackingRequestPlan['transitions'] = [{ at: createdAt, status: 'pending' }];
  if (requestType === 'booking_number' && random.chance(0.3)) {
    transitions.push({ at: createdAt + random.int(1, 30) * MINUTE, status: 'awaiting_manifest' });
  }
  transitions.push({ at: shipment.createdAt, status: 'created' });
  return {
    id: stableUuid(seed, `${label}:tracking_request`),
    createdAt,
    requestType,
    requestNumber,
    scac: shipment.line.data.scac,
    scacKnownFrom: null,
    refNumbers: [...shipment.refNumbers],
    tags: [...shipment.tags],
    customer: shipment.customer,
    shipment,
    transitions,
    editedAt: null,
  };
}

export function unresolvedRequest(
  seed: string,
  i: number,
  now: number,
  reference: Reference,
  parties: PartyRec[],
): TrackingRequestPlan {
  const random = new Random(`${seed}:unresolved:${i}`);
  const line = random.pick(reference.shippingLines.filter((l) => l.data.supported));
  const createdAt = minute(now - random.float(0.02, 40) * DAY);
  const reason = failedReasons[i % failedReasons.length]!;
  const kind =
    i < failedReasons.length
      ? 'failed'
      : random.weighted<string>([
          ['failed', 50],
          ['pending', 30],
          ['awaiting_manifest', 20],
        ]);
  const requestType: TrackingRequestPlan['requestType'] =
    kind === 'awaiting_manifest' ? 'booking_number' : random.chance(0.8) ? 'bill_of_lading' : 'booking_number';
  const requestNumber =
    requestType === 'bill_of_lading' ? `${line.data.bolPrefix}${random.digits(random.int(8, 10))}` : random.digits(10);
  const transitions: TrackingRequestPlan['transitions'] = [{ at: createdAt, status: 'pending' }];
  if (kind === 'failed') {
    const retries = ['retries_exhausted', 'shipping_line_unreachable'].includes(reason) ? random.int(3, 10) : 0;
    transitions.push({
      at: createdAt + random.float(0.1, 30) * HOUR,
      status: 'failed',
      failedReason: reason,
      retryCount: retries,
      isRetrying: false,
    });
  } else if (kind === 'awaiting_manifest') {
    transitions.push({ at: createdAt + random.int(1, 20) * MINUTE, status: 'awaiting_manifest' });
  } else {
    // Still pending now; the line answers "not found" later, so incremental sync sees it change.
    transitions.push({
      at: now + random.float(0.5, 48) * HOUR,
      status: 'failed',
      failedReason: 'not_found',
      retryCount: random.int(1, 5),
      isRetrying: false,
    });
  }
  return {
    id: stableUuid(seed, `unresolved:${i}:tracking_request`),
    createdAt,
    requestType,
    requestNumber,
    scac: line.data.scac,
    scacKnownFrom: null,
    refNumbers: random.chance(0.4) ? [`PO-${random.digits(6)}`] : [],
    tags: [],
    customer: random.chance(0.7) ? random.pick(parties) : null,
    shipment: null,
    transitions,
    editedAt: null,
  };
}
