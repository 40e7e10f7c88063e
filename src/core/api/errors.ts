/**
 * What can go wrong talking to the Tracking API, as errors whose message a forwarder can read and
 * whose `code` and `retryable` the client and the sync engine act on. No message ever carries the
 * API key: they are built from fixed sentences and the server's own error details.
 */
import { z } from 'zod';

export type ApiErrorCode =
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'validation'
  | 'rate_limited'
  | 'upstream'
  | 'network'
  | 'timeout'
  | 'malformed'
  | 'rejected'
  | 'foreign_origin';

const stringish = z.union([z.string(), z.number()]).transform(String);

const errorObjectSchema = z.looseObject({
  id: stringish.optional(),
  status: stringish.optional(),
  code: stringish.optional(),
  title: z.string().optional(),
  detail: z.string().optional(),
  source: z
    .looseObject({ pointer: z.string().optional(), parameter: z.string().optional(), header: z.string().optional() })
    .optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** One member of a JSON:API `errors` array; unknown members are kept. */
export type JsonApiErrorObject = z.infer<typeof errorObjectSchema>;

interface ApiErrorInit {
  status?: number | null;
  errors?: JsonApiErrorObject[];
  retryable?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly status: number | null;
  readonly errors: JsonApiErrorObject[];
  readonly retryable: boolean;

  constructor(code: ApiErrorCode, message: string, init: ApiErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.status = init.status ?? null;
    this.errors = init.errors ?? [];
    this.retryable = init.retryable ?? false;
  }
}

export class AuthError extends ApiError {
  override name = 'AuthError';
  constructor(init: ApiErrorInit = {}) {
    super('auth', 'The API key was refused. Check that it is entered correctly and still active.', {
      ...init,
      status: 401,
    });
  }
}

export class ForbiddenError extends ApiError {
  override name = 'ForbiddenError';
  constructor(init: ApiErrorInit = {}) {
    super('forbidden', withDetails('Your Terminal49 account is not allowed to do this.', init.errors), {
      ...init,
      status: 403,
    });
  }
}

export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  constructor(init: ApiErrorInit = {}) {
    super('not_found', 'The Tracking API has no such record; it may have been removed.', { ...init, status: 404 });
  }
}

export class ValidationError extends ApiError {
  override name = 'ValidationError';
  /** Which member of the request body each problem is about, for marking form fields. */
  readonly pointers: { pointer: string; detail: string }[];
  constructor(init: ApiErrorInit = {}) {
    super('validation', withDetails('The Tracking API did not accept this.', init.errors), { ...init, status: 422 });
    this.pointers = (init.errors ?? []).flatMap((e) =>
      e.source?.pointer === undefined ? [] : [{ pointer: e.source.pointer, detail: e.detail ?? e.title ?? '' }],
    );
  }
}

export class RateLimitedError extends ApiError {
  override name = 'RateLimitedError';
  /** How long the server asked us to wait (Retry-After), or null when it did not say. */
  readonly retryAfterMs: number | null;
  /**
   * Set when the service asked for a wait longer than Quayside waits in place: the instant it
   * named. The request was given up rather than left hanging (and is not retried by the client).
   */
  readonly retryAt: Date | null;
  constructor(retryAfterMs: number | null, init: ApiErrorInit & { retryAt?: Date } = {}) {
    const { retryAt, ...rest } = init;
    super('rate_limited', retryAt ? stoppedSentence(retryAfterMs ?? 0, retryAt) : tryAgainSentence(retryAfterMs), {
      ...rest,
      status: 429,
      retryable: retryAt === undefined,
    });
    this.retryAfterMs = retryAfterMs;
    this.retryAt = retryAt ?? null;
  }
}

function tryAgainSentence(retryAfterMs: number | null): string {
  const seconds = retryAfterMs === null ? null : Math.max(1, Math.ceil(retryAfterMs / 1000));
  const wait = seconds === null ? 'a minute' : seconds === 1 ? '1 second' : `${seconds} seconds`;
  return `Too many requests to the Tracking API for now. Try again in ${wait}.`;
}

/** "24 hours", "3 minutes": the wait in the unit a person would use. */
export function describeWait(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 120) return plural(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return plural(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 48) return plural(hours, 'hour');
  return plural(Math.round(hours / 24), 'day');
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "09:14 UTC", "09:14 UTC tomorrow" or "09:14 UTC on 14 May 2025", seen from `now`. */
export function describeInstant(at: Date, now: Date): string {
  const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')} UTC`;
  const day = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const days = Math.round((day(at) - day(now)) / 86_400_000);
  if (days === 0) return time;
  if (days === 1) return `${time} tomorrow`;
  return `${time} on ${at.getUTCDate()} ${months[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

/** The service's own figure; the app's schedule says when it really tries again (nextAttemptSentence). */
function stoppedSentence(retryAfterMs: number, retryAt: Date): string {
  const now = new Date(retryAt.getTime() - retryAfterMs);
  return (
    `The Tracking API asked Quayside to wait ${describeWait(retryAfterMs)} (until ${describeInstant(retryAt, now)}) ` +
    'before the next request, so the sync stopped.'
  );
}

export class UpstreamError extends ApiError {
  override name = 'UpstreamError';
  constructor(status: number, init: ApiErrorInit = {}) {
    super('upstream', `The Tracking API is having trouble (error ${status}). Please try again in a few minutes.`, {
      ...init,
      status,
      // 501 and 505 say the request can never work; the rest are usually passing.
      retryable: status !== 501 && status !== 505,
    });
  }
}

export class NetworkError extends ApiError {
  override name = 'NetworkError';
  /** The system's word for it (ECONNRESET, ENOTFOUND…), for logs. */
  readonly reason: string;
  constructor(reason: string, init: ApiErrorInit = {}) {
    super('network', 'Could not reach the Tracking API. Check the internet connection.', { ...init, retryable: true });
    this.reason = reason;
  }
}

/**
 * A 3xx: the address answered with a redirect, which Quayside does not follow (one to another
 * host would take the key with it). A network sign-in page or a proxy in the way answers so, as
 * does an address that has moved: a refusal by the network, not by the service.
 */
export class RedirectError extends ApiError {
  override name = 'RedirectError';
  constructor(status: number, init: ApiErrorInit = {}) {
    super(
      'network',
      `The Tracking API's address answered with a redirect (${status}), which Quayside does not follow: a network sign-in page or proxy may be in the way, or the address has moved.`,
      // The same request would meet the same redirect.
      { ...init, status, retryable: false },
    );
  }
}

