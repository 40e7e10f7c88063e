import { describe, expect, it } from 'vitest';
import {
  buildQuery,
  TrackingApiClient,
  type RequestEvent,
  type TrackingApiClientOptions,
} from '../../src/core/api/client';
import { listResources, readLink } from '../../src/core/api/document';
import {
  ApiError,
  AuthError,
  errorFromResponse,
  ForeignOriginError,
  NotFoundError,
  parseRetryAfter,
  RateLimitedError,
  UpstreamError,
  ValidationError,
} from '../../src/core/api/errors';
import { RateLimiter } from '../../src/core/api/rate-limiter';
import type { FaultKind } from '../../src/sandbox/index';
import { useSandbox } from '../helpers/sandbox';

const apiKey = 'qs-test-SECRET-7c1f9e2b';
const wrongKey = 'qs-wrong-SECRET-00aa11';
const generous = () => new RateLimiter({ limit: 10_000, windowMs: 60_000 });

/** Every event and error the file sees, to check at the end that the key never shows. */
const seenEvents: RequestEvent[] = [];
const seenErrors: unknown[] = [];

function createClient(
  baseUrl: string,
  options: Partial<TrackingApiClientOptions> = {},
): { client: TrackingApiClient; events: RequestEvent[] } {
  const events: RequestEvent[] = [];
  const client = new TrackingApiClient({
    baseUrl,
    apiKey,
    limiter: generous(),
    backoff: { baseMs: 1, maxMs: 5 },
    timeoutMs: 2000,
    ...options,
    onRequest: (event) => {
      events.push(event);
      seenEvents.push(event);
    },
  });
  return { client, events };
}

async function catchError(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (caught: unknown) => caught,
  );
  seenErrors.push(error);
  return error;
}

const trackingRequest = (scac: string, number = 'APLU123456789') => ({
  data: {
    type: 'tracking_request',
    attributes: { request_type: 'bill_of_lading', request_number: number, scac },
  },
});

