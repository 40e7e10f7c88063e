import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index';
import type { CarrierSuggestion, ContainerRefreshResult } from '../../src/shared/service-actions';
import { testCore, value } from '../helpers/core';

/** A fetch that counts the requests per method and path (no query) and can be cut off. */
function countingFetch() {
  const counts = new Map<string, number>();
  const state = { offline: false };
  const fetchThrough: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/v2/, '').replace(/containers\/[^/]+/, 'containers/:id')}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (state.offline) return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
    return fetch(input, init);
  };
  return { counts, state, fetch: fetchThrough };
}

describe('container refresh and carrier suggestions through core', () => {
  const entitledKey = 'refresh-KEY-0a1b2c3d4e5f-OK01';
  const basicKey = 'refresh-KEY-0a1b2c3d4e5f-NO02';
  let sandbox: Sandbox;
  let basic: Sandbox;
  const counted = countingFetch();
  const countedBasic = countingFetch();
  const { core } = testCore({ fetch: counted.fetch });
  const { core: basicCore } = testCore({ fetch: countedBasic.fetch });
  let containerId = '';
  beforeAll(async () => {
    // The service allows 10 refreshes a minute; this one only 3, to see its 429 reach the user.
    sandbox = await startSandbox({
      seed: 'refresh',
      shipments: 5,
      apiKeys: [entitledKey],
      rateBuckets: { refresh_container: { limit: 3, windowSeconds: 60 } },
    });
    basic = await startSandbox({ seed: 'refresh', shipments: 5, apiKeys: [basicKey], containerRefresh: false });
    containerId = sandbox.store.containers.find((c) => c.createdAt <= sandbox.clock.now())!.id;
    await value(core, 'profiles:add', { name: 'Refreshing Ltd', apiKey: entitledKey, baseUrl: sandbox.url });
    await value(basicCore, 'profiles:add', { name: 'Basic Ltd', apiKey: basicKey, baseUrl: basic.url });
  });
  afterAll(async () => {
    await core.close();
    await basicCore.close();
    await sandbox.close();
    await basic.close();
  });

  const refresh = (c = core) => value<ContainerRefreshResult>(c, 'containers:refresh', { id: containerId });

  it('starts refreshes; past the service’s limit it says when to try again and does not wait or retry', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await refresh()).toEqual({ outcome: 'started', message: expect.stringMatching(/^Started refresh for/) });
    }
    const before = Date.now();
    const limited = await refresh();
    expect(limited.outcome).toBe('wait');
    const retryAt = Date.parse((limited as { retryAt: string }).retryAt);
    expect(retryAt).toBeGreaterThan(before + 50_000);
    expect(retryAt).toBeLessThan(Date.now() + 125_000);
    expect(counted.counts.get('PATCH /containers/:id/refresh')).toBe(4); // the 429 was not retried
    // Now the limiter knows: the next click is answered at once, without a request.
    expect((await refresh()).outcome).toBe('wait');
    expect(counted.counts.get('PATCH /containers/:id/refresh')).toBe(4);
  });

  it('an account without container refresh hears one sentence, and is not asked again', async () => {
    const first = await refresh(basicCore);
    expect(first).toEqual({
      outcome: 'not_enabled',
      message:
        'Refreshing a container on demand is not part of this Terminal49 account (a paid feature); its data still updates with every sync.',
    });
    expect(await refresh(basicCore)).toEqual(first);
    expect(countedBasic.counts.get('PATCH /containers/:id/refresh')).toBe(1);
  });

  it('suggests the carrier of a number, and nothing when the service cannot be reached', async () => {
    const suggestion = await value<CarrierSuggestion | null>(core, 'trackingRequests:inferCarrier', {
      number: 'medu ab12 3456',
    });
    expect(suggestion).toEqual({
      number: 'MEDUAB123456',
      numberType: 'bill_of_lading',
      decision: 'auto_select',
      selected: { scac: 'MSCU', name: 'Mediterranean Shipping Company', confidence: 1 },
      candidates: [{ scac: 'MSCU', name: 'Mediterranean Shipping Company', confidence: 1 }],
    });
    // Too short to say anything: not asked.
    const asked = counted.counts.get('POST /tracking_requests/infer_number');
    expect(await value(core, 'trackingRequests:inferCarrier', { number: 'MS' })).toBeNull();
    expect(counted.counts.get('POST /tracking_requests/infer_number')).toBe(asked);
    counted.state.offline = true;
    try {
      expect(await value(core, 'trackingRequests:inferCarrier', { number: 'MSKU1234565' })).toBeNull();
    } finally {
      counted.state.offline = false;
    }
  });
});
