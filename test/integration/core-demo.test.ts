import { afterEach, describe, expect, it } from 'vitest';
import type { DemoService } from '../../src/core/core';
import { syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';

// Core never imports the sandbox: the demo account syncs from the service it is given.
describe('demo mode with its service injected', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  it('starts the given service for the demo account, syncs from it, hides its key and closes it with the core', async () => {
    const key = 'injected-demo-key-7f3a9c';
    const calls: string[] = [];
    const demo: DemoService = {
      async start() {
        const sandbox = await startTestSandbox({ seed: 'injected', shipments: 7, apiKeys: [key] });
        calls.push('start');
        return {
          url: sandbox.url,
          apiKey: key,
          close: async () => {
            calls.push('close');
            await sandbox.close();
          },
        };
      },
    };
    const { core, logs } = testCore({ demo });
    closing.push(() => core.close());
    const events: unknown[] = [];
    core.events.subscribe((event, payload) => events.push([event, payload]));

    expect(await value(core, 'app:info')).toMatchObject({ demo: true });
    expect((await syncNow(core, 'full')).state).toBe('idle');
    expect(await value(core, 'shipments:count', { filters: {} })).toBeGreaterThanOrEqual(7);
    expect(calls).toEqual(['start']);
    // The views refetch on data:changed; it carries no data.
    expect(events).toContainEqual(['data:changed', undefined]);

    core.log(`a line that mentions ${key}`);
    expect(logs.join('\n')).not.toContain(key);

    await core.close();
    expect(calls).toEqual(['start', 'close']);
  });

  it('without a service, shows the demo database and says no demo service is available when asked to sync', async () => {
    const { core } = testCore({ demo: undefined });
    closing.push(() => core.close());
    expect(await value(core, 'app:info')).toMatchObject({ demo: true });
    expect(await value(core, 'shipments:count', { filters: {} })).toBe(0);
    expect(await value(core, 'sync:start', { mode: 'full' })).toEqual({ started: false });
    expect(await value(core, 'sync:status')).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/^No demo service is available here/),
    });
  });
});
