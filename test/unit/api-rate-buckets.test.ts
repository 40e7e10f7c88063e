import { describe, expect, it } from 'vitest';
import { TrackingApiClient } from '../../src/core/api/client';
import { RateLimiter } from '../../src/core/api/rate-limiter';
import { liveRateLimits, rateBucketOf } from '../../src/shared/rate-buckets';

/** A clock and timers that only move when the test says so. */
class FakeClock {
  now = 0;
  #timers = new Map<number, { at: number; callback: () => void }>();
  #nextId = 1;

  readonly options = {
    now: () => this.now,
    setTimer: (callback: () => void, ms: number) => {
      const id = this.#nextId++;
      this.#timers.set(id, { at: this.now + ms, callback });
      return id;
    },
    clearTimer: (handle: unknown) => void this.#timers.delete(handle as number),
  };

  async advanceTo(time: number): Promise<void> {
    await flush();
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= time && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.#timers.delete(due[0]);
      this.now = Math.max(this.now, due[1].at);
      due[1].callback();
      await flush();
    }
    this.now = Math.max(this.now, time);
    await flush();
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Records the order in which granted work started. */
function tracker() {
  const started: string[] = [];
  const track = (name: string, granted: Promise<void>) =>
    granted.then(() => {
      started.push(name);
    });
  return { started, track };
}

describe('rateBucketOf', () => {
  it('names the bucket the service counts each request in', () => {
    expect(rateBucketOf('POST', '/v2/tracking_requests')).toBe('create_tracking_request');
    expect(rateBucketOf('POST', '/v2/tracking_requests/')).toBe('create_tracking_request');
    expect(rateBucketOf('POST', '/v2/tracking_requests/infer_number')).toBe('infer_number');
    expect(rateBucketOf('PATCH', '/v2/containers/abc-1/refresh')).toBe('refresh_container');
    expect(rateBucketOf('GET', '/v2/tracking_requests')).toBe('overall');
    expect(rateBucketOf('PATCH', '/v2/tracking_requests/abc')).toBe('overall');
    expect(rateBucketOf('GET', '/v2/containers/abc-1')).toBe('overall');
    expect(rateBucketOf('PATCH', '/v2/shipments/abc/stop_tracking')).toBe('overall');
  });
});

describe('RateLimiter buckets', () => {
  it('defaults each special bucket to the live service limit, apart from the overall one', () => {
    const limiter = new RateLimiter({ limit: 7, windowMs: 1000 });
    expect(limiter.limit).toBe(7);
    expect(limiter.bucket('overall')).toBe(limiter);
    expect(limiter.bucket('create_tracking_request').limit).toBe(liveRateLimits.create_tracking_request.limit);
    expect(limiter.bucket('infer_number').limit).toBe(liveRateLimits.infer_number.limit);
    expect(limiter.bucket('refresh_container').limit).toBe(10);
    expect(limiter.bucket('refresh_container').windowMs).toBe(60_000);
  });

  it('a full create bucket does not delay a GET, and a full overall bucket does not delay a create', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({
      limit: 2,
      windowMs: 1000,
      buckets: { create_tracking_request: { limit: 2, windowMs: 1000 } },
      ...clock.options,
    });
    const creates = limiter.bucket('create_tracking_request');
    const { started, track } = tracker();
    const all = [
      track('create 1', creates.acquire('user')),
      track('create 2', creates.acquire('user')),
      track('create 3', creates.acquire('user')),
      track('get 1', limiter.acquire('background')),
      track('get 2', limiter.acquire('background')),
      track('get 3', limiter.acquire('background')),
      track('create 4', creates.acquire('background')),
    ];
    await clock.advanceTo(0);
    // The third create waits for its own window; the GETs behind it in time are not held by it.
    expect(started).toEqual(['create 1', 'create 2', 'get 1', 'get 2']);
    expect(creates.snapshot().usedInWindow).toBe(2);
    expect(limiter.snapshot().usedInWindow).toBe(2);
    expect(limiter.snapshot().queued).toEqual({ user: 0, background: 1 });
    expect(creates.snapshot().queued).toEqual({ user: 1, background: 1 });
    await clock.advanceTo(1000);
    // Each bucket frees on its own window; user before background within the create bucket.
    expect(started.slice(4).filter((s) => s.startsWith('create'))).toEqual(['create 3', 'create 4']);
    expect(started.slice(4)).toContain('get 3');
    await Promise.all(all);
  });

  it('holds a create in flight in the create bucket only (runInSlot accounts per bucket)', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000, ...clock.options });
    const creates = limiter.bucket('create_tracking_request');
    let answer!: () => void;
    const inFlight = creates.runInSlot('user', () => new Promise<void>((resolve) => (answer = resolve)));
    await clock.advanceTo(0);
    expect(creates.snapshot().usedInWindow).toBe(1);
    expect(limiter.snapshot().usedInWindow).toBe(0);
    const { started, track } = tracker();
    const get = track('get', limiter.acquire('background'));
    await clock.advanceTo(0);
    expect(started).toEqual(['get']);
    answer();
    await inFlight;
    await get;
    expect(limiter.snapshots(clock.now).create_tracking_request.usedInWindow).toBe(1);
  });

  it('a 429 on a container refresh pauses refreshes only: the sync goes on meanwhile', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ limit: 100, windowMs: 60_000, ...clock.options });
    const sent: string[] = [];
    let refreshes = 0;
    const fetch = ((input: URL | string | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = init?.method ?? 'GET';
      sent.push(`${method} ${url.pathname}`);
      if (method === 'PATCH' && url.pathname.endsWith('/refresh') && refreshes++ === 0) {
        return Promise.resolve(
          new Response(JSON.stringify({ errors: [{ status: '429', title: 'Too Many Requests' }] }), {
            status: 429,
            headers: { 'retry-after': '30', 'content-type': 'application/vnd.api+json' },
          }),
        );
      }
      return Promise.resolve(
        new Response(JSON.stringify({ data: [] }), {
          status: 200,
          headers: { 'content-type': 'application/vnd.api+json' },
        }),
      );
    }) as typeof globalThis.fetch;
    const client = new TrackingApiClient({
      baseUrl: 'http://127.0.0.1:9/v2',
      apiKey: 'bucket-test-key',
      limiter,
      fetch,
      now: clock.options.now,
      random: () => 0,
      // The backoff sleep is the limiter's pause here: the retry waits in its bucket's queue.
      sleep: () => Promise.resolve(),
    });
    const refresh = client.patch('/containers/c-1/refresh', undefined, { priority: 'user', idempotent: true });
    await clock.advanceTo(0);
    expect(sent).toEqual(['PATCH /v2/containers/c-1/refresh']);
    expect(limiter.bucket('refresh_container').snapshot().pausedUntil).toBe(30_000);
    expect(limiter.snapshot().pausedUntil).toBeNull();
    // While refreshes sit out their Retry-After, the sync's reads and a create go at once.
    await client.get('/shipments');
    await client.post('/tracking_requests', { data: {} }, { priority: 'user' });
    expect(sent).toEqual(['PATCH /v2/containers/c-1/refresh', 'GET /v2/shipments', 'POST /v2/tracking_requests']);
    await clock.advanceTo(29_999);
    expect(sent).toHaveLength(3);
    await clock.advanceTo(30_000);
    await refresh;
    expect(sent.at(-1)).toBe('PATCH /v2/containers/c-1/refresh');
    expect(sent).toHaveLength(4);
  });
});
