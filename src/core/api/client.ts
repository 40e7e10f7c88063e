/**
 * The Tracking API client: every attempt takes a slot from its bucket of the key's rate limiter
 * (the overall one, or creates, number inference or container refreshes), carries a
 * timeout, reads at most MAX_BODY_BYTES, and is retried with backoff when that is safe (a 429
 * asking for more than MAX_RETRY_AFTER_MS is given up at once, naming when). The API key goes
 * only to the base URL's origin and never into events, logs or error messages.
 */
import { setTimeout as wait } from 'node:timers/promises';
import { jsonOf, parseDocumentInSteps, type JsonApiDocument } from './document';
import {
  ApiError,
  errorFromResponse,
  ForeignOriginError,
  MalformedResponseError,
  NetworkError,
  RateLimitedError,
  ResponseTooLargeError,
  TimeoutError,
} from './errors';
import { writtenForms } from '../log/redact';
import { rateBucketOf } from '../../shared/rate-buckets';
import {
  MAX_PAUSE_MS,
  rateLimiterFor,
  type Priority,
  type RateLimiter,
  type RateLimiterSnapshot,
} from './rate-limiter';

const JSON_API = 'application/vnd.api+json';

/** The longest Retry-After waited out in place; a longer one ends the request (and the sync). */
export const MAX_RETRY_AFTER_MS = MAX_PAUSE_MS;
/** The largest answer read into memory; a larger one is cut off and refused. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type QueryValue =
  string | number | boolean | Date | null | undefined | readonly (string | number)[] | QueryParams;
export interface QueryParams {
  [name: string]: QueryValue;
}

export interface RequestOptions {
  /** `{ 'page[size]': 100 }` or nested: `{ filter: { updated_at: { start: date } } }`. */
  query?: QueryParams;
  /** Defaults to 'background': user actions say so, and are served first. */
  priority?: Priority;
  signal?: AbortSignal;
  /**
   * A user action that would rather say when to try again than wait: a 429 pauses the bucket as
   * usual but ends the request at once (its RateLimitedError carries `retryAt`), never retried.
   */
  noWaitOn429?: boolean;
  /**
   * Ends the request only while it waits (for a slot, or before a retry), never once it is on its
   * way: a create that may have reached the service is seen through to its answer (a bulk import's
   * Cancel). `signal` ends it wherever it is.
   */
  stopWaiting?: AbortSignal;
}

export interface PatchOptions extends RequestOptions {
  /** Repeating this PATCH leaves the same result, so it may be retried. */
  idempotent?: boolean;
}

export interface RequestEvent {
  method: string;
  /** Path and query, without origin. */
  path: string;
  status: number | null;
  attempt: number;
  durationMs: number;
  priority: Priority;
  /** The error code (and system reason for network errors) when the attempt failed. */
  error?: string;
}

