/**
 * Ctrl+K on the service through core: a number the service has and the local copy does not is
 * found through GET /search and, opened, lands in the local store with what the sync would bring
 * with it. Offline, without a key, with hostile text or a service answering the wrong shape, the
 * channel says so in one sentence and the local copy is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, type Sandbox } from '../../src/sandbox/index';
import type { TrackingRequestPlan } from '../../src/sandbox/model';
import type { ShipmentDetail, ContainerDetail } from '../../src/shared/types';
import type { OpenedServiceResult, ServiceSearchAnswer } from '../../src/shared/service-search';
import { failure, syncNow, testCore, value } from '../helpers/core';
import { startHostileProxy, type HostileProxy } from '../helpers/hostile-proxy';
import { startTestSandbox } from '../helpers/sandbox';

type Answered = Extract<ServiceSearchAnswer, { outcome: 'answered' }>;

/** A fetch that can be cut off, counting the searches it was asked for. */
function cuttableFetch() {
  const state = { offline: false, searches: 0 };
  const through: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/search')) state.searches++;
    if (state.offline) return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
    return fetch(input, init);
  };
  return { state, fetch: through };
}

/** A tracking request made on the service behind the app's back, which the line has answered. */
function requestedElsewhere(
  sandbox: Sandbox,
  requestType: 'bill_of_lading' | 'container',
  numbers: (i: number) => string,
): TrackingRequestPlan {
  const line = sandbox.store.world.shippingLines.find((l) => l.data.supported)!;
  for (let i = 0; i < 50; i++) {
    const request = sandbox.store.createTrackingRequest({
      requestType,
      requestNumber: numbers(i),
      scac: line.data.scac,
      refNumbers: [],
      tags: [],
      customer: null,
      now: sandbox.clock.now(),
    });
    // One in a dozen is answered "not found"; the next number will do.
    if (request.shipment) return request;
  }
  throw new Error('no request was answered with a shipment');
}

async function search(core: ReturnType<typeof testCore>['core'], query: string): Promise<ServiceSearchAnswer> {
  return value<ServiceSearchAnswer>(core, 'search:service', { query });
}

