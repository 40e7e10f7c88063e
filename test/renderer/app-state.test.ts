// What every screen shares is read once at start while main's events keep it current. A sync that
// starts while that first read is on its way is announced by an event; the older read must not
// put the app back to "not synced yet" (the dashboard's first-sync panel would wait without a
// progress bar until the sync's next change).
import { afterEach, describe, expect, it } from 'vitest';

import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { SyncStatus } from '../../src/shared/types';
import { bridge } from './bridge';

const idle: SyncStatus = {
  state: 'idle',
  progress: null,
  lastRun: null,
  lastSyncedAt: null,
  nextSyncAt: null,
  online: true,
  error: null,
};
const syncing: SyncStatus = {
  ...idle,
  state: 'syncing',
  progress: {
    mode: 'full',
    step: 'Shipments',
    pagesDone: 1,
    pagesTotal: 4,
    requests: 1,
    rateLimited: 0,
    etaSeconds: 3,
  },
};

let stop: (() => void) | undefined;
afterEach(() => stop?.());

function answerStartUp(status: () => Promise<SyncStatus>): void {
  bridge.answer('app:info', () => ({
    name: 'Quayside',
    version: '1',
    dataDir: '/data',
    demo: true,
    versions: { node: '24', electron: null, chrome: null },
  }));
  bridge.answer('settings:get', () => ({
    theme: 'system',
    timeDisplay: 'local',
    syncIntervalMinutes: 15,
    rates: { currency: 'USD', sets: [] },
  }));
  bridge.answer('profiles:list', () => ({
    profiles: [],
    activeId: null,
    keyStorage: { kind: 'keychain', note: null },
  }));
  bridge.answer('sync:status', status);
}

describe('the app state at start', () => {
  it('keeps a sync:status event that arrives while the first read is on its way', async () => {
    let answer!: (status: SyncStatus) => void;
    answerStartUp(() => new Promise((resolve) => (answer = resolve)));
    const started = app.start();
    await Promise.resolve();
    bridge.emit('sync:status', syncing);
    answer(idle);
    stop = await started;
    expect(app.sync?.state).toBe('syncing');
    expect(app.progress?.step).toBe('Shipments');
  });

  it('takes the read when no event came in the meantime', async () => {
    answerStartUp(() => Promise.resolve({ ...syncing, online: false }));
    stop = await app.start();
    expect(app.sync?.state).toBe('syncing');
    expect(app.online).toBe(false);
    expect(app.progress?.pagesDone).toBe(1);
  });
});