describe('TrackingApiClient against the sandbox', () => {
  const sandbox = useSandbox({
    seed: 'api-client',
    shipments: 230,
    apiKeys: [apiKey],
  });

  it('sends the key and JSON:API headers and reads documents', async () => {
    const sent: { method: string | undefined; headers: Headers }[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      sent.push({ method: init?.method, headers: new Headers(init?.headers) });
      return fetch(input, init);
    };
    const { client, events } = createClient(sandbox.get().url, { fetch: recordingFetch });
    const doc = await client.get('/shipments', { query: { 'page[size]': 5 }, priority: 'user' });
    expect(doc.data).toHaveLength(5);
    expect(events).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/v2/shipments?page[size]=5',
        status: 200,
        attempt: 1,
        priority: 'user',
      }),
    ]);
    await client.post('/tracking_requests', trackingRequest('APLU'));
    expect(sent.map((r) => [r.method, r.headers.get('authorization'), r.headers.get('accept')])).toEqual([
      ['GET', `Token ${apiKey}`, 'application/vnd.api+json'],
      ['POST', `Token ${apiKey}`, 'application/vnd.api+json'],
    ]);
    expect(sent.map((r) => r.headers.get('content-type'))).toEqual([null, 'application/vnd.api+json']);
  });

  it('turns a refused key into an AuthError a forwarder can read', async () => {
    const { client, events } = createClient(sandbox.get().url, { apiKey: wrongKey });
    const error = await catchError(client.get('/shipments'));
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ status: 401, code: 'auth', retryable: false });
    expect((error as Error).message).toMatch(/^The API key was refused/);
    expect((error as Error).message).not.toContain(wrongKey);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain(wrongKey);
  });

  it('turns a missing record into a NotFoundError without retrying', async () => {
    const { client, events } = createClient(sandbox.get().url);
    const error = await catchError(client.get('/shipments/no-such-shipment'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, errors: [expect.objectContaining({ status: '404' })] });
    expect(events).toHaveLength(1);
  });

  it('turns a 422 into a ValidationError with pointers', async () => {
    const { client } = createClient(sandbox.get().url);
    const error = await catchError(client.post('/tracking_requests', trackingRequest('XXXX')));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).pointers).toContainEqual({
      pointer: '/data/attributes/scac',
      detail: "Scac 'XXXX' is not recognized",
    });
    expect((error as Error).message).toContain("Scac 'XXXX' is not recognized");
  });

  it.each<FaultKind>(['500', '502', '503', 'reset', 'timeout', 'malformed'])(
    'retries after an injected %s and then succeeds',
    async (fault) => {
      const { client, events } = createClient(sandbox.get().url, { timeoutMs: 400 });
      sandbox.get().injectFault(fault);
      const doc = await client.get('/shipping_lines');
      expect(Array.isArray(doc.data)).toBe(true);
      expect(events.map((e) => e.attempt)).toEqual([1, 2]);
      expect(events[0]!.error).toBeDefined();
      expect(events[1]).toMatchObject({ status: 200 });
      expect(events[1]!.error).toBeUndefined();
    },
  );

  it('gives up after maxAttempts and throws the last error', async () => {
    const { client, events } = createClient(sandbox.get().url, { maxAttempts: 3 });
    sandbox.get().injectFault('503', 3);
    const error = await catchError(client.get('/shipping_lines'));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(events).toHaveLength(3);
  });

  it('never retries a POST that failed on the server', async () => {
    const { client, events } = createClient(sandbox.get().url);
    sandbox.get().injectFault('500');
    const error = await catchError(client.post('/tracking_requests', trackingRequest('APLU')));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(events).toHaveLength(1);
  });

  it('retries a PATCH only when told it is idempotent', async () => {
    const { client, events } = createClient(sandbox.get().url);
    const [shipment] = (await client.get('/shipments', { query: { page: { size: 1 } } })).data as { id: string }[];
    const body = { data: { type: 'shipment', attributes: { tags: ['urgent'] } } };
    sandbox.get().injectFault('503');
    expect(await catchError(client.patch(`/shipments/${shipment!.id}`, body))).toBeInstanceOf(UpstreamError);
    sandbox.get().injectFault('503');
    const doc = await client.patch(`/shipments/${shipment!.id}`, body, { idempotent: true });
    expect(doc?.data).toMatchObject({ attributes: { tags: ['urgent'] } });
    expect(events.slice(1).map((e) => e.status)).toEqual([503, 503, 200]);
  });

  it('resolves a DELETE with an empty body to null', async () => {
    const { client } = createClient(sandbox.get().url);
    const created = await client.post('/webhooks', {
      data: { type: 'webhook', attributes: { url: 'https://example.test/hook', active: true } },
    });
    const id = (created?.data as { id: string }).id;
    expect(await client.delete(`/webhooks/${id}`)).toBeNull();
    expect(await catchError(client.get(`/webhooks/${id}`))).toBeInstanceOf(NotFoundError);
  });

  it('follows links.next through every page of /shipments, meeting meta.total', async () => {
    const { client, events } = createClient(sandbox.get().url);
    const ids: string[] = [];
    const totals = new Set<unknown>();
    let doc = await client.get('/shipments', { query: { 'page[size]': 100 } });
    let pages = 1;
    for (;;) {
      totals.add(doc.meta?.total);
      ids.push(...listResources(doc).map((r) => r.id));
      const next = readLink(doc.links?.next);
      if (next === null || listResources(doc).length === 0) break;
      doc = await client.getUrl(next);
      pages++;
    }
    expect(totals.size).toBe(1);
    const [total] = [...totals] as number[];
    expect(total).toBeGreaterThan(200);
    expect(ids).toHaveLength(total!);
    expect(new Set(ids).size).toBe(total);
    expect(pages).toBe(Math.ceil(total! / 100));
    expect(events[0]!.path).toBe('/v2/shipments?page[size]=100');
    expect(events[1]!.path).toContain('page[number]=2');
  });

  it('refuses to send the key to another origin', async () => {
    let fetched = 0;
    const countingFetch: typeof fetch = (input, init) => {
      fetched++;
      return fetch(input, init);
    };
    const { client } = createClient(sandbox.get().url, { fetch: countingFetch });
    const foreign = [
      'https://evil.example/v2/shipments',
      `http://127.0.0.1:${sandbox.get().port + 1}/v2/shipments`,
      `http://localhost:${sandbox.get().port}/v2/shipments`,
      `http://user:pw@127.0.0.1:${sandbox.get().port}/v2/shipments`,
      'http://[not a url',
    ];
    for (const url of foreign) expect(await catchError(client.getUrl(url))).toBeInstanceOf(ForeignOriginError);
    expect(await catchError(client.get('https://evil.example/v2/shipments'))).toBeInstanceOf(ForeignOriginError);
    expect(await catchError(client.get('//evil.example/v2/shipments'))).toBeInstanceOf(ForeignOriginError);
    expect(fetched).toBe(0);
    const doc = await client.getUrl(`${sandbox.get().url}/shipments?page[number]=2&page[size]=5`);
    expect(doc.data).toHaveLength(5);
    expect(fetched).toBe(1);
  });

  it('rejects at once, without retrying, when the caller aborts', async () => {
    const { client, events } = createClient(sandbox.get().url, { timeoutMs: 10_000 });
    sandbox.get().injectFault('timeout');
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const error = await catchError(client.get('/shipping_lines', { signal: controller.signal }));
    expect(error).toMatchObject({ name: 'AbortError' });
    // At the abort, not at the 10 s request timeout (room left for a busy machine).
    expect(Date.now() - started).toBeLessThan(8000);
    expect(events).toEqual([expect.objectContaining({ attempt: 1, error: 'aborted' })]);
  });

  it('never lets the key appear in events or error messages', () => {
    expect(seenEvents.length).toBeGreaterThan(20);
    expect(seenErrors.length).toBeGreaterThan(10);
    const text = JSON.stringify(seenEvents) + seenErrors.map((e) => `${String(e)} ${(e as Error).stack}`).join('\n');
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(wrongKey);
  });
});