describe('Ctrl+K on the service', () => {
  let sandbox: Sandbox;
  const cut = cuttableFetch();
  const { core } = testCore({ fetch: cut.fetch });
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'service-search', shipments: 12 });
    await value(core, 'profiles:add', { name: 'Harbour Ltd', apiKey: DEMO_API_KEY, baseUrl: sandbox.url });
    expect((await syncNow(core, 'full')).state).not.toBe('failed');
  });
  afterAll(async () => {
    await core.close();
    await sandbox.close();
  });

  it('finds a bill of lading the local copy does not have yet; opened, it is stored with its containers', async () => {
    const line = sandbox.store.world.shippingLines.find((l) => l.data.supported)!;
    const request = requestedElsewhere(sandbox, 'bill_of_lading', (i) => `${line.data.bolPrefix}77120${i}4418`);
    sandbox.advance(120);
    const shipment = request.shipment!;

    const answer = (await search(core, request.requestNumber.toLowerCase())) as Answered;
    expect(answer.outcome).toBe('answered');
    expect(answer.results).toContainEqual(
      expect.objectContaining({ kind: 'shipment', id: shipment.id, number: request.requestNumber }),
    );
    expect((await failure(core, 'shipments:get', { id: shipment.id })).code).toBe('not_found');

    const opened = await value<OpenedServiceResult>(core, 'search:openServiceResult', {
      kind: 'shipment',
      id: shipment.id,
    });
    expect(opened).toEqual({ view: 'shipments', id: shipment.id });
    const detail = await value<ShipmentDetail>(core, 'shipments:get', { id: shipment.id });
    expect(detail.shipment.billOfLading).toBe(request.requestNumber);
    expect(detail.containers.map((c) => c.container.number).sort()).toEqual(
      shipment.containers.map((c) => c.number).sort(),
    );

    // Now it is here: the service's result is no longer offered, and counted as here already.
    const again = (await search(core, request.requestNumber)) as Answered;
    expect(again.results.map((r) => r.id)).not.toContain(shipment.id);
    expect(again.alreadyHere).toBeGreaterThanOrEqual(1);
  });

  it('finds a container on the service and opens it with its shipment', async () => {
    const request = requestedElsewhere(sandbox, 'container', (i) => ['TGHU2345671', 'MSCU1234566', 'CSQU3054383'][i]!);
    const box = request.shipment!.containers[0]!;
    // The line has answered and the box is on the shipment.
    sandbox.advance(Math.ceil((box.createdAt - sandbox.clock.now()) / 1000) + 1);
    const answer = (await search(core, box.number)) as Answered;
    const hit = answer.results.find((r) => r.kind === 'container');
    expect(hit).toMatchObject({ id: box.id, number: box.number, shipmentId: request.shipment!.id });

    const opened = await value<OpenedServiceResult>(core, 'search:openServiceResult', {
      kind: 'container',
      id: box.id,
      shipmentId: hit!.shipmentId,
    });
    expect(opened).toEqual({ view: 'containers', id: box.id });
    const detail = await value<ContainerDetail>(core, 'containers:get', { id: box.id });
    expect(detail.container.number).toBe(box.number);
    expect(detail.container.billOfLading).toBe(request.shipment!.billOfLading);
  });

  it('opens a request the line has not answered yet in the tracking requests list', async () => {
    const line = sandbox.store.world.shippingLines.find((l) => l.data.supported)!;
    const number = `${line.data.bolPrefix}55310${'8'.repeat(4)}`;
    const request = sandbox.store.createTrackingRequest({
      requestType: 'bill_of_lading',
      requestNumber: number,
      scac: line.data.scac,
      refNumbers: ['PO-88120'],
      tags: [],
      customer: null,
      now: sandbox.clock.now(),
    });
    const answer = (await search(core, 'po-88120')) as Answered;
    expect(answer.results).toEqual([
      expect.objectContaining({ kind: 'trackingRequest', id: request.id, number, shipmentId: null, status: 'pending' }),
    ]);
    const opened = await value<OpenedServiceResult>(core, 'search:openServiceResult', {
      kind: 'trackingRequest',
      id: request.id,
    });
    expect(opened).toEqual({ view: 'trackingRequests', id: request.id });
    const row = await value<{ requestNumber: string; status: string }>(core, 'trackingRequests:get', {
      id: request.id,
    });
    expect(row).toMatchObject({ requestNumber: number, status: 'pending' });
  });

  it('answers only the newest of two searches sent one after the other', async () => {
    const synced = await value<{ rows: { billOfLading: string | null }[] }>(core, 'shipments:list', {
      filters: {},
      page: { limit: 2 },
    });
    const [first, second] = synced.rows.map((r) => r.billOfLading!);
    const [older, newer] = await Promise.all([search(core, first!), search(core, second!)]);
    expect(older).toEqual({ outcome: 'superseded' });
    // A number synced already: found on the service, and not offered again.
    expect(newer).toEqual({ outcome: 'answered', query: second, results: [], alreadyHere: 1 });
  });

  it('takes quotes and CJK as text, and refuses 10 kB in one sentence', async () => {
    for (const query of [`"MAEU'; DROP TABLE shipments; --"`, '東京港コンテナ', '\u0000\u202e<b>x</b>']) {
      expect(await search(core, query)).toEqual({
        outcome: 'answered',
        query: query.trim(),
        results: [],
        alreadyHere: 0,
      });
    }
    const refused = await failure(core, 'search:service', { query: 'X'.repeat(10_000) });
    expect(refused.code).toBe('invalid_argument');
    expect(refused.fields).toEqual({ query: 'A search on the service takes at most 200 characters.' });
    expect((await syncNow(core)).state).not.toBe('failed');
  });

  it('says offline once the service cannot be reached, and then asks no more', async () => {
    const before = await value<number>(core, 'shipments:count', { filters: {} });
    cut.state.offline = true;
    try {
      const message = 'Offline: only this computer’s copy was searched.';
      expect(await search(core, 'MAEU123456')).toEqual({ outcome: 'offline', message });
      const asked = cut.state.searches;
      expect(await search(core, 'MAEU654321')).toEqual({ outcome: 'offline', message });
      expect(cut.state.searches).toBe(asked);
    } finally {
      cut.state.offline = false;
    }
    expect(await value<number>(core, 'shipments:count', { filters: {} })).toBe(before);
  });
});

describe('Ctrl+K on the service without a key', () => {
  const { core } = testCore({ demo: undefined });
  afterAll(() => core.close());

  it('says why, without asking', async () => {
    expect(await search(core, 'MAEU123456')).toEqual({
      outcome: 'no_key',
      message:
        'No demo service is available here, so the demo account cannot sync. Add an account with its API key in Settings.',
    });
  });
});

describe('Ctrl+K on a service whose search answers the wrong shape', () => {
  let sandbox: Sandbox;
  let proxy: HostileProxy;
  const { core } = testCore();
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'service-search-hostile', shipments: 4 });
    proxy = await startHostileProxy({ upstream: sandbox.url });
    await value(core, 'profiles:add', { name: 'Odd Ltd', apiKey: DEMO_API_KEY, baseUrl: proxy.url });
  });
  afterAll(async () => {
    await core.close();
    await proxy.close();
    await sandbox.close();
  });

  const wrong: [string, object][] = [
    ['data is not a list', { data: { id: 'x', type: 'search_result' } }],
    ['a result has no number', { data: [{ id: 'x', type: 'search_result', attributes: { entity_type: 'shipment' } }] }],
    [
      'a number of 5,000 characters',
      { data: [{ id: 'x', type: 'shipment', attributes: { number: 'M'.repeat(5000) } }] },
    ],
  ];
  it.each(wrong)('refuses an answer where %s, in one sentence', async (_, body) => {
    proxy.set({
      intercept: (request) =>
        new URL(request.url, proxy.origin).pathname.endsWith('/search') ? { status: 200, body } : undefined,
    });
    const refused = await failure(core, 'search:service', { query: 'MAEU123456' });
    expect(refused).toEqual({
      code: 'busy',
      message:
        'The Tracking API’s search answered in a form Quayside cannot read; only this computer’s copy was searched.',
    });
    expect(await value<number>(core, 'shipments:count', { filters: {} })).toBe(0);
  });
});
