import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isChannel, isEventName, type Bridge } from '../shared/ipc';

// Exactly the contract: known channels in, known events out. No ipcRenderer, no env.
const bridge: Bridge = {
  invoke(channel, arg) {
    if (!isChannel(channel)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'unknown_channel', message: `There is no IPC channel named ${String(channel)}.` },
      });
    }
    return ipcRenderer.invoke(channel, arg);
  },
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`There is no event named ${String(event)}.`);
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(event, forward);
    return () => {
      ipcRenderer.removeListener(event, forward);
    };
  },
};

contextBridge.exposeInMainWorld('api', bridge);
