import { describe, expect, it } from 'vitest';
import { createApi, IpcCallError } from '../../src/shared/client';
import type { Bridge } from '../../src/shared/ipc';

describe('renderer API client', () => {
  it('returns the value of an ok envelope and throws the code of an error envelope', async () => {
    const bridge: Bridge = {
      invoke: (channel) =>
        Promise.resolve(
          channel === 'settings:get'
            ? { ok: true, value: { theme: 'dark', timeDisplay: 'local', syncIntervalMinutes: 15 } }
            : { ok: false, error: { code: 'invalid_argument', message: 'Invalid argument for settings:update: bad' } },
        ),
      on: () => () => {},
    };
    const api = createApi(bridge);
    expect(await api.invoke('settings:get')).toMatchObject({ theme: 'dark' });
    const failure = await api.invoke('settings:update', { theme: 'light' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IpcCallError);
    expect(failure).toMatchObject({
      code: 'invalid_argument',
      channel: 'settings:update',
      message: 'Invalid argument for settings:update: bad',
    });
  });
});
