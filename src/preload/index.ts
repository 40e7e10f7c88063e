/**
 * The preload: `window.api = { invoke, on }` for the contract's channels and events only
 * (src/shared/ipc.ts). `invoke` answers with envelopes (`{ ok, value }` or `{ ok: false, error }`)
 * and never throws: contextBridge copies only an Error's message and stack, so a `code` thrown
 * here would not reach the page. The renderer's `createApi` (src/shared/client.ts) turns an error
 * envelope into a thrown `IpcCallError` carrying the code.
 */
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
