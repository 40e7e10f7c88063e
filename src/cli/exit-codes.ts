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
  /** The service sent an answer Quayside could not use: unreadable, or a list that loops or never ends. */
  malformed: 8,
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
    // A redirect is a 'network' refusal too (RedirectError).
    case 'network':
    case 'timeout':
    case 'upstream':
      return exitCodes.network;
    // A next link to another host is a list gone wrong as much as one that loops.
    case 'malformed':
    case 'foreign_origin':
      return exitCodes.malformed;
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
