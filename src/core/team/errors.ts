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

/** A server's own text, for a message: ANSI sequences and other control characters gone, on one line, at most `max` characters. */
export function oneLine(text: string, max = 300): string {
  const line = text
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .replace(/[.\s]+$/, '');
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** Outside text quoted in a message: one line, at most a few words. */
export function quoted(value: unknown): string {
  return `"${oneLine(String(value), 40)}"`;
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
  // A unix socket's folder with no socket in it (a folder of programs, a file, a device).
  'ENOENT',
  'ENOTDIR',
  'ENOTSOCK',
]);

/**
 * Any failure of a PostgreSQL call as a HubError naming `where` (the address without its
 * password): a HubError passes as it is.
 */
export function hubErrorOf(error: unknown, where: string): HubError {
  if (error instanceof HubError) return error;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  // The server's text is a hostile server's to write: one line, its length cut.
  const message = oneLine(error instanceof Error ? error.message : String(error));
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
