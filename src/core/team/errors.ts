/**
 * What goes wrong between a hub and its PostgreSQL, in one sentence each, with the kind a caller
 * branches on (the CLI's exit code): a bad address is the user's to fix before anything is sent;
 * a server that cannot be reached or refuses the role is said as such; the rest is a failure.
 */
export type HubErrorKind = 'usage' | 'auth' | 'network' | 'failure';

export class HubError extends Error {
  readonly kind: HubErrorKind;
  constructor(kind: HubErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HubError';
    this.kind = kind;
  }
}

/** PostgreSQL's SQLSTATEs for a role refused at login (bad password, no such role, no right to connect). */
const authStates = new Set(['28000', '28P01', '42501']);
/** Node's codes for an address that cannot be reached. */
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * Any failure of a PostgreSQL call as a HubError naming `where` (the address without its
 * password): a HubError passes as it is.
 */
export function hubErrorOf(error: unknown, where: string): HubError {
  if (error instanceof HubError) return error;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string' && authStates.has(code)) {
    return new HubError('auth', `PostgreSQL at ${where} refused the login: ${message}.`, { cause: error });
  }
  if ((typeof code === 'string' && networkCodes.has(code)) || /timeout|terminated unexpectedly/i.test(message)) {
    return new HubError('network', `PostgreSQL at ${where} could not be reached (${message}).`, { cause: error });
  }
  if (typeof code === 'string' && /^(ERR_TLS|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO|CERT_)/.test(code)) {
    return new HubError(
      'network',
      `The TLS certificate of PostgreSQL at ${where} could not be verified (${message}); pass its CA with sslrootcert=PATH.`,
      { cause: error },
    );
  }
  if (/does not support SSL/i.test(message)) {
    return new HubError('network', `PostgreSQL at ${where} does not offer TLS, which Quayside requires for it.`, {
      cause: error,
    });
  }
  return new HubError('failure', `PostgreSQL at ${where} failed: ${message}.`, { cause: error });
}
