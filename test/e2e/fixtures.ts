import { test as base } from '@playwright/test';
import { startTestHost, type TestHost } from './host/server';

/** Each test gets its own data folder and its own host running the real core. */
export const test = base.extend<{ host: TestHost }>({
  host: async ({}, use, testInfo) => {
    const host = await startTestHost({ dataDir: testInfo.outputPath('data') });
    await use(host);
    await host.close();
  },
});

export { expect } from '@playwright/test';
