import { test as base } from '@playwright/test';
import { startTestHost, type TestHost } from './host/server';

/** Each test gets its own data folder and its own host running the real core. */
export const test = base.extend<{ host: TestHost; exportPath: string }>({
  // Where the save dialog "puts" an export: the test's own output folder.
  exportPath: async ({}, use, testInfo) => {
    await use(testInfo.outputPath('export.csv'));
  },
  host: async ({ exportPath }, use, testInfo) => {
    const host = await startTestHost({
      dataDir: testInfo.outputPath('data'),
      chooseExportPath: () => Promise.resolve(exportPath),
    });
    await use(host);
    await host.close();
  },
});

/** Waits until the demo account's first sync has landed in the local database. */
export async function waitForFirstSync(host: TestHost, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const status = await host.core.handlers['sync:status'](undefined);
    if (status.lastSyncedAt && status.state !== 'syncing') return;
    if (status.state === 'failed') throw new Error(`The demo sync failed: ${status.error ?? 'no reason given'}`);
    if (Date.now() - started > timeoutMs) throw new Error('The demo sync did not finish in time.');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export { expect } from '@playwright/test';
