import { TrackingApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { RateLimiter } from '../api/rate-limiter';
import { checkBaseUrl } from '../../shared/base-url';
import type { KeyCheck } from '../../shared/types';
import { QuaysideError } from '../errors';
import { trackingRequestsPath } from '../resources/tracking-requests';
import { addressFailureSentence } from './address-problem';

/**
 * Asks the service once, as cheaply as it can be asked (one tracking request), whether it takes
 * the key: accepted, or refused (401/403). When no answer comes as the Tracking API's, it depends
 * on the address: at a known-good one (`knownGood`: the default, or where a key was accepted
 * before) the connection is down, so the key is unverified; anywhere else the address itself has
 * not been shown to work: 'address-failed', with the address and why.
 */
export async function checkApiKey(options: {
  baseUrl: string;
  apiKey: string;
  limiter: RateLimiter;
  fetch?: typeof fetch;
  knownGood: boolean;
}): Promise<KeyCheck> {
  // The IPC schemas apply the base-URL rule already; this keeps any other caller to it too.
  const allowed = checkBaseUrl(options.baseUrl);
  if (!allowed.ok) throw new QuaysideError('invalid_argument', allowed.reason, { fields: { baseUrl: allowed.reason } });
  const client = new TrackingApiClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    limiter: options.limiter,
    fetch: options.fetch,
    maxAttempts: 1,
    timeoutMs: 8000,
  });
  try {
    await client.get(trackingRequestsPath, { query: { 'page[size]': 1 }, priority: 'user' });
    return { result: 'accepted', message: 'The Tracking API accepted this key.' };
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'auth' || error.code === 'forbidden')) {
      return {
        result: 'refused',
        message: 'The Tracking API refused this key. Check that it is copied whole and still active.',
      };
    }
    if (!options.knownGood && error instanceof ApiError) {
      return { result: 'address-failed', message: addressFailureSentence(options.baseUrl, error) };
    }
    return {
      result: 'unverified',
      message:
        'The Tracking API could not be reached to check this key; it is saved and will be checked at the next sync.',
    };
  }
}
