/** Exit codes scripts can branch on. */
export const exitCodes = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  rateLimited: 4,
  network: 5,
  validation: 6,
  /** Another sync of the same database is running (the app, or another cron job). */
  busy: 7,
  cancelled: 130,
} as const;

/** The exit code for an API error code (see src/core/api/errors.ts). */
export function exitCodeFor(code: string): number {
  switch (code) {
    case 'auth':
    case 'forbidden':
      return exitCodes.auth;
    case 'rate_limited':
      return exitCodes.rateLimited;
    case 'network':
    case 'timeout':
    case 'upstream':
    case 'malformed':
      return exitCodes.network;
    case 'validation':
    case 'not_found':
    case 'invalid_argument':
    case 'rejected':
      return exitCodes.validation;
    case 'busy':
      return exitCodes.busy;
    case 'cancelled':
      return exitCodes.cancelled;
    default:
      return exitCodes.failure;
  }
}
