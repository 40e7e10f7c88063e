/**
 * A service that asks for a day's pause, answers without end or
 * echoes the key back in an encoded form. Each case ends by itself with one clear sentence, and
 * the next request or sync on the same client and database works.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, TrackingApiClient, type TrackingApiClientOptions } from '../../src/core/api/client';
import { ApiError, describeInstant } from '../../src/core/api/errors';
import { RateLimiter } from '../../src/core/api/rate-limiter';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import type { SyncStatus } from '../../src/shared/types';
import { syncNow, testCore, value } from '../helpers/core';
import { useHostileProxy, type ProxiedRequest } from '../helpers/hostile-proxy';
import { useSandbox } from '../helpers/sandbox';
import { syncOf } from '../helpers/sync';
import { tempDir } from '../helpers/temp-dir';

const DAY_MS = 86_400_000;

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const caught = await promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
  if (!(caught instanceof ApiError)) throw caught;
  return caught;
}

const isList = (request: ProxiedRequest, name: string) =>
  request.method === 'GET' && new URL(request.url, 'http://x').pathname === `/v2/${name}`;

/**
 * A client whose waits are on a fake clock: its sleeps are recorded and move the clock at once,
 * and its limiter (which a 429 pauses) reads the same clock.
 */
function clientOnFakeTime(
  baseUrl: string,
  options: Partial<TrackingApiClientOptions> = {},
): { client: TrackingApiClient; slept: number[] } {
  let clock = Date.now();
  const slept: number[] = [];
  const client = new TrackingApiClient({
    baseUrl,
    apiKey: DEMO_API_KEY,
    limiter: new RateLimiter({ limit: 1000, now: () => clock }),
    now: () => clock,
    sleep: (ms) => {
      slept.push(ms);
      clock += ms;
      return Promise.resolve();
    },
    ...options,
  });
  return { client, slept };
}

describe('a Retry-After longer than Quayside waits', () => {
  const sandbox = useSandbox({ seed: 'hostile-retry', shipments: 20 });
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url }));

  it('ends the sync at once naming the time, leaves user requests free, and the next sync works', async () => {
    // Every list a sync walks is refused for a day; a single shipment (what a user opens) is not.
    proxy.get().set({
      intercept: (request) =>
        /^\/v2\/[a-z_]+(\?|$)/.test(request.url)
          ? { status: 429, headers: { 'retry-after': '86400' }, body: { errors: [{ status: '429' }] } }
          : undefined,
    });
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url });
    const before = Date.now();
    const summary = await sync.engine.run({ mode: 'full' });
    const after = Date.now();

    expect(summary.status).toBe('failed');
    expect(summary.error?.code).toBe('rate_limited');
    const sentence = (t: number) =>
      `The Tracking API asked Quayside to wait 24 hours (until ${describeInstant(new Date(t + DAY_MS), new Date(t))}) before the next request, so the sync stopped.`;
    expect(sentence(before)).toMatch(/until \d\d:\d\d UTC tomorrow\)/);
    expect([sentence(before), sentence(after)]).toContain(summary.error?.message);
    // No request was repeated into the refusal, and the shared limiter is not paused by it.
    const refused = proxy.get().requests.length;
    expect(refused).toBeLessThanOrEqual(3);
    expect(sync.limiter.snapshot().pausedUntil).toBeNull();

    const shipments = sandbox.get().store.shipments;
    const opened = await sync.client.get(`/shipments/${shipments[0]!.id}`, { priority: 'user' });
    expect(opened.data).toMatchObject({ type: 'shipment', id: shipments[0]!.id });

    proxy.get().set({});
    const next = await sync.engine.run({ mode: 'full' });
    expect(next.status).toBe('ok');
    sync.close();
  });

  it(
    "says in the app's status when its schedule really tries again, and holds the schedule until then",
    { timeout: 60_000 },
    async () => {
      // Every list refused for a day; the demo service answers the rest.
      const refusing = ((url: URL, init?: RequestInit) =>
        (init?.method ?? 'GET') === 'GET' && /^\/v2\/[a-z_]+$/.test(url.pathname)
          ? Promise.resolve(
              new Response('{"errors":[{"status":"429"}]}', { status: 429, headers: { 'retry-after': '86400' } }),
            )
          : fetch(url, init)) as typeof fetch;
      const { core } = testCore({ autoSync: true, fetch: refusing });
      let status = await value<SyncStatus>(core, 'sync:status');
      // The first scheduled sync starts by itself; wait until its failure is told with the next try.
      for (let i = 0; i < 600 && !status.error?.includes('Quayside will try again'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await value<SyncStatus>(core, 'sync:status');
      }
      expect(status.state).toBe('failed');
      // The schedule's next run is the instant the service named, not its usual backed-off half hour.
      const retryAt = new Date(status.nextSyncAt!);
      expect(retryAt.getTime() - Date.now()).toBeGreaterThan(DAY_MS - 60_000);
      const until = describeInstant(retryAt, new Date(retryAt.getTime() - DAY_MS));
      expect(status.error).toBe(
        `The Tracking API asked Quayside to wait 24 hours (until ${until}) before the next request, so the sync stopped. Quayside will try again then.`,
      );
      await core.close();
    },
  );

  it('reads Retry-After as an HTTP date, and waits out a short one', async () => {
    const at = new Date(Math.ceil((Date.now() + 3 * DAY_MS) / 1000) * 1000);
    let answered = 0;
    proxy.get().set({
      intercept: () =>
        answered++ === 0 ? { status: 429, headers: { 'retry-after': at.toUTCString() }, body: {} } : undefined,
    });
    const { client, slept } = clientOnFakeTime(proxy.get().url);
    const error = await rejection(client.get('/shipping_lines'));
    expect(error).toMatchObject({ code: 'rate_limited', retryAt: at });
    expect(error.message).toBe(
      `The Tracking API asked Quayside to wait 3 days (until ${describeInstant(at, new Date())}) before the next request, so the sync stopped.`,
    );
    expect(slept).toEqual([]);

    // Within the cap, the client waits as asked and then gets its answer.
    answered = 0;
    proxy.get().set({
      intercept: () => (answered++ === 0 ? { status: 429, headers: { 'retry-after': '90' }, body: {} } : undefined),
    });
    expect((await client.get('/shipping_lines')).data).toBeInstanceOf(Array);
    expect(slept).toEqual([90_000]);
  });

  it('treats a negative or garbled Retry-After as not said', async () => {
    for (const garbage of ['-5', 'soon 2', 'Tomorrow, 12:00']) {
      let answered = 0;
      proxy.get().set({
        intercept: () =>
          answered++ === 0 ? { status: 429, headers: { 'retry-after': garbage }, body: {} } : undefined,
      });
      const { client, slept } = clientOnFakeTime(proxy.get().url, {
        backoff: { baseMs: 700, maxMs: 5000 },
        random: () => 0,
      });
      expect((await client.get('/shipping_lines')).data).toBeInstanceOf(Array);
      // Not a wait the header gave (a date in 2001 read as "now"), but the client's own backoff.
      expect(slept).toEqual([700]);
    }
  });
});