describe('TrackingApiClient under a 429 storm', () => {
  const sandbox = useSandbox({
    seed: 'api-storm',
    shipments: 5,
    rateLimit: { limit: 3, windowSeconds: 1 },
    rateBuckets: { create_tracking_request: { limit: 1, windowSeconds: 1 } },
  });

  it('retries a POST that got 429, since the server did not act on it', async () => {
    const slept: number[] = [];
    const { client, events } = createClient(sandbox.get().url, {
      apiKey: 'quayside-demo-key',
      sleep: (ms) => (slept.push(ms), new Promise((resolve) => setTimeout(resolve, ms))),
    });
    await client.post('/tracking_requests', trackingRequest('APLU', 'APLU100000001'));
    const created = await client.post('/tracking_requests', trackingRequest('APLU'));
    expect(created?.data).toMatchObject({ type: 'tracking_request' });
    expect(events.map((e) => e.status)).toEqual([201, 429, 201]);
    expect(slept[0]).toBeGreaterThanOrEqual(1000); // Retry-After: 1
  });

  it('rides out a storm of 429s, pausing the whole bucket', async () => {
    const limiter = generous();
    const pauses: number[] = [];
    const pauseFor = limiter.pauseFor.bind(limiter);
    limiter.pauseFor = (ms) => {
      pauses.push(ms);
      pauseFor(ms);
    };
    const before = sandbox.get().stats.rateLimited;
    const { client, events } = createClient(sandbox.get().url, {
      apiKey: 'quayside-demo-key',
      limiter,
      maxAttempts: 10,
    });
    const docs = await Promise.all(Array.from({ length: 8 }, () => client.get('/shipping_lines')));
    expect(docs).toHaveLength(8);
    expect(sandbox.get().stats.rateLimited).toBeGreaterThan(before);
    expect(events.filter((e) => e.status === 429).length).toBe(sandbox.get().stats.rateLimited - before);
    expect(pauses.length).toBeGreaterThan(0);
    expect(Math.min(...pauses)).toBeGreaterThanOrEqual(1000);
  });

  it('throws RateLimitedError with Retry-After when attempts run out', async () => {
    const { client } = createClient(sandbox.get().url, { apiKey: 'quayside-demo-key', maxAttempts: 1 });
    const results = await Promise.all([1, 2, 3, 4].map(() => catchError(client.get('/shipping_lines'))));
    const limited = results.filter((r) => r instanceof RateLimitedError);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]).toMatchObject({ status: 429, retryAfterMs: 1000 });
    expect((limited[0] as Error).message).toBe('Too many requests to the Tracking API for now. Try again in 1 second.');
  });
});

