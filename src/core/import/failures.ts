/**
 * What went wrong asking for a carrier or creating a row's tracking request, in a forwarder's
 * words (the service's own reason when it gave one), and whether it stops the rest of the import:
 * the key refused, the connection lost (three network failures in a row), a day-long wait asked.
 */
import { ApiError, ValidationError } from '../api/errors';

/** Network failures in a row that mean the connection is gone, not one answer lost. */
const CONSECUTIVE_NETWORK_FAILURES = 3;

export type StopCode = 'auth' | 'network' | 'rate_limited' | 'closed';
export interface Stop {
  reason: string;
  code: StopCode;
}

export const lowerFirst = (text: string) => (text ? text[0]!.toLowerCase() + text.slice(1) : text);

const LOST: Stop = {
  code: 'network',
  reason:
    'The connection to the Tracking API was lost, so the import stopped. The rows not sent are marked Failed: Retry failed sends them.',
};
export const ACCOUNT_CLOSED: Stop = {
  code: 'closed',
  reason:
    'Another account is shown now, so the import stopped: its rows are sent only under the account it was started in.',
};
const KEY_REFUSED: Stop = {
  code: 'auth',
  reason: 'The Tracking API refused the API key, so the import stopped. Check the key in Settings, then Retry failed.',
};

function isNetwork(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'network' || error.code === 'timeout');
}

/** A failed infer_number in words, and whether it stops the other rows' questions. */
export function inferenceFailure(error: unknown, failuresInARow: number): { message: string; stop: Stop | null } {
  if (error instanceof ValidationError) {
    const detail = error.errors[0]?.detail;
    return { message: `The Tracking API says: ${detail ?? 'this number is not valid.'}`, stop: null };
  }
  if (error instanceof ApiError && (error.code === 'auth' || error.code === 'forbidden')) {
    return { message: 'The carrier could not be asked: the API key was refused.', stop: KEY_REFUSED };
  }
  if (error instanceof ApiError && error.code === 'rate_limited') {
    return {
      message: `The carrier could not be asked: ${error.message}`,
      stop: { reason: error.message, code: 'rate_limited' },
    };
  }
  if (isNetwork(error)) {
    return {
      message: 'The carrier could not be asked: no answer from the Tracking API.',
      stop: failuresInARow >= CONSECUTIVE_NETWORK_FAILURES ? LOST : null,
    };
  }
  return { message: `The carrier could not be asked: ${(error as Error).message}`, stop: null };
}

/** A failed create in words (the service's reason when it gave one), and whether it stops the rest. */
export function sendFailure(error: unknown, failuresInARow: number): { message: string; stop: Stop | null } {
  if (error instanceof ValidationError) {
    const details = error.errors.map((e) => e.detail ?? e.title).filter(Boolean);
    return { message: `The Tracking API did not accept it: ${details.join(' ') || error.message}`, stop: null };
  }
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'auth':
      case 'forbidden':
        return { message: 'The Tracking API refused the API key.', stop: KEY_REFUSED };
      case 'rate_limited':
        return { message: error.message, stop: { reason: error.message, code: 'rate_limited' } };
      case 'network':
        return {
          message: 'The Tracking API could not be reached. Retry sends it again.',
          stop: failuresInARow >= CONSECUTIVE_NETWORK_FAILURES ? LOST : null,
        };
      case 'timeout':
      case 'upstream':
      case 'malformed':
        return {
          message: `${error.code === 'timeout' ? 'The Tracking API did not answer in time' : `The Tracking API had a problem (${error.status ? `HTTP ${error.status}` : error.code})`}; it may or may not have created it. Retry finds out: if it did, the answer is “already tracked”.`,
          stop: isNetwork(error) && failuresInARow >= CONSECUTIVE_NETWORK_FAILURES ? LOST : null,
        };
      default:
        return { message: error.message, stop: null };
    }
  }
  return { message: (error as Error).message, stop: null };
}