interface Sent {
  bytes: number;
  closed: Promise<void>;
}

/**
 * Streams `total` bytes of JSON whitespace and then a valid document, recording in `sent` what
 * each answer sent and when its connection closed. An "endless" body stops at 512 MB, so that a
 * client that reads on does not take the machine's memory with it: it gets a document instead.
 */
function hugeBody(total: number | 'endless', sent: Sent[]): (res: ServerResponse) => void {
  return (res) => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let left = total === 'endless' ? 512 * 1024 * 1024 : total;
    const record: Sent = { bytes: 0, closed: new Promise((resolve) => res.once('close', () => resolve())) };
    sent.push(record);
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        record.bytes += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (left <= 0 && !res.destroyed) res.end('{"data":[]}');
    };
    pump();
  };
}

describe('an answer larger than Quayside reads', () => {
  const sandbox = useSandbox({ seed: 'hostile-body', shipments: 20 });
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url }));
  const client = () =>
    new TrackingApiClient({
      baseUrl: proxy.get().url,
      apiKey: DEMO_API_KEY,
      limiter: new RateLimiter({ limit: 1000 }),
      timeoutMs: 15_000,
      backoff: { baseMs: 1, maxMs: 5 },
    });

  it('stops reading an endless answer at the limit, and the next request works', async () => {
    const sent: Sent[] = [];
    proxy.get().set({
      intercept: (request) =>
        isList(request, 'shipping_lines') ? { status: 200, body: hugeBody('endless', sent) } : undefined,
    });
    const api = client();
    const error = await rejection(api.get('/shipping_lines'));
    expect(error.code).toBe('malformed');
    expect(error.message).toBe(
      "The Tracking API's answer for /v2/shipping_lines was larger than 64 MB, more than Quayside accepts; it stopped reading it.",
    );
    // The connection is closed: the sender stopped not far past the limit, and was not asked again.
    expect(sent).toHaveLength(1);
    await sent[0]!.closed;
    expect(sent[0]!.bytes).toBeGreaterThan(MAX_BODY_BYTES);
    expect(sent[0]!.bytes).toBeLessThan(MAX_BODY_BYTES + 16 * 1024 * 1024);

    proxy.get().set({});
    expect((await api.get('/shipping_lines')).data).toBeInstanceOf(Array);
  });

  it('refuses a declared length past the limit before reading the body', async () => {
    let closed: Promise<void> | undefined;
    proxy.get().set({
      intercept: (request) =>
        isList(request, 'shipping_lines')
          ? {
              status: 200,
              headers: { 'content-length': String(70 * 1024 * 1024) },
              // One byte, then silence: reading would wait for the timeout.
              body: (res) => {
                closed = new Promise((resolve) => res.once('close', () => resolve()));
                res.write('{');
              },
            }
          : undefined,
    });
    const error = await rejection(client().get('/shipping_lines'));
    expect(error).toMatchObject({ code: 'malformed', retryable: false });
    expect(error.message).toContain('/v2/shipping_lines was larger than 64 MB');
    // The connection was dropped rather than left waiting for 70 MB that never come.
    await closed;
  });

  it('ends a sync that meets a 70 MB page with the clear error, and the next sync completes', async () => {
    const sent: Sent[] = [];
    proxy.get().set({
      intercept: (request) =>
        isList(request, 'shipments') ? { status: 200, body: hugeBody(70 * 1024 * 1024, sent) } : undefined,
    });
    const sync = syncOf(sandbox.get(), { baseUrl: proxy.get().url, timeoutMs: 15_000 });
    const failed = await sync.engine.run({ mode: 'full' });
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({
      code: 'malformed',
      message:
        "The Tracking API's answer for /v2/shipments was larger than 64 MB, more than Quayside accepts; it stopped reading it.",
    });
    // Neither walk of /shipments asked for its page again (the same page would come back).
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBe(proxy.get().requests.filter((r) => isList(r, 'shipments')).length);
    expect(sent.length).toBeLessThanOrEqual(2);

    proxy.get().set({});
    const next = await sync.engine.run({ mode: 'full' });
    expect(next.status).toBe('ok');
    const count = sync.db.prepare('SELECT count(*) AS n FROM shipments WHERE raw IS NOT NULL').get() as { n: number };
    expect(count.n).toBe(sandbox.get().store.shipments.length);
    sync.close();
  });
});

