/**
 * Runs in the page in place of the preload: the same `window.api` Bridge, carried over
 * loopback HTTP (calls) and server-sent events (events) to the test host.
 */
import { isChannel, isEventName, type Bridge, type Envelope } from '../../../src/shared/ipc';

declare global {
  interface Window {
    api: Bridge;
  }
}

const listeners = new Map<string, Set<(payload: unknown) => void>>();
let source: EventSource | null = null;

function ensureEventSource(): void {
  if (source) return;
  source = new EventSource('/__host/events');
  source.onmessage = (message: MessageEvent) => {
    const { event, payload } = JSON.parse(message.data as string) as { event: string; payload: unknown };
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
}

const bridge: Bridge = {
  async invoke(channel, arg) {
    if (!isChannel(channel)) {
      return {
        ok: false,
        error: { code: 'unknown_channel', message: `There is no IPC channel named ${String(channel)}.` },
      };
    }
    const response = await fetch('/__host/ipc', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel, arg }),
    });
    return (await response.json()) as Envelope<unknown>;
  },
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`There is no event named ${String(event)}.`);
    ensureEventSource();
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => {
      set.delete(listener);
    };
  },
};

Object.defineProperty(window, 'api', { value: Object.freeze(bridge), writable: false });
