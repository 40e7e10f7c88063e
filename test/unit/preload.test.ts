import { beforeEach, describe, expect, it, vi } from 'vitest';
import { channelNames, type Bridge } from '../../src/shared/ipc';

const exposed = new Map<string, unknown>();
const invoke = vi.fn((..._args: unknown[]) => Promise.resolve({ ok: true, value: null }));
const listeners = new Map<string, (...args: unknown[]) => void>();

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => invoke(...args),
    on: (event: string, listener: (...args: unknown[]) => void) => listeners.set(event, listener),
    removeListener: (event: string) => listeners.delete(event),
  },
}));

describe('preload', () => {
  beforeEach(async () => {
    exposed.clear();
    vi.resetModules();
    await import('../../src/preload/index');
  });

  it('exposes only window.api with invoke and on', () => {
    expect([...exposed.keys()]).toEqual(['api']);
    expect(Object.keys(exposed.get('api') as object).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards contract channels and refuses anything else without touching IPC', async () => {
    const api = exposed.get('api') as Bridge;
    for (const channel of channelNames) {
      await api.invoke(channel, undefined);
      expect(invoke).toHaveBeenLastCalledWith(channel, undefined);
    }
    invoke.mockClear();
    expect(await api.invoke('ELECTRON_BROWSER_REQUIRE', 'fs')).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    });
    expect(invoke).not.toHaveBeenCalled();
  });

  it('delivers only known events, without the IPC event object', () => {
    const api = exposed.get('api') as Bridge;
    const received: unknown[] = [];
    const off = api.on('settings:changed', (payload) => received.push(payload));
    listeners.get('settings:changed')?.({ sender: 'secret' }, { theme: 'dark' });
    expect(received).toEqual([{ theme: 'dark' }]);
    off();
    expect(listeners.has('settings:changed')).toBe(false);
    expect(() => api.on('ipc-message', () => {})).toThrow(/no event named/);
  });
});
