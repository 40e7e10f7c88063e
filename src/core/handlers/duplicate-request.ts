/**
 * The service's answer to a tracking request for a number it already tracks: 422 with
 * `code: "duplicate"` (and, on the live service, the existing request's id in `meta`). Turned
 * into `already_tracked` naming the existing tracking request, from `meta` or else found in the
 * local copy by number, line and type, so the form can link to it, or say it is not here yet.
 */
import type { ExistingTrackingRequest } from '../../shared/ipc';
import { ValidationError } from '../api/errors';
import { QuaysideError } from '../errors';
import type { Db } from '../store/database';
import { getTrackingRequestRow, listTrackingRequests } from '../store/queries/tracking-requests';

type RequestType = 'bill_of_lading' | 'booking_number' | 'container';

/** The `already_tracked` error for a duplicate refusal; null for any other error. */
export function alreadyTracked(
  error: unknown,
  db: Db,
  request: { requestType: RequestType; number: string; scac: string },
): QuaysideError | null {
  if (!(error instanceof ValidationError)) return null;
  const duplicate = error.errors.find((e) => e.code === 'duplicate');
  if (!duplicate) return null;
  const named = duplicate.meta?.tracking_request_id;
  const metaId = typeof named === 'string' || typeof named === 'number' ? String(named) : null;
  const row = metaId !== null ? getTrackingRequestRow(db, metaId) : findLocally(db, request);
  const id = metaId ?? row?.id ?? null;
  const { number, scac } = request;
  const existing: ExistingTrackingRequest | undefined =
    id === null
      ? undefined
      : { id, inLocalCopy: row !== null, shipmentId: row?.shipmentId ?? null, requestNumber: number, scac };
  const where =
    existing === undefined || existing.inLocalCopy ? '' : ' It is not in the local copy yet; a sync brings it.';
  return new QuaysideError('already_tracked', `Already tracked: ${number} (${scac}) has a tracking request.${where}`, {
    cause: error,
    fields: { requestNumber: 'Already tracked' },
    ...(existing ? { existing } : {}),
  });
}

/** A stored request for this number, line and type that is pending or tracked, newest first. */
function findLocally(db: Db, request: { requestType: RequestType; number: string; scac: string }) {
  const { rows } = listTrackingRequests(
    db,
    {
      search: request.number,
      carriers: [request.scac],
      requestTypes: [request.requestType],
      statuses: ['pending', 'awaiting_manifest', 'created'],
    },
    { limit: 20 },
  );
  return rows.find((r) => r.requestNumber === request.number) ?? null;
}