export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
  constructor(init: ApiErrorInit = {}) {
    super('timeout', 'The Tracking API took too long to answer.', { ...init, retryable: true });
  }
}

export class MalformedResponseError extends ApiError {
  override name = 'MalformedResponseError';
  constructor(init: ApiErrorInit = {}) {
    super('malformed', 'The Tracking API sent an answer Quayside could not read.', { ...init, retryable: true });
  }
}

/** An answer bigger than Quayside will hold in memory; reading stopped at the limit. */
export class ResponseTooLargeError extends ApiError {
  override name = 'ResponseTooLargeError';
  readonly limitBytes: number;
  constructor(path: string, limitBytes: number, init: ApiErrorInit = {}) {
    const size = `${Math.round(limitBytes / 1024 / 1024)} MB`;
    super(
      'malformed',
      `The Tracking API's answer for ${path} was larger than ${size}, more than Quayside accepts; it stopped reading it.`,
      // The same request would bring the same answer.
      { ...init, retryable: false },
    );
    this.limitBytes = limitBytes;
  }
}

/** Following a link to another host would hand it the API key. */
export class ForeignOriginError extends ApiError {
  override name = 'ForeignOriginError';
  constructor() {
    super('foreign_origin', 'Quayside refused to follow a link that leads outside the Tracking API.');
  }
}

const maxDetailLength = 300;

/** The server's own explanations, which are written for people, appended to our sentence. */
function withDetails(sentence: string, errors: JsonApiErrorObject[] = []): string {
  const details = [...new Set(errors.map((e) => (e.detail ?? e.title ?? '').trim()).filter(Boolean))];
  if (details.length === 0) return sentence;
  const text = details.join('; ');
  return `${sentence} ${text.length > maxDetailLength ? `${text.slice(0, maxDetailLength - 1)}…` : text}`;
}

/** The `errors` of a body, keeping each well-formed member; anything else counts as none. */
function readErrorObjects(bodyText: string): JsonApiErrorObject[] {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return [];
  }
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((e) => {
    const parsed = errorObjectSchema.safeParse(e);
    return parsed.success ? [parsed.data] : [];
  });
}

type HeaderSource = Headers | Record<string, string | undefined>;

function readHeader(headers: HeaderSource, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const found = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return found === undefined ? null : (headers[found] ?? null);
}

/** The longest wait a Retry-After is taken at its word for; beyond it the value is clamped. */
const maxRetryAfterMs = 366 * 86_400_000;

// RFC 9110 HTTP-date: IMF-fixdate, and the obsolete RFC 850 and asctime forms it still accepts.
const httpDate = new RegExp(
  [
    /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    /^[A-Z][a-z]{5,8}, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
    /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
  ]
    .map((r) => `(?:${r.source})`)
    .join('|'),
);

/**
 * Retry-After in milliseconds: whole (or decimal) seconds, or an HTTP date (0 once it has
 * passed). Anything else (negative, garbage, a date in another shape) counts as not said: null.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(maxRetryAfterMs, Math.round(Number(text) * 1000));
  if (!httpDate.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.min(maxRetryAfterMs, Math.max(0, at - now));
}

/** The error for a non-2xx answer. */
export function errorFromResponse(status: number, bodyText: string, headers: HeaderSource = {}): ApiError {
  const errors = readErrorObjects(bodyText);
  const init = { status, errors };
  if (status === 401) return new AuthError(init);
  if (status === 403) return new ForbiddenError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 408) return new TimeoutError(init);
  if (status === 422) return new ValidationError(init);
  if (status === 429) return new RateLimitedError(parseRetryAfter(readHeader(headers, 'retry-after')), init);
  if (status >= 500) return new UpstreamError(status, init);
  if (status >= 300 && status < 400) return new RedirectError(status, init);
  return new ApiError('rejected', withDetails(`The Tracking API refused the request (error ${status}).`, errors), init);
}