export interface TrackingApiClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** Defaults to the process-wide limiter of this key. */
  limiter?: RateLimiter;
  timeoutMs?: number;
  maxAttempts?: number;
  backoff?: { baseMs: number; maxMs: number };
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** The clock that dates a Retry-After too long to wait out. */
  now?: () => number;
  /** Defaults to MAX_RETRY_AFTER_MS. */
  maxRetryAfterMs?: number;
  /** Defaults to MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  onRequest?: (event: RequestEvent) => void;
}

type Settings = Required<Omit<TrackingApiClientOptions, 'baseUrl' | 'limiter' | 'onRequest'>> &
  Pick<TrackingApiClientOptions, 'onRequest'>;

export class TrackingApiClient {
  readonly #base: URL;
  readonly #limiter: RateLimiter;
  readonly #settings: Settings;
  /** The key as written raw, URL-encoded or in base64 (see Redactor), longest first. */
  readonly #keyForms: string[];

  constructor(options: TrackingApiClientOptions) {
    // Checked here so that fetch never builds a header error message that quotes the key.
    if (!/^[\x21-\x7e]+$/.test(options.apiKey)) throw new Error('The API key is empty or has invalid characters');
    this.#base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.#limiter = options.limiter ?? rateLimiterFor(options.apiKey);
    this.#keyForms = [...new Set(writtenForms(options.apiKey))].sort((a, b) => b.length - a.length);
    this.#settings = {
      apiKey: options.apiKey,
      fetch: options.fetch ?? globalThis.fetch,
      timeoutMs: options.timeoutMs ?? 20_000,
      maxAttempts: Math.max(1, options.maxAttempts ?? 5),
      backoff: options.backoff ?? { baseMs: 500, maxMs: 30_000 },
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
      maxRetryAfterMs: options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS,
      maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
      onRequest: options.onRequest,
    };
  }

  async get(path: string, options: RequestOptions = {}): Promise<JsonApiDocument> {
    return requireDocument(
      await this.#request('GET', this.#resolvePath(path, options.query), undefined, options, true),
    );
  }

  /**
   * A GET whose answer is plain JSON, not a JSON:API document (the map GeoJSON,
   * `/documents/{id}/download_url`, `/documents/types`): an object, else a malformed answer. Same
   * limiter, retries, limits and key handling; the caller checks its shape.
   */
  async getJson(path: string, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    const answer = await this.#request(
      'GET',
      this.#resolvePath(path, options.query),
      undefined,
      options,
      true,
      asText(parsePlainObject),
    );
    return answer as unknown as Record<string, unknown>;
  }

  /** Follows a link the API gave (such as `links.next`); refuses any other origin. */
  async getUrl(url: string, options: RequestOptions = {}): Promise<JsonApiDocument> {
    const target = this.#checkOrigin(url);
    if (options.query) target.search = joinQuery(target.search, options.query);
    return requireDocument(await this.#request('GET', target, undefined, options, true));
  }

  /**
   * A list page (a path with its query, or a link the API gave) read by `read` from its bytes
   * instead of parsed here: the sync's pages are decoded, parsed and written off the core's event
   * loop (`pages-aside.ts`), so a page's text never takes room in the core's heap. Same limiter,
   * limits, key handling and retries, `read` included: an answer it refuses as malformed is asked
   * again, as `get` asks again for one it cannot parse.
   */
  async getPage<T>(
    target: { path: string; query?: QueryParams } | { url: string },
    read: (body: Uint8Array) => Promise<T>,
    options: RequestOptions = {},
  ): Promise<T> {
    const url = 'url' in target ? this.#checkOrigin(target.url) : this.#resolvePath(target.path, target.query);
    const reader = async (body: Uint8Array) => (await read(body)) as unknown as JsonApiDocument;
    return (await this.#request('GET', url, undefined, options, true, reader)) as unknown as T;
  }

  /** Never retried on failure, as the server may have acted; a 429 is, since it did not. */
  post(path: string, body: unknown, options: RequestOptions = {}): Promise<JsonApiDocument | null> {
    return this.#request('POST', this.#resolvePath(path, options.query), body, options, false);
  }

  patch(path: string, body: unknown, options: PatchOptions = {}): Promise<JsonApiDocument | null> {
    return this.#request('PATCH', this.#resolvePath(path, options.query), body, options, options.idempotent === true);
  }

  /**
   * For the few actions whose answer is plain JSON rather than a JSON:API document (the container
   * refresh answers `{ message }`): the parsed body, or null when there is none. Not retried after
   * a failure other than a 429, as the service may have acted.
   */
  async action(method: 'POST' | 'PATCH', path: string, body: unknown, options: RequestOptions = {}): Promise<unknown> {
    return this.#request(
      method,
      this.#resolvePath(path, options.query),
      body,
      options,
      false,
      asText(parsePlainObject),
    );
  }

  /** The rate-limit bucket a request would be counted in, as it stands now (free slots, next slot). */
  bucketSnapshot(method: string, path: string): RateLimiterSnapshot {
    return this.#limiter.bucket(rateBucketOf(method, this.#resolvePath(path, undefined).pathname)).snapshot();
  }

  /** Resolves to null when the API answers with no body. */
  delete(path: string, options: RequestOptions = {}): Promise<JsonApiDocument | null> {
    return this.#request('DELETE', this.#resolvePath(path, options.query), undefined, options, true);
  }

  #resolvePath(path: string, query: QueryParams | undefined): URL {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(path)) throw new ForeignOriginError();
    const url = new URL(path.replace(/^\/+/, ''), this.#base);
    if (query) url.search = joinQuery(url.search, query);
    return this.#checkOrigin(url.href);
  }

  #checkOrigin(link: string): URL {
    let url: URL;
    try {
      url = new URL(link, this.#base);
    } catch {
      throw new ForeignOriginError();
    }
    if (url.origin !== this.#base.origin || url.username !== '' || url.password !== '') throw new ForeignOriginError();
    return url;
  }

  async #request(
    method: Method,
    url: URL,
    body: unknown,
    options: RequestOptions,
    safeToRepeat: boolean,
    read: Reader = asText(parseDocumentInSteps),
  ): Promise<JsonApiDocument | null> {
    const priority = options.priority ?? 'background';
    const { signal } = options;
    const waiting =
      signal && options.stopWaiting ? AbortSignal.any([signal, options.stopWaiting]) : (signal ?? options.stopWaiting);
    // The service counts creates, number inference and container refreshes apart: so do we.
    const bucket = this.#limiter.bucket(rateBucketOf(method, url.pathname));
    for (let attempt = 1; ; attempt++) {
      let error: ApiError;
      try {
        return await bucket.runInSlot(
          priority,
          (answered) => this.#attempt(method, url, body, { attempt, priority, signal, answered, read }),
          waiting,
        );
      } catch (caught) {
        if (signal?.aborted) throw signal.reason;
        if (!(caught instanceof ApiError)) throw caught;
        error = caught;
      }
      const { backoff, maxRetryAfterMs } = this.#settings;
      const exponential = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
      let delay = Math.min(maxRetryAfterMs, this.#settings.random() * exponential);
      if (error instanceof RateLimitedError) {
        const asked = error.retryAfterMs;
        // Waiting a day in place would hang this caller and, through the shared limiter, every
        // user action: give up at once, saying when the service will take requests again. The
        // limiter is not paused for it, so user actions still get their answer (maybe a 429).
        if (asked !== null && asked > maxRetryAfterMs) {
          throw new RateLimitedError(asked, {
            errors: error.errors,
            // Retry-After counts in whole seconds; so does the instant it names.
            retryAt: new Date(Math.round((this.#settings.now() + asked) / 1000) * 1000),
          });
        }
        delay = Math.max(delay, asked ?? backoff.baseMs);
        bucket.pauseFor(delay);
        if (options.noWaitOn429) {
          throw new RateLimitedError(asked, {
            errors: error.errors,
            retryAt: new Date(Math.round((this.#settings.now() + delay) / 1000) * 1000),
          });
        }
      }
      const retry = error instanceof RateLimitedError || (safeToRepeat && error.retryable);
      if (!retry || attempt >= this.#settings.maxAttempts) throw error;
      await this.#settings.sleep(delay, waiting);
    }
  }

  async #attempt(
    method: Method,
    url: URL,
    body: unknown,
    context: {
      attempt: number;
      priority: Priority;
      signal: AbortSignal | undefined;
      answered: () => void;
      read: Reader;
    },
  ): Promise<JsonApiDocument | null> {
    const started = performance.now();
    const timeout = AbortSignal.timeout(this.#settings.timeoutMs);
    const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
    const headers: Record<string, string> = { authorization: `Token ${this.#settings.apiKey}`, accept: JSON_API };
    if (body !== undefined) headers['content-type'] = JSON_API;
    let status: number | null = null;
    const report = (error?: string) =>
      this.#report({
        method,
        path: `${url.pathname}${url.search}`,
        status,
        attempt: context.attempt,
        durationMs: Math.round(performance.now() - started),
        priority: context.priority,
        ...(error === undefined ? {} : { error }),
      });
    try {
      // Redirects are not followed: one to another host would take the key with it.
      const response = await this.#settings.fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        signal,
        redirect: 'manual',
      });
      // The service counted this request before it answered: the rate-limit slot can run out from here.
      context.answered();
      status = response.status;
      const bytes = await readBody(response, this.#settings.maxBodyBytes, url.pathname);
      const result = await readAnswer(method, response, bytes, context.read);
      report();
      return result;
    } catch (caught) {
      if (context.signal?.aborted) {
        report('aborted');
        throw context.signal.reason;
      }
      const error = this.#redact(
        caught instanceof ApiError
          ? caught
          : timeout.aborted
            ? new TimeoutError({ cause: caught })
            : toNetworkError(caught),
      );
      report(error instanceof NetworkError ? `${error.code} (${error.reason})` : error.code);
      throw error;
    }
  }

  #report(event: RequestEvent): void {
    try {
      this.#settings.onRequest?.(event);
    } catch {
      // A listener's failure is not the request's.
    }
  }

  /** Server-written details end up in messages; make sure none of them can echo the key. */
  #redact(error: ApiError): ApiError {
    for (const form of this.#keyForms) {
      if (error.message.includes(form)) error.message = error.message.replaceAll(form, '[API key]');
    }
    return error;
  }
}

const utf8 = new TextDecoder();

/** What reads an answer's body: its bytes, or (`asText`) its text. */
type Reader = (body: Uint8Array) => Promise<JsonApiDocument> | JsonApiDocument;

/** A reader of the body's text (TextDecoder drops a byte-order mark, as response.text() does). */
const asText =
  (read: (text: string) => Promise<JsonApiDocument> | JsonApiDocument): Reader =>
  (body) =>
    read(utf8.decode(body));

/** Whether the body's text is only white space, decoding it only when a byte is not ASCII. */
function isBlank(body: Uint8Array): boolean {
  for (const byte of body) {
    if (byte === 0x20 || (byte >= 0x09 && byte <= 0x0d)) continue;
    return byte < 0x80 ? false : utf8.decode(body).trim() === '';
  }
  return true;
}

/**
 * The body's bytes, read chunk by chunk and given up past `limit` bytes (a declared length past
 * it is refused before reading), so an endless or enormous answer never fills the memory.
 */
async function readBody(response: Response, limit: number, path: string): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  // Cancelling is not awaited: it closes the connection, and an endless sender must not hold us.
  if (Number(response.headers.get('content-length')) > limit) {
    body.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(path, limit);
  }
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(path, limit);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

async function readAnswer(
  method: Method,
  response: Response,
  body: Uint8Array,
  read: Reader,
): Promise<JsonApiDocument | null> {
  if (response.status < 200 || response.status >= 300) {
    throw errorFromResponse(response.status, utf8.decode(body), response.headers);
  }
  if (isBlank(body)) {
    if (method !== 'GET') return null;
    throw new MalformedResponseError({ status: response.status });
  }
  return read(body);
}

/** A plain JSON object answer, typed as a document only to share the request path (`getJson` hands it back as an object). */
function parsePlainObject(text: string): JsonApiDocument {
  const json = jsonOf(text);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new MalformedResponseError();
  return json as JsonApiDocument;
}

function requireDocument(document: JsonApiDocument | null): JsonApiDocument {
  if (document === null) throw new MalformedResponseError();
  return document;
}

function toNetworkError(caught: unknown): NetworkError {
  // fetch says only "fetch failed"; the system's reason is on its cause.
  const cause = caught instanceof Error ? caught.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const reason = typeof code === 'string' ? code : caught instanceof Error ? caught.message : 'unknown';
  return new NetworkError(reason, { cause: caught });
}

/** Brackets in names, and colons and commas in values, stay readable as the service writes them. */
function encode(text: string, keep: RegExp): string {
  return encodeURIComponent(text).replace(keep, decodeURIComponent);
}
const nameChars = /%5B|%5D/gi;
const valueChars = /%3A|%2C/gi;

/** `page[size]=100&filter[updated_at][start]=2024-05-01T00:00:00.000Z` */
export function buildQuery(query: QueryParams): string {
  const parts: string[] = [];
  const add = (name: string, value: QueryValue): void => {
    if (value === undefined || value === null) return;
    if (typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value as QueryParams)) add(`${name}[${key}]`, inner);
      return;
    }
    const values = Array.isArray(value) ? (value as readonly (string | number)[]) : [value];
    if (values.length === 0) return;
    const text = values.map((v) => encode(v instanceof Date ? v.toISOString() : String(v), valueChars)).join(',');
    parts.push(`${encode(name, nameChars)}=${text}`);
  };
  for (const [name, value] of Object.entries(query)) add(name, value);
  return parts.join('&');
}

function joinQuery(search: string, query: QueryParams): string {
  const added = buildQuery(query);
  const existing = search.replace(/^\?/, '');
  return [existing, added].filter(Boolean).join('&');
}

/** A timer that an abort cuts short, rejecting with the signal's reason (not a generic AbortError). */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await wait(ms, undefined, { signal }).catch((error: unknown) => {
    throw signal?.aborted ? (signal.reason as Error) : error;
  });
}
