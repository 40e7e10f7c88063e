import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index';
import type { TrackingRequestRow } from '../../src/shared/rows';
import { call, startTestSandbox } from '../helpers/sandbox';
import { failure, syncNow, testCore, value } from '../helpers/core';

describe('a tracking request for a number already tracked', () => {
  const key = 'dup-KEY-5e4d3c2b1a00-DUP1';
  let sandbox: Sandbox;
  let stripMeta = false;
  // The live service names the existing request in meta; an answer without it is found locally.
  const fetchThrough: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!stripMeta || response.status !== 422) return response;
    const body = (await response.json()) as { errors: { meta?: unknown }[] };
    for (const error of body.errors) delete error.meta;
    return new Response(JSON.stringify(body), { status: 422, headers: response.headers });
  };
  const { core } = testCore({ fetch: fetchThrough });
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'duplicates', shipments: 20, apiKeys: [key] });
    await value(core, 'profiles:add', { name: 'Dup Forwarding', apiKey: key, baseUrl: sandbox.url });
  });
  afterAll(async () => {
    await core.close();
    await sandbox.close();
  });

  it('is answered already_tracked, naming the existing request, whether or not it is here yet', async () => {
    // Created elsewhere (another user of the account): on the service, not yet in the local copy.
    const elsewhere = await call(sandbox, '/tracking_requests', {
      method: 'POST',
      key,
      body: {
        data: {
          type: 'tracking_request',
          attributes: { request_type: 'bill_of_lading', request_number: 'MEDUD0000001', scac: 'MSCU' },
        },
      },
    });
    expect(elsewhere.status).toBe(201);
    const request = { requestType: 'bill_of_lading', requestNumber: 'medu d000 0001', scac: 'MSCU' };

    const notHere = await failure(core, 'trackingRequests:create', request);
    expect(notHere).toMatchObject({
      code: 'already_tracked',
      fields: { requestNumber: 'Already tracked' },
      existing: { id: elsewhere.body.data.id, inLocalCopy: false, requestNumber: 'MEDUD0000001', scac: 'MSCU' },
    });
    expect(notHere.message).toMatch(/not in the local copy yet; a sync brings it/);

    expect((await syncNow(core, 'full')).state).toBe('idle');
    const here = await failure(core, 'trackingRequests:create', request);
    expect(here).toMatchObject({
      code: 'already_tracked',
      existing: { id: elsewhere.body.data.id, inLocalCopy: true },
    });
    expect(here.message).toBe('Already tracked: MEDUD0000001 (MSCU) has a tracking request.');

    // Without meta, the local copy is asked by number, line and type.
    stripMeta = true;
    const found = await failure(core, 'trackingRequests:create', request);
    expect(found.existing).toMatchObject({ id: elsewhere.body.data.id, inLocalCopy: true });
    stripMeta = false;
  });

  it('names the request just made here; the same number as another kind of number is another request', async () => {
    await call(sandbox, '/tracking_requests', {
      method: 'POST',
      key,
      body: {
        data: {
          type: 'tracking_request',
          attributes: { request_type: 'bill_of_lading', request_number: 'MEDUD0000002', scac: 'MSCU' },
        },
      },
    });
    const made = await value<TrackingRequestRow>(core, 'trackingRequests:create', {
      requestType: 'booking_number',
      requestNumber: 'MEDUD0000002',
      scac: 'MSCU',
    });
    const again = await failure(core, 'trackingRequests:create', {
      requestType: 'booking_number',
      requestNumber: 'MEDUD0000002',
      scac: 'MSCU',
    });
    expect(again.existing).toMatchObject({ id: made.id, inLocalCopy: true });
  });
});
