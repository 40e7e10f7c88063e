/**
 * The process keeps one rate limiter per API key (so switching accounts keeps
 * the service's budget), and a removed profile's limiter goes with it instead of staying for the
 * life of the process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimiterFor } from '../../src/core/api/rate-limiter';
import { startSandbox, type Sandbox } from '../../src/sandbox/index';
import type { ProfilesState } from '../../src/shared/types';
import { testCore, value } from '../helpers/core';

describe('the rate limiter of a profile’s key', () => {
  const key = 'limiter-KEY-9f8e7d6c5b4a-LM01';
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 'limiter', shipments: 4, apiKeys: [key] });
  });
  afterAll(() => sandbox.close());

  it('is the one the session uses while the profile exists, and is dropped when the profile is removed', async () => {
    const { core } = testCore();
    afterAll(() => core.close());
    const added = await value<{ profile: { id: string } }>(core, 'profiles:add', {
      name: 'Limited',
      apiKey: key,
      baseUrl: sandbox.url,
    });
    const limiter = rateLimiterFor(key);
    // The key check and the session both drew from it.
    expect(limiter.snapshot().available).toBeLessThan(limiter.limit);
    await value(core, 'profiles:switch', { id: null });
    await value(core, 'profiles:switch', { id: added.profile.id });
    expect(rateLimiterFor(key)).toBe(limiter);

    const state = await value<ProfilesState>(core, 'profiles:remove', { id: added.profile.id, deleteData: true });
    expect(state.profiles).toEqual([]);
    const after = rateLimiterFor(key);
    expect(after).not.toBe(limiter);
    expect(after.snapshot().available).toBe(after.limit);
  });
});