describe('a service that echoes the key back encoded', () => {
  const key = 'qs-hostile-echo-KEY-4f2a9c';
  const sandbox = useSandbox({ seed: 'hostile-echo', shipments: 5, apiKeys: [key] });
  const proxy = useHostileProxy(() => ({ upstream: sandbox.get().url }));

  it('never lets the encoded key into the log file, the log echo or the sync status', async () => {
    const basic = Buffer.from(`forwarder:${key}`).toString('base64');
    const urlSafe = Buffer.from(`ab${key}!`).toString('base64url');
    const lowerHex = encodeURIComponent(`${key} `).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
    const logDir = tempDir();
    const { core, logs } = testCore({ logDir });
    try {
      const added = await value<{ profile: { id: string } }>(core, 'profiles:add', {
        name: 'Echo',
        apiKey: key,
        baseUrl: proxy.get().url,
      });
      await value(core, 'profiles:switch', { id: added.profile.id });
      proxy.get().set({
        intercept: (request) =>
          request.method === 'GET' && !request.url.includes('page%5Bsize%5D=1&')
            ? {
                status: 403,
                body: {
                  errors: [
                    {
                      status: '403',
                      detail: `Refused Basic ${basic} (token ${urlSafe}) at /v2/shipments?k=${encodeURIComponent(key)}&q=${lowerHex}`,
                    },
                  ],
                },
              }
            : undefined,
      });
      const status = await syncNow(core, 'full');
      expect(status.error).toMatch(/^Your Terminal49 account is not allowed to do this\. Refused Basic \S+/);
      const written = readFileSync(join(logDir, 'quayside.log'), 'utf8');
      expect(written).toContain('forbidden: Your Terminal49 account is not allowed to do this. Refused Basic ');
      for (const text of [status.error ?? '', written, logs.join('\n')]) {
        for (const form of [key, encodeURIComponent(key), lowerHex, basic.slice(12, -4), urlSafe.slice(4, -4)]) {
          expect(text).not.toContain(form);
        }
      }
    } finally {
      await core.close();
    }
  });
});
