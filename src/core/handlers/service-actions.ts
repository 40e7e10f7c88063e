/**
 * Asking the service to do something now: suggest a number's carrier as it is typed
 * (`trackingRequests:inferCarrier`, POST /tracking_requests/infer_number, 200 a minute) and refresh
 * a container from its sources (`containers:refresh`, PATCH /containers/{id}/refresh, 10 a minute,
 * a paid feature). Both go through the key's limiter in their own bucket, at user priority, and
 * neither waits out a 429: a suggestion is dropped, a refresh says when it may be tried again.
 */
import type { TrackingApiClient } from '../api/client';
import { ApiError, RateLimitedError } from '../api/errors';
import type { Priority } from '../api/rate-limiter';
import type { Handlers } from '../../shared/ipc';
import type { CarrierCandidate, CarrierSuggestion, ContainerRefreshResult } from '../../shared/service-actions';
import { normalizeTrackingNumber } from '../../shared/identifiers';
import { QuaysideError } from '../errors';
import type { Session } from '../session';
import { toActionError } from './api-errors';
import type { CoreContext } from './context';

type ServiceActionHandlers = Pick<Handlers, 'trackingRequests:inferCarrier' | 'containers:refresh'>;

export const refreshNotEnabled =
  'Refreshing a container on demand is not part of this Terminal49 account (a paid feature); its data still updates with every sync.';

/** Sessions whose account answered 403 to a refresh: asked once, then told without a request. */
const refreshRefused = new WeakSet<Session>();

function readCandidate(value: unknown): CarrierCandidate | null {
  if (typeof value !== 'object' || value === null) return null;
  const { scac, name, confidence } = value as Record<string, unknown>;
  if (typeof scac !== 'string' || !/^[A-Z]{2,4}$/i.test(scac)) return null;
  return {
    scac: scac.toUpperCase(),
    name: typeof name === 'string' ? name.slice(0, 200) : scac,
    confidence: typeof confidence === 'number' && confidence >= 0 && confidence <= 1 ? confidence : 0,
  };
}

/** The service's answer in the app's terms; anything it did not say reads as no prediction. */
export function readSuggestion(number: string, attributes: unknown): CarrierSuggestion {
  const a = (typeof attributes === 'object' && attributes !== null ? attributes : {}) as Record<string, unknown>;
  const line = (typeof a.shipping_line === 'object' && a.shipping_line !== null ? a.shipping_line : {}) as Record<
    string,
    unknown
  >;
  const numberType =
    a.number_type === 'container' || a.number_type === 'bill_of_lading' || a.number_type === 'booking'
      ? a.number_type
      : null;
  const candidates = (Array.isArray(line.candidates) ? line.candidates : [])
    .map(readCandidate)
    .filter((c): c is CarrierCandidate => c !== null)
    .slice(0, 10);
  const selected = readCandidate(line.selected);
  const decision =
    line.decision === 'auto_select' && selected
      ? 'auto_select'
      : candidates.length > 0 || selected
        ? 'needs_confirmation'
        : 'no_prediction';
  return { number, numberType, decision, selected, candidates };
}

/**
 * Asks the service what a (normalised) number is and whose: POST /tracking_requests/infer_number,
 * counted in its own bucket (200 a minute). Throws what the client throws; the form's suggestion
 * swallows it, a bulk import says it.
 */
export async function inferNumber(
  client: TrackingApiClient,
  number: string,
  options: { priority: Priority; noWaitOn429?: boolean; signal?: AbortSignal },
): Promise<CarrierSuggestion | null> {
  const doc = await client.post('/tracking_requests/infer_number', { number }, options);
  const data = doc && !Array.isArray(doc.data) ? doc.data : null;
  return data ? readSuggestion(number, data.attributes) : null;
}

export function serviceActionHandlers(ctx: CoreContext): ServiceActionHandlers {
  return {
    'trackingRequests:inferCarrier': async ({ number: typed }) => {
      const number = normalizeTrackingNumber(typed);
      const session = await ctx.session();
      // Offline, or a number too short to say anything about: no suggestion, and no request.
      if (!session.client || !session.online || !/^[A-Z0-9]{4,30}$/.test(number)) return null;
      try {
        return await inferNumber(session.client, number, { priority: 'user', noWaitOn429: true });
      } catch (error) {
        // A suggestion is a help, never a step: whatever went wrong, the form simply shows none.
        if (!(error instanceof ApiError)) ctx.log('carrier suggestion failed', error);
        return null;
      }
    },
    'containers:refresh': async ({ id }) => {
      const session = await ctx.session();
      if (refreshRefused.has(session)) return { outcome: 'not_enabled', message: refreshNotEnabled };
      if (!session.client) throw new QuaysideError('key_refused', session.noKeyMessage);
      const path = `/containers/${encodeURIComponent(id)}/refresh`;
      const bucket = session.client.bucketSnapshot('PATCH', path);
      const waitUntil = (at: number): ContainerRefreshResult => ({
        outcome: 'wait',
        retryAt: new Date(Math.ceil(at / 1000) * 1000).toISOString(),
        message: `The Tracking API takes ${bucket.limit} container refreshes a minute, and this account has used them.`,
      });
      // The minute's refreshes are used up here: say when, rather than queue the click for a minute.
      if (bucket.available === 0) return waitUntil(bucket.nextSlotAt);
      try {
        const answer = await session.client.action('PATCH', path, undefined, { priority: 'user', noWaitOn429: true });
        const message = (answer as { message?: unknown } | null)?.message;
        return {
          outcome: 'started',
          message: typeof message === 'string' && message.length <= 300 ? message : 'Started refresh',
        };
      } catch (error) {
        if (error instanceof ApiError && error.code === 'forbidden') {
          refreshRefused.add(session);
          return { outcome: 'not_enabled', message: refreshNotEnabled };
        }
        if (error instanceof RateLimitedError) {
          return waitUntil(error.retryAt?.getTime() ?? Date.now() + (error.retryAfterMs ?? 60_000));
        }
        throw toActionError(error);
      }
    },
  };
}