describe('TrackingApiClient with its limiter set to the server limit', () => {
  const sandbox = useSandbox({ seed: 'api-budget', shipments: 5, rateLimit: { limit: 20, windowSeconds: 2 } });

  it('makes 60 requests without a single 429', async () => {
    const limiter = new RateLimiter({ limit: 20, windowMs: 2000 });
    const { client, events } = createClient(sandbox.get().url, { apiKey: 'quayside-demo-key', limiter });
    const docs = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        client.get('/shipping_lines', { priority: i % 3 === 0 ? 'user' : 'background' }),
      ),
    );
    expect(docs).toHaveLength(60);
    expect(sandbox.get().stats.rateLimited).toBe(0);
    expect(events).toHaveLength(60);
    expect(events.every((e) => e.status === 200)).toBe(true);
  });
});

describe('errorFromResponse and buildQuery', () => {
  it('maps statuses to errors and reads Retry-After', () => {
    const body = (detail: string) => JSON.stringify({ errors: [{ status: 403, title: 'Forbidden', detail }] });
    const forbidden = errorFromResponse(403, body('Container events are not enabled for this account'), {});
    expect(forbidden).toMatchObject({ code: 'forbidden', status: 403, retryable: false });
    expect(forbidden.message).toContain('Container events are not enabled');
    expect(forbidden.errors[0]?.status).toBe('403');
    expect(errorFromResponse(429, '', new Headers({ 'Retry-After': '7' }))).toMatchObject({ retryAfterMs: 7000 });
    expect(errorFromResponse(429, 'not json', { 'retry-after': 'soon' })).toMatchObject({ retryAfterMs: null });
    // An HTTP date counts from now; a past one means at once; what is neither means nothing was said.
    const now = Date.parse('2025-05-13T09:14:00Z');
    expect(parseRetryAfter('Wed, 14 May 2025 09:14:00 GMT', now)).toBe(86_400_000);
    expect(parseRetryAfter('Wednesday, 14-May-25 09:14:00 GMT', now)).toBe(86_400_000);
    expect(parseRetryAfter('Wed May 14 09:14:00 2025', now)).toBe(86_400_000);
    expect(parseRetryAfter('Mon, 12 May 2025 09:14:00 GMT', now)).toBe(0);
    for (const garbage of ['-5', '-0.5', 'soon 2', 'May 2025', '1e3', 'Infinity', ''])
      expect(parseRetryAfter(garbage, now)).toBeNull();
    expect(parseRetryAfter('99999999999999999999', now)).toBe(366 * 86_400_000);
    expect(errorFromResponse(502, '<html>bad gateway</html>')).toMatchObject({
      code: 'upstream',
      retryable: true,
      errors: [],
    });
    expect(errorFromResponse(501, '')).toMatchObject({ retryable: false });
    const conflict = errorFromResponse(409, body('data.type must be shipment'));
    expect(conflict).toBeInstanceOf(ApiError);
    expect(conflict).toMatchObject({ code: 'rejected', retryable: false });
  });

  it('builds queries with readable brackets', () => {
    expect(
      buildQuery({
        'page[size]': 100,
        filter: { updated_at: { start: new Date('2024-05-01T00:00:00Z') }, status: undefined },
        include: ['containers', 'pod_terminal'],
        q: 'a b&c+d',
      }),
    ).toBe(
      'page[size]=100&filter[updated_at][start]=2024-05-01T00:00:00.000Z&include=containers,pod_terminal&q=a%20b%26c%2Bd',
    );
  });
});
