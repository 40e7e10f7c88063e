import { ApiError, RateLimitedError, ValidationError, describeInstant, describeWait } from '../api/errors';
import { QuaysideError } from '../errors';

/** JSON:API pointers of the service's 422s, as the names of the form's fields. */
const fieldNames: Record<string, string> = {
  '/data/attributes/request_type': 'requestType',
  '/data/attributes/request_number': 'requestNumber',
  '/data/attributes/scac': 'scac',
  '/data/attributes/ref_numbers': 'refNumbers',
  '/data/attributes/tags': 'tags',
  '/data/relationships/customer': 'customerId',
};

/**
 * An action the service refused or could not take, in words and codes the renderer acts on.
 * Nothing was changed locally when this is thrown.
 */
export function toActionError(error: unknown): Error {
  if (!(error instanceof ApiError)) return error instanceof Error ? error : new Error(String(error));
  switch (error.code) {
    case 'network':
    case 'timeout':
      return new QuaysideError(
        'needs_connection',
        'This needs a connection to the Tracking API, and there is none right now. Nothing was changed.',
        { cause: error },
      );
    case 'auth':
    case 'forbidden':
      return new QuaysideError(
        'key_refused',
        'The Tracking API refused this profile’s API key. Check it in Settings. Nothing was changed.',
      );
    case 'rate_limited': {
      // The wait the service named, when it named one; a day-long Retry-After is not "a minute".
      const limited = error instanceof RateLimitedError ? error : null;
      const when = limited?.retryAt
        ? `after ${describeInstant(limited.retryAt, new Date())}`
        : limited?.retryAfterMs != null
          ? `in ${describeWait(limited.retryAfterMs)}`
          : 'in a minute';
      return new QuaysideError(
        'rate_limited',
        `The Tracking API asks to slow down; try again ${when}. Nothing was changed.`,
      );
    }
    case 'not_found':
      return new QuaysideError('not_found', 'The Tracking API no longer has this record.');
    case 'validation': {
      const fields: Record<string, string> = {};
      const pointers = error instanceof ValidationError ? error.pointers : [];
      for (const p of pointers) fields[fieldNames[p.pointer] ?? p.pointer.split('/').pop() ?? 'form'] = p.detail;
      const first = Object.values(fields)[0];
      return new QuaysideError('rejected', first ? `The Tracking API did not accept this: ${first}` : error.message, {
        fields,
      });
    }
    default:
      return new QuaysideError(
        'busy',
        'The Tracking API could not do this right now; try again in a minute. Nothing was changed.',
      );
  }
}
