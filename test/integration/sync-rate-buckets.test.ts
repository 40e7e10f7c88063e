import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestEvent } from '../../src/core/api/client';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index';
import { syncOf } from '../helpers/sync';

// The sync and a bulk import share one key, one client and one limiter, as in the app. Each
// window here is 10 minutes long: a request that had to wait for a window to pass would never
// be answered within the test, so what finished shows what never waited on another's bucket.
const LONG = 600;

const request = (i: number) => ({
  data: {
    type: 'tracking_request',
    attributes: { request_type: 'bill_of_lading', request_number: `MEDUQB${String(i).padStart(6, '0')}`, scac: 'MSCU' },
  },
});

describe('a sync while many tracking requests are created, each in its own rate bucket', () => {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  async function setUp(limits: Pick<SandboxOptions, 'rateLimit' | 'rateBuckets'>) {
    sandbox = await startSandbox({ seed: 'buckets-sync', shipments: 30, ...limits });
    const events: RequestEvent[] = [];
    // The client models the same limits as the sandbox it talks to.
    const sync = syncOf(sandbox, { ...limits, onRequest: (event) => events.push(event) });
    const posts = () => events.filter((e) => e.method === 'POST');
    const gets = () => events.filter((e) => e.method === 'GET');
    return { sandbox, sync, events, posts, gets };
  }

  it('the sync runs to the end while creates beyond their bucket wait for its window', async () => {
    const { sandbox, sync, events, posts, gets } = await setUp({
      rateLimit: { limit: 1000, windowSeconds: 60 },
      rateBuckets: { create_tracking_request: { limit: 5, windowSeconds: LONG } },
    });
    const stop = new AbortController();
    const creates = Array.from({ length: 8 }, (_, i) =>
      sync.client.post('/tracking_requests', request(i), { priority: 'user', signal: stop.signal }),
    );
    const summary = await sync.engine.run({ mode: 'full' });
    await Promise.all(creates.slice(0, 5));

    expect(summary.status).toBe('ok');
    expect(summary.requests).toBeGreaterThan(5);
    expect(posts().map((e) => e.status)).toEqual([201, 201, 201, 201, 201]);
    // Three creates still wait in their own bucket; the sync's reads never queued behind them.
    expect(sync.limiter.bucket('create_tracking_request').snapshot().queued).toEqual({ user: 3, background: 0 });
    expect(sync.limiter.snapshot().queued).toEqual({ user: 0, background: 0 });
    // The sync's meter counts every request of the client it shares with the creates.
    expect(gets().length + posts().length).toBe(summary.requests);
    // The reads went on after the last create the bucket allowed.
    const lastCreate = events.indexOf(posts().at(-1)!);
    expect(events.slice(lastCreate + 1).filter((e) => e.method === 'GET').length).toBeGreaterThan(0);
    expect(events.filter((e) => e.status === 429)).toEqual([]);
    expect(sandbox.stats.rateLimited).toBe(0);

    stop.abort(new Error('test over'));
    const rest = await Promise.allSettled(creates.slice(5));
    expect(rest.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    sync.close();
  });

  it('creates all go through while the sync waits for the overall window', async () => {
    const { sandbox, sync, posts, gets } = await setUp({
      rateLimit: { limit: 6, windowSeconds: LONG },
      rateBuckets: { create_tracking_request: { limit: 100, windowSeconds: 60 } },
    });
    const stop = new AbortController();
    let settled = false;
    const run = sync.engine.run({ mode: 'full', signal: stop.signal }).finally(() => (settled = true));
    // The sync has used the overall window and waits for the next one.
    await vi.waitFor(
      () => {
        expect(gets()).toHaveLength(6);
        expect(sync.limiter.snapshot().queued.background).toBeGreaterThan(0);
      },
      { timeout: 10_000 },
    );

    const created = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        sync.client.post('/tracking_requests', request(100 + i), { priority: 'user' }),
      ),
    );
    expect(created).toHaveLength(30);
    expect(posts().map((e) => e.status)).toEqual(Array.from({ length: 30 }, () => 201));
    expect(settled).toBe(false);
    expect(gets()).toHaveLength(6);
    expect(sync.limiter.snapshot()).toMatchObject({ usedInWindow: 6, available: 0 });
    expect(sync.limiter.bucket('create_tracking_request').snapshot().usedInWindow).toBe(30);
    expect(sandbox.stats.rateLimited).toBe(0);

    stop.abort();
    expect((await run).status).toBe('cancelled');
    sync.close();
  });
});
