import { createApi } from '../../../shared/client';
import type { Bridge } from '../../../shared/ipc';

declare global {
  interface Window {
    /** Exposed by the preload (or the e2e test host): the IPC contract, nothing else. */
    api: Bridge;
  }
}

/** Typed calls to main; a failed call throws IpcCallError with main's error code. */
export const api = createApi(window.api);
