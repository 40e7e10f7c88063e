/**
 * Creating one tracking request on the service: the new-request form's path and each row of a
 * bulk import. The service's duplicate answer becomes `already_tracked` naming the request that
 * exists (`duplicate-request.ts`); anything else it refuses comes back as its error.
 */
import type { TrackingApiClient } from '../api/client';
import type { JsonApiDocument } from '../api/document';
import type { Priority } from '../api/rate-limiter';
import { trackingRequestsPath } from '../resources/tracking-requests';
import type { Db } from '../store/database';
import { alreadyTracked } from './duplicate-request';

export interface NewTrackingRequest {
  requestType: 'bill_of_lading' | 'booking_number' | 'container';
  /** Normalised (`normalizeTrackingNumber`). */
  number: string;
  scac: string;
  refNumbers: string[];
  tags: string[];
  customerId?: string | null;
}

export function postTrackingRequest(
  client: TrackingApiClient,
  db: Db,
  request: NewTrackingRequest,
  options: { priority: Priority; stopWaiting?: AbortSignal },
): Promise<JsonApiDocument | null> {
  const { requestType, number, scac, customerId } = request;
  const body = {
    data: {
      type: 'tracking_request',
      attributes: {
        request_type: requestType,
        request_number: number,
        scac,
        ref_numbers: request.refNumbers,
        shipment_tags: request.tags,
      },
      ...(customerId ? { relationships: { customer: { data: { type: 'party', id: customerId } } } } : {}),
    },
  };
  return client.post(trackingRequestsPath, body, options).catch((error: unknown) => {
    throw alreadyTracked(error, db, { requestType, number, scac }) ?? error;
  });
}
