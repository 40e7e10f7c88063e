import { describe, expect, it, vi } from 'vitest';
import { createCore } from '../../src/core/core';
import { isAppUrl } from '../../src/main/security';
import { channelNames } from '../../src/shared/ipc';
import { tempDir } from '../helpers/temp-dir';

type Handler = (event: { senderFrame: { url: string } | null }, arg: unknown) => unknown;
const handlers = new Map<string, Handler>();
const sent: unknown[] = [];

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => handlers.set(channel, handler),
    removeHandler: (channel: string) => handlers.delete(channel),
  },
  webContents: {
    getAllWebContents: () => [
      {
        isDestroyed: () => false,
        getURL: () => 'app://quayside/index.html',
        send: (...args: unknown[]) => sent.push(['app', ...args]),
      },
      {
        isDestroyed: () => false,
        getURL: () => 'https://evil.example/',
        send: (...args: unknown[]) => sent.push(['evil', ...args]),
      },
    ],
  },
}));

describe('Electron IPC binding', () => {
  it('binds every contract channel, answers our frames and refuses others', async () => {
    const { bindIpc } = await import('../../src/main/ipc');
    const core = createCore({ dataDir: tempDir(), appVersion: '9.9.9' });
    const unbind = bindIpc(core, (url) => isAppUrl(url));
    expect([...handlers.keys()].sort()).toEqual([...channelNames].sort());

    const info = handlers.get('app:info')!;
    expect(await info({ senderFrame: { url: 'app://quayside/index.html' } }, undefined)).toMatchObject({
      ok: true,
      value: { version: '9.9.9' },
    });
    for (const senderFrame of [{ url: 'https://evil.example/' }, { url: 'file:///index.html' }, null]) {
      expect(await info({ senderFrame }, undefined)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    const update = handlers.get('settings:update')!;
    expect(await update({ senderFrame: { url: 'app://quayside/' } }, { theme: 7 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });

    await update({ senderFrame: { url: 'app://quayside/' } }, { theme: 'dark' });
    expect(sent).toEqual([['app', 'settings:changed', expect.objectContaining({ theme: 'dark' })]]);

    unbind();
    expect(handlers.size).toBe(0);
  });
});
