import { describe, expect, it, vi } from 'vitest';
import { dispatch } from '../../src/core/dispatch';
import { QuaysideError } from '../../src/core/errors';
import type { Handlers } from '../../src/shared/ipc';
import { defaultSettings } from '../../src/shared/settings';

/** The handlers these tests call; dispatch only ever reaches the channel it was asked for. */
function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const some: Partial<Handlers> = {
    'app:info': () => ({
      name: 'Quayside',
      version: '1.2.3',
      dataDir: '/data',
      demo: true,
      versions: { node: '24', electron: null, chrome: null },
    }),
    'settings:get': () => defaultSettings,
    'settings:update': (patch) => ({ ...defaultSettings, ...patch }),
    ...overrides,
  };
  return some as Handlers;
}

describe('IPC dispatch', () => {
  it('wraps a handler result in an ok envelope', async () => {
    expect(await dispatch(handlers(), 'settings:update', { theme: 'dark' })).toEqual({
      ok: true,
      value: { ...defaultSettings, theme: 'dark' },
    });
  });

  it('refuses an unknown channel, including prototype names', async () => {
    for (const channel of ['fs:read', 'constructor', '__proto__', 42, null, undefined]) {
      const envelope = await dispatch(handlers(), channel, undefined);
      expect(envelope).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    }
  });

  it('refuses a bad argument before the handler runs, naming what is wrong', async () => {
    const update = vi.fn(handlers()['settings:update']);
    const h = handlers({ 'settings:update': update });
    const cases: unknown[] = [
      { theme: 'purple' },
      { theme: 'dark', apiKey: 'x' },
      { syncIntervalMinutes: 1 },
      { syncIntervalMinutes: 2.5 },
      'dark',
      null,
      [],
    ];
    for (const arg of cases) {
      const envelope = await dispatch(h, 'settings:update', arg);
      expect(envelope.ok).toBe(false);
      if (!envelope.ok) {
        expect(envelope.error.code).toBe('invalid_argument');
        expect(envelope.error.message).toMatch(/^Invalid argument for settings:update: /);
      }
    }
    expect(await dispatch(h, 'app:info', { anything: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(update).not.toHaveBeenCalled();
  });

  it('passes a QuaysideError through with its code and message', async () => {
    const h = handlers({
      'settings:get': () => {
        throw new QuaysideError('needs_connection', 'This needs a connection to the Tracking API.');
      },
    });
    expect(await dispatch(h, 'settings:get', undefined)).toEqual({
      ok: false,
      error: { code: 'needs_connection', message: 'This needs a connection to the Tracking API.' },
    });
  });

  it('hides an unexpected error behind a generic message and logs it', async () => {
    const log = vi.fn();
    const boom = new Error('SQLITE_CORRUPT at /secret/path');
    const h = handlers({
      'settings:get': () => Promise.reject(boom),
    });
    const envelope = await dispatch(h, 'settings:get', undefined, log);
    expect(envelope).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Quayside could not complete settings:get; the details are in the log.' },
    });
    expect(log).toHaveBeenCalledWith('settings:get failed', boom);
  });
});
