/**
 * A wrong service address is not an internet problem. An account whose address
 * does not answer as the Tracking API is not saved and not switched to: the form names the address
 * and why, and the account shown before stays shown. Only an address known to be the Tracking API
 * (the default, or one where a key was accepted) is saved unverified when it cannot be reached.
 * Every server here listens on 127.0.0.1; the default address is only ever given a mocked fetch.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyCheck, ProfilesState, ProfileSummary } from '../../src/shared/types';
import { failure, testCore, value } from '../helpers/core';
import { startTestSandbox, useSandbox } from '../helpers/sandbox';

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

const key = 'address-KEY-77aa11bb22cc-AD18';
const sandbox = useSandbox({ seed: 'address', shipments: 4, apiKeys: [key] });

/** A web page at every path, a 404 at every path, and a port nothing listens on. */
const html = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Intranet</title><p>Welcome');
});
const notFound = createServer((_request, response) => {
  response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
});
let htmlHost = '';
let notFoundHost = '';
let refusedHost = '';
beforeAll(async () => {
  htmlHost = await listen(html);
  notFoundHost = await listen(notFound);
  const closed = createServer();
  refusedHost = await listen(closed);
  await close(closed);
});
afterAll(async () => {
  await close(html);
  await close(notFound);
});

const wrongAddresses = () => [
  {
    url: `http://${refusedHost}/v2`,
    why: 'the connection was refused, so nothing is listening at that address and port',
  },
  {
    url: `http://${htmlHost}/v2`,
    why: 'something answers there, but it is not the Tracking API (it sent back a web page, or another service’s answer)',
  },
  {
    url: `http://${notFoundHost}/v2`,
    why: 'something answers there, but it is not the Tracking API: it has no /tracking_requests (404); the Tracking API’s address ends in /v2',
  },
  {
    url: `https://${htmlHost}/v2`,
    why: 'it does not speak https at that address and port (perhaps it needs http://)',
  },
];

describe('adding an account at an address that is not the Tracking API', () => {
  it('names the address and why, saves nothing, and the account shown before stays shown', async () => {
    const { core } = testCore();
    const first = await value<{ profile: ProfileSummary }>(core, 'profiles:add', {
      name: 'Head office',
      apiKey: key,
      baseUrl: sandbox.get().url,
    });
    for (const { url, why } of wrongAddresses()) {
      const sentence = `Quayside could not use ${url}: ${why}. Nothing was saved; Head office is still shown.`;
      expect(await failure(core, 'profiles:add', { name: 'Branch', apiKey: key, baseUrl: url })).toEqual({
        code: 'invalid_argument',
        message: sentence,
        fields: { baseUrl: sentence },
      });
      const state = await value<ProfilesState>(core, 'profiles:list');
      expect(state.activeId).toBe(first.profile.id);
      expect(state.profiles.map((p) => p.name)).toEqual(['Head office']);
      expect(await value<KeyCheck>(core, 'profiles:validateKey', { apiKey: key, baseUrl: url })).toEqual({
        result: 'address-failed',
        message: `Quayside could not use ${url}: ${why}.`,
      });
    }
    await core.close();
  });

  it('with no account yet, the demo account stays shown', async () => {
    const { core } = testCore();
    const url = `http://${refusedHost}/v2`;
    const error = await failure(core, 'profiles:add', { name: 'First', apiKey: key, baseUrl: url });
    expect(error.fields?.baseUrl).toMatch(/Nothing was saved; the demo account is still shown\.$/);
    expect(await value(core, 'app:info')).toMatchObject({ demo: true });
    expect(await value<ProfilesState>(core, 'profiles:list')).toMatchObject({ profiles: [], activeId: null });
    await core.close();
  });

  it('a new key at a wrong address is refused, and the profile keeps its address and key', async () => {
    const { core } = testCore();
    const added = await value<{ profile: ProfileSummary }>(core, 'profiles:add', {
      name: 'Head office',
      apiKey: key,
      baseUrl: sandbox.get().url,
    });
    const url = `http://${notFoundHost}/v2`;
    const error = await failure(core, 'profiles:update', {
      id: added.profile.id,
      apiKey: 'other-key-0000-ZZ99',
      baseUrl: url,
    });
    expect(error.fields?.baseUrl).toMatch(new RegExp(`^Quayside could not use ${url}: .*\\(404\\)`));
    const state = await value<ProfilesState>(core, 'profiles:list');
    expect(state.profiles).toEqual([added.profile]);
    expect(state.activeId).toBe(added.profile.id);
    await core.close();
  });
});

describe('an address known to be the Tracking API that cannot be reached', () => {
  it('where a key was accepted before: a new key is saved unverified (the connection is down)', async () => {
    const gone = await startTestSandbox({ seed: 'address-gone', shipments: 2, apiKeys: [key] });
    const { core } = testCore();
    const added = await value<{ profile: ProfileSummary }>(core, 'profiles:add', {
      name: 'Head office',
      apiKey: key,
      baseUrl: gone.url,
    });
    expect(added.profile.keyStatus).toBe('accepted');
    await gone.close();
    const replaced = await value<{ profile: ProfileSummary; check: KeyCheck }>(core, 'profiles:update', {
      id: added.profile.id,
      apiKey: `${key}-NEW1`,
    });
    expect(replaced.check.result).toBe('unverified');
    expect(replaced.profile).toMatchObject({ keyStatus: 'unverified', keyLast4: 'NEW1' });
    await core.close();
  });

  it('the default address while offline: saved unverified and shown, as before', async () => {
    // A mocked fetch: the machine is offline, the name of the default address cannot be looked up.
    const offline = (() =>
      Promise.reject(
        new TypeError('fetch failed', { cause: Object.assign(new Error('EAI_AGAIN'), { code: 'EAI_AGAIN' }) }),
      )) as typeof fetch;
    const { core } = testCore({ fetch: offline });
    const added = await value<{ profile: ProfileSummary; check: KeyCheck; state: ProfilesState }>(
      core,
      'profiles:add',
      { name: 'Head office', apiKey: key },
    );
    expect(added.check.result).toBe('unverified');
    expect(added.profile).toMatchObject({ baseUrl: 'https://api.terminal49.com/v2', keyStatus: 'unverified' });
    expect(added.state.activeId).toBe(added.profile.id);
    await core.close();
  });
});
