import { ipcMain, webContents } from 'electron';
import type { Core } from '../core/core';
import { channelNames, type Envelope } from '../shared/ipc';

const forbidden: Envelope<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'IPC is accepted only from Quayside’s own window.' },
};

/**
 * Binds every contract channel to core's dispatcher, accepting calls only from our own
 * frames, and forwards core's events to every window.
 */
export function bindIpc(core: Core, isTrustedFrameUrl: (url: string) => boolean): () => void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, (event, arg: unknown) => {
      const frameUrl = event.senderFrame?.url;
      if (!frameUrl || !isTrustedFrameUrl(frameUrl)) return forbidden;
      return core.call(channel, arg);
    });
  }
  const unsubscribe = core.events.subscribe((event, payload) => {
    for (const contents of webContents.getAllWebContents()) {
      if (!contents.isDestroyed() && isTrustedFrameUrl(contents.getURL())) contents.send(event, payload);
    }
  });
  return () => {
    unsubscribe();
    for (const channel of channelNames) ipcMain.removeHandler(channel);
  };
}
